//! What bots need from a game: the [`BotSupport`] capability.
//!
//! The bots themselves (random, greedy, MCTS, ISMCTS) are in `src/bots/`
//! and know no game; the playtest lab (`src/playtest/`) plays them against
//! each other. Each game gives them, in `src/games/<game>/bot.rs`: a state
//! the rules can run, made from a player's view alone; the sets of orders
//! worth searching; random orders for playouts; an evaluation; its scores;
//! and a scripted player (rules of thumb, no search) for `herald demo`.
//! For the lab alone: which sites of the board hold a piece.
//! Nothing here is asked while a real game is resolved, except through
//! `pipeline::nmr`, which hands a bot a player's view and nothing else.

use super::{Game, Seat};
use crate::rng::ChaCha20Rng;

/// A side's orders split into small decisions, for a search that treats
/// many-piece orders as one decision per piece (per-piece bandits,
/// `src/bots/factored.rs`) instead of choosing among whole sets.
#[derive(Debug, Clone)]
pub struct Parts<O> {
    /// One entry per decision (a piece, or a game-defined choice such as an
    /// attack policy): its options, each the orders it adds. Option 0 is
    /// the decision's default (the game's own bot's choice where it has
    /// one). Every decision has at least one option.
    pub parts: Vec<Vec<Vec<O>>>,
}

