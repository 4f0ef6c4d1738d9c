//! Commands by mail, as the Diplomacy judges offer them. A mail to a game
//! whose subject (after `Re:`/`Fwd:` and `[tag]`s) or one of the body's
//! first lines is one of
//!
//! ```text
//! help                          what the host accepts
//! status                        the game's status (public, as `herald status`)
//! form PLAYER PASSWORD          the player's blank order form (as `herald orders`)
//! report PLAYER PASSWORD        the player's current report again (text, with its witness)
//! withdraw PLAYER PASSWORD      delete the player's stored orders for the current turn
//! ```
//!
//! is answered by mail to its sender: this module reads the mail into a
//! request of the door (`requests::game`) and makes the reply's words
//! from its outcome. A mail that holds an order file is
//! orders, never a command. Words are case-insensitive except the
//! password. `form` and `report` show a player's own view (hidden
//! information), so they need the password like `withdraw`. The reply
//! never echoes the password: its subject is made anew, not the mail's.

use crate::error::Result;
use crate::mail::extract;
use crate::names::Name;
use crate::pipeline::inbox::{queue_reply, Fate, Reply};
use crate::pipeline::Writing;
use crate::requests::game::{self, Done, Refusal, Request};
use crate::requests::{Answer, Carrier, Claim, Door, Held, Requester};
use mail_parser::Message;
use std::path::PathBuf;

/// The words the host accepts, for replies.
pub const HELP: &str = "\
What herald accepts at this address:

  - an order file (reply to your report with the form filled in, or attach
    the order file as text): checked, stored and acknowledged;
  - a command, as the subject or on one of the mail's first three lines:
      help                         this list
      status                       the game's status
      form PLAYER PASSWORD         your blank order form
      report PLAYER PASSWORD       your current report again
      withdraw PLAYER PASSWORD     withdraw the orders you sent for this turn
                                   (before the deadline)
      vacation PLAYER PASSWORD until YYYY-MM-DD
                                   go away until that day: a deadline that
                                   comes without your orders moves to it
                                   (within the days the game allows);
                                   or `for 3 days`, `for 6 hours`, `for 90
                                   minutes`, charged in that unit
      back PLAYER PASSWORD         end your vacation early
      resign PLAYER PASSWORD       give up the game, at any time (also `concede`)
      offer draw PLAYER PASSWORD   offer a draw to the players still in
      accept draw PLAYER PASSWORD  agree to the draw offered (it is agreed
                                   when every player still in accepts)
      decline draw PLAYER PASSWORD turn the draw offered down (its offerer:
                                   take the offer back)
";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Help,
    Status,
    Form {
        player: String,
        password: String,
    },
    Report {
        player: String,
        password: String,
    },
    Withdraw {
        player: String,
        password: String,
    },
    Vacation {
        player: String,
        password: String,
        until: String,
    },
    Back {
        player: String,
        password: String,
    },
    /// `resign` (or the game's own word, `concede`): give up the game.
    Resign {
        player: String,
        password: String,
    },
    /// `offer draw`, `accept draw`, `decline draw`.
    Draw {
        act: crate::pipeline::ending::Act,
        player: String,
        password: String,
    },
}

impl Command {
    /// The command without its password: for logs and replies.
    pub fn describe(&self) -> String {
        match self {
            Command::Help => "help".into(),
            Command::Status => "status".into(),
            Command::Form { player, .. } => format!("form {player}"),
            Command::Report { player, .. } => format!("report {player}"),
            Command::Withdraw { player, .. } => format!("withdraw {player}"),
            Command::Vacation { player, until, .. } => format!(
                "vacation {player} {} {}",
                if super::vacation::parse_until(until).is_some() {
                    "until"
                } else {
                    "for"
                },
                until.chars().take(40).collect::<String>()
            ),
            Command::Back { player, .. } => format!("back {player}"),
            Command::Resign { player, .. } => format!("resign {player}"),
            Command::Draw { act, player, .. } => format!("{} draw {player}", act.name()),
        }
    }
}

/// What a mail asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// Not a command: orders (or nothing herald understands).
    Orders,
    Command(Command),
    /// A command word with the wrong words after it: the reply says why.
    Bad {
        word: String,
        why: String,
    },
}

const WORDS: [&str; 12] = [
    "help", "status", "form", "report", "withdraw", "vacation", "back", "resign", "concede",
    "offer", "accept", "decline",
];

