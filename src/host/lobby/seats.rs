//! Replacements (docs/host.md, "Replacements"): the standby list, seats
//! offered for takeover (freed by the moderator with `herald host
//! replace`, or by the game's drop rule), and the takeover itself.
//!
//! The lobby keeps one record per hosted game, `DIR/lobby/games/<game>.json`
//! (0600, written atomically by the host's pass, or by a moderator's
//! command holding `host.lock`): the game's lobby settings (vacation
//! allowance, whether a takeover waits for the moderator's approval) and
//! its offers. An offer goes `open` (taking claims: `takeover GAME PLAYER`
//! mails a code to its From address) → `approval` (a claim confirmed, the
//! game wants the moderator's `herald host approve`) → `granted` → `done`
//! (the seat changed hands: a `seat` entry in the game's log, the new
//! player mailed their password, history and report).
//!
//! Crash safety: the offer is marked `granted` (with its taker) before
//! anything else; the seat entry's salt is drawn from the lobby key and
//! the offer, so a pass cut short after the commit finds the entry and
//! does not commit it again; the new password is written to the game's
//! secrets file before the commit (as `herald passwd` does), so the mails,
//! with fixed Message-IDs, are queued again from it; the offer is marked
//! `done` last. A seat is given once: one confirmation takes an offer, and
//! every later one finds it taken.
pub use crate::requests::lobby::seats::*;

use super::{HostDir, Seat};
use crate::chain::body::{Body, SeatChange};
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Result};
use crate::mail::eml;
use crate::names::Name;
use crate::pipeline;
use std::path::Path;
use std::time::Duration;

/// The seats open for takeover, as replies and pages list them.
pub fn open_seats_text(host: &HostDir) -> String {
    let mut s = String::new();
    for g in all(host) {
        for o in g.offers.iter().filter(|o| o.status == OfferStatus::Open) {
            s.push_str(&format!(
                "  game {} seat {} (freed: {}): send `takeover {} {}`\n",
                g.game,
                o.player,
                why_words(&o.why),
                g.game,
                o.player
            ));
        }
    }
    if s.is_empty() {
        "There is no seat to take over now.\n".into()
    } else {
        format!("Seats to take over:\n{s}")
    }
}

pub fn why_words(why: &str) -> &'static str {
    match why {
        "dropped" => "its player dropped out after missing phases",
        _ => "the moderator freed it",
    }
}

/// What the moderator's commands need.
pub struct Moderator<'a> {
    pub dir: &'a Path,
    pub now: String,
    pub wait: Duration,
}

/// The host's lock, then the lobby's: `herald serve` changes the seats
/// offered (a takeover on a page) under the lobby's lock alone, so a
/// moderator's change of them takes both, in the pass's order.
fn host_lock(m: &Moderator) -> Result<(crate::store::lock::Lock, crate::store::lock::Lock)> {
    let host = HostDir::at(m.dir);
    let whole = crate::store::lock::Lock::acquire_for(&host.lock(), m.wait, |pid, waited| {
        format!(
            "host {} is busy (pid {pid}): a pass is running; try again when it has finished (waited {waited} s)",
            m.dir.display()
        )
    })?;
    crate::store::write::create_dir(&host.state())?;
    let lobby = crate::store::lock::Lock::acquire_for(
        &host.lobby_lock(),
        m.wait,
        |pid, waited| {
            format!(
            "the lobby of host {} is busy (pid {pid}): `herald serve` is changing it; try again in a moment (waited {waited} s)",
            m.dir.display()
        )
        },
    )?;
    Ok((whole, lobby))
}

