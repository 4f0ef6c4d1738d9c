//! The bound on replies to one address (docs/host.md, "Replies to one
//! address"): herald answers mail, and a From header is anyone's to
//! write, so without a bound a stranger could have herald mail a
//! thousand refusals or confirmation codes to someone else's address.
//!
//! Every reply the host sends to an address in answer to a mail counts,
//! except those the mail earned with a secret: a right password (orders
//! accepted, a command of the player's) or a right confirmation code.
//! Only the address's owner (or someone holding their password) can
//! cause those. At most `replies_per_hour` (host.toml) counted replies go
//! to one address in any hour; the rest are held back: not queued, the
//! mail handled and recorded as read all the same, and the moderator told
//! (a log line `in bound` the first time an address is held back in an
//! hour, and the status page's "Replies held back" section).
//!
//! The record is `DIR/state/reply-bound`, one JSON line a reply granted
//! or held back, appended (a grant synced before its reply is queued), so
//! it holds across passes and restarts; lines older than an hour are
//! dropped when the file is compacted. A grant is keyed by the answered
//! mail's sha256: a mail handled again after a crash gets its grant again
//! (the same reply, queued under the same name), never a second one
//! counted. Time is the pass's `now`: nothing here reads the clock.

use super::guard::HOUR;
use crate::error::{Error, Result};
use crate::store::write::{self, Durability};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The largest record read (a flood's lines of one hour fit many times).
const MAX_FILE: u64 = 32 * 1024 * 1024;

/// Whether a reply may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// Send it (counted).
    Send,
    /// Held back: the address had its replies for this hour.
    Held,
}

/// One line of the record.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Line {
    /// The address, lowercased.
    to: String,
    /// Unix seconds (the pass's time).
    at: i64,
    /// The answered mail's sha256 (a grant).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mail: Option<String>,
    /// A reply held back.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    held: bool,
}

/// The replies held back from one address in the last hour.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeldBack {
    pub address: String,
    /// Replies held back in the last hour.
    pub held: u32,
    /// Unix seconds of the first one held back in the hour.
    pub since: i64,
}

#[derive(Default)]
struct Ledger {
    /// Address → the mails answered in the last hour (when, which).
    sent: BTreeMap<String, Vec<(i64, String)>>,
    /// Address → when replies were held back, in the last hour.
    held: BTreeMap<String, Vec<i64>>,
    /// Addresses first held back in this run: told once.
    new: Vec<String>,
    /// The record file, open to append.
    file: Option<std::fs::File>,
    /// Its last line was cut short (a kill): the next line starts anew.
    torn: bool,
}

/// The bound, for one pass.
pub struct Bound {
    per_hour: u32,
    now: i64,
    path: PathBuf,
    inner: Mutex<Ledger>,
}

impl Bound {
    /// The record at `path` (the host's `DIR/state/reply-bound`,
    /// `host::layout::HostDir::reply_bound`) as of `now`, lines older
    /// than an hour left out (and the file compacted when most of it is
    /// old). A record that cannot be read is started afresh: the worst
    /// that costs is one more hour's replies.
    pub fn open(path: &Path, per_hour: u32, now: i64) -> Bound {
        let path = path.to_path_buf();
        let mut ledger = Ledger::default();
        let mut kept = Vec::new();
        let mut total = 0usize;
        let readable = std::fs::metadata(&path).is_ok_and(|m| m.len() <= MAX_FILE);
        if let Ok(text) =
            std::fs::read_to_string(&path).map(|t| if readable { t } else { String::new() })
        {
            ledger.torn = !text.is_empty() && !text.ends_with('\n');
            for l in text.lines() {
                total += 1;
                // A line cut short by a kill does not read: skipped.
                let Ok(line) = serde_json::from_str::<Line>(l) else {
                    continue;
                };
                if line.at <= now - HOUR || line.at > now {
                    continue;
                }
                ledger.note(&line);
                kept.push(l.to_string());
            }
        }
        if total > 2 * kept.len() + 64 || !readable {
            let mut text = kept.join("\n");
            if !text.is_empty() {
                text.push('\n');
            }
            let _ = path
                .parent()
                .map_or(Ok(()), write::create_dir)
                .and_then(|_| write::atomic(&path, text.as_bytes(), Durability::Synced));
            ledger.torn = false;
        }
        Bound {
            per_hour,
            now,
            path,
            inner: Mutex::new(ledger),
        }
    }

