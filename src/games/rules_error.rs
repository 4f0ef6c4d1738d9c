//! What the rules refuse, as values: the [`RulesError`] every [`Game`] and
//! the object-safe [`Rules`] return, its [`Kind`] a caller matches on, and
//! the [`Detail`] a game adds where the shared cases do not say enough.
//!
//! Like shakmaty's `PlayError` and `PositionErrorKinds`, an error carries the
//! facts (the word given, the piece, the hex, the orders legal instead) and
//! no sentence: the words are made by [`fmt::Display`], only where a message
//! is shown or written (the edge: `pipeline::check`, `pipeline::create`, the
//! CLI, the host's replies). A caller that needs to act on a problem matches
//! on [`RulesError::kind`] and, for a game's own case, on
//! [`RulesError::detail`], which hands back the game's typed detail.
//!
//! [`Game`]: super::Game
//! [`Rules`]: super::Rules

use std::any::Any;
use std::fmt;

/// What sort of problem it is, the same for every game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The ruleset text (the built-in one or a moderator's `--rules` copy)
    /// does not read, or breaks the bounds the rules need.
    Ruleset,
    /// An option's value is not one the game takes (for this many players).
    BadOption,
    /// A starting position (`--setup`) is not one the rules allow.
    Setup,
    /// A state read from a game file is not one the rules make.
    State,
    /// An order line does not read: what is accepted is told.
    Malformed,
    /// An order names a piece, unit or force there is none of.
    UnknownPiece,
    /// An order names something that is not the player's to command.
    NotYours,
    /// The order (or the player) is not one this phase takes.
    WrongPhase,
    /// The order reads but the rules forbid it: what is legal instead is told.
    Illegal,
}

/// A game's own detail of a problem: an enum in the game's folder whose
/// variants carry the facts and whose `Display` says them.
pub trait Detail: fmt::Display + fmt::Debug + Send + Sync + 'static {
    /// Which of the shared kinds this is.
    fn kind(&self) -> Kind;
    /// The orders (as their order-file text) the rules would take instead,
    /// where the problem knows them: what an order composer could offer.
    fn legal(&self) -> &[String] {
        &[]
    }
    /// The detail as [`Any`], for [`RulesError::detail`].
    fn as_any(&self) -> &dyn Any;
}