/// The game `game` of the host, opened; refused with the list of the
/// host's games when there is none.
fn open_game(host: &HostDir, game: &str) -> Result<(Name, crate::store::Store, pipeline::Loaded)> {
    let list = || {
        let mut v: Vec<String> = std::fs::read_dir(host.root())
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                crate::store::layout::GameDir::at(e.path())
                    .game_file()
                    .exists()
            })
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let name = Name::new("game", game)
        .map_err(|e| Error::usage(format!("{e}; the games of this host: {}", list())))?;
    let dir = host.game(&name);
    if !dir.game_file().exists() {
        return Err(Error::refused(format!(
            "no game `{name}` in {}; its games: {}",
            host.root().display(),
            list()
        )));
    }
    let (store, g) = pipeline::open(dir.root())?;
    Ok((name, store, g))
}

/// `herald host replace DIR GAME --player PLAYER`: offer PLAYER's seat for takeover.
pub fn replace(m: &Moderator, game: &str, player: &str) -> Result<String> {
    let host = HostDir::at(m.dir);
    let (name, _store, g) = open_game(&host, game)?;
    let h = g.head();
    if h.format < 3 {
        return Err(Error::refused(format!(
            "game {name} is a format-{} game, whose log cannot record a change of hands; run `herald convert {}` first",
            h.format,
            host.game(&name).root().display()
        )));
    }
    if let Some(bot) = g.genesis.bot(player) {
        return Err(Error::refused(format!(
            "{player} is a bot seat of {name} (bot `{bot}`): no person holds it, so there is nothing to replace"
        )));
    }
    if h.player_index(player).is_none() {
        return Err(Error::usage(format!(
            "`{player}` is not a player of {name}; send one of: {}",
            h.player_ids()
                .iter()
                .map(|p| format!(
                    "herald host replace {} {name} --player {p}",
                    m.dir.display()
                ))
                .collect::<Vec<_>>()
                .join(" | ")
        )));
    }
    if h.outcome.is_some() {
        return Err(Error::refused(format!(
            "game {name} is over: no seat to replace"
        )));
    }
    let _lock = host_lock(m)?;
    let mut rec = load(&host, &name)?.unwrap_or_else(|| GameSeats::new(name.as_str()));
    if let Some(i) = rec.live(player) {
        return Ok(format!(
            "the seat of {player} in {name} is offered already ({:?}); `herald host status {}` shows it\n",
            rec.offers[i].status,
            m.dir.display()
        ));
    }
    offer(&mut rec, player, "replaced", &m.now);
    save(&host, &rec)?;
    Ok(format!(
        "offered the seat of {player} in {name} for takeover: the standby list is told at the next pass; the first to confirm `takeover {name} {player}` gets it{}\n",
        if rec.approve {
            " once you approve (`herald host approve`)"
        } else {
            ""
        }
    ))
}

fn offer(rec: &mut GameSeats, player: &str, why: &str, now: &str) {
    let n = rec.offers.iter().map(|o| o.n).max().unwrap_or(0) + 1;
    rec.offers.push(Offer {
        n,
        player: player.to_string(),
        why: why.to_string(),
        at: now.to_string(),
        status: OfferStatus::Open,
        announced: false,
        claims: Vec::new(),
        taker: None,
        done: None,
    });
}

/// `herald host approve DIR GAME --player PLAYER`: let the confirmed taker have it.
pub fn approve(m: &Moderator, game: &str, player: &str) -> Result<String> {
    let host = HostDir::at(m.dir);
    let name = Name::new("game", game).map_err(Error::usage)?;
    let _lock = host_lock(m)?;
    let mut rec = load(&host, &name)?.ok_or_else(|| {
        Error::refused(format!(
            "no seat of game `{name}` is offered; `herald host status {}` lists the takeovers waiting",
            m.dir.display()
        ))
    })?;
    let waiting: Vec<String> = rec
        .offers
        .iter()
        .filter(|o| o.status == OfferStatus::Approval)
        .map(|o| {
            format!(
                "herald host approve {} {name} --player {}",
                m.dir.display(),
                o.player
            )
        })
        .collect();
    let Some(o) = rec
        .offers
        .iter_mut()
        .find(|o| o.player == player && o.status == OfferStatus::Approval)
    else {
        return Err(Error::refused(format!(
            "no takeover of {player} in {name} waits for approval; {}",
            if waiting.is_empty() {
                "none does".to_string()
            } else {
                format!("run one of: {}", waiting.join(" | "))
            }
        )));
    };
    o.status = OfferStatus::Granted;
    let who = o
        .taker
        .as_ref()
        .map(|t| t.address.clone())
        .unwrap_or_default();
    save(&host, &rec)?;
    Ok(format!(
        "approved: the seat of {player} in {name} goes to {who} at the next pass\n"
    ))
}

