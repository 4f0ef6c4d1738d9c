//! The outbox sender: a folder of queued `.eml` files (the store gives each
//! game an `outbox/`), sent one by one; a mail is removed only after the
//! server accepted it for every recipient.
//!
//! Files in the outbox folder:
//!
//! - `NAME.eml`: a mail waiting to be sent, exactly the bytes to send. Only
//!   regular files ending in `.eml` whose name does not start with `.` are
//!   mail (a writer's temporary files are skipped). Sent in name order.
//! - `NAME.state`: its retry state (JSON, [`State`]), written atomically
//!   after every attempt: attempts, first and next try, last error, the
//!   recipients already accepted and those refused. No state file means
//!   never tried.
//! - `refused/NAME.eml` and `refused/NAME.json` ([`Refusal`]): a mail with
//!   a permanently refused recipient (5xx, e.g. 550 no such user), or one
//!   still undeliverable after [`GIVE_UP_AFTER`]: kept for the status page
//!   and the moderator, never retried. Moving it back into the outbox
//!   (without its state) queues it again.
//!
//! Recipients are the addresses in To, Cc and Bcc; each gets its own SMTP
//! transaction, so one refused recipient neither blocks nor doubles the
//! others. The envelope sender is the host's address.
//!
//! Crash safety: the state is written after each accepted recipient; a
//! finished mail's `.eml` is removed (the commit point) before its
//! `.state`, and a `.state` without its `.eml` is cleared at the next run.
//! The one window left is SMTP's own: a crash after the server accepted a
//! mail and before the state says so sends it again next time.
//!
//! Backoff after a temporary failure (server down, 4xx): the n-th failed
//! attempt waits `min(60 s × 2^(n-1), 4 h)` before the next (1, 2, 4, … 128
//! min, then every 4 h); after [`GIVE_UP_AFTER`] (5 days, as Postfix's
//! queue lifetime) the mail is moved to `refused/`. A configuration failure
//! (wrong password) is not the mail's fault and is not counted against it.
//!
//! Deterministic: the caller passes `now` (Unix seconds); nothing here
//! reads the clock.

use super::log::Log;
use super::smtp::Sender;
use super::write;
use super::Failure;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// First retry delay, doubled after each further failure.
pub const FIRST_DELAY: i64 = 60;
/// Longest delay between two attempts.
pub const MAX_DELAY: i64 = 4 * 3600;
/// A mail still not sent this long after its first attempt is given up.
pub const GIVE_UP_AFTER: i64 = 5 * 86400;
/// Largest `.eml` the outbox sends (herald's reports with pictures are far
/// smaller); a larger one is moved to `refused/`.
pub const MAX_EML_BYTES: u64 = 25 * 1024 * 1024;
pub const REFUSED_DIR: &str = "refused";

/// Delay before the next attempt after `attempts` failed ones.
pub fn backoff(attempts: u32) -> i64 {
    let shift = attempts.saturating_sub(1).min(20);
    (FIRST_DELAY << shift).min(MAX_DELAY)
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Failed attempts so far.
    pub attempts: u32,
    /// When the first attempt was made (Unix seconds).
    pub first_try: Option<i64>,
    /// Not before this (Unix seconds).
    pub next_try: i64,
    pub last_error: Option<String>,
    /// Recipients the server accepted.
    pub sent: Vec<String>,
    /// Recipients refused for good, with the server's answer.
    pub refused: Vec<RefusedRecipient>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusedRecipient {
    pub to: String,
    pub error: String,
    pub at: i64,
}

/// `refused/NAME.json`: what the status page shows for a refused mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    pub file: String,
    pub message_id: Option<String>,
    pub subject: Option<String>,
    pub sent: Vec<String>,
    pub refused: Vec<RefusedRecipient>,
    pub attempts: u32,
}

