//! The Game trait, the object-safe layer the engine drives, and the registry
//! of rulesets built into herald.

pub mod compose;
pub mod hexwar;
pub mod norse_wars;
pub mod stack_wars;
pub mod unfought_battle;
pub mod war_of_the_dukes;

use crate::error::Error;
use crate::rng::{ChaCha20Rng, Dice};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::any::Any;
use std::collections::BTreeMap;
use std::fmt::Display;

/// The outcome of a game: who won and how.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// Player ids of the winners (several in a team game; none in a draw).
    pub winners: Vec<String>,
    pub summary: String,
}

/// Players are numbered by their seat: the order they were given to `new`.
pub type Seat = usize;

/// `--option key=value` pairs, validated against the game's [`OptionSpec`]s.
pub type Options = BTreeMap<String, String>;

/// One problem with one player's orders. `order` is the index of the order
/// line it concerns, or `None` for the orders as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub order: Option<usize>,
    pub message: String,
}

impl Problem {
    pub fn at(order: usize, message: impl Into<String>) -> Problem {
        Problem {
            order: Some(order),
            message: message.into(),
        }
    }
    pub fn whole(message: impl Into<String>) -> Problem {
        Problem {
            order: None,
            message: message.into(),
        }
    }
}

/// An option a game accepts with `--option name=value`.
#[derive(Debug, Clone, Serialize)]
pub struct OptionSpec {
    pub name: &'static str,
    pub default: &'static str,
    pub help: &'static str,
}

/// What `setup` hands back: the state and lines for `new` to print.
pub struct Setup<S> {
    pub state: S,
    pub notes: Vec<String>,
}

/// An event as a report sees it: the turn it happened in and the game's event.
#[derive(Debug, Clone, Serialize)]
pub struct Seen<E> {
    pub turn: u32,
    pub event: E,
}

