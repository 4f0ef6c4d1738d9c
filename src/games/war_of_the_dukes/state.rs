//! The whole truth: every piece of both sides and where it stands, the turn
//! and whose phase it is, and the result once there is one.

use super::map::{Ix, Label, Terrain};
use super::ruleset::Ruleset;
use super::units::{Kind, Side, UnitId};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Both sides deploy at once.
    Deployment,
    /// One side moves and attacks.
    Play(Side),
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub side: Side,
    pub id: UnitId,
    /// `None`: not deployed yet (during deployment) or eliminated.
    pub at: Option<Label>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct End {
    pub winner: Side,
    /// "total" or "marginal".
    pub victory: String,
    pub how: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// 0 during deployment, then 1..=turns.
    pub turn: u32,
    pub phase: Phase,
    /// Every piece, Orfburg's first; the order never changes.
    pub units: Vec<Unit>,
    pub result: Option<End>,
    /// The players agreed to a draw (issue 52): the game is over, nobody
    /// won. Absent while false, so states written before it read and hash
    /// as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drawn: bool,
}

/// Who stands on one hex: at most one combat unit and one Duke, one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Occ {
    pub unit: Option<u8>,
    pub duke: Option<u8>,
}

impl Occ {
    pub fn is_empty(self) -> bool {
        self.unit.is_none() && self.duke.is_none()
    }
    /// The pieces here, the combat unit first.
    pub fn pieces(self) -> impl Iterator<Item = u8> {
        self.unit.into_iter().chain(self.duke)
    }
}

/// The occupancy of every hex, built from a state.
#[derive(Clone, Debug)]
pub struct Board {
    pub occ: Vec<Occ>,
    pub pos: Vec<Option<Ix>>,
}

impl Board {
    pub fn side_at(&self, st: &State, i: Ix) -> Option<Side> {
        self.occ[i as usize]
            .pieces()
            .next()
            .map(|u| st.units[u as usize].side)
    }
}

impl State {
    /// A fresh game waiting for both deployments.
    pub fn new(rules: &Ruleset) -> State {
        let mut units = Vec::new();
        for side in Side::BOTH {
            for kind in Kind::ALL {
                for n in 0..rules.stats(kind).count {
                    let num = if kind == Kind::Duke { 0 } else { n + 1 };
                    units.push(Unit {
                        side,
                        id: UnitId { kind, num },
                        at: None,
                    });
                }
            }
        }
        State {
            turn: 0,
            phase: Phase::Deployment,
            units,
            result: None,
            drawn: false,
        }
    }

    pub fn mover(&self) -> Option<Side> {
        match self.phase {
            Phase::Play(s) => Some(s),
            _ => None,
        }
    }

    pub fn find(&self, side: Side, id: UnitId) -> Option<usize> {
        self.units.iter().position(|u| u.side == side && u.id == id)
    }

    pub fn duke(&self, side: Side) -> usize {
        self.find(side, UnitId::DUKE)
            .expect("every side has a Duke")
    }

