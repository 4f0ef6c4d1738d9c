//! The whole truth of a Norse Wars game: pieces, shields, whose turn, the
//! stalemate count. A grid of cells is kept beside it for fast look-ups and
//! rebuilt whenever a state is read.

use crate::board::{Hex, HexagonLabels};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{Deref, DerefMut};

/// Piece slots per seat: the Jarl and W1..W9.
pub const SLOTS: usize = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Piece {
    pub seat: u8,
    /// 0 is the Jarl; 1..=9 are Warriors W1..W9.
    pub number: u8,
    /// Where it stands; `None` once eliminated (or never in play).
    pub at: Option<Hex>,
}

impl Piece {
    pub fn is_jarl(&self) -> bool {
        self.number == 0
    }
    pub fn name(&self) -> String {
        piece_name(self.number)
    }
}

pub fn piece_name(number: u8) -> String {
    if number == 0 {
        "J".to_string()
    } else {
        format!("W{number}")
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    pub alive: bool,
    pub team: u8,
    /// The Jarl has no Warriors left and was marked at a starvation.
    pub starving: bool,
    /// The owner's standing order of which Warrior starves first among
    /// equidistant ones (numbers), from `starve` orders.
    pub starve_preference: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Draft shields: players place Shields one at a time.
    Shields,
    Move,
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Opts {
    pub fog: bool,
    pub draft_shields: bool,
    pub sudden_death: bool,
    pub teams: bool,
}

/// The serialised part of the state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Core {
    /// The board's radius as it started: labels are always on this board.
    pub grid_radius: i32,
    /// The board's radius now (smaller after sudden-death shrinks).
    pub radius: i32,
    pub options: Opts,
    pub seats: Vec<SeatState>,
    /// `SLOTS` per seat, in seat order.
    pub pieces: Vec<Piece>,
    pub shields: Vec<Hex>,
    pub phase: Phase,
    /// Shields still to place in the draft-shields phase, and by whom (seats,
    /// first one next).
    pub shield_order: Vec<u8>,
    /// Rounds count from 1.
    pub round: u32,
    /// This round's seats in playing order.
    pub order: Vec<u8>,
    /// Index into `order` of the seat to move.
    pub next: usize,
    /// Rounds in a row with no piece pushed off the board.
    pub stalemate: u32,
    /// A piece was pushed off during the current round.
    pub eliminated_this_round: bool,
    /// Set when the game is over: the winning seats (empty for a draw).
    pub winners: Option<Vec<u8>>,
    pub result: Option<String>,
}

pub const EMPTY: u8 = 0;
pub const SHIELD: u8 = 255;

/// The state and its cell grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    core: Core,
    /// (2R+1)² cells over the starting board: EMPTY, SHIELD or piece index + 1.
    cells: Vec<u8>,
}

impl Deref for State {
    type Target = Core;
    fn deref(&self) -> &Core {
        &self.core
    }
}

impl DerefMut for State {
    fn deref_mut(&mut self) -> &mut Core {
        &mut self.core
    }
}

impl Serialize for State {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.core.serialize(s)
    }
}

/// Why a stored core is not a Norse Wars state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadCore {
    Radius { radius: i32, grid: i32 },
    PieceCount,
    ShieldOff(Hex),
    Shared(Hex),
    PieceOrder,
    PieceOff(Hex),
}

impl fmt::Display for BadCore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadCore::Radius { radius, grid } => {
                write!(f, "board radius {radius} / {grid} out of range")
            }
            BadCore::PieceCount => f.write_str("piece table does not match the seats"),
            BadCore::ShieldOff(h) => write!(f, "a shield stands off the board at {h:?}"),
            BadCore::Shared(h) => write!(f, "two things share hex {h:?}"),
            BadCore::PieceOrder => f.write_str("piece table out of order"),
            BadCore::PieceOff(h) => write!(f, "a piece stands off the board at {h:?}"),
        }
    }
}

crate::games::rules_error::rules_detail!(BadCore, |self| K::State);

/// The bots' determinisation (`bot.rs`) still speaks in text.
impl From<BadCore> for String {
    fn from(e: BadCore) -> String {
        e.to_string()
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let core = Core::deserialize(d)?;
        State::from_core(core).map_err(serde::de::Error::custom)
    }
}

