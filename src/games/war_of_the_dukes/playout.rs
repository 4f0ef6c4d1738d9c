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
use super::map::{Ix, Label};
use super::movement;
use super::orders::Order;
use super::ruleset::Ruleset;
use super::setup;
use super::state::{Board, Phase, State};
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
    attacks_by(rules, st, side, extra, BTreeSet::new(), None)
}

/// [`attacks`] by the units not in `used`, on every enemy hex but `skip`.
/// Each enemy hex's attackers are listed once (a unit reaches only hexes
/// within its range, at least 1: the distance is asked before the rules'
/// own test), and the odds are reckoned without the words that say how a
/// value is made: the search plays this in every iteration.
///
/// Long (about 90 lines): the attackers listed, then the two passes over
/// the targets (the odds to order them, then the attacks at the odds),
/// which share the list and the units used.
fn attacks_by(
    rules: &Ruleset,
    st: &State,
    side: Side,
    extra: usize,
    used: BTreeSet<usize>,
    skip: Option<Ix>,
) -> Vec<Order> {
    let board = st.board(rules);
    let mut used: Vec<bool> = (0..st.units.len()).map(|n| used.contains(&n)).collect();
    let mut targets: Vec<Ix> = st
        .on_map(side.other())
        .filter_map(|(n, _)| board.pos[n])
        .filter(|&i| Some(i) != skip)
        .collect();
    targets.sort_unstable();
    targets.dedup();
    // Each target with the units that reach it, in unit order: a unit
    // reaches only its neighbours, or hexes two away with range 2.
    let mut slot = vec![u32::MAX; rules.map.cells.len()];
    for (k, &t) in targets.iter().enumerate() {
        slot[t as usize] = k as u32;
    }
    let mut reached: Vec<(Ix, Vec<usize>)> = targets.iter().map(|&t| (t, Vec::new())).collect();
    for (n, u) in st
        .on_map(side)
        .filter(|(_, u)| combat::can_attack(u.id.kind))
    {
        let Some(at) = board.pos[n] else { continue };
        let far = rules.stats(u.id.kind).range >= 2;
        for (a, _) in rules.map.neighbours(at) {
            let two = rules.map.neighbours(a).map(|(b, _)| b).filter(|_| far);
            for t in std::iter::once(a).chain(two) {
                let Some((_, with)) = reached.get_mut(slot[t as usize] as usize) else {
                    continue;
                };
                if with.last() != Some(&n) && combat::reach(rules, st, &board, n, t).is_some() {
                    with.push(n);
                }
            }
        }
    }
    let odds_for = |t: Ix, can: &[usize], used: &[bool]| -> (usize, Vec<usize>) {
        let with: Vec<usize> = can.iter().copied().filter(|&n| !used[n]).collect();
        if with.is_empty() {
            return (0, with);
        }
        let a: u32 = with
            .iter()
            .map(|&n| combat::attack_number(rules, st, &board, n))
            .sum();
        let d: u32 = board.occ[t as usize]
            .pieces()
            .map(|p| combat::defence_number(rules, st, &board, p as usize))
            .sum();
        (rules.odds(a, d).0, with)
    };
    let mut options: Vec<(usize, Ix, &[usize])> = Vec::new();
    for (t, can) in &reached {
        let (col, with) = odds_for(*t, can, &used);
        if !with.is_empty() {
            options.push((col, *t, can));
        }
    }
    options.sort_by_key(|&(c, t, _)| (std::cmp::Reverse(c), rules.map.label(t)));
    let one = (rules.worst_odds - 1) as usize;
    let mut out = Vec::new();
    for (_, t, can) in options {
        let (col, with) = odds_for(t, can, &used);
        let need = if rules.at(t).die > 0 {
            one + extra + 1
        } else {
            one + extra
        };
        if with.is_empty() || col < need {
            continue;
        }
        for &n in &with {
            used[n] = true;
        }
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

/// The reply a searching bot expects of `side`, the enemy, after its own
/// phase (issue 53: the search's horizon takes in the enemy's next
/// movement and combat, resolved with its dice): the assault that kills a
/// careless Duke, then the attacks the scripted player makes from where
/// its units stand. Every unit of `side` that can reach, this phase, a hex
/// from which it may attack the other Duke's hex goes there (the nearest
/// first, a hex each; artillery keeps two hexes away where it can), and
/// they attack the Duke's hex together where that is at the scripted
/// player's odds (2-1, 3-1 in rough ground); the units left attack as
/// [`attacks`] does. Other units hold: a slower threat is the
/// evaluation's (enemy pieces next to a Duke). Cheap enough to play in
/// every iteration of a search (a bounded path search per unit near the
/// Duke), unlike [`bot_orders`], which moves every piece.
pub fn reply_orders(rules: &Ruleset, st: &State, side: Side) -> Vec<Order> {
    if st.phase != Phase::Play(side) {
        return Vec::new();
    }
    let (mut out, trial, used, target) = duke_assault(rules, st, side);
    out.extend(attacks_by(rules, &trial, side, 1, used, target));
    out
}

/// The moves and the attack of [`reply_orders`] on the other Duke: the
/// orders, the position after the moves, the units used and the Duke's
/// hex (`None` and no orders where no assault is at the odds).
///
/// Long (about 90 lines): the units near the Duke, each one's best
/// attacking hex found by a path search told the hexes cheapest first,
/// and the assault; each step uses the position the one before left.
fn duke_assault(
    rules: &Ruleset,
    st: &State,
    side: Side,
) -> (Vec<Order>, State, BTreeSet<usize>, Option<Ix>) {
    let none = || (Vec::new(), st.clone(), BTreeSet::new(), None);
    let foe = side.other();
    let mut board = st.board(rules);
    let Some(d) = board.pos[st.duke(foe)] else {
        return none();
    };
    let ez = zoc::zoc(rules, st, &board, foe);
    let mut near: Vec<(i32, usize)> = st
        .on_map(side)
        .filter(|(_, u)| combat::can_attack(u.id.kind))
        .filter_map(|(n, u)| {
            let dist = rules.map.distance(board.pos[n]?, d);
            let s = rules.stats(u.id.kind);
            (dist <= (rules.mp(u.id.kind) + s.range) as i32).then_some((dist, n))
        })
        .collect();
    near.sort_unstable();
    let mut trial = st.clone();
    let mut moves = Vec::new();
    let mut with = Vec::new();
    for (_, n) in near {
        if combat::reach(rules, &trial, &board, n, d).is_some() {
            with.push(n);
            continue;
        }
        let kind = trial.units[n].id.kind;
        let range = rules.stats(kind).range as i32;
        let from = |i: Ix| {
            combat::contact(rules, i, d) || (range >= 2 && rules.map.distance(i, d) <= range)
        };
        // The best hex to attack from: (artillery in contact, cost, label)
        // least. The path search tells hexes cheapest first, so it stops
        // once no hex still to come can beat the best found.
        let mut best: Option<(bool, u32, Label, Ix)> = None;
        let start = board.pos[n];
        let r = movement::reach_until(rules, &trial, &board, &ez, n, rules.mp(kind), |i, k| {
            if best.is_some_and(|(close, c, _, _)| !close && k > c) {
                return true;
            }
            if Some(i) != start
                && from(i)
                && movement::end_problem(rules, &trial, &board, n, i).is_none()
            {
                let key = (
                    range >= 2 && combat::contact(rules, i, d),
                    k,
                    rules.map.label(i),
                    i,
                );
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
            false
        });
        let Some((_, _, _, to)) = best else { continue };
        let Some(at) = board.pos[n] else { continue };
        let at = at as usize;
        board.occ[at].unit = None;
        board.occ[to as usize].unit = Some(n as u8);
        board.pos[n] = Some(to);
        trial.units[n].at = Some(rules.map.label(to));
        moves.push(Order::Move {
            unit: trial.units[n].id,
            path: movement::labels(rules, &r.path(to)),
        });
        with.push(n);
    }
    if with.is_empty() || !at_odds(rules, &trial, &board, &with, d) {
        return none();
    }
    let advance = with
        .iter()
        .copied()
        .filter(|&n| combat::reach(rules, &trial, &board, n, d) == Some(false))
        .min_by_key(|&n| (trial.units[n].id.kind != Kind::Infantry, trial.units[n].id));
    moves.push(Order::Attack {
        target: rules.map.label(d),
        with: with.iter().map(|&n| trial.units[n].id).collect(),
        advance: advance.map(|n| trial.units[n].id),
    });
    let used = with.into_iter().collect();
    (moves, trial, used, Some(d))
}

/// Whether the units `with` attack hex `d` at the scripted player's odds
/// (2-1, 3-1 in rough ground).
fn at_odds(rules: &Ruleset, st: &State, board: &Board, with: &[usize], d: Ix) -> bool {
    let a: u32 = with
        .iter()
        .map(|&n| combat::attack_number(rules, st, board, n))
        .sum();
    let def: u32 = board.occ[d as usize]
        .pieces()
        .map(|p| combat::defence_number(rules, st, board, p as usize))
        .sum();
    let one = (rules.worst_odds - 1) as usize;
    let need = one + 1 + usize::from(rules.at(d).die > 0);
    rules.odds(a, def).0 >= need
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

#[cfg(test)]
mod tests {
    //! The search plays [`reply_orders`] in every iteration, so it was made
    //! cheaper (each target's attackers listed once, the path search
    //! stopped at the best attacking hex); these are the versions before,
    //! kept to check that the cheaper ones give the same orders.
    use super::*;
    use crate::games::war_of_the_dukes::WarOfTheDukes;
    use crate::games::Game;
    use std::collections::BTreeMap;

    // As it was before the search's reply was made cheaper.
    #[allow(clippy::too_many_arguments)]
    fn old_attacks_by(
        rules: &Ruleset,
        st: &State,
        side: Side,
        extra: usize,
        mut used: BTreeSet<usize>,
        skip: Option<Ix>,
    ) -> Vec<Order> {
        let board = st.board(rules);
        let mut options: Vec<(usize, Ix)> = Vec::new();
        let targets: Vec<Ix> = (0..rules.map.cells.len() as Ix)
            .filter(|&i| Some(i) != skip && board.side_at(st, i) == Some(side.other()))
            .collect();
        let odds_for = |t: Ix, used: &BTreeSet<usize>| -> (usize, Vec<usize>) {
            let with: Vec<usize> = st
                .on_map(side)
                .map(|(n, _)| n)
                .filter(|n| {
                    !used.contains(n) && super::combat::reach(rules, st, &board, *n, t).is_some()
                })
                .collect();
            if with.is_empty() {
                return (0, with);
            }
            let a: u32 = with
                .iter()
                .map(|&n| super::combat::attack_value(rules, st, &board, n).0)
                .sum();
            let d: u32 = board.occ[t as usize]
                .pieces()
                .map(|p| super::combat::defence_value(rules, st, &board, p as usize).0)
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
                .filter(|&n| super::combat::reach(rules, st, &board, n, t) == Some(false))
                .min_by_key(|&n| (st.units[n].id.kind != Kind::Infantry, st.units[n].id));
            out.push(Order::Attack {
                target: rules.map.label(t),
                with: with.iter().map(|&n| st.units[n].id).collect(),
                advance: advance.map(|n| st.units[n].id),
            });
        }
        out
    }

    // As it was before the search's reply was made cheaper.
    fn old_duke_assault(
        rules: &Ruleset,
        st: &State,
        side: Side,
    ) -> (Vec<Order>, State, BTreeSet<usize>, Option<Ix>) {
        let none = || (Vec::new(), st.clone(), BTreeSet::new(), None);
        let foe = side.other();
        let mut board = st.board(rules);
        let Some(d) = board.pos[st.duke(foe)] else {
            return none();
        };
        let ez = super::zoc::zoc(rules, st, &board, foe);
        let mut near: Vec<(i32, usize)> = st
            .on_map(side)
            .filter(|(_, u)| super::combat::can_attack(u.id.kind))
            .filter_map(|(n, u)| {
                let dist = rules.map.distance(board.pos[n]?, d);
                let s = rules.stats(u.id.kind);
                (dist <= (rules.mp(u.id.kind) + s.range) as i32).then_some((dist, n))
            })
            .collect();
        near.sort_unstable();
        let mut trial = st.clone();
        let mut moves = Vec::new();
        let mut with = Vec::new();
        for (_, n) in near {
            if super::combat::reach(rules, &trial, &board, n, d).is_some() {
                with.push(n);
                continue;
            }
            let kind = trial.units[n].id.kind;
            let range = rules.stats(kind).range as i32;
            let from = |i: Ix| {
                super::combat::contact(rules, i, d)
                    || (range >= 2 && rules.map.distance(i, d) <= range)
            };
            let r = super::movement::reach(rules, &trial, &board, &ez, n, rules.mp(kind));
            let best = (0..rules.map.cells.len() as Ix)
                .filter(|&i| {
                    i != r.start && r.cost[i as usize] != super::movement::UNREACHED && from(i)
                })
                .filter(|&i| super::movement::end_problem(rules, &trial, &board, n, i).is_none())
                .min_by_key(|&i| {
                    let close = super::combat::contact(rules, i, d);
                    (range >= 2 && close, r.cost[i as usize], rules.map.label(i))
                });
            let Some(to) = best else { continue };
            let Some(at) = board.pos[n] else { continue };
            let at = at as usize;
            board.occ[at].unit = None;
            board.occ[to as usize].unit = Some(n as u8);
            board.pos[n] = Some(to);
            trial.units[n].at = Some(rules.map.label(to));
            moves.push(Order::Move {
                unit: trial.units[n].id,
                path: super::movement::labels(rules, &r.path(to)),
            });
            with.push(n);
        }
        if with.is_empty() || !super::at_odds(rules, &trial, &board, &with, d) {
            return none();
        }
        let advance = with
            .iter()
            .copied()
            .filter(|&n| super::combat::reach(rules, &trial, &board, n, d) == Some(false))
            .min_by_key(|&n| (trial.units[n].id.kind != Kind::Infantry, trial.units[n].id));
        moves.push(Order::Attack {
            target: rules.map.label(d),
            with: with.iter().map(|&n| trial.units[n].id).collect(),
            advance: advance.map(|n| trial.units[n].id),
        });
        let used = with.into_iter().collect();
        (moves, trial, used, Some(d))
    }

    /// On every phase of scripted games, the reply and the attacks at each
    /// threshold are the same orders as before.
    #[test]
    fn the_cheaper_reply_gives_the_same_orders() {
        let rules = Ruleset::parse(WarOfTheDukes::RULESET_TEXT).unwrap();
        let (mut phases, mut assaults) = (0, 0);
        for g in 0..6u64 {
            let mut r = rng::from_u64(5300 + g);
            let mut st = State::new(&rules);
            while !st.is_over() {
                if let Some(side) = st.mover() {
                    let (mut out, trial, used, target) = old_duke_assault(&rules, &st, side);
                    assaults += usize::from(target.is_some());
                    out.extend(old_attacks_by(&rules, &trial, side, 1, used, target));
                    assert_eq!(
                        reply_orders(&rules, &st, side),
                        out,
                        "game {g}, turn {}",
                        st.turn
                    );
                    for extra in 0..3 {
                        let before =
                            old_attacks_by(&rules, &st, side, extra, BTreeSet::new(), None);
                        assert_eq!(attacks(&rules, &st, side, extra), before);
                    }
                    phases += 1;
                }
                let mut orders = BTreeMap::new();
                for seat in WarOfTheDukes::awaiting(&rules, &st) {
                    orders.insert(seat, bot_orders(&rules, &st, Side::of_seat(seat), &mut r));
                }
                st = WarOfTheDukes::resolve(&rules, &st, &orders, &mut rng::Dice::quiet(&mut r)).0;
            }
        }
        assert!(
            phases > 100 && assaults > 3,
            "{phases} phases, {assaults} assaults"
        );
    }
}
