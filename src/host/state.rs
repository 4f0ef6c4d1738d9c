//! The host's own record of each game, kept beside the games in
//! `DIR/state/<game id>.json`: the last mail in and out, problems for the
//! moderator, and what the game-time logic needs between passes. The game
//! folder's layout does not change: nothing of the host's goes into it.
//! Written atomically, by whoever holds the game's lock. No secret is ever
//! put in it.

use crate::error::{Error, Result};
use crate::names::Name;
use crate::store::write::{self, Durability};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One mail in or out, for the status page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailNote {
    /// RFC 3339: the pass's `now`.
    pub at: String,
    /// The address: From for mail in, To for mail out.
    pub who: String,
    pub message_id: String,
    /// "orders accepted for red", "refused", "command: status", "report turn 3".
    pub what: String,
}

/// What the host keeps about one game between passes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    #[serde(default)]
    pub last_in: Option<MailNote>,
    #[serde(default)]
    pub last_out: Option<MailNote>,
    /// For the moderator, shown on the status page.
    #[serde(default)]
    pub problems: Vec<String>,
}

/// The host's state folder in `host_dir`.
pub fn folder(host_dir: &Path) -> PathBuf {
    host_dir.join("state")
}

fn file(host_dir: &Path, game: &Name) -> PathBuf {
    folder(host_dir).join(format!("{}.json", game.as_str()))
}

impl GameState {
    /// `DIR/state/<game>.json`, or the default when there is none.
    pub fn load(host_dir: &Path, game: &Name) -> Result<GameState> {
        let p = file(host_dir, game);
        match std::fs::read(&p) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
                Error::refused(format!(
                    "{}: not a host state file ({e}); remove it and the next pass makes it anew",
                    p.display()
                ))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(GameState::default()),
            Err(e) => Err(Error::io(&p, e)),
        }
    }

    /// Write it atomically.
    pub fn save(&self, host_dir: &Path, game: &Name) -> Result<()> {
        let p = file(host_dir, game);
        let dir = folder(host_dir);
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let mut bytes = serde_json::to_vec_pretty(self).expect("state serialises");
        bytes.push(b'\n');
        write::atomic(&p, &bytes, Durability::Synced)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_state_loads_back_and_a_missing_one_is_empty() {
        let d = tempfile::tempdir().unwrap();
        let g = Name::new("game", "g1").unwrap();
        assert_eq!(GameState::load(d.path(), &g).unwrap(), GameState::default());
        let s = GameState {
            last_in: Some(MailNote {
                at: "2026-11-24T10:00:00Z".into(),
                who: "a@b.c".into(),
                message_id: "<x@y>".into(),
                what: "orders accepted for red".into(),
            }),
            last_out: None,
            problems: vec!["p".into()],
        };
        s.save(d.path(), &g).unwrap();
        assert_eq!(GameState::load(d.path(), &g).unwrap(), s);
        std::fs::write(d.path().join("state/g1.json"), "{").unwrap();
        assert!(GameState::load(d.path(), &g).is_err());
    }
}
