//! `secrets.toml`: what only the moderator may read — the seed, until the
//! game reveals it, each player's password as issued, for the moderator
//! (or the host) to send, and (format 5) the players' mail addresses with
//! the salts that bind them. Created 0600 from its first byte. The game
//! file never holds any of them: it keeps the seed's commitment, salted
//! password hashes and salted commitments to the addresses.

use super::limits;
use super::write::{self, Durability};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Secrets {
    pub seed: String,
    /// Passwords as issued, by player id, until the moderator removes them.
    #[serde(default)]
    pub passwords: BTreeMap<String, String>,
    /// Format 5: every address the game file binds (each player's in the
    /// genesis, each seat entry's new holder's), in the order they were
    /// bound. A player's address now is the last one of theirs that opens
    /// the head's `address_sha256` ([`Secrets::address_of`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub addresses: Vec<Address>,
    /// Each player's time zone where they gave one (`new --tz`, or `tz` in
    /// an order file), by player id: private like an address, so kept
    /// here and never in the game file. Files written before it lack it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub zones: BTreeMap<String, String>,
}

/// One address a game file binds, and the salt that binds it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Address {
    pub player: String,
    pub address: String,
    /// 32 hex digits.
    pub salt: String,
}

impl Secrets {
    pub fn read(path: &Path) -> Result<Secrets> {
        let text = limits::read_text(path, limits::SECRETS_FILE, "a secrets file")?;
        toml::from_str(&text).map_err(|e| {
            Error::refused(format!(
                "{}: not a herald secrets file ({}); restore it from your backup",
                path.display(),
                e.message().trim()
            ))
        })
    }

    /// Player `player`'s address: the last kept for them that opens
    /// `commitment` (the head's `address_sha256`), if any.
    pub fn address_of(&self, player: &str, commitment: &str) -> Option<&Address> {
        self.addresses.iter().rev().find(|a| {
            a.player == player && crate::chain::body::opens(commitment, &a.salt, &a.address)
        })
    }

    /// Keep `a` (once: a record kept already is not added again).
    pub fn bind(&mut self, a: Address) {
        if !self.addresses.contains(&a) {
            self.addresses.push(a);
        }
    }

    pub fn write(&self, path: &Path, game: &str) -> Result<()> {
        write::atomic(path, self.text(game).as_bytes(), Durability::Synced)
    }

    /// The file written beside `path` and synced, put in place later
    /// ([`write::Prepared::put`]): for a change that must follow another
    /// file's commit.
    pub fn prepare(&self, path: &Path, game: &str) -> Result<write::Prepared> {
        write::prepare(path, self.text(game).as_bytes())
    }

    fn text(&self, game: &str) -> String {
        format!(
            "# herald secrets for game {game}: the seed, the players' passwords as issued and their addresses.\n# Keep this file private (mode 0600). Give each player their own password only;\n# the game file keeps only salted hashes. Delete a password here once it is sent\n# (never an address: the game file binds each, and herald mails them).\n{}",
            toml::to_string(self).expect("secrets serialise")
        )
    }
}
