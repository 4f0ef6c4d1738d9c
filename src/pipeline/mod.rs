//! What happens to a game: created, orders checked and accepted, phases
//! resolved (with stand-ins for missed orders), replayed, undone; and the
//! workflows of the commands that change a game, each under the game's
//! lock with the game file as its commit point.
//!
//! Imports flow one way (`src/lib.rs` gives the order): `cli` and the host
//! call this; this uses `mail`, `report`, `store`, `auth`, `chain`, `bots`
//! and `games`, which know nothing of it. Within it, files use each other
//! one way too: `create` and `derived` both use `loaded`, and `create`
//! uses `derived`, not the other way.

pub mod check;
pub mod convert;
pub mod create;
pub mod demo;
pub mod derived;
pub mod ending;
pub mod history;
pub mod inbox;
pub mod loaded;
pub mod mutes;
pub mod nmr;
pub mod press;
pub mod relay;
pub mod render;
pub mod replay;
pub mod resolve;
pub mod sealed;
pub mod status;
pub mod witness;

pub use check::{check_orders, Accepted, Submitted};
pub use create::{create, Created, MailSettings, NewGame, DEFAULT_DROP_AFTER};
pub use loaded::Loaded;

use crate::chain::body::{Body, DeadlineSet, Passwd};
use crate::chain::canon::sha256_hex;
use crate::chain::Signer;
use crate::error::{Error, Result};
use crate::store::{limits, orders, Store};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A game opened to read: no lock.
pub fn open(arg: &Path) -> Result<(Store, Loaded)> {
    let store = Store::reader(loaded::folder(arg)?);
    let g = Loaded::open(&store)?;
    loaded::own_key(&store, &g)?;
    Ok((store, g))
}

/// A game opened to change: its lock held, its key read and matched
/// against the game's. What an interrupted command left undone is found on
/// opening but done only by [`Writing::complete`]: by a command that goes
/// on to change the game, before it does (a refused command writes
/// nothing, reports included), and by the host at once.
pub struct Writing {
    pub store: Store,
    pub game: Loaded,
    pub signer: Signer,
    /// An interrupted command's derived files (reports, mails, clearing)
    /// are still to be done: [`Writing::complete`] does them.
    pub unfinished: bool,
    /// This writer completed an interrupted command's work.
    pub completed: bool,
    /// How the report mails this writer queues are built.
    pub mail: derived::MailForm,
    /// After a commit whose derived files could not all be written (a
    /// full disk): what to tell the user. The game file is committed.
    pub incomplete: Option<String>,
}

pub fn open_to_write(arg: &Path, wait: Duration, now: &str) -> Result<Writing> {
    open_to_write_with(arg, wait, now, derived::MailForm::default())
}

/// [`open_to_write`], with report mails (those completed on opening and
/// those the commit queues) built as `mail` says: the host's carry a PNG.
pub fn open_to_write_with(
    arg: &Path,
    wait: Duration,
    _now: &str,
    mail: derived::MailForm,
) -> Result<Writing> {
    let store = Store::writer(loaded::folder(arg)?, wait)?;
    let game = Loaded::open(&store)?;
    let signer = store.signer()?;
    if signer.public() != game.key {
        return Err(Error::refused(format!(
            "{}: the key there is not this game's ({}): a game is changed only with the key it began with",
            store.dir.key().display(),
            game.key.fingerprint()
        )));
    }
    let unfinished = derived::unfinished(&store, &game)?;
    Ok(Writing {
        store,
        game,
        signer,
        unfinished,
        completed: false,
        mail,
        incomplete: None,
    })
}

impl Writing {
    /// The seed, from the secrets file.
    pub fn seed(&self) -> Result<String> {
        let s = self.store.secrets()?;
        if sha256_hex(s.seed.as_bytes()) != self.game.head().seed_commitment {
            return Err(Error::refused(format!(
                "{}: its seed is not this game's (it does not match the commitment)",
                self.store.dir.secrets().display()
            )));
        }
        Ok(s.seed)
    }

    /// Do what an interrupted command left undone (its reports, report
    /// mails dated `now`, the clearing of resolved orders), if anything.
    /// Returns whether there was something. Called on the game as it is
    /// on disk, before any change in memory.
    pub fn complete(&mut self, now: &str) -> Result<bool> {
        if self.unfinished {
            self.completed |= derived::finish_with(
                &self.store,
                &self.game,
                &self.signer,
                Some(now),
                self.mail.clone(),
            )?;
            self.unfinished = false;
        }
        Ok(self.completed)
    }

