//! The one-ply greedy bot: resolve every candidate set of orders, score the
//! result with the game's evaluation, play the best (ties by the seeded
//! RNG). Where the view hides something it scores each candidate over
//! several determinisations and adds the scores up.

use super::{assumed_orders, rng_from, seat_ids};
use crate::games::{BotSupport, Seat};
use crate::rng::{self, ChaCha20Rng};
use rand_chacha::rand_core::RngCore;
use std::collections::BTreeMap;

/// Determinisations a greedy bot scores each candidate on when the view
/// hides something.
pub const SAMPLES: usize = 8;

const WIN: i64 = 1_000_000;

/// The value of `st` for `seat`: a decided game is worth more than any
/// evaluation.
pub fn value<G: BotSupport>(rules: &G::Ruleset, st: &G::State, seat: Seat, ids: &[String]) -> i64 {
    if G::awaiting(rules, st).is_empty() {
        if let Some(o) = G::outcome(rules, st, ids) {
            let won = o.winners.iter().any(|w| w == &ids[seat]);
            return if o.winners.is_empty() {
                0
            } else if won {
                WIN
            } else {
                -WIN
            };
        }
    }
    G::evaluate(rules, st, seat) as i64
}

/// The greedy choice for `seat` on a concrete state (MCTS playouts).
pub fn on_states<G: BotSupport>(
    rules: &G::Ruleset,
    states: &[G::State],
    seat: Seat,
    seats: usize,
    rng: &mut ChaCha20Rng,
) -> Vec<G::Order> {
    let Some(first) = states.first() else {
        return Vec::new();
    };
    let cands = G::candidate_orders(rules, first, seat, rng);
    if cands.len() <= 1 {
        return cands.into_iter().next().unwrap_or_default();
    }
    let ids = seat_ids(seats);
    // The same dice for every candidate on a determinisation (common
    // random numbers), so candidates are compared, not their luck.
    let seeds: Vec<u64> = states.iter().map(|_| rng.next_u64()).collect();
    let mut best = i64::MIN;
    let mut top: Vec<usize> = Vec::new();
    for (i, c) in cands.iter().enumerate() {
        let mut total = 0i64;
        for (st, &seed) in states.iter().zip(&seeds) {
            let mut r = rng_from(seed);
            let mut orders = BTreeMap::new();
            for s in G::awaiting(rules, st) {
                if s == seat {
                    orders.insert(s, c.clone());
                } else {
                    orders.insert(s, assumed_orders::<G>(rules, st, s, &mut r));
                }
            }
            let (next, _) = G::resolve(rules, st, &orders, &mut crate::rng::Dice::quiet(&mut r));
            total += value::<G>(rules, &next, seat, &ids);
        }
        if total > best {
            best = total;
            top.clear();
        }
        if total == best {
            top.push(i);
        }
    }
    let i = *rng::pick(rng, &top).expect("a best candidate");
    cands[i].clone()
}

/// The greedy bot on a view.
pub fn choose<G: BotSupport>(
    rules: &G::Ruleset,
    view: &G::View,
    seat: Seat,
    seats: usize,
    hides: bool,
    rng: &mut ChaCha20Rng,
) -> Result<Vec<G::Order>, String> {
    let n = if hides { SAMPLES } else { 1 };
    let mut states = Vec::with_capacity(n);
    for _ in 0..n {
        states.push(G::determinise(rules, view, rng)?);
    }
    if !G::awaiting(rules, &states[0]).contains(&seat) {
        return Ok(Vec::new());
    }
    Ok(on_states::<G>(rules, &states, seat, seats, rng))
}