/// A subject without its `Re:`/`Fwd:` prefixes and `[tag]`s (the game's
/// commands and the lobby's read subjects alike).
pub(crate) fn bare_subject(s: &str) -> &str {
    let mut s = s.trim();
    loop {
        let lower = s.to_ascii_lowercase();
        if let Some(p) = ["re:", "fwd:", "fw:", "aw:", "wg:"]
            .iter()
            .find(|p| lower.starts_with(*p))
        {
            s = s[p.len()..].trim_start();
        } else if s.starts_with('[') {
            match s.find(']') {
                Some(j) => s = s[j + 1..].trim_start(),
                None => break,
            }
        } else {
            break;
        }
    }
    s
}

/// Read one line as a command, or `None` if its first word is not one.
pub fn parse_line(line: &str) -> Option<Asked> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let word = words.first()?.to_ascii_lowercase();
    let word = word.trim_end_matches([':', '.', '!']).to_string();
    if !WORDS.contains(&word.as_str()) {
        return None;
    }
    let args = &words[1..];
    let with_player = |make: fn(String, String) -> Command| {
        match args {
        [p, pw] => Asked::Command(make(p.to_ascii_lowercase(), pw.to_string())),
        _ => Asked::Bad {
            word: word.clone(),
            why: format!(
                "`{word}` takes your player id and your password, on one line: `{word} PLAYER PASSWORD`"
            ),
        },
    }
    };
    Some(match word.as_str() {
        "help" => Asked::Command(Command::Help),
        "status" if args.is_empty() => Asked::Command(Command::Status),
        "status" => Asked::Bad {
            word,
            why: "`status` takes nothing after it".into(),
        },
        "form" => with_player(|player, password| Command::Form { player, password }),
        "report" => with_player(|player, password| Command::Report { player, password }),
        "back" => with_player(|player, password| Command::Back { player, password }),
        // The games' own words (Stack Wars' order `resign`, The Unfought
        // Battle's `concede`) are the same request by mail.
        "resign" | "concede" => with_player(|player, password| Command::Resign { player, password }),
        "offer" | "accept" | "decline" => match args {
            [d, p, pw] if d.eq_ignore_ascii_case("draw") => Asked::Command(Command::Draw {
                act: crate::pipeline::ending::Act::parse(&word).unwrap_or(crate::pipeline::ending::Act::Offer),
                player: p.to_ascii_lowercase(),
                password: pw.to_string(),
            }),
            _ => Asked::Bad {
                word: format!("{word} draw"),
                why: format!(
                    "`{word} draw` takes your player id and your password, on one line: `{word} draw PLAYER PASSWORD`"
                ),
            },
        },
        "vacation" => match args {
            [p, pw, u, date] if u.eq_ignore_ascii_case("until") => Asked::Command(Command::Vacation {
                player: p.to_ascii_lowercase(),
                password: pw.to_string(),
                until: date.to_string(),
            }),
            // `for 90 minutes` (or `for 90m`): a length from now, charged
            // in its own unit.
            [p, pw, f, length @ ..]
                if f.eq_ignore_ascii_case("for") && (1..=2).contains(&length.len()) =>
            {
                Asked::Command(Command::Vacation {
                    player: p.to_ascii_lowercase(),
                    password: pw.to_string(),
                    until: length.join(" "),
                })
            }
            _ => Asked::Bad {
                word: word.clone(),
                why: "`vacation` takes your player id, your password and the day you are back, on one line: `vacation PLAYER PASSWORD until YYYY-MM-DD` (or `… for 3 days`, `… for 90 minutes`)".into(),
            },
        },
        _ => with_player(|player, password| Command::Withdraw { player, password }),
    })
}

/// How many of the body's first lines are read for a whole command (a
/// greeting may come first: "Hi,", then `form white PASSWORD`).
const BODY_LINES: usize = 3;