/// Offer the seats of players the game's drop rule dropped (called by the
/// host with the game open and locked, after its resolves).
pub fn note_drops(host: &HostDir, g: &pipeline::Loaded, now: &str) -> Result<Vec<String>> {
    let h = g.head();
    if h.format < 3 || h.outcome.is_some() || !h.missed.iter().any(|m| m.dropped) {
        return Ok(Vec::new());
    }
    let name = Name::new("game", &h.id).map_err(Error::refused)?;
    let mut rec = load(host, &name)?.unwrap_or_else(|| GameSeats::new(name.as_str()));
    let mut new = Vec::new();
    for m in h.missed.iter().filter(|m| m.dropped) {
        if rec.live(&m.player).is_none() {
            offer(&mut rec, &m.player, "dropped", now);
            new.push(m.player.clone());
        }
    }
    if !new.is_empty() {
        save(host, &rec)?;
    }
    Ok(new)
}

/// The seat entry's salt for an offer: drawn from the lobby's key, so a
/// pass cut short after the commit finds its own entry again.
fn salt(key: &str, game: &str, o: &Offer) -> String {
    sha256_hex(format!("herald/seat-salt\0{key}\0{game}\0{}\0{}", o.player, o.n).as_bytes())[..32]
        .to_string()
}

/// What the lobby's clock needs.
pub struct Clock<'a> {
    pub host: HostDir,
    pub from: String,
    pub game_address: &'a dyn Fn(&str) -> String,
    pub now: String,
    pub wait: Duration,
    /// host.toml's `seats_per_address`, for games whose table does not say.
    pub seats_per_address: u32,
    /// How report mails are built (host.toml's `attach_png`).
    pub mail: pipeline::derived::MailForm,
}

/// Everything due for replacements: offers told to the standby list,
/// granted seats handed over. Lines of what happened, and problems.
pub fn tick(c: &Clock) -> (Vec<String>, Vec<String>) {
    let mut lines = Vec::new();
    let mut problems = Vec::new();
    for mut rec in all(&c.host) {
        let game = rec.game.clone();
        if rec.offers.iter().any(|o| !o.announced) {
            match announce(c, &mut rec) {
                Ok(n) if n > 0 => lines.push(format!("{game}: seats offered to {n} on standby")),
                Ok(_) => {}
                Err(e) => problems.push(format!("game {game}: {e}")),
            }
        }
        for i in 0..rec.offers.len() {
            if rec.offers[i].status == OfferStatus::Granted {
                match hand_over(c, &mut rec, i) {
                    Ok(l) => lines.push(format!("{game}: {l}")),
                    Err(e) => {
                        problems.push(format!("game {game}: seat {}: {e}", rec.offers[i].player))
                    }
                }
            }
        }
    }
    (lines, problems)
}

