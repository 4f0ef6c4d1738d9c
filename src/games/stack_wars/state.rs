//! The whole truth of a Stack Wars game: the stacks on the board, each
//! side's reserves and points, whose turn, and the result once it is over.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The two sides. Seat 0 plays Black, who moves first; seat 1 plays White.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Black,
    White,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Black, Side::White];

    pub fn of_seat(seat: usize) -> Side {
        if seat == 0 {
            Side::Black
        } else {
            Side::White
        }
    }
    pub fn seat(self) -> usize {
        self as usize
    }
    pub fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }
    /// The row of this side's baseline: White row 0, Black row N-1.
    pub fn baseline(self, size: u8) -> u8 {
        match self {
            Side::White => 0,
            Side::Black => size - 1,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Black => "Black",
            Side::White => "White",
        }
    }
    pub fn letter(self) -> char {
        match self {
            Side::Black => 'B',
            Side::White => 'W',
        }
    }
    pub fn parse(s: &str) -> Option<Side> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" => Some(Side::Black),
            "white" | "w" => Some(Side::White),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A territory, `(row,col)` as the rules text writes it: row 0 is White's
/// baseline at the top, column 0 the left edge. Written `row,col`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    pub row: u8,
    pub col: u8,
}

impl Square {
    pub const fn new(row: u8, col: u8) -> Square {
        Square { row, col }
    }

    /// `8,4` (also `(8,4)`).
    pub fn parse(s: &str) -> Option<Square> {
        let s = s.trim().trim_start_matches('(').trim_end_matches(')');
        let (r, c) = s.split_once(',')?;
        Some(Square::new(r.trim().parse().ok()?, c.trim().parse().ok()?))
    }

    /// The orthogonal neighbours on an N×N board: up, left, right, down.
    pub fn neighbours(self, size: u8) -> impl Iterator<Item = Square> {
        let Square { row, col } = self;
        [
            (row.checked_sub(1), Some(col)),
            (Some(row), col.checked_sub(1)),
            (Some(row), (col + 1 < size).then_some(col + 1)),
            ((row + 1 < size).then_some(row + 1), Some(col)),
        ]
        .into_iter()
        .filter_map(|(r, c)| Some(Square::new(r?, c?)))
    }

    pub fn adjacent(self, other: Square) -> bool {
        self.row.abs_diff(other.row) + self.col.abs_diff(other.col) == 1
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.row, self.col)
    }
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Square::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not row,col")))
    }
}

/// One or more armies of one side on one territory (two or more form a
/// STACK).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stack {
    pub side: Side,
    pub armies: u16,
}

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub how: String,
}

/// A stack on the board, as the game file stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    pub at: Square,
    pub side: Side,
    pub armies: u16,
}

/// The serialised state: readable in the game file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Core {
    pub size: u8,
    pub move_onto_own: bool,
    pub quiet_limit: u32,
    /// Stacks in row-major order.
    pub stacks: Vec<Placed>,
    /// Black's, then White's.
    pub reserves: [u16; 2],
    pub points: [u16; 2],
    pub to_move: Side,
    /// Turns in a row without a fortify, attack or invasion.
    pub quiet: u32,
    pub result: Option<Ending>,
}

/// The state: the board as a grid of cells, plus the counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    pub size: u8,
    pub move_onto_own: bool,
    pub quiet_limit: u32,
    /// Row-major, `size × size`.
    cells: Vec<Option<Stack>>,
    pub reserves: [u16; 2],
    pub points: [u16; 2],
    pub to_move: Side,
    pub quiet: u32,
    pub result: Option<Ending>,
}

