//! The order composer's data (issue 21).
//!
//! Deployment: tap a unit in the list beside the map (the next one is
//! picked for you), then a highlighted hex of your territory; every piece
//! once, one unit on each of your city and fortress hexes (the Duke does
//! not count), a hex holds one unit, or in a city or fortress one unit and
//! the Duke.
//!
//! Your phase: tap a unit, then a highlighted hex to move it there (herald
//! finds the cheapest legal path); then tap an enemy piece and the units
//! that attack it (highlighted: in contact, or artillery within two hexes,
//! where they stand after the moves), choose one to advance if you like,
//! and add the attack. Moves come first in the file, in the order given;
//! attacks after them, as the rules resolve them.
//!
//! The moves are worked out once per unit from the position at the start
//! of the phase (`movement::reach`: the enemy's zones of control and
//! pieces do not change while you move); a hex one of your own units
//! stands on is offered too, once that unit has been given a move away
//! (`needs`/`gives` keys), since moves are carried out in the order
//! written. War of the Dukes hides nothing once the deployments are
//! revealed, and during deployment the data holds only your own units.
//!
//! Odds (issue 30): each attack target carries its defence as the
//! position stands (`combat::forecast`, the resolver's own numbers: each
//! defender's strength with its terrain and its Duke), the odds column for
//! every attack total (`Ruleset::odds`) and the table row each die face
//! reads after the terrain's modifier; each unit that may attack carries
//! its strength alone and within its Duke's aura (`combat::attack_strength`),
//! and for every hex the Duke may end his move on, the hexes an attacker
//! may stand on within his aura (`combat::within_aura`). The page adds the
//! attackers' strengths where they stand after the moves and looks the
//! rest up: what it shows is what the resolver computes when the attack
//! comes, unless an earlier attack of the phase changes the position.

use super::combat::{attack_strength, contact, forecast, modified_roll, within_aura};
use super::map::Ix;
use super::movement::{end_problem, reach, UNREACHED};
use super::ruleset::Res;
use super::ruleset::Ruleset;
use super::state::{Phase, State};
use super::units::{Side, UnitId};
use super::zoc::zoc;
use super::WarOfTheDukes;
use crate::games::compose::{
    Boost, Choice, Combat, Gather, Mark, Odds, Orders, Piece, Required, Strength,
};
use crate::games::{Compose, Seat};
use std::collections::{BTreeMap, BTreeSet};

pub fn compose(rules: &Ruleset, st: &State, seat: usize) -> Orders {
    let side = Side::of_seat(seat);
    match st.phase {
        Phase::Deployment => deployment(rules, st, side),
        Phase::Play(s) if s == side => play(rules, st, side),
        _ => Orders::default(),
    }
}

fn deployment(rules: &Ruleset, st: &State, side: Side) -> Orders {
    let mut o = Orders::default();
    let map = &rules.map;
    let mut open = Vec::new();
    let mut stack = Vec::new();
    for i in 0..map.cells.len() as Ix {
        if map.cell(i).owner != Some(side) || rules.at(i).cost == 0 {
            continue;
        }
        let l = map.label(i).to_string();
        if rules.at(i).stack {
            stack.push(l);
        } else {
            open.push(l);
        }
    }
    o.lists.insert("open".into(), open);
    o.lists.insert("strong".into(), stack);
    for u in st.units.iter().filter(|u| u.side == side) {
        let id = u.id.to_string();
        o.pieces.push(Piece::off(
            id.clone(),
            format!("{id} ({})", u.id.kind.name()),
        ));
        let unit = format!("unit:{id}");
        let text = format!("{id} {{c}}");
        if u.id.is_duke() {
            o.choices.push(
                Choice::new(Some(&id), text.clone(), Mark::Place)
                    .over("strong")
                    .moves()
                    .uses(&[&unit, "duke:{c}"]),
            );
        } else {
            o.choices.push(
                Choice::new(Some(&id), text.clone(), Mark::Place)
                    .over("strong")
                    .moves()
                    .uses(&[&unit, "end:{c}"]),
            );
        }
        o.choices.push(
            Choice::new(Some(&id), text, Mark::Place)
                .over("open")
                .moves()
                .uses(&[&unit, "end:{c}"]),
        );
        o.required.push(Required {
            key: unit,
            why: format!("{id} is not placed yet"),
        });
    }
    for i in rules.strongpoints(side) {
        let l = map.label(i);
        o.required.push(Required {
            key: format!("end:{l}"),
            why: format!("{l} (a city or fortress of yours) needs a unit; the Duke does not count"),
        });
    }
    o.why
        .insert("unit".into(), "each piece is placed once".into());
    o.why.insert(
        "end".into(),
        "a hex holds one unit (in a city or fortress, one unit and the Duke)".into(),
    );
    o.why
        .insert("duke".into(), "the Duke is placed once".into());
    o.help = vec![
        "Tap a unit in the list (the next one is picked for you), then a highlighted hex of your territory.".into(),
        "Every piece is placed; each of your city and fortress hexes gets a unit (not the Duke); the Duke may share a city or fortress hex with one unit.".into(),
    ];
    o
}

