//! Mail in from a local Maildir (the folder holding `cur/ new/ tmp/`),
//! filled by the machine's mail system (Postfix, fetchmail, procmail…).
//!
//! A mail is pending while its file is in the Maildir's `new/` or `cur/`.
//! Marking it handled moves the file, by one rename on the same file
//! system, into the Maildir++ subfolder `.herald-handled/cur/` (a mail
//! client shows it as the folder "herald-handled"). Why a move and not a
//! flag: Maildir flags live in the file name, which mail clients rewrite
//! when someone reads the box, and a keyword letter means something only to
//! the program that assigned it; a rename is atomic, idempotent (a mail
//! already moved is found there), and leaves the moderator every mail to
//! look at.
//!
//! A mail's identity is the unique part of its file name (before `:2,`),
//! which stays the same when a client moves it from `new/` to `cur/` or
//! changes its flags.

use super::source::{Fetched, MailId, MailSource, HEAD_BYTES};
use super::Failure;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The subfolder handled mails move to.
pub const HANDLED: &str = ".herald-handled";

pub struct MaildirSource {
    root: PathBuf,
    /// Where each listed mail's file was at the last `pending`.
    seen: BTreeMap<String, PathBuf>,
}

fn io(path: &Path, e: std::io::Error) -> Failure {
    // A missing or unreadable Maildir is the moderator's to fix; anything
    // else (a full disk, an I/O error) may pass.
    match e.kind() {
        std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => {
            Failure::Config(format!("{}: {e}", path.display()))
        }
        _ => Failure::Temporary(format!("{}: {e}", path.display())),
    }
}

/// The unique part of a Maildir file name.
fn unique(name: &str) -> &str {
    name.split_once(':').map_or(name, |(u, _)| u)
}

fn read_head(f: &mut std::fs::File) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::new();
    f.take(HEAD_BYTES).read_to_end(&mut head)?;
    Ok(cut_header(head))
}

/// The header part of `bytes` (up to and including the blank line), or all
/// of it when no blank line is in it.
pub(super) fn cut_header(mut bytes: Vec<u8>) -> Vec<u8> {
    let end = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
        .into_iter()
        .chain(bytes.windows(2).position(|w| w == b"\n\n").map(|i| i + 2))
        .min();
    if let Some(end) = end {
        bytes.truncate(end);
    }
    bytes
}

impl MaildirSource {
    pub fn open(root: &Path) -> Result<MaildirSource, Failure> {
        for d in ["cur", "new"] {
            let p = root.join(d);
            if !p.is_dir() {
                return Err(Failure::Config(format!(
                    "{}: not a Maildir (no {d}/ folder)",
                    root.display()
                )));
            }
        }
        Ok(MaildirSource {
            root: root.to_path_buf(),
            seen: BTreeMap::new(),
        })
    }

    fn handled_dir(&self) -> PathBuf {
        self.root.join(HANDLED)
    }

    fn ensure_handled_dir(&self) -> Result<(), Failure> {
        let h = self.handled_dir();
        for d in ["cur", "new", "tmp"] {
            let p = h.join(d);
            std::fs::create_dir_all(&p).map_err(|e| io(&p, e))?;
        }
        let marker = h.join("maildirfolder");
        if !marker.exists() {
            std::fs::write(&marker, b"").map_err(|e| io(&marker, e))?;
        }
        Ok(())
    }

    /// The file of a mail in `dir` by its unique part, if there.
    fn find_in(dir: &Path, id: &str) -> Option<PathBuf> {
        std::fs::read_dir(dir)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                p.file_name()
                    .is_some_and(|n| unique(&n.to_string_lossy()) == id)
            })
    }

    /// Where the mail is now: where `pending` saw it, or (if a mail client
    /// moved it from new/ to cur/ or renamed it for its flags) found again.
    fn locate(&self, id: &str) -> Option<PathBuf> {
        if let Some(p) = self.seen.get(id) {
            if p.exists() {
                return Some(p.clone());
            }
        }
        Self::find_in(&self.root.join("cur"), id)
            .or_else(|| Self::find_in(&self.root.join("new"), id))
    }

    fn key<'a>(&self, id: &'a MailId) -> Result<&'a str, Failure> {
        id.0.strip_prefix("maildir:")
            .filter(|k| !k.is_empty() && !k.contains('/'))
            .ok_or_else(|| Failure::Permanent(format!("{id}: not a Maildir mail id")))
    }
}