impl Serialize for State {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.core().serialize(s)
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        State::from_core(Core::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl State {
    /// An empty board with full reserves, Black to move.
    pub fn new(size: u8, reserves: u16, move_onto_own: bool, quiet_limit: u32) -> State {
        State {
            size,
            move_onto_own,
            quiet_limit,
            cells: vec![None; size as usize * size as usize],
            reserves: [reserves; 2],
            points: [0; 2],
            to_move: Side::Black,
            quiet: 0,
            result: None,
        }
    }

    pub fn core(&self) -> Core {
        Core {
            size: self.size,
            move_onto_own: self.move_onto_own,
            quiet_limit: self.quiet_limit,
            stacks: self
                .stacks()
                .map(|(at, s)| Placed {
                    at,
                    side: s.side,
                    armies: s.armies,
                })
                .collect(),
            reserves: self.reserves,
            points: self.points,
            to_move: self.to_move,
            quiet: self.quiet,
            result: self.result.clone(),
        }
    }

    /// Build the grid from the stored form, checking every rule a position
    /// must keep.
    pub fn from_core(core: Core) -> Result<State, CoreError> {
        if !(3..=super::ruleset::LARGEST).contains(&core.size) {
            return Err(CoreError::Size(core.size));
        }
        let mut st = State::new(core.size, 0, core.move_onto_own, core.quiet_limit);
        st.reserves = core.reserves;
        st.points = core.points;
        st.to_move = core.to_move;
        st.quiet = core.quiet;
        st.result = core.result;
        for p in core.stacks {
            if !st.on_board(p.at) {
                return Err(CoreError::OffBoard {
                    size: st.size,
                    at: p.at,
                });
            }
            if p.armies == 0 {
                return Err(CoreError::Empty(p.at));
            }
            if p.at.row == p.side.other().baseline(st.size) {
                return Err(CoreError::Baseline {
                    side: p.side,
                    at: p.at,
                });
            }
            if st.at(p.at).is_some() {
                return Err(CoreError::Two(p.at));
            }
            st.set(
                p.at,
                Some(Stack {
                    side: p.side,
                    armies: p.armies,
                }),
            );
        }
        Ok(st)
    }

    #[inline]
    pub fn on_board(&self, sq: Square) -> bool {
        sq.row < self.size && sq.col < self.size
    }

    #[inline]
    fn index(&self, sq: Square) -> usize {
        sq.row as usize * self.size as usize + sq.col as usize
    }

    #[inline]
    pub fn at(&self, sq: Square) -> Option<Stack> {
        self.cells[self.index(sq)]
    }

    #[inline]
    pub fn set(&mut self, sq: Square, stack: Option<Stack>) {
        let i = self.index(sq);
        self.cells[i] = stack;
    }

    /// Every square, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Square> {
        let n = self.size;
        (0..n).flat_map(move |r| (0..n).map(move |c| Square::new(r, c)))
    }

    /// Every stack on the board, row by row.
    pub fn stacks(&self) -> impl Iterator<Item = (Square, Stack)> + '_ {
        self.squares().filter_map(|sq| self.at(sq).map(|s| (sq, s)))
    }

    /// Armies of `side` on the board.
    pub fn in_play(&self, side: Side) -> u16 {
        self.cells
            .iter()
            .flatten()
            .filter(|s| s.side == side)
            .map(|s| s.armies)
            .sum()
    }

    pub fn reserve(&self, side: Side) -> u16 {
        self.reserves[side.seat()]
    }

    pub fn score(&self, side: Side) -> u16 {
        self.points[side.seat()]
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Does `side` control `sq`: its own baseline, or a territory holding
    /// one of its armies?
    pub fn controls(&self, side: Side, sq: Square) -> bool {
        match self.at(sq) {
            Some(s) => s.side == side,
            None => sq.row == side.baseline(self.size),
        }
    }

    /// Controlled by neither side: empty and on neither baseline.
    pub fn unclaimed(&self, sq: Square) -> bool {
        self.at(sq).is_none()
            && sq.row != Side::Black.baseline(self.size)
            && sq.row != Side::White.baseline(self.size)
    }

    /// The player to move, if the game waits for one.
    pub fn mover(&self) -> Option<Side> {
        (!self.is_over()).then_some(self.to_move)
    }
}

/// Why a stored or given position breaks a rule every Stack Wars position
/// keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoreError {
    /// A board size outside what any ruleset allows.
    Size(u8),
    OffBoard {
        size: u8,
        at: Square,
    },
    Empty(Square),
    /// A side's armies on the enemy's baseline.
    Baseline {
        side: Side,
        at: Square,
    },
    Two(Square),
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::Size(n) => write!(f, "board size {n} is out of range"),
            CoreError::OffBoard { size, at } => {
                write!(f, "a stack stands off the {size}×{size} board on {at}")
            }
            CoreError::Empty(at) => write!(f, "an empty stack on {at}"),
            CoreError::Baseline { side, at } => write!(
                f,
                "{side} armies on {at} stand on {}'s baseline (an army that reaches the enemy's baseline leaves play)",
                side.other()
            ),
            CoreError::Two(at) => write!(f, "two stacks on {at}"),
        }
    }
}