    /// Commit the game's record and complete what follows from it. The
    /// reports are rendered in memory while the game file is written and
    /// synced (the sync waits on the disk, the rendering on the cores);
    /// they are written only once the commit has succeeded, as before.
    ///
    /// Once the game file is committed the command has happened: derived
    /// files that cannot be written then (a full disk) do not undo it.
    /// They are told in [`Writing::incomplete`], and the next command on
    /// the game (or `herald report GAME --rebuild`) writes them.
    pub fn commit(&mut self, now: &str) -> Result<()> {
        if self.unfinished {
            return Err(Error::refused(
                "internal: a change committed before the last command's work was completed",
            ));
        }
        let text = self.game.record.to_text();
        let (committed, rendered) = std::thread::scope(|s| {
            let commit = s.spawn(|| self.store.commit(&text));
            // A rendering that fails is tried again, and its error told, by
            // `finish` below, after the commit.
            let rendered = derived::render_all(&self.game, &self.signer).ok();
            (commit.join(), rendered)
        });
        committed.map_err(|_| Error::internal("the commit's thread failed"))??;
        if let Err(e) = derived::finish_rendered(
            &self.store,
            &self.game,
            &self.signer,
            Some(now),
            self.mail.clone(),
            rendered,
        ) {
            self.incomplete = Some(incomplete(&self.store, &e));
        }
        Ok(())
    }
}

/// What to tell after a commit whose derived files failed: that the change
/// is made, what went wrong ("the disk is full" in words when it is), and
/// how to finish.
pub fn incomplete(store: &Store, e: &Error) -> String {
    format!(
        "the change is saved in {}, but its reports and report mails could not all be written: {}; {}then run `herald report {} --rebuild` (or any command that changes the game) to write them",
        store.dir.game_file().display(),
        e.problems.join("; "),
        if e.problems.iter().any(|p| p.contains(crate::error::DISK_FULL)) {
            "free some space on the disk, "
        } else {
            ""
        },
        store.dir.root().display()
    )
}

/// The time of the log's last entry (its `resolved_at` or `at`; the
/// game's creation for a new game).
pub fn last_time(g: &Loaded) -> Option<String> {
    let e = g.record.entries.last()?;
    let v: serde_json::Value = serde_json::from_str(&e.body).ok()?;
    ["resolved_at", "at", "created"]
        .iter()
        .find_map(|k| v[k].as_str().map(str::to_string))
}

/// A game's log goes forward in time: an entry dated before the last one
/// (a `--now` in the past, a clock set back) is refused before anything is
/// written (exit 2), so that `verify`'s rule that entries are in time
/// order holds for every file herald writes.
pub fn forward_in_time(g: &Loaded, now: &str) -> Result<()> {
    let Some(last) = last_time(g) else {
        return Ok(());
    };
    let (Ok(a), Ok(b)) = (
        chrono::DateTime::parse_from_rfc3339(now),
        chrono::DateTime::parse_from_rfc3339(&last),
    ) else {
        return Ok(());
    };
    if a < b {
        return Err(Error::usage(format!(
            "--now {now} is before the last entry of game {}'s log ({last}): a game's log goes forward in time; give a later --now",
            g.head().id
        )));
    }
    Ok(())
}

/// Order files named on the command line, size-limited.
pub fn read_order_files(paths: &[PathBuf]) -> Result<Vec<Submitted>> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for p in paths {
        match limits::read_text(p, limits::ORDER_FILE, "an order file") {
            Ok(t) => out.push(Submitted::file(p.display().to_string(), t)),
            Err(e) => problems.extend(e.problems),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(Error::all(problems))
    }
}

/// The orders stored for the turn the game waits for, each sealed with a
/// receipt the game's key signed: used without checking a password again.
pub fn stored_orders(w: &Writing) -> Result<Vec<Submitted>> {
    let head = w.game.head();
    let mut out = Vec::new();
    for s in orders::waiting(&w.store.dir, head.turn)? {
        let receipt = crate::chain::witness::Receipt {
            game: s.game.clone(),
            player: s.player.clone(),
            turn: s.turn,
            orders_sha256: s.sha256.clone(),
            chain_head: s.chain_head.clone(),
            accepted: s.accepted.clone(),
            key: head.key.clone(),
            signature: s.signature.clone(),
        };
        // Its place, named by its player (the file's name, checked by
        // `orders::waiting`): the turn's folder if that is no plain name.
        let place = match crate::names::Name::new("player id", &s.player) {
            Ok(player) => w.store.dir.stored_order(head.turn, &player),
            Err(_) => w.store.dir.orders_dir(head.turn),
        };
        if s.game != head.id || !receipt.signature_ok() || sha256_hex(s.text.as_bytes()) != s.sha256
        {
            return Err(Error::refused(format!(
                "{}: not sealed by this game's key (changed by hand?); remove it and ask {} to send the orders again",
                place.display(),
                s.player
            )));
        }
        out.push(Submitted {
            name: place.display().to_string(),
            text: s.text,
            check_password: false,
            received: s.received,
        });
    }
    Ok(out)
}

