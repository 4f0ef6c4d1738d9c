//! One pass of `herald host DIR` (docs/host.md, "The pass"), run while
//! the caller holds the host's lock (`DIR/host.lock`: one host per folder):
//!
//! 1. list DIR's game folders (no lock);
//! 2. mail in: fetch every pending mail, route it, hand it to its game
//!    (the game's lock, the per-mail code shared with `herald inbox`,
//!    commands, the budget of password checks, `state.last_in`), or answer
//!    it from `DIR/outbox/` when it is for no game; then mark it handled on
//!    the server;
//! 3. game time: `due::run` for every game, in parallel;
//! 4. mail out: `DIR/outbox/`, then the games' `outbox/` folders shared
//!    among a few SMTP connections ([`SENDERS`]), each game's whole on
//!    one; `state.last_out` and refusals recorded;
//! 5. the gallery of finished games (`DIR/gallery/`) and the status page.
//!
//! Nothing is lost: a mail is marked handled only after what it produced
//! is on disk, and the content hash in the game's `inbox/seen` (or
//! `DIR/state/seen`) makes a mail seen again after a crash a no-op, which
//! is then marked. A busy game (another herald holds its lock past
//! `--wait`) keeps its mails for the next pass.

use super::commands::{self, Asked};
use super::config::HostConfig;
use super::due::{self, Done};
use super::layout::HostDir;
use super::log::Log;
use super::outbox::{self, Labels};
use super::route::{self, Route};
use super::sender::Sender;
use super::smtp::Smtp;
use super::source::{self, Fetched, MailId};
use super::state::{GameState, MailNote};
use super::Failure;
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Kind, Result};
use crate::mail::eml;
use crate::names::Name;
use crate::pipeline::inbox::{self, Fate};
use crate::pipeline::Writing;
use crate::requests::bound::{Bound, Grant};
use crate::requests::guard::{Budget, Tries, Whose, HOUR};
use crate::requests::orders::{self, Orders};
use crate::requests::{Answer, Carrier, Claim, Door, Held, Requester};
use crate::store::GameDir;
use mail_parser::MessageParser;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How many mails are fetched before they are handled and marked: bounds
/// the memory a pass holds (each at most `max_mail_bytes`).
const BATCH: usize = 64;

/// What one pass did.
#[derive(Debug, Clone, Default)]
pub struct PassReport {
    pub games: usize,
    /// Mails read from the source and handled (answered or ignored).
    pub mails: usize,
    /// Of those, order files accepted.
    pub accepted: usize,
    pub refused: usize,
    pub commands: usize,
    /// Press mails relayed.
    pub press: usize,
    pub no_game: usize,
    pub ignored: usize,
    /// Already handled before (a pass cut short): only marked now.
    pub already: usize,
    /// Left for the next pass: their game was busy, or the pass stopped.
    pub left: usize,
    /// What game time did, and every resolution found ("g1: resolved turn
    /// 3 early", "g1: resolved turn 4 (completed after an interrupted
    /// pass)").
    pub game_time: Vec<String>,
    pub sent: usize,
    pub refused_out: usize,
    pub deferred: usize,
    /// Host-wide problems (a server down, a refused password): the exit
    /// status is non-zero when there is any.
    pub host_problems: Vec<String>,
    /// One of them is the configuration's (a refused password, a
    /// certificate): nothing works until the moderator fixes it.
    pub config_failure: bool,
    /// Per-game problems met in this pass (also in each game's state).
    pub game_problems: Vec<String>,
    /// The pass stopped early on SIGTERM/SIGINT.
    pub stopped: bool,
}

/// The pass's inputs.
pub struct Pass<'a> {
    pub cfg: &'a HostConfig,
    pub log: &'a Log,
    /// RFC 3339.
    pub now: String,
    /// `now` in Unix seconds.
    pub now_secs: i64,
    pub wait: Duration,
    /// Set by SIGTERM/SIGINT: finish the current mail, then stop.
    pub stop: &'a AtomicBool,
}

impl Pass<'_> {
    fn host(&self) -> HostDir {
        HostDir::at(&self.cfg.dir)
    }
    fn game(&self, g: &Name) -> GameDir {
        self.host().game(g)
    }
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

pub use super::route::list_games;

/// One fetched mail, waiting to be handled.
struct Item {
    id: MailId,
    bytes: Vec<u8>,
    too_big: bool,
}