impl State {
    /// Build the grid from the core, checking that no two things share a hex.
    pub fn from_core(core: Core) -> Result<State, BadCore> {
        let g = core.grid_radius;
        if !(1..=12).contains(&g) || core.radius > g || core.radius < 0 {
            return Err(BadCore::Radius {
                radius: core.radius,
                grid: g,
            });
        }
        if core.pieces.len() != core.seats.len() * SLOTS {
            return Err(BadCore::PieceCount);
        }
        let side = (2 * g + 1) as usize;
        let mut st = State {
            core,
            cells: vec![EMPTY; side * side],
        };
        let shields = st.core.shields.clone();
        for h in shields {
            if h.length() > st.radius {
                return Err(BadCore::ShieldOff(h));
            }
            let i = st.index(h);
            if st.cells[i] != EMPTY {
                return Err(BadCore::Shared(h));
            }
            st.cells[i] = SHIELD;
        }
        for (n, p) in st.core.pieces.clone().into_iter().enumerate() {
            if p.seat as usize != n / SLOTS || p.number as usize != n % SLOTS {
                return Err(BadCore::PieceOrder);
            }
            if let Some(h) = p.at {
                if h.length() > st.radius {
                    return Err(BadCore::PieceOff(h));
                }
                let i = st.index(h);
                if st.cells[i] != EMPTY {
                    return Err(BadCore::Shared(h));
                }
                st.cells[i] = n as u8 + 1;
            }
        }
        Ok(st)
    }

    pub fn core(&self) -> &Core {
        &self.core
    }

    pub fn labels(&self) -> HexagonLabels {
        HexagonLabels {
            radius: self.grid_radius,
        }
    }

    pub fn label(&self, h: Hex) -> String {
        self.labels().label(h)
    }

    #[inline]
    fn index(&self, h: Hex) -> usize {
        let g = self.core.grid_radius;
        ((h.q + g) * (2 * g + 1) + (h.r + g)) as usize
    }

    #[inline]
    pub fn on_board(&self, h: Hex) -> bool {
        h.length() <= self.core.radius
    }

    /// The cell at an on-board hex.
    #[inline]
    pub fn cell(&self, h: Hex) -> u8 {
        self.cells[self.index(h)]
    }

    /// The piece index at a hex, if any.
    #[inline]
    pub fn piece_at(&self, h: Hex) -> Option<usize> {
        if !self.on_board(h) {
            return None;
        }
        match self.cell(h) {
            EMPTY | SHIELD => None,
            c => Some(c as usize - 1),
        }
    }

    #[inline]
    pub fn is_shield(&self, h: Hex) -> bool {
        self.on_board(h) && self.cell(h) == SHIELD
    }

    pub fn slot(seat: usize, number: u8) -> usize {
        seat * SLOTS + number as usize
    }

    pub fn jarl(&self, seat: usize) -> &Piece {
        &self.core.pieces[State::slot(seat, 0)]
    }

    /// Move a piece (or take it off the board with `None`).
    pub fn put(&mut self, piece: usize, to: Option<Hex>) {
        if let Some(from) = self.core.pieces[piece].at {
            let i = self.index(from);
            self.cells[i] = EMPTY;
        }
        if let Some(h) = to {
            let i = self.index(h);
            debug_assert_eq!(self.cells[i], EMPTY, "two pieces on one hex");
            self.cells[i] = piece as u8 + 1;
        }
        self.core.pieces[piece].at = to;
    }

    pub fn add_shield(&mut self, h: Hex) {
        let i = self.index(h);
        self.cells[i] = SHIELD;
        self.core.shields.push(h);
        self.core.shields.sort();
    }

    pub fn remove_shield(&mut self, h: Hex) {
        let i = self.index(h);
        self.cells[i] = EMPTY;
        self.core.shields.retain(|&s| s != h);
    }

    pub fn friendly(&self, a: usize, b: usize) -> bool {
        self.core.seats[a].team == self.core.seats[b].team
    }

    /// Seats of the living players.
    pub fn alive_seats(&self) -> impl Iterator<Item = usize> + '_ {
        self.core
            .seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.alive)
            .map(|(i, _)| i)
    }

    pub fn pieces_of(&self, seat: usize) -> impl Iterator<Item = (usize, &Piece)> + '_ {
        let base = seat * SLOTS;
        self.core.pieces[base..base + SLOTS]
            .iter()
            .enumerate()
            .filter(|(_, p)| p.at.is_some())
            .map(move |(k, p)| (base + k, p))
    }

    /// The seat to move, if the game waits for one.
    pub fn to_move(&self) -> Option<usize> {
        match self.core.phase {
            Phase::Over => None,
            Phase::Shields => self.core.shield_order.first().map(|&s| s as usize),
            Phase::Move => self.core.order.get(self.core.next).map(|&s| s as usize),
        }
    }
}
