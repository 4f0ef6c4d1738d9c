//! The lobby's commands by mail, to the host's own address:
//!
//! ```text
//! join TABLE [display name] [public]   ask for a seat: a code is mailed back
//! leave TABLE                          give up a seat (or a join) before the start: a code
//! standby / standby off                be told of seats to take over, or not: a code
//! takeover GAME PLAYER [name]          ask for a seat of a game under way: a code
//! confirm CODE                         do what the code's mail said
//! tables                               the open tables
//! me                                   your own reliability across the host's games
//! ```
//!
//! A From header is a claim anyone can write: every command that changes
//! a seat, a table or an address's standing only mails a code to its From
//! address ([`super::confirm`]), and the change is made when the code
//! comes back from that address. Each code mail says exactly what
//! confirming it does. One person (one address), one seat per game,
//! unless the table or host.toml allows more (`seats-per-address`).
//!
//! A command is decided first, to a typed [`Outcome`] (the change made,
//! the code mailed, or the refusal and why), and put in words last
//! ([`words`]), so another door to the same requests (issue 51's web
//! server) takes the outcome and says it its own way.

use super::confirm::{self, Action, Request, State};
use super::seats::{self, OfferStatus};
use super::{Effect, Handled, HostDir, Seat, Status, Table};
use crate::error::Result;
use crate::mail::{eml, extract};
use crate::names::Name;
use mail_parser::Message;

/// The lobby's words, for the help text.
pub const HELP: &str = "\
Joining a game (write to the host's own address, the command as the
subject or as the first line of the mail):
      tables                       the open tables
      me                           your own reliability across this host's
                                   games (mailed to your address only)
      join TABLE [your name] [public]
                                   ask for a seat; a code comes back by mail
                                   (`public` shows your address on the
                                   host's public tables page; without it
                                   only the moderator sees it)
      join TABLE [your name] [public] prefer SIDE,SIDE,...
                                   the same, asking for the sides you would
                                   rather play, best first (`tables` lists
                                   each table's sides)
      confirm CODE                 do what the code's mail says (from the
                                   address it was mailed to)
      leave TABLE                  give your seat up before the game starts
                                   (a code comes back)
Taking over a seat in a game under way:
      standby                      be told of seats to take over (a code
                                   comes back)
      standby off                  no longer (a code comes back)
      takeover GAME PLAYER [your name]
                                   ask for the seat; a code comes back by mail
";

/// A lobby command read from a mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Tables,
    Join {
        table: String,
        name: Option<String>,
        public: bool,
        /// The sides asked for after `prefer`, as typed (checked against
        /// the table's game when the join is decided).
        prefer: Option<String>,
    },
    Confirm(String),
    Leave(String),
    Standby(bool),
    Takeover {
        game: String,
        player: String,
        name: Option<String>,
    },
    /// `me`: the sender's own reliability, mailed to the sender's address.
    Me,
    /// A lobby word with the wrong words after it: the line to send.
    Bad(String),
}

const WORDS: [&str; 7] = [
    "tables", "join", "confirm", "leave", "standby", "takeover", "me",
];
const NAME_CHARS: usize = 40;

/// A display name as a player typed it: control characters out, at most
/// 40 characters, `None` when nothing is left.
fn display_name(words: &[&str]) -> Option<String> {
    let name: String = words
        .join(" ")
        .chars()
        .filter(|c| !c.is_control())
        .take(NAME_CHARS)
        .collect();
    (!name.trim().is_empty()).then(|| name.trim().to_string())
}

/// One line as a lobby command, or `None` when its first word is not one.
pub fn parse_line(line: &str) -> Option<Command> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let word = words
        .first()?
        .to_ascii_lowercase()
        .trim_end_matches([':', '.', '!'])
        .to_string();
    if !WORDS.contains(&word.as_str()) {
        return None;
    }
    let args = &words[1..];
    Some(match (word.as_str(), args) {
        ("tables", _) => Command::Tables,
        ("me", _) => Command::Me,
        ("join", [table, rest @ ..]) => {
            let mut rest: Vec<&str> = rest.to_vec();
            // `prefer SIDE,SIDE,…` ends the line (a `public` may follow).
            let mut prefer = None;
            if let Some(at) = rest.iter().position(|w| w.eq_ignore_ascii_case("prefer")) {
                let mut list: Vec<&str> = rest.split_off(at)[1..].to_vec();
                if list
                    .last()
                    .is_some_and(|w| w.eq_ignore_ascii_case("public"))
                {
                    list.pop();
                    rest.push("public");
                }
                prefer = Some(list.join(" ").chars().take(200).collect());
            }
            let public = rest
                .last()
                .is_some_and(|w| w.eq_ignore_ascii_case("public"));
            if public {
                rest.pop();
            }
            Command::Join {
                table: table.to_ascii_lowercase(),
                name: display_name(&rest),
                public,
                prefer,
            }
        }
        ("confirm", [code]) => Command::Confirm(code.to_string()),
        ("confirm", [a, b, c]) => Command::Confirm(format!("{a}{b}{c}")),
        ("leave", [table]) => Command::Leave(table.to_ascii_lowercase()),
        ("standby", []) => Command::Standby(true),
        ("standby", [off]) if off.eq_ignore_ascii_case("off") => Command::Standby(false),
        ("standby", _) => Command::Bad("standby (or: standby off)".into()),
        ("takeover", [game, player, rest @ ..]) => Command::Takeover {
            game: game.to_ascii_lowercase(),
            player: player.to_ascii_lowercase(),
            name: display_name(rest),
        },
        ("takeover", _) => Command::Bad("takeover GAME PLAYER [your name]".into()),
        ("join", _) => {
            Command::Bad("join TABLE [your name] [public] [prefer SIDE,SIDE,...]".into())
        }
        ("confirm", _) => Command::Bad("confirm CODE (the code the host mailed you)".into()),
        _ => Command::Bad("leave TABLE".into()),
    })
}

