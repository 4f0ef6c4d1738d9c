//! The lobby's requests through the door (docs/host.md, "The lobby"):
//! `tables`, `me`, `help`, and the requests that change a seat, a table or
//! an address's standing: `join`, `leave`, `standby` (on or off),
//! `takeover`, and `confirm` (a code the host mailed). A typed
//! [`Request`] from a [`Requester`] goes in, a typed [`Outcome`] comes out;
//! the words are the edge's (`host::lobby::commands` for mail).
//!
//! Who may change what:
//!
//! - An address only claimed (a mail's From: [`Requester::Anyone`], or
//!   [`Requester::Password`], whose password is a game's, not the lobby's)
//!   gets a code mailed to it ([`confirm`]); nothing changes until the code
//!   comes back.
//! - A code that came back ([`Requester::Code`], with [`Command::Confirm`])
//!   does what its mail said, when it came from the address it was mailed
//!   to. Codes are guessed no more than passwords: every code tried from an
//!   address spends one check of that address's hourly budget
//!   ([`super::guard::Tries`]), and past it no code is looked up.
//! - A signed-in session ([`Requester::Session`]) proved its address: its
//!   request is done at once, with the same checks a confirmation makes.
//!
//! Every change is recorded where it is made (the table, the game's
//! record, the store of codes) with the carrier's digest, so a request
//! handled again after a crash gets the same outcome and changes nothing
//! twice.
//!
//! The records read here: the tables ([`tables`]), the requests waiting
//! for their codes ([`confirm`]), the games' seats offered and the standby
//! list ([`seats`]), the seats each game holds ([`super::seats`]) and the
//! address's reliability (`community::reliability`).

pub mod confirm;
pub mod seats;
pub mod tables;

pub use tables::*;

use super::guard::Tries;
use super::{Carrier, Requester};
use crate::error::Result;
use crate::names::Name;
use crate::store::host_dir::HostDir;
use confirm::{Action, State};
use seats::OfferStatus;

/// What the lobby needs of its host to decide a request.
pub struct Lobby<'a> {
    pub host: HostDir,
    /// The time of the handling (RFC 3339): nothing here reads the clock.
    pub now: String,
    /// Seats one address may hold in a game whose table does not say
    /// (host.toml's `seats_per_address`).
    pub seats_per_address: u32,
    /// May a code mail go to this address for the carrier with this
    /// digest (the host's bound on replies to one address)? Asked before a
    /// request is kept, so a code held back leaves nothing waiting.
    pub may_mail_code: &'a dyn Fn(&str, &str) -> Result<bool>,
    /// The budget of codes tried per address (none: every code is looked
    /// up, as `herald` run by hand on a folder does).
    pub tries: Option<&'a Tries>,
}

/// What a requester asks of the lobby.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// The open tables and the seats to take over.
    Tables,
    /// The requester's own reliability across the host's games.
    Me,
    /// The lobby's commands.
    Help,
    /// A seat at `table`, under the display name `name`, the address shown
    /// on the public tables page or not.
    Join {
        table: String,
        name: Option<String>,
        public: bool,
        /// The sides asked for after `prefer`, as typed (checked against
        /// the table's game when the join is decided; docs/host.md, "Seat
        /// preferences").
        prefer: Option<String>,
    },
    /// Give up the address's seats (and waiting joins) at `table`.
    Leave { table: String },
    /// Onto the standby list (`on`), or off it.
    Standby { on: bool },
    /// The seat `player` of `game`, offered for takeover.
    Takeover {
        game: String,
        player: String,
        name: Option<String>,
    },
    /// Do what the requester's code was mailed for ([`Requester::Code`]).
    Confirm,
}

/// A lobby request: what is asked, by whom, and what carried it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub command: Command,
    pub by: Requester,
    pub carrier: Carrier,
}

