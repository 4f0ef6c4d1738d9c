//! The lobby (docs/host.md, "The lobby"): tables the moderator opens
//! (`herald host open`), which players join by mail with a confirmation
//! round trip, and which become games, created as `herald new` creates
//! them, when they are full or their start time comes.
//!
//! A table is one file, `DIR/lobby/<table>.json` (0600, written
//! atomically), changed only by the host's pass (which holds `host.lock`)
//! or created by `herald host open` (a new file, never an existing one),
//! or by a pass from the moderator's `DIR/lobby/open/<table>.toml`
//! ([`from_file`], through the same [`open`]).
//! Every mail the lobby answers is recorded in the table it changed with
//! its content hash, so a mail handled again after a crash finds what it
//! did and queues the same reply (the same Message-ID, the same file); a
//! confirmation code is drawn from `DIR/lobby/key` and the mail's hash,
//! so it is the same code again, and only its sha256 is kept.

//!
//! The tables' records, the requests waiting for their codes and the
//! games' seats offered are the door's (`crate::requests::lobby`, which
//! decides the lobby's requests); they are named here too for the host's
//! own code.

pub mod commands;
pub mod from_file;
pub mod seats;
pub mod start;

pub use crate::requests::lobby::confirm;
pub use crate::requests::lobby::tables::*;

use super::layout::HostDir;
use crate::error::{Error, Result};
use crate::names::Name;
use crate::store::write;
use std::path::Path;

/// What `herald host open` was given.
pub struct OpenTable {
    pub table: String,
    pub game: String,
    /// "3-6" or "4".
    pub seats: Option<String>,
    pub options: Vec<String>,
    pub deadline_every: Option<String>,
    pub nmr: Option<String>,
    /// "full" or a time.
    pub starts_when: String,
    pub now: String,
    pub vacation_days: u32,
    /// `extend` or `stand-in` (default extend).
    pub vacation: Option<String>,
    pub approve_takeovers: bool,
    pub drop_after: Option<u32>,
    /// Seats one address may hold in the game (`--seats-per-address`).
    pub seats_per_address: Option<u32>,
    /// `--min-reliability`: 0 to 100.
    pub min_reliability: Option<u32>,
    /// `--min-rating`, `--max-rating`: whole rating points.
    pub min_rating: Option<u32>,
    pub max_rating: Option<u32>,
    /// `--press`, `--press-while-resolving`, `--press-after-end`,
    /// `--press-reveal`, checked as `herald new` checks them.
    pub press: crate::pipeline::press::Settings,
    /// The sha256 of the table file it came from (`lobby/open/`), if any.
    pub from_file: Option<String>,
    /// `--bot-seats`: seat=bot, the seats herald's bots play.
    pub bot_seats: Vec<String>,
}

