//! The outbox sender: the mails queued in an outbox folder (a game's
//! `outbox/`, the host's `DIR/outbox/`; queued through `store::outbox`),
//! sent one by one, each mail's send states recorded on disk on the way,
//! so that a mail is sent at most once outside one unavoidable instant.
//!
//! Files (the layout is `store::layout::OutboxDir`'s):
//!
//! - `NAME.eml`: a mail waiting to be sent, exactly the bytes to send. Only
//!   regular files ending in `.eml` whose name does not start with `.` are
//!   mail (a writer's temporary files are skipped). Sent in name order.
//! - `NAME.state`: its send states, one JSON line each ([`Record`]), in
//!   the order they happened; no file means never tried.
//! - `sent`: the names of mails done (sent to every recipient): a name
//!   there is never queued again (`store::outbox::queue`).
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
//! **The states of one recipient**, each recorded before the next step:
//! queued (`NAME.eml` on disk) → `handing` (recorded just before MAIL
//! FROM) → `sent` (recorded when the whole mail is written to the server
//! and only the final `.` remains: one `write` to the already open state
//! file) → `accepted` (the server's 250, recorded and synced) → done
//! (`NAME` appended to `sent`, synced; then the files removed).
//!
//! A server keeps a mail once it has read its final `.` (Postfix writes
//! its queue file, then answers), whatever becomes of the client: a kill
//! while the client waits for the answer still delivers the mail. So the
//! line that matters is the `.`, not the answer, and the rules on restart
//! are:
//!
//! - **left `handing`** (killed before the mail was whole at the server,
//!   which then drops it): sent again at once, the same bytes and so the
//!   same Message-ID; logged `out interrupted`. A recipient interrupted
//!   more than [`MAX_INTERRUPTED`] times (something kills every attempt)
//!   is treated as a failed attempt from then on, with backoff;
//! - **left `sent`** (killed while the server took it): not sent again;
//!   recorded `unconfirmed`, counted as delivered, logged `out
//!   unconfirmed` and put before the moderator. It is lost only if the
//!   server refused it in that instant.
//!
//! The one window left is the instant between the `sent` record and the
//! `.` reaching the socket (a `write` each): a kill there loses the mail
//! for that recipient (the server drops a mail without its end, and the
//! record says it was on its way). Nothing is sent twice by a kill. After
//! a power loss (the `sent` record is not synced) a mail may read as
//! `handing` and go twice.
//!
//! Backoff after a temporary failure (server down, 4xx): the n-th failed
//! attempt waits `min(60 s × 2^(n-1), 4 h)` before the next (1, 2, 4, … 128
//! min, then every 4 h); after [`GIVE_UP_AFTER`] (5 days, as Postfix's
//! queue lifetime) the mail is moved to `refused/`. A configuration failure
//! (wrong password) is not the mail's fault and is not counted against it.
//!
//! Deterministic: the caller passes `now` (Unix seconds) for every
//! decision; nothing here reads the clock (the log stamps its own lines).
//!
//! One [`Sender`] may serve many outboxes in a row (its connection is
//! reused): call [`run`] for each.

use super::log::Log;
use super::smtp::Sender;
use super::Failure;
use crate::store::layout::OutboxDir;
use crate::store::write;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
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
/// A recipient left `handing` more often than this is no longer resent at
/// once: each further interruption counts as a failed attempt.
pub const MAX_INTERRUPTED: u32 = 3;

/// Delay before the next attempt after `attempts` failed ones.
pub fn backoff(attempts: u32) -> i64 {
    let shift = attempts.saturating_sub(1).min(20);
    (FIRST_DELAY << shift).min(MAX_DELAY)
}

