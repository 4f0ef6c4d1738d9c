//! UCT and single-observer information-set MCTS, open loop.
//!
//! A node stands for a sequence of order sets from the root; the state is
//! replayed from a determinisation of the view in every iteration, so
//! chance (dice), hidden information (a new determinisation each
//! iteration) and simultaneous phases need no special states. Each node
//! keeps, per seat that orders there, one bandit arm per candidate set of
//! orders (keyed by the orders' text) with its visits, its reward (that
//! seat's, in millipoints) and its availability: the number of iterations
//! in which the arm was a candidate. Selection is UCB1 with the
//! availability in place of the parent's visits (the subset-armed bandit of
//! ISMCTS), which also covers candidate lists that differ between
//! determinisations.
//!
//! Where several seats order at once (The Unfought Battle, the War of the
//! Dukes' deployment), each seat selects from its own arms without knowing
//! the others' choice — decoupled UCT — and the child is the joint choice.
//! At the root the bot plays the most visited arm, in simultaneous phases
//! too: a mixed strategy drawn from the visit counts (what decoupled UCT's
//! statistics converge towards) was tried and, with a dozen candidates and
//! a thousand iterations, the exploration's visits made it play close to
//! uniformly among them (`docs/bots.md`).
//!
//! With a learned prior (`:prior`, [`super::prior`]) each arm gets its
//! candidate's prior when it is made, and selection is PUCT over the arms
//! available in the iteration instead of "every untried arm first, then
//! UCB1".

use super::prior::{self, Group, Weights};
use super::rollout::{self, playout, EXPLORATION};
use super::{key_of, ln, rewards, seat_ids, Ctx};
use crate::games::{BotSupport, Seat};
use crate::rng::{self, ChaCha20Rng};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default)]
struct Arm {
    key: u64,
    visits: u32,
    avail: u32,
    reward: u64,
    /// The candidate's prior, unnormalised (0 without a prior).
    prior: f64,
}

#[derive(Debug, Clone)]
struct Stats {
    seat: Seat,
    arms: Vec<Arm>,
}

#[derive(Debug, Clone, Default)]
struct Node {
    stats: Vec<Stats>,
    children: Vec<(u64, u32)>,
}

fn ucb(a: &Arm) -> f64 {
    let mean = a.reward as f64 / (a.visits as f64 * 1000.0);
    mean + EXPLORATION * (ln(a.avail.max(1) as f64) / a.visits as f64).sqrt()
}

fn mix(h: u64, k: u64) -> u64 {
    (h ^ k).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(17)
}

/// The tree of one search: its nodes (the root first), the root's
/// candidates of each seat where they are listed once (a view that hides
/// nothing), and the bot's own root candidates by key.
struct Tree<O> {
    nodes: Vec<Node>,
    root_cache: Vec<(Seat, Vec<Vec<O>>, Vec<u64>)>,
    root_orders: BTreeMap<u64, Vec<O>>,
}

/// The search bot on a view.
pub fn choose<G: BotSupport>(
    rules: &G::Ruleset,
    view: &G::View,
    seat: Seat,
    seats: usize,
    ctx: &Ctx,
    hides: bool,
    rng: &mut ChaCha20Rng,
) -> Result<Vec<G::Order>, String> {
    let search = ctx.search;
    let ids = seat_ids(seats);
    let first = G::determinise(rules, view, rng)?;
    let root_awaiting = G::awaiting(rules, &first);
    if !root_awaiting.contains(&seat) {
        return Ok(Vec::new());
    }
    if let Some(parts) = G::parts(rules, &first, seat, rng) {
        return super::factored::choose::<G>(
            rules, view, first, parts, seat, seats, ctx, hides, rng,
        );
    }
    {
        let cands = G::candidate_orders(rules, &first, seat, rng);
        if cands.len() <= 1 && !hides {
            return Ok(cands.into_iter().next().unwrap_or_default());
        }
    }
    if G::DETERMINISTIC && !hides {
        return Ok(super::closed::choose::<G>(
            rules, first, seat, seats, ctx, rng,
        ));
    }
    let mut tree = Tree {
        nodes: vec![Node::default()],
        root_cache: Vec::new(),
        root_orders: BTreeMap::new(),
    };
    for it in 0..search.iterations {
        let st = if it == 0 || !hides {
            first.clone()
        } else {
            G::determinise(rules, view, rng)?
        };
        let (leaf, path) = descend::<G>(rules, &mut tree, st, seat, hides, ctx.weights, rng);
        let end = playout::<G>(rules, leaf, search, seats, rng);
        let r = rewards::<G>(rules, &end, &ids);
        for (n, si, ai) in path {
            let stats = &mut tree.nodes[n as usize].stats[si as usize];
            let who = stats.seat;
            let arm = &mut stats.arms[ai as usize];
            arm.visits += 1;
            arm.reward += r[who] as u64;
        }
    }
    if let Some(rec) = ctx.record {
        rec.borrow_mut()
            .extend(root_group::<G>(rules, &first, &tree, seat));
    }
    Ok(most_visited(tree, seat))
}

