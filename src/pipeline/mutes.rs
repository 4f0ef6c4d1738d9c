//! Mutes (docs/host.md, "Muting a player"): whom each player of a game
//! has muted, by mail (`mute red`, `unmute red`). A muted player's press
//! is not relayed to the player who muted them.
//!
//! Kept in `press/mutes.json` (0600, written whole and atomically), not in
//! the game file: a mute is a player's wish about their own mailbox, not
//! a fact of the game the log must prove, it changes nothing any entry
//! holds, and it can be undone. What a mute did is in the log all the
//! same: a press entry names only the players it was relayed to, and a
//! kept press (`press/<id>.json`) lists in `withheld` those it was not
//! relayed to because they had muted its sender.
//!
//! ```json
//! { "game": "g7", "mutes": { "blue": ["red"] } }
//! ```

use super::loaded::Loaded;
use crate::error::{Error, Result};
use crate::store::write::{self, Durability};
use crate::store::Store;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// `press/mutes.json`: for each player who muted anyone, whom.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mutes {
    pub game: String,
    pub mutes: BTreeMap<String, BTreeSet<String>>,
}

impl Mutes {
    /// The game's mutes (none yet: empty). A file that is not this game's
    /// or names someone who is not one of its players is refused, naming
    /// the file (never read as "nobody muted").
    pub fn load(store: &Store, g: &Loaded) -> Result<Mutes> {
        let path = store.dir.press_mutes();
        let id = &g.head().id;
        if !path.exists() {
            return Ok(Mutes {
                game: id.clone(),
                mutes: BTreeMap::new(),
            });
        }
        let t = crate::store::limits::read_text(
            &path,
            crate::store::limits::STORED_FILE,
            "a press mutes file",
        )?;
        let m: Mutes = serde_json::from_str(&t)
            .map_err(|e| Error::refused(format!("{}: {e}", path.display())))?;
        if &m.game != id {
            return Err(Error::refused(format!(
                "{}: the mutes of game {}, not of {id} (copied by hand?)",
                path.display(),
                m.game.chars().take(32).collect::<String>()
            )));
        }
        let players = g.players();
        for (who, muted) in &m.mutes {
            if let Some(bad) = std::iter::once(who)
                .chain(muted)
                .find(|p| !players.contains(p))
            {
                return Err(Error::refused(format!(
                    "{}: `{}` is not a player of game {id} ({}) (changed by hand?)",
                    path.display(),
                    bad.chars().take(32).collect::<String>(),
                    players.join(", ")
                )));
            }
        }
        Ok(m)
    }

    /// Write the mutes whole, atomically and synced (0600 from the first
    /// byte); a game nobody muted anyone in keeps no file.
    pub fn save(&self, store: &Store) -> Result<()> {
        let path = store.dir.press_mutes();
        let mut clean = self.clone();
        clean.mutes.retain(|_, m| !m.is_empty());
        if clean.mutes.is_empty() && !path.exists() {
            return Ok(());
        }
        store.dir.ensure_parent(&path)?;
        let mut json =
            serde_json::to_string_pretty(&clean).map_err(|e| Error::internal(e.to_string()))?;
        json.push('\n');
        write::atomic(&path, json.as_bytes(), Durability::Synced)
    }

    /// Whom `player` has muted, in order.
    pub fn of(&self, player: &str) -> Vec<String> {
        self.mutes
            .get(player)
            .map(|m| m.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Has `by` muted `sender`?
    pub fn muted(&self, by: &str, sender: &str) -> bool {
        self.mutes.get(by).is_some_and(|m| m.contains(sender))
    }

    /// Mute (`on`) or unmute `others` for `player`.
    pub fn set(&mut self, player: &str, others: &[String], on: bool) {
        let m = self.mutes.entry(player.to_string()).or_default();
        for o in others {
            if on {
                m.insert(o.clone());
            } else {
                m.remove(o);
            }
        }
        if m.is_empty() {
            self.mutes.remove(player);
        }
    }
}