/// Who the mails are about, for the log: the game and the player behind
/// each address, when the caller knows them.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    pub game: Option<String>,
    /// Lower-cased address → player id.
    pub players: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    pub file: String,
    pub to: String,
    pub message_id: Option<String>,
    pub reply: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deferred {
    pub file: String,
    pub to: String,
    pub error: String,
    pub attempts: u32,
    pub next_try: i64,
}

/// What one run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub sent: Vec<Sent>,
    /// Mails moved to `refused/` in this run.
    pub refused: Vec<Refusal>,
    pub deferred: Vec<Deferred>,
    /// Mails not due yet (in backoff).
    pub waiting: usize,
    /// Mails left untried because the run stopped.
    pub untried: usize,
    /// Why the run stopped early: the server is down, or the configuration
    /// is wrong. `None` when every due mail was tried.
    pub stopped: Option<Failure>,
    /// Files the outbox could not use (unreadable state, …), one line each.
    pub problems: Vec<String>,
}

fn state_path(eml: &Path) -> PathBuf {
    eml.with_extension("state")
}

fn name_of(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The queued mails in `dir`, in name order.
pub fn queued(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let list = std::fs::read_dir(dir)
        .map_err(|e| Failure::Temporary(format!("outbox {}: {e}", dir.display())))?;
    let mut out: Vec<PathBuf> = list
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.ends_with(".eml") && !n.starts_with('.') && e.file_type().is_ok_and(|t| t.is_file())
        })
        .map(|e| e.path())
        .collect();
    out.sort();
    Ok(out)
}

/// A queued mail's state (default when it has none yet).
pub fn read_state(eml: &Path) -> Result<State, String> {
    let p = state_path(eml);
    match std::fs::read(&p) {
        Ok(b) => serde_json::from_slice(&b)
            .map_err(|e| format!("{}: not an outbox state file: {e}", p.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(State::default()),
        Err(e) => Err(format!("{}: {e}", p.display())),
    }
}

fn write_state(eml: &Path, s: &State) -> Result<(), String> {
    let p = state_path(eml);
    let json = serde_json::to_vec_pretty(s).expect("a state serialises");
    write::atomic(&p, &json).map_err(|e| format!("{}: {e}", p.display()))
}

/// The mails in `refused/`, for the status page.
pub fn refusals(dir: &Path) -> Vec<Refusal> {
    let d = dir.join(REFUSED_DIR);
    let Ok(list) = std::fs::read_dir(&d) else {
        return Vec::new();
    };
    let mut names: Vec<PathBuf> = list
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    names
        .iter()
        .filter_map(|p| serde_json::from_slice(&std::fs::read(p).ok()?).ok())
        .collect()
}

/// Addresses in To, Cc and Bcc, Message-ID and Subject of a mail.
pub struct Head {
    pub recipients: Vec<String>,
    pub message_id: Option<String>,
    pub subject: Option<String>,
}

pub fn head(bytes: &[u8]) -> Head {
    let mut recipients = Vec::new();
    let Some(m) = mail_parser::MessageParser::default().parse_headers(bytes) else {
        return Head {
            recipients,
            message_id: None,
            subject: None,
        };
    };
    for a in [m.to(), m.cc(), m.bcc()].into_iter().flatten() {
        for addr in a.iter() {
            if let Some(x) = addr.address() {
                let x = x.trim().to_string();
                if !x.is_empty() && !recipients.contains(&x) {
                    recipients.push(x);
                }
            }
        }
    }
    Head {
        recipients,
        message_id: m.message_id().map(|s| format!("<{s}>")),
        subject: m.subject().map(str::to_string),
    }
}

struct Ctx<'a> {
    now: i64,
    labels: &'a Labels,
    log: &'a Log,
}

impl Ctx<'_> {
    fn line(&self, event: &str, file: &str, to: &str, mid: Option<&str>, extra: &[(&str, &str)]) {
        let mut f: Vec<(&str, &str)> = Vec::new();
        if let Some(g) = &self.labels.game {
            f.push(("game", g));
        }
        let player = self.labels.players.get(&to.to_ascii_lowercase());
        if let Some(p) = player {
            f.push(("player", p));
        }
        if !to.is_empty() {
            f.push(("to", to));
        }
        if let Some(m) = mid {
            f.push(("message-id", m));
        }
        f.push(("file", file));
        f.extend_from_slice(extra);
        self.log.line(self.now, "out", event, &f);
    }
}

