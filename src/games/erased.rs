//! The object-safe layer: a game chosen at run time, as the engine drives it.
//!
//! The pipeline, the CLI and the reports never see a game's types. They
//! hold a [`Rules`]: one game's rules with its ruleset loaded, over
//! type-erased states ([`AnyState`]), orders ([`AnyOrder`]) and views
//! ([`AnyView`]); events travel as JSON values. Each built-in game gets it
//! from its typed traits ([`Game`], [`Draw`], [`Compose`]) through
//! [`Erased`], made only by the registry.
//!
//! Code that needs a game's types again — the bots and the playtest lab,
//! which must stay fast — asks [`super::visit`] with a [`Visitor`]: it is
//! called back with the game as a type parameter and its ruleset. So the
//! games layer knows nothing of the layers above it.

use super::{Compose, Draw, Game, Options, Outcome, Problem, RulesError, Seat, Seen};
use crate::board::picture::Frame;
use crate::rng::{ChaCha20Rng, Dice};
use serde::Deserialize;
use serde_json::Value;
use std::any::Any;
use std::collections::BTreeMap;

/// A state behind the object-safe layer.
pub type AnyState = Box<dyn Any + Send + Sync>;

/// An order behind the object-safe layer.
pub struct AnyOrder {
    /// The order as the game writes it back (canonical form).
    pub text: String,
    pub inner: Box<dyn Any + Send + Sync>,
}

/// One player's view behind the object-safe layer: worked out once, then
/// shown as JSON ([`Rules::view_json`]), drawn ([`Rules::ascii_board`],
/// [`Rules::svg_board`]) or handed to a bot, which gets nothing else.
pub struct AnyView(Box<dyn Any>);

impl AnyView {
    /// The typed view, if this is a view of game `G`.
    pub fn get<G: Game>(&self) -> Option<&G::View> {
        self.0.downcast_ref::<G::View>()
    }
}

/// One game's rules with its ruleset loaded, for code that does not know
/// which game it drives: what [`super::Entry::load`] returns. The methods
/// are [`Game`]'s (and [`Draw`]'s and [`Compose`]'s) on type-erased values;
/// a state, order or view given to them must come from the same `Rules`.
pub trait Rules: Any + Send + Sync + sealed::Sealed {
    // ---- The rules (`Game`) ----

    /// Read a state from the game file; a state the rules never make is
    /// refused ([`Game::validate`]).
    fn decode(&self, state: &Value) -> Result<AnyState, RulesError>;
    fn encode(&self, state: &AnyState) -> Value;
    /// The player counts the loaded ruleset allows, smallest and largest.
    fn players(&self) -> (usize, usize);
    /// See [`Game::check_options`].
    fn check_options(&self, players: usize, options: &Options) -> Vec<RulesError>;
    fn setup(
        &self,
        players: &[String],
        options: &Options,
        position: Option<&str>,
        rng: &mut ChaCha20Rng,
    ) -> Result<(AnyState, Vec<String>), RulesError>;
    fn phase(&self, state: &AnyState) -> String;
    fn awaiting(&self, state: &AnyState) -> Vec<Seat>;
    fn parse_order(&self, state: &AnyState, seat: Seat, line: &str)
        -> Result<AnyOrder, RulesError>;
    fn check(&self, state: &AnyState, seat: Seat, orders: &[AnyOrder]) -> Vec<Problem>;
    /// See [`Game::builds_on`].
    fn builds_on(&self, state: &AnyState, orders: &[AnyOrder], k: usize) -> Vec<usize>;
    /// Resolve a phase; the events as JSON values.
    fn resolve(
        &self,
        state: &AnyState,
        orders: &BTreeMap<Seat, Vec<AnyOrder>>,
        dice: &mut Dice,
    ) -> (AnyState, Vec<Value>);
    /// [`Game::legal_orders`], as text.
    fn legal_orders(&self, state: &AnyState, seat: Seat) -> Vec<Vec<String>>;
    /// What `seat` may see ([`Game::view`]); `events` are the logged events
    /// (turn, JSON) the view filters. Refused if a logged event does not
    /// read as one of this game's.
    fn view(
        &self,
        state: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
    ) -> Result<AnyView, RulesError>;
    /// What `seat` would see if nothing were hidden
    /// ([`Game::omniscient_view`]): only for a game that is over.
    fn omniscient_view(
        &self,
        state: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
    ) -> Result<AnyView, RulesError>;
    /// A view as JSON: the machine-readable report's body.
    fn view_json(&self, view: &AnyView) -> Value;
    fn outcome(&self, state: &AnyState, players: &[String]) -> Option<Outcome>;
    /// Orders under the `hold` policy, as text; `None` where holding is not legal.
    fn hold_orders(&self, state: &AnyState, seat: Seat) -> Option<Vec<String>>;
    /// The state after `seat` drops out, and the events; `None` if the game
    /// does not drop players.
    fn drop_out(&self, state: &AnyState, seat: Seat) -> Option<(AnyState, Vec<Value>)>;
    /// See [`Game::still_in`].
    fn still_in(&self, state: &AnyState, players: usize) -> Vec<Seat>;
    /// See [`Game::resign`].
    fn resign(&self, state: &AnyState, seat: Seat) -> Option<(AnyState, Vec<Value>)>;
    /// See [`Game::agree_draw`].
    fn agree_draw(&self, state: &AnyState) -> Option<(AnyState, Vec<Value>)>;