    /// May a reply to `to`, answering the mail whose sha256 is `mail`,
    /// go? Counted when it may (recorded and synced before this returns,
    /// so the reply is queued after); a mail granted before (handled
    /// again after a crash) is granted again without counting.
    pub fn grant(&self, to: &str, mail: &str) -> Result<Grant> {
        let key = to.trim().to_ascii_lowercase();
        let mut l = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let sent = l.sent.get(&key).map(Vec::as_slice).unwrap_or_default();
        if sent.iter().any(|(_, m)| m == mail) {
            return Ok(Grant::Send);
        }
        let line = if sent.len() < self.per_hour as usize {
            Line {
                to: key.clone(),
                at: self.now,
                mail: Some(mail.to_string()),
                held: false,
            }
        } else {
            Line {
                to: key.clone(),
                at: self.now,
                mail: None,
                held: true,
            }
        };
        let grant = if line.held { Grant::Held } else { Grant::Send };
        if line.held && !l.held.contains_key(&key) {
            l.new.push(key.clone());
        }
        self.append(&mut l, &line, grant == Grant::Send)?;
        l.note(&line);
        Ok(grant)
    }

    fn append(&self, l: &mut Ledger, line: &Line, sync: bool) -> Result<()> {
        if l.file.is_none() {
            if let Some(dir) = self.path.parent() {
                write::create_dir(dir)?;
            }
            use std::os::unix::fs::OpenOptionsExt;
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .mode(0o600)
                .open(&self.path)
                .map_err(|e| Error::io(&self.path, e))?;
            l.file = Some(f);
        }
        let mut bytes = Vec::new();
        if std::mem::take(&mut l.torn) {
            bytes.push(b'\n');
        }
        bytes.extend(serde_json::to_vec(line).expect("a line serialises"));
        bytes.push(b'\n');
        let f = l.file.as_mut().expect("opened above");
        f.write_all(&bytes).map_err(|e| Error::io(&self.path, e))?;
        if sync {
            f.sync_data().map_err(|e| Error::io(&self.path, e))?;
        }
        Ok(())
    }

    /// The addresses first held back in this run (each once), with their
    /// counts: for the log.
    pub fn take_new(&self) -> Vec<HeldBack> {
        let mut l = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let new = std::mem::take(&mut l.new);
        new.into_iter()
            .filter_map(|a| {
                let times = l.held.get(&a)?;
                let (since, held) = (*times.iter().min()?, times.len() as u32);
                Some(HeldBack {
                    address: a,
                    held,
                    since,
                })
            })
            .collect()
    }

    /// Every address held back in the last hour.
    pub fn held(&self) -> Vec<HeldBack> {
        let l = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        l.held
            .iter()
            .map(|(a, times)| HeldBack {
                address: a.clone(),
                held: times.len() as u32,
                since: times.iter().copied().min().unwrap_or(0),
            })
            .collect()
    }

    /// Write the record again whole, in a fixed order (by address, then
    /// time and mail), the lines of the last hour only: at the end of a
    /// pass's mail, so the file's bytes do not depend on the order the
    /// games, handled side by side, appended their lines in.
    pub fn settle(&self) -> Result<()> {
        let mut l = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if l.file.is_none() {
            // Nothing appended in this run: the file is as it was read.
            return Ok(());
        }
        let mut lines: Vec<Line> = Vec::new();
        for (to, sent) in &l.sent {
            let mut sent = sent.clone();
            sent.sort();
            lines.extend(sent.into_iter().map(|(at, mail)| Line {
                to: to.clone(),
                at,
                mail: Some(mail),
                held: false,
            }));
        }
        for (to, times) in &l.held {
            let mut times = times.clone();
            times.sort_unstable();
            lines.extend(times.into_iter().map(|at| Line {
                to: to.clone(),
                at,
                mail: None,
                held: true,
            }));
        }
        lines.sort_by(|a, b| a.to.cmp(&b.to).then(a.held.cmp(&b.held)));
        let mut text = Vec::new();
        for line in &lines {
            text.extend(serde_json::to_vec(line).expect("a line serialises"));
            text.push(b'\n');
        }
        // The appending handle is dropped: a later grant opens the new file.
        l.file = None;
        l.torn = false;
        write::atomic(&self.path, &text, Durability::Synced)
    }

    pub fn per_hour(&self) -> u32 {
        self.per_hour
    }
}

impl Ledger {
    fn note(&mut self, line: &Line) {
        if line.held {
            self.held.entry(line.to.clone()).or_default().push(line.at);
        } else if let Some(m) = &line.mail {
            self.sent
                .entry(line.to.clone())
                .or_default()
                .push((line.at, m.clone()));
        }
    }
}
