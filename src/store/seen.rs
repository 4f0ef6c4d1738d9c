//! `inbox/seen`: the sha256 of every mail `inbox` has finished with, one a
//! line, appended and synced mail by mail, so a run that is killed resumes
//! where it stopped. Mails are known by their content, never by a header
//! the sender chooses (a stranger reusing a player's Message-ID cannot make
//! herald skip the player's mail).

use super::layout::GameDir;
use super::limits;
use crate::error::{Error, Result};
use std::collections::BTreeSet;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

pub fn read(dir: &GameDir) -> Result<BTreeSet<String>> {
    read_at(&dir.inbox_seen())
}

/// A record of this kind anywhere (the host keeps one for mail that
/// belongs to no game): the digests in it, none when there is no file.
pub fn read_at(p: &Path) -> Result<BTreeSet<String>> {
    if !p.exists() {
        return Ok(BTreeSet::new());
    }
    let text = limits::read_text(p, limits::GAME_FILE, "the record of mail read")?;
    Ok(text
        .lines()
        .filter(|l| crate::chain::canon::is_digest(l))
        .map(str::to_string)
        .collect())
}

/// Record one mail as done (the line is on disk when this returns).
pub fn add(dir: &GameDir, digest: &str) -> Result<()> {
    let p = dir.inbox_seen();
    dir.ensure_parent(&p)?;
    add_at(&p, digest)
}

/// Append one digest to the record at `p` (whose folder exists): created
/// 0600, never through a symlink, on disk when this returns.
pub fn add_at(p: &Path, digest: &str) -> Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(p)
        .map_err(|e| Error::io(p, e))?;
    f.write_all(format!("{digest}\n").as_bytes())
        .and_then(|_| f.sync_data())
        .map_err(|e| Error::io(p, e))
}
