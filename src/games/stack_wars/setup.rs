//! Starting a game: the options, the empty board, and games started from a
//! position file (`--setup`).

use super::ruleset::Ruleset;
use super::state::{Core, CoreError, Placed, Side, Square, State};
use crate::games::{parse_bool, Options, RulesError};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The options of one game, checked against the ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opts {
    pub size: u8,
    pub move_onto_own: bool,
}

pub fn parse_options(rules: &Ruleset, options: &Options) -> Result<Opts, RulesError> {
    let b = rules.board;
    let mut o = Opts {
        size: b.default_size,
        move_onto_own: false,
    };
    for (k, v) in options {
        match k.as_str() {
            "size" => {
                o.size = v
                    .parse::<u8>()
                    .ok()
                    .filter(|n| (b.min_size..=b.max_size).contains(n))
                    .ok_or_else(|| SetupError::Size {
                        value: v.clone(),
                        min: b.min_size,
                        max: b.max_size,
                        default: b.default_size,
                    })?
            }
            "move_onto_own" => o.move_onto_own = parse_bool(k, v)?,
            _ => return Err(SetupError::NoOption { name: k.clone() }.into()),
        }
    }
    Ok(o)
}

pub fn standard(rules: &Ruleset, opts: Opts) -> State {
    State::new(
        opts.size,
        rules.reserves(opts.size),
        opts.move_onto_own,
        rules.end.quiet_limit,
    )
}

/// A position file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Position {
    size: Option<u8>,
    #[serde(default = "black")]
    to_move: String,
    #[serde(default)]
    reserves: BTreeMap<String, u16>,
    #[serde(default)]
    points: BTreeMap<String, u16>,
    #[serde(default)]
    quiet: u32,
    #[serde(default)]
    black: Vec<String>,
    #[serde(default)]
    white: Vec<String>,
}

fn black() -> String {
    "black".into()
}

/// `"3,2"` is one army; `"3,2 x4"` a stack of four.
fn parse_stack(side: Side, s: &str) -> Result<Placed, RulesError> {
    let mut words = s.split_whitespace();
    let at = words
        .next()
        .and_then(Square::parse)
        .ok_or_else(|| BadPosition::Stack {
            side,
            entry: s.to_string(),
        })?;
    let armies = match words.next() {
        None => 1,
        Some(w) => w
            .trim_start_matches(['x', 'X'])
            .parse::<u16>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| BadPosition::StackSize {
                side,
                entry: s.to_string(),
            })?,
    };
    Ok(Placed { at, side, armies })
}

fn per_side(what: &str, map: &BTreeMap<String, u16>, default: u16) -> Result<[u16; 2], RulesError> {
    let mut out = [default; 2];
    for (k, &v) in map {
        let side = Side::parse(k).ok_or_else(|| BadPosition::NotASide {
            table: what.to_string(),
            key: k.clone(),
        })?;
        out[side.seat()] = v;
    }
    Ok(out)
}

pub fn from_position(rules: &Ruleset, opts: Opts, text: &str) -> Result<State, RulesError> {
    let p: Position = toml::from_str(text).map_err(|e| BadPosition::Unreadable(Box::new(e)))?;
    let size = p.size.unwrap_or(opts.size);
    let b = rules.board;
    if !(b.min_size..=b.max_size).contains(&size) {
        return Err(BadPosition::Size {
            size,
            min: b.min_size,
            max: b.max_size,
        }
        .into());
    }
    let to_move = Side::parse(&p.to_move).ok_or_else(|| BadPosition::ToMove(p.to_move.clone()))?;
    let mut stacks = Vec::new();
    for (side, list) in [(Side::Black, &p.black), (Side::White, &p.white)] {
        for s in list {
            stacks.push(parse_stack(side, s)?);
        }
    }
    stacks.sort_by_key(|s| s.at);
    let core = Core {
        size,
        move_onto_own: opts.move_onto_own,
        quiet_limit: rules.end.quiet_limit,
        stacks,
        reserves: per_side("reserves", &p.reserves, rules.reserves(size))?,
        points: per_side("points", &p.points, 0)?,
        to_move,
        quiet: p.quiet,
        result: None,
    };
    let st = State::from_core(core).map_err(BadPosition::Core)?;
    for side in Side::BOTH {
        if st.reserve(side) == 0 && st.in_play(side) == 0 {
            return Err(BadPosition::NoArmies(side).into());
        }
    }
    if !st.can_act(to_move) {
        return Err(BadPosition::CannotAct(to_move).into());
    }
    Ok(st)
}

/// Why a Stack Wars position file (`--setup`) is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadPosition {
    /// Not TOML of the position's shape.
    Unreadable(Box<toml::de::Error>),
    Size {
        size: u8,
        min: u8,
        max: u8,
    },
    /// A `to_move` that names no side.
    ToMove(String),
    /// A stack entry that names no square.
    Stack {
        side: Side,
        entry: String,
    },
    /// A stack entry whose size is not `xN`.
    StackSize {
        side: Side,
        entry: String,
    },
    /// A key of `reserves` or `points` that names no side.
    NotASide {
        table: String,
        key: String,
    },
    /// The stacks break a rule every position keeps.
    Core(CoreError),
    /// A side with no armies in play or in reserve.
    NoArmies(Side),
    /// The side to move has no legal action.
    CannotAct(Side),
}

impl std::fmt::Display for BadPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadPosition::Unreadable(e) => write!(f, "the position file does not read: {e}"),
            BadPosition::Size { size, min, max } => write!(
                f,
                "position size {size}: the board is N×N with N from {min} to {max}"
            ),
            BadPosition::ToMove(w) => write!(f, "to_move = {w:?}: say black or white"),
            BadPosition::Stack { side, entry } => {
                write!(f, "{side} `{entry}`: say `row,col` or `row,col xN`")
            }
            BadPosition::StackSize { side, entry } => {
                write!(f, "{side} `{entry}`: the stack size is `xN`, e.g. `3,2 x4`")
            }
            BadPosition::NotASide { table, key } => {
                write!(f, "{table}: `{key}` is not black or white")
            }
            BadPosition::Core(e) => write!(f, "the position: {e}"),
            BadPosition::NoArmies(side) => write!(
                f,
                "the position: {side} has no armies in play and none in reserve, so the game would be over"
            ),
            BadPosition::CannotAct(side) => write!(
                f,
                "the position: {side} is to move but has no legal action"
            ),
        }
    }
}

crate::games::rules_error::rules_detail!(BadPosition, |self| K::Setup);

/// Why a Stack Wars game cannot start with these players or options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A player count other than 2.
    Players(usize),
    /// A board size outside the ruleset's bounds.
    Size {
        value: String,
        min: u8,
        max: u8,
        default: u8,
    },
    NoOption {
        name: String,
    },
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Players(n) => write!(
                f,
                "Stack Wars is for 2 players (Black, then White), not {n}"
            ),
            SetupError::Size {
                value,
                min,
                max,
                default,
            } => write!(
                f,
                "option size={value}: the board is N×N with N from {min} to {max} (default {default})"
            ),
            SetupError::NoOption { name } => write!(
                f,
                "Stack Wars has no option `{name}`; its options are size and move_onto_own"
            ),
        }
    }
}

crate::games::rules_error::rules_detail!(SetupError, |self| match self {
    SetupError::Players(_) => K::Setup,
    _ => K::BadOption,
});