/// What became of one mail in its game.
enum MailFate {
    /// On disk (or nothing to do): mark it handled.
    Done(Counted),
    /// Not handled (the game busy, the pass stopping, an error): keep it.
    Left,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Counted {
    Accepted,
    Refused,
    Command,
    Press,
    Already,
    NoGame,
    Ignored,
}

/// Run one pass.
pub fn run(p: &Pass) -> PassReport {
    p.log.set_time(p.now_secs);
    let mut r = PassReport::default();
    let (games, listing_problems) = list_games(&p.cfg.dir);
    r.games = games.len();
    r.host_problems.extend(listing_problems.iter().cloned());
    // The bound on replies to one address, for the whole pass.
    let bound = Bound::open(
        &p.host().reply_bound(),
        p.cfg.trust.replies_per_hour,
        p.now_secs,
    );
    mail_in(p, &games, &bound, &mut r);
    tell_bound(p, &bound);
    if let Err(e) = bound.settle() {
        let msg = format!("the record of replies: {e}");
        p.log.line("host", "failure", &[("error", &msg)]);
        r.host_problems.push(msg);
    }
    if p.stopping() {
        r.stopped = true;
        return r;
    }
    // The lobby's tables that are due become games, which this pass's
    // game time and mail out then serve.
    let games = match lobby_time(p, &mut r) {
        true => {
            let (games, _) = list_games(&p.cfg.dir);
            r.games = games.len();
            games
        }
        false => games,
    };
    game_time(p, &games, &mut r);
    if p.stopping() {
        r.stopped = true;
        return r;
    }
    mail_out(p, &games, &mut r);
    status_page(p, &games, &bound, &mut r);
    r
}

/// Mail out alone (`herald send --host DIR`): the host's outbox and
/// every game's sent as a pass sends them (and the status page, which
/// shows what was refused), nothing read, resolved or opened.
pub fn mail_out_only(p: &Pass) -> PassReport {
    p.log.set_time(p.now_secs);
    let mut r = PassReport::default();
    let (games, listing_problems) = list_games(&p.cfg.dir);
    r.games = games.len();
    r.host_problems.extend(listing_problems);
    mail_out(p, &games, &mut r);
    // Nothing is read, so nothing is answered: the bound only shows on
    // the status page what it holds back this hour.
    let bound = Bound::open(
        &p.host().reply_bound(),
        p.cfg.trust.replies_per_hour,
        p.now_secs,
    );
    status_page(p, &games, &bound, &mut r);
    r
}

/// The addresses first held back by the bound on replies in this pass,
/// each a log line (the status page lists every address held back in the
/// last hour).
fn tell_bound(p: &Pass, bound: &Bound) {
    for h in bound.take_new() {
        p.log.line(
            "in",
            "bound",
            &[
                ("to", &h.address),
                ("held", &h.held.to_string()),
                ("per-hour", &bound.per_hour().to_string()),
                (
                    "what",
                    "replies to this address held back for the rest of the hour (host.toml: replies_per_hour)",
                ),
            ],
        );
    }
}

/// The lobby's records held for this pass's change of them: `herald
/// serve` changes them too (a join on a page), each under this lock.
fn lobby_lock(p: &Pass) -> Result<crate::store::lock::Lock> {
    let host = p.host();
    crate::store::write::create_dir(&host.state())?;
    crate::store::lock::Lock::acquire_for(&host.lobby_lock(), p.wait, |pid, waited| {
        format!("the lobby is busy (pid {pid}): `herald serve` is changing it (waited {waited} s)")
    })
}

/// The lobby's clock (`lobby::start::tick`); whether a game was made.
fn lobby_time(p: &Pass, r: &mut PassReport) -> bool {
    let address = |g: &str| p.cfg.address.for_game(g);
    let Ok(now_time) = crate::time::parse_time(&p.now) else {
        return false;
    };
    let _lobby = match lobby_lock(p) {
        Ok(l) => l,
        Err(e) => {
            let msg = format!("the lobby's clock: {e}");
            p.log.line("lobby", "failure", &[("error", &msg)]);
            r.host_problems.push(msg);
            return false;
        }
    };
    // Tables the moderator wrote as files (lobby/open/) are opened first.
    let (lines, problems) = super::lobby::from_file::pick_up(&p.host(), &p.now);
    for l in &lines {
        p.log.line("lobby", "opened", &[("what", l.as_str())]);
    }
    for e in &problems {
        p.log.line("lobby", "failure", &[("error", e.as_str())]);
    }
    r.host_problems.extend(problems);
    r.game_time.extend(lines);
    let (lines, problems) = super::lobby::start::tick(&super::lobby::start::Clock {
        host: p.host(),
        from: p.cfg.address.plain(),
        game_address: &address,
        moderator: p.cfg.moderator.clone(),
        now: p.now.clone(),
        now_time,
    });
    for l in &lines {
        p.log.line("lobby", "table", &[("what", l.as_str())]);
    }
    for e in &problems {
        p.log.line("lobby", "failure", &[("error", e.as_str())]);
    }
    r.host_problems.extend(problems);
    let made = !lines.is_empty();
    r.game_time.extend(lines);
    // Seats offered for takeover: the standby list told, granted seats
    // handed over.
    let (lines, problems) = super::lobby::seats::tick(&super::lobby::seats::Clock {
        host: p.host(),
        from: p.cfg.address.plain(),
        game_address: &address,
        now: p.now.clone(),
        wait: p.wait,
        seats_per_address: p.cfg.trust.seats_per_address,
        mail: crate::pipeline::derived::MailForm {
            png: p.cfg.attach_png,
            web: p.cfg.web_url.clone(),
        },
    });
    for l in &lines {
        p.log.line("lobby", "seat", &[("what", l.as_str())]);
    }
    for e in &problems {
        p.log.line("lobby", "failure", &[("error", e.as_str())]);
    }
    r.host_problems.extend(problems);
    r.game_time.extend(lines);
    made
}

fn status_page(p: &Pass, games: &[Name], bound: &Bound, r: &mut PassReport) {
    // the gallery first, so the status page names what went wrong in it
    super::gallery::after_pass(&p.cfg.dir, p.cfg.public_mode, &mut r.host_problems);
    let states: Vec<(Name, GameState)> = games
        .iter()
        .map(|g| {
            let s = GameState::load(&p.cfg.dir, g).unwrap_or_else(|e| GameState {
                problems: vec![e.to_string()],
                ..GameState::default()
            });
            (g.clone(), s)
        })
        .collect();
    let held = super::status_page::Held {
        per_hour: bound.per_hour(),
        addresses: bound.held(),
    };
    if let Err(e) = super::status_page::write_with(
        &p.cfg.dir,
        &p.cfg.address.plain(),
        &states,
        &r.host_problems,
        &held,
        &p.now,
        p.cfg.public_mode,
    ) {
        let msg = format!("the status page: {e}");
        p.log.line("host", "failure", &[("error", &msg)]);
        r.host_problems.push(msg);
    }
}

fn host_failure(p: &Pass, r: &mut PassReport, what: &str, f: &Failure) {
    let msg = format!("{what}: {f}");
    p.log.line(
        "host",
        "failure",
        &[("what", what), ("kind", f.kind()), ("error", f.message())],
    );
    r.config_failure |= matches!(f, Failure::Config(_));
    r.host_problems.push(msg);
}

fn mail_in(p: &Pass, games: &[Name], bound: &Bound, r: &mut PassReport) {
    let mut src = match source::open(&p.cfg.source) {
        Ok(s) => s,
        Err(f) => return host_failure(p, r, "mail in", &f),
    };
    let pending = match src.pending() {
        Ok(v) => v,
        Err(f) => {
            host_failure(p, r, &format!("mail in ({})", src.describe()), &f);
            src.close();
            return;
        }
    };
    let known: BTreeSet<&str> = games.iter().map(Name::as_str).collect();
    'batches: for chunk in pending.chunks(BATCH) {
        let mut items = Vec::new();
        for id in chunk {
            if p.stopping() {
                break;
            }
            match src.fetch(id, p.cfg.max_mail_bytes) {
                Ok(Fetched::Mail(bytes)) => items.push(Item {
                    id: id.clone(),
                    bytes,
                    too_big: false,
                }),
                Ok(Fetched::TooBig { head, .. }) => items.push(Item {
                    id: id.clone(),
                    bytes: head,
                    too_big: true,
                }),
                Ok(Fetched::Gone) => {}
                Err(f) => {
                    host_failure(p, r, &format!("mail in ({})", src.describe()), &f);
                    break;
                }
            }
        }
        let fetched = items.len();
        let (outcomes, lines) = handle_batch(p, &known, bound, items);
        r.game_time.extend(lines);
        for (id, o) in outcomes {
            match o {
                MailFate::Left => r.left += 1,
                MailFate::Done(c) => {
                    if let Err(f) = src.mark_handled(&id) {
                        host_failure(p, r, &format!("marking {id} handled"), &f);
                        break 'batches;
                    }
                    r.mails += 1;
                    match c {
                        Counted::Accepted => r.accepted += 1,
                        Counted::Refused => r.refused += 1,
                        Counted::Command => r.commands += 1,
                        Counted::Press => r.press += 1,
                        Counted::Already => r.already += 1,
                        Counted::NoGame => r.no_game += 1,
                        Counted::Ignored => r.ignored += 1,
                    }
                }
            }
        }
        if fetched < chunk.len() || p.stopping() {
            break;
        }
    }
    src.close();
}