/// The bot's root decision for the training: each candidate's features
/// on `first` and its visits.
fn root_group<G: BotSupport>(
    rules: &G::Ruleset,
    first: &G::State,
    tree: &Tree<G::Order>,
    seat: Seat,
) -> Option<Group> {
    let me = tree.nodes[0].stats.iter().find(|x| x.seat == seat)?;
    let mut cands = Vec::new();
    let mut visits = Vec::new();
    for a in &me.arms {
        if let Some(o) = tree.root_orders.get(&a.key) {
            cands.push(o.clone());
            visits.push(a.visits);
        }
    }
    let mut features = Vec::new();
    G::features(rules, first, seat, &cands, &mut features);
    Some(Group { features, visits })
}

/// One iteration's way down from the root on `st`: at each node every
/// seat to order picks an arm (decoupled), the phase is resolved, and the
/// first joint choice not yet in the tree adds a node and stops. Returns
/// the state reached and the arms chosen (node, seat's stats, arm).
fn descend<G: BotSupport>(
    rules: &G::Ruleset,
    tree: &mut Tree<G::Order>,
    mut st: G::State,
    seat: Seat,
    hides: bool,
    weights: Option<&Weights>,
    rng: &mut ChaCha20Rng,
) -> (G::State, Vec<(u32, u16, u32)>) {
    let mut node = 0usize;
    let mut path: Vec<(u32, u16, u32)> = Vec::new();
    loop {
        let awaiting = G::awaiting(rules, &st);
        if awaiting.is_empty() {
            break;
        }
        let mut orders = BTreeMap::new();
        let mut joint: u64 = 0xcbf2_9ce4_8422_2325;
        for s in awaiting {
            // Where the view hides nothing the root's state is the same
            // in every iteration: its candidates are listed once (no
            // game's candidate list draws from the stream, so this
            // changes no decision, only the time).
            let cached = node == 0 && !hides;
            let fresh_cands;
            let fresh_keys;
            let (cands, keys): (&[Vec<G::Order>], &[u64]) =
                match tree.root_cache.iter().position(|c| cached && c.0 == s) {
                    Some(i) => (&tree.root_cache[i].1, &tree.root_cache[i].2),
                    None => {
                        fresh_cands = G::candidate_orders(rules, &st, s, rng);
                        fresh_keys = fresh_cands.iter().map(|c| key_of(c)).collect::<Vec<u64>>();
                        if cached {
                            tree.root_cache
                                .push((s, fresh_cands.clone(), fresh_keys.clone()));
                        }
                        (&fresh_cands, &fresh_keys)
                    }
                };
            if cands.is_empty() {
                orders.insert(s, Vec::new());
                continue;
            }
            if node == 0 && s == seat {
                for (k, c) in keys.iter().zip(cands.iter()) {
                    tree.root_orders.entry(*k).or_insert_with(|| c.clone());
                }
            }
            let priors = |new: &[usize]| priors_of::<G>(rules, &st, s, cands, new, weights);
            let (si, ai, j) = select(
                &mut tree.nodes[node],
                s,
                keys,
                weights.map(|_| &priors as &dyn Fn(&[usize]) -> Vec<f64>),
                rng,
            );
            path.push((node as u32, si as u16, ai as u32));
            joint = mix(joint, keys[j]);
            orders.insert(s, cands[j].clone());
        }
        st = G::resolve(rules, &st, &orders, &mut crate::rng::Dice::quiet(rng)).0;
        match tree.nodes[node].children.iter().find(|c| c.0 == joint) {
            Some(&(_, c)) => node = c as usize,
            None => {
                tree.nodes.push(Node::default());
                let c = tree.nodes.len() - 1;
                tree.nodes[node].children.push((joint, c as u32));
                break;
            }
        }
    }
    (st, path)
}

