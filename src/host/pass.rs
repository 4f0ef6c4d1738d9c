//! One pass of `herald host DIR` (docs/host.md, "The pass"):
//!
//! 1. list DIR's game folders (no lock);
//! 2. mail in: fetch every pending mail, route it, hand it to its game
//!    (the game's lock, the per-mail code shared with `herald inbox`,
//!    commands, `state.last_in`), or answer it from `DIR/outbox/` when it
//!    is for no game; then mark it handled on the server;
//! 3. game time: `due::run` for every game, in parallel;
//! 4. mail out: every game's `outbox/` and `DIR/outbox/` through one SMTP
//!    sender; `state.last_out` and refusals recorded;
//! 5. the status page.
//!
//! Nothing is lost: a mail is marked handled only after what it produced
//! is on disk, and the content hash in the game's `inbox/seen` (or
//! `DIR/state/seen`) makes a mail seen again after a crash a no-op, which
//! is then marked. A busy game (another herald holds its lock past
//! `--wait`) keeps its mails for the next pass.

use super::commands::{self, Asked};
use super::config::HostConfig;
use super::log::Log;
use super::outbox::{self, Labels};
use super::route::{self, Route};
use super::smtp::Smtp;
use super::source::{self, Fetched, MailId};
use super::state::{GameState, MailNote};
use super::Failure;
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Kind, Result};
use crate::mail::eml;
use crate::names::{self, Name};
use crate::pipeline::inbox::{self, Fate};
use crate::store::write::{self, Durability};
use mail_parser::MessageParser;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
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
    pub no_game: usize,
    pub ignored: usize,
    /// Already handled before (a pass cut short): only marked now.
    pub already: usize,
    /// Left for the next pass: their game was busy, or the pass stopped.
    pub left: usize,
    /// Lines from due::run ("g1: resolved turn 3 early").
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

/// The games in `dir`: subfolders with a valid name holding game.jsonl.
/// Folders whose game.jsonl names another id are returned as problems.
pub fn list_games(dir: &Path) -> (Vec<Name>, Vec<String>) {
    let mut games = Vec::new();
    let mut problems = Vec::new();
    let Ok(list) = std::fs::read_dir(dir) else {
        return (games, vec![format!("{}: cannot be read", dir.display())]);
    };
    let mut names: Vec<String> = list
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n != "state" && n != "outbox" && !n.starts_with('.'))
        .collect();
    names.sort();
    for n in names {
        let folder = dir.join(&n);
        if !folder.join("game.jsonl").is_file() {
            continue;
        }
        if !names::valid(&n) {
            problems.push(format!(
                "folder {n}: not a game id ({}); it gets no mail",
                names::RULE
            ));
            continue;
        }
        match route::game_id_of(&folder) {
            Some(id) if id == n => games.push(Name::new("game", &n).expect("valid")),
            Some(id) => problems.push(format!(
                "folder {n}: its game.jsonl is game {id}; a game's folder must be named by its id (rename it {id}); it gets no mail"
            )),
            None => problems.push(format!(
                "folder {n}: its game.jsonl does not read; it gets no mail"
            )),
        }
    }
    (games, problems)
}

/// One fetched mail, waiting to be handled.
struct Item {
    id: MailId,
    bytes: Vec<u8>,
    too_big: bool,
}

/// What became of one mail in its game.
enum Outcome {
    /// On disk (or nothing to do): mark it handled.
    Done(Counted),
    /// Not handled (the game busy, the pass stopping, an error): keep it.
    Left,
}

#[derive(Clone, Copy)]
enum Counted {
    Accepted,
    Refused,
    Command,
    Already,
    NoGame,
    Ignored,
}