/// What `m` asks for. A mail holding an order file is orders. A command
/// may stand in the subject or in the body (the player's own lines, not
/// quoted ones): a whole command in the body's first lines wins over a
/// subject that is only a command's name (`form`, with the body
/// `form white PASSWORD`); a whole command in the subject wins over the
/// body; a command word with the wrong words after it is answered with
/// the line to send.
pub fn asked(m: &Message) -> Asked {
    if extract::order_text(m).is_ok() {
        return Asked::Orders;
    }
    let subject = m.subject().map(bare_subject);
    let in_subject = subject.as_deref().and_then(parse_line);
    let body = m.body_text(0).unwrap_or_default();
    let (own, _) = extract::split_reply(&body);
    let lines: Vec<&str> = own
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(BODY_LINES)
        .collect();
    let whole_in_body = lines
        .iter()
        .filter_map(|l| parse_line(l))
        .find(|a| matches!(a, Asked::Command(_)));
    let bare = subject
        .as_deref()
        .is_some_and(|s| s.split_whitespace().count() == 1);
    match (in_subject, whole_in_body) {
        (Some(Asked::Command(c)), Some(b)) if bare => match c {
            Command::Help | Command::Status => b,
            c => Asked::Command(c),
        },
        (Some(Asked::Bad { .. }), Some(b)) => b,
        (Some(a), _) => a,
        (None, Some(b)) => b,
        (None, None) => lines
            .first()
            .and_then(|l| parse_line(l))
            .unwrap_or(Asked::Orders),
    }
}

/// The exact line to send for a command word `word` that needs the
/// player and the password, for a mail from `from`: the player is filled
/// in when the address is a player's.
fn line_to_send(w: &Writing, word: &str, from: &str) -> String {
    let h = w.game.head();
    let theirs: Vec<&str> = h
        .players
        .iter()
        .filter(|p| {
            p.email
                .as_deref()
                .is_some_and(|e| !from.is_empty() && e.eq_ignore_ascii_case(from))
        })
        .map(|p| p.id.as_str())
        .collect();
    match theirs.as_slice() {
        [one] => format!(
            "send a mail whose first line is\n\n    {word} {one} YOUR-PASSWORD\n\nwith the password the moderator sent you in place of YOUR-PASSWORD"
        ),
        _ => format!(
            "send a mail whose first line is\n\n    {word} YOUR-PLAYER-ID YOUR-PASSWORD\n\nwith your player id ({}) and the password the moderator sent you",
            w.game.players().join(", ")
        ),
    }
}

/// What a command did, for the log and the host's state.
#[derive(Debug, Clone)]
pub struct Answered {
    /// "command: status", "command: withdraw red: refused (…)".
    pub what: String,
    pub player: Option<String>,
    pub ok: bool,
    /// The reply queued (`None`: the door held it back, `held` says why).
    pub reply: Option<PathBuf>,
    pub held: Option<Held>,
    /// The player's password checks are spent for now: not checked.
    pub throttled: bool,
}

/// One mail's command as the host hands it to the door: who sent it (the
/// From, and whether the host's server vouched for it), what carried it,
/// the pass's time and the From of the reply.
pub struct Asking<'a> {
    pub claim: Claim,
    pub carrier: &'a Carrier,
    pub now: &'a str,
    pub reply_from: &'a str,
}

/// Answer `asked` (a command or a bad one) from a mail through the game's
/// door: the request made from the mail, the door's outcome turned into
/// words, the reply queued in the game's outbox if the door grants it.
/// The caller records the mail in `inbox/seen` afterwards.
pub fn answer(w: &mut Writing, asked: &Asked, a: &Asking, door: &Door) -> Result<Answered> {
    let title = {
        let h = w.game.head();
        format!(
            "{} — game {}, turn {}\n\n",
            w.game.entry.title, h.id, h.turn
        )
    };
    let game_id = w.game.head().id.clone();
    let from = a.claim.address.as_str();
    let (cmd, player, result, answer) = match asked {
        Asked::Command(c) => through_door(w, c, a, door)?,
        Asked::Bad { .. } | Asked::Orders => {
            let (word, why) = misread(w, asked, from);
            let refused = Fate::Refused {
                problems: Vec::new(),
            };
            (
                word,
                None,
                Err(why),
                door.answer(from, &refused, false, a.carrier),
            )
        }
    };
    let throttled = matches!(&result, Err(why) if why.starts_with(TOO_MANY));
    let (ok, text, what) = match result {
        Ok(body) => (true, format!("{title}{body}"), format!("command: {cmd}")),
        Err(why) => (
            false,
            format!("{title}Your command `{cmd}` is REFUSED: {why}\n\n{HELP}"),
            format!("command: {cmd}: refused"),
        ),
    };
    if ok {
        away_recorded(w, asked, a.now);
    }
    let subject = format!("[{game_id}] {cmd}");
    // Every reply asks: an answer no password earned (`help`, `status`,
    // a refusal) counts against the host's bound on replies.
    let (reply, held) = match answer {
        Answer::Tell => (
            Some(queue_reply(
                w,
                Reply {
                    to: from,
                    subject: Some(&subject),
                    in_reply_to: &a.carrier.id,
                    digest: &a.carrier.digest,
                    text,
                    now: a.now,
                    from: Some(a.reply_from),
                },
            )?),
            None,
        ),
        Answer::Held(h) => (None, Some(h)),
    };
    Ok(Answered {
        what,
        player,
        ok,
        reply,
        held,
        throttled,
    })
}