    pub fn on_map(&self, side: Side) -> impl Iterator<Item = (usize, &Unit)> {
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.side == side && u.at.is_some())
    }

    pub fn board(&self, rules: &Ruleset) -> Board {
        let mut occ = vec![Occ::default(); rules.map.cells.len()];
        let mut pos = vec![None; self.units.len()];
        for (n, u) in self.units.iter().enumerate() {
            if let Some(l) = u.at {
                if let Some(i) = rules.map.ix(l) {
                    pos[n] = Some(i);
                    let o = &mut occ[i as usize];
                    if u.id.is_duke() {
                        o.duke = Some(n as u8);
                    } else {
                        o.unit = Some(n as u8);
                    }
                }
            }
        }
        Board { occ, pos }
    }

    /// Check a position: every piece on a map hex that is not a lake (but
    /// for a causeway, a lake hex with a bridge: see [`Ruleset::standable`]), at
    /// most one combat unit a hex, the Duke alone or with one friendly unit
    /// in a city or fortress, both Dukes on the map.
    pub fn validate(&self, rules: &Ruleset) -> Result<(), BadState> {
        let mut seen: Vec<Vec<usize>> = vec![Vec::new(); rules.map.cells.len()];
        for (n, u) in self.units.iter().enumerate() {
            let Some(l) = u.at else { continue };
            let i = rules.map.ix(l).ok_or(BadState::OffMap {
                side: u.side,
                unit: u.id,
                at: l,
            })?;
            if !rules.standable(i) {
                return Err(BadState::Terrain {
                    side: u.side,
                    unit: u.id,
                    at: l,
                    terrain: rules.map.cell(i).terrain,
                });
            }
            seen[i as usize].push(n);
        }
        for (i, here) in seen.iter().enumerate() {
            if here.len() < 2 {
                continue;
            }
            let a = &self.units[here[0]];
            let b = &self.units[here[1]];
            let ok = here.len() == 2
                && a.side == b.side
                && a.id.is_duke() != b.id.is_duke()
                && rules.at(i as Ix).stack;
            if !ok {
                return Err(BadState::Stacked {
                    at: rules.map.label(i as Ix),
                    pieces: here
                        .iter()
                        .map(|&n| (self.units[n].side, self.units[n].id))
                        .collect(),
                });
            }
        }
        if self.phase != Phase::Deployment {
            for side in Side::BOTH {
                if self.units[self.duke(side)].at.is_none() && self.result.is_none() && !self.drawn
                {
                    return Err(BadState::NoDuke(side));
                }
            }
        }
        Ok(())
    }

    /// `side` holds a place: at least one of its pieces stands in it and no
    /// enemy piece does.
    pub fn holds(&self, rules: &Ruleset, side: Side, place: usize) -> bool {
        let cells = &rules.map.places[place].cells;
        let mut mine = false;
        for u in &self.units {
            let Some(i) = u.at.and_then(|l| rules.map.ix(l)) else {
                continue;
            };
            if cells.contains(&i) {
                if u.side == side {
                    mine = true;
                } else {
                    return false;
                }
            }
        }
        mine
    }

    /// Orfburg controls the between-rivers area while no Wulfenburg piece
    /// stands in it.
    pub fn orfburg_controls_between(&self, rules: &Ruleset) -> bool {
        !self.on_map(Side::Wulfenburg).any(|(_, u)| {
            u.at.and_then(|l| rules.map.ix(l))
                .is_some_and(|i| rules.map.cell(i).between_rivers)
        })
    }

    /// Wulfenburg pieces in the between-rivers area.
    pub fn intruders(&self, rules: &Ruleset) -> Vec<String> {
        self.on_map(Side::Wulfenburg)
            .filter(|(_, u)| {
                u.at.and_then(|l| rules.map.ix(l))
                    .is_some_and(|i| rules.map.cell(i).between_rivers)
            })
            .map(|(_, u)| format!("{} {}", u.id, u.at.unwrap()))
            .collect()
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
}

/// Why a position (a stored state, or a position file's pieces) is not one
/// the rules make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadState {
    /// A piece on a hex off the map.
    OffMap { side: Side, unit: UnitId, at: Label },
    /// A piece on a hex no piece stands on.
    Terrain {
        side: Side,
        unit: UnitId,
        at: Label,
        terrain: Terrain,
    },
    /// Pieces sharing a hex they may not share.
    Stacked {
        at: Label,
        pieces: Vec<(Side, UnitId)>,
    },
    /// A side's Duke off the map in a game not over.
    NoDuke(Side),
}

impl std::fmt::Display for BadState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadState::OffMap { side, unit, at } => {
                write!(f, "{side} {unit} stands on {at}, which is not on the map")
            }
            BadState::Terrain {
                side,
                unit,
                at,
                terrain,
            } => write!(f, "{side} {unit} stands on {at}, a {}", terrain.name()),
            BadState::Stacked { at, pieces } => write!(
                f,
                "{at} holds {}: a hex holds one unit, or in a city or fortress one unit and its own Duke",
                pieces
                    .iter()
                    .map(|(s, u)| format!("{s} {u}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            BadState::NoDuke(side) => write!(f, "{side}'s Duke must be on the map"),
        }
    }
}

crate::games::rules_error::rules_detail!(BadState, |self| K::State);