/// A ruleset. Shaped after DESIGN.md's sketch: state is the whole truth,
/// `view` is the only source of a report.
pub trait Game: 'static {
    /// Registry name, e.g. "norse-wars".
    const NAME: &'static str;
    const TITLE: &'static str;
    /// The built-in ruleset data (`games/<name>.toml`).
    const RULESET: &'static str;
    /// The player ids `herald demo` seats when none are given.
    const DEMO_PLAYERS: &'static [&'static str] = &["red", "blue"];
    /// The names of the seats, in the order `--players` fills them (e.g.
    /// white, black), for messages; empty where the seats have no names.
    const SEATS: &'static [&'static str] = &[];

    type Ruleset: Send + Sync;
    type State: Serialize + DeserializeOwned + Clone + Send + Sync;
    type Order: Clone + Display + Send + Sync;
    type Event: Serialize + DeserializeOwned + Clone;
    type View: Serialize;

    fn load_ruleset(text: &str) -> Result<Self::Ruleset, String>;
    fn options() -> Vec<OptionSpec>;
    /// The player counts the ruleset allows, smallest and largest.
    fn players(rules: &Self::Ruleset) -> (usize, usize);
    /// What is wrong with these option values for this many players, one
    /// line each (the names are already checked against [`Game::options`],
    /// each given once, and the count against [`Game::players`]). Called
    /// by `herald new` before anything is written; by default nothing.
    fn check_options(_rules: &Self::Ruleset, _players: usize, _options: &Options) -> Vec<String> {
        Vec::new()
    }
    fn setup(
        rules: &Self::Ruleset,
        players: &[String],
        options: &Options,
        position: Option<&str>,
        rng: &mut ChaCha20Rng,
    ) -> Result<Setup<Self::State>, String>;
    /// What is wrong with a state read from a game file, if anything: a
    /// file is input, and a state the rules never make (re-sealed by hand)
    /// is refused when it is loaded, before a command works on it. By
    /// default nothing is checked beyond the state's shape.
    fn validate(_rules: &Self::Ruleset, _state: &Self::State) -> Result<(), String> {
        Ok(())
    }
    /// The name of the phase the game waits for, e.g. "move".
    fn phase(rules: &Self::Ruleset, state: &Self::State) -> String;
    /// Whose orders this phase needs.
    fn awaiting(rules: &Self::Ruleset, state: &Self::State) -> Vec<Seat>;
    fn parse_order(
        rules: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
        line: &str,
    ) -> Result<Self::Order, String>;
    /// Everything wrong with one player's orders taken together.
    fn check(
        rules: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
        orders: &[Self::Order],
    ) -> Vec<Problem>;
    /// Resolve a phase. Every die is rolled through `dice`, which records
    /// what each roll decided and who may see it.
    fn resolve(
        rules: &Self::Ruleset,
        state: &Self::State,
        orders: &BTreeMap<Seat, Vec<Self::Order>>,
        dice: &mut Dice,
    ) -> (Self::State, Vec<Self::Event>);
    /// Every legal set of orders for `seat` now (bots, missed orders, playouts).
    fn legal_orders(
        rules: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
    ) -> Vec<Vec<Self::Order>>;
    /// The orders a bot sends: by default a uniformly random legal set.
    fn bot_orders(
        rules: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
        rng: &mut ChaCha20Rng,
    ) -> Vec<Self::Order> {
        let all = Self::legal_orders(rules, state, seat);
        crate::rng::pick(rng, &all).cloned().unwrap_or_default()
    }
    /// What `seat` may see: the only source of that player's report.
    /// `players` are the ids by seat; `events` the events since the player's
    /// last orders, which the view filters.
    fn view(
        rules: &Self::Ruleset,
        state: &Self::State,
        players: &[String],
        seat: Seat,
        events: &[Seen<Self::Event>],
    ) -> Self::View;
    /// The board as text, from a view.
    fn ascii_board(rules: &Self::Ruleset, view: &Self::View) -> String;
    /// The board as an SVG picture, from the view alone: what the player may
    /// not see is absent from the file (drawing helpers: `crate::board::svg`).
    /// The same view must give the same bytes.
    fn svg_board(rules: &Self::Ruleset, view: &Self::View) -> String;
    fn outcome(rules: &Self::Ruleset, state: &Self::State, players: &[String]) -> Option<Outcome>;

    /// The missed-order policies this game offers, its default first
    /// (issue 7; `games/<game>.md` says why).
    const NMR: &'static [Nmr] = &[Nmr::Bot];
    /// What a player who sent nothing does under `hold`; `None` where the
    /// rules allow no such order now (the engine then uses the bot). By
    /// default: no orders at all, where the game's check accepts that.
    fn hold_orders(
        rules: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
    ) -> Option<Vec<Self::Order>> {
        Self::check(rules, state, seat, &[])
            .is_empty()
            .then(Vec::new)
    }
    /// A player drops out after too many missed orders in a row: the state
    /// without them and the events that tell it. `None`: this game keeps
    /// such a player under the missed-order policy to the end.
    fn drop_out(
        _rules: &Self::Ruleset,
        _state: &Self::State,
        _seat: Seat,
    ) -> Option<(Self::State, Vec<Self::Event>)> {
        None
    }

    /// What the HTML report's order composer offers `seat` now (issue 21;
    /// `compose::Orders` says how): every order each piece may take, the
    /// board cells (`data-hex` labels) it points at, and how orders
    /// combine. Computed only from what `seat` may know: nothing in it may
    /// depend on what the player's view hides. Asked only while `seat`'s
    /// orders are awaited. By default: the legal sets of one order, picked
    /// by their words.
    fn compose(rules: &Self::Ruleset, state: &Self::State, seat: Seat) -> compose::Orders {
        let sets: Vec<Vec<String>> = Self::legal_orders(rules, state, seat)
            .iter()
            .map(|set| set.iter().map(|o| o.to_string()).collect())
            .collect();
        compose::from_legal_sets(&sets)
    }
    // ---- Bots that see only a player's view, and the playtest lab (issue
    // 20): the algorithms are in `src/bots/`, the tournaments in
    // `src/playtest/`, each game's part in `src/games/<game>/bot.rs`. ----

    /// A state the forward model can run, built from `view` (exactly what
    /// the seat's report is rendered from) and nothing else: the state
    /// itself where the view shows everything the rules need; otherwise
    /// one sample of what the view leaves open (pieces out of sight, hidden
    /// powers, the enemy's treasury), drawn from `rng`, consistent with
    /// everything the view shows. `Err` where the game has no bot support.
    fn determinise(
        _rules: &Self::Ruleset,
        _view: &Self::View,
        _rng: &mut ChaCha20Rng,
    ) -> Result<Self::State, String> {
        Err(format!("{} has no view-only bots", Self::TITLE))
    }
    /// Whether `view` hides something the forward model needs, so that
    /// [`Game::determinise`] samples (the bots then need ISMCTS).
    fn view_hides(_rules: &Self::Ruleset, _view: &Self::View) -> bool {
        false
    }
    /// A uniformly random legal set of orders for `seat` (the `random`
    /// bot, random playouts). Never a resignation. By default one of
    /// [`Game::legal_orders`].
    fn random_orders(
        rules: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
        rng: &mut ChaCha20Rng,
    ) -> Vec<Self::Order> {
        let all = Self::candidate_orders(rules, state, seat, rng);
        crate::rng::pick(rng, &all).cloned().unwrap_or_default()
    }
    /// The order sets a searching bot (greedy, MCTS) chooses among for
    /// `seat` now; never a resignation. By default [`Game::legal_orders`].
    fn candidate_orders(
        rules: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
        _rng: &mut ChaCha20Rng,
    ) -> Vec<Vec<Self::Order>> {
        Self::legal_orders(rules, state, seat)
    }
    /// How good `state` is for `seat`: 0 even, about ±1000 decided.
    /// Integers, so searches stay deterministic.
    fn evaluate(_rules: &Self::Ruleset, _state: &Self::State, _seat: Seat) -> i32 {
        0
    }
    /// Each seat's score in the game's own terms where it has one (points,
    /// material), for the playtest's margins and lead changes.
    fn scores(_rules: &Self::Ruleset, _state: &Self::State) -> Vec<i32> {
        Vec::new()
    }
}