/// One send state of one recipient, a line of `NAME.state`. `at` is the
/// run's `now`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "lowercase", deny_unknown_fields)]
pub enum Record {
    /// About to hand the mail to the server for `to`.
    Handing { to: String, at: i64 },
    /// The whole mail written to the server, the final `.` next: from here
    /// the server may keep it whatever becomes of this process.
    Sent { to: String, at: i64 },
    /// Found `sent` with no answer after it (the run was killed while the
    /// server took it): counted as delivered, never sent again.
    Unconfirmed { to: String, at: i64 },
    /// The server answered 250 for `to`.
    Accepted { to: String, at: i64, reply: String },
    /// A temporary failure: `attempts` failed so far, not again before
    /// `next_try`.
    Deferred {
        to: String,
        at: i64,
        error: String,
        attempts: u32,
        next_try: i64,
    },
    /// Refused for good (5xx, not an address, given up).
    Refused { to: String, at: i64, error: String },
    /// Not handed after all: the login was refused before the transaction
    /// began (the configuration's fault, not counted against the mail).
    Untried { to: String, at: i64, error: String },
}

/// A mail's send states folded into what the sender needs.
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
    /// Recipients left `handing` by a run that was killed before the mail
    /// was whole at the server: it cannot have taken it.
    #[serde(default)]
    pub interrupted: Vec<String>,
    /// How many transactions were interrupted so far, per recipient.
    #[serde(default)]
    pub interruptions: BTreeMap<String, u32>,
    /// Recipients left `sent` by a run that was killed while the server
    /// took the mail (found, not yet recorded `unconfirmed`).
    #[serde(default)]
    pub in_flight: Vec<String>,
    /// Recipients recorded `unconfirmed`: most probably delivered, never
    /// sent again.
    #[serde(default)]
    pub unconfirmed: Vec<String>,
}

impl State {
    /// Fold the records, in order.
    pub fn of(records: &[Record]) -> State {
        #[derive(PartialEq)]
        enum Stage {
            Handing,
            Sent,
        }
        let mut s = State::default();
        // Recipients whose last record is `handing` or `sent`.
        let mut open: BTreeMap<String, Stage> = BTreeMap::new();
        for r in records {
            match r {
                Record::Handing { to, .. } => {
                    if open.insert(to.clone(), Stage::Handing).is_some() {
                        *s.interruptions.entry(to.clone()).or_default() += 1;
                    }
                }
                Record::Sent { to, .. } => {
                    open.insert(to.clone(), Stage::Sent);
                }
                Record::Unconfirmed { to, .. } => {
                    open.remove(to);
                    if !s.unconfirmed.contains(to) {
                        s.unconfirmed.push(to.clone());
                    }
                }
                Record::Accepted { to, at, .. } => {
                    s.first_try.get_or_insert(*at);
                    open.remove(to);
                    if !s.sent.contains(to) {
                        s.sent.push(to.clone());
                    }
                }
                Record::Deferred {
                    to,
                    at,
                    error,
                    attempts,
                    next_try,
                } => {
                    s.first_try.get_or_insert(*at);
                    open.remove(to);
                    s.attempts = *attempts;
                    s.next_try = *next_try;
                    s.last_error = Some(error.clone());
                }
                Record::Untried { to, .. } => {
                    open.remove(to);
                }
                Record::Refused { to, at, error } => {
                    s.first_try.get_or_insert(*at);
                    open.remove(to);
                    s.refused.push(RefusedRecipient {
                        to: to.clone(),
                        error: error.clone(),
                        at: *at,
                    });
                }
            }
        }
        for (to, stage) in open {
            if stage == Stage::Sent {
                s.in_flight.push(to);
            } else {
                *s.interruptions.entry(to.clone()).or_default() += 1;
                s.interrupted.push(to);
            }
        }
        s
    }

    fn settled(&self, to: &str) -> bool {
        self.sent.iter().any(|x| x == to)
            || self.unconfirmed.iter().any(|x| x == to)
            || self.refused.iter().any(|r| r.to == to)
    }
}

/// The retry state the outbox wrote before send states were recorded
/// line by line (one pretty JSON object): read, and carried over as
/// records when the mail is next tried.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Legacy {
    attempts: u32,
    first_try: Option<i64>,
    next_try: i64,
    last_error: Option<String>,
    sent: Vec<String>,
    refused: Vec<RefusedRecipient>,
}

