//! UCT with stored states and progressive widening, for games whose
//! phases draw no dice ([`BotSupport::DETERMINISTIC`]) on a view that hides
//! nothing.
//!
//! There the same orders on the same state always lead to the same state,
//! so a node can keep its state and its candidate lists, worked out once
//! when the node is made (closed loop), instead of replaying the line and
//! listing the candidates again in every iteration as the open-loop search
//! (`mcts.rs`) must where dice or hidden facts make each visit different.
//!
//! A node's candidates are sorted by the game's [`BotSupport::priority`]
//! (highest first; a stable sort keeps the game's order among equals) —
//! the root's by their one-ply value first (each resolved and scored as
//! `greedy` scores it, so the search starts from greedy's choice and never
//! overlooks a turn that wins at once) — and
//! a seat with `n` visits at a node may choose among the first
//! `1 + ⌊√(2n)⌋` only (progressive widening): the search looks deeper at
//! the promising few (captures first) before it spreads over the quiet
//! moves — in HEXWAR about 130 candidate turns a side, where 1,000
//! iterations spread over all of them gave each about seven visits and the
//! opponent's one reply that takes the king went unseen. Among the
//! admitted arms: the untried first (in order), else UCB1 with `c =`
//! [`super::rollout::EXPLORATION`]. Seats that order together choose with
//! their own arms (decoupled, as in `mcts.rs`). The bot plays the root's
//! most visited arm (ties: higher reward, then the earlier in order).
//!
//! With a learned prior (`:prior`, [`super::prior`]) a node's candidates
//! get their priors when the node is made and are sorted by them (highest
//! first) below the root, and selection is PUCT over all of a seat's
//! candidates: the prior, not the widening, keeps the search on the
//! promising few.

use super::prior::{self, Group, Weights};
use super::rollout::{self, playout, EXPLORATION};
use super::{ln, rewards, seat_ids, Ctx};
use crate::games::{BotSupport, Seat};
use crate::rng::ChaCha20Rng;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, Default)]
struct Arm {
    visits: u32,
    reward: u64,
    /// The candidate's prior, unnormalised (0 without a prior).
    prior: f64,
}

struct SeatStats<O> {
    seat: Seat,
    cands: Vec<Vec<O>>,
    arms: Vec<Arm>,
    visits: u32,
}

struct Node<S, O> {
    state: S,
    seats: Vec<SeatStats<O>>,
    children: BTreeMap<Vec<u32>, usize>,
}