/// Tell the standby list of the game's new offers (fixed Message-IDs),
/// but for the addresses that hold all the seats they may in the game
/// already (one person, one seat).
fn announce(c: &Clock, rec: &mut GameSeats) -> Result<usize> {
    let list = standby(&c.host)?;
    let allowed = rec.seats_per_address.unwrap_or(c.seats_per_address).max(1) as usize;
    let holders: Vec<String> = Name::new("game", &rec.game)
        .ok()
        .and_then(|n| crate::host::route::peek(c.host.game(&n).root()))
        .map(|h| h.players.into_iter().filter_map(|p| p.email).collect())
        .unwrap_or_default();
    let mut mails = Vec::new();
    for o in rec.offers.iter().filter(|o| !o.announced) {
        for s in &list.list {
            let held = holders
                .iter()
                .filter(|a| super::same_person(a, &s.address))
                .count();
            if held >= allowed {
                continue;
            }
            let mid = eml::message_id(
                "host",
                &[
                    "seat-offer",
                    &rec.game,
                    &o.player,
                    &o.n.to_string(),
                    &s.address,
                ],
            );
            let text = format!(
                "Hello,\n\nyou are on this host's standby list. A seat is free to take over:\n\n  game {} ({}), seat {}: {}.\n\nThe first to confirm gets it, with the seat's whole report history\nand its current report. To take it, reply with the first line\n\n    takeover {} {} [your name]\n\n(a confirmation code comes back). To leave the standby list, send\n`standby off`.\n",
                rec.game,
                (c.game_address)(&rec.game),
                o.player,
                why_words(&o.why),
                rec.game,
                o.player
            );
            mails.push((
                mid.clone(),
                eml::build(&eml::Mail {
                    from: c.from.clone(),
                    to: s.address.clone(),
                    subject: format!("seat {} of game {} is free", o.player, rec.game),
                    date: c.now.clone(),
                    message_id: mid,
                    in_reply_to: None,
                    text,
                    attachments: Vec::new(),
                }),
            ));
        }
    }
    let n = mails.len();
    crate::store::outbox::queue_all(&crate::store::OutboxDir::at(c.host.outbox()), mails)?;
    for o in rec.offers.iter_mut() {
        o.announced = true;
    }
    save(&c.host, rec)?;
    Ok(n)
}

/// Hand a granted seat over: the `seat` entry (once), the new player's
/// mails, the others told; the offer marked done last.
fn hand_over(c: &Clock, rec: &mut GameSeats, i: usize) -> Result<String> {
    let name = Name::new("game", &rec.game).map_err(Error::refused)?;
    let o = rec.offers[i].clone();
    let taker = o
        .taker
        .clone()
        .ok_or_else(|| Error::internal("a granted offer without its taker"))?;
    let key = super::key(&c.host)?;
    let salt = salt(&key, &rec.game, &o);
    let dir = c.host.game(&name);
    let mut w = pipeline::open_to_write_with(dir.root(), c.wait, &c.now, c.mail.clone())?;
    w.complete(&c.now)?;
    // The salt is in the entry in formats 3 and 4, in secrets.toml from 5 on.
    let (in_entry, holder) = SeatChange::bind(w.game.head().format, &salt, &taker.address);
    let seat = w.game.seat_of(&o.player)?;
    let already = w.game.record.entries.iter().any(|e| {
        matches!(e.decode(), Ok(Body::Seat(s)) if s.holder_sha256 == holder && s.player == o.player)
    });
    let old_address = w.game.head().players[seat].email.clone();
    let mut secrets = w.store.secrets()?;
    let password = if already {
        secrets
            .passwords
            .get(&o.player)
            .cloned()
            .filter(|pw| crate::auth::matches(pw, &w.game.head().players[seat].password))
            .ok_or_else(|| {
                Error::refused(format!(
                    "{}: the new password of {} is not there; run `herald passwd {} {}` and mail it to the new player",
                    w.store.dir.secrets().display(),
                    o.player,
                    dir.root().display(),
                    o.player
                ))
            })?
    } else {
        commit_seat(
            c,
            &mut w,
            &o,
            &taker,
            seat,
            (&salt, in_entry),
            holder,
            &mut secrets,
        )?
    };
    let mails = handover_mails(c, &w, seat, &o, &password, old_address.as_deref())?;
    crate::store::outbox::queue_all(&w.store.dir.outbox_dir(), mails)?;
    let turn = w.game.head().turn;
    let player = o.player.clone();
    let o = &mut rec.offers[i];
    o.status = OfferStatus::Done;
    o.done = Some(format!("taken over {} from turn {turn}", c.now));
    save(&c.host, rec)?;
    // The new holder has a seat now: off the standby list, whose offers
    // are for players without one.
    let mut list = standby(&c.host)?;
    let before = list.list.len();
    list.list
        .retain(|e| !e.address.eq_ignore_ascii_case(&taker.address));
    if list.list.len() != before {
        save_standby(&c.host, &list)?;
    }
    Ok(format!(
        "seat {player} taken over from turn {turn}{}",
        if already {
            " (completed after an interrupted pass)"
        } else {
            ""
        }
    ))
}

