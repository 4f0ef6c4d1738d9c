//! The demo bot and random orders for playouts, on the typed state.
//!
//! The bot deploys as [`setup::default_deployment`] does, shuffled. In its
//! phases, moved one at a time in a random order: units in contact with
//! an enemy hold; units on their own capital hold; every other unit heads
//! for the nearest enemy piece (artillery for a hex two away from one),
//! ending as close as it can; the Duke, last, goes where the most of his
//! units are within his 2 hexes while staying 3 hexes from every enemy.
//! Then it attacks every enemy hex it can at 2-1 or better (3-1 in forest
//! or cliffs), best odds first, with every unit in reach not yet used,
//! an infantry or cavalry unit in contact advancing.

use super::combat;
use super::map::Ix;
use super::movement;
use super::orders::Order;
use super::ruleset::Ruleset;
use super::setup;
use super::state::{Phase, State};
use super::units::{Kind, Side};
use super::zoc;
use crate::rng::{self, ChaCha20Rng};
use std::collections::BTreeSet;

fn shuffle<T>(v: &mut [T], r: &mut ChaCha20Rng) {
    for i in (1..v.len()).rev() {
        let j = rng::below(r, i as u32 + 1) as usize;
        v.swap(i, j);
    }
}

fn nearest(rules: &Ruleset, st: &State, side: Side, from: Ix) -> Option<(i32, Ix)> {
    let board = st.board(rules);
    st.units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.side != side)
        .filter_map(|(n, _)| board.pos[n])
        .map(|p| (rules.map.distance(p, from), p))
        .min()
}

/// The bot's orders for `side` now.
pub fn bot_orders(rules: &Ruleset, st: &State, side: Side, r: &mut ChaCha20Rng) -> Vec<Order> {
    match st.phase {
        Phase::Deployment => setup::default_deployment(rules, st, side, Some(r)),
        Phase::Play(s) if s == side => {
            let mut trial = st.clone();
            let mut out = moves(rules, &mut trial, side, r);
            out.extend(attacks(rules, &trial, side, 1));
            out
        }
        _ => Vec::new(),
    }
}

fn moves(rules: &Ruleset, trial: &mut State, side: Side, r: &mut ChaCha20Rng) -> Vec<Order> {
    let board0 = trial.board(rules);
    let ez = zoc::zoc(rules, trial, &board0, side.other());
    let capital = &rules.map.places[rules.capitals[side.seat()]].cells;
    let mut order: Vec<usize> = trial
        .on_map(side)
        .filter(|(_, u)| !u.id.is_duke())
        .map(|(n, _)| n)
        .collect();
    shuffle(&mut order, r);
    let mut out = Vec::new();
    for n in order {
        let board = trial.board(rules);
        let at = board.pos[n].unwrap();
        let in_contact = rules.map.neighbours(at).any(|(nb, _)| {
            board.side_at(trial, nb) == Some(side.other()) && combat::contact(rules, at, nb)
        });
        if in_contact || capital.contains(&at) {
            continue;
        }
        let dests = movement::destinations(rules, trial, &board, &ez, n);
        let want = if trial.units[n].id.kind == Kind::Artillery {
            2
        } else {
            1
        };
        let score = |i: Ix| {
            let d = nearest(rules, trial, side, i).map_or(99, |x| x.0);
            (d - want).abs() * 2 + i32::from(d < want) * 3
        };
        let here = score(at);
        let best = dests.iter().map(|&(i, _)| score(i)).min();
        let Some(best) = best.filter(|&b| b < here) else {
            continue;
        };
        let top: Vec<Ix> = dests
            .iter()
            .filter(|&&(i, _)| score(i) == best)
            .map(|&(i, _)| i)
            .collect();
        let to = *rng::pick(r, &top).unwrap();
        trial.units[n].at = Some(rules.map.label(to));
        out.push(Order::Move {
            unit: trial.units[n].id,
            path: vec![rules.map.label(to)],
        });
    }
    // The Duke, last.
    out.extend(duke_move(rules, trial, side, &ez));
    out
}

/// The Duke's move after the others': at least 3 from the nearest enemy,
/// then next to as many of its own as its aura reaches; none where it
/// stands best already.
fn duke_move(rules: &Ruleset, trial: &mut State, side: Side, ez: &[bool]) -> Option<Order> {
    let d = trial.duke(side);
    trial.units[d].at.as_ref()?;
    let board = trial.board(rules);
    let at = board.pos[d]?;
    let value = |i: Ix| {
        let far = nearest(rules, trial, side, i).map_or(99, |x| x.0);
        let near_own = trial
            .on_map(side)
            .filter(|(m, _)| *m != d)
            .filter(|(m, _)| {
                board.pos[*m].is_some_and(|p| rules.map.distance(p, i) <= rules.duke_aura)
            })
            .count() as i32;
        if far >= 3 {
            near_own
        } else {
            far - 100
        }
    };
    let here = value(at);
    let dests = movement::destinations(rules, trial, &board, ez, d);
    let &(to, _) = dests
        .iter()
        .max_by_key(|&&(i, _)| (value(i), std::cmp::Reverse(rules.map.label(i))))?;
    if value(to) <= here {
        return None;
    }
    trial.units[d].at = Some(rules.map.label(to));
    Some(Order::Move {
        unit: trial.units[d].id,
        path: vec![rules.map.label(to)],
    })
}

