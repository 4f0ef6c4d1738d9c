//! Game time: what the host does for one game because of the clock or
//! because every order is in, not because of a mail. For one game folder at
//! `now`:
//!
//! - **early resolution**: every awaited player's orders are stored
//!   (`orders/turn-NNNN/`): the turn is resolved at once, by the same code
//!   as `herald resolve` without files;
//! - **the deadline**: once it has passed, the turn is resolved with the
//!   game's missed-order policy standing in (again `herald resolve`'s own
//!   code); a game without a deadline waits for every order;
//! - **reminders** to players whose orders are missing, at the offsets of
//!   `host.toml` before the deadline, each once per (turn, deadline,
//!   offset, player);
//! - **the end**: the final report mail (outcome and revealed seed) is the
//!   final mail; the host notes the end once.
//!
//! Report mails the host's resolves queue carry the board as PNG too.
//! Everything is queued in the game's `outbox/`; the host's state for the
//! game (`DIR/state/<game>.json`) keeps what the next pass needs to see,
//! without opening the game, that nothing changed. `docs/host.md`, "Game
//! time", says why each rule is as it is.

use super::config::HostConfig;
use super::log::Log;
use super::state::{FileStamp, Fingerprint, GameState, ReminderSent, Summary};
use crate::chain::body::Body;
use crate::error::{Error, Kind, Result};
use crate::mail::eml;
use crate::names::Name;
use crate::pipeline::derived::MailForm;
use crate::pipeline::{self, Loaded, Step, Writing};
use crate::store::GameDir;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::Duration;

/// What one call did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Done {
    /// Turn `turn` was resolved: `early` before its deadline because every
    /// order was in; `missing`: the players a stand-in played for.
    Resolved {
        turn: u32,
        early: bool,
        missing: Vec<String>,
    },
    /// A reminder was queued for `player`.
    Reminded { player: String, turn: u32 },
    /// The game is over (noted once; the final report mail carries it).
    Finished { outcome: String },
    /// Turn `turn` was found resolved where no log line had said so: by a
    /// pass killed after its commit (whose work the opening `completed`),
    /// or by a command run by hand.
    Completed { turn: u32, completed: bool },
}

impl Done {
    /// One line for the command's output ("resolved turn 3 early").
    pub fn text(&self) -> String {
        match self {
            Done::Resolved {
                turn,
                early,
                missing,
            } => {
                let mut s = format!("resolved turn {turn}{}", if *early { " early" } else { "" });
                if !missing.is_empty() {
                    s.push_str(&format!(" (stand-ins for {})", missing.join(", ")));
                }
                s
            }
            Done::Reminded { player, turn } => format!("reminded {player} of turn {turn}"),
            Done::Finished { outcome } => format!("game over: {outcome}"),
            Done::Completed { turn, completed } => {
                format!("resolved turn {turn} ({})", completed_how(*completed))
            }
        }
    }
}

fn completed_how(completed: bool) -> &'static str {
    if completed {
        "completed after an interrupted pass"
    } else {
        "resolved outside this host's passes: by `herald resolve`, or by a pass cut short"
    }
}

/// Right after the host opens a game to write: complete what an
/// interrupted command left undone (its reports and report mails), and
/// log every resolution the host has not logged yet (`turn_logged` in the
/// game's state): one completed after a crash, or one made by hand. The
/// caller saves the state. Returns what it logged.
pub fn account(w: &mut Writing, st: &mut GameState, now: &str, log: &Log) -> Result<Vec<Done>> {
    let completed = w.complete(now)?;
    let turn = w.game.head().turn;
    let mut out = Vec::new();
    if let Some(known) = st.turn_logged {
        for t in known..turn {
            let completed = completed && t + 1 == turn;
            log.line(
                "due",
                "resolved",
                &[
                    ("game", &w.game.head().id),
                    ("turn", &t.to_string()),
                    ("how", completed_how(completed)),
                ],
            );
            out.push(Done::Completed { turn: t, completed });
        }
    }
    st.turn_logged = Some(turn);
    Ok(out)
}

/// After a failure, the game is tried again this long after (sooner if its
/// folder changes).
pub const RETRY_SECS: i64 = 15 * 60;

/// At most this many turns are resolved in one call (a game whose next
/// turn is due at once too, when `now` jumps far ahead).
const MAX_RESOLVES: usize = 4;