/// The priors of the candidates numbered `new` of `cands` (seat `s`'s on
/// `st`) under `weights` (0 without).
fn priors_of<G: BotSupport>(
    rules: &G::Ruleset,
    st: &G::State,
    s: Seat,
    cands: &[Vec<G::Order>],
    new: &[usize],
    weights: Option<&Weights>,
) -> Vec<f64> {
    let Some(w) = weights else {
        return vec![0.0; new.len()];
    };
    let sets: Vec<Vec<G::Order>> = new.iter().map(|&j| cands[j].clone()).collect();
    let mut f = Vec::with_capacity(sets.len() * G::FEATURES.len());
    G::features(rules, st, s, &sets, &mut f);
    w.priors(&f)
}

/// Seat `s`'s choice at node `n` among the candidates keyed `keys`: every
/// candidate's arm (made where new) counts one more availability. Without
/// a prior an arm never visited is tried first (at random among such),
/// else the best UCB; with one (`priors` gives the new arms theirs, by
/// candidate index) PUCT among the available arms. Returns the seat's
/// stats, the arm and the candidate's index.
fn select(
    n: &mut Node,
    s: Seat,
    keys: &[u64],
    priors: Option<&dyn Fn(&[usize]) -> Vec<f64>>,
    rng: &mut ChaCha20Rng,
) -> (usize, usize, usize) {
    let si = match n.stats.iter().position(|x| x.seat == s) {
        Some(i) => i,
        None => {
            n.stats.push(Stats {
                seat: s,
                arms: Vec::new(),
            });
            n.stats.len() - 1
        }
    };
    let arms = &mut n.stats[si].arms;
    let mut idx = Vec::with_capacity(keys.len());
    let mut new = Vec::new();
    for (j, &k) in keys.iter().enumerate() {
        let i = match arms.iter().position(|a| a.key == k) {
            Some(i) => i,
            None => {
                arms.push(Arm {
                    key: k,
                    ..Arm::default()
                });
                new.push(j);
                arms.len() - 1
            }
        };
        arms[i].avail += 1;
        idx.push(i);
    }
    if let Some(priors) = priors {
        if !new.is_empty() {
            for (j, p) in new.iter().zip(priors(&new)) {
                arms[idx[*j]].prior = p;
            }
        }
        let j = prior::puct(idx.iter().map(|&i| {
            let a = &arms[i];
            (a.visits, a.reward, a.prior)
        }))
        .unwrap_or(0);
        return (si, idx[j], j);
    }
    let fresh: Vec<usize> = (0..idx.len())
        .filter(|&j| arms[idx[j]].visits == 0)
        .collect();
    let j = if let Some(&j) = rng::pick(rng, &fresh) {
        j
    } else {
        let mut best = 0;
        let mut best_v = f64::NEG_INFINITY;
        for (j, &i) in idx.iter().enumerate() {
            let v = ucb(&arms[i]);
            if v > best_v {
                best_v = v;
                best = j;
            }
        }
        best
    };
    (si, idx[j], j)
}

/// The bot's most visited root arm (ties: higher reward, then the first
/// made), as orders.
fn most_visited<O>(mut tree: Tree<O>, seat: Seat) -> Vec<O> {
    let chosen = tree.nodes[0]
        .stats
        .iter()
        .find(|x| x.seat == seat)
        .and_then(|x| {
            rollout::most_visited(x.arms.iter().map(|a| (a.visits, a.reward)))
                .map(|i| x.arms[i].key)
        });
    chosen
        .and_then(|k| tree.root_orders.remove(&k))
        .unwrap_or_default()
}