impl Legacy {
    fn records(self) -> Vec<Record> {
        let at = self.first_try.unwrap_or(0);
        let mut out: Vec<Record> = self
            .sent
            .into_iter()
            .map(|to| Record::Accepted {
                to,
                at,
                reply: "(accepted before; recorded by an older herald)".into(),
            })
            .collect();
        out.extend(self.refused.into_iter().map(|r| Record::Refused {
            to: r.to,
            at: r.at,
            error: r.error,
        }));
        if self.attempts > 0 {
            out.push(Record::Deferred {
                to: String::new(),
                at,
                error: self.last_error.unwrap_or_default(),
                attempts: self.attempts,
                next_try: self.next_try,
            });
        }
        out
    }
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
    /// Recipients found left `handing` by a killed run (and sent again).
    pub interrupted: usize,
    /// Recipients found left `sent` by a killed run: most probably
    /// delivered, not sent again (file, recipient, Message-ID).
    pub unconfirmed: Vec<Sent>,
    /// Why the run stopped early: the server is down, or the configuration
    /// is wrong. `None` when every due mail was tried.
    pub stopped: Option<Failure>,
    /// Files the outbox could not use (unreadable state, …), one line each.
    pub problems: Vec<String>,
}

/// A mail's name: its file name without `.eml`.
fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn file_name(p: &Path) -> String {
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
            n.ends_with(".eml")
                && n.len() > 4
                && !n.starts_with('.')
                && e.file_type().is_ok_and(|t| t.is_file())
        })
        .map(|e| e.path())
        .collect();
    out.sort();
    Ok(out)
}

/// Does the outbox `dir` hold a mail to send?
pub fn has_mail(dir: &Path) -> bool {
    queued(dir).is_ok_and(|q| !q.is_empty())
}

/// The send states of the mail `NAME.eml` at `eml`, in order (none when it
/// was never tried). A last line a killed writer left unfinished is
/// ignored; a state file of the older one-object kind is read as records.
pub fn read_records(eml: &Path) -> Result<Vec<Record>, String> {
    let p = eml.with_extension("state");
    let bytes = match std::fs::read(&p) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", p.display())),
    };
    if let Ok(old) = serde_json::from_slice::<Legacy>(&bytes) {
        return Ok(old.records());
    }
    let text = String::from_utf8_lossy(&bytes);
    let complete = text.ends_with('\n');
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Record>(line) {
            Ok(r) => out.push(r),
            // Cut short by a kill while it was being written.
            Err(_) if i + 1 == lines.len() && !complete => {}
            Err(e) => {
                return Err(format!(
                "{}: line {}: not an outbox state ({e}); remove the file to send the mail again",
                p.display(),
                i + 1
            ))
            }
        }
    }
    Ok(out)
}

/// A queued mail's state (default when it has none yet).
// A String error: an outbox fault, logged by the host as is.
pub fn read_state(eml: &Path) -> Result<State, String> {
    read_records(eml).map(|r| State::of(&r))
}

/// The open state file of one mail: records appended with one `write`
/// each, on an already open file, so that nothing slower than that
/// stands between the server's answer and its record.
struct Journal {
    file: std::fs::File,
    path: PathBuf,
}

impl Journal {
    /// Open `NAME.state` for appending (created 0600, never through a
    /// symlink). An older one-object state is rewritten as records first;
    /// a line a killed writer left unfinished is closed.
    // A String error: an outbox fault, logged by the host as is.
    fn open(eml: &Path, records: &[Record]) -> Result<Journal, String> {
        use std::os::unix::fs::{FileExt, OpenOptionsExt};
        let path = eml.with_extension("state");
        let err = |e: std::io::Error| format!("{}: {e}", path.display());
        if let Ok(bytes) = std::fs::read(&path) {
            if serde_json::from_slice::<Legacy>(&bytes).is_ok() {
                let mut text = String::new();
                for r in records {
                    text.push_str(&serde_json::to_string(r).expect("a record serialises"));
                    text.push('\n');
                }
                crate::store::write::atomic(&path, text.as_bytes(), write::Durability::Synced)
                    .map_err(|e| e.to_string())?;
            }
        }
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
            .map_err(err)?;
        let len = file.metadata().map_err(err)?.len();
        if len > 0 {
            let mut last = [0u8; 1];
            file.read_at(&mut last, len - 1).map_err(err)?;
            if last[0] != b'\n' {
                file.write_all(b"\n").map_err(err)?;
            }
        }
        Ok(Journal { file, path })
    }