/// What happens to a player who sends no orders by the deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Nmr {
    /// No orders: forces stay, or the turn is passed, where the rules allow.
    Hold,
    /// The player's orders of the last phase of the same kind, where they
    /// are still legal (else hold, else bot).
    Repeat,
    /// A legal set of orders chosen by the game's bot from the seeded RNG.
    Bot,
}

impl Nmr {
    pub fn name(self) -> &'static str {
        match self {
            Nmr::Hold => "hold",
            Nmr::Repeat => "repeat",
            Nmr::Bot => "bot",
        }
    }
    pub fn parse(s: &str) -> Option<Nmr> {
        [Nmr::Hold, Nmr::Repeat, Nmr::Bot]
            .into_iter()
            .find(|n| n.name() == s)
    }
}

/// A state or an order behind the object-safe layer.
pub type AnyState = Box<dyn Any + Send + Sync>;

pub struct AnyOrder {
    /// The order as the game writes it back (canonical form).
    pub text: String,
    pub inner: Box<dyn Any + Send + Sync>,
}

/// A ruleset loaded from its text, driven through JSON values: what the
/// engine, the CLI and the reports use.
pub trait Session: Send + Sync {
    fn decode(&self, state: &Value) -> Result<AnyState, String>;
    fn encode(&self, state: &AnyState) -> Value;
    /// The player counts the loaded ruleset allows, smallest and largest.
    fn players(&self) -> (usize, usize);
    /// See [`Game::check_options`].
    fn check_options(&self, players: usize, options: &Options) -> Vec<String>;
    fn setup(
        &self,
        players: &[String],
        options: &Options,
        position: Option<&str>,
        rng: &mut ChaCha20Rng,
    ) -> Result<(AnyState, Vec<String>), String>;
    fn phase(&self, state: &AnyState) -> String;
    fn awaiting(&self, state: &AnyState) -> Vec<Seat>;
    fn parse_order(&self, state: &AnyState, seat: Seat, line: &str) -> Result<AnyOrder, String>;
    fn check(&self, state: &AnyState, seat: Seat, orders: &[AnyOrder]) -> Vec<Problem>;
    fn resolve(
        &self,
        state: &AnyState,
        orders: &BTreeMap<Seat, Vec<AnyOrder>>,
        dice: &mut Dice,
    ) -> (AnyState, Vec<Value>);
    fn legal_orders(&self, state: &AnyState, seat: Seat) -> Vec<Vec<String>>;
    fn bot_orders(&self, state: &AnyState, seat: Seat, rng: &mut ChaCha20Rng) -> Vec<String>;
    /// The view as JSON and the ASCII board drawn from it.
    fn view(
        &self,
        state: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
    ) -> Result<(Value, String), String>;
    /// The board as an SVG picture, drawn from the same view.
    fn svg(
        &self,
        state: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
    ) -> Result<String, String>;
    /// [`Session::view`] and [`Session::svg`] from one view worked out once
    /// (a report renders both).
    fn view_and_svg(
        &self,
        state: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
    ) -> Result<(Value, String, String), String>;
    fn outcome(&self, state: &AnyState, players: &[String]) -> Option<Outcome>;
    /// Orders under the `hold` policy, as text; `None` where holding is not legal.
    fn hold_orders(&self, state: &AnyState, seat: Seat) -> Option<Vec<String>>;
    /// The state after `seat` drops out, and the events; `None` if the game
    /// does not drop players.
    fn drop_out(&self, state: &AnyState, seat: Seat) -> Option<(AnyState, Vec<Value>)>;
    /// The order composer's data for `seat` now (`Game::compose`), as JSON.
    fn compose(&self, state: &AnyState, seat: Seat) -> Value;