/// A lobby request, decided: what it came to.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// `tables`: what is on offer.
    Tables,
    /// `me`: the sender's own reliability across the host's games, and
    /// their rating in each pool they have a rated game in (pool name
    /// order). The reply goes to the From address only, so a forged From
    /// shows the figures to their owner, never to the forger.
    Me {
        reliability: crate::community::reliability::Tally,
        ratings: Vec<(String, crate::community::ratings::Standing)>,
    },
    /// `help`: the lobby's commands.
    Help,
    /// A code was mailed (`again`: the same mail handled again after a
    /// restart); confirming it does `request.action`. `others`: the
    /// address's other waiting requests for the same thing.
    CodeMailed {
        request: confirm::Request,
        code: String,
        others: Vec<confirm::Request>,
        again: bool,
    },
    /// What was asked is done: a code came back, or a session asked it.
    Done {
        done: Done,
        again: bool,
    },
    /// Nothing to change: the address is where it asked to be.
    Already(Already),
    /// The code mail would pass the bound on replies to the address: not
    /// mailed, nothing kept.
    Held,
    Refused(Refusal),
}

/// What a confirmation did.
#[derive(Debug, Clone)]
pub enum Done {
    /// A seat at `table` (1, 2, …).
    Seated {
        table: Table,
        seat: usize,
    },
    /// Seats given up (`seats`: how many) and waiting joins withdrawn.
    Left {
        table: Table,
        seats: usize,
    },
    Standby {
        on: bool,
    },
    /// A takeover's claim confirmed: the seat is the address's (once
    /// the moderator approves, with `approve`).
    Claimed {
        game: String,
        player: String,
        approve: bool,
    },
}

#[derive(Debug, Clone, Copy)]
pub enum Already {
    OnStandby,
    OffStandby,
}

/// Why a lobby command changed nothing.
#[derive(Debug, Clone)]
pub enum Refusal {
    /// The requester shows no address (a mail with no From).
    NoSender,
    /// The carrier's words did not read as a request: the line that
    /// would (made by the adapter that read them, never by the door).
    Unread(String),
    /// The address's budget of codes tried this hour is spent: no code
    /// was looked up.
    Throttled,
    /// No such table (for `join` or `leave`).
    NoTable {
        table: String,
        leaving: bool,
    },
    /// The table has started or was cancelled (`late`: told to a
    /// confirmation that came after).
    Closed {
        table: Table,
        late: bool,
    },
    /// The table is full (`late`: it filled before the confirmation).
    Full {
        table: Table,
        late: bool,
    },
    /// The address has all the seats it may hold at the table.
    HasSeat {
        table: Table,
    },
    /// `leave` from an address with no seat nor join at the table.
    NotThere {
        table: Table,
    },
    /// `leave` after the start.
    LeaveTooLate {
        table: Table,
    },
    /// No seat of `game` is offered.
    NoOffer {
        game: String,
    },
    NotOffered {
        game: String,
        player: String,
    },
    /// The seat was taken by someone who confirmed first (`late`: told to
    /// a confirmation that came after).
    Taken {
        game: String,
        player: String,
        /// Where the offer is now, and when it was done if it was.
        status: OfferStatus,
        done: Option<String>,
        late: bool,
    },
    /// The table asks more reliability than the address has.
    Unreliable {
        table: Table,
        min: u32,
        have: crate::community::reliability::Tally,
    },
    /// A `prefer` list that names a side the game has not, or one twice:
    /// why, and the line to send (every side, in seat order).
    Prefer {
        table: Table,
        why: String,
        line: String,
    },
    /// The address's rating is outside the range the table asks.
    Rating {
        table: Table,
        have: Option<crate::community::ratings::Standing>,
    },
    /// The address holds all the seats it may in `game` (`seats`).
    HoldsSeat {
        game: String,
        seats: Vec<String>,
    },
    UnknownCode,
    /// The code was mailed to another address.
    OtherAddress {
        action: Action,
    },
    /// The code was confirmed already (by another mail).
    AlreadyDone {
        action: Action,
        at: String,
    },
    /// Withdrawn: another request for the same thing was confirmed.
    Withdrawn {
        action: Action,
        at: String,
    },
    /// Dropped unconfirmed: too old, or too many waiting.
    Dropped {
        action: Action,
        why: confirm::Dropped,
    },
}

