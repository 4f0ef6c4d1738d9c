//! The closed sets of values the command line takes, each listed from the
//! one definition the code keeps (a library constant, a registry, or a
//! `clap::ValueEnum` of the command's own), so that `--help`, the manual
//! pages (`herald man`) and the shell completions (`herald completions`)
//! all show them and cannot fall behind.
//!
//! Two ways of taking them:
//!
//! - checked by the parser (a `ValueEnum`, or [`rulesets`] with
//!   `strict`): a value outside the set is a usage error (exit 2) naming
//!   the values, before anything runs;
//! - [`Listed`]: listed the same way, but handed on as written to the
//!   library, which checks it among every other problem of the command
//!   (`herald new` and `herald host open` list every problem of their
//!   arguments at once, and know more than the set: the missed-order
//!   policies a game offers, say).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use std::ffi::OsStr;

/// A value parser that lists its values but takes any text (see the
/// module's comment): the library that reads it names what is accepted.
#[derive(Clone, Debug)]
pub struct Listed(Vec<PossibleValue>);

impl Listed {
    pub fn new(values: impl IntoIterator<Item = impl Into<PossibleValue>>) -> Listed {
        Listed(values.into_iter().map(Into::into).collect())
    }
}

impl TypedValueParser for Listed {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.0.iter().cloned()))
    }
}

/// The rulesets built in (`herald games`), each with its title.
fn ruleset_values() -> Vec<PossibleValue> {
    crate::games::REGISTRY
        .iter()
        .map(|e| PossibleValue::new(e.name).help(e.title))
        .collect()
}

/// A ruleset's name, checked by the parser (`demo`, `playtest`, `host open`).
pub fn rulesets() -> PossibleValuesParser {
    PossibleValuesParser::new(ruleset_values())
}

/// A ruleset's name, listed, checked by the library among the other
/// problems of the command (`new`).
pub fn rulesets_listed() -> Listed {
    Listed::new(ruleset_values())
}

/// The missed-order policies (`--nmr`); which of them a game offers is
/// the game's (`herald games`).
pub fn nmr() -> Listed {
    Listed::new(crate::games::Nmr::ALL.map(|n| n.name()))
}

/// The kinds of press (`--press`).
pub fn press_kinds() -> Listed {
    Listed::new(crate::pipeline::press::KINDS)
}

/// Whether press may be revealed after the game (`--press-reveal`).
pub fn press_reveals() -> Listed {
    Listed::new(crate::pipeline::press::REVEALS)
}

/// A yes-or-no flag's values.
pub const YES_NO: [&str; 2] = ["yes", "no"];

pub fn yes_no() -> Listed {
    Listed::new(YES_NO)
}

/// What a vacation does to a deadline (`host open --vacation`).
pub fn vacation_modes() -> Listed {
    Listed::new(crate::host::lobby::seats::VacationMode::NAMES)
}

/// `--wait SECONDS`: whole seconds from 0 to a day.
pub const MAX_WAIT: u64 = 86_400;

/// The time a command that changes a game (or a host) waits for another
/// herald writing it.
pub const DEFAULT_WAIT: u64 = 30;

/// `--wait` of a command that takes a lock: the only commands that have one.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct Wait {
    /// How long to wait for another herald writing the same game (or
    /// host) before giving up with exit 3: whole seconds, 0 to 86400
    /// (default 30).
    #[arg(
        long = "wait",
        value_name = "SECONDS",
        value_parser = clap::value_parser!(u64).range(0..=MAX_WAIT)
    )]
    pub seconds: Option<u64>,
}
