//! Reading a local mailbox: a Maildir (`new/` and `cur/`) or an mbox file.
//! Each mail is size-limited (a larger one is passed on as too big, unread)
//! and a run takes at most `limits::MAILS_PER_RUN` new mails: mails read
//! before (known by the sha256 of their whole content) are passed over
//! first, so a mailbox that only grows always gets to its new mail.

use crate::error::{Error, Result};
use crate::store::limits;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// One mail as read from the mailbox.
pub struct Letter {
    /// Where it was found: "mbox message 3" or the Maildir file name.
    pub place: String,
    pub raw: Vec<u8>,
    /// Over the size limit: `raw` holds only its first bytes.
    pub too_big: bool,
    /// The sha256 of the whole mail, as hex: what `inbox/seen` records.
    pub digest: String,
    /// Read before (its digest is in `seen`): `raw` is left empty.
    pub seen: bool,
}

/// The sha256 of everything `r` yields, keeping at most `keep` bytes of it.
fn digest_keep(mut r: impl Read, keep: u64) -> std::io::Result<(String, Vec<u8>)> {
    let mut h = Sha256::new();
    let mut kept = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        let room = keep.saturating_sub(kept.len() as u64) as usize;
        kept.extend_from_slice(&buf[..n.min(room)]);
    }
    Ok((crate::chain::canon::hex(&h.finalize()), kept))
}

/// How much of a too-big mail is kept, to read its headers for a reply.
const HEAD: u64 = 16 * 1024;

/// Every mail of the mailbox at `path`; `seen` tells a digest read before.
pub fn read(path: &Path, seen: &dyn Fn(&str) -> bool) -> Result<Vec<Letter>> {
    let mut out = Vec::new();
    if path.is_dir() {
        let mut files = Vec::new();
        for sub in ["new", "cur"] {
            let d = path.join(sub);
            if !d.is_dir() {
                return Err(Error::usage(format!(
                    "{}: a folder given to inbox must be a Maildir (with new/ and cur/); or give an mbox file",
                    path.display()
                )));
            }
            for e in std::fs::read_dir(&d).map_err(|e| Error::io(&d, e))? {
                let e = e.map_err(|e| Error::io(&d, e))?;
                if e.file_type().is_ok_and(|t| t.is_file()) {
                    files.push(e.path());
                }
            }
        }
        // Maildir names start with the delivery time: sorted, they are in
        // arrival order, and the same on every machine.
        files.sort_by_key(|p| p.file_name().map(|n| n.to_os_string()));
        let mut new = 0;
        for p in files {
            if new >= limits::MAILS_PER_RUN {
                break;
            }
            let f = std::fs::File::open(&p).map_err(|e| Error::io(&p, e))?;
            let len = f.metadata().map(|m| m.len()).unwrap_or(0);
            let too_big = len > limits::MAIL;
            let (digest, mut raw) = digest_keep(f, if too_big { HEAD } else { limits::MAIL })
                .map_err(|e| Error::io(&p, e))?;
            let was_seen = seen(&digest);
            if was_seen {
                raw = Vec::new();
            } else {
                new += 1;
            }
            out.push(Letter {
                place: p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                raw,
                too_big,
                digest,
                seen: was_seen,
            });
        }
    } else {
        let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let it = mail_parser::mailbox::mbox::MessageIterator::new(std::io::BufReader::new(f));
        let mut new = 0;
        for (i, m) in it.enumerate() {
            if new >= limits::MAILS_PER_RUN {
                break;
            }
            let m = m.map_err(|e| Error::io(path, e))?;
            let mut raw = m.unwrap_contents();
            let digest = crate::chain::canon::sha256_hex(&raw);
            let too_big = raw.len() as u64 > limits::MAIL;
            let was_seen = seen(&digest);
            if was_seen {
                raw = Vec::new();
            } else {
                new += 1;
                if too_big {
                    raw.truncate(HEAD as usize);
                }
            }
            out.push(Letter {
                place: format!("mbox message {}", i + 1),
                raw,
                too_big,
                digest,
                seen: was_seen,
            });
        }
    }
    Ok(out)
}