/// Long (about 225 lines): one composer page: each unit's moves, the Duke's,
/// then every attack with its odds; they share the zones of control and the
/// reach computed at the top.
fn play(rules: &Ruleset, st: &State, side: Side) -> Orders {
    let mut o = Orders::default();
    let map = &rules.map;
    let board = st.board(rules);
    let ez = zoc(rules, st, &board, side.other());
    // where the Duke may stand after the moves, and where each unit may
    // stand (for the aura)
    let mut duke_cells: BTreeSet<Ix> = BTreeSet::new();
    let mut unit_cells: BTreeSet<Ix> = BTreeSet::new();
    for (n, u) in st.on_map(side) {
        let id = u.id.to_string();
        let at = u.at.expect("on the map").to_string();
        let mut p = Piece::on(
            id.clone(),
            format!("{id} ({}) on {at}", u.id.kind.name()),
            at.clone(),
        );
        if !u.id.is_duke() {
            p.reach = Some(rules.stats(u.id.kind).range.max(1));
        }
        o.pieces.push(p);
        let r = reach(rules, st, &board, &ez, n, rules.mp(u.id.kind));
        let cells = if u.id.is_duke() {
            &mut duke_cells
        } else {
            &mut unit_cells
        };
        cells.insert(r.start);
        let unit = format!("unit:{id}");
        let left = format!("left:{at}");
        let mut free = Vec::new();
        for i in 0..map.cells.len() as Ix {
            if i == r.start || r.cost[i as usize] == UNREACHED {
                continue;
            }
            let l = map.label(i).to_string();
            let own = board.occ[i as usize]
                .pieces()
                .all(|p| st.units[p as usize].side == side);
            if !own {
                continue;
            }
            if u.id.is_duke() {
                duke_cells.insert(i);
            } else {
                unit_cells.insert(i);
            }
            if end_problem(rules, st, &board, n, i).is_none() {
                free.push(l);
                continue;
            }
            // your own unit stands there: the move waits for it to leave
            let mut keys = vec![unit.clone(), format!("end:{l}")];
            if u.id.is_duke() {
                keys.push(format!("duke:{l}"));
            }
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            o.choices.push(
                Choice::new(Some(&id), format!("{id} {l}"), Mark::Move)
                    .to(l.clone())
                    .moves()
                    .uses(&keys)
                    .needs(&[&format!("left:{l}")])
                    .gives(&[&left]),
            );
        }
        if free.is_empty() {
            continue;
        }
        let list = format!("to:{id}");
        // the Duke shares a city or fortress with a unit; elsewhere a hex
        // holds one piece
        let (strong, plain): (Vec<String>, Vec<String>) = free.into_iter().partition(|l| {
            super::map::Label::parse(l)
                .and_then(|l| map.ix(l))
                .is_some_and(|i| rules.at(i).stack)
        });
        for (cells, keys) in [
            (
                strong,
                if u.id.is_duke() {
                    vec![unit.as_str(), "duke:{c}"]
                } else {
                    vec![unit.as_str(), "end:{c}"]
                },
            ),
            (plain, vec![unit.as_str(), "end:{c}", "duke:{c}"]),
        ] {
            if cells.is_empty() {
                continue;
            }
            let name = format!("{list}:{}", o.lists.len());
            o.lists.insert(name.clone(), cells);
            o.choices.push(
                Choice::new(Some(&id), format!("{id} {{c}}"), Mark::Move)
                    .over(name)
                    .moves()
                    .uses(&keys)
                    .gives(&[&left]),
            );
        }
    }
    // attacks: every hex holding an enemy piece
    let max_range = [
        super::units::Kind::Infantry,
        super::units::Kind::Cavalry,
        super::units::Kind::Artillery,
    ]
    .iter()
    .map(|k| rules.stats(*k).range)
    .max()
    .unwrap_or(1)
    .min(2) as i32;
    let mut combat = combat_data(rules, st, side);
    // the most any attack could total: every unit, each within the aura
    let most: u32 = combat.strength.values().map(|s| s[1].value).sum();
    let mut attack_cells: BTreeSet<Ix> = BTreeSet::new();
    let none = BTreeSet::new();
    for t in 0..map.cells.len() as Ix {
        if board.side_at(st, t) != Some(side.other()) {
            continue;
        }
        let tl = map.label(t).to_string();
        let mut close = Vec::new();
        let mut far = Vec::new();
        for i in 0..map.cells.len() as Ix {
            if i == t {
                continue;
            }
            if contact(rules, i, t) {
                close.push(map.label(i).to_string());
                attack_cells.insert(i);
            } else if max_range >= 2 && map.distance(i, t) <= max_range {
                far.push(map.label(i).to_string());
                attack_cells.insert(i);
            }
        }
        let f = forecast(rules, st, &board, side, t, &[], &none);
        let mut columns: Vec<[u32; 2]> = Vec::new();
        for a in 1..=most.max(1) {
            let col = rules.odds(a, f.defence).0 as u32;
            if columns.last().is_none_or(|c| c[1] != col) {
                columns.push([a, col]);
            }
        }
        let terrain = map.cell(t).terrain.name();
        o.gathers.push(Gather {
            target: tl.clone(),
            text: format!("attack {tl} with"),
            close,
            far,
            member: "attack".into(),
            uses: vec![format!("target:{tl}")],
            advance: true,
            stage: 1,
            odds: Some(Odds {
                defenders: f
                    .def
                    .iter()
                    .map(|d| {
                        (
                            d.unit.to_string(),
                            Strength {
                                value: d.value,
                                how: d.how.clone(),
                            },
                        )
                    })
                    .collect(),
                defence: f.defence,
                columns,
                rows: (1..=6)
                    .map(|face| modified_roll(face, f.modifier) - 1)
                    .collect(),
                modifier: if f.modifier > 0 {
                    format!("+{} {terrain}", f.modifier)
                } else {
                    String::new()
                },
            }),
        });
    }
    if let Some(b) = combat.boost.as_mut() {
        // for each hex the Duke may end on, the hexes within his aura
        // that a unit of his may attack from
        let from: Vec<Ix> = unit_cells.intersection(&attack_cells).copied().collect();
        for &d in &duke_cells {
            let near: Vec<String> = from
                .iter()
                .filter(|&&i| within_aura(rules, d, i))
                .map(|&i| map.label(i).to_string())
                .collect();
            if !near.is_empty() {
                b.reach.insert(map.label(d).to_string(), near);
            }
        }
    }
    if !o.gathers.is_empty() {
        o.combat = Some(combat);
    }
    o.why
        .insert("unit".into(), "a unit moves once a phase".into());
    o.why.insert(
        "end".into(),
        "a hex holds one unit (in a city or fortress, one unit and the Duke)".into(),
    );
    o.why.insert(
        "duke".into(),
        "a hex holds one unit (in a city or fortress, one unit and the Duke)".into(),
    );
    o.why
        .insert("target".into(), "a piece is attacked once a phase".into());
    o.why
        .insert("attack".into(), "a unit attacks once a phase".into());
    o.need_why.insert(
        "left".into(),
        "your own unit stands there: give it a move away first".into(),
    );
    o.help = vec![
        "Tap one of your units, then a highlighted hex to move it there (herald finds the cheapest path).".into(),
        "To attack, tap an enemy piece, tap the units that join (highlighted: in contact, or artillery two hexes away, where they stand after the moves), choose who advances, and add the attack.".into(),
        "Zoom with + and −; drag to pan.".into(),
    ];
    o
}

