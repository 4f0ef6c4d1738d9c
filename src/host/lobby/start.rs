//! Tables become games: when full, or at their start time with at least
//! the minimum (else they are cancelled and their players and the
//! moderator told). The game is created by `pipeline::create`, exactly as
//! `herald new` creates one, with the table's name as its id; the players'
//! ids come from their display names, and their seat order is drawn from
//! the game's seed (committed in the game, revealed at its end):
//!
//! ```text
//! order = the ids (the people's, and the bot seats' names) sorted, then shuffled (Fisher-Yates, from the last
//!         place down, j = rng::below(i + 1)) with
//!         rng::phase_rng(seed, table, 0, "lobby seats")
//! ```
//!
//! so anyone can check the order from the finished game file alone. When
//! players asked for sides (`join … prefer`), the seats are then dealt by
//! their preferences (`community::preferences::deal`, ties broken by that
//! drawn order), and the genesis records the preferences.
//!
//! Crash safety: the table is marked `starting` before anything else; the
//! game folder is built aside and renamed into place (`store::building`),
//! so it exists whole or not at all, and never twice; the welcome mails
//! (each player's password) have fixed Message-IDs; the table is marked
//! `started` last. A pass cut short anywhere is completed by the next.

use super::{HostDir, Starts, Status, Table};
use crate::error::Result;
use crate::mail::eml;
use crate::names::Name;
use crate::pipeline::{self, MailSettings, NewGame};
use crate::store::OutboxDir;
use std::collections::BTreeSet;

/// What the pass gives the lobby's clock.
pub struct Clock<'a> {
    pub host: HostDir,
    /// The host's plain address.
    pub from: String,
    pub game_address: &'a dyn Fn(&str) -> String,
    /// The moderator's own address (host.toml), told of a cancelled table.
    pub moderator: Option<String>,
    pub now: String,
    pub now_time: chrono::DateTime<chrono::FixedOffset>,
}

/// A player id from a display name: lowercase letters and digits, other
/// runs made one `-`, at most 20 characters; `player-N` (N: the seat's
/// place in joining order) when nothing is left; made unique with `-2`,
/// `-3` … in joining order.
pub fn player_ids(t: &Table) -> Vec<String> {
    // The bot seats' names are the table's: a person's is made another.
    let mut taken: BTreeSet<String> = t.bots.keys().cloned().collect();
    let mut out = Vec::new();
    for (i, s) in t.seats.iter().enumerate() {
        let base = s
            .name
            .as_deref()
            .and_then(super::id_from_name)
            .unwrap_or_else(|| format!("player-{}", i + 1));
        let mut id = base.clone();
        let mut k = 2;
        while taken.contains(&id) {
            id = format!("{base}-{k}");
            k += 1;
        }
        taken.insert(id.clone());
        out.push(id);
    }
    out
}

/// The seat order drawn from the seed (the module's documentation), as
/// the deal of seat preferences draws it.
pub fn seat_order(ids: &[String], seed: &str, table: &str) -> Vec<String> {
    crate::community::preferences::drawn(ids, seed, table)
}

/// Everything due in the lobby at `now`: tables full or at their start
/// time started (or cancelled), starts cut short completed. Returns what
/// happened, a line each ("t1: started as game t1 with 4 players").
pub fn tick(c: &Clock) -> (Vec<String>, Vec<String>) {
    let (tables, mut problems) = super::all(&c.host);
    let mut lines = Vec::new();
    for t in tables {
        let due = match t.status {
            Status::Starting => true,
            Status::Open if t.seats.len() >= t.max => true,
            Status::Open => match &t.starts {
                Starts::Full => false,
                Starts::At(at) => crate::time::parse_time(at).is_ok_and(|a| a <= c.now_time),
            },
            _ => false,
        };
        if !due {
            continue;
        }
        let name = t.name.clone();
        let r = if t.status == Status::Open && t.seats.len() < t.min {
            cancel(c, t)
        } else {
            start(c, t)
        };
        match r {
            Ok(l) => lines.push(format!("{name}: {l}")),
            Err(e) => problems.push(format!("table {name}: {e}")),
        }
    }
    (lines, problems)
}

