//! Starting a game: the standard start (both sides deploy), a default
//! deployment for the order form and the bot, and position files
//! (`--setup`) that start a game in the middle.

use super::map::{Ix, Label};
use super::orders::Order;
use super::ruleset::Ruleset;
use super::state::{BadState, Phase, State};
use super::units::{Kind, Side, UnitId};
use crate::rng::{self, ChaCha20Rng};
use serde::Deserialize;

/// The middle of Kaiserburg, the hex every front leans towards.
pub fn kaiserburg_centre(rules: &Ruleset) -> Ix {
    let cells = &rules.map.places[rules.kaiserburg].cells;
    cells[cells.len() / 2]
}

/// A deployment for `side`: the infantry, the artillery and then the
/// cavalry garrison the city and fortress hexes (those nearest Kaiserburg
/// first); the rest stand on the free hexes of the territory nearest
/// Kaiserburg; the Duke joins the garrison of the city or fortress nearest
/// Kaiserburg. With an rng (the bot) the garrisons are shuffled and the
/// free units pick among the twenty nearest hexes.
pub fn default_deployment(
    rules: &Ruleset,
    st: &State,
    side: Side,
    mut rng: Option<&mut ChaCha20Rng>,
) -> Vec<Order> {
    let k = kaiserburg_centre(rules);
    let by_distance = |mut v: Vec<Ix>| {
        v.sort_by_key(|&i| (rules.map.distance(i, k), rules.map.label(i)));
        v
    };
    let strong = by_distance(rules.strongpoints(side));
    let mut units: Vec<UnitId> = [Kind::Infantry, Kind::Artillery, Kind::Cavalry]
        .iter()
        .flat_map(|&kind| {
            st.units
                .iter()
                .filter(move |u| u.side == side && u.id.kind == kind)
                .map(|u| u.id)
        })
        .collect();
    let (garrison, rest) = units.split_at_mut(strong.len().min(30));
    if let Some(r) = rng.as_deref_mut() {
        for i in (1..garrison.len()).rev() {
            let j = rng::below(r, i as u32 + 1) as usize;
            garrison.swap(i, j);
        }
    }
    let mut out: Vec<Order> = Vec::new();
    for (u, &i) in garrison.iter().zip(&strong) {
        out.push(Order::Place {
            unit: *u,
            at: rules.map.label(i),
        });
    }
    let mut free = by_distance(
        (0..rules.map.cells.len() as Ix)
            .filter(|&i| {
                let c = rules.map.cell(i);
                c.owner == Some(side) && rules.at(i).cost > 0 && !strong.contains(&i)
            })
            .collect(),
    );
    for u in rest.iter() {
        let pick = match rng.as_deref_mut() {
            Some(r) => rng::below(r, free.len().min(20) as u32) as usize,
            None => 0,
        };
        let i = free.remove(pick);
        out.push(Order::Place {
            unit: *u,
            at: rules.map.label(i),
        });
    }
    out.push(Order::Place {
        unit: UnitId::DUKE,
        at: rules.map.label(strong[0]),
    });
    out
}

/// A position file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Position {
    #[serde(default = "one")]
    turn: u32,
    #[serde(default = "orfburg")]
    to_move: String,
    #[serde(default)]
    orfburg: Vec<String>,
    #[serde(default)]
    wulfenburg: Vec<String>,
}

fn one() -> u32 {
    1
}

fn orfburg() -> String {
    "orfburg".into()
}

/// A game in the middle: `to_move` moves in `turn`; every piece listed as
/// `"I3 0712"` stands there; pieces not listed are eliminated.
pub fn from_position(rules: &Ruleset, text: &str) -> Result<State, BadPosition> {
    let p: Position = toml::from_str(text).map_err(|e| BadPosition::Unreadable(Box::new(e)))?;
    let side = Side::parse(&p.to_move).ok_or_else(|| BadPosition::ToMove(p.to_move.clone()))?;
    if p.turn == 0 || p.turn > rules.turns {
        return Err(BadPosition::Turn {
            turn: p.turn,
            turns: rules.turns,
        });
    }
    let mut st = State::new(rules);
    st.turn = p.turn;
    st.phase = Phase::Play(side);
    for (s, list) in [
        (Side::Orfburg, &p.orfburg),
        (Side::Wulfenburg, &p.wulfenburg),
    ] {
        for entry in list {
            let w: Vec<&str> = entry.split_whitespace().collect();
            let form = || BadPosition::Entry {
                side: s,
                entry: entry.clone(),
            };
            if w.len() != 2 {
                return Err(form());
            }
            let id = UnitId::parse(w[0]).ok_or_else(form)?;
            let at = Label::parse(w[1]).ok_or_else(form)?;
            let n = st
                .find(s, id)
                .ok_or(BadPosition::NoUnit { side: s, unit: id })?;
            if st.units[n].at.is_some() {
                return Err(BadPosition::Twice { side: s, unit: id });
            }
            st.units[n].at = Some(at);
        }
    }
    st.validate(rules).map_err(BadPosition::State)?;
    Ok(st)
}

/// Why a War of the Dukes position file (`--setup`) is refused.
#[derive(Debug)]
pub enum BadPosition {
    /// Not TOML of the position's shape.
    Unreadable(Box<toml::de::Error>),
    /// A `to_move` that names no side.
    ToMove(String),
    /// A turn outside 1 to the ruleset's `turns`.
    Turn {
        turn: u32,
        turns: u32,
    },
    /// A piece entry not of the form `UNIT CCRR`.
    Entry {
        side: Side,
        entry: String,
    },
    NoUnit {
        side: Side,
        unit: UnitId,
    },
    Twice {
        side: Side,
        unit: UnitId,
    },
    /// The pieces break a rule every position keeps.
    State(BadState),
}

impl std::fmt::Display for BadPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadPosition::Unreadable(e) => write!(f, "the position file does not read: {e}"),
            BadPosition::ToMove(w) => write!(f, "to_move = {w:?}: say orfburg or wulfenburg"),
            BadPosition::Turn { turn, turns } => {
                write!(f, "turn = {turn}: turns run from 1 to {turns}")
            }
            BadPosition::Entry { side, entry } => {
                write!(f, "{side} `{entry}`: say `UNIT CCRR`, e.g. `I3 0712`")
            }
            BadPosition::NoUnit { side, unit } => write!(f, "{side} has no unit {unit}"),
            BadPosition::Twice { side, unit } => write!(f, "{side} {unit} is listed twice"),
            BadPosition::State(e) => write!(f, "the position: {e}"),
        }
    }
}

crate::games::rules_error::rules_detail!(BadPosition, |self| K::Setup);
