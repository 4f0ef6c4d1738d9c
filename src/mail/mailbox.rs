//! Reading a local mailbox: a Maildir (`new/` and `cur/`) or an mbox file.
//! Each mail is size-limited (a larger one is passed on as too big, unread)
//! and a run takes at most `limits::MAILS_PER_RUN` new mails: mails read
//! before (herald leaves them where they are) do not count, or a mailbox
//! that had collected that many would never have its new mail read.

use crate::error::{Error, Result};
use crate::store::limits;
use std::io::Read;
use std::path::Path;

/// One mail as read from the mailbox.
pub struct Letter {
    /// Where it was found: "mbox message 3" or the Maildir file name.
    pub place: String,
    pub raw: Vec<u8>,
    /// Over the size limit: `raw` holds only its first bytes.
    pub too_big: bool,
    /// Read before (`known` said so): `raw` holds only its header (at
    /// most 16 KiB), to name its sender.
    pub known: bool,
}

/// How much of a too-big mail is kept, to read its headers for a reply.
const HEAD: u64 = 16 * 1024;

/// The mailbox's mails; `known` tells a mail read before by its bytes.
/// Open a file to read mail from, refusing anything but a regular file
/// (a FIFO or a device would block or never end): opened without blocking,
/// then its type checked.
fn open_regular(path: &Path) -> Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    let meta = f.metadata().map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(Error::usage(format!(
            "{}: not a regular file (a FIFO, a device or a socket); give inbox a Maildir folder or an mbox file",
            path.display()
        )));
    }
    Ok(f)
}

/// The letters of a Maildir folder or an mbox file.
///
/// Long (about 90 lines): the Maildir walk and the mbox split, each
/// letter kept, cut to its header when read before, or cut at the limit.
pub fn read(path: &Path, known: impl Fn(&[u8]) -> bool) -> Result<Vec<Letter>> {
    let mut out = Vec::new();
    let mut new = 0;
    let mut take = |mut l: Letter| {
        l.known = known(&l.raw);
        if l.known {
            // its header only: who sent it is said, the rest not kept
            let r = &l.raw;
            let end = (0..r.len())
                .find(|&i| {
                    r[i] == b'\n'
                        && (r.get(i + 1) == Some(&b'\n') || r.get(i + 1..i + 3) == Some(b"\r\n"))
                })
                .map_or(r.len(), |i| i + 1)
                .min(HEAD as usize);
            l.raw.truncate(end);
            l.raw.shrink_to_fit();
        } else {
            new += 1;
        }
        out.push(l);
        new < limits::MAILS_PER_RUN
    };
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
        for p in files {
            let f = open_regular(&p)?;
            let len = f.metadata().map(|m| m.len()).unwrap_or(0);
            let too_big = len > limits::MAIL;
            let mut raw = Vec::new();
            f.take(if too_big { HEAD } else { limits::MAIL })
                .read_to_end(&mut raw)
                .map_err(|e| Error::io(&p, e))?;
            let more = take(Letter {
                place: p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                raw,
                too_big,
                known: false,
            });
            if !more {
                break;
            }
        }
    } else {
        let f = open_regular(path)?;
        let it = mail_parser::mailbox::mbox::MessageIterator::new(std::io::BufReader::new(f));
        for (i, m) in it.enumerate() {
            let m = m.map_err(|e| Error::io(path, e))?;
            let mut raw = m.unwrap_contents();
            let too_big = raw.len() as u64 > limits::MAIL;
            if too_big {
                raw.truncate(HEAD as usize);
            }
            let more = take(Letter {
                place: format!("mbox message {}", i + 1),
                raw,
                too_big,
                known: false,
            });
            if !more {
                break;
            }
        }
    }
    Ok(out)
}
