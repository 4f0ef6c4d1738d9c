//! Size and count limits on everything herald reads, so hostile input is
//! refused before it costs anything, with a message naming the limit.

use crate::error::{Error, Result};
use std::io::Read;
use std::path::Path;

/// An order file (the reader's own limit, [`crate::orders::MAX_BYTES`]):
/// the longest real one, a War of the Dukes deployment, is under 2 KiB.
pub const ORDER_FILE: u64 = crate::orders::MAX_BYTES as u64;
/// One mail, headers and attachments included: a reply quoting a whole
/// report with its board attached stays well under it.
pub const MAIL: u64 = 4 * 1024 * 1024;
/// Mails `herald inbox` takes in one run; the rest wait for the next.
pub const MAILS_PER_RUN: usize = 10_000;
/// A position file for `new --setup`, and a ruleset for `new --rules`.
pub const SETUP_FILE: u64 = 1024 * 1024;
/// A game file: a 423-phase Stack Wars game is 0.4 MiB.
pub const GAME_FILE: u64 = 64 * 1024 * 1024;
/// A secrets or key file.
pub const SECRETS_FILE: u64 = 64 * 1024;
/// A stored (sealed) order file or a mail note.
pub const STORED_FILE: u64 = 256 * 1024;

fn human(n: u64) -> String {
    if n >= 1024 * 1024 && n.is_multiple_of(1024 * 1024) {
        format!("{} MiB", n / (1024 * 1024))
    } else if n >= 1024 && n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// The message for input over a limit.
pub fn too_big(name: &str, what: &str, limit: u64) -> Error {
    Error::refused(format!(
        "{name}: too large: {what} may be at most {limit} bytes ({}); nothing was read",
        human(limit)
    ))
}

/// Read a regular file of at most `limit` bytes. A larger file, a folder
/// or a device is refused without reading it whole. Opened non-blocking:
/// a FIFO planted where a file should be is refused, not waited on.
pub fn read(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>> {
    use std::os::unix::fs::OpenOptionsExt;
    let name = path.display().to_string();
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    let meta = f.metadata().map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(Error::refused(format!(
            "{name}: not a regular file; give {what} as a file"
        )));
    }
    if meta.len() > limit {
        return Err(too_big(&name, what, limit));
    }
    let mut buf = Vec::with_capacity(meta.len() as usize);
    f.take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Error::io(path, e))?;
    if buf.len() as u64 > limit {
        return Err(too_big(&name, what, limit));
    }
    Ok(buf)
}

/// As [`read`], as UTF-8 text.
pub fn read_text(path: &Path, limit: u64, what: &str) -> Result<String> {
    let bytes = read(path, limit, what)?;
    String::from_utf8(bytes).map_err(|e| {
        Error::refused(format!(
            "{}: not UTF-8 text (byte {}); save {what} as UTF-8",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}