/// What [`through_door`] gives: the command's words, the player named,
/// the reply's words (or the refusal's), and the door's answer.
type Through = (
    String,
    Option<String>,
    std::result::Result<String, String>,
    Answer,
);

/// A mail's command through the door: its words, the player it named,
/// the reply's words and whether the door grants a reply; a resignation
/// or draw act told to the other players at once.
fn through_door(w: &mut Writing, c: &Command, a: &Asking, door: &Door) -> Result<Through> {
    let req = Request {
        command: command_of(w, c),
        by: requester(c, &a.claim),
        carrier: a.carrier.clone(),
    };
    let out = game::run(w, door, &req, a.now)?;
    if let Ok(game::Done::Ending { player, told, .. }) = &out.result {
        tell_others(w, player, &c.describe(), told, a.now, a.reply_from)?;
    }
    let words = out
        .result
        .as_ref()
        .map(done_text)
        .map_err(|r| refusal_text(r, out.player.as_deref().unwrap_or_default()));
    Ok((c.describe(), out.player, words, out.answer))
}

/// The word and the refusal of a mail read as no command the door can
/// take: a command word with the wrong words after it, with the line to
/// send.
fn misread(w: &Writing, asked: &Asked, from: &str) -> (String, String) {
    match asked {
        Asked::Bad { word, why } if word == "status" => (
            word.clone(),
            format!("{why}: send a mail whose first line is `status` alone"),
        ),
        Asked::Bad { word, why } => (
            word.clone(),
            format!("{why}; {}", line_to_send(w, word, from)),
        ),
        _ => ("orders".into(), "not a command".into()),
    }
}

/// The door's command for a mail's: a vacation with the game's allowance
/// and mode from the lobby's record of it (14 days, the deadline moved,
/// for a game no table made).
fn command_of(w: &Writing, c: &Command) -> game::Command {
    match c {
        Command::Help => game::Command::Help,
        Command::Status => game::Command::Status,
        Command::Form { .. } => game::Command::Form,
        Command::Report { .. } => game::Command::Report,
        Command::Withdraw { .. } => game::Command::Withdraw,
        Command::Back { .. } => game::Command::Back,
        Command::Resign { .. } => game::Command::Resign,
        Command::Draw { act, .. } => game::Command::Draw { act: *act },
        Command::Vacation { until, .. } => {
            let record = lobby_record(w);
            game::Command::Vacation {
                until: until.clone(),
                allowance: record
                    .as_ref()
                    .map_or(super::lobby::seats::VACATION_DAYS, |r| r.vacation_days),
                mode: record.as_ref().map(|r| r.vacation).unwrap_or_default(),
            }
        }
    }
}

/// The requester a mail's command makes: the player and password it
/// names, from the claimed From.
fn requester(c: &Command, claim: &Claim) -> Requester {
    match c {
        Command::Help | Command::Status => Requester::Anyone(claim.clone()),
        Command::Form { player, password }
        | Command::Report { player, password }
        | Command::Withdraw { player, password }
        | Command::Vacation {
            player, password, ..
        }
        | Command::Back { player, password }
        | Command::Resign { player, password }
        | Command::Draw {
            player, password, ..
        } => Requester::Password {
            player: player.clone(),
            password: password.clone(),
            claim: claim.clone(),
        },
    }
}

/// The lobby's record of the game, if a table made it.
pub(crate) fn lobby_record(w: &Writing) -> Option<super::lobby::seats::GameSeats> {
    let host = w
        .store
        .dir
        .root()
        .parent()
        .map(super::layout::HostDir::at)?;
    let name = Name::new("game", &w.game.head().id).ok()?;
    super::lobby::seats::load(&host, &name).ok().flatten()
}

/// After a vacation or `back` granted: the lobby's record shows the
/// vacations on the status page (the game's log is the record that
/// counts), kept as the game's log now says (best effort).
fn away_recorded(w: &Writing, asked: &Asked, now: &str) {
    let Asked::Command(Command::Vacation { player, .. } | Command::Back { player, .. }) = asked
    else {
        return;
    };
    record_away(w, player, now);
}