/// Route a batch, hand each game its mails (games in parallel), answer
/// mail for no game. Returns each mail's outcome, and the lines of
/// resolutions found on opening the games.
fn handle_batch(
    p: &Pass,
    known: &BTreeSet<&str>,
    bound: &Bound,
    items: Vec<Item>,
) -> (Vec<(MailId, MailFate)>, Vec<String>) {
    let parser = MessageParser::default();
    let mut by_game: BTreeMap<Name, Vec<Item>> = BTreeMap::new();
    let mut no_game = Vec::new();
    let mut out = Vec::new();
    for it in items {
        let route = match parser.parse(&it.bytes) {
            Some(m) => route::route(&m, &p.cfg.address, &p.cfg.dir),
            None => Route::Ignore {
                why: "not a mail message (no header)".into(),
            },
        };
        match route {
            Route::Game(g) if known.contains(g.as_str()) => by_game.entry(g).or_default().push(it),
            // A game made since the listing: next pass.
            Route::Game(_) => out.push((it.id, MailFate::Left)),
            Route::NoGame { tag } => no_game.push((it, tag)),
            Route::Ignore { why } => {
                let m = parser.parse(&it.bytes);
                let from = inbox::sender(m.as_ref());
                let mid = m
                    .as_ref()
                    .and_then(|m| m.message_id())
                    .unwrap_or("")
                    .to_string();
                p.log.line(
                    "in",
                    "ignored",
                    &[("from", &from), ("message-id", &mid), ("why", &why)],
                );
                out.push((it.id, MailFate::Done(Counted::Ignored)));
            }
        }
    }
    let groups: Vec<(Name, Vec<Item>)> = by_game.into_iter().collect();
    let results: Vec<GameMail> = groups
        .into_par_iter()
        .map(|(g, items)| handle_game(p, &g, bound, items))
        .collect();
    let mut lines = Vec::new();
    for g in results {
        out.extend(g.outcomes);
        lines.extend(g.lines);
    }
    if !no_game.is_empty() {
        out.extend(answer_all_no_game(p, bound, no_game));
    }
    (out, lines)
}

/// What one game's mails came to.
struct GameMail {
    outcomes: Vec<(MailId, MailFate)>,
    /// Resolutions found on opening ("g1: resolved turn 4 (…)").
    lines: Vec<String>,
}

/// Handle one game's mails under its lock: open it (completing and logging
/// what an interrupted pass left), then each mail in order, with the
/// game's budget of password checks; tell the moderator of a flood; save
/// the host's state of the game.
fn handle_game(p: &Pass, game: &Name, bound: &Bound, items: Vec<Item>) -> GameMail {
    let left = |items: Vec<Item>| GameMail {
        outcomes: items.into_iter().map(|i| (i.id, MailFate::Left)).collect(),
        lines: Vec::new(),
    };
    let Some(mut w) = open_game(p, game) else {
        return left(items);
    };
    let dir = &p.cfg.dir;
    let mut st = GameState::load(dir, game).unwrap_or_default();
    let before = st.clone();
    let lines: Vec<String> = match due::account(&mut w, &mut st, &p.now, p.log) {
        Ok(done) => done
            .iter()
            .map(|d| format!("{game}: {}", d.text()))
            .collect(),
        Err(e) => {
            failed(p, game, &mut st, &e);
            let _ = st.save(dir, game);
            return left(items);
        }
    };
    let mut done = match crate::store::seen::read(&w.store.dir) {
        Ok(d) => d,
        Err(e) => {
            failed(p, game, &mut st, &e);
            let _ = st.save(dir, game);
            return GameMail {
                outcomes: left(items).outcomes,
                lines,
            };
        }
    };
    let budget = Budget::new(
        p.cfg.password_checks_per_hour,
        p.now_secs,
        &w.game.head().players,
        &mut st.guard,
        &mut st.refusals_to,
    );
    let gate = Gate {
        door: Door {
            budget: &budget,
            bound,
        },
        reply_from: p.cfg.address.for_game(game.as_str()),
    };
    let mut outcomes = Vec::new();
    for it in in_order(&w, items) {
        let o = if p.stopping() {
            MailFate::Left
        } else {
            handle_mail(p, &mut w, game, &mut done, &gate, &mut st, &it)
        };
        outcomes.push((it.id, o));
    }
    tell_moderator(p, &w, game, &budget, &mut st);
    (st.guard, st.refusals_to) = budget.into_counts();
    if st != before {
        if let Err(e) = st.save(dir, game) {
            p.log.line(
                "in",
                "failure",
                &[("game", game.as_str()), ("error", &e.to_string())],
            );
        }
    }
    GameMail { outcomes, lines }
}

/// The game opened to write, or `None` (busy, or it does not open: logged
/// and, unless busy, noted on the status page).
fn open_game(p: &Pass, game: &Name) -> Option<Writing> {
    // Report mails a cut-short command left undone are completed as
    // due::run builds them (with the PNG unless host.toml says not).
    let form = crate::pipeline::derived::MailForm {
        png: p.cfg.attach_png,
        web: p.cfg.web_url.clone(),
    };
    match crate::pipeline::open_to_write_with(p.game(game).root(), p.wait, &p.now, form) {
        Ok(w) => Some(w),
        Err(e) => {
            let event = if e.kind == Kind::Busy {
                "busy"
            } else {
                "failure"
            };
            p.log.line(
                "in",
                event,
                &[("game", game.as_str()), ("error", &e.to_string())],
            );
            if e.kind != Kind::Busy {
                note_problem(p, game, &format!("mail in: {e}"));
            }
            None
        }
    }
}

fn failed(p: &Pass, game: &Name, st: &mut GameState, e: &Error) {
    let msg = format!("mail in: {e}");
    p.log
        .line("in", "failure", &[("game", game.as_str()), ("error", &msg)]);
    if !st.problems.contains(&msg) {
        st.problems.push(msg);
    }
}

/// The order a game's mails are handled in: those From a player's own
/// address first (never held up behind a flood from elsewhere), then the
/// rest; each group by its `Date` (a later file replaces an earlier one
/// by that date whatever the order), then by id.
fn in_order(w: &Writing, items: Vec<Item>) -> Vec<Item> {
    let parser = MessageParser::default();
    let own: BTreeSet<String> = w
        .game
        .head()
        .players
        .iter()
        .filter_map(|p| Some(p.email.as_ref()?.to_ascii_lowercase()))
        .collect();
    let mut keyed: Vec<(bool, i64, Item)> = items
        .into_iter()
        .map(|it| {
            let m = parser.parse(&it.bytes);
            let from = inbox::sender(m.as_ref()).to_ascii_lowercase();
            let date = m
                .and_then(|m| m.date().map(|d| d.to_timestamp()))
                .unwrap_or(i64::MAX);
            (!own.contains(&from), date, it)
        })
        .collect();
    keyed.sort_by(|a, b| {
        (a.0, a.1)
            .cmp(&(b.0, b.1))
            .then_with(|| a.2.id.cmp(&b.2.id))
    });
    keyed.into_iter().map(|(_, _, it)| it).collect()
}

