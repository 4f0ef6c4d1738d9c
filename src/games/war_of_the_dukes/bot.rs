//! What the view-only bots need of War of the Dukes (issue 20): the state
//! rebuilt from a player's view, candidate phases and an evaluation.
//!
//! The view lists every piece of both sides on the map (after deployment
//! nothing is hidden), the turn and whose phase it is, so the state is
//! rebuilt exactly. During the simultaneous deployment neither side's
//! pieces are on the map yet, in the view as in the state: the other
//! side's deployment is not hidden information but a simultaneous choice,
//! which the search treats with decoupled statistics (`src/bots/mcts.rs`).
//!
//! Candidates. A phase moves any number of 31 pieces and makes any number
//! of attacks: far too many sets to list. A search chooses among a handful
//! drawn for the position: doing nothing; the demo bot's phase with three
//! different tie-breaks; its moves without the attacks; two random phases
//! (each piece moving with probability ½). The deployment: six shuffles of
//! the default deployment. The handful comes from a stream seeded by the
//! position (turn and seat), so the same position always offers the same
//! sets.

use super::map::{Ix, Label};
use super::movement::{self, UNREACHED};
use super::orders::Order;
use super::playout;
use super::ruleset::Ruleset;
use super::setup;
use super::state::{Phase, State};
use super::units::{Kind, Side, UnitId};
use super::view::View;
use super::zoc;
use super::WarOfTheDukes;
use crate::games::{BotSupport, Parts, Seat};
use crate::rng;
use crate::rng::ChaCha20Rng;

// A String error: as `BotSupport::determinise`: a bot's failure, never a refusal.
pub fn determinise(rules: &Ruleset, view: &View) -> Result<State, String> {
    let mut st = State::new(rules);
    st.turn = view.turn;
    st.phase = if view.deploying {
        Phase::Deployment
    } else if view.phase == "over" {
        Phase::Over
    } else if view.phase.starts_with(Side::Orfburg.name()) {
        Phase::Play(Side::Orfburg)
    } else if view.phase.starts_with(Side::Wulfenburg.name()) {
        Phase::Play(Side::Wulfenburg)
    } else {
        return Err(format!("view: no phase `{}`", view.phase));
    };
    for u in &view.units {
        let side = Side::parse(&u.side).ok_or_else(|| format!("view: no side `{}`", u.side))?;
        let id = UnitId::parse(&u.unit).ok_or_else(|| format!("view: no unit `{}`", u.unit))?;
        let n = st
            .find(side, id)
            .ok_or_else(|| format!("view: {side} has no {id}"))?;
        st.units[n].at =
            Some(Label::parse(&u.at).ok_or_else(|| format!("view: no hex `{}`", u.at))?);
    }
    if st.phase == Phase::Over {
        st.result = Some(super::state::End {
            winner: Side::Orfburg,
            victory: String::new(),
            how: view.result.clone().unwrap_or_default(),
        });
    }
    Ok(st)
}

pub fn candidates(rules: &Ruleset, st: &State, seat: usize) -> Vec<Vec<Order>> {
    let side = Side::of_seat(seat);
    let mut r = rng::from_u64(0xd0c5_0000 ^ ((st.turn as u64) << 4) ^ seat as u64);
    let mut out: Vec<Vec<Order>> = Vec::new();
    let push = |o: Vec<Order>, out: &mut Vec<Vec<Order>>| {
        if !out.contains(&o) {
            out.push(o);
        }
    };
    match st.phase {
        Phase::Deployment => {
            for _ in 0..6 {
                push(
                    setup::default_deployment(rules, st, side, Some(&mut r)),
                    &mut out,
                );
            }
        }
        Phase::Play(s) if s == side => {
            push(Vec::new(), &mut out);
            for k in 0..3 {
                let o = playout::bot_orders(rules, st, side, &mut r);
                if k == 0 {
                    let moves: Vec<Order> = o
                        .iter()
                        .filter(|x| matches!(x, Order::Move { .. }))
                        .cloned()
                        .collect();
                    push(moves, &mut out);
                }
                push(o, &mut out);
            }
            for _ in 0..2 {
                push(playout::random_orders(rules, st, side, &mut r), &mut out);
            }
        }
        _ => {}
    }
    out
}