/// Everything time- or completeness-driven for one game at `now` (RFC
/// 3339). See the module's documentation. Takes the game's lock itself
/// (waiting at most `wait`). Failures are logged and recorded in the
/// game's state (the status page shows them) before they are returned; a
/// busy game is returned as it is (exit status 3), untouched.
///
/// Long (about 100 lines): the steps of one call in the order a crash may cut
/// them (the game opened under its lock, its state read again, checked, worked,
/// saved), each failure recorded in the game's state before it is returned.
pub fn run(
    host_dir: &Path,
    game_dir: &Path,
    now: &str,
    cfg: &HostConfig,
    log: &Log,
    wait: Duration,
) -> Result<Vec<Done>> {
    let now_t =
        seconds(now).ok_or_else(|| Error::usage(format!("--now {now}: not an RFC 3339 time")))?;
    let folder = game_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id = Name::new("game", &folder).map_err(|e| {
        Error::refused(format!(
            "{}: a game folder's name is its game id: {e}",
            game_dir.display()
        ))
    })?;
    let dir = GameDir::at(game_dir);
    let state = GameState::load(host_dir, &id)?;
    if is_idle(&state, &dir, now_t, cfg) {
        return Ok(Vec::new());
    }
    let mut w = match pipeline::open_to_write_with(
        game_dir,
        wait,
        now,
        MailForm {
            png: cfg.attach_png,
            web: cfg.web_url.clone(),
        },
    ) {
        Ok(w) => w,
        Err(e) if e.kind == Kind::Busy => return Err(e),
        Err(e) => {
            // The game does not open: say so, and look again when its
            // folder changes or after a while.
            let mut st = GameState::load(host_dir, &id)?;
            fail(&mut st, &id, &e, now_t, log);
            st.fingerprint = fingerprint(&dir, st.summary.as_ref().map_or(0, |s| s.turn), cfg);
            st.save(host_dir, &id)?;
            return Err(e);
        }
    };
    // Re-read under the lock: the mail side may have written it meanwhile.
    let mut st = GameState::load(host_dir, &id)?;
    let mut done = match account(&mut w, &mut st, now, log) {
        Ok(d) => d,
        Err(e) => {
            fail(&mut st, &id, &e, now_t, log);
            st.save(host_dir, &id)?;
            return Err(e);
        }
    };
    if w.game.head().id != id.as_str() {
        let e = Error::refused(format!(
            "{}: the game file is game {}, not {id}: a game folder's name must be its id; rename the folder (the host sends it no mail meanwhile)",
            game_dir.display(),
            w.game.head().id.escape_debug()
        ));
        fail(&mut st, &id, &e, now_t, log);
        st.summary = Some(summary(&w.game, &stored(&dir, w.game.head().turn)));
        st.fingerprint = fingerprint(&dir, w.game.head().turn, cfg);
        st.wake = None;
        st.save(host_dir, &id)?;
        return Err(e);
    }
    let cx = Ctx {
        host_dir,
        id: &id,
        dir: &dir,
        now,
        now_t,
        cfg,
        log,
    };
    let outcome = work(&mut w, &mut st, &cx, &mut done);
    let head = w.game.head();
    let listed = stored(&dir, head.turn);
    st.summary = Some(summary(&w.game, &listed));
    st.reminders.retain(|r| r.turn == head.turn);
    st.fingerprint = fingerprint(&dir, head.turn, cfg);
    st.wake = next_wake(&w.game, &st, &listed, now_t, cfg);
    match outcome {
        Ok(None) => st.due_problem = None,
        // Committed, its reports not all written (a full disk): told on
        // the status page until a pass completes them.
        Ok(Some(incomplete)) => st.due_problem = Some(incomplete),
        Err(e) => {
            fail(&mut st, &id, &e, now_t, log);
            st.save(host_dir, &id)?;
            return Err(e);
        }
    }
    st.save(host_dir, &id)?;
    Ok(done)
}

/// The game's vacation mode, from its lobby record (extend when it has
/// none: a game the lobby did not make).
fn vacation_mode(cx: &Ctx) -> super::lobby::seats::VacationMode {
    super::lobby::seats::load(&super::layout::HostDir::at(cx.host_dir), cx.id)
        .ok()
        .flatten()
        .map(|r| r.vacation)
        .unwrap_or_default()
}

/// What one call works with.
struct Ctx<'a> {
    host_dir: &'a Path,
    id: &'a Name,
    dir: &'a GameDir,
    now: &'a str,
    now_t: i64,
    cfg: &'a HostConfig,
    log: &'a Log,
}