/// The results table and each of `side`'s units' attack strengths, alone
/// and within the Duke's aura (the aura's reach is filled in by `play`).
fn combat_data(rules: &Ruleset, st: &State, side: Side) -> Combat {
    let strength = st
        .on_map(side)
        .filter(|(_, u)| super::combat::can_attack(u.id.kind))
        .map(|(_, u)| {
            let s = |inspired| {
                let (value, how) = attack_strength(rules, u.id.kind, inspired);
                Strength { value, how }
            };
            (u.id.to_string(), [s(false), s(true)])
        })
        .collect();
    let results = [Res::AE, Res::AR, Res::DE, Res::DR, Res::EX]
        .iter()
        .map(|r| (r.to_string(), r.meaning().to_string()))
        .collect();
    Combat {
        columns: rules.crt_columns.clone(),
        table: rules
            .crt
            .iter()
            .map(|row| row.iter().map(|r| r.to_string()).collect())
            .collect(),
        results,
        strength,
        boost: Some(Boost {
            leader: UnitId::DUKE.to_string(),
            reach: BTreeMap::new(),
        }),
        caveat: "as the map stands after your moves: an attack resolved before this one can change it (a retreat, a loss)".into(),
    }
}

impl Compose for WarOfTheDukes {
    fn compose(rules: &Ruleset, st: &State, seat: Seat) -> Orders {
        compose(rules, st, seat)
    }
    /// Your pieces, or while deploying your city and fortress hexes.
    fn own_cells(_: &Ruleset, v: &super::view::View) -> Vec<String> {
        v.focus.clone()
    }
}