/// What one mail to a game came to, for the log and the state.
struct Handled {
    counted: Counted,
    /// The log's event: accepted, refused, throttled, command, already.
    event: &'static str,
    what: String,
    message_id: String,
    player: Option<String>,
    /// Anonymous press: the sender is not noted on the status page.
    anonymous: bool,
}

/// What stands between one game's mails and the hashing and the replies
/// they would cost: the door (the game's budget of password checks, and
/// the host's bound on replies to one address), and the From of replies.
struct Gate<'a> {
    door: Door<'a>,
    reply_from: String,
}

/// Why a reply was not sent, for the log.
fn held_words(h: Held) -> &'static str {
    match h {
        Held::Hourly => "not answered: one refusal an hour to an address",
        Held::Bound => "not answered: the bound of replies an hour to this address is reached",
    }
}

/// Who sent a mail, as far as the host believes (`host::sender`): a mail
/// with several From addresses is vouched for by no one (DMARC judges a
/// mail with one author).
fn sender_of(p: &Pass, m: Option<&mail_parser::Message>, raw: &[u8], from: &str) -> Sender {
    let authors = m.and_then(|m| m.from()).map_or(0, |a| a.iter().count());
    let trusted: &[String] = if authors == 1 {
        &p.cfg.trust.authserv_ids
    } else {
        &[]
    };
    Sender::of(raw, from, trusted)
}

/// Handle one mail to an open game: orders (`inbox::handle_one`, shared
/// with `herald inbox`) or a command; then log it and note it in the state.
/// Its passwords are checked through the game's budget as the host
/// believes its sender (`host::sender`), and a reply that no password of
/// the mail earned is sent only within the host's bound on replies.
fn handle_mail(
    p: &Pass,
    w: &mut Writing,
    game: &Name,
    done: &mut BTreeSet<String>,
    gate: &Gate,
    st: &mut GameState,
    it: &Item,
) -> MailFate {
    let m = MessageParser::default().parse(&it.bytes);
    let from = inbox::sender(m.as_ref());
    let digest = sha256_hex(&it.bytes);
    let sender = sender_of(p, m.as_ref(), &it.bytes, &from);
    let by = Requester::Anyone(Claim {
        address: from.clone(),
        vouched: sender.vouched(),
    });
    let carrier = Carrier {
        id: m
            .as_ref()
            .and_then(|m| m.message_id())
            .map(str::to_string)
            .unwrap_or_else(|| format!("sha256:{digest}")),
        digest,
    };
    let mail = Mail {
        it,
        m: m.as_ref(),
        from: &from,
        carrier: &carrier,
        by: &by,
    };
    match dispatch(p, w, done, gate, &mail) {
        Ok(h) => handled(p, game, &from, st, h),
        Err(e) => {
            let msg = format!("mail {} from {from}: {e}", it.id);
            p.log
                .line("in", "failure", &[("game", game.as_str()), ("error", &msg)]);
            st.problems.push(msg);
            MailFate::Left
        }
    }
}

/// One mail to a game, as the host reads it: the requester its From
/// makes (`host::sender` says how far it is believed) and its carrier.
struct Mail<'a> {
    it: &'a Item,
    m: Option<&'a mail_parser::Message<'a>>,
    from: &'a str,
    carrier: &'a Carrier,
    by: &'a Requester,
}

/// A mail handled: its log line, and the status page's note of the last
/// mail in (no sender or Message-ID for anonymous press).
fn handled(p: &Pass, game: &Name, from: &str, st: &mut GameState, h: Handled) -> MailFate {
    let mut fields = vec![("game", game.as_str()), ("from", from)];
    if let Some(pl) = &h.player {
        fields.push(("player", pl));
    }
    fields.push(("message-id", &h.message_id));
    fields.push(("what", &h.what));
    p.log.line("in", h.event, &fields);
    if h.counted != Counted::Already {
        st.last_in = Some(MailNote {
            at: p.now.clone(),
            // Whoever sent anonymous press is not on the status page.
            who: if h.anonymous {
                String::new()
            } else {
                from.to_string()
            },
            // Nor its Message-ID, which a mail program makes
            // from the sender's own address or machine.
            message_id: if h.anonymous {
                String::new()
            } else {
                h.message_id
            },
            what: h.what,
        });
    }
    MailFate::Done(h.counted)
}

/// One mail to a game handed to what it is: press, orders or a command.
/// Orders go through the door (`requests::orders`); a command and press
/// are still answered in the host, their passwords checked through the
/// same door's budget and their replies granted by it.
fn dispatch(
    p: &Pass,
    w: &mut Writing,
    done: &mut BTreeSet<String>,
    gate: &Gate,
    mail: &Mail,
) -> Result<Handled> {
    let (m, digest) = (mail.m, mail.carrier.digest.as_str());
    let fresh = matches!((m, mail.it.too_big), (Some(_), false)) && !done.contains(digest);
    let press = m.filter(|_| fresh).and_then(super::press::asked);
    let asked = match (m, fresh) {
        (Some(m), true) if press.is_none() => commands::asked(m),
        _ => Asked::Orders,
    };
    match (press, asked) {
        (Some(press), _) => press_mail(p, w, done, gate, mail, &press),
        (None, Asked::Orders) => orders_mail(p, w, done, gate, mail),
        (None, asked) => command_mail(p, w, done, gate, mail, &asked),
    }
}

/// Orders by mail: the mail made a request (its order file, or why it
/// holds none), the door's outcome answered by a reply mail queued in the
/// game's outbox, then the orders kept, then the mail recorded as read.
fn orders_mail(
    p: &Pass,
    w: &mut Writing,
    done: &mut BTreeSet<String>,
    gate: &Gate,
    mail: &Mail,
) -> Result<Handled> {
    let (from, c) = (mail.from, mail.carrier);
    let fate = if done.contains(&c.digest) {
        Fate::AlreadyRead
    } else {
        let req = Orders {
            file: inbox::submission(mail.m, mail.it.too_big, from, &c.id, &c.digest, &p.now),
            by: mail.by.clone(),
            carrier: c.clone(),
        };
        let mut out = orders::submit(w, &gate.door, &req, &p.now)?;
        let reply = match out.answer {
            Answer::Tell if !from.is_empty() => Some(inbox::queue_reply(
                w,
                inbox::Reply {
                    to: from,
                    subject: mail.m.and_then(|m| m.subject()),
                    in_reply_to: &c.id,
                    digest: &c.digest,
                    text: inbox::reply_words(w, &out.ruling, Some(commands::HELP)),
                    now: &p.now,
                    from: Some(&gate.reply_from),
                },
            )?),
            _ => None,
        };
        inbox::keep_or_take_back(w, out.take_keep(), reply.as_deref())?;
        crate::store::seen::add(&w.store.dir, &c.digest)?;
        done.insert(c.digest.clone());
        match out.answer {
            Answer::Held(h) => return Ok(orders_handled(&out.ruling.fate, c, Some(h))),
            Answer::Tell => out.ruling.fate,
        }
    };
    Ok(orders_handled(&fate, c, None))
}