/// The work under the lock: resolve what is due, note the end, remind.
/// `Ok(Some(message))`: a resolve was committed but its reports or mails
/// could not all be written (a full disk); the next pass completes them.
fn work(
    w: &mut Writing,
    st: &mut GameState,
    cx: &Ctx,
    done: &mut Vec<Done>,
) -> Result<Option<String>> {
    let Ctx { dir, now, log, .. } = *cx;
    let id = w.game.head().id.clone();
    let mut incomplete = None;
    let mut resolves = 0;
    while resolves < MAX_RESOLVES && w.game.head().outcome.is_none() {
        let head = w.game.head();
        let listed = stored(dir, head.turn);
        // A bot seat's orders are made when the phase is resolved: only
        // the people's are waited for.
        let all_in = head
            .awaiting
            .iter()
            .all(|p| listed.contains(p) || w.game.genesis.bot(p).is_some());
        let late = pipeline::resolve::deadline_passed(head, now);
        if !all_in && !late {
            break;
        }
        let excused = if late && !all_in {
            match excuse_or_hold(w, cx, &listed)? {
                Some(excused) => excused,
                None => continue,
            }
        } else {
            Vec::new()
        };
        match pipeline::resolve_excusing(w, &[], now, &excused)? {
            Step::Phase(turn) => {
                resolves += 1;
                if let Some(m) = note_resolved(w, st, cx, done, turn, late, &excused)? {
                    incomplete = Some(m);
                    // The reports follow at the next pass, before anything else.
                    break;
                }
            }
            // Not for the host, which completed the game when it opened it:
            // nothing is resolved twice.
            Step::Already(_) => break,
        }
    }
    tell_after_resolving(w, cx)?;
    if let Some(o) = &w.game.head().outcome {
        if !st.finished {
            st.finished = true;
            log.line("due", "finished", &[("game", &id), ("outcome", &o.summary)]);
            done.push(Done::Finished {
                outcome: o.summary.clone(),
            });
        }
        return Ok(incomplete);
    }
    if incomplete.is_some() {
        return Ok(incomplete);
    }
    remind(w, st, cx, done)?;
    Ok(None)
}

/// A late phase with orders missing: the missing players away on
/// vacation excused (`Some`, the stand-in plays for them without a miss
/// counted, where the game's table chose `stand-in`), or the deadline
/// moved to their return (`None`: look at the phase again).
fn excuse_or_hold(w: &mut Writing, cx: &Ctx, listed: &[String]) -> Result<Option<Vec<String>>> {
    let Ctx { now, log, .. } = *cx;
    let id = w.game.head().id.clone();
    let missing: Vec<String> = w
        .game
        .head()
        .awaiting
        .iter()
        .filter(|p| !listed.contains(p) && w.game.genesis.bot(p).is_none())
        .cloned()
        .collect();
    let from = cx.cfg.address.for_game(&id);
    // A stand-in's phase is recorded in the phase entry's `excused`,
    // which needs format 4: an older game's deadline moves instead, as in
    // `extend` mode.
    if vacation_mode(cx) == super::lobby::seats::VacationMode::StandIn
        && w.game.head().format >= crate::chain::EXCUSED_FORMAT
    {
        return Ok(Some(super::vacation::away_missing(&w.game, &missing, now)));
    }
    if let Some(until) = super::vacation::hold(w, &missing, now, &from)? {
        log.line(
            "due",
            "deadline",
            &[
                ("game", &id),
                ("deadline", &until),
                ("why", "a player is on vacation"),
            ],
        );
        return Ok(None);
    }
    Ok(Some(Vec::new()))
}