/// The `seat` entry of a handover committed: the taker's name, a new
/// password (written to the secrets first) and address, the misses of the
/// seat forgotten. The new password.
#[allow(clippy::too_many_arguments)]
fn commit_seat(
    c: &Clock,
    w: &mut pipeline::Writing,
    o: &Offer,
    taker: &Seat,
    seat: usize,
    (salt, in_entry): (&str, Option<String>),
    holder: String,
    secrets: &mut crate::store::Secrets,
) -> Result<String> {
    if w.game.head().outcome.is_some() {
        return Err(Error::refused("the game is over"));
    }
    pipeline::forward_in_time(&w.game, &c.now)?;
    let (pw, pw_salt) = crate::auth::new_secret(None);
    let hash = crate::auth::hash(&pw, &pw_salt, crate::auth::Cost::Standard);
    let turn = w.game.head().turn;
    let display = taker.name.clone().unwrap_or_else(|| o.player.clone());
    w.game.record.append(
        &Body::Seat(SeatChange {
            player: o.player.clone(),
            name: display.clone(),
            why: o.why.clone(),
            turn,
            salt: in_entry.clone(),
            holder_sha256: holder.clone(),
            password: hash.clone(),
            at: c.now.clone(),
        }),
        &w.signer,
    );
    {
        let head = &mut w.game.record.head;
        let p = &mut head.players[seat];
        p.name = display;
        p.password = hash;
        p.email = Some(taker.address.clone());
        // Format 5 binds the address; older formats hold it.
        if in_entry.is_none() {
            p.address_sha256 = Some(holder);
            p.file_email = None;
        } else {
            p.file_email = Some(taker.address.clone());
        }
        if let Some(m) = head.missed.iter_mut().find(|m| m.player == o.player) {
            m.in_a_row = 0;
            m.dropped = false;
        }
    }
    w.game.record.seal_with(&w.signer);
    // The new password first: a crash before the commit leaves the old
    // seat as it was, and the next pass draws another.
    secrets.passwords.insert(o.player.clone(), pw.clone());
    // A time zone is its holder's, not the seat's: the new holder's
    // reports show UTC until they send their own.
    secrets.zones.remove(&o.player);
    w.game.zones.remove(&o.player);
    if in_entry.is_none() {
        secrets.bind(crate::store::secrets::Address {
            player: o.player.clone(),
            address: taker.address.clone(),
            salt: salt.to_string(),
        });
    }
    secrets.write(&w.store.dir.secrets(), &w.game.head().id)?;
    w.commit(&c.now)?;
    Ok(pw)
}

/// Seat `o.player`'s whole history as `herald export` writes it, as
/// attachments.
fn history(w: &pipeline::Writing, o: &Offer) -> Result<Vec<eml::Attachment>> {
    let g = &w.game;
    let h = g.head();
    let tmp = tempfile::Builder::new()
        .prefix(".export-")
        .tempdir_in(w.store.dir.root())
        .map_err(|e| Error::io(w.store.dir.root(), e))?;
    let seed = match &h.seed {
        Some(s) => s.clone(),
        None => w.store.secrets()?.seed,
    };
    let press = pipeline::press::all_kept(g, &w.store)?;
    let files = pipeline::history::export(g, &seed, &w.signer, &o.player, tmp.path(), &press)?;
    let mut attachments = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).map_err(|e| Error::io(f, e))?;
        attachments.push(eml::Attachment {
            name: f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            mime: "text/plain".into(),
            bytes,
        });
    }
    Ok(attachments)
}

