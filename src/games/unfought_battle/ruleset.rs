//! The ruleset data of The Unfought Battle (`games/unfought-battle.toml`).

use crate::board::Hex;
use crate::games::RulesError;
use serde::Deserialize;
use std::fmt;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    pub name: String,
    pub title: String,
    pub version: String,
    pub board: BoardRules,
    pub forces: ForceRules,
    pub shih: ShihRules,
    pub orders: OrderRules,
    pub combat: CombatRules,
    pub sight: SightRules,
    pub shrink: ShrinkRules,
    pub victory: VictoryRules,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRules {
    pub size: i32,
    pub centre: [i32; 2],
    pub contentious: usize,
    pub contentious_from: i32,
    pub contentious_to: i32,
    pub difficult_min: usize,
    pub difficult_max: usize,
    pub max_path_difference: i32,
    pub max_draws: u32,
    pub corners: [[i32; 2]; 2],
    pub starts: [Vec<[i32; 2]>; 2],
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceRules {
    pub powers: Vec<u8>,
    pub sovereign: u8,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShihRules {
    pub start: u32,
    pub max: u32,
    pub base: u32,
    pub per_contentious: u32,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderRules {
    pub r#move: u32,
    pub fortify: u32,
    pub ambush: u32,
    pub scout: u32,
    pub fortify_bonus: i32,
    pub ambush_bonus: i32,
    pub difficult_bonus: i32,
    pub scout_range: i32,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatRules {
    pub variance: i32,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SightRules {
    pub range: i32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShrinkRules {
    pub every: u32,
    pub radii: Vec<i32>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryRules {
    pub domination_hexes: usize,
    pub domination_turns: u32,
    pub turn_cap: u32,
}

impl Ruleset {
    /// Long (about 85 lines): every bound of the ruleset checked in turn,
    /// each adding to one list of problems so that all are told at once.
    pub fn parse(text: &str) -> Result<Ruleset, RulesError> {
        let r: Ruleset = toml::from_str(text).map_err(|e| RulesError::RulesetUnreadable {
            title: "Unfought Battle",
            error: Box::new(e),
        })?;
        let mut p = Vec::new();
        let b = &r.board;
        let n = r.forces.powers.len();
        if !(3..=12).contains(&b.size) {
            p.push(BadRuleset::Size);
        }
        let on = |h: [i32; 2]| (0..b.size).contains(&h[0]) && (0..b.size).contains(&h[1]);
        if !on(b.centre) {
            p.push(BadRuleset::Centre);
        }
        if b.contentious_from > b.contentious_to
            || !on([b.contentious_from, b.contentious_from])
            || !on([b.contentious_to, b.contentious_to])
        {
            p.push(BadRuleset::CentralOff);
        }
        let span = (b.contentious_to - b.contentious_from + 1).max(0) as usize;
        if b.contentious == 0 || b.contentious > span * span {
            p.push(BadRuleset::Contentious);
        }
        if b.difficult_min > b.difficult_max {
            p.push(BadRuleset::Difficult);
        }
        if b.max_draws == 0 {
            p.push(BadRuleset::MaxDraws);
        }
        for (i, s) in b.starts.iter().enumerate() {
            if s.len() != n {
                p.push(BadRuleset::Starts {
                    i,
                    hexes: s.len(),
                    forces: n,
                });
            }
            if !s.iter().all(|h| on(*h)) || !on(b.corners[i]) {
                p.push(BadRuleset::StartsOff { i });
            }
        }
        if n == 0 || n > 9 {
            p.push(BadRuleset::PowerCount);
        }
        let mut sorted = r.forces.powers.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != n || sorted.first() == Some(&0) {
            p.push(BadRuleset::Powers);
        }
        if !r.forces.powers.contains(&r.forces.sovereign) {
            p.push(BadRuleset::Sovereign);
        }
        if r.shih.start > r.shih.max {
            p.push(BadRuleset::Shih);
        }
        if r.shrink.every == 0 {
            p.push(BadRuleset::ShrinkEvery);
        }
        if r.shrink.radii.windows(2).any(|w| w[1] >= w[0]) || r.shrink.radii.iter().any(|&x| x < 0)
        {
            p.push(BadRuleset::Radii);
        }
        if r.victory.turn_cap == 0 || r.victory.domination_turns == 0 {
            p.push(BadRuleset::Turns);
        }
        if r.victory.domination_hexes == 0 || r.victory.domination_hexes > b.contentious {
            p.push(BadRuleset::DominationHexes);
        }
        if p.is_empty() {
            Ok(r)
        } else {
            Err(RulesError::joined(
                p.into_iter().map(RulesError::from).collect(),
            ))
        }
    }

    pub fn centre(&self) -> Hex {
        Hex::new(self.board.centre[0], self.board.centre[1])
    }

    pub fn forces(&self) -> usize {
        self.forces.powers.len()
    }

    /// The Shih an order kind costs.
    pub fn cost(&self, kind: Kind) -> u32 {
        match kind {
            Kind::Hold => 0,
            Kind::Move => self.orders.r#move,
            Kind::Fortify => self.orders.fortify,
            Kind::Ambush => self.orders.ambush,
            Kind::Scout => self.orders.scout,
        }
    }
}

/// The kinds of order, for costs (`orders::Act::kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Hold,
    Move,
    Fortify,
    Ambush,
    Scout,
}

/// A bound of the ruleset that its numbers break (each told by the keys it
/// names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadRuleset {
    Size,
    Centre,
    CentralOff,
    Contentious,
    Difficult,
    MaxDraws,
    PowerCount,
    Powers,
    Sovereign,
    Shih,
    ShrinkEvery,
    Radii,
    Turns,
    DominationHexes,
    /// `board.starts[i]` lists `hexes` hexes for `forces` forces.
    Starts {
        i: usize,
        hexes: usize,
        forces: usize,
    },
    /// `board.starts[i]` or `corners[i]` off the board.
    StartsOff {
        i: usize,
    },
}

impl fmt::Display for BadRuleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BadRuleset::Size => "board.size must be 3..=12",
            BadRuleset::Centre => "board.centre is off the board",
            BadRuleset::CentralOff => {
                "board.contentious_from..=contentious_to must lie on the board"
            }
            BadRuleset::Contentious => "board.contentious must be 1..= the central hexes",
            BadRuleset::Difficult => "board.difficult_min exceeds difficult_max",
            BadRuleset::MaxDraws => "board.max_draws must be at least 1",
            BadRuleset::PowerCount => "forces.powers must list 1 to 9 powers",
            BadRuleset::Powers => "forces.powers must be distinct and positive",
            BadRuleset::Sovereign => "forces.sovereign must be one of forces.powers",
            BadRuleset::Shih => "shih.start exceeds shih.max",
            BadRuleset::ShrinkEvery => "shrink.every must be at least 1",
            BadRuleset::Radii => "shrink.radii must shrink, and stay 0 or more",
            BadRuleset::Turns => "victory.turn_cap and domination_turns must be at least 1",
            BadRuleset::DominationHexes => "victory.domination_hexes must be 1..=board.contentious",
            BadRuleset::Starts { i, hexes, forces } => {
                return write!(
                    f,
                    "board.starts[{i}] lists {hexes} hexes for {forces} forces"
                )
            }
            BadRuleset::StartsOff { i } => {
                return write!(f, "board.starts[{i}] or corners[{i}] is off the board")
            }
        })
    }
}

crate::games::rules_error::rules_detail!(BadRuleset, |self| K::Ruleset);
