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
//! This module is the lobby's mail adapter: a mail is read into a
//! request of the door (`crate::requests::lobby`: the From a claim, a
//! `confirm CODE` a [`Requester::Code`]), decided there to a typed
//! [`Outcome`] (the change made, the code mailed, or the refusal and why),
//! and the outcome put in words here ([`words`]); a web page takes the
//! same outcome and says it its own way.
//!
//! The lobby's help (the commands above, about 25 lines) ends a reply the
//! first time an address writes in a day (UTC), and every reply to `help`;
//! other replies end with the one line that asks for it
//! ([`Answering::help`]; the pass remembers whom it told, docs/host.md
//! "The lobby's help").

use super::confirm::{self, Action, Request};
use super::seats::{self, OfferStatus};
use super::{HostDir, Status, Table};
use crate::error::Result;
use crate::mail::{eml, extract};
use crate::names::Name;
use crate::requests::guard::Tries;
use crate::requests::lobby::{self as door, Already};
use crate::requests::{Carrier, Claim, Requester};
use mail_parser::Message;

pub use crate::requests::lobby::{Done, Outcome, Refusal};

/// The lobby's words, for the help text.
pub const HELP: &str = "\
Joining a game (write to the host's own address, the command as the
subject or on one of the mail's first three lines):
      tables                       the open tables
      help                         these lines
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

/// The line that ends a reply without the help.
pub const ASK_HELP: &str = "Send `help` to this address for the lobby's commands.\n";

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
    /// `help`: the lobby's commands.
    Help,
    /// A lobby word with the wrong words after it: the line to send.
    Bad(String),
}

const WORDS: [&str; 8] = [
    "tables", "join", "confirm", "leave", "standby", "takeover", "me", "help",
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

/// A display name typed in a form, read as a mail's words after `join
/// TABLE` are: the same 40 characters, control characters out.
pub fn typed_name(s: &str) -> Option<String> {
    display_name(&s.split_whitespace().collect::<Vec<_>>())
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
        ("help", _) => Command::Help,
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
    let whole = |c: &Command| {
        !matches!(
            c,
            Command::Bad(_) | Command::Tables | Command::Me | Command::Help
        )
    };
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

/// What answering a lobby mail did, for the log.
pub struct Answered {
    pub outcome: Outcome,
    /// For the log.
    pub what: String,
    /// The reply (its Message-ID and bytes); `None` when held back.
    pub reply: Option<(String, Vec<u8>)>,
}

/// A lobby mail as the adapter reads it: the claim its From makes, and
/// what carried it.
pub struct Mail<'a> {
    /// The From address ("" when none).
    pub from: &'a str,
    /// The host's own receiving server vouches for the From
    /// (`host::sender`): a code it carries spends no budget.
    pub vouched: bool,
    /// The mail's sha256 and Message-ID ("" when none).
    pub digest: &'a str,
    pub mid: &'a str,
    /// The reply's subject.
    pub subject: &'a str,
}

/// How the pass answers: what it keeps between mails.
#[derive(Default)]
pub struct Answering<'a> {
    /// The budget of codes tried per address (none: not counted).
    pub tries: Option<&'a Tries>,
    /// The reply ends with the lobby's whole help (the address's first
    /// mail of the day); else with the line that asks for it. A reply to
    /// `help` is the help whatever this says.
    pub help: bool,
}

/// Answer one lobby mail from `from` (its sha256 `digest`, Message-ID
/// `mid`) with the whole help and no budget of codes, as a moderator's
/// tool would: [`answer_mail`].
pub fn answer(
    cx: &Ctx,
    cmd: &Command,
    from: &str,
    digest: &str,
    mid: &str,
    subject: &str,
) -> Result<Answered> {
    let mail = Mail {
        from,
        vouched: false,
        digest,
        mid,
        subject,
    };
    let how = Answering {
        tries: None,
        help: true,
    };
    answer_mail(cx, cmd, &mail, &how)
}

/// The door's request a mail's command makes: the From a claim, a
/// `confirm CODE` the code shown. `None` for a line that did not read.
pub fn request(cmd: &Command, mail: &Mail) -> Option<door::Request> {
    let claim = Claim {
        address: mail.from.to_string(),
        vouched: mail.vouched,
    };
    let (command, by) = match cmd {
        Command::Bad(_) => return None,
        Command::Confirm(code) => (
            door::Command::Confirm,
            Requester::Code {
                code: code.clone(),
                claim,
            },
        ),
        Command::Tables => (door::Command::Tables, Requester::Anyone(claim)),
        Command::Me => (door::Command::Me, Requester::Anyone(claim)),
        Command::Help => (door::Command::Help, Requester::Anyone(claim)),
        Command::Join {
            table,
            name,
            public,
            prefer,
        } => (
            door::Command::Join {
                table: table.clone(),
                name: name.clone(),
                public: *public,
                prefer: prefer.clone(),
            },
            Requester::Anyone(claim),
        ),
        Command::Leave(table) => (
            door::Command::Leave {
                table: table.clone(),
            },
            Requester::Anyone(claim),
        ),
        Command::Standby(on) => (door::Command::Standby { on: *on }, Requester::Anyone(claim)),
        Command::Takeover { game, player, name } => (
            door::Command::Takeover {
                game: game.clone(),
                player: player.clone(),
                name: name.clone(),
            },
            Requester::Anyone(claim),
        ),
    };
    Some(door::Request {
        command,
        by,
        carrier: Carrier {
            id: mail.mid.to_string(),
            digest: mail.digest.to_string(),
        },
    })
}

