//! The ruleset data of Stack Wars (`games/stack-wars.toml`).

use crate::games::RulesError;
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    pub name: String,
    pub title: String,
    pub version: String,
    pub board: BoardRules,
    pub armies: ArmyRules,
    pub end: EndRules,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRules {
    pub default_size: u8,
    pub min_size: u8,
    pub max_size: u8,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyRules {
    /// Reserves per player = this × the board's width.
    pub reserves_per_column: u16,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndRules {
    /// Turns in a row without a fortify, attack or invasion that draw the
    /// game (0: no cap).
    pub quiet_limit: u32,
}

/// The largest board herald draws and numbers (two-digit coordinates).
pub const LARGEST: u8 = 26;

impl Ruleset {
    pub fn parse(text: &str) -> Result<Ruleset, RulesError> {
        let rules: Ruleset = toml::from_str(text).map_err(|e| RulesError::RulesetUnreadable {
            title: "Stack Wars",
            error: Box::new(e),
        })?;
        let b = rules.board;
        let mut problems = Vec::new();
        if b.min_size < 3 || b.max_size > LARGEST || b.min_size > b.max_size {
            problems.push(BadRuleset::Sizes {
                min: b.min_size,
                max: b.max_size,
            });
        }
        if !(b.min_size..=b.max_size).contains(&b.default_size) {
            problems.push(BadRuleset::DefaultSize {
                default: b.default_size,
                min: b.min_size,
                max: b.max_size,
            });
        }
        if rules.armies.reserves_per_column == 0 || rules.armies.reserves_per_column > 20 {
            problems.push(BadRuleset::Reserves);
        }
        if problems.is_empty() {
            Ok(rules)
        } else {
            Err(RulesError::joined(
                problems.into_iter().map(RulesError::from).collect(),
            ))
        }
    }

    /// The reserves each player starts with on an N×N board.
    pub fn reserves(&self, size: u8) -> u16 {
        self.armies.reserves_per_column * size as u16
    }
}

/// Why a Stack Wars ruleset's numbers are refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadRuleset {
    /// Board sizes outside 3..=LARGEST (or the wrong way round).
    Sizes {
        min: u8,
        max: u8,
    },
    DefaultSize {
        default: u8,
        min: u8,
        max: u8,
    },
    Reserves,
}

impl std::fmt::Display for BadRuleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadRuleset::Sizes { min, max } => {
                write!(f, "board sizes {min}..={max} must lie within 3..={LARGEST}")
            }
            BadRuleset::DefaultSize { default, min, max } => {
                write!(f, "board.default_size {default} is outside {min}..={max}")
            }
            BadRuleset::Reserves => f.write_str("armies.reserves_per_column must be 1..=20"),
        }
    }
}

crate::games::rules_error::rules_detail!(BadRuleset, |self| K::Ruleset);
