//! The one pattern every name that can become part of a path must match:
//! player ids, game ids and option names. Checked when a game is created
//! and again whenever a game file is read, so no path is ever built from
//! anything else.

use std::fmt;

/// What the pattern allows, for messages.
pub const RULE: &str =
    "lowercase letters, digits, - and _, starting with a letter or a digit, at most 32 characters";

/// Does `s` match the pattern?
pub fn valid(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 32
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && b.iter()
            .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'_')
}

/// A name that matched the pattern: the only kind of string the store
/// builds paths from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Name(String);

impl Name {
    /// `what` says what the name is for in the message ("player id").
    // A String error: the usage line `new` and the lobby print.
    pub fn new(what: &str, s: &str) -> Result<Name, String> {
        if valid(s) {
            Ok(Name(s.to_string()))
        } else {
            Err(format!("{what} `{}`: use {RULE}", shorten(s)))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A hostile name can be long: quote at most 40 characters of it.
fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out.escape_debug().to_string()
}
