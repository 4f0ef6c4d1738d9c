//! The ruleset data of The Unfought Battle (`games/unfought-battle.toml`).

use crate::board::Hex;
use crate::games::rules_error::{self, RulesError};
use serde::Deserialize;

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
            p.push("board.size must be 3..=12".to_string());
        }
        let on = |h: [i32; 2]| (0..b.size).contains(&h[0]) && (0..b.size).contains(&h[1]);
        if !on(b.centre) {
            p.push("board.centre is off the board".to_string());
        }
        if b.contentious_from > b.contentious_to
            || !on([b.contentious_from, b.contentious_from])
            || !on([b.contentious_to, b.contentious_to])
        {
            p.push("board.contentious_from..=contentious_to must lie on the board".to_string());
        }
        let span = (b.contentious_to - b.contentious_from + 1).max(0) as usize;
        if b.contentious == 0 || b.contentious > span * span {
            p.push("board.contentious must be 1..= the central hexes".to_string());
        }
        if b.difficult_min > b.difficult_max {
            p.push("board.difficult_min exceeds difficult_max".to_string());
        }
        if b.max_draws == 0 {
            p.push("board.max_draws must be at least 1".to_string());
        }
        for (i, s) in b.starts.iter().enumerate() {
            if s.len() != n {
                p.push(format!(
                    "board.starts[{i}] lists {} hexes for {n} forces",
                    s.len()
                ));
            }
            if !s.iter().all(|h| on(*h)) || !on(b.corners[i]) {
                p.push(format!(
                    "board.starts[{i}] or corners[{i}] is off the board"
                ));
            }
        }
        if n == 0 || n > 9 {
            p.push("forces.powers must list 1 to 9 powers".to_string());
        }
        let mut sorted = r.forces.powers.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != n || sorted.first() == Some(&0) {
            p.push("forces.powers must be distinct and positive".to_string());
        }
        if !r.forces.powers.contains(&r.forces.sovereign) {
            p.push("forces.sovereign must be one of forces.powers".to_string());
        }
        if r.shih.start > r.shih.max {
            p.push("shih.start exceeds shih.max".to_string());
        }
        if r.shrink.every == 0 {
            p.push("shrink.every must be at least 1".to_string());
        }
        if r.shrink.radii.windows(2).any(|w| w[1] >= w[0]) || r.shrink.radii.iter().any(|&x| x < 0)
        {
            p.push("shrink.radii must shrink, and stay 0 or more".to_string());
        }
        if r.victory.turn_cap == 0 || r.victory.domination_turns == 0 {
            p.push("victory.turn_cap and domination_turns must be at least 1".to_string());
        }
        if r.victory.domination_hexes == 0 || r.victory.domination_hexes > b.contentious {
            p.push("victory.domination_hexes must be 1..=board.contentious".to_string());
        }
        if p.is_empty() {
            Ok(r)
        } else {
            // The bounds still say their problems in words here.
            Err(RulesError::joined(
                p.into_iter()
                    .map(|t| RulesError::untyped(rules_error::Kind::Ruleset, t))
                    .collect(),
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