/// Move a finished mail with a refused recipient to `refused/`: the record
/// first, then the mail, then its state (each step safe to redo).
fn retire(dir: &Path, eml: &Path, st: &State, h: &Head) -> Result<Refusal, String> {
    let rdir = dir.join(REFUSED_DIR);
    std::fs::create_dir_all(&rdir).map_err(|e| format!("{}: {e}", rdir.display()))?;
    let file = name_of(eml);
    let r = Refusal {
        file: file.clone(),
        message_id: h.message_id.clone(),
        subject: h.subject.clone(),
        sent: st.sent.clone(),
        refused: st.refused.clone(),
        attempts: st.attempts,
    };
    let rec = rdir.join(Path::new(&file).with_extension("json"));
    let json = serde_json::to_vec_pretty(&r).expect("a refusal serialises");
    write::atomic(&rec, &json).map_err(|e| format!("{}: {e}", rec.display()))?;
    std::fs::rename(eml, rdir.join(&file)).map_err(|e| format!("{}: {e}", eml.display()))?;
    write::sync_dir(&rdir);
    finish(dir, eml);
    Ok(r)
}

/// Remove a finished mail's state (its `.eml` is already gone).
fn finish(dir: &Path, eml: &Path) {
    let _ = std::fs::remove_file(state_path(eml));
    write::sync_dir(dir);
}

