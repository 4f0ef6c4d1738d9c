//! The ruleset data of Norse Wars (`games/norse-wars.toml`).

use crate::games::RulesError;
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    pub name: String,
    pub title: String,
    pub version: String,
    pub pieces: PieceRules,
    pub starvation: Cadence,
    pub sudden_death: Cadence,
    pub fog: Fog,
    pub scaling: Vec<Scaling>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceRules {
    pub warrior_strength: u32,
    pub jarl_strength: u32,
    pub warrior_steps: u32,
    pub draft_warriors: u32,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cadence {
    pub first_after: u32,
    pub repeat_every: u32,
}

impl Cadence {
    /// Does a stalemate of `rounds` rounds trigger this cadence?
    pub fn triggers(&self, rounds: u32) -> bool {
        rounds >= self.first_after
            && (rounds - self.first_after).is_multiple_of(self.repeat_every.max(1))
    }

    /// Rounds until the next trigger, from a stalemate of `rounds`.
    pub fn rounds_to_next(&self, rounds: u32) -> u32 {
        if rounds < self.first_after {
            self.first_after - rounds
        } else {
            let every = self.repeat_every.max(1);
            every - (rounds - self.first_after) % every
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fog {
    pub range: i32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scaling {
    pub players: usize,
    pub radius: i32,
    pub table_shields: usize,
    pub shields: usize,
    pub warriors: u8,
}

impl Ruleset {
    pub fn parse(text: &str) -> Result<Ruleset, RulesError> {
        let rules: Ruleset = toml::from_str(text).map_err(|e| RulesError::RulesetUnreadable {
            title: "Norse Wars",
            error: Box::new(e),
        })?;
        let mut problems = Vec::new();
        if rules.scaling.is_empty() {
            problems.push(BadRuleset::NoScaling.into());
        }
        for s in &rules.scaling {
            if !(2..=6).contains(&s.players) {
                problems.push(BadRuleset::Seats { players: s.players }.into());
            }
            if !(2..=12).contains(&s.radius) {
                problems.push(
                    BadRuleset::Radius {
                        players: s.players,
                        radius: s.radius,
                    }
                    .into(),
                );
            }
            if s.warriors > 9 {
                problems.push(BadRuleset::Warriors { players: s.players }.into());
            }
        }
        if rules.pieces.warrior_steps == 0 || rules.pieces.warrior_steps > 2 {
            problems.push(BadRuleset::WarriorSteps.into());
        }
        if problems.is_empty() {
            Ok(rules)
        } else {
            Err(RulesError::joined(problems))
        }
    }

    pub fn scaling_for(&self, players: usize) -> Option<&Scaling> {
        self.scaling.iter().find(|s| s.players == players)
    }
}

/// Why a Norse Wars ruleset's numbers are refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadRuleset {
    NoScaling,
    /// A scaling row for a player count the game does not seat.
    Seats {
        players: usize,
    },
    Radius {
        players: usize,
        radius: i32,
    },
    /// More Warriors than W1..W9.
    Warriors {
        players: usize,
    },
    WarriorSteps,
}

impl std::fmt::Display for BadRuleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadRuleset::NoScaling => f.write_str("the ruleset has no [[scaling]] rows"),
            BadRuleset::Seats { players } => write!(
                f,
                "scaling row for {players} players: Norse Wars seats 2 to 6"
            ),
            BadRuleset::Radius { players, radius } => write!(
                f,
                "scaling row for {players} players: radius {radius} is outside 2..=12"
            ),
            BadRuleset::Warriors { players } => write!(
                f,
                "scaling row for {players} players: at most 9 Warriors (W1..W9)"
            ),
            BadRuleset::WarriorSteps => f.write_str("pieces.warrior_steps must be 1 or 2"),
        }
    }
}

crate::games::rules_error::rules_detail!(BadRuleset, |self| K::Ruleset);
