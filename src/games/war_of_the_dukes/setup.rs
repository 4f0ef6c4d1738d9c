//! Starting a game: the standard start (both sides deploy), a default
//! deployment for the order form and the bot, and position files
//! (`--setup`) that start a game in the middle.

use super::map::{Ix, Label};
use super::orders::Order;
use super::ruleset::Ruleset;
use super::state::{Phase, State};
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
// A String error: the position's checks still make their words where they
// find them; `WarOfTheDukes::setup` types them as RulesError::Untyped.
pub fn from_position(rules: &Ruleset, text: &str) -> Result<State, String> {
    let p: Position =
        toml::from_str(text).map_err(|e| format!("the position file does not read: {e}"))?;
    let side = Side::parse(&p.to_move)
        .ok_or_else(|| format!("to_move = {:?}: say orfburg or wulfenburg", p.to_move))?;
    if p.turn == 0 || p.turn > rules.turns {
        return Err(format!(
            "turn = {}: turns run from 1 to {}",
            p.turn, rules.turns
        ));
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
            let form = format!("{s} `{entry}`: say `UNIT CCRR`, e.g. `I3 0712`");
            if w.len() != 2 {
                return Err(form);
            }
            let id = UnitId::parse(w[0]).ok_or(form.clone())?;
            let at = Label::parse(w[1]).ok_or(form)?;
            let n = st.find(s, id).ok_or(format!("{s} has no unit {id}"))?;
            if st.units[n].at.is_some() {
                return Err(format!("{s} {id} is listed twice"));
            }
            st.units[n].at = Some(at);
        }
    }
    st.validate(rules)
        .map_err(|e| format!("the position: {e}"))?;
    Ok(st)
}