/// What orders by mail came to, for the log and the state.
fn orders_handled(fate: &Fate, c: &Carrier, held: Option<Held>) -> Handled {
    let (counted, event, what, player) = match fate {
        Fate::Accepted { player, .. } => (
            Counted::Accepted,
            "accepted",
            format!("orders accepted for {player}"),
            Some(player.clone()),
        ),
        Fate::Superseded { player, .. } => (
            Counted::Refused,
            "refused",
            format!("orders of {player} older than those stored: not used"),
            Some(player.clone()),
        ),
        Fate::Refused { .. } => (Counted::Refused, "refused", "orders refused".into(), None),
        Fate::Throttled { player } => (
            Counted::Refused,
            "throttled",
            format!("not read: the password checks of {player} this hour are spent"),
            Some(player.clone()),
        ),
        Fate::AlreadyRead => (Counted::Already, "already", "already handled".into(), None),
    };
    let what = match held {
        Some(h) => format!("{what} ({})", held_words(h)),
        None => what,
    };
    Handled {
        counted,
        event,
        what,
        message_id: c.id.clone(),
        player,
        anonymous: false,
    }
}

/// A command by mail (`super::commands`): through the door, answered,
/// then recorded as read.
fn command_mail(
    p: &Pass,
    w: &mut Writing,
    done: &mut BTreeSet<String>,
    gate: &Gate,
    mail: &Mail,
    asked: &Asked,
) -> Result<Handled> {
    let asking = commands::Asking {
        claim: mail.by.claim(),
        carrier: mail.carrier,
        now: &p.now,
        reply_from: &gate.reply_from,
    };
    let ans = commands::answer(w, asked, &asking, &gate.door)?;
    let digest = &mail.carrier.digest;
    crate::store::seen::add(&w.store.dir, digest)?;
    done.insert(digest.to_string());
    let what = match ans.held {
        Some(h) => format!("{} ({})", ans.what, held_words(h)),
        None => ans.what,
    };
    Ok(Handled {
        counted: Counted::Command,
        event: if ans.throttled {
            "throttled"
        } else {
            "command"
        },
        what,
        message_id: mail.carrier.id.clone(),
        player: ans.player,
        anonymous: false,
    })
}

/// A press mail (`super::press`): through the door, relayed or refused,
/// then recorded as read.
fn press_mail(
    p: &Pass,
    w: &mut Writing,
    done: &mut BTreeSet<String>,
    gate: &Gate,
    mail: &Mail,
    asked: &super::press::Asked,
) -> Result<Handled> {
    let asking = super::press::Asking {
        claim: mail.by.claim(),
        carrier: mail.carrier,
        now: &p.now,
        game_addr: &gate.reply_from,
        limits: super::press::Limits {
            per_day: p.cfg.press_per_day,
            max_bytes: p.cfg.press_max_bytes,
        },
    };
    let ans = super::press::answer(w, asked, &asking, &gate.door)?;
    let (digest, id) = (&mail.carrier.digest, &mail.carrier.id);
    crate::store::seen::add(&w.store.dir, digest)?;
    done.insert(digest.to_string());
    Ok(Handled {
        counted: match (ans.command, ans.ok) {
            (true, _) => Counted::Command,
            (false, true) => Counted::Press,
            (false, false) => Counted::Refused,
        },
        event: match (ans.command, ans.ok, ans.throttled) {
            (_, false, true) => "throttled",
            (true, _, _) => "command",
            (false, true, _) => "press",
            (false, false, _) => "refused",
        },
        what: match ans.held {
            Some(h) => format!("{} ({})", ans.what, held_words(h)),
            None => ans.what,
        },
        message_id: id.to_string(),
        player: ans.player,
        anonymous: ans.anonymous,
    })
}

/// Tell the moderator, once an hour per player, that a player's budget of
/// password checks is spent: a log line, a problem on the status page,
/// and a mail to host.toml's `moderator` if it names one.
fn tell_moderator(p: &Pass, w: &Writing, game: &Name, budget: &Budget, st: &mut GameState) {
    for flood in budget.take_floods() {
        let (player, checks) = (flood.player.clone(), flood.checks);
        let whose = match flood.claim {
            Whose::Other => format!("from other addresses than {player}'s own"),
            Whose::Own => format!(
                "from mails whose From is {player}'s own address (a From anyone can write; the host's mail server did not vouch for them)"
            ),
        };
        let which = match flood.claim {
            Whose::Other => "from other addresses",
            Whose::Own => "From that address that the host's mail server does not vouch for",
        };
        let msg = format!(
            "{checks} password checks for {player} in the last hour {whose}: someone may be guessing; mails for {player} {which} are not read until the hour is over (host.toml: password_checks_per_hour = {})",
            p.cfg.password_checks_per_hour
        );
        p.log.line(
            "in",
            "flood",
            &[
                ("game", game.as_str()),
                ("player", &player),
                ("checks", &checks.to_string()),
                (
                    "from",
                    match flood.claim {
                        Whose::Own => "own address",
                        Whose::Other => "other addresses",
                    },
                ),
            ],
        );
        st.problems.retain(|x| {
            !(x.contains(&format!("checks for {player} in the last hour")) && x.contains(&whose))
        });
        st.problems.push(msg.clone());
        let Some(to) = &p.cfg.moderator else { continue };
        let hour = (p.now_secs / HOUR).to_string();
        let kind = match flood.claim {
            Whose::Other => "other",
            Whose::Own => "own",
        };
        let message_id = eml::message_id(game.as_str(), &["flood", &player, &hour, kind]);
        let mail = eml::Mail {
            from: p.cfg.address.for_game(game.as_str()),
            to: to.clone(),
            subject: format!("[{game}] password guessing: {player}"),
            date: p.now.clone(),
            message_id: message_id.clone(),
            in_reply_to: None,
            text: format!(
                "herald host, game {game} ({}):\n\n{msg}.\n\n{} Nothing needs doing; if the guessing goes on, consider `herald passwd` for {player}.\n",
                w.game.entry.title,
                match flood.claim {
                    Whose::Other => format!("Mails from {player}'s own address are read as always."),
                    Whose::Own => format!("Mails from other addresses are read as always, and so are {player}'s own mails that the host's mail server vouches for (host.toml: authserv_ids)."),
                }
            ),
            attachments: Vec::new(),
        };
        if let Err(e) =
            crate::store::outbox::queue(&w.store.dir.outbox_dir(), &message_id, &eml::build(&mail))
        {
            p.log.line(
                "in",
                "failure",
                &[("game", game.as_str()), ("error", &e.to_string())],
            );
        }
    }
}