/// Answer one lobby mail: read into the door's request, decided there
/// (the change made and recorded, or the code mailed), then put in words.
/// A mail recorded already gets the same answer again.
pub fn answer_mail(cx: &Ctx, cmd: &Command, mail: &Mail, how: &Answering) -> Result<Answered> {
    let lobby = door::Lobby {
        host: cx.host.clone(),
        now: cx.now.clone(),
        seats_per_address: cx.seats_per_address,
        may_mail_code: cx.may_mail_code,
        tries: how.tries,
    };
    let (from, digest) = (mail.from, mail.digest);
    let outcome = match (request(cmd, mail), cmd) {
        _ if from.is_empty() => Outcome::Refused(Refusal::NoSender),
        (Some(req), _) => door::run(&lobby, &req)?,
        (None, Command::Bad(line)) => Outcome::Refused(Refusal::Unread(line.clone())),
        (None, _) => Outcome::Refused(Refusal::Unread(String::new())),
    };
    let (tables, _) = super::all(&cx.host);
    let (what, told) = words(cx, &tables, &outcome, from);
    let help = match (&outcome, how.help) {
        (Outcome::Help, _) => "",
        (_, true) => HELP,
        (_, false) => ASK_HELP,
    };
    let reply = match (&outcome, from.is_empty()) {
        (Outcome::Held, _) | (_, true) => None,
        _ => {
            let text = format!("Hello,\n\nthis is herald's lobby.\n\n{told}\n{help}");
            let message_id = eml::message_id("host", &["lobby", digest]);
            let mail = eml::Mail {
                from: cx.from.clone(),
                to: from.to_string(),
                subject: mail.subject.to_string(),
                date: cx.now.clone(),
                message_id: message_id.clone(),
                in_reply_to: (!mail.mid.is_empty()).then(|| mail.mid.to_string()),
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

/// Whom the lobby sent its whole help today: the sha256 of each address
/// (lowercase), never the address, in `DIR/state/lobby-help` (0600,
/// written atomically by the pass that holds `host.lock`), forgotten when
/// the day (UTC) changes.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HelpSent {
    /// The day (YYYY-MM-DD, UTC) the digests are of.
    pub day: String,
    pub told: std::collections::BTreeSet<String>,
}

impl HelpSent {
    /// The memory as kept, for the day of `now` (RFC 3339): another
    /// day's is forgotten, as is a file that does not read.
    pub fn load(host: &HostDir, now: &str) -> HelpSent {
        let day = now.get(..10).unwrap_or(now).to_string();
        std::fs::read(host.lobby_help())
            .ok()
            .and_then(|b| serde_json::from_slice::<HelpSent>(&b).ok())
            .filter(|h| h.day == day)
            .unwrap_or(HelpSent {
                day,
                told: Default::default(),
            })
    }

    fn key(address: &str) -> String {
        crate::chain::canon::sha256_hex(address.trim().to_ascii_lowercase().as_bytes())
    }

    /// Was `address` sent the whole help today?
    pub fn told(&self, address: &str) -> bool {
        self.told.contains(&Self::key(address))
    }

    /// `address` was sent it now: `true` when that is news to keep.
    pub fn mark(&mut self, address: &str) -> bool {
        self.told.insert(Self::key(address))
    }

    pub fn save(&self, host: &HostDir) -> Result<()> {
        let json = serde_json::to_vec(self).expect("a memory serialises");
        crate::store::write::create_dir(&host.state())?;
        crate::store::write::atomic(
            &host.lobby_help(),
            &json,
            crate::store::write::Durability::Synced,
        )
    }
}

/// Seats one address may hold at `t`'s game.
fn allowed(cx: &Ctx, t: &Table) -> usize {
    t.seats_per_address.unwrap_or(cx.seats_per_address).max(1) as usize
}

/// How a seat offered was taken, in words.
fn taken_how(status: OfferStatus, done: &Option<String>) -> String {
    match status {
        OfferStatus::Approval => "confirmed first; waiting for the moderator's approval".into(),
        OfferStatus::Granted => {
            "confirmed first; the seat changes hands at the host's next pass".into()
        }
        OfferStatus::Done => done.clone().unwrap_or_else(|| "taken over".into()),
        OfferStatus::Open => "open".into(),
    }
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
        let sides = crate::community::preferences::nameable(&t.game, t.max + t.bots.len());
        s.push_str(&format!(
            "  {}\n    press: {}\n    to join, send:  join {} [your name]\n    sides: {} (to ask for some, best first: join {} [your name] prefer {})\n",
            t.describe(),
            t.press_words(),
            t.name,
            sides.join(", "),
            t.name,
            sides.join(",")
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

/// [`offers_text`] with only the tables whose minimum reliability and
/// rating range admit `from`: a refusal for a table's minimum offers the
/// lines that would be taken, not another table that would refuse too.
fn offers_admitting(cx: &Ctx, tables: &[Table], from: &str) -> String {
    let reliability = crate::community::reliability::of_address(cx.host.root(), from);
    let ratings = crate::community::ratings::of_host(cx.host.root());
    let fit: Vec<Table> = tables
        .iter()
        .filter(|t| t.admits(&reliability, &ratings, from))
        .cloned()
        .collect();
    offers_text(&cx.host, &fit)
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
        Refusal::Unread(line) => format!(
            "Your mail was not understood. Send a mail whose first line is\n\n    {line}\n\n{}",
            offers()
        ),
        Refusal::Throttled => format!(
            "Too many codes were tried from this address in the last hour: this\none was not looked at. A code waits {} days; send it again in an\nhour, from the address it was mailed to.\n",
            confirm::EXPIRES / 86_400
        ),
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
        Refusal::Taken { game, player, status, done, late: false } => format!(
            "The seat `{player}` of game `{game}` has been taken by someone who\nconfirmed first ({}).\n\n{}",
            taken_how(*status, done),
            offers()
        ),
        Refusal::Taken { game, player, status, done, late: true } => format!(
            "Sorry: the seat `{player}` of game `{game}` was taken by someone who\nconfirmed first ({}); your confirmation took nothing.\n\n{}",
            taken_how(*status, done),
            offers()
        ),
        Refusal::Unreliable { table, min, have } => format!(
            "Table `{}` asks a reliability of at least {min}% across this host's\ngames, and this address has {}: the join is refused.\nPlay on in your games (each phase with your orders in raises it; `me`\nshows it), or send `join TABLE` for another table, e.g. one of these.\n\n{}",
            table.name,
            have.shown(),
            offers_admitting(cx, tables, from)
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
            have.as_ref().map_or("no rating there yet, which counts as 1500".to_string(), |h| h.shown()),
            offers_admitting(cx, tables, from)
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

/// The `me` reply: the address's reliability, then its rating in each
/// pool it has a rated game in (docs/host.md, "Reliability", "Ratings").
fn me_text(
    t: &crate::community::reliability::Tally,
    ratings: &[(String, crate::community::ratings::Standing)],
) -> String {
    let mut s = format!(
        "Your reliability across this host's games (this address only):\n\n    {}\n\nPhases with your orders in, over the phases you held a seat that\nawaited orders; phases a stand-in played while you were away on\nvacation count neither way (docs/host.md, \"Reliability\").\n\n",
        t.shown()
    );
    if ratings.is_empty() {
        s.push_str("Your ratings: none yet. A rating comes with your first finished game\nhere against another player (a bot's seat is not rated); until then\na table's rating range counts you as 1500, a newcomer.\n");
    } else {
        s.push_str("Your ratings (Glicko-2 from this host's finished games, one per game\nand options; rating ± RD, and rating ± 2 RD is the 95% interval):\n\n");
        for (pool, r) in ratings {
            s.push_str(&format!("    {pool}: {}\n", r.shown()));
        }
    }
    s.push_str("\nNobody else is shown these figures unless you joined a table `public`\n(then the gallery's ratings page shows your rating by your name).\n");
    s
}

/// An outcome in words: for the log (`what`), and the reply's text
/// (before the help).
pub fn words(cx: &Ctx, tables: &[Table], o: &Outcome, from: &str) -> (String, String) {
    match o {
        Outcome::Tables => ("tables".into(), offers_text(&cx.host, tables)),
        Outcome::Me {
            reliability,
            ratings,
        } => ("me".into(), me_text(reliability, ratings)),
        Outcome::Help => ("help".into(), HELP.into()),
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
        Refusal::Unread(line) => format!("bad command (send `{line}`)"),
        Refusal::Throttled => "confirm: too many codes tried from this address this hour".into(),
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
            have.as_ref().map_or(1500, |h| h.points())
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