fn isqrt(n: u32) -> u32 {
    let mut r = 0u32;
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

/// Arms a seat with `visits` visits may choose among.
fn admitted(visits: u32, len: usize) -> usize {
    ((1 + isqrt(2 * visits)) as usize).min(len)
}

fn node<G: BotSupport>(
    rules: &G::Ruleset,
    state: G::State,
    weights: Option<&Weights>,
    rng: &mut ChaCha20Rng,
) -> Node<G::State, G::Order> {
    let mut seats = Vec::new();
    for s in G::awaiting(rules, &state) {
        let cands = G::candidate_orders(rules, &state, s, rng);
        let priors = match weights {
            Some(w) => {
                let mut f = Vec::with_capacity(cands.len() * G::FEATURES.len());
                G::features(rules, &state, s, &cands, &mut f);
                w.priors(&f)
            }
            None => vec![0.0; cands.len()],
        };
        let mut keyed: Vec<(i32, f64, Vec<G::Order>)> = cands
            .into_iter()
            .zip(priors)
            .map(|(c, p)| (G::priority(rules, &state, s, &c), p, c))
            .collect();
        // With a prior, its order; without, the game's cheap priority
        // (both stable: the game's order among equals).
        match weights {
            Some(_) => keyed.sort_by(|a, b| b.1.total_cmp(&a.1)),
            None => keyed.sort_by_key(|(r, _, _)| std::cmp::Reverse(*r)),
        }
        let (arms, cands): (Vec<Arm>, Vec<Vec<G::Order>>) = if keyed.is_empty() {
            (vec![Arm::default()], vec![Vec::new()])
        } else {
            keyed
                .into_iter()
                .map(|(_, p, c)| {
                    (
                        Arm {
                            prior: p,
                            ..Arm::default()
                        },
                        c,
                    )
                })
                .unzip()
        };
        seats.push(SeatStats {
            seat: s,
            arms,
            cands,
            visits: 0,
        });
    }
    Node {
        state,
        seats,
        children: BTreeMap::new(),
    }
}

fn select(s: &SeatStats<impl Clone>, prior: bool) -> usize {
    if prior {
        return prior::puct(s.arms.iter().map(|a| (a.visits, a.reward, a.prior))).unwrap_or(0);
    }
    let k = admitted(s.visits, s.arms.len());
    if let Some(i) = s.arms[..k].iter().position(|a| a.visits == 0) {
        return i;
    }
    let lnv = ln(s.visits.max(1) as f64);
    let mut best = 0;
    let mut best_v = f64::NEG_INFINITY;
    for (i, a) in s.arms[..k].iter().enumerate() {
        let v = a.reward as f64 / (a.visits as f64 * 1000.0)
            + EXPLORATION * (lnv / a.visits as f64).sqrt();
        if v > best_v {
            best_v = v;
            best = i;
        }
    }
    best
}

/// Where one seat orders at the root, its candidates in the order of their
/// one-ply value (what `greedy` plays first): the priority among equals
/// for the progressive widening.
fn order_by_value<G: BotSupport>(
    rules: &G::Ruleset,
    root: &mut Node<G::State, G::Order>,
    ids: &[String],
    rng: &mut ChaCha20Rng,
) {
    if let [me] = root.seats.as_mut_slice() {
        // The root's candidates in the order of their one-ply value (what
        // `greedy` plays first), the priority among equals.
        let valued: Vec<(i64, Vec<G::Order>)> = std::mem::take(&mut me.cands)
            .into_iter()
            .map(|c| {
                let mut orders = BTreeMap::new();
                orders.insert(me.seat, c.clone());
                let next = G::resolve(
                    rules,
                    &root.state,
                    &orders,
                    &mut crate::rng::Dice::quiet(rng),
                )
                .0;
                (super::greedy::value::<G>(rules, &next, me.seat, ids), c)
            })
            .collect();
        let arms = std::mem::take(&mut me.arms);
        let mut valued: Vec<(i64, Arm, Vec<G::Order>)> = valued
            .into_iter()
            .zip(arms)
            .map(|((v, c), a)| (v, a, c))
            .collect();
        valued.sort_by_key(|(v, _, _)| std::cmp::Reverse(*v));
        (me.arms, me.cands) = valued.into_iter().map(|(_, a, c)| (a, c)).unzip();
    }
}

/// The search from `first`, the (exact) state of the view; `seat` orders.
pub fn choose<G: BotSupport>(
    rules: &G::Ruleset,
    first: G::State,
    seat: Seat,
    seats: usize,
    ctx: &Ctx,
    rng: &mut ChaCha20Rng,
) -> Vec<G::Order> {
    let ids = seat_ids(seats);
    let weights = ctx.weights;
    let mut root = node::<G>(rules, first, weights, rng);
    order_by_value::<G>(rules, &mut root, &ids, rng);
    let mut nodes: Vec<Node<G::State, G::Order>> = vec![root];
    let mut path: Vec<(usize, Vec<u32>)> = Vec::new();
    for _ in 0..ctx.search.iterations {
        path.clear();
        let mut at = 0usize;
        let leaf = loop {
            if nodes[at].seats.is_empty() {
                break nodes[at].state.clone();
            }
            let joint: Vec<u32> = nodes[at]
                .seats
                .iter()
                .map(|s| select(s, weights.is_some()) as u32)
                .collect();
            path.push((at, joint.clone()));
            if let Some(&c) = nodes[at].children.get(&joint) {
                at = c;
                continue;
            }
            let mut orders = BTreeMap::new();
            for (s, &j) in nodes[at].seats.iter().zip(&joint) {
                orders.insert(s.seat, s.cands[j as usize].clone());
            }
            let next = G::resolve(
                rules,
                &nodes[at].state,
                &orders,
                &mut crate::rng::Dice::quiet(rng),
            )
            .0;
            let child = node::<G>(rules, next.clone(), weights, rng);
            nodes.push(child);
            let c = nodes.len() - 1;
            nodes[at].children.insert(joint, c);
            break next;
        };
        let end = playout::<G>(rules, leaf, ctx.search, seats, rng);
        let r = rewards::<G>(rules, &end, &ids);
        for (n, joint) in &path {
            for (s, &j) in nodes[*n].seats.iter_mut().zip(joint) {
                s.visits += 1;
                let a = &mut s.arms[j as usize];
                a.visits += 1;
                a.reward += r[s.seat] as u64;
            }
        }
    }
    if let Some(rec) = ctx.record {
        if let Some(me) = nodes[0].seats.iter().find(|s| s.seat == seat) {
            let mut features = Vec::new();
            G::features(rules, &nodes[0].state, seat, &me.cands, &mut features);
            rec.borrow_mut().push(Group {
                features,
                visits: me.arms.iter().map(|a| a.visits).collect(),
            });
        }
    }
    most_visited(&nodes[0], seat)
}

/// The most visited candidate of `seat` at `root` (ties: higher reward,
/// then the first listed); none where `seat` does not order there.
fn most_visited<S, O: Clone>(root: &Node<S, O>, seat: Seat) -> Vec<O> {
    let Some(me) = root.seats.iter().find(|s| s.seat == seat) else {
        return Vec::new();
    };
    let best = rollout::most_visited(me.arms.iter().map(|a| (a.visits, a.reward))).unwrap_or(0);
    me.cands.get(best).cloned().unwrap_or_default()
}