/// `herald host open DIR TABLE …`: check everything `herald new` would
/// check of the table's game, then write the new table's file (never over
/// an existing one).
///
/// Long (about 100 lines): every check of `herald host open`'s flags, in the
/// order their problems are told, then the table written; the checks share the
/// game's ruleset.
pub fn open(dir: &Path, o: &OpenTable) -> Result<Table> {
    let host = HostDir::at(dir);
    let name = Name::new("table", &o.table).map_err(Error::usage)?;
    if super::layout::RESERVED.contains(&name.as_str()) {
        return Err(Error::usage(format!(
            "table `{name}`: a name the host keeps for itself; choose another"
        )));
    }
    let entry = crate::games::find(&o.game).ok_or_else(|| {
        Error::usage(format!(
            "--game {}: not a game herald knows; it knows {}",
            o.game,
            crate::games::names().join(", ")
        ))
    })?;
    let rules = entry.load(entry.ruleset).map_err(Error::internal)?;
    let bots = bot_seats(o, rules.as_ref())?;
    let (gmin, gmax) = rules.players();
    let (min, max) = seat_range(o, gmin, gmax, bots.len())?;
    // The options are checked for every number of players the table may
    // start with, as `herald new` will check them.
    for n in min..=max {
        let players: Vec<String> = (1..=n + bots.len()).map(|i| format!("p{i}")).collect();
        entry
            .check_new(rules.as_ref(), &players, &o.options)
            .map_err(|e| Error::usage(format!("with {n} players: {}", e.problems.join("; "))))?;
    }
    if let Some(d) = &o.deadline_every {
        crate::time::parse_span(d)
            .map_err(|e| Error::usage(format!("--deadline-every {d}: {e}")))?;
    }
    if let Some(n) = &o.nmr {
        if !entry.nmr.iter().any(|x| x.name() == n) {
            return Err(Error::usage(format!(
                "--nmr {n}: {} takes {}",
                o.game,
                entry
                    .nmr
                    .iter()
                    .map(|x| x.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    let vacation = match o.vacation.as_deref() {
        None => seats::VacationMode::Extend,
        Some(v) => seats::VacationMode::parse(v).ok_or_else(|| {
            Error::usage(format!(
                "--vacation {}: say {} (extend: a deadline waits for a player on vacation; stand-in: the game's stand-in plays for them, not counted as missed)",
                v.chars().take(32).collect::<String>(),
                seats::VacationMode::NAMES.join(" or ")
            ))
        })?,
    };
    if o.min_reliability.is_some_and(|m| m > 100) {
        return Err(Error::usage(
            "--min-reliability: a whole percent from 0 to 100 (the share of phases with orders in; docs/host.md, \"Reliability\")",
        ));
    }
    if let (Some(lo), Some(hi)) = (o.min_rating, o.max_rating) {
        if lo > hi {
            return Err(Error::usage(format!(
                "--min-rating {lo} --max-rating {hi}: the least rating must not be above the most (ratings are Glicko-2 points, a newcomer 1500; docs/host.md, \"Ratings\")"
            )));
        }
    }
    if o.seats_per_address == Some(0) {
        return Err(Error::usage(
            "--seats-per-address 0: give at least 1 (1: one person, one seat; more lets one address hold that many seats in the game)",
        ));
    }
    // The press flags, checked by the code that checks `herald new`'s.
    let press = o.press.rules().map_err(|problems| Error {
        kind: crate::error::Kind::Usage,
        problems,
    })?;
    let starts = if o.starts_when == "full" {
        Starts::Full
    } else {
        let t = crate::time::parse_time(&o.starts_when).map_err(|e| {
            Error::usage(format!(
                "--starts-when {}: `full`, or a time (RFC 3339 with its offset): {e}",
                o.starts_when
            ))
        })?;
        Starts::At(t.to_rfc3339())
    };
    let game_dir = host.game(&name);
    if game_dir.root().exists() {
        return Err(Error::refused(format!(
            "table `{name}`: {} exists already (a table becomes the game of that name); choose another name",
            game_dir.root().display()
        )));
    }
    let t = Table {
        name: name.as_str().to_string(),
        game: o.game.clone(),
        min,
        max,
        options: o.options.clone(),
        deadline_every: o.deadline_every.clone(),
        nmr: o.nmr.clone(),
        starts,
        opened: o.now.clone(),
        status: Status::Open,
        seats: Vec::new(),
        pending: Vec::new(),
        handled: Vec::new(),
        closed: None,
        vacation_days: o.vacation_days,
        vacation,
        approve_takeovers: o.approve_takeovers,
        drop_after: o.drop_after,
        seats_per_address: o.seats_per_address,
        min_reliability: o.min_reliability,
        min_rating: o.min_rating,
        max_rating: o.max_rating,
        press,
        from_file: o.from_file.clone(),
        bots,
    };
    create_table_file(&host, dir, &name, &t)?;
    Ok(t)
}

/// `--bot-seats` read: each `seat=bot`, the seat a name no other bot seat
/// has, the bot one the game takes (`bots::seat_spec`, kept by its
/// canonical name).
fn bot_seats(
    o: &OpenTable,
    rules: &dyn crate::games::Rules,
) -> Result<std::collections::BTreeMap<String, String>> {
    let mut bots = std::collections::BTreeMap::new();
    for b in &o.bot_seats {
        let Some((seat, spec)) = b.split_once('=') else {
            return Err(Error::usage(format!(
                "--bot-seats {b}: write each as seat=bot, e.g. --bot-seats bot=mcts:1000"
            )));
        };
        let seat = Name::new("--bot-seats", seat.trim()).map_err(Error::usage)?;
        let bot = crate::bots::seat_spec(rules, spec.trim())
            .map_err(|e| Error::usage(format!("--bot-seats {b}: {e}")))?;
        if bots
            .insert(seat.as_str().to_string(), bot.to_string())
            .is_some()
        {
            return Err(Error::usage(format!(
                "--bot-seats {b}: `{seat}` is named twice"
            )));
        }
    }
    Ok(bots)
}

/// `--seats N` or `--seats MIN-MAX`: the people's seats, which with the
/// `bots` bot seats make a number of players the game takes (`gmin` to
/// `gmax`; without `--seats`, every such number, at least one person).
fn seat_range(o: &OpenTable, gmin: usize, gmax: usize, bots: usize) -> Result<(usize, usize)> {
    if bots > 0 {
        if gmax <= bots {
            return Err(Error::usage(format!(
                "--bot-seats: {} takes at most {gmax} players, and {bots} bot seats leave none to a person",
                o.game
            )));
        }
        let (lo, hi) = (gmin.saturating_sub(bots).max(1), gmax - bots);
        return Ok(match o.seats.as_deref() {
            None => (lo, hi),
            Some(s) => {
                let parse = |x: &str| x.trim().parse::<usize>().ok();
                let r = match s.split_once('-') {
                    Some((a, b)) => parse(a).zip(parse(b)),
                    None => parse(s).map(|n| (n, n)),
                };
                match r {
                    Some((a, b)) if a <= b && a >= lo && b <= hi => (a, b),
                    _ => {
                        return Err(Error::usage(format!(
                            "--seats {s}: the people's seats, which with {bots} bot seats must make what {} takes ({gmin} to {gmax} players): give N or MIN-MAX within {lo} to {hi}",
                            o.game
                        )))
                    }
                }
            }
        });
    }
    Ok(match o.seats.as_deref() {
        None => (gmin, gmax),
        Some(s) => {
            let parse = |x: &str| x.trim().parse::<usize>().ok();
            let r = match s.split_once('-') {
                Some((a, b)) => parse(a).zip(parse(b)),
                None => parse(s).map(|n| (n, n)),
            };
            match r {
                Some((a, b)) if a <= b && a >= gmin && b <= gmax => (a, b),
                _ => {
                    return Err(Error::usage(format!(
                        "--seats {s}: give N or MIN-MAX within what {} takes ({gmin} to {gmax} players), e.g. --seats {gmin}-{gmax}",
                        o.game
                    )))
                }
            }
        }
    })
}

/// Write table `t`'s new file `lobby/NAME.json`, never over an existing
/// one: written beside, then linked into place, which fails if the table
/// exists.
fn create_table_file(host: &HostDir, dir: &Path, name: &Name, t: &Table) -> Result<()> {
    write::create_dir(&host.lobby())?;
    let mut bytes = serde_json::to_vec_pretty(t).expect("a table serialises");
    bytes.push(b'\n');
    // A new file only: written beside, then linked into place, which fails
    // if the table exists.
    let path = host.table(name);
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(host.lobby())
        .map_err(|e| Error::io(&path, e))?;
    std::io::Write::write_all(&mut tmp, &bytes).map_err(|e| Error::io(&path, e))?;
    tmp.as_file().sync_all().map_err(|e| Error::io(&path, e))?;
    tmp.persist_noclobber(&path).map_err(|e| {
        if e.error.kind() == std::io::ErrorKind::AlreadyExists {
            Error::refused(format!(
                "table `{name}` exists already ({}); `herald host status {}` shows it",
                path.display(),
                dir.display()
            ))
        } else {
            Error::io(&path, e.error)
        }
    })?;
    write::sync_dir(&host.lobby())?;
    Ok(())
}

/// A started table's seat as its game has it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatNow {
    /// The player id in the game.
    pub player: String,
    /// The display name the game has for the seat now.
    pub name: String,
    /// The holder's address: the joiner's, or the taker's after a
    /// takeover.
    pub address: String,
    /// The holder agreed to show it on the public page.
    pub public: bool,
    /// When the holder got the seat: the join's confirmation, or the
    /// takeover.
    pub since: String,
    /// The seat changed hands at least once.
    pub taken_over: bool,
}

/// A started table's game as it stands: its seats in the game's order
/// (drawn from the seed at the start, not the joining order), each with
/// its holder now, and the outcome once it is over. `None`: the table has
/// not started, or its game file cannot be read (the status page says
/// why elsewhere).
pub fn game_now(host: &HostDir, t: &Table) -> Option<(Vec<SeatNow>, Option<String>)> {
    if t.status != Status::Started {
        return None;
    }
    let name = t.name().ok()?;
    let path = host.game(&name).game_file();
    let head = {
        use std::io::{BufRead, Read};
        let f = std::fs::File::open(path).ok()?;
        let mut first = String::new();
        std::io::BufReader::new(f)
            .take(crate::store::limits::GAME_FILE)
            .read_line(&mut first)
            .ok()?;
        let v: serde_json::Value = serde_json::from_str(first.trim_end()).ok()?;
        v["head"].clone()
    };
    let ids = start::player_ids(t);
    let offers = seats::all(host)
        .into_iter()
        .find(|g| g.game == t.name)
        .map(|g| g.offers)
        .unwrap_or_default();
    let seats_now = head["players"]
        .as_array()?
        .iter()
        .map(|p| {
            let id = p["id"].as_str().unwrap_or("").to_string();
            let joiner = ids
                .iter()
                .position(|i| *i == id)
                .and_then(|i| t.seats.get(i));
            // the last takeover done of this seat, if any
            let taker = offers
                .iter()
                .filter(|o| o.player == id && o.status == seats::OfferStatus::Done)
                .filter_map(|o| o.taker.as_ref().map(|tk| (tk, o.done.clone())))
                .last();
            let taken_over = taker.is_some();
            let (address, public, since) = match (taker.clone(), joiner) {
                (Some((tk, done)), _) => (
                    tk.address.clone(),
                    tk.public,
                    done.unwrap_or_else(|| tk.at.clone()),
                ),
                (None, Some(j)) => (j.address.clone(), j.public, format!("confirmed {}", j.at)),
                (None, None) => (String::new(), false, String::new()),
            };
            // the game's name for the seat, else the one its holder gave
            // the lobby (a game file keeps the id as the name)
            let game_name = p["name"].as_str().filter(|n| *n != id);
            let given = match (taker, joiner) {
                (Some((tk, _)), _) => tk.name.clone(),
                (None, Some(j)) => j.name.clone(),
                (None, None) => None,
            };
            let name = game_name
                .map(str::to_string)
                .or(given)
                .unwrap_or_else(|| id.clone());
            SeatNow {
                name,
                player: id,
                address,
                public,
                since,
                taken_over,
            }
        })
        .collect();
    let outcome = head["outcome"]["summary"].as_str().map(str::to_string);
    Some((seats_now, outcome))
}

/// "red (Ann)": a player id with the display name beside it, where the
/// name says more than the id.
pub fn id_and_name(id: &str, name: &str) -> String {
    if name.is_empty() || name == id {
        id.to_string()
    } else {
        format!("{id} ({name})")
    }
}

/// The table's line for pages: what [`Table::describe`] says while it
/// fills, and once started, its game's state ("game t4: over, …").
pub fn describe_now(t: &Table, now: Option<&(Vec<SeatNow>, Option<String>)>) -> String {
    match (t.status, now) {
        (Status::Started, Some((seats, outcome))) => format!(
            "{} ({}): {} players; {}",
            t.name,
            t.game,
            seats.len(),
            match outcome {
                Some(o) => format!("game over: {o}"),
                None => format!("game {} under way", t.name),
            }
        ),
        (Status::Started, None) => format!("{} ({}): started", t.name, t.game),
        (Status::Cancelled, _) => format!("{} ({}): cancelled", t.name, t.game),
        _ => t.describe(),
    }
}

/// One table, its options, press, seats and the joins waiting for their
/// codes (`waiting`, from the lobby's requests), for [`status_text`]. A
/// started table's seats are its game's, in the game's order, each with
/// its holder now.
fn table_text(host: &HostDir, t: &Table, waiting: &[&confirm::Request]) -> String {
    let mut s = String::new();
    let now = game_now(host, t);
    s.push_str(&format!(
        "table {} [{}]\n",
        describe_now(t, now.as_ref()),
        match t.status {
            Status::Open => "open",
            Status::Starting => "starting",
            Status::Started if now.as_ref().is_some_and(|n| n.1.is_some()) => "over",
            Status::Started => "started",
            Status::Cancelled => "cancelled",
        }
    ));
    if !t.options.is_empty() {
        s.push_str(&format!("  options: {}\n", t.options.join(" ")));
    }
    s.push_str(&format!("  press: {}\n", t.press_words()));
    match &now {
        Some((seats, _)) => {
            for (i, seat) in seats.iter().enumerate() {
                s.push_str(&format!(
                    "  seat {}: {} <{}>{}, {}{}\n",
                    i + 1,
                    id_and_name(&seat.player, &seat.name),
                    seat.address,
                    if seat.public { " (public)" } else { "" },
                    seat.since,
                    if seat.taken_over {
                        " (took the seat over)"
                    } else {
                        ""
                    }
                ));
            }
        }
        None => {
            for (i, seat) in t.seats.iter().enumerate() {
                s.push_str(&format!(
                    "  seat {}: {} <{}>{}, confirmed {}\n",
                    i + 1,
                    seat.name.as_deref().unwrap_or("(no name)"),
                    seat.address,
                    if seat.public { " (public)" } else { "" },
                    seat.at
                ));
            }
        }
    }
    for r in waiting {
        s.push_str(&format!(
            "  waiting for confirmation: `{}` from <{}>, code mailed {}\n",
            r.action.line(),
            r.address,
            r.at
        ));
    }
    if let Some(c) = &t.closed {
        s.push_str(&format!("  {c}\n"));
    }
    s
}

/// Where offer `o` of game `g`'s seats stands, for [`status_text`].
fn offer_state(dir: &Path, g: &seats::GameSeats, o: &seats::Offer) -> String {
    match o.status {
        seats::OfferStatus::Open => "open".to_string(),
        seats::OfferStatus::Approval => format!(
            "confirmed by {}: run `herald host approve {} {} --player {}`",
            o.taker.as_ref().map_or("?", |t| t.address.as_str()),
            dir.display(),
            g.game,
            o.player
        ),
        seats::OfferStatus::Granted => format!(
            "granted to {}: handed over at the next pass",
            o.taker.as_ref().map_or("?", |t| t.address.as_str())
        ),
        seats::OfferStatus::Done => format!(
            "done: {} ({})",
            o.done.as_deref().unwrap_or(""),
            o.taker.as_ref().map_or("?", |t| t.address.as_str())
        ),
    }
}

/// `herald host status DIR`: the moderator's view (addresses included:
/// it is the moderator's own terminal).
pub fn status_text(dir: &Path) -> Result<String> {
    let host = HostDir::at(dir);
    let (tables, problems) = all(&host);
    let mut s = String::new();
    if tables.is_empty() {
        s.push_str("no tables (`herald host open DIR TABLE --ruleset RULESET` opens one)\n");
    }
    let store = confirm::Store::load(&host)?;
    for t in &tables {
        let waiting: Vec<&confirm::Request> = store
            .waiting()
            .filter(|r| r.action.target() == confirm::Target::Table(t.name.clone()))
            .collect();
        s.push_str(&table_text(&host, t, &waiting));
    }
    for r in store
        .waiting()
        .filter(|r| r.action.target() == confirm::Target::Standby)
    {
        s.push_str(&format!(
            "standby waiting for confirmation: `{}` from <{}>, code mailed {}\n",
            r.action.line(),
            r.address,
            r.at
        ));
    }
    let list = seats::standby(&host)?;
    s.push_str(&format!(
        "standby: {}\n",
        if list.list.is_empty() {
            "nobody".to_string()
        } else {
            list.list
                .iter()
                .map(|e| e.address.clone())
                .collect::<Vec<_>>()
                .join(", ")
        }
    ));
    for g in seats::all(&host) {
        for o in &g.offers {
            let state = offer_state(dir, &g, o);
            s.push_str(&format!(
                "game {} seat {} offered {} ({}): {state}\n",
                g.game,
                o.player,
                o.at,
                seats::why_words(&o.why)
            ));
            let seat = confirm::Target::Seat(g.game.clone(), o.player.clone());
            for r in store.waiting().filter(|r| r.action.target() == seat) {
                s.push_str(&format!(
                    "  takeover waiting for confirmation: `{}` from <{}>, code mailed {}\n",
                    r.action.line(),
                    r.address,
                    r.at
                ));
            }
        }
        for a in &g.away {
            s.push_str(&format!(
                "game {} vacation: {} until {}\n",
                g.game, a.player, a.until
            ));
        }
    }
    for p in problems {
        s.push_str(&format!("problem: {p}\n"));
    }
    Ok(s)
}