impl Outcome {
    /// Nothing was changed, the command refused.
    pub fn refused(&self) -> bool {
        matches!(self, Outcome::Refused(_))
    }
    /// The request proved itself with a right code: its answer is the
    /// address owner's own doing (not counted by the bound on replies).
    pub fn proven(&self) -> bool {
        matches!(self, Outcome::Done { .. })
            || matches!(
                self,
                Outcome::Refused(
                    Refusal::Closed { late: true, .. }
                        | Refusal::Full { late: true, .. }
                        | Refusal::Taken { late: true, .. }
                        | Refusal::AlreadyDone { .. }
                        | Refusal::Withdrawn { .. }
                        | Refusal::Dropped { .. }
                        | Refusal::HasSeat { .. }
                        | Refusal::HoldsSeat { .. }
                )
            )
    }
    /// The bound on replies was asked already (a code mail).
    pub fn granted(&self) -> bool {
        matches!(self, Outcome::CodeMailed { .. })
    }
}

/// Decide `req`: the change made (and recorded with the carrier's
/// digest), the code mailed, or why not. A request from an address only
/// claimed gets a code; a code confirms; a session's request is done at
/// once.
pub fn run(l: &Lobby, req: &Request) -> Result<Outcome> {
    let claim = req.by.claim();
    let from = claim.address.as_str();
    if from.trim().is_empty() {
        return Ok(Outcome::Refused(Refusal::NoSender));
    }
    let digest = req.carrier.digest.as_str();
    let by = &req.by;
    // A session's request handled again: what it did, checked first (its
    // seat now counts against it).
    if let (Requester::Session { .. }, Some(action)) = (by, action_of(&req.command)) {
        if let Some((done, _)) = applied(l, &waiting(l, &action, from, digest), from, digest)? {
            return Ok(Outcome::Done { done, again: true });
        }
    }
    Ok(match &req.command {
        Command::Tables => Outcome::Tables,
        Command::Help => Outcome::Help,
        Command::Me => {
            let own = crate::community::own(l.host.root(), from);
            Outcome::Me {
                reliability: own.reliability,
                ratings: own.ratings,
            }
        }
        Command::Confirm => match by {
            Requester::Code { code, claim } => {
                // A code tried spends the address's budget, unless the
                // host's own server vouches for the address.
                if !claim.vouched && l.tries.is_some_and(|t| !t.spend(from)) {
                    return Ok(Outcome::Refused(Refusal::Throttled));
                }
                confirm_code(l, code, from, digest)?
            }
            _ => Outcome::Refused(Refusal::UnknownCode),
        },
        Command::Join {
            table,
            name,
            public,
            prefer,
        } => join(l, by, table, name, *public, prefer.as_deref(), digest)?,
        Command::Standby { on } => standby(l, by, *on, digest)?,
        Command::Takeover { game, player, name } => takeover(l, by, game, player, name, digest)?,
        Command::Leave { table } => leave(l, by, table, digest)?,
    })
}