/// The attack thresholds of the attack decision's options: columns above
/// 1-1 (`None`: no attacks). The first is the demo bot's.
const ATTACKS: [Option<usize>; 4] = [Some(1), None, Some(0), Some(2)];

/// The side's orders split per piece, in its own phase (head comment).
pub fn parts(rules: &Ruleset, st: &State, seat: usize) -> Option<Parts<Order>> {
    let side = Side::of_seat(seat);
    if st.phase == Phase::Deployment {
        // One decision: the deployment candidates.
        return Some(Parts {
            parts: vec![candidates(rules, st, seat)],
        });
    }
    if st.phase != Phase::Play(side) {
        return None;
    }
    let mut r = rng::from_u64(0xd0c5_1000 ^ ((st.turn as u64) << 4) ^ seat as u64);
    let plans: Vec<Vec<Order>> = (0..3)
        .map(|_| playout::bot_orders(rules, st, side, &mut r))
        .collect();
    let board = st.board(rules);
    let ez = zoc::zoc(rules, st, &board, side.other());
    let kaiser = &rules.map.places[rules.kaiserburg].cells;
    let mut parts = Vec::new();
    for (n, u) in st.on_map(side) {
        let reach = movement::reach(rules, st, &board, &ez, n, rules.mp(u.id.kind));
        let dests: Vec<Ix> = (0..rules.map.cells.len() as Ix)
            .filter(|&i| i != reach.start && reach.cost[i as usize] != UNREACHED)
            .collect();
        let planned = |plan: &[Order]| -> Option<Ix> {
            plan.iter().find_map(|o| match o {
                Order::Move { unit, path } if *unit == u.id => {
                    path.last().and_then(|l| rules.map.ix(*l))
                }
                _ => None,
            })
        };
        let mut options: Vec<Option<Ix>> = vec![planned(&plans[0]), None];
        options.extend(plans[1..].iter().map(|p| planned(p)));
        let to_kaiser = |i: Ix| kaiser.iter().map(|&k| rules.map.distance(i, k)).min();
        if let Some(&best) = dests
            .iter()
            .min_by_key(|&&i| (to_kaiser(i), rules.map.label(i)))
        {
            if to_kaiser(best) < to_kaiser(reach.start) {
                options.push(Some(best));
            }
        }
        for _ in 0..2 {
            options.push(rng::pick(&mut r, &dests).copied());
        }
        let mut seen: Vec<Option<Ix>> = Vec::new();
        let mut list = Vec::new();
        for d in options {
            if seen.contains(&d) || d.is_some_and(|d| reach.cost[d as usize] == UNREACHED) {
                continue;
            }
            seen.push(d);
            list.push(match d {
                None => Vec::new(),
                Some(d) => vec![Order::Move {
                    unit: u.id,
                    path: movement::labels(rules, &reach.path(d)),
                }],
            });
        }
        parts.push(list);
    }
    parts.push(vec![Vec::new(); ATTACKS.len()]);
    Some(Parts { parts })
}