impl MailSource for MaildirSource {
    fn describe(&self) -> String {
        format!("Maildir {}", self.root.display())
    }

    fn pending(&mut self) -> Result<Vec<MailId>, Failure> {
        let mut found = BTreeMap::new();
        for d in ["new", "cur"] {
            let dir = self.root.join(d);
            for e in std::fs::read_dir(&dir).map_err(|e| io(&dir, e))? {
                let e = e.map_err(|e| io(&dir, e))?;
                let name = e.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') || !e.file_type().is_ok_and(|t| t.is_file()) {
                    continue;
                }
                found.insert(unique(&name).to_string(), e.path());
            }
        }
        let ids = found
            .keys()
            .map(|k| MailId(format!("maildir:{k}")))
            .collect();
        self.seen = found;
        Ok(ids)
    }

    fn fetch(&mut self, id: &MailId, max_bytes: u64) -> Result<Fetched, Failure> {
        let key = self.key(id)?;
        let Some(path) = self.locate(key) else {
            return Ok(Fetched::Gone);
        };
        let mut f = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Fetched::Gone),
            Err(e) => return Err(io(&path, e)),
        };
        let size = f.metadata().map_err(|e| io(&path, e))?.len();
        if size > max_bytes {
            let head = read_head(&mut f).map_err(|e| io(&path, e))?;
            return Ok(Fetched::TooBig { size, head });
        }
        // Read at most one byte more than allowed: a file that grew since
        // is still refused without reading it all.
        let mut bytes = Vec::with_capacity(size as usize);
        (&mut f)
            .take(max_bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| io(&path, e))?;
        if bytes.len() as u64 > max_bytes {
            return Ok(Fetched::TooBig {
                size: bytes.len() as u64,
                head: cut_header(bytes.into_iter().take(HEAD_BYTES as usize).collect()),
            });
        }
        Ok(Fetched::Mail(bytes))
    }

    fn mark_handled(&mut self, id: &MailId) -> Result<(), Failure> {
        let key = self.key(id)?.to_string();
        let done = self.handled_dir().join("cur");
        let Some(from) = self.locate(&key) else {
            // Already moved (a crash after the rename, or a second call),
            // or deleted by someone: nothing to do either way.
            return Ok(());
        };
        self.ensure_handled_dir()?;
        let name = from
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // A mail in new/ has no info part yet; in cur/ it must have one.
        let name = if name.contains(':') {
            name
        } else {
            format!("{name}:2,")
        };
        let to = done.join(name);
        std::fs::rename(&from, &to).map_err(|e| io(&from, e))?;
        super::write::sync_dir(&done);
        if let Some(d) = from.parent() {
            super::write::sync_dir(d);
        }
        self.seen.remove(&key);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_cut_at_the_first_blank_line() {
        assert_eq!(
            cut_header(b"A: 1\r\nB: 2\r\n\r\nbody".to_vec()),
            b"A: 1\r\nB: 2\r\n\r\n"
        );
        assert_eq!(cut_header(b"A: 1\n\nbody\n\n".to_vec()), b"A: 1\n\n");
        assert_eq!(cut_header(b"A: 1\nB: 2".to_vec()), b"A: 1\nB: 2");
    }

    #[test]
    fn unique_names_ignore_the_info_part() {
        assert_eq!(unique("123.M1P2.host:2,S"), "123.M1P2.host");
        assert_eq!(unique("123.M1P2.host"), "123.M1P2.host");
    }
}