/// What `herald resolve` did, and the game as it is now.
pub struct Resolved {
    pub game: Loaded,
    pub step: Step,
    /// An earlier run was cut short, and its unfinished work (reports,
    /// mails) is done now.
    pub completed: bool,
}

/// `herald resolve`: with order files, those; without, the orders stored
/// for the turn. Before the deadline every awaited player's orders are
/// needed; at or after it, the missed-order policy stands in.
pub fn resolve(arg: &Path, files: &[PathBuf], now: &str, wait: Duration) -> Result<Resolved> {
    let mut w = open_to_write(arg, wait, now)?;
    let completed = w.completed;
    let step = resolve_writing(&mut w, files, now)?;
    if let Some(m) = &w.incomplete {
        crate::error::warn(m);
    }
    Ok(Resolved {
        game: w.game,
        step,
        completed,
    })
}

/// What a resolve did with the turn it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// This turn was resolved and committed.
    Phase(u32),
    /// These orders had been resolved already, in this turn.
    Already(u32),
}

/// `herald resolve` on a game already open to write (the host resolves
/// under the lock it holds): the same checks, the same commit.
pub fn resolve_writing(w: &mut Writing, files: &[PathBuf], now: &str) -> Result<Step> {
    resolve_excusing(w, files, now, &[])
}

/// [`resolve_writing`], with `excused`: players away on vacation whose
/// missing orders the stand-in plays without counting a miss (recorded
/// in the phase's `excused`).
pub fn resolve_excusing(
    w: &mut Writing,
    files: &[PathBuf],
    now: &str,
    excused: &[String],
) -> Result<Step> {
    let submitted = if files.is_empty() {
        stored_orders(w)?
    } else {
        read_order_files(files)?
    };
    if let Some(turn) = already_resolved(w, &submitted) {
        w.complete(now)?;
        return Ok(Step::Already(turn));
    }
    let mut submitted = submitted;
    if !files.is_empty() {
        // Orders stored for players the files leave out were accepted, with
        // a receipt: they count, as they would without files.
        let player = |f: &Submitted| {
            crate::orders::OrderFile::parse(&f.name, &f.text)
                .ok()
                .map(|o| o.player)
        };
        let given: Vec<String> = submitted.iter().filter_map(player).collect();
        for s in stored_orders(w)? {
            if player(&s).is_some_and(|p| !given.contains(&p)) {
                submitted.push(s);
            }
        }
    }
    if files.is_empty() && submitted.is_empty() && w.unfinished {
        // Run again after a cut-short resolve: its orders are in the log.
        w.complete(now)?;
        return Ok(Step::Already(w.game.head().turn.saturating_sub(1)));
    }
    forward_in_time(&w.game, now)?;
    let seed = w.seed()?;
    let mut accepted = resolve::accept_all(&w.game, &submitted, now, &seed)?;
    resolve::received_by(&mut accepted, now);
    if !excused.is_empty() && w.game.head().format < crate::chain::EXCUSED_FORMAT {
        return Err(Error::refused(format!(
            "game {} is a game file of format {}, and a phase played by a stand-in for a player away needs format {}: run `herald convert {}` once, then try again",
            w.game.head().id,
            w.game.head().format,
            crate::chain::EXCUSED_FORMAT,
            w.store.dir.root().display()
        )));
    }
    accepted.excused = excused.to_vec();
    // Accepted: what the last command left undone is done now, on the
    // game as it stands, before this one changes it.
    w.complete(now)?;
    // The zones of files given here (stored orders' were kept on
    // arrival), in place for the reports this commit makes, the secrets
    // file put in place after the commit as `passwd` does.
    let zones = std::mem::take(&mut accepted.zones);
    let zones = prepare_zones(w, &zones)?;
    let turn = w.game.head().turn;
    w.game.advance(accepted, now, &seed, &w.signer);
    w.commit(now)?;
    if let Some(z) = zones {
        z.put()?;
    }
    Ok(Step::Phase(turn))
}

/// Files that are exactly the orders the last phase recorded, each with
/// its player's right password: a resolve run again after a crash. (A
/// file with a wrong password is never taken for one: it goes on to be
/// refused.)
fn already_resolved(w: &Writing, files: &[Submitted]) -> Option<u32> {
    if files.is_empty() {
        return None;
    }
    let last = w.game.last_phase()?;
    let head = w.game.head();
    let all = files.iter().all(|f| {
        crate::orders::OrderFile::parse(&f.name, &f.text).is_ok_and(|of| {
            let recorded = of.turn == last.turn
                && last.orders.iter().any(|o| {
                    o.player == of.player && o.sha256 == sha256_hex(of.redacted().as_bytes())
                });
            recorded
                && (!f.check_password
                    || head.player_index(&of.player).is_some_and(|seat| {
                        crate::auth::matches(&of.password, &head.players[seat].password)
                    }))
        })
    });
    all.then_some(last.turn)
}