    // ---- Bots and the playtest lab (issue 20) ----

    /// The orders of the bot that stands in for a player who sent none (the
    /// `bot` missed-order policy): `seat`'s view is built here from exactly
    /// what a report takes, and the bot ([`crate::bots::STAND_IN`]) gets
    /// that view and nothing else. Deterministic from `rng`.
    fn view_bot_orders(
        &self,
        state: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
        rng: &mut ChaCha20Rng,
    ) -> Vec<String>;
    /// The orders of any bot on `seat`'s view, as text.
    fn bot_on_view(
        &self,
        bot: &crate::bots::BotSpec,
        state: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
        rng: &mut ChaCha20Rng,
    ) -> Result<Vec<String>, String>;
    /// One game of a playtest tournament, played on the typed state.
    fn playtest(&self, job: &crate::playtest::Job) -> Result<crate::playtest::Record, String>;
}

struct Loaded<G: Game> {
    rules: G::Ruleset,
}

fn state<G: Game>(s: &AnyState) -> &G::State {
    s.downcast_ref::<G::State>().expect("a state of this game")
}

fn order<G: Game>(o: &AnyOrder) -> &G::Order {
    o.inner
        .downcast_ref::<G::Order>()
        .expect("an order of this game")
}

impl<G: Game> Loaded<G> {
    fn typed_view(
        &self,
        s: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
    ) -> Result<G::View, String> {
        let mut seen = Vec::with_capacity(events.len());
        for (turn, e) in events {
            let event = G::Event::deserialize(e)
                .map_err(|e| format!("a logged event does not read: {e}"))?;
            seen.push(Seen { turn: *turn, event });
        }
        Ok(G::view(&self.rules, state::<G>(s), players, seat, &seen))
    }
}