    // ---- Drawing (`Draw`) ----

    /// The board as text, drawn from a view.
    fn ascii_board(&self, view: &AnyView) -> String;
    /// The board as an SVG picture, drawn from a view, in a frame: the
    /// whole board, or the mail's picture for a phone.
    fn svg_board(&self, view: &AnyView, frame: Frame) -> String;
    /// The game's own count, labelled ([`Draw::count`]).
    fn count(&self, view: &AnyView) -> Option<String>;
    /// Whether the view's player reads the board turned ([`Draw::turned`]).
    fn turned(&self, view: &AnyView) -> bool;

    // ---- Composing (`Compose`) ----

    /// The order composer's data for `seat` now ([`Compose::compose`]), as JSON.
    fn compose(&self, state: &AnyState, seat: Seat) -> Value;
    /// Where the view's own pieces stand ([`Compose::own_cells`]).
    fn own_cells(&self, view: &AnyView) -> Vec<String>;
}

/// Only [`Erased`] implements [`Rules`], so [`super::visit`] knows every
/// implementation.
mod sealed {
    pub trait Sealed {}
}

/// Every capability herald asks of a game built into it.
pub trait BuiltIn: Game + Draw + Compose + super::BotSupport {}

impl<G: Game + Draw + Compose + super::BotSupport> BuiltIn for G {}

/// Code called back with a game's type: see [`super::visit`].
pub trait Visitor {
    type Output;
    fn visit<G: BuiltIn>(self, ruleset: &G::Ruleset) -> Self::Output;
}

/// A game's [`Rules`]: its typed traits over its loaded ruleset.
pub(super) struct Erased<G: Game> {
    pub(super) ruleset: G::Ruleset,
}

impl<G: BuiltIn> Erased<G> {
    pub(super) fn load(text: &str) -> Result<Box<dyn Rules>, RulesError> {
        Ok(Box::new(Erased::<G> {
            ruleset: G::load_ruleset(text)?,
        }))
    }
}

fn state<G: Game>(s: &AnyState) -> &G::State {
    s.downcast_ref::<G::State>().expect("a state of this game")
}

fn order<G: Game>(o: &AnyOrder) -> &G::Order {
    o.inner
        .downcast_ref::<G::Order>()
        .expect("an order of this game")
}

fn view<G: Game>(v: &AnyView) -> &G::View {
    v.get::<G>().expect("a view of this game")
}

impl<G: Game> sealed::Sealed for Erased<G> {}

