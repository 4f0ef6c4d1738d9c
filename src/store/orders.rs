//! Orders accepted before the resolve (by `inbox` or the host), waiting in
//! `orders/turn-NNNN/<player>.json`. Each is stored sealed: the order file
//! with its password removed — the password was checked once, on arrival,
//! and is never kept — and the receipt the player was given, signed with
//! the moderator's key, which is what lets `resolve` use the file without
//! checking a password again.

use super::layout::GameDir;
use super::limits;
use super::write::{self, Durability};
use crate::error::{Error, Result};
use crate::names::Name;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Stored {
    pub game: String,
    pub player: String,
    pub turn: u32,
    /// The order file as received, its password's value removed.
    pub text: String,
    pub sha256: String,
    /// The mail it came in: its Date, sender and Message-ID, and the
    /// sha256 of the whole mail.
    pub received: Option<String>,
    pub from: Option<String>,
    pub message_id: Option<String>,
    pub mail_sha256: Option<String>,
    /// The receipt: the chain head it was accepted on, when, and the
    /// moderator's signature (`chain::witness::Receipt`).
    pub chain_head: String,
    pub accepted: String,
    pub signature: String,
    /// When the file this one replaced was sent, as the reply said: a mail
    /// taken again after a run was cut short is answered the same way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced: Option<String>,
}

/// Store `s` for its player (replacing theirs, if any).
pub fn put(dir: &GameDir, player: &Name, s: &Stored) -> Result<()> {
    let path = dir.stored_order(s.turn, player);
    dir.ensure_parent(&path)?;
    let mut text = serde_json::to_string_pretty(s).expect("stored orders serialise");
    text.push('\n');
    write::atomic(&path, text.as_bytes(), Durability::Synced)
}

/// The orders waiting for `turn`, in file-name order. A file that does not
/// read is an error naming it: a moderator must look.
pub fn waiting(dir: &GameDir, turn: u32) -> Result<Vec<Stored>> {
    let folder = dir.orders_dir(turn);
    let list = match std::fs::read_dir(&folder) {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(&folder, e)),
    };
    let mut paths: Vec<_> = list
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let text = limits::read_text(&p, limits::STORED_FILE, "stored orders")?;
        let s: Stored = serde_json::from_str(&text).map_err(|e| {
            Error::refused(format!("{}: not herald's stored orders ({e})", p.display()))
        })?;
        let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
        if stem.as_deref() != Some(s.player.as_str()) || s.turn != turn {
            return Err(Error::refused(format!(
                "{}: holds orders of {} for turn {}, not what its place says",
                p.display(),
                s.player,
                s.turn
            )));
        }
        out.push(s);
    }
    Ok(out)
}

/// Remove a turn's folder once its orders are in the log.
pub fn clear(dir: &GameDir, turn: u32) -> Result<()> {
    let folder = dir.orders_dir(turn);
    match std::fs::remove_dir_all(&folder) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(&folder, e)),
    }
}
