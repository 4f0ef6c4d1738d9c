//! The rules of one game, and nothing else: the [`Game`] trait and the
//! plain types its methods speak in.
//!
//! Like shakmaty's `Position` or godip's `Validator`/`Resolver`, `Game`
//! only knows the rules: how a game starts, what it waits for, which orders
//! it accepts, what a phase does, what each player may see, who won, and
//! what stands in for orders a player missed. It draws nothing
//! ([`super::Draw`]), offers nothing to the HTML composer
//! ([`super::Compose`]) and knows no bot ([`super::BotSupport`]); no I/O,
//! no clock, every die through [`Dice`].

use super::rules_error::RulesError;
use crate::rng::{ChaCha20Rng, Dice};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
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
/// line it concerns, or `None` for the orders as a whole; `why` is typed,
/// and becomes words where the refusal is written (`pipeline::check`).
#[derive(Debug)]
pub struct Problem {
    pub order: Option<usize>,
    pub why: RulesError,
}

impl Problem {
    /// A problem with order line `order`.
    pub fn at(order: usize, why: impl Into<RulesError>) -> Problem {
        Problem {
            order: Some(order),
            why: why.into(),
        }
    }
    /// A problem with the orders as a whole.
    pub fn whole(why: impl Into<RulesError>) -> Problem {
        Problem {
            order: None,
            why: why.into(),
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

/// What happens to a player who sends no orders by the deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Nmr {
    /// No orders: forces stay, or the turn is passed, where the rules allow.
    Hold,
    /// The player's orders of the last phase of the same kind, where they
    /// are still legal (else hold, else bot).
    Repeat,
    /// A legal set of orders chosen by a bot on the player's view, from the
    /// seeded RNG (`pipeline::nmr`).
    Bot,
}

impl Nmr {
    /// Every policy, in the order `herald games` and `--help` list them.
    pub const ALL: [Nmr; 3] = [Nmr::Hold, Nmr::Repeat, Nmr::Bot];

    pub fn name(self) -> &'static str {
        match self {
            Nmr::Hold => "hold",
            Nmr::Repeat => "repeat",
            Nmr::Bot => "bot",
        }
    }
    pub fn parse(s: &str) -> Option<Nmr> {
        Nmr::ALL.into_iter().find(|n| n.name() == s)
    }
}

/// The rules of one game. The state is the whole truth; [`Game::view`] is
/// the only source of what a player is told. Every method takes the parsed
/// ruleset, so a moderator's `--rules` copy changes numbers without code.
pub trait Game: 'static {
    /// Registry name, e.g. "norse-wars".
    const NAME: &'static str;
    const TITLE: &'static str;
    /// The built-in ruleset text (`games/<name>.toml`).
    const RULESET: &'static str;
    /// The player ids `herald demo` seats when none are given.
    const DEMO_PLAYERS: &'static [&'static str] = &["red", "blue"];
    /// The names of the seats, in the order `--players` fills them (e.g.
    /// white, black), for messages; empty where the seats have no names.
    const SEATS: &'static [&'static str] = &[];

    /// The ruleset's numbers and tables, read from its TOML text
    /// (`src/games/<game>/ruleset.rs`).
    type Ruleset: Send + Sync;
    type State: Serialize + DeserializeOwned + Clone + Send + Sync;
    type Order: Clone + Display + Send + Sync;
    type Event: Serialize + DeserializeOwned + Clone;
    /// What one player may see: everything their report, their board and
    /// the bots playing for them are made from.
    type View: Serialize;

    fn load_ruleset(text: &str) -> Result<Self::Ruleset, RulesError>;
    fn options() -> Vec<OptionSpec>;
    /// The player counts the ruleset allows, smallest and largest.
    fn players(ruleset: &Self::Ruleset) -> (usize, usize);
    /// What is wrong with these option values for this many players, one
    /// problem a line (the names are already checked against [`Game::options`],
    /// each given once, and the count against [`Game::players`]). Called
    /// by `herald new` before anything is written; by default nothing.
    fn check_options(
        _ruleset: &Self::Ruleset,
        _players: usize,
        _options: &Options,
    ) -> Vec<RulesError> {
        Vec::new()
    }
    fn setup(
        ruleset: &Self::Ruleset,
        players: &[String],
        options: &Options,
        position: Option<&str>,
        rng: &mut ChaCha20Rng,
    ) -> Result<Setup<Self::State>, RulesError>;
    /// What is wrong with a state read from a game file, if anything: a
    /// file is input, and a state the rules never make (re-sealed by hand)
    /// is refused when it is loaded, before a command works on it. By
    /// default nothing is checked beyond the state's shape.
    fn validate(_ruleset: &Self::Ruleset, _state: &Self::State) -> Result<(), RulesError> {
        Ok(())
    }
    /// The name of the phase the game waits for, e.g. "move".
    fn phase(ruleset: &Self::Ruleset, state: &Self::State) -> String;
    /// Whose orders this phase needs.
    fn awaiting(ruleset: &Self::Ruleset, state: &Self::State) -> Vec<Seat>;
    fn parse_order(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
        line: &str,
    ) -> Result<Self::Order, RulesError>;
    /// Everything wrong with one player's orders taken together.
    fn check(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
        orders: &[Self::Order],
    ) -> Vec<Problem>;
    /// The earlier orders of `orders` that order `k` builds on: the move
    /// of the piece it then turns, the moves of the units it attacks
    /// with. Where one of them is refused, order `k` was checked as if the
    /// refused one were not there (`check` leaves a refused order out of
    /// the position the later ones see), and the refusal says so. By
    /// default none: orders that are checked each on the same position.
    fn builds_on(
        _ruleset: &Self::Ruleset,
        _state: &Self::State,
        _orders: &[Self::Order],
        _k: usize,
    ) -> Vec<usize> {
        Vec::new()
    }
    /// Resolve a phase. Every die is rolled through `dice`, which records
    /// what each roll decided and who may see it.
    fn resolve(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        orders: &BTreeMap<Seat, Vec<Self::Order>>,
        dice: &mut Dice,
    ) -> (Self::State, Vec<Self::Event>);
    /// Every legal set of orders for `seat` now (the blank order form lists
    /// them; bots choose among them unless the game offers its own
    /// candidates). A player's own legal orders never depend on what their
    /// view hides.
    fn legal_orders(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
    ) -> Vec<Vec<Self::Order>>;
    /// What `seat` may see: the only source of that player's report.
    /// `players` are the ids by seat; `events` the events since the player's
    /// last orders, which the view filters.
    fn view(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        players: &[String],
        seat: Seat,
        events: &[Seen<Self::Event>],
    ) -> Self::View;
    /// What `seat` would see if the game hid nothing: every piece, power
    /// and fact of the state, every event told in full, from `seat`'s side
    /// (its pieces are "yours"). The omniscient view of a finished game's
    /// archive (`herald site`), where nothing is secret any more; never
    /// shown while a game runs. A game whose views hide nothing returns
    /// [`Game::view`]; a game with fog or hidden powers shows what the view
    /// leaves out, so that `omniscient_view == view` for every seat exactly
    /// when no seat is told less than the whole truth.
    fn omniscient_view(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        players: &[String],
        seat: Seat,
        events: &[Seen<Self::Event>],
    ) -> Self::View;
    fn outcome(ruleset: &Self::Ruleset, state: &Self::State, players: &[String])
        -> Option<Outcome>;

    // ---- Missed orders (issue 7; `games/<game>.md` says why). The engine
    // chooses among these in `pipeline::nmr`, the one stand-in path. ----

    /// What dropping out after too many missed orders in a row means in
    /// this game, said to the player ("you surrender: the other side
    /// wins"), for the report's word on missed orders.
    const DROP_OUT: &'static str = "you drop out of the game";
    /// The missed-order policies this game offers, its default first.
    const NMR: &'static [Nmr] = &[Nmr::Bot];
    /// What a player who sent nothing does under `hold`; `None` where the
    /// rules allow no such order now (the engine then uses the bot). By
    /// default: no orders at all, where the game's check accepts that.
    fn hold_orders(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
    ) -> Option<Vec<Self::Order>> {
        Self::check(ruleset, state, seat, &[])
            .is_empty()
            .then(Vec::new)
    }
    /// A player drops out after too many missed orders in a row: the state
    /// without them and the events that tell it. `None`: this game keeps
    /// such a player under the missed-order policy to the end.
    fn drop_out(
        _ruleset: &Self::Ruleset,
        _state: &Self::State,
        _seat: Seat,
    ) -> Option<(Self::State, Vec<Self::Event>)> {
        None
    }

    // ---- Resign and draw by agreement (issue 52; docs/host.md, "Resign
    // and draw"; each game's ruling in games/<game>.md). ----

    /// The seats still in the game, of `players`: who may resign, and whose
    /// agreement a draw needs. By default every seat while the game runs.
    fn still_in(_ruleset: &Self::Ruleset, _state: &Self::State, players: usize) -> Vec<Seat> {
        (0..players).collect()
    }
    /// `seat` resigns now: the state after and the events that tell it;
    /// `None` where the game cannot take a resignation now (the caller
    /// says why). By default as dropping out ([`Game::drop_out`]).
    fn resign(
        ruleset: &Self::Ruleset,
        state: &Self::State,
        seat: Seat,
    ) -> Option<(Self::State, Vec<Self::Event>)> {
        Self::drop_out(ruleset, state, seat)
    }
    /// Every player still in agreed to a draw: the state after, the game
    /// over and drawn, and the events that tell it. `None`: this game
    /// cannot end so now.
    fn agree_draw(
        _ruleset: &Self::Ruleset,
        _state: &Self::State,
    ) -> Option<(Self::State, Vec<Self::Event>)> {
        None
    }
}

/// How a game ended by agreement is named in its outcome.
pub const DRAWN_BY_AGREEMENT: &str = "drawn by agreement";

/// Parse a boolean option value.
pub fn parse_bool(name: &str, v: &str) -> Result<bool, RulesError> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(RulesError::NotABool {
            name: name.to_string(),
            value: v.to_string(),
        }),
    }
}
