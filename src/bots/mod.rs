//! Bots that see only a player's view (issue 20).
//!
//! A bot gets exactly what the player's report is rendered from — the
//! game's `view` for that seat — and returns that player's orders. To think
//! ahead it turns the view into states the rules can run with
//! [`BotSupport::determinise`]: the state itself where the view shows everything
//! the rules need, a sample of the hidden part otherwise. It never gets the
//! game's state.
//!
//! - `random`: a uniformly random legal set of orders ([`BotSupport::random_orders`]).
//! - `greedy`: one ply: every candidate set of orders is resolved and the
//!   result scored with [`BotSupport::evaluate`]; the best is played.
//! - `mcts:N[:greedy][:dD]`: UCT, N iterations, random (or greedy)
//!   playouts cut off after D phases (default: the game's
//!   [`BotSupport::PLAYOUT_DEPTH`], 20 unless it says otherwise) and scored
//!   by the evaluation; for games whose view hides nothing. Where the game
//!   splits a side's orders into one decision per piece
//!   ([`BotSupport::parts`]) the root decision is searched with per-piece
//!   bandits ([`factored`]).
//! - `ismcts:N[…]`: single-observer information-set MCTS: every iteration
//!   samples a new determinisation from the view. On a view that hides
//!   nothing it is the same search as `mcts`.
//!
//! A game known only at run time (a `dyn Rules`, as the pipeline holds it)
//! reaches them through [`choose_on_view`], which gets a player's view and
//! nothing else: how the `bot` missed-order policy (`pipeline::nmr`) plays.
//! [`scripted_orders`] is the other way in, for `herald demo` only: the
//! game's scripted player on the whole state.
//!
//! Both searches are open loop (a node is a sequence of order sets, the
//! state is replayed every iteration), so dice, hidden information and
//! simultaneous phases need nothing else; at a phase where several seats
//! order at once each seat chooses with its own statistics (decoupled UCT,
//! see `docs/bots.md`).

pub mod closed;
pub mod factored;
pub mod greedy;
pub mod mcts;
pub mod prior;
pub mod rollout;

use crate::games::{self, AnyState, AnyView, BotSupport, BuiltIn, Rules, Seat, Visitor};
use crate::rng::{self, ChaCha20Rng};
use std::collections::BTreeMap;
use std::fmt;

/// How an MCTS playout chooses orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Playout {
    Random,
    Greedy,
}

/// A bot and its parameters, as `--bots` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotSpec {
    Random,
    Greedy,
    Mcts(Search),
}

/// The parameters of a tree search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// `false`: `mcts` (refuses a view that hides something); `true`: `ismcts`.
    pub information_sets: bool,
    pub iterations: u32,
    pub playout: Playout,
    /// Phases a playout plays before it is scored by the evaluation;
    /// `None`: the game's own cut-off ([`BotSupport::PLAYOUT_DEPTH`], 20
    /// unless the game says otherwise).
    pub depth: Option<u32>,
    /// `:prior`: the learned prior steers the search (PUCT; [`prior`]),
    /// with the game's own weights or those given to the lab.
    pub prior: Option<prior::Source>,
}

/// What a search runs with: its parameters, the prior's weights where the
/// bot has a prior, and where the training wants the root's statistics.
pub struct Ctx<'a> {
    pub search: &'a Search,
    pub weights: Option<&'a prior::Weights>,
    /// Filled with the root decision(s) of the bot's seat: each
    /// candidate's features and visits (`herald playtest train`).
    pub record: Option<&'a std::cell::RefCell<Vec<prior::Group>>>,
}

impl Search {
    /// The playout cut-off in game `G`.
    pub fn depth_in<G: BotSupport>(&self) -> u32 {
        self.depth.unwrap_or(G::PLAYOUT_DEPTH)
    }
}

pub const DEFAULT_ITERATIONS: u32 = 1000;