/// Add a problem to a game's state (best effort, under its lock if free).
fn note_problem(p: &Pass, game: &Name, msg: &str) {
    let dir = &p.cfg.dir;
    if let Ok(_l) =
        crate::store::lock::Lock::acquire(&p.game(game).lock(), game.as_str(), Duration::ZERO)
    {
        let mut s = GameState::load(dir, game).unwrap_or_default();
        if !s.problems.iter().any(|p| p == msg) {
            s.problems.push(msg.to_string());
            let _ = s.save(dir, game);
        }
    }
}

/// The last refusal sent to each address from the host's own outbox
/// (`DIR/state/replies`), those of the last hour.
fn read_replies(host: &HostDir, now: i64) -> BTreeMap<String, i64> {
    let mut m: BTreeMap<String, i64> = std::fs::read(host.replies())
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    m.retain(|_, t| *t > now - HOUR);
    m
}

/// The addresses of the players of every game here, lower-cased.
fn player_addresses(p: &Pass) -> BTreeSet<String> {
    let (games, _) = list_games(&p.cfg.dir);
    games
        .iter()
        .filter_map(|g| route::peek(p.game(g).root()))
        .flat_map(|h| h.players)
        .filter_map(|pl| Some(pl.email?.to_ascii_lowercase()))
        .collect()
}

/// Answer the mails for no game of a batch, each once (by content hash),
/// no address more than once an hour unless it is a player's of a game
/// here (a forged sender gets no flood of answers; a player who mistyped
/// the game's address is always told).
fn answer_all_no_game(
    p: &Pass,
    bound: &Bound,
    mails: Vec<(Item, Option<String>)>,
) -> Vec<(MailId, MailFate)> {
    let host = p.host();
    let tries = std::fs::read(host.code_tries())
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let mut gate = NoGame {
        bound,
        replies: read_replies(&host, p.now_secs),
        players: player_addresses(p),
        tries: Tries::new(p.cfg.password_checks_per_hour, p.now_secs, tries),
        help: super::lobby::commands::HelpSent::load(&host, &p.now),
    };
    let mut out = Vec::new();
    for (it, tag) in mails {
        let o = match answer_no_game(p, &it, tag.as_deref(), &mut gate) {
            Ok(c) => MailFate::Done(c),
            Err(e) => {
                let msg = format!("answering mail {} for no game: {e}", it.id);
                p.log.line("in", "failure", &[("error", &msg)]);
                MailFate::Left
            }
        };
        out.push((it.id, o));
    }
    out
}

/// What answering the mails for no game keeps from one mail to the next:
/// the host's bound on replies, the refusals of the last hour, the
/// players' addresses, the lobby's budget of codes tried and whom it sent
/// its help today.
struct NoGame<'a> {
    bound: &'a Bound,
    replies: BTreeMap<String, i64>,
    players: BTreeSet<String>,
    tries: Tries,
    help: super::lobby::commands::HelpSent,
}

/// Note that `key` was answered at `now`: the replies of the last hour
/// saved at once, before the mail is marked handled. A host killed after
/// queueing an answer and before this handles the mail again and queues
/// the same answer (its Message-ID comes from the mail), never a second
/// one to the same address within the hour.
fn answered_now(
    host: &HostDir,
    replies: &mut BTreeMap<String, i64>,
    key: String,
    now: i64,
) -> Result<()> {
    replies.insert(key, now);
    let json = serde_json::to_vec(&*replies).expect("a map serialises");
    crate::store::write::create_dir(&host.state())?;
    crate::store::write::atomic(
        &host.replies(),
        &json,
        crate::store::write::Durability::Synced,
    )
}

/// Answer a mail for no game from `DIR/outbox/`, once (by content hash),
/// and not to an address answered in the last hour.
fn answer_no_game(p: &Pass, it: &Item, tag: Option<&str>, gate: &mut NoGame) -> Result<Counted> {
    let host = p.host();
    let digest = sha256_hex(&it.bytes);
    if crate::store::seen::read_at(&host.no_game_seen())?.contains(&digest) {
        return Ok(Counted::Already);
    }
    let m = MessageParser::default().parse(&it.bytes);
    let from = inbox::sender(m.as_ref());
    let mid = m
        .as_ref()
        .and_then(|m| m.message_id())
        .map(str::to_string)
        .unwrap_or_else(|| format!("sha256:{digest}"));
    let key = from.to_ascii_lowercase();
    if let Some(cmd) = m.as_ref().and_then(super::lobby::commands::asked) {
        let subject = reply_subject(m.as_ref());
        let mail = super::lobby::commands::Mail {
            from: &from,
            vouched: sender_of(p, m.as_ref(), &it.bytes, &from).vouched(),
            digest: &digest,
            mid: &mid,
            subject: &subject,
        };
        return answer_lobby(p, &cmd, &mail, gate);
    }
    let (bound, replies) = (gate.bound, &mut gate.replies);
    let hourly = replies.contains_key(&key) && !gate.players.contains(&key);
    let held = !hourly && !from.is_empty() && bound.grant(&from, &digest)? == Grant::Held;
    let answered = hourly || held;
    if !answered {
        let message_id = eml::message_id("host", &["no-game", &digest]);
        let mail = eml::Mail {
            from: p.cfg.address.plain(),
            to: from.clone(),
            subject: reply_subject(m.as_ref()),
            date: p.now.clone(),
            message_id: message_id.clone(),
            in_reply_to: Some(mid.clone()),
            text: no_game_text(p, tag),
            attachments: Vec::new(),
        };
        crate::store::outbox::queue(
            &crate::store::OutboxDir::at(host.outbox()),
            &message_id,
            &eml::build(&mail),
        )?;
        answered_now(&host, replies, key, p.now_secs)?;
    }
    crate::store::write::create_dir(&host.state())?;
    crate::store::seen::add_at(&host.no_game_seen(), &digest)?;
    let mut fields = vec![
        ("from", from.as_str()),
        ("message-id", mid.as_str()),
        ("tag", tag.unwrap_or("")),
    ];
    if hourly {
        fields.push(("answered", "no: one answer an hour to an address"));
    } else if held {
        fields.push((
            "answered",
            "no: the bound of replies an hour to this address is reached",
        ));
    }
    p.log.line("in", "no-game", &fields);
    Ok(Counted::NoGame)
}