/// Run one pass.
pub fn run(p: &Pass) -> PassReport {
    let dir = &p.cfg.dir;
    let mut r = PassReport::default();
    let (games, listing_problems) = list_games(dir);
    r.games = games.len();
    r.host_problems.extend(listing_problems.iter().cloned());
    mail_in(p, &games, &mut r);
    if p.stop.load(Ordering::SeqCst) {
        r.stopped = true;
        return r;
    }
    game_time(p, &games, &mut r);
    if p.stop.load(Ordering::SeqCst) {
        r.stopped = true;
        return r;
    }
    mail_out(p, &games, &mut r);
    let states: Vec<(Name, GameState)> = games
        .iter()
        .map(|g| {
            let s = GameState::load(dir, g).unwrap_or_else(|e| GameState {
                problems: vec![e.to_string()],
                ..GameState::default()
            });
            (g.clone(), s)
        })
        .collect();
    if let Err(e) = super::status_page::write(dir, &states, &r.host_problems, &p.now) {
        let msg = format!("the status page: {e}");
        p.log
            .line(p.now_secs, "host", "failure", &[("error", &msg)]);
        r.host_problems.push(msg);
    }
    crate::site::gallery::after_pass(dir, &mut r.host_problems);
    r
}

fn host_failure(p: &Pass, r: &mut PassReport, what: &str, f: &Failure) {
    let msg = format!("{what}: {f}");
    p.log.line(
        p.now_secs,
        "host",
        "failure",
        &[("what", what), ("kind", f.kind()), ("error", f.message())],
    );
    r.config_failure |= matches!(f, Failure::Config(_));
    r.host_problems.push(msg);
}

fn mail_in(p: &Pass, games: &[Name], r: &mut PassReport) {
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
            if p.stop.load(Ordering::SeqCst) {
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
        let outcomes = handle_batch(p, &known, items);
        let mut handled = 0;
        for (id, o) in outcomes {
            match o {
                Outcome::Left => r.left += 1,
                Outcome::Done(c) => {
                    if let Err(f) = src.mark_handled(&id) {
                        host_failure(p, r, &format!("marking {id} handled"), &f);
                        break 'batches;
                    }
                    handled += 1;
                    r.mails += 1;
                    match c {
                        Counted::Accepted => r.accepted += 1,
                        Counted::Refused => r.refused += 1,
                        Counted::Command => r.commands += 1,
                        Counted::Already => r.already += 1,
                        Counted::NoGame => r.no_game += 1,
                        Counted::Ignored => r.ignored += 1,
                    }
                }
            }
        }
        let _ = handled;
        if fetched < chunk.len() || p.stop.load(Ordering::SeqCst) {
            break;
        }
    }
    src.close();
}

/// Route a batch, hand each game its mails (games in parallel), answer
/// mail for no game. Returns each mail's outcome.
fn handle_batch(p: &Pass, known: &BTreeSet<&str>, items: Vec<Item>) -> Vec<(MailId, Outcome)> {
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
            Route::Game(_) => out.push((it.id, Outcome::Left)),
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
                    p.now_secs,
                    "in",
                    "ignored",
                    &[("from", &from), ("message-id", &mid), ("why", &why)],
                );
                out.push((it.id, Outcome::Done(Counted::Ignored)));
            }
        }
    }
    let groups: Vec<(Name, Vec<Item>)> = by_game.into_iter().collect();
    let results: Vec<Vec<(MailId, Outcome)>> = groups
        .into_par_iter()
        .map(|(g, items)| handle_game(p, &g, items))
        .collect();
    out.extend(results.into_iter().flatten());
    for (it, tag) in no_game {
        let o = match answer_no_game(p, &it, tag.as_deref()) {
            Ok(c) => Outcome::Done(c),
            Err(e) => {
                let msg = format!("answering mail {} for no game: {e}", it.id);
                p.log.line(p.now_secs, "in", "failure", &[("error", &msg)]);
                Outcome::Left
            }
        };
        out.push((it.id, o));
    }
    out
}