impl BotSpec {
    /// `random`, `greedy`, `mcts`, `mcts:1000`, `ismcts:500:greedy:d10`.
    // A String error: the usage line for a `--bot` argument, made where the spec is read.
    pub fn parse(s: &str) -> Result<BotSpec, String> {
        let mut parts = s.trim().split(':');
        let name = parts.next().unwrap_or("").to_ascii_lowercase();
        let usage = "bots are `random`, `greedy`, `mcts[:ITERATIONS][:greedy|:random][:dDEPTH][:prior]` and `ismcts[:…]`, e.g. `mcts:1000`, `mcts:1000:prior` or `ismcts:500:greedy:d10`";
        let rest: Vec<&str> = parts.collect();
        match name.as_str() {
            "random" | "greedy" if !rest.is_empty() => {
                Err(format!("bot `{s}`: `{name}` takes no parameters; {usage}"))
            }
            "random" => Ok(BotSpec::Random),
            "greedy" => Ok(BotSpec::Greedy),
            "mcts" | "ismcts" => {
                let mut search = Search {
                    information_sets: name == "ismcts",
                    iterations: DEFAULT_ITERATIONS,
                    playout: Playout::Random,
                    depth: None,
                    prior: None,
                };
                for (i, p) in rest.iter().enumerate() {
                    let p = p.to_ascii_lowercase();
                    if i == 0 && p.chars().all(|c| c.is_ascii_digit()) && !p.is_empty() {
                        search.iterations = p
                            .parse()
                            .ok()
                            .filter(|n| (1..=10_000_000).contains(n))
                            .ok_or_else(|| format!("bot `{s}`: iterations 1 to 10000000"))?;
                    } else if p == "greedy" {
                        search.playout = Playout::Greedy;
                    } else if p == "random" {
                        search.playout = Playout::Random;
                    } else if p == "prior" {
                        search.prior = Some(prior::Source::BuiltIn);
                    } else if let Some(d) = p.strip_prefix('d') {
                        search.depth = d
                            .parse()
                            .ok()
                            .map(Some)
                            .filter(|n: &Option<u32>| n.is_some_and(|n| n <= 10_000))
                            .ok_or_else(|| format!("bot `{s}`: playout depth `d0` to `d10000`"))?;
                    } else {
                        return Err(format!("bot `{s}`: `{p}` is not a parameter; {usage}"));
                    }
                }
                Ok(BotSpec::Mcts(search))
            }
            _ => Err(format!("no bot called `{s}`; {usage}")),
        }
    }
}

impl fmt::Display for BotSpec {
    /// The canonical name: parses back to the same bot.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Mcts(s) => {
                write!(
                    f,
                    "{}:{}",
                    if s.information_sets { "ismcts" } else { "mcts" },
                    s.iterations
                )?;
                if s.playout == Playout::Greedy {
                    f.write_str(":greedy")?;
                }
                if let Some(d) = s.depth {
                    write!(f, ":d{d}")?;
                }
                if s.prior.is_some() {
                    f.write_str(":prior")?;
                }
                Ok(())
            }
        }
    }
}

/// The bot that stands in for a player who missed the deadline (the `bot`
/// missed-orders policy): one-ply greedy on the player's view — quick,
/// sensible, and reading nothing the player could not.
pub const STAND_IN: BotSpec = BotSpec::Greedy;

/// The orders `spec` gives `seat`, knowing only `view` (the seat's view).
/// Deterministic: the same view and the same `rng` stream give the same
/// orders.
/// `seats` is the number of players.
pub fn choose<G: BotSupport>(
    rules: &G::Ruleset,
    view: &G::View,
    seat: Seat,
    seats: usize,
    spec: &BotSpec,
    rng: &mut ChaCha20Rng,
) -> Result<Vec<G::Order>, String> {
    choose_recording::<G>(rules, view, seat, seats, spec, rng, None)
}