/// The change a command asks for, if it asks for one.
fn action_of(c: &Command) -> Option<Action> {
    Some(match c {
        Command::Join {
            table,
            name,
            public,
            prefer,
        } => Action::Join {
            table: table.clone(),
            name: name.clone(),
            public: *public,
            prefer: prefer
                .as_deref()
                .map(|p| {
                    p.split(',')
                        .map(|w| w.trim().to_ascii_lowercase())
                        .filter(|w| !w.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
        },
        Command::Leave { table } => Action::Leave {
            table: table.clone(),
        },
        Command::Standby { on } => Action::Standby { on: *on },
        Command::Takeover { game, player, name } => Action::Takeover {
            game: game.clone(),
            player: player.clone(),
            name: name.clone(),
        },
        _ => return None,
    })
}

/// `action` as a request of `from` by the carrier `digest` (no code).
fn waiting(l: &Lobby, action: &Action, from: &str, digest: &str) -> confirm::Request {
    confirm::Request {
        address: from.to_string(),
        action: action.clone(),
        code_sha256: String::new(),
        mail: digest.to_string(),
        at: l.now.clone(),
        state: State::Waiting,
    }
}

/// The requester's own doing, once its checks passed: a code mailed to
/// an address only claimed, or for a session (its address proven) the
/// change made at once, as a confirmation makes it.
fn ask_or_do(l: &Lobby, by: &Requester, action: Action, digest: &str) -> Result<Outcome> {
    let from = by.claim().address;
    match by {
        Requester::Session { .. } => act_now(l, &action, &from, digest),
        _ => ask(l, action, &from, digest),
    }
}

/// A session's request done: what the carrier `digest` did already (the
/// same request handled again), or the change made now; the address's
/// other waiting requests for the same thing withdrawn when it may hold
/// no more.
fn act_now(l: &Lobby, action: &Action, from: &str, digest: &str) -> Result<Outcome> {
    let mut store = confirm::Store::load(&l.host)?;
    if let Some((done, _)) = applied(l, &waiting(l, action, from, digest), from, digest)? {
        return Ok(Outcome::Done { done, again: true });
    }
    let (outcome, withdraw_alike) = act(l, &mut store, action, from, digest)?;
    if withdraw_alike && matches!(outcome, Outcome::Done { .. }) {
        let target = action.target();
        store.withdraw(from, |a| a.target() == target, &l.now);
        store.save(&l.host)?;
    }
    Ok(outcome)
}

/// The change `action` makes for `from`, checked as at its confirmation,
/// with whether the address's other requests for the same thing go.
fn act(
    l: &Lobby,
    store: &mut confirm::Store,
    action: &Action,
    from: &str,
    digest: &str,
) -> Result<(Outcome, bool)> {
    Ok(match action {
        Action::Join {
            table: tn,
            name,
            public,
            prefer,
        } => seat(l, tn, name, *public, prefer, from, digest)?,
        Action::Leave { table: tn } => leave_now(l, store, tn, from, digest)?,
        Action::Standby { on } => (standby_now(l, *on, from)?, true),
        Action::Takeover { game, player, name } => claim(l, game, player, name, from, digest)?,
    })
}

/// Seats `address` may hold at `t`'s game.
fn allowed(l: &Lobby, t: &Table) -> usize {
    t.seats_per_address.unwrap_or(l.seats_per_address).max(1) as usize
}

/// Mail a code for `action` to `from` (the mail `digest` asked): the
/// bound on replies asked first; the request kept, then the outcome.
fn ask(l: &Lobby, action: Action, from: &str, digest: &str) -> Result<Outcome> {
    let mut store = confirm::Store::load(&l.host)?;
    let again = store.asked_by(digest).is_some();
    if !(l.may_mail_code)(from, digest)? {
        return Ok(Outcome::Held);
    }
    let key = tables::key(&l.host)?;
    let (code, others) = store.ask(&key, from, action, digest, &l.now);
    let request = store
        .asked_by(digest)
        .cloned()
        .expect("asked for just above");
    let others = others
        .into_iter()
        .filter(|r| r.code_sha256 != request.code_sha256)
        .collect();
    if !again {
        store.save(&l.host)?;
    }
    Ok(Outcome::CodeMailed {
        request,
        code,
        others,
        again,
    })
}

fn table(l: &Lobby, name: &str) -> Result<Option<Table>> {
    match Name::new("table", name) {
        Ok(n) => tables::load(&l.host, &n),
        Err(_) => Ok(None),
    }
}

/// `join TABLE [name] [public] [prefer …]`: a code mailed to the From
/// address (a session: seated at once).
///
/// Long (about 90 lines): each of the table's checks of a join in the
/// order they are told (the sides asked for, the table's state, seats,
/// reliability, rating range).
fn join(
    l: &Lobby,
    by: &Requester,
    name_of_table: &str,
    name: &Option<String>,
    public: bool,
    prefer: Option<&str>,
    digest: &str,
) -> Result<Outcome> {
    let claim = by.claim();
    let from = claim.address.as_str();
    let Some(t) = table(l, name_of_table)? else {
        return Ok(Outcome::Refused(Refusal::NoTable {
            table: name_of_table.to_string(),
            leaving: false,
        }));
    };
    // The sides asked for, checked against the table's game (docs/host.md,
    // "Seat preferences").
    let sides = crate::community::preferences::nameable(&t.game, t.max + t.bots.len());
    let prefer = match prefer.map(|p| crate::community::preferences::parse(p, &sides)) {
        None => Vec::new(),
        Some(Ok(list)) => list,
        Some(Err(bad)) => {
            let mut line = format!("join {}", t.name);
            if let Some(n) = name {
                line.push_str(&format!(" {n}"));
            }
            if public {
                line.push_str(" public");
            }
            line.push_str(&format!(" prefer {}", sides.join(",")));
            return Ok(Outcome::Refused(Refusal::Prefer {
                table: t,
                why: bad.to_string(),
                line,
            }));
        }
    };
    let action = Action::Join {
        table: t.name.clone(),
        name: name.clone(),
        public,
        prefer,
    };
    if confirm::Store::load(&l.host)?.asked_by(digest).is_some() {
        return ask(l, action, from, digest);
    }
    if t.status != Status::Open {
        return Ok(Outcome::Refused(Refusal::Closed {
            table: t,
            late: false,
        }));
    }
    if t.seats_of(from) >= allowed(l, &t) {
        return Ok(Outcome::Refused(Refusal::HasSeat { table: t }));
    }
    if t.seats.len() >= t.max {
        return Ok(Outcome::Refused(Refusal::Full {
            table: t,
            late: false,
        }));
    }
    if let Some(min) = t.min_reliability {
        let have = crate::community::reliability::of_address(l.host.root(), from);
        // A newcomer (no phase seated yet) has no figure and may join.
        if have.percent().is_some_and(|p| p < min) {
            return Ok(Outcome::Refused(Refusal::Unreliable {
                table: t,
                min,
                have,
            }));
        }
    }
    if t.min_rating.is_some() || t.max_rating.is_some() {
        let all = crate::community::ratings::of_host(l.host.root());
        let have = crate::community::ratings::of_address(&all, &t.pool(), from);
        if t.outside_rating(have.as_ref()) {
            return Ok(Outcome::Refused(Refusal::Rating { table: t, have }));
        }
    }
    ask_or_do(l, by, action, digest)
}

/// `leave TABLE`: a code mailed, when the address has something to leave.
fn leave(l: &Lobby, by: &Requester, name: &str, digest: &str) -> Result<Outcome> {
    let claim = by.claim();
    let from = claim.address.as_str();
    let Some(t) = table(l, name)? else {
        return Ok(Outcome::Refused(Refusal::NoTable {
            table: name.to_string(),
            leaving: true,
        }));
    };
    let action = Action::Leave {
        table: t.name.clone(),
    };
    let store = confirm::Store::load(&l.host)?;
    if store.asked_by(digest).is_some() {
        return ask(l, action, from, digest);
    }
    if t.status != Status::Open {
        return Ok(Outcome::Refused(Refusal::LeaveTooLate { table: t }));
    }
    let joins = store
        .alike(from, &action)
        .iter()
        .any(|r| matches!(r.action, Action::Join { .. }));
    if t.seats_of(from) == 0 && !joins {
        return Ok(Outcome::Refused(Refusal::NotThere { table: t }));
    }
    ask_or_do(l, by, action, digest)
}

/// `standby` / `standby off`: a code mailed, unless the address is where
/// it asks to be.
fn standby(l: &Lobby, by: &Requester, on: bool, digest: &str) -> Result<Outcome> {
    let claim = by.claim();
    let from = claim.address.as_str();
    let list = seats::standby(&l.host)?;
    let listed = list
        .list
        .iter()
        .any(|s| s.address.eq_ignore_ascii_case(from));
    let asked = confirm::Store::load(&l.host)?.asked_by(digest).is_some();
    if !asked && listed == on {
        return Ok(Outcome::Already(if on {
            Already::OnStandby
        } else {
            Already::OffStandby
        }));
    }
    ask_or_do(l, by, Action::Standby { on }, digest)
}

/// The seats `from` holds (or has been granted) in `game`, by player id.
fn seats_in_game(l: &Lobby, rec: &seats::GameSeats, from: &str) -> Vec<String> {
    let mut held = Vec::new();
    if let Ok(name) = Name::new("game", &rec.game) {
        if let Some(h) = super::seats::peek(l.host.game(&name).root()) {
            held.extend(
                h.players
                    .iter()
                    .filter(|p| p.email.as_deref().is_some_and(|e| same_person(e, from)))
                    .map(|p| p.id.clone()),
            );
        }
    }
    for o in &rec.offers {
        let granted = matches!(o.status, OfferStatus::Approval | OfferStatus::Granted);
        if granted
            && o.taker
                .as_ref()
                .is_some_and(|t| same_person(&t.address, from))
            && !held.contains(&o.player)
        {
            held.push(o.player.clone());
        }
    }
    held
}

/// `takeover GAME PLAYER [name]`: a code mailed, for an open offer, to an
/// address that may take one more seat in the game.
fn takeover(
    l: &Lobby,
    by: &Requester,
    game: &str,
    player: &str,
    name: &Option<String>,
    digest: &str,
) -> Result<Outcome> {
    let claim = by.claim();
    let from = claim.address.as_str();
    let rec = Name::new("game", game)
        .ok()
        .and_then(|n| seats::load(&l.host, &n).ok().flatten());
    let Some(rec) = rec else {
        return Ok(Outcome::Refused(Refusal::NoOffer {
            game: game.to_string(),
        }));
    };
    let action = Action::Takeover {
        game: rec.game.clone(),
        player: player.to_string(),
        name: name.clone(),
    };
    if confirm::Store::load(&l.host)?.asked_by(digest).is_some() {
        return ask(l, action, from, digest);
    }
    let Some(oi) = rec.live(player) else {
        return Ok(Outcome::Refused(Refusal::NotOffered {
            game: rec.game.clone(),
            player: player.to_string(),
        }));
    };
    if rec.offers[oi].status != OfferStatus::Open {
        return Ok(Outcome::Refused(Refusal::Taken {
            game: rec.game.clone(),
            player: player.to_string(),
            status: rec.offers[oi].status,
            done: rec.offers[oi].done.clone(),
            late: false,
        }));
    }
    let held = seats_in_game(l, &rec, from);
    if held.len() >= rec.seats_per_address.unwrap_or(l.seats_per_address).max(1) as usize {
        return Ok(Outcome::Refused(Refusal::HoldsSeat {
            game: rec.game.clone(),
            seats: held,
        }));
    }
    ask_or_do(l, by, action, digest)
}

/// `confirm CODE`: the request the code was mailed for done, when it
/// still can be; else what became of it.
///
/// Long (about 85 lines): a mail handled already first (its record in the
/// store or in the table or game it changed), then each way a code can
/// fail, in the order they are told, then the request done.
fn confirm_code(l: &Lobby, code: &str, from: &str, digest: &str) -> Result<Outcome> {
    let mut store = confirm::Store::load(&l.host)?;
    // A mail handled already: the same answer.
    if let Some(r) = store.confirmed_by(digest).cloned() {
        return done_again(l, &r);
    }
    let Some(r) = store.find(code).cloned() else {
        // A confirmation recorded by a herald before the store (in the
        // table or game it changed).
        let (tables, _) = tables::all(&l.host);
        if let Some(t) = tables.iter().find(|t| t.handled(digest).is_some()) {
            let seat = t.seated(from).map_or(0, |i| i + 1);
            return Ok(Outcome::Done {
                done: Done::Seated {
                    table: t.clone(),
                    seat,
                },
                again: true,
            });
        }
        return Ok(Outcome::Refused(Refusal::UnknownCode));
    };
    if !r.from(from) {
        return Ok(Outcome::Refused(Refusal::OtherAddress { action: r.action }));
    }
    let expired = crate::time::parse_time(&r.at)
        .ok()
        .zip(crate::time::parse_time(&l.now).ok())
        .is_some_and(|(a, n)| a.timestamp() <= n.timestamp() - confirm::EXPIRES);
    match &r.state {
        State::Done { at, .. } => {
            return Ok(Outcome::Refused(Refusal::AlreadyDone {
                action: r.action.clone(),
                at: at.clone(),
            }))
        }
        State::Withdrawn { at } => {
            return Ok(Outcome::Refused(Refusal::Withdrawn {
                action: r.action.clone(),
                at: at.clone(),
            }))
        }
        State::Dropped { why, .. } => {
            return Ok(Outcome::Refused(Refusal::Dropped {
                action: r.action.clone(),
                why: *why,
            }))
        }
        State::Waiting if expired => {
            return Ok(Outcome::Refused(Refusal::Dropped {
                action: r.action.clone(),
                why: confirm::Dropped::Expired,
            }))
        }
        State::Waiting => {}
    }
    // Done already by this very mail (a pass killed after the change was
    // written, before the request was marked done): marked now.
    if let Some((done, withdraw_alike)) = applied(l, &r, from, digest)? {
        store.confirm(&r.code_sha256, digest, &l.now, withdraw_alike);
        store.save(&l.host)?;
        return Ok(Outcome::Done { done, again: true });
    }
    let (outcome, withdraw_alike) = act(l, &mut store, &r.action, from, digest)?;
    if let Outcome::Done { .. } = outcome {
        store.confirm(&r.code_sha256, digest, &l.now, withdraw_alike);
        store.save(&l.host)?;
    }
    Ok(outcome)
}

/// What the confirming mail `digest` did already to the table or game
/// of request `r`, as recorded there (with whether the address's other
/// requests for the same thing go), if it did.
fn applied(
    l: &Lobby,
    r: &confirm::Request,
    from: &str,
    digest: &str,
) -> Result<Option<(Done, bool)>> {
    Ok(match &r.action {
        Action::Join { table: tn, .. } | Action::Leave { table: tn } => {
            let Some(t) = table(l, tn)? else {
                return Ok(None);
            };
            match t.handled(digest) {
                Some(Effect::Confirmed { seat, .. }) => {
                    let seat = *seat;
                    let full = t.seats_of(from) >= allowed(l, &t);
                    Some((Done::Seated { table: t, seat }, full))
                }
                Some(Effect::Left { .. }) => Some((Done::Left { table: t, seats: 1 }, true)),
                _ => None,
            }
        }
        Action::Takeover { game, player, .. } => Name::new("game", game)
            .ok()
            .and_then(|n| seats::load(&l.host, &n).ok().flatten())
            .filter(|g| {
                g.handled(digest)
                    .is_some_and(|d| d.what == "confirmed" && d.player == *player)
            })
            .map(|g| {
                (
                    Done::Claimed {
                        game: game.clone(),
                        player: player.clone(),
                        approve: g.approve,
                    },
                    true,
                )
            }),
        Action::Standby { .. } => None,
    })
}

/// The answer to a confirmation handled again (after a restart): what
/// its request did, as its table or game shows it now.
fn done_again(l: &Lobby, r: &confirm::Request) -> Result<Outcome> {
    let done = match &r.action {
        Action::Join { table: tn, .. } => match table(l, tn)? {
            Some(t) => Done::Seated {
                seat: t.seated(&r.address).map_or(0, |i| i + 1),
                table: t,
            },
            None => return Ok(Outcome::Refused(Refusal::UnknownCode)),
        },
        Action::Leave { table: tn } => match table(l, tn)? {
            Some(t) => Done::Left { table: t, seats: 1 },
            None => return Ok(Outcome::Refused(Refusal::UnknownCode)),
        },
        Action::Standby { on } => Done::Standby { on: *on },
        Action::Takeover { game, player, .. } => Done::Claimed {
            game: game.clone(),
            player: player.clone(),
            approve: Name::new("game", game)
                .ok()
                .and_then(|n| seats::load(&l.host, &n).ok().flatten())
                .is_some_and(|g| g.approve),
        },
    };
    Ok(Outcome::Done { done, again: true })
}

/// A confirmed join: a seat at table `tn`, if it still has one for this
/// address. With whether the address's other joins there are withdrawn
/// (it has all the seats it may hold).
fn seat(
    l: &Lobby,
    tn: &str,
    name: &Option<String>,
    public: bool,
    prefer: &[String],
    from: &str,
    digest: &str,
) -> Result<(Outcome, bool)> {
    let Some(mut t) = table(l, tn)? else {
        return Ok((Outcome::Refused(Refusal::UnknownCode), false));
    };
    if t.status != Status::Open {
        return Ok((
            Outcome::Refused(Refusal::Closed {
                table: t,
                late: true,
            }),
            false,
        ));
    }
    if t.seats_of(from) >= allowed(l, &t) {
        return Ok((Outcome::Refused(Refusal::HasSeat { table: t }), false));
    }
    if t.seats.len() >= t.max {
        return Ok((
            Outcome::Refused(Refusal::Full {
                table: t,
                late: true,
            }),
            false,
        ));
    }
    t.seats.push(Seat {
        address: from.trim().to_string(),
        name: name.clone(),
        public,
        at: l.now.clone(),
        prefer: prefer.to_vec(),
    });
    let seat = t.seats.len();
    t.handled.push(Handled {
        mail: digest.to_string(),
        outcome: Effect::Confirmed {
            table: t.name.clone(),
            seat,
        },
    });
    tables::save(&l.host, &t)?;
    let full = t.seats_of(from) >= allowed(l, &t);
    Ok((
        Outcome::Done {
            done: Done::Seated { table: t, seat },
            again: false,
        },
        full,
    ))
}

/// A confirmed leave: the address's seats at table `tn` given up and its
/// waiting joins there withdrawn, before the start.
fn leave_now(
    l: &Lobby,
    store: &mut confirm::Store,
    tn: &str,
    from: &str,
    digest: &str,
) -> Result<(Outcome, bool)> {
    let Some(mut t) = table(l, tn)? else {
        return Ok((Outcome::Refused(Refusal::UnknownCode), false));
    };
    if t.status != Status::Open {
        return Ok((Outcome::Refused(Refusal::LeaveTooLate { table: t }), false));
    }
    let before = t.seats.len();
    t.seats
        .retain(|s| !s.address.eq_ignore_ascii_case(from.trim()));
    let seats = before - t.seats.len();
    t.handled.push(Handled {
        mail: digest.to_string(),
        outcome: Effect::Left {
            table: t.name.clone(),
        },
    });
    tables::save(&l.host, &t)?;
    let name = t.name.clone();
    store.withdraw(
        from,
        |a| matches!(a, Action::Join { table, .. } if *table == name),
        &l.now,
    );
    Ok((
        Outcome::Done {
            done: Done::Left { table: t, seats },
            again: false,
        },
        true,
    ))
}

/// A confirmed `standby` / `standby off`.
fn standby_now(l: &Lobby, on: bool, from: &str) -> Result<Outcome> {
    let mut list = seats::standby(&l.host)?;
    let had = list
        .list
        .iter()
        .any(|s| s.address.eq_ignore_ascii_case(from));
    if on && !had {
        list.list.push(seats::StandbyEntry {
            address: from.trim().to_string(),
            at: l.now.clone(),
        });
        seats::save_standby(&l.host, &list)?;
    } else if !on && had {
        list.list.retain(|s| !s.address.eq_ignore_ascii_case(from));
        seats::save_standby(&l.host, &list)?;
    }
    Ok(Outcome::Done {
        done: Done::Standby { on },
        again: false,
    })
}

/// A confirmed takeover: the offer of `player` in `game` claimed, if it is
/// still open and the address may take one more seat there.
fn claim(
    l: &Lobby,
    game: &str,
    player: &str,
    name: &Option<String>,
    from: &str,
    digest: &str,
) -> Result<(Outcome, bool)> {
    let rec = Name::new("game", game)
        .ok()
        .and_then(|n| seats::load(&l.host, &n).ok().flatten());
    let Some(mut rec) = rec else {
        return Ok((Outcome::Refused(Refusal::UnknownCode), false));
    };
    // The offer this claim was for: the live one, or the last one done.
    let Some(oi) = rec
        .live(player)
        .or_else(|| rec.offers.iter().rposition(|o| o.player == player))
    else {
        return Ok((Outcome::Refused(Refusal::UnknownCode), false));
    };
    if rec.offers[oi].status != OfferStatus::Open {
        return Ok((
            Outcome::Refused(Refusal::Taken {
                game: game.to_string(),
                player: player.to_string(),
                status: rec.offers[oi].status,
                done: rec.offers[oi].done.clone(),
                late: true,
            }),
            false,
        ));
    }
    let held = seats_in_game(l, &rec, from);
    if held.len() >= rec.seats_per_address.unwrap_or(l.seats_per_address).max(1) as usize {
        return Ok((
            Outcome::Refused(Refusal::HoldsSeat {
                game: game.to_string(),
                seats: held,
            }),
            false,
        ));
    }
    let approve = rec.approve;
    let o = &mut rec.offers[oi];
    o.taker = Some(Seat {
        address: from.trim().to_string(),
        name: name.clone(),
        public: false,
        at: l.now.clone(),
        prefer: Vec::new(),
    });
    o.status = if approve {
        OfferStatus::Approval
    } else {
        OfferStatus::Granted
    };
    rec.handled.push(seats::Done {
        mail: digest.to_string(),
        what: "confirmed".into(),
        player: player.to_string(),
    });
    seats::save(&l.host, &rec)?;
    Ok((
        Outcome::Done {
            done: Done::Claimed {
                game: game.to_string(),
                player: player.to_string(),
                approve,
            },
            again: false,
        },
        true,
    ))
}