/// Start a table's game (or complete a start cut short).
///
/// Long (about 85 lines): the table marked, the seats dealt, the game
/// created as `herald new` creates it, its lobby record, the welcomes.
pub fn start(c: &Clock, mut t: Table) -> Result<String> {
    let name: Name = t.name()?;
    if t.status == Status::Open {
        t.status = Status::Starting;
        t.pending.clear();
        super::save(&c.host, &t)?;
    }
    let ids = player_ids(&t);
    let dir = c.host.game(&name);
    let created_now = !dir.game_file().exists();
    if created_now {
        let seed = crate::rng::os_hex(32);
        // The bot seats are drawn into the order with the people's; the
        // seats dealt by the preferences the players stated (none: the
        // drawn order itself).
        let all: Vec<String> = ids.iter().chain(t.bots.keys()).cloned().collect();
        let preferences: std::collections::BTreeMap<String, Vec<String>> = ids
            .iter()
            .zip(&t.seats)
            .filter(|(_, s)| !s.prefer.is_empty())
            .map(|(id, s)| (id.clone(), s.prefer.clone()))
            .collect();
        let order = crate::community::preferences::deal(
            &seat_order(&all, &seed, name.as_str()),
            &crate::community::preferences::sides(&t.game, all.len()),
            &preferences,
        );
        let emails = ids
            .iter()
            .zip(&t.seats)
            .map(|(id, s)| format!("{id}={}", s.address))
            .collect();
        pipeline::create(NewGame {
            game: t.game.clone(),
            rules: None,
            players: order,
            seed: Some(seed),
            options: t.options.clone(),
            setup: None,
            id: Some(name.as_str().to_string()),
            out: dir.root().to_path_buf(),
            key: None,
            now: c.now_time,
            secrets_from_seed: false,
            light_passwords: false,
            mail: MailSettings {
                deadline_every: t.deadline_every.clone(),
                deadline: None,
                nmr: t.nmr.clone(),
                drop_after: t.drop_after,
                moderator: Some((c.game_address)(name.as_str())),
                emails,
                zones: Vec::new(),
                // The press rules the table chose (checked when it was
                // opened), given as `herald new`'s flags.
                press: t.press_settings(),
                bots: t.bots.iter().map(|(p, b)| format!("{p}={b}")).collect(),
                preferences,
                // Each seat's display name beside its id in the game
                // (format 8): the name the player joined under (one a
                // hand-written table holds that is no display name: none).
                names: ids
                    .iter()
                    .zip(&t.seats)
                    .filter_map(|(id, s)| {
                        let n = s.name.as_deref()?;
                        crate::chain::rules::is_display_name(n).then(|| format!("{id}={n}"))
                    })
                    .collect(),
            },
        })?;
    }
    // The game's lobby record: its vacation allowance and whether a
    // takeover waits for the moderator (kept when there is one).
    if super::seats::load(&c.host, &name)?.is_none() {
        let mut rec = super::seats::GameSeats::new(name.as_str());
        rec.vacation_days = t.vacation_days;
        rec.vacation = t.vacation;
        rec.approve = t.approve_takeovers;
        rec.seats_per_address = t.seats_per_address;
        super::seats::save(&c.host, &rec)?;
    }
    welcome(c, &t, &name)?;
    t.status = Status::Started;
    t.closed = Some(format!("started {} as game {name}", c.now));
    super::save(&c.host, &t)?;
    Ok(format!(
        "started as game {name} with {} players{}",
        t.seats.len() + t.bots.len(),
        if created_now {
            ""
        } else {
            " (completed after an interrupted pass)"
        }
    ))
}