/// The bot's attacks on the position `st` (after its moves): every enemy
/// hex it can attack at `1 + extra` to 1 or better (one column more in
/// forest or cliffs), best odds first, with every unit in reach not yet
/// used, an infantry or cavalry unit in contact advancing. The bot's own
/// threshold is `extra = 1` (2-1; 3-1 in rough ground).
pub fn attacks(rules: &Ruleset, st: &State, side: Side, extra: usize) -> Vec<Order> {
    let board = st.board(rules);
    let mut used: BTreeSet<usize> = BTreeSet::new();
    let mut options: Vec<(usize, Ix)> = Vec::new();
    let targets: Vec<Ix> = (0..rules.map.cells.len() as Ix)
        .filter(|&i| board.side_at(st, i) == Some(side.other()))
        .collect();
    let odds_for = |t: Ix, used: &BTreeSet<usize>| -> (usize, Vec<usize>) {
        let with: Vec<usize> = st
            .on_map(side)
            .map(|(n, _)| n)
            .filter(|n| !used.contains(n) && combat::reach(rules, st, &board, *n, t).is_some())
            .collect();
        if with.is_empty() {
            return (0, with);
        }
        let a: u32 = with
            .iter()
            .map(|&n| combat::attack_value(rules, st, &board, n).0)
            .sum();
        let d: u32 = board.occ[t as usize]
            .pieces()
            .map(|p| combat::defence_value(rules, st, &board, p as usize).0)
            .sum();
        (rules.odds(a, d).0, with)
    };
    for &t in &targets {
        let (col, with) = odds_for(t, &used);
        if !with.is_empty() {
            options.push((col, t));
        }
    }
    options.sort_by_key(|&(c, t)| (std::cmp::Reverse(c), rules.map.label(t)));
    let one = (rules.worst_odds - 1) as usize;
    let mut out = Vec::new();
    for (_, t) in options {
        let (col, with) = odds_for(t, &used);
        let need = if rules.at(t).die > 0 {
            one + extra + 1
        } else {
            one + extra
        };
        if with.is_empty() || col < need {
            continue;
        }
        used.extend(with.iter().copied());
        let advance = with
            .iter()
            .copied()
            .filter(|&n| combat::reach(rules, st, &board, n, t) == Some(false))
            .min_by_key(|&n| (st.units[n].id.kind != Kind::Infantry, st.units[n].id));
        out.push(Order::Attack {
            target: rules.map.label(t),
            with: with.iter().map(|&n| st.units[n].id).collect(),
            advance: advance.map(|n| st.units[n].id),
        });
    }
    out
}

/// Random legal orders: each piece moves with probability ½ to a random
/// hex it can reach (in a random order); then each enemy hex in reach is
/// attacked with probability ½ by a random non-empty set of the unused
/// units that reach it, a random one of those in contact advancing half
/// the time. Deployment: the default one, shuffled.
pub fn random_orders(rules: &Ruleset, st: &State, side: Side, r: &mut ChaCha20Rng) -> Vec<Order> {
    match st.phase {
        Phase::Deployment => return setup::default_deployment(rules, st, side, Some(r)),
        Phase::Play(s) if s == side => {}
        _ => return Vec::new(),
    }
    let mut trial = st.clone();
    let board0 = trial.board(rules);
    let ez = zoc::zoc(rules, &trial, &board0, side.other());
    let mut order: Vec<usize> = trial.on_map(side).map(|(n, _)| n).collect();
    shuffle(&mut order, r);
    let mut out = Vec::new();
    for n in order {
        if rng::below(r, 2) == 0 {
            continue;
        }
        let board = trial.board(rules);
        let dests = movement::destinations(rules, &trial, &board, &ez, n);
        let Some(&(to, _)) = rng::pick(r, &dests) else {
            continue;
        };
        let to_l = rules.map.label(to);
        // A third of the moves give the whole path.
        let path = if rng::below(r, 3) == 0 {
            let route =
                movement::find(rules, &trial, &board, &ez, n, to).expect("a listed destination");
            movement::labels(rules, &route.path)
        } else {
            vec![to_l]
        };
        trial.units[n].at = Some(to_l);
        out.push(Order::Move {
            unit: trial.units[n].id,
            path,
        });
    }
    let board = trial.board(rules);
    let mut used: BTreeSet<usize> = BTreeSet::new();
    for t in 0..rules.map.cells.len() as Ix {
        if board.side_at(&trial, t) != Some(side.other()) || rng::below(r, 2) == 0 {
            continue;
        }
        let can: Vec<usize> = trial
            .on_map(side)
            .map(|(n, _)| n)
            .filter(|n| !used.contains(n) && combat::reach(rules, &trial, &board, *n, t).is_some())
            .collect();
        let with: Vec<usize> = can
            .iter()
            .copied()
            .filter(|_| rng::below(r, 2) == 0)
            .collect();
        let with = if with.is_empty() {
            match rng::pick(r, &can) {
                Some(&n) => vec![n],
                None => continue,
            }
        } else {
            with
        };
        used.extend(with.iter().copied());
        let close: Vec<usize> = with
            .iter()
            .copied()
            .filter(|&n| combat::reach(rules, &trial, &board, n, t) == Some(false))
            .collect();
        let advance = if rng::below(r, 2) == 0 {
            rng::pick(r, &close).copied()
        } else {
            None
        };
        out.push(Order::Attack {
            target: rules.map.label(t),
            with: with.iter().map(|&n| trial.units[n].id).collect(),
            advance: advance.map(|n| trial.units[n].id),
        });
    }
    out
}