    /// Append one record (one `write`); synced too when `sync`.
    // A String error: an outbox fault, logged by the host as is.
    fn append(&mut self, r: &Record, sync: bool) -> Result<(), String> {
        let mut line = serde_json::to_string(r).expect("a record serialises");
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| if sync { self.file.sync_data() } else { Ok(()) })
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// The mails in `refused/`, for the status page.
pub fn refusals(dir: &Path) -> Vec<Refusal> {
    let d = OutboxDir::at(dir).refused();
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
struct Head {
    pub recipients: Vec<String>,
    pub message_id: Option<String>,
    pub subject: Option<String>,
}

fn head(bytes: &[u8]) -> Head {
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
    ob: OutboxDir,
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
        self.log.line("out", event, &f);
    }

    /// Move a finished mail with a refused recipient to `refused/`: the
    /// record first, then the mail, then its state (each step safe to redo).
    // A String error: an outbox fault, logged by the host as is.
    fn retire(&self, eml: &Path, st: &State, h: &Head) -> Result<Refusal, String> {
        let name = stem(eml);
        let rdir = self.ob.refused();
        write::create_dir(&rdir).map_err(|e| e.to_string())?;
        let r = Refusal {
            file: file_name(eml),
            message_id: h.message_id.clone(),
            subject: h.subject.clone(),
            sent: st.sent.clone(),
            refused: st.refused.clone(),
            attempts: st.attempts,
        };
        let rec = self.ob.refused_record(&name);
        let json = serde_json::to_vec_pretty(&r).expect("a refusal serialises");
        super::write::atomic(&rec, &json).map_err(|e| format!("{}: {e}", rec.display()))?;
        std::fs::rename(eml, self.ob.refused_mail(&name))
            .map_err(|e| format!("{}: {e}", eml.display()))?;
        super::write::sync_dir(&rdir);
        self.clear(&name);
        Ok(r)
    }

    /// Done: the name recorded in `sent` (synced), then the mail and its
    /// state removed. A run killed in between finds the name in `sent`
    /// and only removes the files.
    // A String error: an outbox fault, logged by the host as is.
    fn done(&self, eml: &Path) -> Result<(), String> {
        let name = stem(eml);
        crate::store::outbox::mark_sent(&self.ob, &name).map_err(|e| e.to_string())?;
        let _ = std::fs::remove_file(eml);
        self.clear(&name);
        Ok(())
    }

    fn clear(&self, name: &str) {
        let _ = std::fs::remove_file(self.ob.states(name));
    }
}

/// What became of one mail's recipients in this run.
enum Settled {
    /// Every recipient accepted or refused.
    All,
    /// A recipient is left for a later run (deferred, or the sender down).
    Blocked,
}

/// Send what is due in the outbox `dir` through `sender`, at time `now`.
pub fn run(
    dir: &Path,
    sender: &mut dyn Sender,
    now: i64,
    labels: &Labels,
    log: &Log,
) -> Result<Report, Failure> {
    let ctx = Ctx {
        ob: OutboxDir::at(dir),
        now,
        labels,
        log,
    };
    let mut report = Report::default();
    let mails = queued(dir)?;
    clear_orphan_states(dir, &mails);
    let done = crate::store::outbox::sent(&ctx.ob)
        .map_err(|e| Failure::Temporary(format!("outbox {}: {e}", dir.display())))?;
    let total = mails.len();
    for (i, eml) in mails.iter().enumerate() {
        if done.contains(&stem(eml)) {
            // Sent by a run that stopped before removing it.
            let _ = std::fs::remove_file(eml);
            ctx.clear(&stem(eml));
            continue;
        }
        if let Some(f) = sender.down() {
            report.stopped = Some(f.clone());
            report.untried += total - i;
            break;
        }
        match one_mail(&ctx, eml, sender, &mut report) {
            Settled::All => {}
            Settled::Blocked => {
                if report.stopped.is_some() || sender.down().is_some() {
                    report.stopped = report.stopped.take().or_else(|| sender.down().cloned());
                    report.untried += total - i - 1;
                    break;
                }
            }
        }
    }
    super::write::sync_dir(dir);
    Ok(report)
}

/// Read, send and settle one mail.
fn one_mail(ctx: &Ctx, eml: &Path, sender: &mut dyn Sender, report: &mut Report) -> Settled {
    let file = file_name(eml);
    let records = match read_records(eml) {
        Ok(r) => r,
        Err(e) => {
            ctx.line("problem", &file, "", None, &[("error", &e)]);
            report.problems.push(e);
            return Settled::All;
        }
    };
    let mut st = State::of(&records);
    if st.next_try > ctx.now && st.interrupted.is_empty() {
        report.waiting += 1;
        return Settled::All;
    }
    let Some(bytes) = read_whole(ctx, eml, &file, &mut st, report) else {
        return Settled::All;
    };
    let h = head(&bytes);
    let mid = h.message_id.as_deref();
    let mut journal = match Journal::open(eml, &records) {
        Ok(j) => j,
        Err(e) => {
            ctx.line("problem", &file, "", mid, &[("error", &e)]);
            report.problems.push(e);
            return Settled::Blocked;
        }
    };
    if h.recipients.is_empty() && st.refused.is_empty() {
        let e = "no recipient in To, Cc or Bcc".to_string();
        let r = Record::Refused {
            to: String::new(),
            at: ctx.now,
            error: e.clone(),
        };
        if let Err(e) = journal.append(&r, false) {
            report.problems.push(e);
        }
        st = State::of(&[records.clone(), vec![r]].concat());
        ctx.line("refused", &file, "", mid, &[("error", &e)]);
    }
    settle_in_flight(ctx, &mut journal, &file, &h, &mut st, report);
    for to in &h.recipients {
        if st.settled(to) {
            continue;
        }
        if st.interrupted.contains(to)
            && too_often_interrupted(ctx, &mut journal, &file, to, mid, &st, report)
        {
            return Settled::Blocked;
        }
        match send_one(
            ctx,
            &mut journal,
            &file,
            to,
            &h,
            &bytes,
            sender,
            &mut st,
            report,
        ) {
            Ok(()) => {}
            Err(()) => return Settled::Blocked,
        }
    }
    drop(journal);
    if st.refused.is_empty() {
        if let Err(e) = ctx.done(eml) {
            report.problems.push(e);
        }
    } else {
        match ctx.retire(eml, &st, &h) {
            Ok(r) => report.refused.push(r),
            Err(e) => report.problems.push(e),
        }
    }
    Settled::All
}

/// The bytes of mail `eml`, or `None` when it is settled without them:
/// refused (and retired) as too big to send, or gone or unreadable.
fn read_whole(
    ctx: &Ctx,
    eml: &Path,
    file: &str,
    st: &mut State,
    report: &mut Report,
) -> Option<Vec<u8>> {
    match std::fs::metadata(eml) {
        Ok(m) if m.len() > MAX_EML_BYTES => {
            let e = format!(
                "{} bytes, more than the outbox sends ({MAX_EML_BYTES})",
                m.len()
            );
            st.refused.push(RefusedRecipient {
                to: String::new(),
                error: e.clone(),
                at: ctx.now,
            });
            ctx.line("refused", file, "", None, &[("error", &e)]);
            let h = Head {
                recipients: vec![],
                message_id: None,
                subject: None,
            };
            match ctx.retire(eml, st, &h) {
                Ok(r) => report.refused.push(r),
                Err(e) => report.problems.push(e),
            }
            None
        }
        _ => match std::fs::read(eml) {
            Ok(b) => Some(b),
            Err(e) => {
                // Vanished meanwhile, or unreadable.
                report.problems.push(format!("{}: {e}", eml.display()));
                None
            }
        },
    }
}

/// The recipients a killed run was handing the mail to: counted as
/// delivered (the server has it unless it refused it then), not sent
/// again.
fn settle_in_flight(
    ctx: &Ctx,
    journal: &mut Journal,
    file: &str,
    h: &Head,
    st: &mut State,
    report: &mut Report,
) {
    let mid = h.message_id.as_deref();
    for to in st.in_flight.clone() {
        // Killed while the server took it: the whole mail and its end were
        // on their way. The server has it unless it refused it then.
        let r = Record::Unconfirmed {
            to: to.clone(),
            at: ctx.now,
        };
        if let Err(e) = journal.append(&r, true) {
            report.problems.push(e);
        }
        ctx.line(
            "unconfirmed",
            file,
            &to,
            mid,
            &[(
                "rule",
                "the host stopped while the server took it: counted as delivered, not sent again",
            )],
        );
        report.unconfirmed.push(Sent {
            file: file.to_string(),
            to: to.clone(),
            message_id: h.message_id.clone(),
            reply: String::new(),
        });
        st.in_flight.retain(|x| x != &to);
        st.unconfirmed.push(to);
    }
}

/// A recipient whose sending was interrupted before: logged, and `true`
/// when it was interrupted more than [`MAX_INTERRUPTED`] times and is
/// deferred now as after a failure (the mail stops here).
#[allow(clippy::too_many_arguments)]
fn too_often_interrupted(
    ctx: &Ctx,
    journal: &mut Journal,
    file: &str,
    to: &str,
    mid: Option<&str>,
    st: &State,
    report: &mut Report,
) -> bool {
    report.interrupted += 1;
    let n = st.interruptions.get(to).copied().unwrap_or(1);
    let rule = if n > MAX_INTERRUPTED {
        "counted as a failed attempt"
    } else {
        "resent now with the same Message-ID"
    };
    ctx.line(
        "interrupted",
        file,
        to,
        mid,
        &[("times", &n.to_string()), ("rule", rule)],
    );
    if n > MAX_INTERRUPTED && st.next_try <= ctx.now {
        // Something kills every attempt: back off as after a failure.
        let attempts = st.attempts + 1;
        let r = Record::Deferred {
            to: to.to_string(),
            at: ctx.now,
            error: format!("interrupted {n} times while handing it to the server"),
            attempts,
            next_try: ctx.now + backoff(attempts),
        };
        let _ = journal.append(&r, true);
        return true;
    }
    false
}

/// Hand the mail to the server for one recipient and record the answer.
/// `Err(())`: this mail stops here (deferred, or the sender is down).
///
/// Long (about 85 lines): one branch a kind of answer from the server, each
/// recorded in the journal; the longest, a temporary failure, is `deferred`.
#[allow(clippy::too_many_arguments)]
fn send_one(
    ctx: &Ctx,
    journal: &mut Journal,
    file: &str,
    to: &str,
    h: &Head,
    bytes: &[u8],
    sender: &mut dyn Sender,
    st: &mut State,
    report: &mut Report,
) -> Result<(), ()> {
    let mid = h.message_id.as_deref();
    let handing = Record::Handing {
        to: to.to_string(),
        at: ctx.now,
    };
    // Written, not synced: after a power loss a mail in hand reads as
    // queued, and the rule for both is the same (send it).
    if let Err(e) = journal.append(&handing, false) {
        ctx.line("problem", file, to, mid, &[("error", &e)]);
        report.problems.push(e);
        return Err(());
    }
    st.first_try.get_or_insert(ctx.now);
    let at_end = Record::Sent {
        to: to.to_string(),
        at: ctx.now,
    };
    // One `write` on the open file, not synced: the instant between it and
    // the final `.` is the one window left (docs/host.md).
    let mut end_problem = None;
    let result = sender.send_to(to, bytes, &mut || {
        if let Err(e) = journal.append(&at_end, false) {
            end_problem = Some(e);
        }
    });
    if let Some(e) = end_problem {
        report.problems.push(e);
    }
    match result {
        Ok(reply) => {
            let r = Record::Accepted {
                to: to.to_string(),
                at: ctx.now,
                reply: reply.clone(),
            };
            let recorded = journal.append(&r, true);
            st.interrupted.retain(|x| x != to);
            st.sent.push(to.to_string());
            ctx.line("sent", file, to, mid, &[("reply", &reply)]);
            report.sent.push(Sent {
                file: file.to_string(),
                to: to.to_string(),
                message_id: h.message_id.clone(),
                reply,
            });
            if let Err(e) = recorded {
                report.problems.push(e);
            }
            Ok(())
        }
        Err(Failure::Permanent(m)) => {
            ctx.line("refused", file, to, mid, &[("error", &m)]);
            refuse(ctx, journal, to, m, st, report);
            Ok(())
        }
        Err(Failure::Config(m)) => {
            // Not this mail's fault: it is counted as never handed.
            ctx.line("failure", file, to, mid, &[("error", &m)]);
            let _ = journal.append(
                &Record::Untried {
                    to: to.to_string(),
                    at: ctx.now,
                    error: m.clone(),
                },
                false,
            );
            report.stopped = Some(Failure::Config(m));
            Err(())
        }
        Err(Failure::Temporary(m)) => deferred(ctx, journal, file, to, mid, m, st, report),
    }
}

/// A temporary failure for recipient `to`: tried again later, with a
/// longer wait each time, or refused after [`GIVE_UP_AFTER`].
/// `Err(())`: the mail stops here for now.
#[allow(clippy::too_many_arguments)]
fn deferred(
    ctx: &Ctx,
    journal: &mut Journal,
    file: &str,
    to: &str,
    mid: Option<&str>,
    m: String,
    st: &mut State,
    report: &mut Report,
) -> Result<(), ()> {
    let first = st.first_try.unwrap_or(ctx.now);
    let attempts = st.attempts + 1;
    if ctx.now - first >= GIVE_UP_AFTER {
        let e = format!(
            "given up after {attempts} attempts over {} days: {m}",
            (ctx.now - first) / 86400
        );
        ctx.line("refused", file, to, mid, &[("error", &e)]);
        st.attempts = attempts;
        refuse(ctx, journal, to, e, st, report);
        return Ok(());
    }
    let next_try = ctx.now + backoff(attempts);
    let r = Record::Deferred {
        to: to.to_string(),
        at: ctx.now,
        error: m.clone(),
        attempts,
        next_try,
    };
    if let Err(e) = journal.append(&r, true) {
        report.problems.push(e);
    }
    st.attempts = attempts;
    st.next_try = next_try;
    st.last_error = Some(m.clone());
    let next = super::log::time_text(next_try);
    ctx.line(
        "deferred",
        file,
        to,
        mid,
        &[
            ("error", &m),
            ("attempts", &attempts.to_string()),
            ("next-try", &next),
        ],
    );
    report.deferred.push(Deferred {
        file: file.to_string(),
        to: to.to_string(),
        error: m,
        attempts,
        next_try,
    });
    Err(())
}

fn refuse(
    ctx: &Ctx,
    journal: &mut Journal,
    to: &str,
    error: String,
    st: &mut State,
    report: &mut Report,
) {
    let r = Record::Refused {
        to: to.to_string(),
        at: ctx.now,
        error: error.clone(),
    };
    if let Err(e) = journal.append(&r, true) {
        report.problems.push(e);
    }
    st.interrupted.retain(|x| x != to);
    st.refused.push(RefusedRecipient {
        to: to.to_string(),
        error,
        at: ctx.now,
    });
}

/// A `.state` whose `.eml` is gone belongs to a mail finished by a run
/// that stopped before removing it.
fn clear_orphan_states(dir: &Path, mails: &[PathBuf]) {
    let Ok(list) = std::fs::read_dir(dir) else {
        return;
    };
    for e in list.flatten() {
        let p = e.path();
        let n = file_name(&p);
        if n.ends_with(".state") && !n.starts_with('.') {
            let eml = p.with_extension("eml");
            if !mails.contains(&eml) && !eml.exists() {
                let _ = std::fs::remove_file(&p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::head;

    #[test]
    fn recipients_come_from_to_cc_and_bcc_once_each() {
        let h = head(
            b"From: a@x.org\r\nTo: B <b@x.org>, c@x.org\r\nCc: b@x.org\r\nBcc: d@x.org\r\n\
              Message-ID: <m1@x>\r\nSubject: s\r\n\r\nbody\r\n",
        );
        assert_eq!(h.recipients, vec!["b@x.org", "c@x.org", "d@x.org"]);
        assert_eq!(h.message_id.as_deref(), Some("<m1@x>"));
        let h = head(b"\xff\xfe garbage with no header");
        assert!(h.recipients.is_empty());
    }
}