/// Handle one game's mails under its lock, in the order of their Date.
fn handle_game(p: &Pass, game: &Name, items: Vec<Item>) -> Vec<(MailId, Outcome)> {
    let dir = &p.cfg.dir;
    let folder = dir.join(game.as_str());
    let left = |items: Vec<Item>| items.into_iter().map(|i| (i.id, Outcome::Left)).collect();
    // Report mails a cut-short command left undone are completed as
    // due::run builds them (with the PNG unless host.toml says not).
    let form = crate::pipeline::derived::MailForm {
        png: p.cfg.attach_png,
    };
    let w = match crate::pipeline::open_to_write_with(&folder, p.wait, &p.now, form) {
        Ok(w) => w,
        Err(e) => {
            let event = if e.kind == Kind::Busy {
                "busy"
            } else {
                "failure"
            };
            p.log.line(
                p.now_secs,
                "in",
                event,
                &[("game", game.as_str()), ("error", &e.to_string())],
            );
            if e.kind != Kind::Busy {
                note_problem(dir, game, &format!("mail in: {e}"));
            }
            return left(items);
        }
    };
    let mut state = GameState::load(dir, game).unwrap_or_default();
    let mut done = match crate::store::seen::read(&w.store.dir) {
        Ok(d) => d,
        Err(e) => {
            note_problem(dir, game, &format!("mail in: {e}"));
            return left(items);
        }
    };
    let parser = MessageParser::default();
    let mut items: Vec<(i64, Item)> = items
        .into_iter()
        .map(|it| {
            let date = parser
                .parse(&it.bytes)
                .and_then(|m| m.date().map(|d| d.to_timestamp()))
                .unwrap_or(i64::MAX);
            (date, it)
        })
        .collect();
    items.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)));
    let reply_from = p.cfg.address.for_game(game.as_str());
    let opts = inbox::Options {
        reply_from: Some(&reply_from),
        refused_note: Some(commands::HELP),
    };
    let mut out = Vec::new();
    let mut changed = false;
    for (_, it) in items {
        if p.stop.load(Ordering::SeqCst) {
            out.push((it.id, Outcome::Left));
            continue;
        }
        let m = parser.parse(&it.bytes);
        let from = inbox::sender(m.as_ref());
        let digest = sha256_hex(&it.bytes);
        let asked = match (&m, it.too_big) {
            (Some(m), false) if !done.contains(&digest) => commands::asked(m),
            _ => Asked::Orders,
        };
        let res: Result<(Counted, String, String, Option<String>)> = match asked {
            Asked::Orders => inbox::handle_one(
                &w,
                &mut done,
                &it.bytes,
                m.as_ref(),
                it.too_big,
                &p.now,
                &opts,
            )
            .map(|one| {
                let (c, what, player) = match &one.fate {
                    Fate::Accepted { player, .. } => (
                        Counted::Accepted,
                        format!("orders accepted for {player}"),
                        Some(player.clone()),
                    ),
                    Fate::Superseded { player, .. } => (
                        Counted::Refused,
                        format!("orders of {player} older than those stored: not used"),
                        Some(player.clone()),
                    ),
                    Fate::Refused { .. } => (Counted::Refused, "orders refused".into(), None),
                    Fate::AlreadyRead => (Counted::Already, "already handled".into(), None),
                };
                (c, what, one.message_id, player)
            }),
            a => {
                let id = m
                    .as_ref()
                    .and_then(|m| m.message_id())
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("sha256:{digest}"));
                commands::answer(&w, &a, &from, &id, &digest, &p.now, &reply_from).and_then(|ans| {
                    crate::store::seen::add(&w.store.dir, &digest)?;
                    done.insert(digest.clone());
                    Ok((Counted::Command, ans.what, id, ans.player))
                })
            }
        };
        match res {
            Ok((c, what, mid, player)) => {
                let event = match c {
                    Counted::Accepted => "accepted",
                    Counted::Refused => "refused",
                    Counted::Command => "command",
                    _ => "already",
                };
                let mut fields = vec![("game", game.as_str()), ("from", from.as_str())];
                if let Some(pl) = &player {
                    fields.push(("player", pl));
                }
                fields.push(("message-id", &mid));
                fields.push(("what", &what));
                p.log.line(p.now_secs, "in", event, &fields);
                if !matches!(c, Counted::Already) {
                    state.last_in = Some(MailNote {
                        at: p.now.clone(),
                        who: from.clone(),
                        message_id: mid,
                        what,
                    });
                    changed = true;
                }
                out.push((it.id, Outcome::Done(c)));
            }
            Err(e) => {
                let msg = format!("mail {} from {from}: {e}", it.id);
                p.log.line(
                    p.now_secs,
                    "in",
                    "failure",
                    &[("game", game.as_str()), ("error", &msg)],
                );
                state.problems.push(msg);
                changed = true;
                out.push((it.id, Outcome::Left));
            }
        }
    }
    if changed {
        if let Err(e) = state.save(dir, game) {
            p.log.line(
                p.now_secs,
                "in",
                "failure",
                &[("game", game.as_str()), ("error", &e.to_string())],
            );
        }
    }
    drop(w);
    out
}

