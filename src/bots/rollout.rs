//! What the three searches share (the open-loop tree in `mcts`, the
//! per-piece bandits in `factored`, the closed-loop tree in `closed`): the
//! exploration constant and the playout from a leaf. Its own file so that
//! `mcts`, which hands a game to the other two, and they, which play out
//! as it does, import it rather than each other.

use super::{greedy, Playout, Search};
use crate::games::BotSupport;
use crate::rng::ChaCha20Rng;
use std::collections::BTreeMap;

/// The exploration constant, for rewards scaled to 0..1.
pub const EXPLORATION: f64 = 0.7;

/// The arm a search plays, given each arm's (visits, reward): the most
/// visited, ties to the higher reward, then to the first. `None` for no
/// arms.
pub fn most_visited(arms: impl Iterator<Item = (u32, u64)>) -> Option<usize> {
    arms.enumerate()
        .max_by(|(i, a), (j, b)| a.cmp(b).then(j.cmp(i)))
        .map(|(i, _)| i)
}

/// Playout orders a search has worked out, by the game's key of the state
/// they follow from ([`BotSupport::playout_key`]).
pub type Memo<O> = BTreeMap<Vec<u8>, BTreeMap<crate::games::Seat, Vec<O>>>;

/// Play out from `st` for at most the search's depth in phases.
pub fn playout<G: BotSupport>(
    rules: &G::Ruleset,
    st: G::State,
    search: &Search,
    seats: usize,
    rng: &mut ChaCha20Rng,
) -> G::State {
    playout_memo::<G>(rules, st, search, seats, rng, None)
}

/// [`playout`], keeping the game's playout orders in `memo` where it has
/// a key for them ([`BotSupport::playout_key`]): the same states, orders
/// and dice as without, so the same result, with each state's orders
/// worked out once a search.
pub fn playout_memo<G: BotSupport>(
    rules: &G::Ruleset,
    mut st: G::State,
    search: &Search,
    seats: usize,
    rng: &mut ChaCha20Rng,
    mut memo: Option<&mut Memo<G::Order>>,
) -> G::State {
    for _ in 0..search.depth_in::<G>() {
        let awaiting = G::awaiting(rules, &st);
        if awaiting.is_empty() {
            break;
        }
        match search.playout {
            Playout::Random => {
                let kept = memo
                    .as_deref_mut()
                    .and_then(|m| G::playout_key(rules, &st).map(|k| (k, m)));
                match kept {
                    Some((key, m)) => {
                        let orders = m
                            .entry(key)
                            .or_insert_with(|| G::playout_orders(rules, &st));
                        st = G::resolve(rules, &st, orders, &mut crate::rng::Dice::quiet(rng)).0;
                    }
                    None => G::playout_phase(rules, &mut st, rng),
                }
            }
            Playout::Greedy => {
                let mut orders = BTreeMap::new();
                for s in awaiting {
                    let o = greedy::on_states::<G>(rules, std::slice::from_ref(&st), s, seats, rng);
                    orders.insert(s, o);
                }
                st = G::resolve(rules, &st, &orders, &mut crate::rng::Dice::quiet(rng)).0;
            }
        }
    }
    st
}
