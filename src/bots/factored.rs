//! The root decision of a many-piece phase searched one piece at a time:
//! naive sampling over per-piece bandits (a combinatorial multi-armed
//! bandit, as Ontañón's NaiveMCTS for real-time strategy games).
//!
//! A game that splits a side's orders into decisions ([`Parts`]: one per
//! piece, each with a few options, plus any game-defined choice such as an
//! attack policy) would offer far too many whole sets to list (War of the
//! Dukes: up to 31 pieces with half a dozen moves each). Instead each
//! decision keeps its own bandit (a local arm per option), and the search
//! keeps a global arm per combination it has tried:
//!
//! - the first iteration plays every decision's default (option 0, the
//!   game's own plan);
//! - then, with probability [`EXPLORE`], a new combination is sampled
//!   from the local bandits (each decision independently: with probability
//!   [`LOCAL_RANDOM`] a uniformly random option, else its best mean so far),
//!   otherwise the global arm with the best mean is played again;
//! - the combination is made legal by the game ([`BotSupport::combine`]),
//!   resolved (its dice from the search's stream), played out for the
//!   game's cut-off in phases and scored by [`super::rewards`]; the global
//!   arm and every chosen local arm get the seat's reward.
//!
//! The bot plays the most visited combination (ties: higher reward, then
//! the one tried first). Everything is kept in vectors and a `BTreeMap`
//! keyed by the choice, filled in iteration order, and every random draw
//! comes from the bot's stream: the same view and seed give the same
//! orders. Floats appear only in the means compared.
//!
//! With a learned prior (`:prior`, [`super::prior`]) each decision's
//! options get their priors once, on the search's first state, and a
//! local bandit's draw "at random" draws from the prior instead of
//! uniformly.

use super::prior::Group;
use super::rollout::{self, playout_memo, Memo};
use super::{rewards, seat_ids, Ctx};
use crate::games::{BotSupport, Parts, Seat};
use crate::rng::{self, ChaCha20Rng};
use std::collections::BTreeMap;

/// Chance in 100 that an iteration samples a new combination from the
/// local bandits rather than replaying the best global one.
pub const EXPLORE: u32 = 40;
/// Chance in 100 that a local bandit picks uniformly at random.
pub const LOCAL_RANDOM: u32 = 30;

#[derive(Debug, Clone, Copy, Default)]
struct Arm {
    visits: u32,
    reward: u64,
}

impl Arm {
    fn mean(&self) -> f64 {
        self.reward as f64 / self.visits.max(1) as f64
    }
}

/// A combination tried: the option of each decision, its global arm and,
/// on a view that hides nothing, its orders as `combine` made them legal.
type Combo<O> = (Vec<u16>, Arm, Option<Vec<O>>);

/// The local bandits' pick for every decision; `priors`, where the bot
/// has a prior, each decision's options' priors (else a draw at random is
/// uniform).
fn sample(local: &[Vec<Arm>], priors: Option<&[Vec<f64>]>, rng: &mut ChaCha20Rng) -> Vec<u16> {
    local
        .iter()
        .enumerate()
        .map(|(d, arms)| {
            if arms.len() <= 1 {
                return 0;
            }
            if rng::below(rng, 100) < LOCAL_RANDOM {
                return match priors {
                    Some(p) => draw(&p[d], rng) as u16,
                    None => rng::below(rng, arms.len() as u32) as u16,
                };
            }
            let mut best = 0usize;
            for (i, a) in arms.iter().enumerate() {
                if a.visits > 0 && (arms[best].visits == 0 || a.mean() > arms[best].mean()) {
                    best = i;
                }
            }
            best as u16
        })
        .collect()
}

/// An index drawn with probability proportional to `weights` (the first
/// where they sum to nothing): a uniform draw of 2^53 steps scaled to
/// their sum.
fn draw(weights: &[f64], rng: &mut ChaCha20Rng) -> usize {
    use rand_chacha::rand_core::RngCore;
    let total: f64 = weights.iter().sum();
    if !(total > 0.0) {
        return 0;
    }
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    let mut acc = 0.0;
    for (i, w) in weights.iter().enumerate() {
        acc += w;
        if u < acc {
            return i;
        }
    }
    weights.len() - 1
}

/// The combination with the best mean reward so far (the first among
/// equals).
fn best_mean<O>(combos: &[Combo<O>]) -> Vec<u16> {
    let mut best = 0usize;
    for (i, (_, a, _)) in combos.iter().enumerate() {
        if a.mean() > combos[best].1.mean() {
            best = i;
        }
    }
    combos[best].0.clone()
}