/// `herald deadline`: set or clear the current phase's deadline; the change
/// is a log entry.
pub fn set_deadline(
    arg: &Path,
    deadline: Option<String>,
    now: &str,
    wait: Duration,
) -> Result<Loaded> {
    let mut w = open_to_write(arg, wait, now)?;
    if w.game.head().outcome.is_some() {
        return Err(Error::refused(format!(
            "game {} is over; it has no deadline to set",
            w.game.head().id
        )));
    }
    forward_in_time(&w.game, now)?;
    w.complete(now)?;
    w.game.record.append(
        &Body::Deadline(DeadlineSet {
            deadline: deadline.clone(),
            at: now.to_string(),
        }),
        &w.signer,
    );
    w.game.record.head.deadline = deadline;
    w.game.record.seal_with(&w.signer);
    w.commit(now)?;
    if let Some(m) = &w.incomplete {
        crate::error::warn(m);
    }
    Ok(w.game)
}

/// The players' time zones the `tz` lines of accepted orders ask for
/// (README, "Time zones"), in the game's secrets file: the new file
/// prepared beside the old one (synced, mode 0600 from its first byte, as
/// `passwd` writes it) for the caller to put in place once the orders are
/// kept, and in `w`'s game at once for the reports made next. `None`
/// where no zone changes. The zones never reach the game file.
pub fn prepare_zones(
    w: &mut Writing,
    zones: &[(String, crate::orders::Zone)],
) -> Result<Option<crate::store::write::Prepared>> {
    if zones.is_empty() {
        return Ok(None);
    }
    let mut secrets = w.store.secrets()?;
    let before = secrets.zones.clone();
    for (player, zone) in zones {
        match zone {
            crate::orders::Zone::Set(name) => {
                secrets.zones.insert(player.clone(), name.clone());
            }
            crate::orders::Zone::Clear => {
                secrets.zones.remove(player);
            }
        }
    }
    if secrets.zones == before {
        return Ok(None);
    }
    let prepared = secrets.prepare(&w.store.dir.secrets(), &w.game.head().id)?;
    w.game.zones = secrets.zones;
    Ok(Some(prepared))
}

/// [`prepare_zones`] for one player's orders, put in place at once (the
/// orders are stored already).
pub fn keep_zone(w: &mut Writing, player: &str, zone: &crate::orders::Zone) -> Result<()> {
    match prepare_zones(w, &[(player.to_string(), zone.clone())])? {
        Some(p) => p.put(),
        None => Ok(()),
    }
}

/// `herald passwd`: a new password for a player; the new hash is a log
/// entry, the password goes to the secrets file (0600) and is returned.
pub fn passwd(
    arg: &Path,
    player: &str,
    now: &str,
    wait: Duration,
) -> Result<(Loaded, String, PathBuf)> {
    let mut w = open_to_write(arg, wait, now)?;
    let seat = w.game.seat_of(player)?;
    if let Some(bot) = w.game.genesis.bot(player) {
        return Err(Error::refused(format!(
            "{player} is a bot seat (bot `{bot}`): it has no password, and nobody sends its orders"
        )));
    }
    forward_in_time(&w.game, now)?;
    w.complete(now)?;
    let (pw, salt) = crate::auth::new_secret(None);
    let hash = crate::auth::hash(&pw, &salt, crate::auth::Cost::Standard);
    let mut secrets = w.store.secrets()?;
    secrets.passwords.insert(player.to_string(), pw.clone());
    w.game.record.append(
        &Body::Passwd(Passwd {
            player: player.to_string(),
            password: hash.clone(),
            at: now.to_string(),
        }),
        &w.signer,
    );
    w.game.record.head.players[seat].password = hash;
    w.game.record.seal_with(&w.signer);
    // The new secrets file is written beside the old one and synced
    // first (a full disk fails here, nothing changed), the game file
    // committed, and only then the secrets put in place: a command that
    // fails before its commit leaves secrets.toml as it was, the old
    // password in it and working. (A kill in the instant between the two
    // renames leaves the old password in secrets.toml and the new hash in
    // the game: `herald passwd` again gives the player a new one; the
    // temporary file is swept by the next command.)
    let path = w.store.dir.secrets();
    let prepared = secrets.prepare(&path, &w.game.head().id)?;
    w.commit(now)?;
    prepared.put()?;
    if let Some(m) = &w.incomplete {
        crate::error::warn(m);
    }
    Ok((w.game, pw, path))
}