/// Why the rules refuse a ruleset, an option, a position, a state or an
/// order. The cases every game shares are variants here; a game's own are
/// [`RulesError::Game`].
#[derive(Debug)]
pub enum RulesError {
    /// The ruleset text is not TOML of the game's shape.
    RulesetUnreadable {
        title: &'static str,
        error: Box<toml::de::Error>,
    },
    /// A boolean option given a word that is neither true nor false.
    NotABool { name: String, value: String },
    /// The state in a game file does not read as the game's.
    StateUnreadable {
        title: &'static str,
        error: serde_json::Error,
    },
    /// The state reads but is not one the rules make (re-sealed by hand).
    StateImpossible {
        title: &'static str,
        why: Box<RulesError>,
    },
    /// An event in the game file's log does not read as the game's.
    EventUnreadable(serde_json::Error),
    /// An order line with no words; `accepted` says what orders look like
    /// (empty where the game says nothing more).
    EmptyOrder { accepted: &'static str },
    /// An order line whose first word starts no order.
    NotAnOrder {
        word: String,
        accepted: &'static str,
    },
    /// Several problems found together (a position file, a ruleset), told
    /// one after another, parted by `sep`.
    All {
        problems: Vec<RulesError>,
        sep: &'static str,
    },
    /// Orders for a game that is over.
    GameOver,
    /// Orders from a player whose go it is not: `whose` moves now, and
    /// `step` is what the game calls a go ("turn", "phase").
    NotYourGo { whose: String, step: &'static str },
    /// A game's own case.
    Game(Box<dyn Detail>),
}

impl RulesError {
    /// A game's own case.
    pub fn game(detail: impl Detail) -> RulesError {
        RulesError::Game(Box::new(detail))
    }

    /// Several problems, one a line; a single one stays itself.
    pub fn lines(mut problems: Vec<RulesError>) -> RulesError {
        if problems.len() == 1 {
            return problems.remove(0);
        }
        RulesError::All {
            problems,
            sep: "\n",
        }
    }

    /// Several problems on one line, parted by `; `.
    pub fn joined(mut problems: Vec<RulesError>) -> RulesError {
        if problems.len() == 1 {
            return problems.remove(0);
        }
        RulesError::All {
            problems,
            sep: "; ",
        }
    }

    /// Which of the shared kinds this is (several problems: the first's).
    pub fn kind(&self) -> Kind {
        match self {
            RulesError::RulesetUnreadable { .. } => Kind::Ruleset,
            RulesError::NotABool { .. } => Kind::BadOption,
            RulesError::StateUnreadable { .. }
            | RulesError::StateImpossible { .. }
            | RulesError::EventUnreadable(_) => Kind::State,
            RulesError::EmptyOrder { .. } | RulesError::NotAnOrder { .. } => Kind::Malformed,
            RulesError::GameOver | RulesError::NotYourGo { .. } => Kind::WrongPhase,
            RulesError::All { problems, .. } => {
                problems.first().map(|p| p.kind()).unwrap_or(Kind::Setup)
            }
            RulesError::Game(d) => d.kind(),
        }
    }

    /// The orders the rules would take instead, where the problem knows
    /// them (see [`Detail::legal`]).
    pub fn legal(&self) -> &[String] {
        match self {
            RulesError::Game(d) => d.legal(),
            _ => &[],
        }
    }

    /// A game's typed detail, if this is one of type `D`.
    pub fn detail<D: Detail>(&self) -> Option<&D> {
        match self {
            RulesError::Game(d) => d.as_any().downcast_ref::<D>(),
            _ => None,
        }
    }
}

impl<D: Detail> From<D> for RulesError {
    fn from(d: D) -> RulesError {
        RulesError::game(d)
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::RulesetUnreadable { title, error } => {
                write!(f, "the {title} ruleset does not read: {error}")
            }
            RulesError::NotABool { name, value } => {
                write!(f, "option {name}={value}: say true or false")
            }
            RulesError::StateUnreadable { title, error } => {
                write!(f, "the game state does not read as {title}: {error}")
            }
            RulesError::StateImpossible { title, why } => {
                write!(f, "the game state is not one {title} makes: {why}")
            }
            RulesError::EventUnreadable(e) => write!(f, "a logged event does not read: {e}"),
            RulesError::EmptyOrder { accepted: "" } => f.write_str("empty order"),
            RulesError::EmptyOrder { accepted } => write!(f, "empty order; {accepted}"),
            RulesError::NotAnOrder { word, accepted } => {
                write!(f, "`{word}` is not an order; {accepted}")
            }
            RulesError::All { problems, sep } => {
                for (i, p) in problems.iter().enumerate() {
                    if i > 0 {
                        f.write_str(sep)?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
            RulesError::GameOver => f.write_str("the game is over"),
            RulesError::NotYourGo { whose, step } => write!(f, "it is {whose}'s {step}, not yours"),
            RulesError::Game(d) => write!(f, "{d}"),
        }
    }
}

impl std::error::Error for RulesError {}

/// Implement [`Detail`] for a game's type: `rules_detail!(Type, |self| kind)`,
/// the kind written `K::Malformed` and so on; with `, legal: |self| slice`
/// it also says the orders legal instead.
macro_rules! rules_detail {
    ($t:ty, |$s:ident| $kind:expr) => {
        impl $crate::games::rules_error::Detail for $t {
            fn kind(&$s) -> $crate::games::rules_error::Kind {
                #[allow(unused_imports)]
                use $crate::games::rules_error::Kind as K;
                $kind
            }
            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
        }
    };
    ($t:ty, |$s:ident| $kind:expr, legal: |$l:ident| $legal:expr) => {
        impl $crate::games::rules_error::Detail for $t {
            fn kind(&$s) -> $crate::games::rules_error::Kind {
                #[allow(unused_imports)]
                use $crate::games::rules_error::Kind as K;
                $kind
            }
            fn legal(&$l) -> &[String] {
                $legal
            }
            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
        }
    };
}
pub(crate) use rules_detail;

/// A refusal by the rules as the edge says it: one problem, its words made
/// here by [`fmt::Display`] (exit status 1).
impl From<RulesError> for crate::error::Error {
    fn from(e: RulesError) -> crate::error::Error {
        crate::error::Error::refused(e.to_string())
    }
}