/// `seat`'s reward for playing `orders` on `st`: the phase resolved with
/// the search's dice, played out to the cut-off (its orders kept in
/// `memo`, [`rollout::playout_memo`]) and scored. Seats
/// ordering at the same time (a simultaneous phase) play the game's model
/// of them (random orders by default): the bot's choice cannot depend on
/// theirs.
fn reward<G: BotSupport>(
    rules: &G::Ruleset,
    st: &G::State,
    seat: Seat,
    orders: Vec<G::Order>,
    search: &super::Search,
    ids: &[String],
    rng: &mut ChaCha20Rng,
    memo: &mut Memo<G::Order>,
) -> u64 {
    let mut map = BTreeMap::new();
    for s in G::awaiting(rules, st) {
        if s != seat {
            map.insert(s, G::model_orders(rules, st, s, rng));
        }
    }
    map.insert(seat, orders);
    let next = G::resolve(rules, st, &map, &mut rng::Dice::quiet(rng)).0;
    let end = playout_memo::<G>(rules, next, search, ids.len(), rng, Some(memo));
    rewards::<G>(rules, &end, ids)[seat] as u64
}

/// The search on a view whose first determinisation is `first`, where the
/// game split `seat`'s orders into `parts`; other seats ordering in the same
/// phase play random orders.
///
/// Long (about 90 lines): the priors, the bandits and what the iterations
/// keep (the combinations' orders, the playout's memo) set up, then the
/// iteration loop, the record for training and the choice: one search
/// whose parts share those tables.
#[allow(clippy::too_many_arguments)]
pub fn choose<G: BotSupport>(
    rules: &G::Ruleset,
    view: &G::View,
    first: G::State,
    parts: Parts<G::Order>,
    seat: Seat,
    seats: usize,
    ctx: &Ctx,
    hides: bool,
    rng: &mut ChaCha20Rng,
) -> Result<Vec<G::Order>, String> {
    let search = ctx.search;
    let ids = seat_ids(seats);
    let features = |options: &[Vec<G::Order>]| {
        let mut f = Vec::with_capacity(options.len() * G::FEATURES.len());
        G::features(rules, &first, seat, options, &mut f);
        f
    };
    let priors: Option<Vec<Vec<f64>>> = ctx
        .weights
        .map(|w| parts.parts.iter().map(|p| w.priors(&features(p))).collect());
    let mut local: Vec<Vec<Arm>> = parts
        .parts
        .iter()
        .map(|p| vec![Arm::default(); p.len().max(1)])
        .collect();
    let mut combos: Vec<Combo<G::Order>> = Vec::new();
    let mut index: BTreeMap<Vec<u16>, usize> = BTreeMap::new();
    // The playout's orders by the state they follow from: where the
    // game's playout phase depends on the state alone (War of the Dukes'
    // expected reply), iterations that reach a state met before (the best
    // combination played again, the same outcome of its dice) reuse them.
    let mut memo: Memo<G::Order> = BTreeMap::new();
    let to_usize = |c: &[u16]| c.iter().map(|&x| x as usize).collect::<Vec<usize>>();
    for it in 0..search.iterations {
        let st = if it == 0 || !hides {
            first.clone()
        } else {
            G::determinise(rules, view, rng)?
        };
        let choice: Vec<u16> = if it == 0 {
            vec![0; local.len()]
        } else if rng::below(rng, 100) < EXPLORE {
            sample(&local, priors.as_deref(), rng)
        } else {
            best_mean(&combos)
        };
        // On a view that hides nothing every iteration starts from the
        // same state, so a combination tried before is made legal once and
        // its orders kept (`combine` draws nothing from the stream).
        let known = index.get(&choice).copied();
        let orders = match known.and_then(|g| combos[g].2.clone()) {
            Some(o) => o,
            None => G::combine(rules, &st, seat, &parts, &to_usize(&choice)),
        };
        let kept = (!hides).then(|| orders.clone());
        let r = reward::<G>(rules, &st, seat, orders, search, &ids, rng, &mut memo);
        for (arms, &c) in local.iter_mut().zip(&choice) {
            arms[c as usize].visits += 1;
            arms[c as usize].reward += r;
        }
        let g = match known {
            Some(g) => g,
            None => {
                index.insert(choice.clone(), combos.len());
                combos.push((choice, Arm::default(), kept));
                combos.len() - 1
            }
        };
        combos[g].1.visits += 1;
        combos[g].1.reward += r;
    }
    if let Some(rec) = ctx.record {
        rec.borrow_mut().extend(
            parts
                .parts
                .iter()
                .zip(&local)
                .filter(|(o, _)| o.len() > 1)
                .map(|(options, arms)| Group {
                    features: features(options),
                    visits: arms.iter().map(|a| a.visits).collect(),
                }),
        );
    }
    let best = rollout::most_visited(combos.iter().map(|(_, a, _)| (a.visits, a.reward)))
        .map(|i| combos[i].0.clone())
        .unwrap_or_else(|| vec![0; local.len()]);
    Ok(G::combine(rules, &first, seat, &parts, &to_usize(&best)))
}