impl<G: Game> Session for Loaded<G> {
    fn decode(&self, v: &Value) -> Result<AnyState, String> {
        let s: G::State = G::State::deserialize(v)
            .map_err(|e| format!("the game state does not read as {}: {e}", G::TITLE))?;
        G::validate(&self.rules, &s)
            .map_err(|e| format!("the game state is not one {} makes: {e}", G::TITLE))?;
        Ok(Box::new(s))
    }
    fn encode(&self, s: &AnyState) -> Value {
        serde_json::to_value(state::<G>(s)).expect("state serialises")
    }
    fn players(&self) -> (usize, usize) {
        G::players(&self.rules)
    }
    fn check_options(&self, players: usize, options: &Options) -> Vec<String> {
        G::check_options(&self.rules, players, options)
    }
    fn setup(
        &self,
        players: &[String],
        options: &Options,
        position: Option<&str>,
        rng: &mut ChaCha20Rng,
    ) -> Result<(AnyState, Vec<String>), String> {
        let s = G::setup(&self.rules, players, options, position, rng)?;
        Ok((Box::new(s.state), s.notes))
    }
    fn phase(&self, s: &AnyState) -> String {
        G::phase(&self.rules, state::<G>(s))
    }
    fn awaiting(&self, s: &AnyState) -> Vec<Seat> {
        G::awaiting(&self.rules, state::<G>(s))
    }
    fn parse_order(&self, s: &AnyState, seat: Seat, line: &str) -> Result<AnyOrder, String> {
        let o = G::parse_order(&self.rules, state::<G>(s), seat, line)?;
        Ok(AnyOrder {
            text: o.to_string(),
            inner: Box::new(o),
        })
    }
    fn check(&self, s: &AnyState, seat: Seat, orders: &[AnyOrder]) -> Vec<Problem> {
        let typed: Vec<G::Order> = orders.iter().map(|o| order::<G>(o).clone()).collect();
        G::check(&self.rules, state::<G>(s), seat, &typed)
    }
    fn resolve(
        &self,
        s: &AnyState,
        orders: &BTreeMap<Seat, Vec<AnyOrder>>,
        dice: &mut Dice,
    ) -> (AnyState, Vec<Value>) {
        let typed: BTreeMap<Seat, Vec<G::Order>> = orders
            .iter()
            .map(|(k, v)| (*k, v.iter().map(|o| order::<G>(o).clone()).collect()))
            .collect();
        let (next, events) = G::resolve(&self.rules, state::<G>(s), &typed, dice);
        let events = events
            .iter()
            .map(|e| serde_json::to_value(e).expect("event serialises"))
            .collect();
        (Box::new(next), events)
    }
    fn legal_orders(&self, s: &AnyState, seat: Seat) -> Vec<Vec<String>> {
        G::legal_orders(&self.rules, state::<G>(s), seat)
            .into_iter()
            .map(|set| set.iter().map(|o| o.to_string()).collect())
            .collect()
    }
    fn bot_orders(&self, s: &AnyState, seat: Seat, rng: &mut ChaCha20Rng) -> Vec<String> {
        G::bot_orders(&self.rules, state::<G>(s), seat, rng)
            .iter()
            .map(|o| o.to_string())
            .collect()
    }
    fn view(
        &self,
        s: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
    ) -> Result<(Value, String), String> {
        let view = self.typed_view(s, players, seat, events)?;
        let board = G::ascii_board(&self.rules, &view);
        Ok((serde_json::to_value(&view).expect("view serialises"), board))
    }
    fn svg(
        &self,
        s: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
    ) -> Result<String, String> {
        let view = self.typed_view(s, players, seat, events)?;
        Ok(G::svg_board(&self.rules, &view))
    }
    fn view_and_svg(
        &self,
        s: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
    ) -> Result<(Value, String, String), String> {
        let view = self.typed_view(s, players, seat, events)?;
        let board = G::ascii_board(&self.rules, &view);
        let svg = G::svg_board(&self.rules, &view);
        Ok((
            serde_json::to_value(&view).expect("view serialises"),
            board,
            svg,
        ))
    }
    fn outcome(&self, s: &AnyState, players: &[String]) -> Option<Outcome> {
        G::outcome(&self.rules, state::<G>(s), players)
    }
    fn hold_orders(&self, s: &AnyState, seat: Seat) -> Option<Vec<String>> {
        G::hold_orders(&self.rules, state::<G>(s), seat)
            .map(|set| set.iter().map(|o| o.to_string()).collect())
    }
    fn drop_out(&self, s: &AnyState, seat: Seat) -> Option<(AnyState, Vec<Value>)> {
        let (next, events) = G::drop_out(&self.rules, state::<G>(s), seat)?;
        let events = events
            .iter()
            .map(|e| serde_json::to_value(e).expect("event serialises"))
            .collect();
        Some((Box::new(next) as AnyState, events))
    }
    fn compose(&self, s: &AnyState, seat: Seat) -> Value {
        serde_json::to_value(G::compose(&self.rules, state::<G>(s), seat))
            .expect("composer data serialises")
    }
    fn view_bot_orders(
        &self,
        s: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
        rng: &mut ChaCha20Rng,
    ) -> Vec<String> {
        // Events a report could not read would make the report fail too;
        // the bot then decides on the view without them.
        let view = self
            .typed_view(s, players, seat, events)
            .unwrap_or_else(|_| G::view(&self.rules, state::<G>(s), players, seat, &[]));
        match crate::bots::choose::<G>(
            &self.rules,
            &view,
            seat,
            players.len(),
            &crate::bots::STAND_IN,
            rng,
        ) {
            Ok(orders) => orders.iter().map(|o| o.to_string()).collect(),
            // A game without view-only bot support: a random legal set (a
            // player's own legal orders never depend on what they cannot see).
            Err(_) => crate::rng::pick(rng, &self.legal_orders(s, seat))
                .cloned()
                .unwrap_or_default(),
        }
    }
    fn bot_on_view(
        &self,
        bot: &crate::bots::BotSpec,
        s: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
        rng: &mut ChaCha20Rng,
    ) -> Result<Vec<String>, String> {
        let view = self.typed_view(s, players, seat, events)?;
        let orders = crate::bots::choose::<G>(&self.rules, &view, seat, players.len(), bot, rng)?;
        Ok(orders.iter().map(|o| o.to_string()).collect())
    }
    fn playtest(&self, job: &crate::playtest::Job) -> Result<crate::playtest::Record, String> {
        crate::playtest::play::<G>(&self.rules, job)
    }
}