/// What a game gives the bots.
pub trait BotSupport: Game {
    /// A state the forward model can run, built from `view` (exactly what
    /// the seat's report is rendered from) and nothing else: the state
    /// itself where the view shows everything the rules need; otherwise
    /// one sample of what the view leaves open (pieces out of sight, hidden
    /// powers, the enemy's treasury), drawn from `rng`, consistent with
    /// everything the view shows.
    fn determinise(
        ruleset: &Self::Ruleset,
        view: &Self::View,
        rng: &mut ChaCha20Rng,
        // A String error: a bot's failure to rebuild a state from a view: never a refusal (the stand-in then plays a random legal set; the lab prints it).
    ) -> Result<Self::State, String>;
    /// Whether `view` hides something the forward model needs, so that
    /// [`BotSupport::determinise`] samples (the bots then need ISMCTS).
    fn view_hides(_ruleset: &Self::Ruleset, _view: &Self::View) -> bool {
        false
    }
    /// The order sets a searching bot (greedy, MCTS) chooses among for
    /// `seat` now; never a resignation. By default [`Game::legal_orders`].
    fn candidate_orders(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
        _rng: &mut ChaCha20Rng,
    ) -> Vec<Vec<Self::Order>> {
        Self::legal_orders(ruleset, state, seat)
    }
    /// A uniformly random legal set of orders for `seat` (the `random`
    /// bot, random playouts). Never a resignation. By default one of
    /// [`BotSupport::candidate_orders`].
    fn random_orders(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
        rng: &mut ChaCha20Rng,
    ) -> Vec<Self::Order> {
        let all = Self::candidate_orders(ruleset, state, seat, rng);
        crate::rng::pick(rng, &all).cloned().unwrap_or_default()
    }
    /// The orders of the game's scripted player for `seat`: rules of thumb
    /// on `state`, no search; what `herald demo`'s players send. It reads
    /// the state it is given, so it plays only where that is the whole
    /// truth for everyone (a demo, a test) or a determinisation; a seat in
    /// a real game gets a bot on its view (`crate::bots`). By default a
    /// uniformly random legal set.
    fn scripted_orders(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
        rng: &mut ChaCha20Rng,
    ) -> Vec<Self::Order> {
        let all = Self::legal_orders(ruleset, state, seat);
        crate::rng::pick(rng, &all).cloned().unwrap_or_default()
    }
    /// Where `seat` orders many pieces at once: the orders split into one
    /// decision per piece ([`Parts`]), searched by per-piece bandits
    /// instead of among [`BotSupport::candidate_orders`]. `None` (the
    /// default, and in phases where the whole set is one decision): the
    /// search chooses among whole sets. Called once per search, on the
    /// search's first state.
    fn parts(
        _ruleset: &Self::Ruleset,
        _state: &Self::State,
        _seat: Seat,
        _rng: &mut ChaCha20Rng,
    ) -> Option<Parts<Self::Order>> {
        None
    }
    /// The orders of one option per decision (`choice[i]` indexes
    /// `parts.parts[i]`), made legal on `state`: an option that conflicts
    /// with an earlier decision's is dropped (the piece holds). By default
    /// the options' orders one after the other.
    fn combine(
        _ruleset: &Self::Ruleset,
        _state: &Self::State,
        _seat: Seat,
        parts: &Parts<Self::Order>,
        choice: &[usize],
    ) -> Vec<Self::Order> {
        choice
            .iter()
            .zip(&parts.parts)
            .flat_map(|(&c, p)| p[c].iter().cloned())
            .collect()
    }
    /// One phase of a search's playout on `state`, in place (the bot names
    /// without `:greedy`): by default every awaited seat's
    /// [`BotSupport::random_orders`], resolved. A game with a faster typed
    /// random playout (no orders built) gives its own, and so does a game
    /// whose scripted player is cheap and plays far better than random
    /// orders (The Unfought Battle: random playouts there are noise).
    fn playout_phase(ruleset: &Self::Ruleset, state: &mut Self::State, rng: &mut ChaCha20Rng) {
        let mut orders = std::collections::BTreeMap::new();
        for s in Self::awaiting(ruleset, state) {
            orders.insert(s, Self::random_orders(ruleset, state, s, rng));
        }
        *state = Self::resolve(ruleset, state, &orders, &mut crate::rng::Dice::quiet(rng)).0;
    }
    /// Where [`BotSupport::playout_phase`] plays orders that follow from
    /// the state alone (no draw from the stream before its dice: War of
    /// the Dukes' expected reply), a key for the state they follow from,
    /// equal for two states exactly when those orders are: a search then
    /// works them out once a key ([`BotSupport::playout_orders`]) and
    /// plays them again, with new dice, wherever a later iteration
    /// reaches an equal state. `None` (the default): every playout phase
    /// is played anew.
    fn playout_key(_ruleset: &Self::Ruleset, _state: &Self::State) -> Option<Vec<u8>> {
        None
    }
    /// The orders of [`BotSupport::playout_phase`] on a state that has a
    /// [`BotSupport::playout_key`], per awaited seat; the phase is these
    /// resolved with the stream's dice.
    fn playout_orders(
        _ruleset: &Self::Ruleset,
        _state: &Self::State,
    ) -> std::collections::BTreeMap<Seat, Vec<Self::Order>> {
        std::collections::BTreeMap::new()
    }
    /// The orders a searching bot assumes for `seat`, another seat
    /// ordering in the same simultaneous phase as the bot, on one of the
    /// bot's determinisations: by default [`BotSupport::random_orders`]
    /// (the bot's choice cannot depend on theirs). A game may model the
    /// enemy better (The Unfought Battle: its scripted player).
    fn model_orders(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
        rng: &mut ChaCha20Rng,
    ) -> Vec<Self::Order> {
        Self::random_orders(ruleset, state, seat, rng)
    }
    /// `true` where [`Game::resolve`] draws no dice: the same orders on the
    /// same state always give the same state. On a view that hides nothing
    /// the search then keeps each node's state and candidates (closed
    /// loop: nothing is replayed) and widens each node's candidates
    /// progressively in the order of [`BotSupport::priority`].
    const DETERMINISTIC: bool = false;
    /// How promising a candidate set of orders looks before it is tried
    /// (higher first), for the progressive widening of a closed-loop
    /// search: cheap rules of thumb (a capture before a quiet move).
    fn priority(
        _ruleset: &Self::Ruleset,
        _state: &Self::State,
        _seat: Seat,
        _orders: &[Self::Order],
    ) -> i32 {
        0
    }
    /// The names of the features of a candidate set of orders that the
    /// learned prior weighs (`crate::bots::prior`), in the order
    /// [`BotSupport::features`] writes them: the keys of the game's weight
    /// file. None (the default): a `:prior` bot is refused.
    const FEATURES: &'static [&'static str] = &[];
    /// The game's weight file as built into herald
    /// (`games/<game>.weights`, written by `herald playtest train`).
    const WEIGHTS: &'static str = "";
    /// The features of each of `candidates` (sets of orders for `seat`, or
    /// one decision's options where the game splits its orders into
    /// [`Parts`]) on `state`: [`BotSupport::FEATURES`]`.len()` small
    /// integers each, appended to `out` candidate after candidate. Read
    /// from the state the bot holds (the view, or a determinisation of
    /// it) and nothing else.
    fn features(
        _ruleset: &Self::Ruleset,
        _state: &Self::State,
        _seat: Seat,
        _candidates: &[Vec<Self::Order>],
        _out: &mut Vec<i32>,
    ) {
    }
    /// Phases a search's playout plays before the evaluation scores it,
    /// where the bot's name does not say (`mcts:N:dD` does): the cut-off
    /// that suits the game's cost per phase.
    const PLAYOUT_DEPTH: u32 = 20;
    /// How good `state` is for `seat`: 0 even, about ±1000 decided.
    /// Integers, so searches stay deterministic.
    fn evaluate(ruleset: &Self::Ruleset, state: &Self::State, seat: Seat) -> i32;
    /// The board's sites in `state`, one entry per site in an order fixed
    /// for the game (the same length for every state of one game), `true`
    /// where a piece stands: the playtest lab's board coverage
    /// (`herald playtest --coverage`, Ludii's Board Coverage Default),
    /// asked of the true state. No bot reads it.
    fn occupancy(ruleset: &Self::Ruleset, state: &Self::State) -> Vec<bool>;
    /// Each seat's score in the game's own terms where it has one (points,
    /// material), for the playtest's margins and lead changes; empty where
    /// it has none (the lab then uses the evaluation).
    fn scores(_ruleset: &Self::Ruleset, _state: &Self::State) -> Vec<i32> {
        Vec::new()
    }
}