/// One option per piece, made legal (head comment), then the chosen
/// attacks on the position after the moves.
pub fn combine(
    rules: &Ruleset,
    st: &State,
    seat: usize,
    parts: &Parts<Order>,
    choice: &[usize],
) -> Vec<Order> {
    let side = Side::of_seat(seat);
    if st.phase == Phase::Deployment {
        return parts.parts[0][choice[0]].clone();
    }
    let mut trial = st.clone();
    let mut board = trial.board(rules);
    let k = parts.parts.len().saturating_sub(1);
    let mut pending: Vec<(usize, Ix, &Order)> = Vec::new();
    for (p, &c) in parts.parts[..k].iter().zip(choice) {
        if let Some(o @ Order::Move { unit, path }) = p.get(c).and_then(|v| v.first()) {
            let n = trial.find(side, *unit);
            let to = path.last().and_then(|l| rules.map.ix(*l));
            if let (Some(n), Some(to)) = (n, to) {
                if board.pos[n].is_some() {
                    pending.push((n, to, o));
                }
            }
        }
    }
    let mut out = Vec::new();
    loop {
        let before = pending.len();
        pending.retain(|&(n, to, o)| {
            if movement::end_problem(rules, &trial, &board, n, to).is_some() {
                return true;
            }
            let from = board.pos[n].expect("on the map") as usize;
            let duke = trial.units[n].id.is_duke();
            if duke {
                board.occ[from].duke = None;
                board.occ[to as usize].duke = Some(n as u8);
            } else {
                board.occ[from].unit = None;
                board.occ[to as usize].unit = Some(n as u8);
            }
            board.pos[n] = Some(to);
            trial.units[n].at = Some(rules.map.label(to));
            out.push(o.clone());
            false
        });
        if pending.is_empty() || pending.len() == before {
            break;
        }
    }
    if let Some(Some(extra)) = choice.get(k).and_then(|&c| ATTACKS.get(c)) {
        out.extend(playout::attacks(rules, &trial, side, *extra));
    }
    out
}

/// The features of one piece's option (a move, or holding: all 0) that
/// the learned prior weighs (`src/bots/prior.rs`), in the order
/// [`features`] writes them; each is the move's change against holding.
pub const FEATURES: &[&str] = &[
    "move",
    "duke_move",
    "duke_exposure",
    "duke_garrisoned",
    "contact",
    "closer",
    "kaiserburg",
    "aura",
    "terrain",
    "enemy_duke",
    "next_to_enemy_duke",
    "guards_duke",
    "between_rivers",
    "leaves_capital",
];

/// Each option's features ([`FEATURES`]), appended to `out`: holding (or
/// an option without a move, such as an attack policy) is all 0; a move
/// says what it changes: for the Duke, how many enemy pieces stand within
/// 4 hexes and whether a unit garrisons his city or fortress; for a unit,
/// contact with the enemy, the distance to the nearest enemy piece, to
/// Kaiserburg and to the enemy Duke (hexes closer, at most 6), standing
/// within its Duke's aura or next to him, the terrain's defence
/// multiplier, the between-rivers area, leaving its capital.
pub fn features(
    rules: &Ruleset,
    st: &State,
    seat: usize,
    options: &[Vec<Order>],
    out: &mut Vec<i32>,
) {
    let side = Side::of_seat(seat);
    let board = st.board(rules);
    let enemies: Vec<Ix> = st
        .on_map(side.other())
        .filter_map(|(n, _)| board.pos[n])
        .collect();
    let own_duke = board.pos[st.duke(side)];
    let their_duke = board.pos[st.duke(side.other())];
    let kaiser = &rules.map.places[rules.kaiserburg].cells;
    let capital = &rules.map.places[rules.capitals[side.seat()]].cells;
    let dist = |a: Ix, b: Ix| rules.map.distance(a, b);
    let nearest = |i: Ix| enemies.iter().map(|&e| dist(i, e)).min().unwrap_or(99);
    let near = |i: Ix| enemies.iter().filter(|&&e| dist(i, e) <= 4).count() as i32;
    let contact = |i: Ix| i32::from(enemies.iter().any(|&e| super::combat::contact(rules, i, e)));
    let to_kaiser = |i: Ix| kaiser.iter().map(|&k| dist(i, k)).min().unwrap_or(99);
    let closer = |a: i32, b: i32| (a - b).clamp(-6, 6);
    for o in options {
        let mut f = [0i32; 14];
        let mv = o.iter().find_map(|x| match x {
            Order::Move { unit, path } => Some((*unit, path.last().and_then(|l| rules.map.ix(*l)))),
            _ => None,
        });
        if let Some((unit, Some(to))) = mv {
            let n = st.find(side, unit);
            if let Some(from) = n.and_then(|n| board.pos[n]) {
                f[0] = 1;
                if unit.is_duke() {
                    f[1] = 1;
                    f[2] = near(to) - near(from);
                    let garrison = |i: Ix| {
                        i32::from(rules.at(i).stack && board.occ[i as usize].unit.is_some())
                    };
                    f[3] = garrison(to) - garrison(from);
                } else {
                    f[4] = contact(to) - contact(from);
                    f[5] = closer(nearest(from), nearest(to));
                    f[6] = closer(to_kaiser(from), to_kaiser(to));
                    if let Some(d) = own_duke {
                        let aura = |i: Ix| i32::from(dist(i, d) <= rules.duke_aura);
                        f[7] = aura(to) - aura(from);
                        let next = |i: Ix| i32::from(dist(i, d) <= 1);
                        f[11] = next(to) - next(from);
                    }
                    f[8] = rules.at(to).defence as i32 - rules.at(from).defence as i32;
                    if let Some(e) = their_duke {
                        f[9] = closer(dist(from, e), dist(to, e));
                        let next = |i: Ix| i32::from(super::combat::contact(rules, i, e));
                        f[10] = next(to) - next(from);
                    }
                    let between = |i: Ix| i32::from(rules.map.cell(i).between_rivers);
                    f[12] = between(to) - between(from);
                    f[13] = i32::from(capital.contains(&from) && !capital.contains(&to));
                }
            }
        }
        out.extend_from_slice(&f);
    }
}