/// [`choose`], and where `record` is given and the bot searches, the
/// search's root decision(s) added to it: each candidate's features and
/// visits, what `herald playtest train` fits the prior to. The orders are
/// the same as without.
pub fn choose_recording<G: BotSupport>(
    rules: &G::Ruleset,
    view: &G::View,
    seat: Seat,
    seats: usize,
    spec: &BotSpec,
    rng: &mut ChaCha20Rng,
    record: Option<&std::cell::RefCell<Vec<prior::Group>>>,
) -> Result<Vec<G::Order>, String> {
    let hides = G::view_hides(rules, view);
    match spec {
        BotSpec::Random => {
            let st = G::determinise(rules, view, rng)?;
            if !G::awaiting(rules, &st).contains(&seat) {
                return Ok(Vec::new());
            }
            Ok(G::random_orders(rules, &st, seat, rng))
        }
        BotSpec::Greedy => greedy::choose::<G>(rules, view, seat, seats, hides, rng),
        BotSpec::Mcts(search) => {
            if hides && !search.information_sets {
                return Err(format!(
                    "{}: this player's view hides part of the game; `mcts` needs perfect information, use `ismcts`",
                    G::TITLE
                ));
            }
            let weights = match &search.prior {
                Some(source) => Some(weights_of::<G>(source)?),
                None => None,
            };
            let ctx = Ctx {
                search,
                weights: weights.as_deref(),
                record,
            };
            mcts::choose::<G>(rules, view, seat, seats, &ctx, hides, rng)
        }
    }
}

/// The weights a `:prior` search reads in game `G`: the game's own file
/// (built in) or the ones given.
// A String error: a bot that cannot play, told as the bot's failure (the lab prints it; `new` refuses the spec before).
pub fn weights_of<G: BotSupport>(
    source: &prior::Source,
) -> Result<std::sync::Arc<prior::Weights>, String> {
    match source {
        prior::Source::Given(w) => Ok(w.clone()),
        prior::Source::BuiltIn if G::FEATURES.is_empty() || G::WEIGHTS.is_empty() => Err(format!(
            "{}: no learned weights (games/{}.weights); use a bot without `:prior`",
            G::TITLE,
            G::NAME
        )),
        prior::Source::BuiltIn => prior::Weights::parse(G::WEIGHTS, G::NAME, G::FEATURES)
            .map(std::sync::Arc::new)
            .map_err(|e| format!("games/{}.weights: {e}", G::NAME)),
    }
}

/// The orders `spec` gives `seat` in a game known only at run time,
/// knowing only `view` (that seat's view, as [`Rules::view`] made it), as
/// text. `seats` is the number of players. Deterministic from `rng`.
pub fn choose_on_view(
    rules: &dyn Rules,
    view: &AnyView,
    seat: Seat,
    seats: usize,
    spec: &BotSpec,
    rng: &mut ChaCha20Rng,
) -> Result<Vec<String>, String> {
    struct OnView<'a> {
        view: &'a AnyView,
        seat: Seat,
        seats: usize,
        spec: &'a BotSpec,
        rng: &'a mut ChaCha20Rng,
    }
    impl Visitor for OnView<'_> {
        type Output = Result<Vec<String>, String>;
        fn visit<G: BuiltIn>(self, ruleset: &G::Ruleset) -> Self::Output {
            let view = self
                .view
                .get::<G>()
                .ok_or_else(|| format!("not a view of {}", G::TITLE))?;
            let orders = choose::<G>(ruleset, view, self.seat, self.seats, self.spec, self.rng)?;
            Ok(orders.iter().map(|o| o.to_string()).collect())
        }
    }
    games::visit(
        rules,
        OnView {
            view,
            seat,
            seats,
            spec,
            rng,
        },
    )
}

/// The most iterations a bot seat's search may have: a host's pass makes
/// a bot seat's orders while every other game waits, so a seat's bot
/// costs at most a few seconds a decision (docs/bots.md, "Bot seats").
pub const SEAT_MAX_ITERATIONS: u32 = 20_000;