/// The new player's mail (password, history, current report), the other
/// players' notice, the old holder's.
///
/// Long (about 90 lines): three kinds of mail (the new player's, the other
/// players', the old holder's), each a literal built from the same head.
fn handover_mails(
    c: &Clock,
    w: &pipeline::Writing,
    seat: usize,
    o: &Offer,
    password: &str,
    old: Option<&str>,
) -> Result<Vec<(String, Vec<u8>)>> {
    let g = &w.game;
    let h = g.head();
    let id = h.id.clone();
    let address = (c.game_address)(&id);
    let p = &h.players[seat];
    let Some(to) = p.email.clone() else {
        return Ok(Vec::new());
    };
    let mut mails = Vec::new();
    // The seat's history, as `herald export` writes it.
    let attachments = history(w, o)?;
    let mid = eml::message_id(&id, &["takeover", &o.player, &o.n.to_string()]);
    let text = format!(
        "Hello,\n\nthe seat {} of game {id} ({}) is yours from turn {}.\n\nYour player id:  {}\nYour password:   {password}\n\nKeep the password: every order mail needs it. Send your orders to\n{address} (replying to your report mail does that).\n\nAttached: the seat's whole history as `herald export` writes it (each\nreport it had, and the orders it sent, with their receipts). Your\ncurrent report comes in its own mail.\n",
        o.player, g.entry.title, h.turn, o.player
    );
    mails.push((
        mid.clone(),
        eml::build(&eml::Mail {
            from: address.clone(),
            to: to.clone(),
            subject: format!("[{id}] you have taken over {}", o.player),
            date: c.now.clone(),
            message_id: mid,
            in_reply_to: None,
            text,
            attachments,
        }),
    ));
    // The current report, as the turn's report mail.
    let r = pipeline::render::all(g, seat, Some(&w.signer))?;
    if let Some(m) = pipeline::derived::report_mail_as(g, seat, &r, &c.now, w.mail.clone()) {
        mails.push(m);
    }
    for (i, q) in h.players.iter().enumerate() {
        let Some(qto) = &q.email else { continue };
        if i == seat {
            continue;
        }
        let mid = eml::message_id(&id, &["seat-changed", &o.player, &o.n.to_string(), &q.id]);
        mails.push((
            mid.clone(),
            eml::build(&eml::Mail {
                from: address.clone(),
                to: qto.clone(),
                subject: format!("[{id}] {} has a new player", o.player),
                date: c.now.clone(),
                message_id: mid,
                in_reply_to: None,
                text: format!(
                    "Hello,\n\nthe seat {} of game {id} has a new player from turn {} ({}).\nThe game goes on as before; the game's log records the change of hands.\n",
                    o.player,
                    h.turn,
                    why_words(&o.why)
                ),
                attachments: Vec::new(),
            }),
        ));
    }
    if let Some(old) = old.filter(|a| !a.eq_ignore_ascii_case(&to)) {
        let mid = eml::message_id(&id, &["seat-lost", &o.player, &o.n.to_string()]);
        mails.push((
            mid.clone(),
            eml::build(&eml::Mail {
                from: address,
                to: old.to_string(),
                subject: format!("[{id}] your seat {} has a new player", o.player),
                date: c.now.clone(),
                message_id: mid,
                in_reply_to: None,
                text: format!(
                    "Hello,\n\nthe seat {} of game {id} was given to a new player from turn {} ({}).\nYour password no longer works in this game.\n",
                    o.player,
                    h.turn,
                    why_words(&o.why)
                ),
                attachments: Vec::new(),
            }),
        ));
    }
    Ok(mails)
}