/// Each player's password and the game's address, from the game's
/// address, queued in the game's outbox (fixed Message-IDs). The turn-0
/// report mails were queued by the game's creation.
fn welcome(c: &Clock, t: &Table, name: &Name) -> Result<()> {
    let dir = c.host.game(name);
    let (store, g) = pipeline::open(dir.root())?;
    let secrets = store.secrets()?;
    let head = g.head();
    let address = (c.game_address)(name.as_str());
    // A bot seat is named with its bot: the players know whom they face.
    let order: Vec<String> = head
        .players
        .iter()
        .map(|p| match g.genesis.bot(&p.id) {
            Some(b) => format!("{} (herald's bot {b})", p.id),
            None => p.id.clone(),
        })
        .collect();
    let mut mails = Vec::new();
    for p in &head.players {
        let Some(to) = &p.email else { continue };
        let Some(pw) = secrets.passwords.get(&p.id) else {
            continue;
        };
        let mid = eml::message_id(name.as_str(), &["lobby-welcome", &p.id]);
        let every = t
            .deadline_every
            .as_deref()
            .map(|d| format!("Each phase has a deadline {d} after the one before.\n"))
            .unwrap_or_default();
        let text = format!(
            "Hello,\n\ntable `{name}` is full and its game has begun: {} ({}).\n\nYour player id:  {}\nYour password:   {pw}\n\nKeep the password: every order mail needs it. Send your orders to\n{address} (replying to your report mail does that).\nYour first report comes in its own mail.\n\nThe seats, in the order drawn from the game's seed (checkable once the\ngame is over and its seed revealed): {}.\n{every}",
            t.game,
            head.id,
            p.id,
            order.join(", ")
        );
        let mail = eml::Mail {
            from: address.clone(),
            to: to.clone(),
            subject: format!("[{name}] your seat and password"),
            date: c.now.clone(),
            message_id: mid.clone(),
            in_reply_to: None,
            text,
            attachments: Vec::new(),
        };
        mails.push((mid, eml::build(&mail)));
    }
    crate::store::outbox::queue_all(&store.dir.outbox_dir(), mails)?;
    Ok(())
}

/// A table whose start time came with fewer than the minimum: its players
/// and the moderator told (from the host's address), then closed.
fn cancel(c: &Clock, mut t: Table) -> Result<String> {
    let why = format!(
        "its start time ({}) came with {} of the {} players it needs",
        match &t.starts {
            Starts::At(a) => a.as_str(),
            Starts::Full => "",
        },
        t.seats.len(),
        t.min
    );
    // The seated players and the moderator; not the joins still waiting
    // for their codes (an address that never confirmed is mailed nothing
    // more: a forged join's address has had its one mail); a confirmation
    // that comes later is told the table was cancelled.
    let mut to: Vec<String> = t.seats.iter().map(|s| s.address.clone()).collect();
    to.extend(c.moderator.clone());
    let mut mails = Vec::new();
    for addr in to {
        let mid = eml::message_id("host", &["lobby-cancel", &t.name, &addr]);
        let mail = eml::Mail {
            from: c.from.clone(),
            to: addr.clone(),
            subject: format!("table {} cannot start", t.name),
            date: c.now.clone(),
            message_id: mid.clone(),
            in_reply_to: None,
            text: format!(
                "Hello,\n\ntable `{}` ({}) cannot start: {why}. It is closed; no game was made.\n\n{}",
                t.name,
                t.game,
                super::commands::HELP
            ),
            attachments: Vec::new(),
        };
        mails.push((mid, eml::build(&mail)));
    }
    crate::store::outbox::queue_all(&OutboxDir::at(c.host.outbox()), mails)?;
    t.status = Status::Cancelled;
    t.closed = Some(format!("cancelled {}: {why}", c.now));
    super::save(&c.host, &t)?;
    Ok(format!("cancelled: {why}"))
}