/// Add a problem to a game's state (best effort, under its lock if free).
fn note_problem(dir: &Path, game: &Name, msg: &str) {
    let lock = dir.join(game.as_str()).join("lock");
    if let Ok(_l) = crate::store::lock::Lock::acquire(&lock, game.as_str(), Duration::ZERO) {
        let mut s = GameState::load(dir, game).unwrap_or_default();
        if !s.problems.iter().any(|p| p == msg) {
            s.problems.push(msg.to_string());
            let _ = s.save(dir, game);
        }
    }
}

/// `DIR/state/seen`: the mails for no game already answered.
fn host_seen(dir: &Path) -> PathBuf {
    super::state::folder(dir).join("seen")
}

fn read_host_seen(dir: &Path) -> BTreeSet<String> {
    crate::store::seen::read_at(&host_seen(dir)).unwrap_or_default()
}

fn add_host_seen(dir: &Path, digest: &str) -> Result<()> {
    let folder = super::state::folder(dir);
    std::fs::create_dir_all(&folder).map_err(|e| Error::io(&folder, e))?;
    crate::store::seen::add_at(&host_seen(dir), digest)
}

/// The host's own outbox, `DIR/outbox/`.
pub fn host_outbox(dir: &Path) -> PathBuf {
    dir.join("outbox")
}

