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
    /// What is wrong with a side read from a game file.
    fn validate(&self, rules: &Ruleset, b: &Board) -> Result<(), BadSide> {
        if self.shih > rules.shih.max {
            return Err(BadSide::Shih {
                shih: self.shih,
                max: rules.shih.max,
            });
        }
        if self.domination > rules.victory.domination_turns {
            return Err(BadSide::Domination(self.domination));
        }
        if self.forces.len() != rules.forces.powers.len() {
            return Err(BadSide::Forces(self.forces.len()));
        }
        for (i, f) in self.forces.iter().enumerate() {
            if usize::from(f.id) != i + 1 {
                return Err(BadSide::Numbered {
                    at: i + 1,
                    id: f.id,
                });
            }
            if f.power != 0 && !rules.forces.powers.contains(&f.power) {
                return Err(BadSide::Power {
                    id: f.id,
                    power: f.power,
                });
            }
            if !b.on_board(f.at) {
                return Err(BadSide::OffBoard { id: f.id });
            }
        }
        Ok(())
    }

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
    pub fn validate(&self, rules: &Ruleset) -> Result<(), BadState> {
        let b = &self.board;
        if b.size != rules.board.size || !b.on_board(b.centre) {
            return Err(BadState::Size {
                size: b.size,
                rules: rules.board.size,
            });
        }
        for h in b.contentious.iter().chain(&b.difficult) {
            if !b.on_board(*h) {
                return Err(BadState::OffBoard(*h));
            }
        }
        if b.radius.is_some_and(|r| !rules.shrink.radii.contains(&r)) {
            return Err(BadState::Radius(b.radius));
        }
        if !b.contentious.is_sorted() || !b.difficult.is_sorted() {
            return Err(BadState::Unsorted);
        }
        if self.turn > rules.victory.turn_cap + 1 {
            return Err(BadState::Turn(self.turn));
        }
        for (seat, side) in self.sides.iter().enumerate() {
            side.validate(rules, b).map_err(|why| BadState::Side {
                seat: seat + 1,
                why,
            })?;
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

/// Why a state read from a game file is not one the rules make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadState {
    /// A board size other than the ruleset's.
    Size {
        size: i32,
        rules: i32,
    },
    OffBoard(Hex),
    Radius(Option<i32>),
    Unsorted,
    Turn(u32),
    /// A side (`seat`: 1 or 2) that breaks a rule.
    Side {
        seat: usize,
        why: BadSide,
    },
}

/// Why a side read from a game file is not one the rules make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadSide {
    Shih {
        shih: u32,
        max: u32,
    },
    Domination(u32),
    Forces(usize),
    /// The force at place `at` (1-based) carries another number.
    Numbered {
        at: usize,
        id: u8,
    },
    Power {
        id: u8,
        power: u8,
    },
    OffBoard {
        id: u8,
    },
}

impl std::fmt::Display for BadState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadState::Size { size, rules } => {
                write!(f, "a board of size {size}, where the ruleset's is {rules}")
            }
            BadState::OffBoard(h) => write!(f, "{} is not on the board", super::board::label(*h)),
            BadState::Radius(r) => write!(f, "a safe radius of {r:?}, not one of the ruleset's"),
            BadState::Unsorted => f.write_str("the board's hex lists are out of order"),
            BadState::Turn(t) => write!(f, "turn {t} is past the turn cap"),
            BadState::Side { seat, why } => write!(f, "side {seat}: {why}"),
        }
    }
}

impl std::fmt::Display for BadSide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadSide::Shih { shih, max } => write!(f, "{shih} shih, more than {max}"),
            BadSide::Domination(d) => write!(f, "{d} turns of domination"),
            BadSide::Forces(n) => write!(f, "{n} forces"),
            BadSide::Numbered { at, id } => write!(f, "force {at} is numbered {id}"),
            BadSide::Power { id, power } => write!(f, "f{id} has power {power}"),
            BadSide::OffBoard { id } => write!(f, "f{id} is off the board"),
        }
    }
}

crate::games::rules_error::rules_detail!(BadState, |self| K::State);