/// The lobby command a mail holds: the subject, or one of the first three
/// lines of the sender's own text.
///
/// Which wins: a `confirm CODE` line of the sender's own text wins over
/// anything in the subject (a reply to a code mail keeps its subject,
/// `Re: join t1 Dev`, and its first line is the confirmation); then a
/// whole command in the subject wins over the body, unless the subject is
/// a reply's (`Re: …`): the other side wrote that one, so a whole command
/// of the sender's own text wins over it.
pub fn asked(m: &Message) -> Option<Command> {
    let subject = m.subject().unwrap_or("");
    let reply = {
        let s = subject.trim_start().to_ascii_lowercase();
        ["re:", "aw:", "sv:", "antw:"]
            .iter()
            .any(|p| s.starts_with(p))
    };
    let in_subject = parse_line(crate::host::commands::bare_subject(subject));
    let body = m.body_text(0).unwrap_or_default();
    let (own, _) = extract::split_reply(&body);
    let in_body = own
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(3)
        .find_map(parse_line);
    let whole = |c: &Command| !matches!(c, Command::Bad(_) | Command::Tables | Command::Me);
    match (in_subject, in_body) {
        (_, Some(b @ Command::Confirm(_))) => Some(b),
        (Some(s), Some(b)) if reply && whole(&b) => {
            let _ = s;
            Some(b)
        }
        (Some(s), _) if whole(&s) => Some(s),
        (_, Some(b)) if whole(&b) => Some(b),
        (Some(s), _) => Some(s),
        (None, b) => b,
    }
}

/// What the pass needs of itself to answer a lobby mail.
pub struct Ctx<'a> {
    pub host: HostDir,
    /// The host's plain address: From of every lobby mail.
    pub from: String,
    /// The host's address for a game, `herald+GAME@…`.
    pub game_address: &'a dyn Fn(&str) -> String,
    pub now: String,
    /// Seats one address may hold in a game whose table does not say
    /// (host.toml's `seats_per_address`).
    pub seats_per_address: u32,
    /// May a code mail go to this address for this mail (the host's
    /// bound on replies to one address: `host::replies`)? Asked before a
    /// request is kept, so a code held back leaves nothing waiting.
    pub may_mail_code: &'a dyn Fn(&str, &str) -> Result<bool>,
}

/// A lobby mail, decided: what it came to.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// `tables`: what is on offer.
    Tables,
    /// `me`: the sender's own reliability across the host's games. The
    /// reply goes to the From address only, so a forged From shows the
    /// figure to its owner, never to the forger.
    Me(crate::community::reliability::Tally),
    /// A lobby word with the wrong words after it: the line to send.
    Bad(String),
    /// A code was mailed (`again`: the same mail handled again after a
    /// restart); confirming it does `request.action`. `others`: the
    /// address's other waiting requests for the same thing.
    CodeMailed {
        request: Request,
        code: String,
        others: Vec<Request>,
        again: bool,
    },
    /// A code came back and what it asked for is done.
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
    NoSender,
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
        how: String,
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
        matches!(self, Outcome::Refused(_) | Outcome::Bad(_))
    }
    /// The mail proved itself with a right code: its answer is the
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

/// What answering a lobby mail did, for the log.
pub struct Answered {
    pub outcome: Outcome,
    /// For the log.
    pub what: String,
    /// The reply (its Message-ID and bytes); `None` when held back.
    pub reply: Option<(String, Vec<u8>)>,
}

/// Answer one lobby mail from `from` (its sha256 `digest`, Message-ID
/// `mid`): decided (the change made and recorded, or the code mailed),
/// then put in words. A mail recorded already gets the same answer again.
pub fn answer(
    cx: &Ctx,
    cmd: &Command,
    from: &str,
    digest: &str,
    mid: &str,
    subject: &str,
) -> Result<Answered> {
    let outcome = if from.is_empty() {
        Outcome::Refused(Refusal::NoSender)
    } else {
        decide(cx, cmd, from, digest)?
    };
    let (tables, _) = super::all(&cx.host);
    let (what, told) = words(cx, &tables, &outcome, from);
    let reply = match (&outcome, from.is_empty()) {
        (Outcome::Held, _) | (_, true) => None,
        _ => {
            let text = format!("Hello,\n\nthis is herald's lobby.\n\n{told}\n{HELP}");
            let message_id = eml::message_id("host", &["lobby", digest]);
            let mail = eml::Mail {
                from: cx.from.clone(),
                to: from.to_string(),
                subject: subject.to_string(),
                date: cx.now.clone(),
                message_id: message_id.clone(),
                in_reply_to: (!mid.is_empty()).then(|| mid.to_string()),
                text,
                attachments: Vec::new(),
            };
            Some((message_id, eml::build(&mail)))
        }
    };
    Ok(Answered {
        outcome,
        what,
        reply,
    })
}

/// Decide a lobby command: the change made (and recorded with the mail's
/// digest), the code mailed, or why not.
pub fn decide(cx: &Ctx, cmd: &Command, from: &str, digest: &str) -> Result<Outcome> {
    Ok(match cmd {
        Command::Tables => Outcome::Tables,
        Command::Me => Outcome::Me(crate::community::reliability::of_address(
            cx.host.root(),
            from,
        )),
        Command::Bad(line) => Outcome::Bad(line.clone()),
        Command::Join {
            table,
            name,
            public,
            prefer,
        } => join(cx, table, name, *public, prefer.as_deref(), from, digest)?,
        Command::Confirm(code) => confirm_code(cx, code, from, digest)?,
        Command::Standby(on) => standby(cx, *on, from, digest)?,
        Command::Takeover { game, player, name } => takeover(cx, game, player, name, from, digest)?,
        Command::Leave(table) => leave(cx, table, from, digest)?,
    })
}