/// Send what is due in the outbox `dir` through `sender`, at time `now`.
pub fn run(
    dir: &Path,
    sender: &mut dyn Sender,
    now: i64,
    labels: &Labels,
    log: &Log,
) -> Result<Report, Failure> {
    let ctx = Ctx { now, labels, log };
    let mut report = Report::default();
    let mails = queued(dir)?;
    clear_orphan_states(dir, &mails);
    let total = mails.len();
    for (i, eml) in mails.iter().enumerate() {
        if let Some(f) = sender.down() {
            report.stopped = Some(f.clone());
            report.untried += total - i;
            break;
        }
        let file = name_of(eml);
        let mut st = match read_state(eml) {
            Ok(s) => s,
            Err(e) => {
                ctx.line("problem", &file, "", None, &[("error", &e)]);
                report.problems.push(e);
                continue;
            }
        };
        if st.next_try > now {
            report.waiting += 1;
            continue;
        }
        let bytes = match std::fs::metadata(eml) {
            Ok(m) if m.len() > MAX_EML_BYTES => Err(format!(
                "{} bytes, more than the outbox sends ({MAX_EML_BYTES})",
                m.len()
            )),
            _ => std::fs::read(eml).map_err(|e| e.to_string()),
        };
        let bytes = match bytes {
            Ok(b) => b,
            Err(e) if e.contains("more than") => {
                let h = Head {
                    recipients: vec![],
                    message_id: None,
                    subject: None,
                };
                st.refused.push(RefusedRecipient {
                    to: String::new(),
                    error: e.clone(),
                    at: now,
                });
                ctx.line("refused", &file, "", None, &[("error", &e)]);
                match retire(dir, eml, &st, &h) {
                    Ok(r) => report.refused.push(r),
                    Err(e) => report.problems.push(e),
                }
                continue;
            }
            Err(e) => {
                // Vanished meanwhile (another host sent it) or unreadable.
                report.problems.push(format!("{}: {e}", eml.display()));
                continue;
            }
        };
        let h = head(&bytes);
        let mid = h.message_id.as_deref();
        if h.recipients.is_empty() && st.refused.is_empty() {
            let e = "no recipient in To, Cc or Bcc".to_string();
            st.refused.push(RefusedRecipient {
                to: String::new(),
                error: e.clone(),
                at: now,
            });
            ctx.line("refused", &file, "", mid, &[("error", &e)]);
        }
        st.first_try.get_or_insert(now);
        let mut blocked = false;
        for to in &h.recipients {
            if st.sent.contains(to) || st.refused.iter().any(|r| &r.to == to) {
                continue;
            }
            match sender.send_to(to, &bytes) {
                Ok(reply) => {
                    st.sent.push(to.clone());
                    ctx.line("sent", &file, to, mid, &[("reply", &reply)]);
                    report.sent.push(Sent {
                        file: file.clone(),
                        to: to.clone(),
                        message_id: h.message_id.clone(),
                        reply,
                    });
                    if let Err(e) = write_state(eml, &st) {
                        report.problems.push(e);
                    }
                }
                Err(Failure::Permanent(m)) => {
                    ctx.line("refused", &file, to, mid, &[("error", &m)]);
                    st.refused.push(RefusedRecipient {
                        to: to.clone(),
                        error: m,
                        at: now,
                    });
                }
                Err(Failure::Config(m)) => {
                    // Not this mail's fault: its state stays as it was.
                    ctx.line("failure", &file, to, mid, &[("error", &m)]);
                    report.stopped = Some(Failure::Config(m));
                    blocked = true;
                    break;
                }
                Err(Failure::Temporary(m)) => {
                    let first = st.first_try.unwrap_or(now);
                    st.attempts += 1;
                    st.last_error = Some(m.clone());
                    if now - first >= GIVE_UP_AFTER {
                        let e = format!(
                            "given up after {} attempts over {} days: {m}",
                            st.attempts,
                            (now - first) / 86400
                        );
                        ctx.line("refused", &file, to, mid, &[("error", &e)]);
                        st.refused.push(RefusedRecipient {
                            to: to.clone(),
                            error: e,
                            at: now,
                        });
                        continue;
                    }
                    st.next_try = now + backoff(st.attempts);
                    let next = super::log::time_text(st.next_try);
                    let n = st.attempts.to_string();
                    ctx.line(
                        "deferred",
                        &file,
                        to,
                        mid,
                        &[("error", &m), ("attempts", &n), ("next-try", &next)],
                    );
                    report.deferred.push(Deferred {
                        file: file.clone(),
                        to: to.clone(),
                        error: m,
                        attempts: st.attempts,
                        next_try: st.next_try,
                    });
                    blocked = true;
                    break;
                }
            }
        }
        if blocked {
            if !matches!(report.stopped, Some(Failure::Config(_))) {
                if let Err(e) = write_state(eml, &st) {
                    report.problems.push(e);
                }
            }
            if report.stopped.is_some() || sender.down().is_some() {
                report.stopped = report.stopped.take().or_else(|| sender.down().cloned());
                report.untried += total - i - 1;
                break;
            }
            continue;
        }
        // Every recipient settled.
        if st.refused.is_empty() {
            if let Err(e) = std::fs::remove_file(eml) {
                report.problems.push(format!("{}: {e}", eml.display()));
                continue;
            }
            finish(dir, eml);
        } else {
            match retire(dir, eml, &st, &h) {
                Ok(r) => report.refused.push(r),
                Err(e) => report.problems.push(e),
            }
        }
    }
    Ok(report)
}

/// A `.state` whose `.eml` is gone belongs to a mail finished by a run
/// that stopped before removing it.
fn clear_orphan_states(dir: &Path, mails: &[PathBuf]) {
    let Ok(list) = std::fs::read_dir(dir) else {
        return;
    };
    for e in list.flatten() {
        let p = e.path();
        let n = name_of(&p);
        if n.ends_with(".state") && !n.starts_with('.') {
            let eml = p.with_extension("eml");
            if !mails.contains(&eml) && !eml.exists() {
                let _ = std::fs::remove_file(&p);
            }
        }
    }
}