impl<G: BuiltIn> Rules for Erased<G> {
    fn decode(&self, v: &Value) -> Result<AnyState, RulesError> {
        let s: G::State =
            G::State::deserialize(v).map_err(|error| RulesError::StateUnreadable {
                title: G::TITLE,
                error,
            })?;
        G::validate(&self.ruleset, &s).map_err(|why| RulesError::StateImpossible {
            title: G::TITLE,
            why: Box::new(why),
        })?;
        Ok(Box::new(s))
    }
    fn encode(&self, s: &AnyState) -> Value {
        serde_json::to_value(state::<G>(s)).expect("state serialises")
    }
    fn players(&self) -> (usize, usize) {
        G::players(&self.ruleset)
    }
    fn check_options(&self, players: usize, options: &Options) -> Vec<RulesError> {
        G::check_options(&self.ruleset, players, options)
    }
    fn setup(
        &self,
        players: &[String],
        options: &Options,
        position: Option<&str>,
        rng: &mut ChaCha20Rng,
    ) -> Result<(AnyState, Vec<String>), RulesError> {
        let s = G::setup(&self.ruleset, players, options, position, rng)?;
        Ok((Box::new(s.state), s.notes))
    }
    fn phase(&self, s: &AnyState) -> String {
        G::phase(&self.ruleset, state::<G>(s))
    }
    fn awaiting(&self, s: &AnyState) -> Vec<Seat> {
        G::awaiting(&self.ruleset, state::<G>(s))
    }
    fn parse_order(&self, s: &AnyState, seat: Seat, line: &str) -> Result<AnyOrder, RulesError> {
        let o = G::parse_order(&self.ruleset, state::<G>(s), seat, line)?;
        Ok(AnyOrder {
            text: o.to_string(),
            inner: Box::new(o),
        })
    }
    fn check(&self, s: &AnyState, seat: Seat, orders: &[AnyOrder]) -> Vec<Problem> {
        let typed: Vec<G::Order> = orders.iter().map(|o| order::<G>(o).clone()).collect();
        G::check(&self.ruleset, state::<G>(s), seat, &typed)
    }
    fn builds_on(&self, s: &AnyState, orders: &[AnyOrder], k: usize) -> Vec<usize> {
        let typed: Vec<G::Order> = orders.iter().map(|o| order::<G>(o).clone()).collect();
        G::builds_on(&self.ruleset, state::<G>(s), &typed, k)
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
        let (next, events) = G::resolve(&self.ruleset, state::<G>(s), &typed, dice);
        (Box::new(next), events_json::<G>(&events))
    }
    fn legal_orders(&self, s: &AnyState, seat: Seat) -> Vec<Vec<String>> {
        G::legal_orders(&self.ruleset, state::<G>(s), seat)
            .into_iter()
            .map(|set| set.iter().map(|o| o.to_string()).collect())
            .collect()
    }
    fn view(
        &self,
        s: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
    ) -> Result<AnyView, RulesError> {
        let seen = seen::<G>(events)?;
        let v = G::view(&self.ruleset, state::<G>(s), players, seat, &seen);
        Ok(AnyView(Box::new(v)))
    }
    fn omniscient_view(
        &self,
        s: &AnyState,
        players: &[String],
        seat: Seat,
        events: &[(u32, Value)],
    ) -> Result<AnyView, RulesError> {
        let seen = seen::<G>(events)?;
        let v = G::omniscient_view(&self.ruleset, state::<G>(s), players, seat, &seen);
        Ok(AnyView(Box::new(v)))
    }
    fn view_json(&self, v: &AnyView) -> Value {
        serde_json::to_value(view::<G>(v)).expect("view serialises")
    }
    fn outcome(&self, s: &AnyState, players: &[String]) -> Option<Outcome> {
        G::outcome(&self.ruleset, state::<G>(s), players)
    }
    fn hold_orders(&self, s: &AnyState, seat: Seat) -> Option<Vec<String>> {
        G::hold_orders(&self.ruleset, state::<G>(s), seat)
            .map(|set| set.iter().map(|o| o.to_string()).collect())
    }
    fn drop_out(&self, s: &AnyState, seat: Seat) -> Option<(AnyState, Vec<Value>)> {
        let (next, events) = G::drop_out(&self.ruleset, state::<G>(s), seat)?;
        Some((Box::new(next) as AnyState, events_json::<G>(&events)))
    }
    fn still_in(&self, s: &AnyState, players: usize) -> Vec<Seat> {
        G::still_in(&self.ruleset, state::<G>(s), players)
    }
    fn resign(&self, s: &AnyState, seat: Seat) -> Option<(AnyState, Vec<Value>)> {
        let (next, events) = G::resign(&self.ruleset, state::<G>(s), seat)?;
        Some((Box::new(next) as AnyState, events_json::<G>(&events)))
    }
    fn agree_draw(&self, s: &AnyState) -> Option<(AnyState, Vec<Value>)> {
        let (next, events) = G::agree_draw(&self.ruleset, state::<G>(s))?;
        Some((Box::new(next) as AnyState, events_json::<G>(&events)))
    }
    fn ascii_board(&self, v: &AnyView) -> String {
        G::ascii_board(&self.ruleset, view::<G>(v))
    }
    fn svg_board(&self, v: &AnyView, frame: Frame) -> String {
        G::svg_board(&self.ruleset, view::<G>(v), frame)
    }
    fn count(&self, v: &AnyView) -> Option<String> {
        G::count(&self.ruleset, view::<G>(v))
    }
    fn turned(&self, v: &AnyView) -> bool {
        G::turned(&self.ruleset, view::<G>(v))
    }
    fn compose(&self, s: &AnyState, seat: Seat) -> Value {
        serde_json::to_value(G::compose(&self.ruleset, state::<G>(s), seat))
            .expect("composer data serialises")
    }
    fn own_cells(&self, v: &AnyView) -> Vec<String> {
        G::own_cells(&self.ruleset, view::<G>(v))
    }
}

/// Logged events (turn, JSON) read as game `G`'s, for a view.
fn seen<G: Game>(events: &[(u32, Value)]) -> Result<Vec<Seen<G::Event>>, RulesError> {
    let mut seen = Vec::with_capacity(events.len());
    for (turn, e) in events {
        let event = G::Event::deserialize(e).map_err(RulesError::EventUnreadable)?;
        seen.push(Seen { turn: *turn, event });
    }
    Ok(seen)
}

fn events_json<G: Game>(events: &[G::Event]) -> Vec<Value> {
    events
        .iter()
        .map(|e| serde_json::to_value(e).expect("event serialises"))
        .collect()
}

/// The ruleset of `rules`, if it is game `G`'s.
pub(super) fn ruleset_of<G: BuiltIn>(rules: &dyn Rules) -> Option<&G::Ruleset> {
    let any: &dyn Any = rules;
    any.downcast_ref::<Erased<G>>().map(|e| &e.ruleset)
}