/// Seats `address` may hold at `t`'s game.
fn allowed(cx: &Ctx, t: &Table) -> usize {
    t.seats_per_address.unwrap_or(cx.seats_per_address).max(1) as usize
}

/// Mail a code for `action` to `from` (the mail `digest` asked): the
/// bound on replies asked first; the request kept, then the outcome.
fn ask(cx: &Ctx, action: Action, from: &str, digest: &str) -> Result<Outcome> {
    let mut store = confirm::Store::load(&cx.host)?;
    let again = store.asked_by(digest).is_some();
    if !(cx.may_mail_code)(from, digest)? {
        return Ok(Outcome::Held);
    }
    let key = super::key(&cx.host)?;
    let (code, others) = store.ask(&key, from, action, digest, &cx.now);
    let request = store
        .asked_by(digest)
        .cloned()
        .expect("asked for just above");
    let others = others
        .into_iter()
        .filter(|r| r.code_sha256 != request.code_sha256)
        .collect();
    if !again {
        store.save(&cx.host)?;
    }
    Ok(Outcome::CodeMailed {
        request,
        code,
        others,
        again,
    })
}

fn table(cx: &Ctx, name: &str) -> Result<Option<Table>> {
    match Name::new("table", name) {
        Ok(n) => super::load(&cx.host, &n),
        Err(_) => Ok(None),
    }
}

/// `join TABLE [name] [public] [prefer …]`: a code mailed to the From
/// address.
///
/// Long (about 80 lines): each of the table's checks of a join in the
/// order they are told (the sides asked for, the table's state, seats,
/// reliability, rating range).
fn join(
    cx: &Ctx,
    name_of_table: &str,
    name: &Option<String>,
    public: bool,
    prefer: Option<&str>,
    from: &str,
    digest: &str,
) -> Result<Outcome> {
    let Some(t) = table(cx, name_of_table)? else {
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
    if confirm::Store::load(&cx.host)?.asked_by(digest).is_some() {
        return ask(cx, action, from, digest);
    }
    if t.status != Status::Open {
        return Ok(Outcome::Refused(Refusal::Closed {
            table: t,
            late: false,
        }));
    }
    if t.seats_of(from) >= allowed(cx, &t) {
        return Ok(Outcome::Refused(Refusal::HasSeat { table: t }));
    }
    if t.seats.len() >= t.max {
        return Ok(Outcome::Refused(Refusal::Full {
            table: t,
            late: false,
        }));
    }
    if let Some(min) = t.min_reliability {
        let have = crate::community::reliability::of_address(cx.host.root(), from);
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
        let all = crate::community::ratings::of_host(cx.host.root());
        let have = crate::community::ratings::of_address(&all, &t.pool(), from);
        if t.outside_rating(have.as_ref()) {
            return Ok(Outcome::Refused(Refusal::Rating { table: t, have }));
        }
    }
    ask(cx, action, from, digest)
}

/// `leave TABLE`: a code mailed, when the address has something to leave.
fn leave(cx: &Ctx, name: &str, from: &str, digest: &str) -> Result<Outcome> {
    let Some(t) = table(cx, name)? else {
        return Ok(Outcome::Refused(Refusal::NoTable {
            table: name.to_string(),
            leaving: true,
        }));
    };
    let action = Action::Leave {
        table: t.name.clone(),
    };
    let store = confirm::Store::load(&cx.host)?;
    if store.asked_by(digest).is_some() {
        return ask(cx, action, from, digest);
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
    ask(cx, action, from, digest)
}

/// `standby` / `standby off`: a code mailed, unless the address is where
/// it asks to be.
fn standby(cx: &Ctx, on: bool, from: &str, digest: &str) -> Result<Outcome> {
    let list = seats::standby(&cx.host)?;
    let listed = list
        .list
        .iter()
        .any(|s| s.address.eq_ignore_ascii_case(from));
    let asked = confirm::Store::load(&cx.host)?.asked_by(digest).is_some();
    if !asked && listed == on {
        return Ok(Outcome::Already(if on {
            Already::OnStandby
        } else {
            Already::OffStandby
        }));
    }
    ask(cx, Action::Standby { on }, from, digest)
}

/// The seats `from` holds (or has been granted) in `game`, by player id.
fn seats_in_game(cx: &Ctx, rec: &seats::GameSeats, from: &str) -> Vec<String> {
    let mut held = Vec::new();
    if let Ok(name) = Name::new("game", &rec.game) {
        if let Some(h) = crate::host::route::peek(cx.host.game(&name).root()) {
            held.extend(
                h.players
                    .iter()
                    .filter(|p| {
                        p.email
                            .as_deref()
                            .is_some_and(|e| super::same_person(e, from))
                    })
                    .map(|p| p.id.clone()),
            );
        }
    }
    for o in &rec.offers {
        let granted = matches!(o.status, OfferStatus::Approval | OfferStatus::Granted);
        if granted
            && o.taker
                .as_ref()
                .is_some_and(|t| super::same_person(&t.address, from))
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
    cx: &Ctx,
    game: &str,
    player: &str,
    name: &Option<String>,
    from: &str,
    digest: &str,
) -> Result<Outcome> {
    let rec = Name::new("game", game)
        .ok()
        .and_then(|n| seats::load(&cx.host, &n).ok().flatten());
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
    if confirm::Store::load(&cx.host)?.asked_by(digest).is_some() {
        return ask(cx, action, from, digest);
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
            how: taken_how(&rec.offers[oi]),
            late: false,
        }));
    }
    let held = seats_in_game(cx, &rec, from);
    if held.len() >= rec.seats_per_address.unwrap_or(cx.seats_per_address).max(1) as usize {
        return Ok(Outcome::Refused(Refusal::HoldsSeat {
            game: rec.game.clone(),
            seats: held,
        }));
    }
    ask(cx, action, from, digest)
}