/// A phase resolved (turn `turn`, `late` past its deadline, `excused`
/// the players on vacation the stand-in played): logged and noted in the
/// game's state. `Some(message)`: its reports or mails were not all
/// written.
#[allow(clippy::too_many_arguments)]
fn note_resolved(
    w: &mut Writing,
    st: &mut GameState,
    cx: &Ctx,
    done: &mut Vec<Done>,
    turn: u32,
    late: bool,
    excused: &[String],
) -> Result<Option<String>> {
    let log = cx.log;
    let id = w.game.head().id.clone();
    if !excused.is_empty() {
        log.line(
            "due",
            "stand-in",
            &[
                ("game", &id),
                ("turn", &turn.to_string()),
                ("away", &excused.join(",")),
            ],
        );
    }
    // Logged with the game's state saved at once: a kill after this line
    // and before the save logs it again, never not.
    st.turn_logged = Some(w.game.head().turn);
    let missing: Vec<String> = w
        .game
        .last_phase()
        .map(|p| {
            p.orders
                .into_iter()
                .filter(|o| o.nmr.is_some())
                .map(|o| o.player)
                .collect()
        })
        .unwrap_or_default();
    log.line(
        "due",
        "resolved",
        &[
            ("game", &id),
            ("turn", &turn.to_string()),
            ("early", if late { "no" } else { "yes" }),
            ("stand-ins", &missing.join(",")),
        ],
    );
    done.push(Done::Resolved {
        turn,
        early: !late,
        missing,
    });
    st.save(cx.host_dir, cx.id)?;
    let incomplete = w.incomplete.take();
    if let Some(m) = &incomplete {
        log.line(
            "due",
            "incomplete",
            &[("game", &id), ("turn", &turn.to_string()), ("error", m)],
        );
    }
    Ok(incomplete)
}

/// The mails and offers that follow resolving, each queued again after a
/// pass cut short (a mail sent already is left out).
fn tell_after_resolving(w: &mut Writing, cx: &Ctx) -> Result<()> {
    let Ctx { now, log, .. } = *cx;
    let id = w.game.head().id.clone();
    // The other players told of a stand-in's vacation phase (queued again
    // after a pass cut short between the commit and the mails; a mail
    // sent already is left out).
    if let Some(p) = w.game.last_phase().filter(|p| !p.excused.is_empty()) {
        let from = cx.cfg.address.for_game(&id);
        super::vacation::stood_in(w, p.turn, &p.excused, now, &from)?;
    }
    // Likewise the notices of a deadline a vacation moved.
    super::vacation::renotify(w, now, &cx.cfg.address.for_game(&id))?;
    // Seats the drop rule freed are offered for takeover (host::lobby::seats).
    for p in
        super::lobby::seats::note_drops(&super::layout::HostDir::at(cx.host_dir), &w.game, now)?
    {
        log.line(
            "due",
            "seat-offered",
            &[("game", &id), ("player", &p), ("why", "dropped")],
        );
    }
    Ok(())
}

/// The reminders due at `now` that are not queued yet: for each awaited
/// player without stored orders and with an address, the offsets whose
/// instant has come and is not before the turn began.
///
/// Long (about 85 lines): one loop over the awaited players, each step (the
/// offsets due, a reminder queued before found again, the mail queued, the
/// record, the log line) using the ones before.
fn remind(w: &Writing, st: &mut GameState, cx: &Ctx, done: &mut Vec<Done>) -> Result<()> {
    let Ctx {
        dir,
        now,
        now_t,
        cfg,
        log,
        ..
    } = *cx;
    let g = &w.game;
    let head = g.head();
    let Some(deadline) = head.deadline.clone() else {
        return Ok(());
    };
    let Some(due_t) = seconds(&deadline) else {
        return Ok(());
    };
    if now_t >= due_t {
        return Ok(());
    }
    let began = turn_began(g).as_deref().and_then(seconds);
    let listed = stored(dir, head.turn);
    for (seat, p) in head.players.iter().enumerate() {
        if !head.awaiting.contains(&p.id) || listed.contains(&p.id) {
            continue;
        }
        let Some(to) = p.email.clone() else { continue };
        let sent = |off: u64| {
            st.reminders.iter().any(|r| {
                r.turn == head.turn && r.deadline == deadline && r.offset == off && r.player == p.id
            })
        };
        // Offsets come due in order (largest first); those already due
        // and not yet sent go out as one mail, named after the nearest.
        let due: Vec<u64> = offsets(cfg)
            .into_iter()
            .filter(|&off| {
                let at = due_t - off as i64;
                at <= now_t && began.is_none_or(|b| at >= b) && !sent(off)
            })
            .collect();
        let Some(&nearest) = due.last() else { continue };
        // A run cut short after queueing a reminder and before recording
        // it finds that mail in the outbox: it is recorded, not doubled.
        let outbox = dir.outbox_dir();
        let queued = due.iter().copied().find(|&off| {
            let mid = reminder_id(head, &deadline, off, &p.id);
            crate::store::outbox::is_queued(&outbox, &mid)
                || crate::store::outbox::was_sent(&outbox, &mid).unwrap_or(false)
        });
        let off = queued.unwrap_or(nearest);
        let message_id = reminder_id(head, &deadline, off, &p.id);
        if queued.is_none() {
            queue_reminder(g, seat, &to, &deadline, due_t, &message_id, cx)?;
        }
        for o in due {
            st.reminders.push(ReminderSent {
                turn: head.turn,
                deadline: deadline.clone(),
                offset: o,
                player: p.id.clone(),
                message_id: format!("<{message_id}>"),
                at: now.to_string(),
            });
        }
        log.line(
            "due",
            "reminder",
            &[
                ("game", &head.id),
                ("player", &p.id),
                ("to", &to),
                ("message-id", &format!("<{message_id}>")),
                ("turn", &head.turn.to_string()),
                ("before", &crate::time::span_shown(off)),
            ],
        );
        done.push(Done::Reminded {
            player: p.id.clone(),
            turn: head.turn,
        });
    }
    Ok(())
}

