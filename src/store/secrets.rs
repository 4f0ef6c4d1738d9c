//! `secrets.toml`: what only the moderator may read — the seed, until the
//! game reveals it, and each player's password as issued, for the
//! moderator (or the host) to send. Created 0600 from its first byte. The
//! game file never holds either: it keeps the seed's commitment and
//! salted password hashes.

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
    /// Each player's time zone where they gave one (`new --tz`, or `tz` in
    /// an order file), by player id: private like an address, so kept
    /// here and never in the game file. Files written before it lack it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub zones: BTreeMap<String, String>,
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

    pub fn write(&self, path: &Path, game: &str) -> Result<()> {
        let text = format!(
            "# herald secrets for game {game}: the seed and the players' passwords as issued.\n# Keep this file private (mode 0600). Give each player their own password only;\n# the game file keeps only salted hashes. Delete a password here once it is sent.\n{}",
            toml::to_string(self).expect("secrets serialise")
        );
        write::atomic(path, text.as_bytes(), Durability::Synced)
    }
}