fn worth(rules: &Ruleset, id: UnitId) -> i32 {
    if id.kind == Kind::Duke {
        return 0;
    }
    let s = rules.stats(id.kind);
    10 * (s.attack + s.defence) as i32
}

/// Orfburg's standing minus Wulfenburg's.
fn orfburg(rules: &Ruleset, st: &State) -> i32 {
    let mut e = 0;
    for u in &st.units {
        if u.at.is_some() {
            let w = worth(rules, u.id);
            e += if u.side == Side::Orfburg { w } else { -w };
        }
    }
    if st.phase == Phase::Deployment {
        return e;
    }
    // The marginal victory, weighed more as the end comes nearer.
    let late = 5 + st.turn.min(rules.turns) as i32;
    let mut obj = 0;
    if st.holds(rules, Side::Orfburg, rules.kaiserburg) {
        obj += 300;
    }
    if st.holds(rules, Side::Wulfenburg, rules.kaiserburg) {
        obj -= 300;
    }
    obj -= 60 * st.intruders(rules).len().min(5) as i32;
    e += obj * late / (5 + rules.turns as i32);
    // Dukes in danger: enemy units next to them.
    let board = st.board(rules);
    for side in Side::BOTH {
        let d = st.duke(side);
        let Some(at) = board.pos[d] else { continue };
        let near = st
            .on_map(side.other())
            .filter(|(n, _)| board.pos[*n].is_some_and(|p| rules.map.distance(p, at) <= 1))
            .count() as i32;
        e += if side == Side::Orfburg {
            -80 * near
        } else {
            80 * near
        };
    }
    e
}

pub fn evaluate(rules: &Ruleset, st: &State, seat: usize) -> i32 {
    let e = orfburg(rules, st);
    if seat == 0 {
        e
    } else {
        -e
    }
}

/// Each side's units on the map, weighted by attack plus defence.
pub fn scores(rules: &Ruleset, st: &State) -> Vec<i32> {
    Side::BOTH
        .iter()
        .map(|&s| {
            st.units
                .iter()
                .filter(|u| u.side == s && u.at.is_some())
                .map(|u| worth(rules, u.id) / 10)
                .sum()
        })
        .collect()
}