/// A lobby command (`join`, `confirm`, `leave`, `standby`, `takeover`,
/// `tables`) to the host's own address: answered from `DIR/outbox/`; a
/// refusal no more than once an hour to an address, as for mail for no
/// game, and no answer a right code did not earn past the host's bound
/// on replies to one address (a code mail asks the bound before its
/// request is kept: `lobby::commands::Ctx::may_mail_code`).
fn answer_lobby(
    p: &Pass,
    cmd: &super::lobby::commands::Command,
    mail: &super::lobby::commands::Mail,
    gate: &mut NoGame,
) -> Result<Counted> {
    use super::lobby::commands;
    let host = p.host();
    let (from, digest, mid) = (mail.from, mail.digest, mail.mid);
    let address = |g: &str| p.cfg.address.for_game(g);
    let bound = gate.bound;
    let may_mail_code = |to: &str, mail: &str| Ok(bound.grant(to, mail)? == Grant::Send);
    let cx = commands::Ctx {
        host: host.clone(),
        from: p.cfg.address.plain(),
        game_address: &address,
        now: p.now.clone(),
        seats_per_address: p.cfg.trust.seats_per_address,
        may_mail_code: &may_mail_code,
    };
    let key = from.to_ascii_lowercase();
    // The whole help the first time an address writes today.
    let help = !gate.help.told(from);
    let how = commands::Answering {
        tries: Some(&gate.tries),
        help,
    };
    let lobby = lobby_lock(p)?;
    let a = commands::answer_mail(&cx, cmd, mail, &how)?;
    drop(lobby);
    // A refusal a right code earned (a confirmation that came too late,
    // a second one) is the address owner's own doing: always told.
    let refused = a.outcome.refused() && !a.outcome.proven();
    let hourly = refused && gate.replies.contains_key(&key) && !gate.players.contains(&key);
    let held = match &a.reply {
        _ if hourly => false,
        None => matches!(a.outcome, commands::Outcome::Held),
        Some(_) if a.outcome.proven() || a.outcome.granted() => false,
        Some(_) => bound.grant(from, digest)? == Grant::Held,
    };
    let sent = !hourly && !held && a.reply.is_some();
    if let (Some((message_id, bytes)), true) = (&a.reply, sent) {
        crate::store::outbox::queue(
            &crate::store::OutboxDir::at(host.outbox()),
            message_id,
            bytes,
        )?;
        if refused {
            answered_now(&host, &mut gate.replies, key, p.now_secs)?;
        }
    }
    crate::store::write::create_dir(&host.state())?;
    crate::store::seen::add_at(&host.no_game_seen(), digest)?;
    // Kept after the mail is marked handled: a mail handled again after a
    // crash before this gets the same reply, help and all.
    let helped = sent && (help || matches!(a.outcome, commands::Outcome::Help));
    if helped && gate.help.mark(from) {
        gate.help.save(&host)?;
    }
    if matches!(cmd, commands::Command::Confirm(_)) {
        save_tries(&host, &gate.tries)?;
    }
    let mut fields = vec![
        ("from", from),
        ("message-id", mid),
        ("command", a.what.as_str()),
    ];
    if hourly {
        fields.push(("answered", "no: one refusal an hour to an address"));
    } else if held {
        fields.push((
            "answered",
            "no: the bound of replies an hour to this address is reached",
        ));
    }
    p.log.line("in", "lobby", &fields);
    Ok(Counted::Command)
}

/// Keep the lobby's codes tried this hour (`DIR/state/code-tries`, 0600;
/// the addresses' sha256 only).
fn save_tries(host: &HostDir, tries: &Tries) -> Result<()> {
    let json = serde_json::to_vec(&tries.counts()).expect("counts serialise");
    crate::store::write::create_dir(&host.state())?;
    crate::store::write::atomic(
        &host.code_tries(),
        &json,
        crate::store::write::Durability::Synced,
    )
}

fn reply_subject(m: Option<&mail_parser::Message>) -> String {
    m.and_then(|m| m.subject())
        .map(|s| {
            let s: String = s.chars().take(200).collect();
            if s.to_ascii_lowercase().starts_with("re:") {
                s
            } else {
                format!("Re: {s}")
            }
        })
        .unwrap_or_else(|| "Re: your mail".into())
}

/// The polite answer to mail for no game: how to address a game, the games
/// here, the commands.
fn no_game_text(p: &Pass, tag: Option<&str>) -> String {
    let (games, _) = list_games(&p.cfg.dir);
    let mut text = String::from("Hello,\n\nthis is herald, a play-by-email game host. ");
    match tag {
        Some(t) => text.push_str(&format!(
            "Your mail names the game `{}`, which is not a game on this host, so nothing in it was read.\n\n",
            t.chars().take(40).collect::<String>()
        )),
        None => text.push_str("Your mail does not name a game, so nothing in it was read.\n\n"),
    }
    text.push_str(&format!(
        "To play, write to the address of your game, {}, or put the game id in\nbrackets in the subject, as in \"[GAMEID] orders\". Replying to a report\nmail from your game does both.\n",
        p.cfg.address.for_game("GAMEID")
    ));
    if !games.is_empty() {
        text.push_str("\nGames on this host:\n");
        for g in games.iter().take(100) {
            text.push_str(&format!(
                "  {:<32} {}\n",
                g.as_str(),
                p.cfg.address.for_game(g.as_str())
            ));
        }
        if games.len() > 100 {
            text.push_str(&format!("  … and {} more\n", games.len() - 100));
        }
    }
    // What a player could join or take over here, with the lines to send.
    let (tables, _) = super::lobby::all(&p.host());
    text.push_str(&format!(
        "\n{}",
        super::lobby::commands::offers_text(&p.host(), &tables)
    ));
    text.push_str(&format!("\n{}", commands::HELP));
    text.push_str(&format!("\n{}", super::lobby::commands::HELP));
    text
}

fn game_time(p: &Pass, games: &[Name], r: &mut PassReport) {
    let lines: Vec<(Vec<String>, Option<String>)> = games
        .par_iter()
        .map(|g| {
            if p.stopping() {
                return (Vec::new(), None);
            }
            let folder = p.game(g);
            match due::run(&p.cfg.dir, folder.root(), &p.now, p.cfg, p.log, p.wait) {
                Ok(done) => (
                    done.iter()
                        .map(|d: &Done| format!("{g}: {}", d.text()))
                        .collect(),
                    None,
                ),
                Err(e) if e.kind == Kind::Busy => {
                    p.log.line("game", "busy", &[("game", g.as_str())]);
                    (Vec::new(), None)
                }
                Err(e) => {
                    let msg = format!("{g}: {e}");
                    p.log.line(
                        "game",
                        "failure",
                        &[("game", g.as_str()), ("error", &e.to_string())],
                    );
                    (Vec::new(), Some(msg))
                }
            }
        })
        .collect();
    for (l, e) in lines {
        r.game_time.extend(l);
        r.game_problems.extend(e);
    }
}