/// The bots a seat of a game may be given (`herald new --bot`), in words:
/// every game takes `random`, `greedy`, `mcts` and `ismcts`; `:prior` where
/// the game has learned weights.
pub fn seat_specs(rules: &dyn Rules) -> String {
    struct Specs;
    impl Visitor for Specs {
        type Output = String;
        fn visit<G: BuiltIn>(self, _: &G::Ruleset) -> String {
            let mut s = format!(
                "`random`, `greedy`, `mcts[:ITERATIONS][:greedy][:dDEPTH]` and `ismcts[:…]` (at most {SEAT_MAX_ITERATIONS} iterations), e.g. `mcts:1000`"
            );
            if weights_of::<G>(&prior::Source::BuiltIn).is_ok() {
                s.push_str(&format!(
                    ", and with the learned prior of games/{}.weights `mcts:1000:prior`",
                    G::NAME
                ));
            }
            s
        }
    }
    games::visit(rules, Specs)
}

/// `spec` read as a bot for a seat of this game: a spec the lab reads, at
/// most [`SEAT_MAX_ITERATIONS`], `:prior` only where the game has weights.
/// Its canonical name is what the game file records.
// A String error: the refusal `new` and `host open` print, naming the specs the game takes.
pub fn seat_spec(rules: &dyn Rules, spec: &str) -> Result<BotSpec, String> {
    let title = games::visit(rules, Title);
    let bot =
        BotSpec::parse(spec).map_err(|e| format!("{e}; {title} takes {}", seat_specs(rules)))?;
    if let BotSpec::Mcts(s) = &bot {
        if s.iterations > SEAT_MAX_ITERATIONS {
            return Err(format!(
                "bot `{spec}`: a seat's bot searches at most {SEAT_MAX_ITERATIONS} iterations a decision (a host's pass waits for it); {title} takes {}",
                seat_specs(rules)
            ));
        }
        if let Some(source) = &s.prior {
            struct Weighs<'a>(&'a prior::Source);
            impl Visitor for Weighs<'_> {
                type Output = Result<(), String>;
                fn visit<G: BuiltIn>(self, _: &G::Ruleset) -> Self::Output {
                    weights_of::<G>(self.0).map(|_| ())
                }
            }
            games::visit(rules, Weighs(source))
                .map_err(|e| format!("bot `{spec}`: {e}; {title} takes {}", seat_specs(rules)))?;
        }
    }
    Ok(bot)
}

struct Title;
impl Visitor for Title {
    type Output = &'static str;
    fn visit<G: BuiltIn>(self, _: &G::Ruleset) -> &'static str {
        G::TITLE
    }
}

/// The orders a bot seat's bot `spec` gives `seat`, knowing only `view`
/// (that seat's view), as text: [`choose_on_view`], except that `mcts`
/// on a view that hides something searches as `ismcts` (the same search,
/// sampling what the view leaves open), so that a seat's bot plays
/// through a whole game whose views hide only after its first phases.
pub fn seat_orders_on_view(
    rules: &dyn Rules,
    view: &AnyView,
    seat: Seat,
    seats: usize,
    spec: &BotSpec,
    rng: &mut ChaCha20Rng,
) -> Result<Vec<String>, String> {
    struct Hides<'a>(&'a AnyView);
    impl Visitor for Hides<'_> {
        type Output = bool;
        fn visit<G: BuiltIn>(self, ruleset: &G::Ruleset) -> bool {
            self.0.get::<G>().is_some_and(|v| G::view_hides(ruleset, v))
        }
    }
    match spec {
        BotSpec::Mcts(s) if !s.information_sets && games::visit(rules, Hides(view)) => {
            let mut s = s.clone();
            s.information_sets = true;
            choose_on_view(rules, view, seat, seats, &BotSpec::Mcts(s), rng)
        }
        _ => choose_on_view(rules, view, seat, seats, spec, rng),
    }
}

/// The orders of the game's scripted player ([`BotSupport::scripted_orders`])
/// for `seat`, as text: `herald demo`'s players. It reads the whole
/// `state`, so it never plays a seat of a real game (that is
/// [`choose_on_view`]'s work).
pub fn scripted_orders(
    rules: &dyn Rules,
    state: &AnyState,
    seat: Seat,
    rng: &mut ChaCha20Rng,
) -> Vec<String> {
    struct Scripted<'a> {
        state: &'a AnyState,
        seat: Seat,
        rng: &'a mut ChaCha20Rng,
    }
    impl Visitor for Scripted<'_> {
        type Output = Vec<String>;
        fn visit<G: BuiltIn>(self, ruleset: &G::Ruleset) -> Self::Output {
            let state = self
                .state
                .downcast_ref::<G::State>()
                .expect("a state of this game");
            G::scripted_orders(ruleset, state, self.seat, self.rng)
                .iter()
                .map(|o| o.to_string())
                .collect()
        }
    }
    games::visit(rules, Scripted { state, seat, rng })
}

