//! The games herald knows, each by capability, and the registry.
//!
//! A game is a type implementing four traits, each in its own file here
//! and implemented by the game in its own folder (`src/games/<game>/`):
//!
//! - [`Game`] (`game.rs`): the rules only — setup, phase, whose orders are
//!   awaited, parsing and checking orders, resolving a phase, each
//!   player's view, the outcome, the options and the missed-order hooks.
//!   Implemented in the game's `mod.rs`.
//! - [`Draw`] (`draw.rs`): the boards (text and SVG) drawn from a view;
//!   in the game's `svg.rs`.
//! - [`Compose`] (`compose.rs`): what the HTML report's order composer
//!   offers; in the game's `compose.rs`.
//! - [`BotSupport`] (`bot_support.rs`): what the bots need — a state from
//!   a view, candidate and random orders, an evaluation, scores, a
//!   scripted player; in the game's `bot.rs` (fast random play in its
//!   `playout.rs`).
//!
//! The engine drives a game chosen at run time through the object-safe
//! [`Rules`] (`erased.rs`), which [`Entry::load`] makes from a ruleset's
//! text. The bots (`crate::bots`) and the lab (`crate::playtest`) get a
//! game's types back through [`visit`]. This module imports nothing above
//! it (`src/lib.rs` gives the order).

pub mod bot_support;
pub mod compose;
pub mod draw;
pub mod erased;
pub mod game;
pub mod rules_error;

pub mod hexwar;
pub mod norse_wars;
pub mod stack_wars;
pub mod unfought_battle;
pub mod war_of_the_dukes;

pub use bot_support::{BotSupport, Parts};
pub use compose::Compose;
pub use draw::Draw;
pub use erased::{AnyOrder, AnyState, AnyView, BuiltIn, Rules, Visitor};
pub use game::{parse_bool, Game, Nmr, OptionSpec, Options, Outcome, Problem, Seat, Seen, Setup};
pub use rules_error::{Detail, RulesError};

use crate::error::Error;
use erased::Erased;

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
    /// What dropping out means, said to the player ([`Game::DROP_OUT`]).
    pub drop_out: &'static str,
    load: fn(&str) -> Result<Box<dyn Rules>, RulesError>,
}

impl Entry {
    /// Load a ruleset text (the built-in one or a moderator's copy).
    pub fn load(&self, text: &str) -> Result<Box<dyn Rules>, RulesError> {
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
        rules: &dyn Rules,
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
        // The values of the options named right, beside the problems above
        // (one answer tells them all), for the player count given or, where
        // the game takes no such count, the nearest it takes.
        problems.extend(
            rules
                .check_options(n.clamp(min, max.max(min)), &parsed)
                .iter()
                .map(|e| e.to_string()),
        );
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

const fn entry<G: BuiltIn>() -> Entry {
    Entry {
        name: G::NAME,
        title: G::TITLE,
        ruleset: G::RULESET,
        demo_players: G::DEMO_PLAYERS,
        seats: G::SEATS,
        options: G::options,
        nmr: G::NMR,
        drop_out: G::DROP_OUT,
        load: Erased::<G>::load,
    }
}

/// Every game built into herald, named once: the registry and [`visit`]
/// are both made from this list.
macro_rules! built_in {
    ($($game:ty),+ $(,)?) => {
        /// Every ruleset built in, in the order `herald games` lists them.
        pub static REGISTRY: &[Entry] = &[$(entry::<$game>()),+];

        /// Call `visitor` back with the game `rules` belongs to as a type
        /// parameter, and its loaded ruleset: how code above the games
        /// layer (the bots, the lab) runs a game chosen at run time on its
        /// own types.
        pub fn visit<V: Visitor>(rules: &dyn Rules, visitor: V) -> V::Output {
            $(
                if let Some(ruleset) = erased::ruleset_of::<$game>(rules) {
                    return visitor.visit::<$game>(ruleset);
                }
            )+
            unreachable!("every Rules is made by an entry of the registry")
        }
    };
}

built_in!(
    norse_wars::NorseWars,
    hexwar::Hexwar,
    stack_wars::StackWars,
    unfought_battle::UnfoughtBattle,
    war_of_the_dukes::WarOfTheDukes,
);

pub fn find(name: &str) -> Option<&'static Entry> {
    REGISTRY.iter().find(|e| e.name == name)
}

pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|e| e.name).collect()
}