/// Queue the reminder `message_id` to `to`, the player of `seat`.
fn queue_reminder(
    g: &Loaded,
    seat: usize,
    to: &str,
    deadline: &str,
    due_t: i64,
    message_id: &str,
    cx: &Ctx,
) -> Result<()> {
    let Ctx {
        now, now_t, cfg, ..
    } = *cx;
    let head = g.head();
    let outbox = cx.dir.outbox_dir();
    let mail = eml::Mail {
        from: cfg.address.for_game(&head.id),
        to: to.to_string(),
        subject: format!(
            "[{}] {}: reminder, your orders for turn {} are due {}",
            head.id,
            g.entry.title,
            head.turn,
            crate::time::shown(deadline)
        ),
        date: now.to_string(),
        message_id: message_id.to_string(),
        in_reply_to: None,
        text: reminder_text(g, seat, deadline, due_t - now_t, cfg)?,
        attachments: Vec::new(),
    };
    crate::store::outbox::queue(&outbox, message_id, &eml::build(&mail))?;
    Ok(())
}

fn reminder_id(head: &crate::chain::Head, deadline: &str, offset: u64, player: &str) -> String {
    eml::message_id(
        &head.id,
        &[
            "reminder",
            &head.turn.to_string(),
            deadline,
            &offset.to_string(),
            player,
        ],
    )
}

/// The reminder's text: what is missing, the deadline, what happens
/// without orders, where to send them, and the blank order form.
fn reminder_text(
    g: &Loaded,
    seat: usize,
    deadline: &str,
    left: i64,
    cfg: &HostConfig,
) -> Result<String> {
    let head = g.head();
    let you = &head.players[seat].id;
    let policy = pipeline::nmr::policy(head, g.entry).name();
    let form = pipeline::render::form(g, seat)?;
    Ok(format!(
        "{title} — game {id}, turn {turn} ({phase})\n\n\
         A reminder: herald has no orders from you ({you}) for turn {turn} yet.\n\
         The deadline is {deadline} (in {left}).\n\
         Without orders by then, the missed-order policy `{policy}` plays for you.\n\n\
         Send your orders to {to} (a reply to this mail goes there): the\n\
         order file below, filled in, as the mail's text or attached. Your\n\
         last report's ORDERS section is the same form.\n\n\
         ----- BLANK ORDER FORM\n{form}",
        title = g.entry.title,
        id = head.id,
        turn = head.turn,
        phase = head.phase,
        deadline = crate::time::shown(deadline),
        left = crate::time::span_shown(left.max(0) as u64),
        to = cfg.address.for_game(&head.id),
    ))
}

/// The configured reminder offsets, largest first, each once.
fn offsets(cfg: &HostConfig) -> Vec<u64> {
    let mut o = cfg.reminders.clone();
    o.sort_unstable_by(|a, b| b.cmp(a));
    o.dedup();
    o
}

/// When the current turn began: the last entry that resolved a phase (or
/// the game's creation), or a later change of the deadline.
fn turn_began(g: &Loaded) -> Option<String> {
    let mut began: Option<String> = None;
    for e in g.record.entries.iter().rev() {
        let at = match e.decode() {
            Ok(Body::Phase(p)) => Some(p.resolved_at),
            Ok(Body::Genesis(gen)) => Some(gen.created),
            Ok(Body::Deadline(d)) => {
                if began.is_none() {
                    began = Some(d.at);
                }
                continue;
            }
            _ => continue,
        };
        return match (began, at) {
            (Some(b), Some(a)) => Some(if seconds(&b) >= seconds(&a) { b } else { a }),
            (b, a) => a.or(b),
        };
    }
    began.or_else(|| Some(g.head().created.clone()))
}