/// Synthetic player ids for the forward model: `outcome` names winners by id.
pub fn seat_ids(n: usize) -> Vec<String> {
    (0..n).map(|s| s.to_string()).collect()
}

/// A reward per seat in 0..=1000 (millipoints): 1000 a win, 0 a loss, a
/// draw shared; an unfinished state by the evaluation, 500 meaning even.
pub fn rewards<G: BotSupport>(rules: &G::Ruleset, st: &G::State, ids: &[String]) -> Vec<u32> {
    let n = ids.len();
    if G::awaiting(rules, st).is_empty() {
        if let Some(o) = G::outcome(rules, st, ids) {
            let winners: Vec<usize> = o
                .winners
                .iter()
                .filter_map(|w| w.parse::<usize>().ok())
                .collect();
            if winners.is_empty() {
                return vec![1000 / n as u32; n];
            }
            return (0..n)
                .map(|s| if winners.contains(&s) { 1000 } else { 0 })
                .collect();
        }
    }
    let evals: Vec<i32> = (0..n).map(|s| G::evaluate(rules, st, s)).collect();
    (0..n)
        .map(|s| {
            let best_other = (0..n)
                .filter(|&t| t != s)
                .map(|t| evals[t])
                .max()
                .unwrap_or(0);
            let diff = evals[s] as i64 - best_other as i64;
            (500 + diff / 2).clamp(0, 1000) as u32
        })
        .collect()
}

/// Resolve one phase with `orders` for the awaited seats.
pub fn step<G: BotSupport>(
    rules: &G::Ruleset,
    st: &G::State,
    orders: BTreeMap<Seat, Vec<G::Order>>,
    rng: &mut ChaCha20Rng,
) -> G::State {
    G::resolve(rules, st, &orders, &mut crate::rng::Dice::quiet(rng)).0
}

/// Orders the other seats of a simultaneous phase are assumed to give when
/// a one-ply bot looks ahead: holding where the rules allow, else random.
pub fn assumed_orders<G: BotSupport>(
    rules: &G::Ruleset,
    st: &G::State,
    seat: Seat,
    rng: &mut ChaCha20Rng,
) -> Vec<G::Order> {
    G::hold_orders(rules, st, seat).unwrap_or_else(|| G::random_orders(rules, st, seat, rng))
}

/// A stable key for a set of orders: FNV-1a over its text.
pub fn key_of<O: fmt::Display>(orders: &[O]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for o in orders {
        for b in o.to_string().bytes().chain(std::iter::once(b'\n')) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Natural logarithm with + − × ÷ only (each correctly rounded by IEEE 754),
/// so a search takes the same decisions on every machine, whatever its
/// maths library.
pub fn ln(x: f64) -> f64 {
    if x <= 0.0 {
        return f64::NEG_INFINITY;
    }
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    // ln m = 2 atanh t, t = (m - 1) / (m + 1) in [0, 1/3).
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let mut term = t;
    let mut sum = 0.0;
    let mut k = 1.0;
    for _ in 0..14 {
        sum += term / k;
        term *= t2;
        k += 2.0;
    }
    e as f64 * std::f64::consts::LN_2 + 2.0 * sum
}

/// A ChaCha20 stream from a number.
pub fn rng_from(seed: u64) -> ChaCha20Rng {
    rng::from_u64(seed)
}

/// A new stream for a sub-task, drawn from `rng` (so the sub-task's use of
/// randomness does not shift the caller's).
pub fn fork(r: &mut ChaCha20Rng) -> ChaCha20Rng {
    use rand_chacha::rand_core::RngCore;
    rng::from_u64(r.next_u64())
}
