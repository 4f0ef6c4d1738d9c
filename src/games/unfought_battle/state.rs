//! The whole truth of an Unfought Battle: the board, both sides' forces
//! with their hidden powers, Shih, what each side has learnt, the
//! domination counters, the phase and the result.

use super::board::Board;
use super::ruleset::Ruleset;
use crate::board::Hex;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Force {
    /// 1-based: the force is called `f<id>` by its owner.
    pub id: u8,
    pub at: Hex,
    /// 0 until deployment assigns it.
    pub power: u8,
    pub alive: bool,
}

impl Force {
    pub fn name(&self) -> String {
        format!("f{}", self.id)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    pub shih: u32,
    /// In id order: `forces[i].id == i + 1`.
    pub forces: Vec<Force>,
    /// Consecutive turns ended holding enough Contentious hexes.
    pub domination: u32,
    /// Enemy force ids whose power this side knows (scouted, fought, or
    /// fallen), sorted.
    pub known: Vec<u8>,
    pub conceded: bool,
}

impl Side {
    pub fn living(&self) -> impl Iterator<Item = &Force> {
        self.forces.iter().filter(|f| f.alive)
    }
    pub fn at(&self, h: Hex) -> Option<&Force> {
        self.forces.iter().find(|f| f.alive && f.at == h)
    }
    pub fn learn(&mut self, id: u8) {
        if let Err(i) = self.known.binary_search(&id) {
            self.known.insert(i, id);
        }
    }
    pub fn knows(&self, id: u8) -> bool {
        self.known.binary_search(&id).is_ok()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Both players assign the powers to their forces.
    Deploy,
    /// Both players send one order per living force.
    Orders,
    Over,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct End {
    /// The winning seat; `None` is a draw.
    pub winner: Option<usize>,
    /// The seat `how` speaks of ("lost its Sovereign", "conceded"), if one.
    pub subject: Option<usize>,
    pub how: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub board: Board,
    pub phase: Phase,
    /// The battle turn the orders phase is for (1 for the first); turns
    /// already resolved are `turn - 1`.
    pub turn: u32,
    pub sides: [Side; 2],
    pub end: Option<End>,
}

impl State {
    /// What is wrong with a state read from a game file: a board other
    /// than the ruleset's, a force off it or numbered out of turn, a power
    /// or a count beyond what the rules give.
    // A String error: the checks make their words where they find them;
    // `UnfoughtBattle::validate` types them as RulesError::Untyped.
    pub fn validate(&self, rules: &Ruleset) -> Result<(), String> {
        let b = &self.board;
        if b.size != rules.board.size || !b.on_board(b.centre) {
            return Err(format!(
                "a board of size {}, where the ruleset's is {}",
                b.size, rules.board.size
            ));
        }
        for h in b.contentious.iter().chain(&b.difficult) {
            if !b.on_board(*h) {
                return Err(format!("{} is not on the board", super::board::label(*h)));
            }
        }
        if b.radius.is_some_and(|r| !rules.shrink.radii.contains(&r)) {
            return Err(format!(
                "a safe radius of {:?}, not one of the ruleset's",
                b.radius
            ));
        }
        if !b.contentious.is_sorted() || !b.difficult.is_sorted() {
            return Err("the board's hex lists are out of order".into());
        }
        if self.turn > rules.victory.turn_cap + 1 {
            return Err(format!("turn {} is past the turn cap", self.turn));
        }
        for (seat, side) in self.sides.iter().enumerate() {
            let fail = |what: String| Err(format!("side {}: {what}", seat + 1));
            if side.shih > rules.shih.max {
                return fail(format!("{} shih, more than {}", side.shih, rules.shih.max));
            }
            if side.domination > rules.victory.domination_turns {
                return fail(format!("{} turns of domination", side.domination));
            }
            if side.forces.len() != rules.forces.powers.len() {
                return fail(format!("{} forces", side.forces.len()));
            }
            for (i, f) in side.forces.iter().enumerate() {
                if usize::from(f.id) != i + 1 {
                    return fail(format!("force {} is numbered {}", i + 1, f.id));
                }
                if f.power != 0 && !rules.forces.powers.contains(&f.power) {
                    return fail(format!("{} has power {}", f.name(), f.power));
                }
                if !b.on_board(f.at) {
                    return fail(format!("{} is off the board", f.name()));
                }
            }
        }
        Ok(())
    }

    /// The living force of either side on `h`, with its seat.
    pub fn occupant(&self, h: Hex) -> Option<(usize, &Force)> {
        (0..2).find_map(|s| self.sides[s].at(h).map(|f| (s, f)))
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The Contentious hexes `seat` holds (one of its forces stands there).
    pub fn holds(&self, seat: usize) -> Vec<Hex> {
        self.board
            .contentious
            .iter()
            .copied()
            .filter(|&c| self.sides[seat].at(c).is_some())
            .collect()
    }
}
