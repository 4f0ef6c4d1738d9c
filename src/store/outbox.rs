//! Queueing mail: the one way any part of herald puts a mail in an outbox
//! (a game's `outbox/`, the host's `DIR/outbox/`). A mail is named by a
//! digest of its Message-ID ([`name_of`]), and every Message-ID herald
//! makes is deterministic (made from what the mail is about), so queueing
//! the same mail again — a command completed after a crash, a reply
//! judged again — gives the same file, and a mail the outbox has already
//! sent is never queued again: its name is in the outbox's `sent` record.
//!
//! The states of a mail, each on disk before the next begins:
//!
//! 1. **queued**: `NAME.eml` written atomically and synced ([`queue`]);
//! 2. **handing**: the sender has recorded in `NAME.state` that it is
//!    handing the mail to the server (`host::outbox`);
//! 3. **accepted**: the server's 250, recorded in `NAME.state` the
//!    instant it is read;
//! 4. **done**: `NAME` appended to `sent` ([`mark_sent`]), then
//!    `NAME.eml` and `NAME.state` removed.
//!
//! The sender's side (states 2–4, retries, refusals) is `host::outbox`.
//! The layout is [`OutboxDir`]'s.

use super::layout::OutboxDir;
use super::write::{self, Durability};
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Result};
use std::collections::BTreeSet;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

/// The outbox's name for a mail: a digest of its Message-ID (without
/// angle brackets), 32 hex digits.
pub fn name_of(message_id: &str) -> String {
    sha256_hex(message_id.as_bytes())[..32].to_string()
}

/// What [`queue`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Queued {
    /// Written (or written again, the same mail) at this path.
    At(PathBuf),
    /// This mail was sent already: nothing written.
    AlreadySent,
}

/// Queue one mail (`bytes`, whose Message-ID is `message_id`) in
/// `outbox`, created 0700 if missing: written atomically and synced,
/// unless the outbox has sent it already.
pub fn queue(outbox: &OutboxDir, message_id: &str, bytes: &[u8]) -> Result<Queued> {
    let name = name_of(message_id);
    if sent(outbox)?.contains(&name) {
        return Ok(Queued::AlreadySent);
    }
    write::create_dir(outbox.root())?;
    let path = outbox.mail(&name);
    write::atomic(&path, bytes, Durability::Synced)?;
    Ok(Queued::At(path))
}

/// Queue several mails at once (`(message_id, bytes)`): written and synced
/// side by side, the folder synced once; those sent already are left out.
/// Returns what became of each, in order.
pub fn queue_all(outbox: &OutboxDir, mails: Vec<(String, Vec<u8>)>) -> Result<Vec<Queued>> {
    if mails.is_empty() {
        return Ok(Vec::new());
    }
    let done = sent(outbox)?;
    write::create_dir(outbox.root())?;
    let mut out = Vec::new();
    let mut files = Vec::new();
    for (mid, bytes) in mails {
        let name = name_of(&mid);
        if done.contains(&name) {
            out.push(Queued::AlreadySent);
        } else {
            let path = outbox.mail(&name);
            out.push(Queued::At(path.clone()));
            files.push((path, bytes));
        }
    }
    write::atomic_synced_all(outbox.root(), &files)?;
    Ok(out)
}

/// Is the mail with this Message-ID queued (waiting to be sent) now?
pub fn is_queued(outbox: &OutboxDir, message_id: &str) -> bool {
    outbox.mail(&name_of(message_id)).is_file()
}

/// Has the outbox sent the mail with this Message-ID?
pub fn was_sent(outbox: &OutboxDir, message_id: &str) -> Result<bool> {
    Ok(sent(outbox)?.contains(&name_of(message_id)))
}

/// The names of the mails this outbox has sent to every recipient.
pub fn sent(outbox: &OutboxDir) -> Result<BTreeSet<String>> {
    let p = outbox.sent();
    match std::fs::symlink_metadata(&p) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        _ => {}
    }
    let text = super::limits::read_text(&p, super::limits::GAME_FILE, "the record of mail sent")?;
    Ok(text
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect())
}

/// Record mail `name` as done (sent to every recipient, or given up): one
/// line appended to `sent`, on disk when this returns. A line a killed
/// writer left unfinished is closed first, so it spoils no other name.
pub fn mark_sent(outbox: &OutboxDir, name: &str) -> Result<()> {
    use std::os::unix::fs::FileExt;
    let p = outbox.sent();
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&p)
        .map_err(|e| Error::io(&p, e))?;
    let len = f.metadata().map_err(|e| Error::io(&p, e))?.len();
    let mut line = String::new();
    if len > 0 {
        let mut last = [0u8; 1];
        f.read_at(&mut last, len - 1)
            .map_err(|e| Error::io(&p, e))?;
        if last[0] != b'\n' {
            line.push('\n');
        }
    }
    line.push_str(name);
    line.push('\n');
    f.write_all(line.as_bytes())
        .and_then(|_| f.sync_data())
        .map_err(|e| Error::io(&p, e))
}