/// How many SMTP connections a pass sends over at most (and no more than
/// the pass has threads). Sending waits
/// on the server and on the disk (each recipient's answer is synced
/// before the next), not on the processor: a few connections side by
/// side overlap those waits, and stay far below a server's limit per
/// client (Postfix: 50).
pub const SENDERS: usize = 4;

/// Mail out: the host's own outbox, then the games' outboxes shared among
/// up to [`SENDERS`] connections, each game's outbox sent whole on one of
/// them, under the game's lock, in the order of its files. A server that
/// is down or refuses the login stops every connection after the game in
/// hand.
fn mail_out(p: &Pass, games: &[Name], r: &mut PassReport) {
    let host = p.host();
    let with_mail: Vec<&Name> = games
        .iter()
        .filter(|g| outbox::has_mail(&p.game(g).outbox()))
        .collect();
    let host_out = host.outbox();
    // Nothing to send: no connection at all.
    if with_mail.is_empty() && !outbox::has_mail(&host_out) {
        return;
    }
    let new_sender = || Smtp::new(&p.cfg.smtp, &p.cfg.address.plain());
    let mut tx = match new_sender() {
        Ok(t) => t,
        Err(f) => return host_failure(p, r, "mail out", &f),
    };
    let mut stopped: Option<Failure> = None;
    if outbox::has_mail(&host_out) {
        match outbox::run(&host_out, &mut tx, p.now_secs, &Labels::default(), p.log) {
            Ok(rep) => {
                count(r, &rep);
                stopped = stopped.or(rep.stopped);
            }
            Err(f) => stopped = Some(f),
        }
    }
    if stopped.is_none() && !with_mail.is_empty() {
        stopped = games_out(p, &with_mail, &mut tx, &new_sender, r);
    }
    tx.close();
    if let Some(f) = stopped {
        host_failure(p, r, "mail out", &f);
    }
}

/// The outboxes of the games `with_mail` (mail queued in them) shared
/// among up to [`SENDERS`] connections, `tx` the first, the others made
/// by `new_sender`; the failure that stopped them, if one did.
fn games_out<E>(
    p: &Pass,
    with_mail: &[&Name],
    tx: &mut Smtp,
    new_sender: &(impl Fn() -> std::result::Result<Smtp, E> + Sync),
    r: &mut PassReport,
) -> Option<Failure> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let halt = std::sync::Mutex::new(None::<Failure>);
    // One connection per thread of the pass (RAYON_NUM_THREADS=1: one
    // connection, the games' outboxes one after another).
    let senders = SENDERS
        .min(rayon::current_num_threads())
        .min(with_mail.len())
        .max(1);
    // One worker per connection: each takes the next game's outbox
    // until none is left or sending stops.
    let work = |tx: &mut Smtp| {
        let mut mine = PassReport::default();
        loop {
            if halt.lock().map(|h| h.is_some()).unwrap_or(true) {
                break;
            }
            if p.stopping() {
                mine.stopped = true;
                break;
            }
            let Some(g) = with_mail.get(next.fetch_add(1, Ordering::SeqCst)) else {
                break;
            };
            let s = match game_out(p, g, tx, &mut mine) {
                Ok(s) => s,
                Err(f) => Some(f),
            };
            if let Some(f) = s {
                if let Ok(mut h) = halt.lock() {
                    h.get_or_insert(f);
                }
                break;
            }
        }
        tx.close();
        mine
    };
    let reports: Vec<PassReport> = std::thread::scope(|scope| {
        let others: Vec<_> = (1..senders)
            .map(|_| {
                scope.spawn(|| match new_sender() {
                    Ok(mut t) => work(&mut t),
                    Err(_) => PassReport::default(),
                })
            })
            .collect();
        let mut all = vec![work(tx)];
        all.extend(others.into_iter().map(|h| h.join().unwrap_or_default()));
        all
    });
    for m in reports {
        r.sent += m.sent;
        r.refused_out += m.refused_out;
        r.deferred += m.deferred;
        r.game_problems.extend(m.game_problems);
        r.stopped |= m.stopped;
    }
    halt.into_inner().unwrap_or(None)
}

fn count(r: &mut PassReport, rep: &outbox::Report) {
    r.sent += rep.sent.len();
    r.refused_out += rep.refused.len();
    r.deferred += rep.deferred.len();
}

/// Send one game's outbox under its lock (which also guards the game's
/// `state.last_out`). Returns why sending stopped, if it did.
fn game_out(
    p: &Pass,
    g: &Name,
    tx: &mut Smtp,
    r: &mut PassReport,
) -> std::result::Result<Option<Failure>, Failure> {
    let folder = p.game(g);
    let lock = match crate::store::lock::Lock::acquire(&folder.lock(), g.as_str(), p.wait) {
        Ok(l) => l,
        Err(_) => {
            p.log.line("out", "busy", &[("game", g.as_str())]);
            return Ok(None);
        }
    };
    let mut labels = Labels {
        game: Some(g.to_string()),
        ..Labels::default()
    };
    if let Some(head) = route::peek(folder.root()) {
        for pl in head.players {
            if let Some(e) = pl.email {
                labels.players.insert(e.to_ascii_lowercase(), pl.id);
            }
        }
    }
    let rep = outbox::run(&folder.outbox(), tx, p.now_secs, &labels, p.log)?;
    count(r, &rep);
    if !rep.sent.is_empty()
        || !rep.refused.is_empty()
        || !rep.problems.is_empty()
        || !rep.unconfirmed.is_empty()
    {
        let dir = &p.cfg.dir;
        let mut st = GameState::load(dir, g).unwrap_or_default();
        if let Some(s) = rep.sent.last() {
            st.last_out = Some(MailNote {
                at: p.now.clone(),
                who: s.to.clone(),
                message_id: s.message_id.clone().unwrap_or_default(),
                what: format!("sent {}", s.file),
            });
        }
        // Refused mails are on the status page from outbox/refused/
        // itself; only unreadable files are problems here.
        st.problems.extend(rep.problems.iter().cloned());
        for u in &rep.unconfirmed {
            st.problems.push(format!(
                "{} to {} ({}): the host stopped while the server was taking it; counted as delivered and not sent again (ask {} if it arrived)",
                u.file,
                u.to,
                u.message_id.as_deref().unwrap_or("no Message-ID"),
                u.to
            ));
        }
        if let Err(e) = st.save(dir, g) {
            r.game_problems.push(format!("{g}: {e}"));
        }
    }
    drop(lock);
    Ok(rep.stopped)
}