fn taken_how(o: &seats::Offer) -> String {
    match o.status {
        OfferStatus::Approval => "confirmed first; waiting for the moderator's approval".into(),
        OfferStatus::Granted => {
            "confirmed first; the seat changes hands at the host's next pass".into()
        }
        OfferStatus::Done => o.done.clone().unwrap_or_else(|| "taken over".into()),
        OfferStatus::Open => "open".into(),
    }
}

/// `confirm CODE`: the request the code was mailed for done, when it
/// still can be; else what became of it.
///
/// Long (about 85 lines): a mail handled already first (its record in the
/// store or in the table or game it changed), then each way a code can
/// fail, in the order they are told, then the request done.
fn confirm_code(cx: &Ctx, code: &str, from: &str, digest: &str) -> Result<Outcome> {
    let mut store = confirm::Store::load(&cx.host)?;
    // A mail handled already: the same answer.
    if let Some(r) = store.confirmed_by(digest).cloned() {
        return done_again(cx, &r);
    }
    let Some(r) = store.find(code).cloned() else {
        // A confirmation recorded by a herald before the store (in the
        // table or game it changed).
        let (tables, _) = super::all(&cx.host);
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
        .zip(crate::time::parse_time(&cx.now).ok())
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
    if let Some((done, withdraw_alike)) = applied(cx, &r, from, digest)? {
        store.confirm(&r.code_sha256, digest, &cx.now, withdraw_alike);
        store.save(&cx.host)?;
        return Ok(Outcome::Done { done, again: true });
    }
    let (outcome, withdraw_alike) = match &r.action {
        Action::Join {
            table: tn,
            name,
            public,
            prefer,
        } => seat(cx, tn, name, *public, prefer, from, digest)?,
        Action::Leave { table: tn } => leave_now(cx, &mut store, tn, from, digest)?,
        Action::Standby { on } => (standby_now(cx, *on, from)?, true),
        Action::Takeover { game, player, name } => claim(cx, game, player, name, from, digest)?,
    };
    if let Outcome::Done { .. } = outcome {
        store.confirm(&r.code_sha256, digest, &cx.now, withdraw_alike);
        store.save(&cx.host)?;
    }
    Ok(outcome)
}

/// What the confirming mail `digest` did already to the table or game
/// of request `r`, as recorded there (with whether the address's other
/// requests for the same thing go), if it did.
fn applied(cx: &Ctx, r: &Request, from: &str, digest: &str) -> Result<Option<(Done, bool)>> {
    Ok(match &r.action {
        Action::Join { table: tn, .. } | Action::Leave { table: tn } => {
            let Some(t) = table(cx, tn)? else {
                return Ok(None);
            };
            match t.handled(digest) {
                Some(Effect::Confirmed { seat, .. }) => {
                    let seat = *seat;
                    let full = t.seats_of(from) >= allowed(cx, &t);
                    Some((Done::Seated { table: t, seat }, full))
                }
                Some(Effect::Left { .. }) => Some((Done::Left { table: t, seats: 1 }, true)),
                _ => None,
            }
        }
        Action::Takeover { game, player, .. } => Name::new("game", game)
            .ok()
            .and_then(|n| seats::load(&cx.host, &n).ok().flatten())
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
fn done_again(cx: &Ctx, r: &Request) -> Result<Outcome> {
    let done = match &r.action {
        Action::Join { table: tn, .. } => match table(cx, tn)? {
            Some(t) => Done::Seated {
                seat: t.seated(&r.address).map_or(0, |i| i + 1),
                table: t,
            },
            None => return Ok(Outcome::Refused(Refusal::UnknownCode)),
        },
        Action::Leave { table: tn } => match table(cx, tn)? {
            Some(t) => Done::Left { table: t, seats: 1 },
            None => return Ok(Outcome::Refused(Refusal::UnknownCode)),
        },
        Action::Standby { on } => Done::Standby { on: *on },
        Action::Takeover { game, player, .. } => Done::Claimed {
            game: game.clone(),
            player: player.clone(),
            approve: Name::new("game", game)
                .ok()
                .and_then(|n| seats::load(&cx.host, &n).ok().flatten())
                .is_some_and(|g| g.approve),
        },
    };
    Ok(Outcome::Done { done, again: true })
}

/// A confirmed join: a seat at table `tn`, if it still has one for this
/// address. With whether the address's other joins there are withdrawn
/// (it has all the seats it may hold).
fn seat(
    cx: &Ctx,
    tn: &str,
    name: &Option<String>,
    public: bool,
    prefer: &[String],
    from: &str,
    digest: &str,
) -> Result<(Outcome, bool)> {
    let Some(mut t) = table(cx, tn)? else {
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
    if t.seats_of(from) >= allowed(cx, &t) {
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
        at: cx.now.clone(),
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
    super::save(&cx.host, &t)?;
    let full = t.seats_of(from) >= allowed(cx, &t);
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
    cx: &Ctx,
    store: &mut confirm::Store,
    tn: &str,
    from: &str,
    digest: &str,
) -> Result<(Outcome, bool)> {
    let Some(mut t) = table(cx, tn)? else {
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
    super::save(&cx.host, &t)?;
    let name = t.name.clone();
    store.withdraw(
        from,
        |a| matches!(a, Action::Join { table, .. } if *table == name),
        &cx.now,
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
fn standby_now(cx: &Ctx, on: bool, from: &str) -> Result<Outcome> {
    let mut list = seats::standby(&cx.host)?;
    let had = list
        .list
        .iter()
        .any(|s| s.address.eq_ignore_ascii_case(from));
    if on && !had {
        list.list.push(seats::StandbyEntry {
            address: from.trim().to_string(),
            at: cx.now.clone(),
        });
        seats::save_standby(&cx.host, &list)?;
    } else if !on && had {
        list.list.retain(|s| !s.address.eq_ignore_ascii_case(from));
        seats::save_standby(&cx.host, &list)?;
    }
    Ok(Outcome::Done {
        done: Done::Standby { on },
        again: false,
    })
}

/// A confirmed takeover: the offer of `player` in `game` claimed, if it is
/// still open and the address may take one more seat there.
fn claim(
    cx: &Ctx,
    game: &str,
    player: &str,
    name: &Option<String>,
    from: &str,
    digest: &str,
) -> Result<(Outcome, bool)> {
    let rec = Name::new("game", game)
        .ok()
        .and_then(|n| seats::load(&cx.host, &n).ok().flatten());
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
        let how = taken_how(&rec.offers[oi]);
        return Ok((
            Outcome::Refused(Refusal::Taken {
                game: game.to_string(),
                player: player.to_string(),
                how,
                late: true,
            }),
            false,
        ));
    }
    let held = seats_in_game(cx, &rec, from);
    if held.len() >= rec.seats_per_address.unwrap_or(cx.seats_per_address).max(1) as usize {
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
        at: cx.now.clone(),
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
    seats::save(&cx.host, &rec)?;
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

// ---- Words: the outcomes as the lobby's replies say them. ----

/// The open tables with free seats, each with the line that joins it.
fn open_tables_text(tables: &[Table]) -> String {
    let open: Vec<&Table> = tables
        .iter()
        .filter(|t| t.status == Status::Open && t.seats.len() < t.max)
        .collect();
    if open.is_empty() {
        return "There is no open table with a free seat on this host now.\n".into();
    }
    let mut s = String::from("Open tables:\n");
    for t in open {
        s.push_str(&format!(
            "  {}\n    press: {}\n    to join, send:  join {} [your name]\n    sides: {} (to ask for some, best first: join {} [your name] prefer {})\n",
            t.describe(),
            t.press_words(),
            t.name,
            crate::community::preferences::nameable(&t.game, t.max + t.bots.len()).join(", "),
            t.name,
            crate::community::preferences::nameable(&t.game, t.max + t.bots.len()).join(",")
        ));
    }
    s
}

/// What a player can ask for on this host now: the open tables with free
/// seats and the seats free to take over, each with the exact line to
/// send. Every refusal of a command for a table or game that does not
/// exist (or takes nobody) ends with it; so does the reply to mail for no
/// game.
pub fn offers_text(host: &HostDir, tables: &[Table]) -> String {
    let seats = seats::open_seats_text(host);
    format!("{}{seats}", open_tables_text(tables))
}

/// The open tables where `from` holds a seat or waits for a join, with
/// the line that leaves each.
fn yours_text(cx: &Ctx, tables: &[Table], from: &str) -> String {
    let store = confirm::Store::load(&cx.host).unwrap_or_default();
    let mine: Vec<&Table> = tables
        .iter()
        .filter(|t| {
            t.status == Status::Open
                && (t.seats_of(from) > 0
                    || store.waiting().any(|r| {
                        r.from(from)
                            && matches!(&r.action, Action::Join { table, .. } if *table == t.name)
                    }))
        })
        .collect();
    if mine.is_empty() {
        return "This address holds no seat at an open table.\n".into();
    }
    let mut s = String::from("Your seats at open tables:\n");
    for t in mine {
        s.push_str(&format!(
            "  {}\n    to leave, send:  leave {}\n",
            t.describe(),
            t.name
        ));
    }
    s
}

fn shown(s: &str) -> String {
    s.chars().take(40).filter(|c| !c.is_control()).collect()
}

fn closed_word(t: &Table) -> String {
    match t.status {
        Status::Open => "room".into(),
        Status::Starting | Status::Started => match &t.closed {
            Some(c) => format!("started ({c})"),
            None => "started".into(),
        },
        Status::Cancelled => "been cancelled".into(),
    }
}

/// A display name and what it becomes, for a code mail.
fn name_words(name: &Option<String>) -> String {
    match name {
        Some(n) => {
            let id = super::id_from_name(n);
            format!(
                "\"{n}\" (your player id in the game is made from it: {})",
                id.as_deref().map_or(
                    "player-N, as it has no letters or digits".to_string(),
                    |i| format!("{i}, or {i}-2 if another player's is the same")
                )
            )
        }
        None => "none (your player id in the game will be player-N, N your place in joining order)"
            .into(),
    }
}

fn public_words(public: bool) -> &'static str {
    if public {
        "PUBLIC: shown beside your name on the host's public tables page"
    } else {
        "private: only the moderator sees it"
    }
}

/// A request in one line, for lists of others waiting.
fn request_line(r: &Request) -> String {
    let what = match &r.action {
        Action::Join { name, public, .. } => format!(
            "a seat, display name {}, address {}",
            name.as_deref()
                .map_or("none".to_string(), |n| format!("\"{n}\"")),
            if *public { "public" } else { "private" }
        ),
        Action::Leave { table } => format!("give up your seat at {table}"),
        Action::Standby { on: true } => "onto the standby list".into(),
        Action::Standby { on: false } => "off the standby list".into(),
        Action::Takeover { game, player, name } => format!(
            "take over {player} in {game}, display name {}",
            name.as_deref()
                .map_or("none".to_string(), |n| format!("\"{n}\""))
        ),
    };
    format!("`{}` ({what}), asked {}", r.action.line(), r.at)
}

/// What confirming `action` does, in words, for its code mail.
fn action_words(cx: &Ctx, tables: &[Table], action: &Action, from: &str) -> String {
    match action {
        Action::Join {
            table,
            name,
            public,
            prefer,
        } => {
            let described = tables
                .iter()
                .find(|t| t.name == *table)
                .map_or_else(|| table.clone(), Table::describe);
            let sides = if prefer.is_empty() {
                String::new()
            } else {
                format!(
                    "  sides wanted:  {}, best first (the seats are dealt at the start\n                 to give the players the sides they asked for)\n",
                    prefer.join(", ")
                )
            };
            format!(
                "Someone (you, we hope) asked, from this address, for a seat at a table:\n\n  table:         {described}\n  display name:  {}\n  your address:  {}\n{sides}\nConfirming takes a seat at table `{table}` for this address, under\nthat name, with the address shown as above.\n",
                name_words(name),
                public_words(*public)
            )
        }
        Action::Leave { table } => {
            let t = tables.iter().find(|t| t.name == *table);
            let seats: Vec<String> = t
                .map(|t| {
                    t.seats
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| s.address.eq_ignore_ascii_case(from))
                        .map(|(i, s)| {
                            format!(
                                "seat {} as {}",
                                i + 1,
                                s.name.as_deref().map_or("(no name)".to_string(), |n| format!("\"{n}\""))
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!(
                "Someone (you, we hope) asked, from this address, to leave table `{table}`.\n\nConfirming gives up {} at table `{table}` before its game starts (someone\nelse may then take it), and withdraws every join of this address\nwaiting there.\n",
                if seats.is_empty() {
                    "nothing seated (this address has no seat there yet)".to_string()
                } else {
                    format!("this address's {}", seats.join(", "))
                }
            )
        }
        Action::Standby { on: true } => "Someone (you, we hope) asked to put this address on the standby list.\n\nConfirming puts it there: each time a seat of a game here is free to\ntake over, this address gets a mail saying how. `standby off` takes it\noff again (with a code too).\n".to_string(),
        Action::Standby { on: false } => "Someone (you, we hope) asked to take this address off the standby list.\n\nConfirming takes it off: no more mails about seats free to take over.\n".to_string(),
        Action::Takeover { game, player, name } => {
            let rec = Name::new("game", game)
                .ok()
                .and_then(|n| seats::load(&cx.host, &n).ok().flatten());
            let why = rec
                .as_ref()
                .and_then(|g| g.offers.iter().rfind(|o| o.player == *player))
                .map_or("", |o| seats::why_words(&o.why));
            let approve = rec.as_ref().is_some_and(|g| g.approve);
            format!(
                "Someone (you, we hope) asked, from this address, to take over the seat\n`{player}` of game `{game}`, a game under way:\n\n  game:          {game} ({})\n  seat:          {player} (freed: {why})\n  display name:  {}\n\nConfirming makes seat `{player}` this address's{}: at the host's next\npass you get its password, its whole history and its current report;\nthe game's other players are told `{player}` has a new player from that\nturn, and its old holder's password stops working. The first\nconfirmation takes the seat.\n",
                (cx.game_address)(game),
                name.as_deref().map_or(format!("none (the seat keeps the name {player})"), |n| format!("\"{n}\"")),
                if approve { " once the moderator approves" } else { "" }
            )
        }
    }
}

/// The code mail: what confirming does, the code, and the address's other
/// requests waiting for the same thing.
fn code_text(cx: &Ctx, tables: &[Table], r: &Request, code: &str, others: &[Request]) -> String {
    let mut s = action_words(cx, tables, &r.action, &r.address);
    s.push_str(&format!(
        "\nTo confirm, reply to this mail with the first line\n\n    confirm {code}\n\nfrom this address. If you did not ask, or anything above is not what\nyou asked for, do nothing: without the confirmation nothing happens.\n"
    ));
    if !others.is_empty() {
        s.push_str("\nAlso waiting from this address for the same thing (each code does\nonly what its own mail says; confirming one withdraws the others):\n");
        for o in others {
            s.push_str(&format!("  - {}\n", request_line(o)));
        }
    }
    s
}

/// What confirming did, in words.
fn done_text(cx: &Ctx, d: &Done) -> String {
    match d {
        Done::Seated { table: t, seat } => format!(
            "Confirmed: you have seat {seat} at table `{}`.\n  {}.\n\nWhen the game starts you get your password and your first report\nby mail. The order of the seats in the game is drawn from the game's\nseed, not from the order of joining. To give your seat up before the\nstart, send `leave {}`.\n",
            t.name,
            t.describe(),
            t.name
        ),
        Done::Left { table: t, seats } => format!(
            "Confirmed: you have left table `{}`{}. Now: {}.\n",
            t.name,
            if *seats > 1 {
                format!(" ({seats} seats given up)")
            } else {
                String::new()
            },
            t.describe()
        ),
        Done::Standby { on: true } => format!(
            "Confirmed: this address is on the standby list. When a seat in a game\nhere is free to take over, you get a mail saying how. `standby off`\ntakes you off.\n\n{}",
            seats::open_seats_text(&cx.host)
        ),
        Done::Standby { on: false } => "Confirmed: this address is not on the standby list any more.\n".into(),
        Done::Claimed {
            game,
            player,
            approve: true,
        } => format!("Confirmed: the seat `{player}` of game `{game}` is yours once the\nmoderator approves. You get its password, its history and its\ncurrent report by mail then.\n"),
        Done::Claimed {
            game,
            player,
            approve: false,
        } => format!("Confirmed: the seat `{player}` of game `{game}` is yours. Its password,\nits history and its current report follow in their own mails.\n"),
    }
}

/// What a code that can no longer do its request did, in words.
fn after_text(action: &Action, state: &str) -> String {
    format!("That code was for `{}`, and {state}.\n", action.line())
}

/// Why a command changed nothing, in words, with what to send instead.
///
/// Long (about 110 lines): one arm a refusal, each a literal naming what
/// to send instead.
fn refusal_text(cx: &Ctx, tables: &[Table], r: &Refusal, from: &str) -> String {
    let offers = || offers_text(&cx.host, tables);
    match r {
        Refusal::NoSender => "Your mail names no sender address, so nothing can be mailed back.\n".into(),
        Refusal::NoTable { table, leaving: false } => format!(
            "There is no open table `{}` here. Send `join TABLE` with one of these.\n\n{}",
            shown(table),
            offers()
        ),
        Refusal::NoTable { table, leaving: true } => format!(
            "There is no table `{}` here.\n\n{}\n{}",
            shown(table),
            yours_text(cx, tables, from),
            offers()
        ),
        Refusal::Closed { table: t, late: false } => format!(
            "Table `{}` takes no more players (it has {}).\n\n{}",
            t.name,
            closed_word(t),
            offers()
        ),
        Refusal::Closed { table: t, late: true } => format!(
            "Your confirmation came too late: table `{}` has {}, so it took no\nseat (the seats were fixed when the table started).\n\n{}",
            t.name,
            closed_word(t),
            offers()
        ),
        Refusal::Full { table: t, late: false } => {
            format!("Table `{}` is full.\n\n{}", t.name, offers())
        }
        Refusal::Full { table: t, late: true } => format!(
            "Sorry: table `{}` filled before your confirmation came.\n\n{}",
            t.name,
            offers()
        ),
        Refusal::HasSeat { table: t } => format!(
            "You have a seat at `{}` already: {}.\nOne person, one seat: this table takes {} from one address. To give\nyour seat up, send `leave {}`.\n",
            t.name,
            t.describe(),
            allowed(cx, t),
            t.name
        ),
        Refusal::NotThere { table: t } => format!(
            "This address has no seat at `{}`, so there was nothing to leave.\n\n{}\n{}",
            t.name,
            yours_text(cx, tables, from),
            offers()
        ),
        Refusal::LeaveTooLate { table: t } => format!(
            "Table `{}` has {}: seats can be left only before the start.\nA player who cannot go on asks the moderator to free the seat for\nsomeone else (their game's stand-in plays it meanwhile).\n\n{}",
            t.name,
            closed_word(t),
            yours_text(cx, tables, from)
        ),
        Refusal::NoOffer { game } => format!(
            "No seat of a game `{}` is free to take over here.\n\n{}",
            shown(game),
            offers()
        ),
        Refusal::NotOffered { game, player } => format!(
            "The seat `{}` of game `{game}` is not free to take over.\n\n{}",
            shown(player),
            offers()
        ),
        Refusal::Taken { game, player, how, late: false } => format!(
            "The seat `{player}` of game `{game}` has been taken by someone who\nconfirmed first ({how}).\n\n{}",
            offers()
        ),
        Refusal::Taken { game, player, how, late: true } => format!(
            "Sorry: the seat `{player}` of game `{game}` was taken by someone who\nconfirmed first ({how}); your confirmation took nothing.\n\n{}",
            offers()
        ),
        Refusal::Unreliable { table, min, have } => format!(
            "Table `{}` asks a reliability of at least {min}% across this host's\ngames, and this address has {}: the join is refused.\nPlay on in your games (each phase with your orders in raises it; `me`\nshows it), or send `join TABLE` for another table, e.g. one of these.\n\n{}",
            table.name,
            have.shown(),
            offers()
        ),
        Refusal::Prefer { table, why, line } => format!(
            "The sides you asked for at table `{}` cannot be read: {why}.\nSend the sides you would rather play, best first, e.g.:\n\n    {line}\n\n(a side you leave out is one you would play last). Nothing was done.\n\n{}",
            table.name,
            offers()
        ),
        Refusal::Rating { table, have } => format!(
            "Table `{}` is{}: a rating in {}\n(Glicko-2 from this host's finished games), and this address has\n{}: the join is refused.\nSend `join TABLE` for another table, e.g. one of these.\n\n{}",
            table.name,
            table.rating_words().trim_start_matches(';'),
            table.pool(),
            have.map_or("no rating there yet, which counts as 1500".to_string(), |h| h.shown()),
            offers()
        ),
        Refusal::HoldsSeat { game, seats } => format!(
            "This address holds {} in game `{game}` already: one person, one\nseat. (The moderator may allow more with `--seats-per-address`.)\n\n{}",
            if seats.len() == 1 {
                format!("the seat `{}`", seats[0])
            } else {
                format!("the seats {}", seats.join(", "))
            },
            offers()
        ),
        Refusal::UnknownCode => format!(
            "That code is not one this host is waiting for (a code is used once,\nand waits {} days). Send `join TABLE` (or the command you meant) again\nfor a new one.\n\n{}",
            confirm::EXPIRES / 86_400,
            offers()
        ),
        Refusal::OtherAddress { action } => format!(
            "That code was mailed to another address. Confirm from the address you\nsent `{}` from (what it asks for is that address's).\n",
            action.line()
        ),
        Refusal::AlreadyDone { action, at } => {
            after_text(action, &format!("it was confirmed already ({at}); nothing more to do"))
        }
        Refusal::Withdrawn { action, at } => after_text(
            action,
            &format!("it was withdrawn ({at}): another request of this address for the same thing\nwas confirmed, or the address left the table. Send the command again\nif you still want it"),
        ),
        Refusal::Dropped { action, why: confirm::Dropped::Expired } => after_text(
            action,
            &format!("it waited more than {} days: send the command again for a new code", confirm::EXPIRES / 86_400),
        ),
        Refusal::Dropped { action, why: confirm::Dropped::TooMany } => after_text(
            action,
            &format!("more than {} requests of this address were waiting, this one the oldest:\nsend the command again for a new code", confirm::PER_ADDRESS),
        ),
    }
}

/// An outcome in words: for the log (`what`), and the reply's text
/// (before the help).
pub fn words(cx: &Ctx, tables: &[Table], o: &Outcome, from: &str) -> (String, String) {
    match o {
        Outcome::Tables => ("tables".into(), offers_text(&cx.host, tables)),
        Outcome::Me(t) => (
            "me".into(),
            format!(
                "Your reliability across this host's games (this address only):\n\n    {}\n\nPhases with your orders in, over the phases you held a seat that\nawaited orders; phases a stand-in played while you were away on\nvacation count neither way (docs/host.md, \"Reliability\"). Nobody\nelse is shown it.\n",
                t.shown()
            ),
        ),
        Outcome::Bad(line) => (
            format!("bad command (send `{line}`)"),
            format!(
                "Your mail was not understood. Send a mail whose first line is\n\n    {line}\n\n{}",
                offers_text(&cx.host, tables)
            ),
        ),
        Outcome::CodeMailed {
            request,
            code,
            others,
            again,
        } => (
            format!(
                "{}: code mailed{}",
                request.action.line(),
                if *again {
                    " (again, after a restart)"
                } else {
                    ""
                }
            ),
            code_text(cx, tables, request, code, others),
        ),
        Outcome::Done { done, again } => (
            format!(
                "confirm: {}{}",
                match done {
                    Done::Seated { table, seat } => format!("seat {seat} at {}", table.name),
                    Done::Left { table, .. } => format!("left {}", table.name),
                    Done::Standby { on: true } => "standby on".into(),
                    Done::Standby { on: false } => "standby off".into(),
                    Done::Claimed { game, player, .. } => format!("takeover of {player} in {game}"),
                },
                if *again {
                    " (again, after a restart)"
                } else {
                    ""
                }
            ),
            done_text(cx, done),
        ),
        Outcome::Already(Already::OnStandby) => (
            "standby: on already".into(),
            format!(
                "This address is on the standby list already. `standby off` takes it off.\n\n{}",
                seats::open_seats_text(&cx.host)
            ),
        ),
        Outcome::Already(Already::OffStandby) => (
            "standby off: not on it".into(),
            "This address is not on the standby list: nothing to take off.\n".into(),
        ),
        Outcome::Held => (
            "code not mailed: the bound of replies to this address this hour is reached".into(),
            String::new(),
        ),
        Outcome::Refused(r) => (refusal_what(r), refusal_text(cx, tables, r, from)),
    }
}

/// A refusal for the log.
fn refusal_what(r: &Refusal) -> String {
    match r {
        Refusal::NoSender => "no sender address".into(),
        Refusal::NoTable { table, leaving } => format!(
            "{} {}: no such table",
            if *leaving { "leave" } else { "join" },
            shown(table)
        ),
        Refusal::Closed { table, late } => format!(
            "{} {}: the table is closed",
            if *late { "confirm" } else { "join" },
            table.name
        ),
        Refusal::Full { table, late } => format!(
            "{} {}: full",
            if *late { "confirm" } else { "join" },
            table.name
        ),
        Refusal::HasSeat { table } => format!("{}: already seated", table.name),
        Refusal::NotThere { table } => format!("leave {}: not seated", table.name),
        Refusal::LeaveTooLate { table } => format!("leave {}: the table is closed", table.name),
        Refusal::NoOffer { game } => {
            format!("takeover {}: no seat offered in that game", shown(game))
        }
        Refusal::NotOffered { game, player } => {
            format!("takeover {game} {}: not offered", shown(player))
        }
        Refusal::Taken {
            game, player, late, ..
        } => format!(
            "{} {game} {player}: taken",
            if *late {
                "confirm takeover"
            } else {
                "takeover"
            }
        ),
        Refusal::HoldsSeat { game, seats } => {
            format!("{game}: this address holds {} already", seats.join(", "))
        }
        Refusal::Unreliable { table, min, have } => format!(
            "join {}: reliability {} below the table's {min}%",
            table.name,
            have.percent().unwrap_or(0)
        ),
        Refusal::Prefer { table, why, .. } => format!("join {}: prefer: {why}", table.name),
        Refusal::Rating { table, have } => format!(
            "join {}: rating {} outside the table's range",
            table.name,
            have.map_or(1500, |h| h.points())
        ),
        Refusal::UnknownCode => "confirm: no such code".into(),
        Refusal::OtherAddress { action } => {
            format!(
                "confirm `{}`: from another address than the request",
                action.line()
            )
        }
        Refusal::AlreadyDone { action, .. } => format!("confirm `{}`: done already", action.line()),
        Refusal::Withdrawn { action, .. } => format!("confirm `{}`: withdrawn", action.line()),
        Refusal::Dropped { action, .. } => format!("confirm `{}`: dropped", action.line()),
    }
}

/// Is `t`'s name a valid table name?
pub fn valid_table(t: &str) -> bool {
    Name::new("table", t).is_ok()
}