/// The lobby's record of `player`'s vacation kept as the game's log now
/// says (best effort), after a vacation or `back` granted by any way in.
pub(crate) fn record_away(w: &Writing, player: &str, now: &str) {
    let host = w.store.dir.root().parent().map(super::layout::HostDir::at);
    let name = Name::new("game", &w.game.head().id).ok();
    let (Some(host), Some(name)) = (host, name) else {
        return;
    };
    let record = super::lobby::seats::load(&host, &name).ok().flatten();
    let mut rec = record.unwrap_or_else(|| super::lobby::seats::GameSeats::new(name.as_str()));
    rec.away.retain(|a| a.player != player);
    if let Ok(t) = crate::time::parse_time(now) {
        if let Some(until) = super::vacation::away_until(&w.game, player, &t) {
            rec.away.push(super::lobby::seats::Away {
                player: player.to_string(),
                until,
            });
        }
    }
    let _ = super::lobby::seats::save(&host, &rec);
}

/// The words of a command done (the reply's body).
fn done_text(d: &Done) -> String {
    match d {
        Done::Help { press: None } => HELP.to_string(),
        Done::Help { press: Some(rules) } => format!(
            "{HELP}\nPress: {}.\n\n{}",
            crate::pipeline::press::describe(rules),
            super::press::HOW
        ),
        Done::Status(text) => text.clone(),
        Done::Form { player, turn, form } => format!(
            "Your blank order form as {player} for turn {turn}: fill in your password and orders and send it back.\n\n{form}"
        ),
        Done::Report { player, turn, text } => {
            format!("Your report as {player}, turn {turn}:\n\n{text}")
        }
        Done::Withdrawn { player, turn } => format!(
            "The orders you sent as {player} for turn {turn} are WITHDRAWN: none are stored for you now.\nSend a new order file before the deadline, or the game's missed-orders policy plays for you.\n"
        ),
        Done::Vacation(g) => super::vacation::granted_text(g),
        Done::Back(r) => super::vacation::returned_text(r),
        Done::Ending { told, .. } => format!("{told}\n"),
    }
}

/// How a refusal for a spent budget of password checks begins.
const TOO_MANY: &str = "too many wrong passwords";

/// Why a command of `player` (the one it named) is refused, in words
/// (never echoing the password).
pub(crate) fn refusal_text(r: &Refusal, player: &str) -> String {
    match r {
        Refusal::NotAPlayer { named, players } => {
            crate::pipeline::loaded::not_a_player(named, players)
        }
        Refusal::NoSeat { players } => format!(
            "you hold no seat of this game ({})",
            players.join(", ")
        ),
        Refusal::WrongPassword { player } => format!("the password for {player} is not right"),
        Refusal::Throttled { player } => format!(
            "{TOO_MANY} for {player} in the last hour; the moderator has been told (mails from {player}'s own address are still read)"
        ),
        Refusal::Over => "the game is over".into(),
        Refusal::DeadlinePassed { turn, deadline } => format!(
            "the deadline of turn {turn} ({}) has passed",
            crate::time::shown(deadline)
        ),
        Refusal::NoneStored { player, turn } => {
            format!("no orders of {player} are stored for turn {turn}")
        }
        Refusal::Vacation(v) => super::vacation::refusal_text(v, player),
        Refusal::Ending(r) => r.to_string(),
        Refusal::Failed(e) => e.clone(),
    }
}

/// Every player but `player` with an address told `told` at once (fixed
/// Message-IDs, so a mail read again queues nothing new).
pub(crate) fn tell_others(
    w: &Writing,
    player: &str,
    what: &str,
    told: &str,
    now: &str,
    from: &str,
) -> Result<()> {
    let h = w.game.head();
    let n = w.game.record.entries.len().to_string();
    let mut mails = Vec::new();
    for p in h.players.iter().filter(|p| p.id != player) {
        let Some(to) = &p.email else { continue };
        let mid = crate::mail::eml::message_id(&h.id, &["ending", &n, &p.id]);
        mails.push((
            mid.clone(),
            crate::mail::eml::build(&crate::mail::eml::Mail {
                from: from.to_string(),
                to: to.clone(),
                subject: format!("[{}] {what}", h.id),
                date: now.to_string(),
                message_id: mid,
                in_reply_to: None,
                text: format!("Hello,\n\nin game {}, turn {}: {told}\n", h.id, h.turn),
                attachments: Vec::new(),
            }),
        ));
    }
    crate::store::outbox::queue_all(&w.store.dir.outbox_dir(), mails)?;
    Ok(())
}