impl BotSupport for WarOfTheDukes {
    // A String error: as `BotSupport::determinise`: a bot's failure, never a refusal.
    fn determinise(rules: &Ruleset, view: &View, _: &mut ChaCha20Rng) -> Result<State, String> {
        determinise(rules, view)
    }
    fn candidate_orders(
        rules: &Ruleset,
        st: &State,
        seat: Seat,
        _: &mut ChaCha20Rng,
    ) -> Vec<Vec<Order>> {
        candidates(rules, st, seat)
    }
    /// Each piece moves with probability ½ to a random reachable hex; then
    /// random attacks (`playout::random_orders`).
    fn random_orders(rules: &Ruleset, st: &State, seat: Seat, rng: &mut ChaCha20Rng) -> Vec<Order> {
        playout::random_orders(rules, st, Side::of_seat(seat), rng)
    }
    /// [`playout::bot_orders`].
    fn scripted_orders(
        rules: &Ruleset,
        st: &State,
        seat: Seat,
        rng: &mut ChaCha20Rng,
    ) -> Vec<Order> {
        playout::bot_orders(rules, st, Side::of_seat(seat), rng)
    }
    fn parts(rules: &Ruleset, st: &State, seat: Seat, _: &mut ChaCha20Rng) -> Option<Parts<Order>> {
        parts(rules, st, seat)
    }
    const FEATURES: &'static [&'static str] = FEATURES;
    const WEIGHTS: &'static str = include_str!("../../../games/war-of-the-dukes.weights");
    fn features(
        rules: &Ruleset,
        st: &State,
        seat: Seat,
        options: &[Vec<Order>],
        out: &mut Vec<i32>,
    ) {
        features(rules, st, seat, options, out)
    }
    fn combine(
        rules: &Ruleset,
        st: &State,
        seat: Seat,
        parts: &Parts<Order>,
        choice: &[usize],
    ) -> Vec<Order> {
        combine(rules, st, seat, parts, choice)
    }
    /// The enemy's reply ([`playout::reply_orders`]: the assault on a
    /// Duke it can reach, then its attacks where it stands), resolved with
    /// its dice: the search's horizon takes in the next movement and
    /// combat, so a Duke left where the enemy can kill it is seen dead.
    fn playout_phase(rules: &Ruleset, st: &mut State, rng: &mut ChaCha20Rng) {
        if st.mover().is_none() {
            return;
        }
        let orders = Self::playout_orders(rules, st);
        *st = <WarOfTheDukes as crate::games::Game>::resolve(
            rules,
            st,
            &orders,
            &mut rng::Dice::quiet(rng),
        )
        .0;
    }
    /// The reply depends on the side to move and where every piece
    /// stands, and draws nothing: the key is those (none outside a side's
    /// phase, where the playout phase does nothing). A search meets the
    /// same position after its own phase again and again: the best
    /// combination played again, its attacks' dice falling the same way.
    fn playout_key(_: &Ruleset, st: &State) -> Option<Vec<u8>> {
        let side = st.mover()?;
        let mut key = Vec::with_capacity(1 + 2 * st.units.len());
        key.push(side.seat() as u8);
        for u in &st.units {
            let (c, r) = u.at.map_or((0xff, 0xff), |l| (l.col, l.row));
            key.extend([c, r]);
        }
        Some(key)
    }
    fn playout_orders(rules: &Ruleset, st: &State) -> std::collections::BTreeMap<Seat, Vec<Order>> {
        let mut orders = std::collections::BTreeMap::new();
        if let Some(side) = st.mover() {
            orders.insert(side.seat(), playout::reply_orders(rules, st, side));
        }
        orders
    }
    /// One phase: the enemy's reply, then the evaluation. A phase of the
    /// scripted player (31 pieces moved) costs about what a whole decision
    /// may; the reply moves only what can reach the Duke.
    const PLAYOUT_DEPTH: u32 = 1;
    fn evaluate(rules: &Ruleset, st: &State, seat: Seat) -> i32 {
        evaluate(rules, st, seat)
    }
    fn scores(rules: &Ruleset, st: &State) -> Vec<i32> {
        scores(rules, st)
    }
    /// Every hex of the map, in the map's cell order: a combat unit or a
    /// Duke of either side (a unit not yet deployed or eliminated stands
    /// nowhere).
    fn occupancy(rules: &Ruleset, st: &State) -> Vec<bool> {
        let mut occ = vec![false; rules.map.cells.len()];
        for l in st.units.iter().filter_map(|u| u.at) {
            if let Some(i) = rules.map.ix(l) {
                occ[i as usize] = true;
            }
        }
        occ
    }
}