/// The next instant something is due by time alone.
fn next_wake(
    g: &Loaded,
    st: &GameState,
    listed: &[String],
    now_t: i64,
    cfg: &HostConfig,
) -> Option<i64> {
    let head = g.head();
    if head.outcome.is_some() {
        return None;
    }
    let deadline = head.deadline.as_deref()?;
    let due_t = seconds(deadline)?;
    let began = turn_began(g).as_deref().and_then(seconds);
    let mut wake = due_t;
    for p in &head.players {
        if !head.awaiting.contains(&p.id) || listed.contains(&p.id) || p.email.is_none() {
            continue;
        }
        for off in offsets(cfg) {
            let at = due_t - off as i64;
            let sent = st.reminders.iter().any(|r| {
                r.turn == head.turn && r.deadline == deadline && r.offset == off && r.player == p.id
            });
            if !sent && at > now_t && began.is_none_or(|b| at >= b) {
                wake = wake.min(at);
            }
        }
    }
    Some(wake)
}

/// Record a failure: logged, and kept for the status page; tried again
/// after [`RETRY_SECS`] or when the folder changes.
fn fail(st: &mut GameState, id: &Name, e: &Error, now_t: i64, log: &Log) {
    let msg = e.problems.join("; ");
    log.line("due", "failure", &[("game", id.as_str()), ("error", &msg)]);
    st.due_problem = Some(msg);
    // Something still due later keeps its time; what is due now (the
    // thing that failed) waits for the retry.
    let retry = now_t + RETRY_SECS;
    st.wake = Some(match st.wake {
        Some(w) if w > now_t => w.min(retry),
        _ => retry,
    });
}

/// The game's summary for the status page and the idle check.
fn summary(g: &Loaded, listed: &[String]) -> Summary {
    let h = g.head();
    Summary {
        id: h.id.clone(),
        game: g.entry.name.to_string(),
        title: g.entry.title.to_string(),
        turn: h.turn,
        phase: h.phase.clone(),
        deadline: h.deadline.clone(),
        awaiting: h.awaiting.clone(),
        missing: h
            .awaiting
            .iter()
            .filter(|p| !listed.contains(p) && g.genesis.bot(p).is_none())
            .cloned()
            .collect(),
        outcome: h.outcome.as_ref().map(|o| o.summary.clone()),
        turn_began: turn_began(g),
        players: h.player_ids(),
    }
}

/// The players whose orders are stored for `turn`: the names in
/// `orders/turn-NNNN/` (a missing folder: none).
pub fn stored(dir: &GameDir, turn: u32) -> Vec<String> {
    let Ok(list) = std::fs::read_dir(dir.orders_dir(turn)) else {
        return Vec::new();
    };
    let mut out: Vec<String> = list
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().into_string().ok()?;
            let stem = n.strip_suffix(".json")?;
            (!n.starts_with('.')).then(|| stem.to_string())
        })
        .collect();
    out.sort();
    out
}

fn stamp(path: &Path) -> Option<FileStamp> {
    let m = std::fs::metadata(path).ok()?;
    Some(FileStamp {
        dev: m.dev(),
        ino: m.ino(),
        len: m.len(),
        mtime: m.mtime(),
        mtime_ns: m.mtime_nsec(),
    })
}

fn fingerprint(dir: &GameDir, turn: u32, cfg: &HostConfig) -> Option<Fingerprint> {
    Some(Fingerprint {
        game_file: stamp(&dir.game_file())?,
        turn,
        orders: stored(dir, turn),
        reminders: offsets(cfg),
    })
}

/// Nothing changed since the last pass and nothing is due yet: the game
/// file is the same file (same inode, size and time: every commit renames
/// a new file into place), the same players' orders are stored, the
/// reminder settings are the same, and `wake` has not come.
fn is_idle(st: &GameState, dir: &GameDir, now_t: i64, cfg: &HostConfig) -> bool {
    let Some(fp) = &st.fingerprint else {
        return false;
    };
    if st.wake.is_some_and(|w| now_t >= w) {
        return false;
    }
    fingerprint(dir, fp.turn, cfg).as_ref() == Some(fp)
}

/// An RFC 3339 time in Unix seconds.
fn seconds(t: &str) -> Option<i64> {
    chrono::DateTime::parse_from_rfc3339(t)
        .ok()
        .map(|d| d.timestamp())
}