/// Answer a mail for no game from `DIR/outbox/`, once (by content hash).
fn answer_no_game(p: &Pass, it: &Item, tag: Option<&str>) -> Result<Counted> {
    let dir = &p.cfg.dir;
    let digest = sha256_hex(&it.bytes);
    if read_host_seen(dir).contains(&digest) {
        return Ok(Counted::Already);
    }
    let m = MessageParser::default().parse(&it.bytes);
    let from = inbox::sender(m.as_ref());
    let mid = m
        .as_ref()
        .and_then(|m| m.message_id())
        .map(str::to_string)
        .unwrap_or_else(|| format!("sha256:{digest}"));
    let (games, _) = list_games(dir);
    let mut text = String::from("Hello,\n\nthis is herald, a play-by-email game host. ");
    match tag {
        Some(t) => text.push_str(&format!(
            "Your mail names the game `{}`, which is not a game on this host, so nothing in it was read.\n\n",
            t.chars().take(40).collect::<String>()
        )),
        None => text.push_str(
            "Your mail does not name a game, so nothing in it was read.\n\n",
        ),
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
    text.push_str(&format!("\n{}", commands::HELP));
    let message_id = eml::message_id("host", &["no-game", &digest]);
    let subject = m
        .as_ref()
        .and_then(|m| m.subject())
        .map(|s| {
            let s: String = s.chars().take(200).collect();
            if s.to_ascii_lowercase().starts_with("re:") {
                s
            } else {
                format!("Re: {s}")
            }
        })
        .unwrap_or_else(|| "Re: your mail".into());
    let mail = eml::Mail {
        from: p.cfg.address.plain(),
        to: from.clone(),
        subject,
        date: p.now.clone(),
        message_id: message_id.clone(),
        in_reply_to: Some(mid.clone()),
        text,
        attachments: Vec::new(),
    };
    let out = host_outbox(dir);
    std::fs::create_dir_all(&out).map_err(|e| Error::io(&out, e))?;
    let path = out.join(format!("{}.eml", eml::digest(&message_id)));
    write::atomic(&path, &eml::build(&mail), Durability::Synced)?;
    add_host_seen(dir, &digest)?;
    p.log.line(
        p.now_secs,
        "in",
        "no-game",
        &[
            ("from", &from),
            ("message-id", &mid),
            ("tag", tag.unwrap_or("")),
        ],
    );
    Ok(Counted::NoGame)
}

fn game_time(p: &Pass, games: &[Name], r: &mut PassReport) {
    let lines: Vec<(Vec<String>, Option<String>)> = games
        .par_iter()
        .map(|g| {
            if p.stop.load(Ordering::SeqCst) {
                return (Vec::new(), None);
            }
            let folder = p.cfg.dir.join(g.as_str());
            match super::due::run(&p.cfg.dir, &folder, &p.now, p.cfg, p.log, p.wait) {
                Ok(done) => (
                    done.iter()
                        .map(|d| format!("{g}: {}", done_text(d)))
                        .collect(),
                    None,
                ),
                Err(e) if e.kind == Kind::Busy => {
                    p.log
                        .line(p.now_secs, "game", "busy", &[("game", g.as_str())]);
                    (Vec::new(), None)
                }
                Err(e) => {
                    let msg = format!("{g}: {e}");
                    p.log.line(
                        p.now_secs,
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

fn mail_out(p: &Pass, games: &[Name], r: &mut PassReport) {
    let dir = &p.cfg.dir;
    // Nothing to send: no connection at all.
    let has_mail = |d: &Path| outbox::queued(d).map(|q| !q.is_empty()).unwrap_or(false);
    let busy: Vec<&Name> = games
        .iter()
        .filter(|g| has_mail(&dir.join(g.as_str()).join("outbox")))
        .collect();
    let host_out = host_outbox(dir);
    if busy.is_empty() && !has_mail(&host_out) {
        return;
    }
    let mut tx = match Smtp::new(&p.cfg.smtp, &p.cfg.address.plain()) {
        Ok(t) => t,
        Err(f) => return host_failure(p, r, "mail out", &f),
    };
    let mut stopped: Option<Failure> = None;
    if has_mail(&host_out) {
        match outbox::run(&host_out, &mut tx, p.now_secs, &Labels::default(), p.log) {
            Ok(rep) => {
                r.sent += rep.sent.len();
                r.refused_out += rep.refused.len();
                r.deferred += rep.deferred.len();
                stopped = stopped.or(rep.stopped);
            }
            Err(f) => stopped = Some(f),
        }
    }
    for g in busy {
        if stopped.is_some() {
            break;
        }
        if p.stop.load(Ordering::SeqCst) {
            r.stopped = true;
            break;
        }
        let folder = dir.join(g.as_str());
        // The state is written under the game's lock.
        let lock = match crate::store::lock::Lock::acquire(&folder.join("lock"), g.as_str(), p.wait)
        {
            Ok(l) => l,
            Err(_) => {
                p.log
                    .line(p.now_secs, "out", "busy", &[("game", g.as_str())]);
                continue;
            }
        };
        let mut labels = Labels {
            game: Some(g.to_string()),
            ..Labels::default()
        };
        if let Ok((_, loaded)) = crate::pipeline::open(&folder) {
            for pl in &loaded.head().players {
                if let Some(e) = &pl.email {
                    labels.players.insert(e.to_ascii_lowercase(), pl.id.clone());
                }
            }
        }
        let rep = match outbox::run(&folder.join("outbox"), &mut tx, p.now_secs, &labels, p.log) {
            Ok(rep) => rep,
            Err(f) => {
                stopped = Some(f);
                break;
            }
        };
        r.sent += rep.sent.len();
        r.refused_out += rep.refused.len();
        r.deferred += rep.deferred.len();
        if !rep.sent.is_empty() || !rep.refused.is_empty() || !rep.problems.is_empty() {
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
            if let Err(e) = st.save(dir, g) {
                r.game_problems.push(format!("{g}: {e}"));
            }
        }
        drop(lock);
        if let Some(f) = rep.stopped {
            stopped = Some(f);
        }
    }
    tx.close();
    if let Some(f) = stopped {
        host_failure(p, r, "mail out", &f);
    }
}

/// One line of what game time did, for the command's output (due::run
/// logs its own lines).
fn done_text(d: &super::due::Done) -> String {
    use super::due::Done;
    match d {
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
    }
}