/// A ruleset herald knows, by name.
pub struct Entry {
    pub name: &'static str,
    pub title: &'static str,
    pub ruleset: &'static str,
    pub demo_players: &'static [&'static str],
    /// The seats' names in order, where the game names them.
    pub seats: &'static [&'static str],
    pub options: fn() -> Vec<OptionSpec>,
    /// Missed-order policies offered, the default first.
    pub nmr: &'static [Nmr],
    load: fn(&str) -> Result<Box<dyn Session>, String>,
}

impl Entry {
    /// Load a ruleset text (the built-in one or a moderator's copy).
    pub fn load(&self, text: &str) -> Result<Box<dyn Session>, String> {
        (self.load)(text)
    }

    /// What `herald new` (or `demo`) was given, checked against this game
    /// and its loaded ruleset before anything is written: the player count
    /// (the ruleset's range), the player ids (plain names, none twice), the
    /// options (`key=value`, names the game has, each once, values it
    /// accepts for this many players). Every problem at once, as a usage
    /// error (exit 2); the options as the game will get them.
    pub fn check_new(
        &self,
        rules: &dyn Session,
        players: &[String],
        options: &[String],
    ) -> Result<Options, Error> {
        let mut problems = Vec::new();
        let (min, max) = rules.players();
        let n = players.len();
        if n < min || n > max {
            problems.push(format!(
                "{}; --players gave {n}: {}",
                self.player_counts(min, max),
                players.join(",")
            ));
        }
        for p in players {
            if let Err(e) = crate::names::Name::new("player id", p) {
                problems.push(e);
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut twice = std::collections::BTreeSet::new();
        for p in players {
            if !seen.insert(p) {
                twice.insert(p);
            }
        }
        for p in twice {
            problems.push(format!(
                "player id `{p}` is given more than once; each player needs their own"
            ));
        }
        let specs = (self.options)();
        let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
        let mut parsed = Options::new();
        for o in options {
            let Some((k, v)) = o.split_once('=') else {
                problems.push(format!("--option {o}: write it as key=value"));
                continue;
            };
            let (k, v) = (k.trim(), v.trim());
            if !known.contains(&k) {
                problems.push(if known.is_empty() {
                    format!("--option {o}: {} takes no options", self.name)
                } else {
                    format!(
                        "--option {o}: {} has no option `{k}`; it has: {}",
                        self.name,
                        known.join(", ")
                    )
                });
                continue;
            }
            if parsed.insert(k.to_string(), v.to_string()).is_some() {
                problems.push(format!("--option {k} is given twice"));
            }
        }
        if problems.is_empty() {
            problems.extend(rules.check_options(n, &parsed));
        }
        if problems.is_empty() {
            Ok(parsed)
        } else {
            Err(Error {
                kind: crate::error::Kind::Usage,
                problems,
            })
        }
    }

    /// "hexwar takes exactly 2 players: white,black", "norse-wars takes 2
    /// to 6 players".
    fn player_counts(&self, min: usize, max: usize) -> String {
        let seats = if self.seats.len() == max {
            format!(": {}", self.seats.join(","))
        } else {
            String::new()
        };
        if min == max {
            format!("{} takes exactly {min} players{seats}", self.name)
        } else {
            format!("{} takes {min} to {max} players{seats}", self.name)
        }
    }
}

fn loader<G: Game>(text: &str) -> Result<Box<dyn Session>, String> {
    Ok(Box::new(Loaded::<G> {
        rules: G::load_ruleset(text)?,
    }))
}

const fn entry<G: Game>() -> Entry {
    Entry {
        name: G::NAME,
        title: G::TITLE,
        ruleset: G::RULESET,
        demo_players: G::DEMO_PLAYERS,
        seats: G::SEATS,
        options: G::options,
        nmr: G::NMR,
        load: loader::<G>,
    }
}

/// Every ruleset built in, in the order `herald games` lists them.
pub static REGISTRY: &[Entry] = &[
    entry::<norse_wars::NorseWars>(),
    entry::<hexwar::Hexwar>(),
    entry::<stack_wars::StackWars>(),
    entry::<unfought_battle::UnfoughtBattle>(),
    entry::<war_of_the_dukes::WarOfTheDukes>(),
];

pub fn find(name: &str) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| e.name == name)
}

pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|e| e.name).collect()
}

/// Parse a boolean option value.
pub fn parse_bool(name: &str, v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(format!("option {name}={v}: say true or false")),
    }
}
