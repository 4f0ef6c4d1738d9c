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
//! is answered by mail to its sender. A mail that holds an order file is
//! orders, never a command. Words are case-insensitive except the
//! password. `form` and `report` show a player's own view (hidden
//! information), so they need the password like `withdraw`. The reply
//! never echoes the password: its subject is made anew, not the mail's.

use crate::auth::{Guard, Verdict};
use crate::error::{Error, Result};
use crate::mail::extract;
use crate::names::Name;
use crate::pipeline::inbox::{queue_reply, Fate, Options};
use crate::pipeline::{render, Writing};
use mail_parser::Message;
use std::path::PathBuf;

/// The words the host accepts, for replies.
pub const HELP: &str = "\
What herald accepts at this address:

  - an order file (reply to your report with the form filled in, or attach
    the order file as text): checked, stored and acknowledged;
  - a command, as the subject or as the first line of the mail:
      help                         this list
      status                       the game's status
      form PLAYER PASSWORD         your blank order form
      report PLAYER PASSWORD       your current report again
      withdraw PLAYER PASSWORD     withdraw the orders you sent for this turn
                                   (before the deadline)
      vacation PLAYER PASSWORD until YYYY-MM-DD
                                   go away until that day: a deadline that
                                   comes without your orders moves to it
                                   (within the days the game allows)
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
    /// Does it write an entry to the game's log (`vacation`, `back`,
    /// `resign`, `draw`)?
    fn writes(&self) -> bool {
        matches!(
            self,
            Command::Vacation { .. }
                | Command::Back { .. }
                | Command::Resign { .. }
                | Command::Draw { .. }
        )
    }

    /// The command without its password: for logs and replies.
    pub fn describe(&self) -> String {
        match self {
            Command::Help => "help".into(),
            Command::Status => "status".into(),
            Command::Form { player, .. } => format!("form {player}"),
            Command::Report { player, .. } => format!("report {player}"),
            Command::Withdraw { player, .. } => format!("withdraw {player}"),
            Command::Vacation { player, until, .. } => format!(
                "vacation {player} until {}",
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
            _ => Asked::Bad {
                word: word.clone(),
                why: "`vacation` takes your player id, your password and the day you are back, on one line: `vacation PLAYER PASSWORD until YYYY-MM-DD`".into(),
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
    /// The reply queued (`None`: the sender was answered a refusal in
    /// the last hour, `Options::may_reply`).
    pub reply: Option<PathBuf>,
    /// The player's password checks are spent for now: not checked.
    pub throttled: bool,
}

/// Answer `asked` (a command or a bad one) from mail `m` (sha256
/// `digest`, Message-ID `id`, sender `from`) in the game's outbox, From
/// `opts.reply_from`, passwords checked through `opts.guard`. The caller
/// records the mail in `inbox/seen` afterwards.
#[allow(clippy::too_many_arguments)]
pub fn answer(
    w: &mut Writing,
    asked: &Asked,
    from: &str,
    id: &str,
    digest: &str,
    now: &str,
    opts: &Options,
) -> Result<Answered> {
    let title = {
        let h = w.game.head();
        format!(
            "{} — game {}, turn {}\n\n",
            w.game.entry.title, h.id, h.turn
        )
    };
    let game_id = w.game.head().id.clone();
    let (cmd, result) = match asked {
        Asked::Command(c) if c.writes() => (c.describe(), away(w, c, from, now, opts)?),
        Asked::Command(c) => {
            let check =
                |player: &str, password: &str| authorised(w, player, password, from, opts.guard);
            (c.describe(), run(w, c, now, &check))
        }
        Asked::Bad { word, why } => (
            word.clone(),
            Err(if word == "status" {
                format!("{why}: send a mail whose first line is `status` alone")
            } else {
                format!("{why}; {}", line_to_send(w, word, from))
            }),
        ),
        Asked::Orders => ("orders".into(), Err("not a command".into())),
    };
    let player = player_named(asked);
    let throttled = matches!(&result, Err(why) if why.starts_with(TOO_MANY));
    let (ok, text, what) = match result {
        Ok(body) => (true, format!("{title}{body}"), format!("command: {cmd}")),
        Err(why) => (
            false,
            format!("{title}Your command `{cmd}` is REFUSED: {why}\n\n{HELP}"),
            format!("command: {cmd}: refused"),
        ),
    };
    let fate = match (&player, ok, throttled) {
        (Some(p), _, true) => Fate::Throttled { player: p.clone() },
        (_, true, _) => Fate::AlreadyRead,
        (_, false, _) => Fate::Refused {
            problems: vec![what.clone()],
        },
    };
    let subject = format!("[{game_id}] {cmd}");
    // Every reply asks: an answer no password earned (`help`, `status`,
    // a refusal) counts against the host's bound on replies.
    let reply = if opts.may_reply.is_none_or(|f| f(from, &fate)) {
        Some(queue_reply(
            w,
            from,
            Some(&subject),
            id,
            digest,
            text,
            now,
            opts.reply_from,
        )?)
    } else {
        None
    };
    Ok(Answered {
        what,
        player,
        ok,
        reply,
        throttled,
    })
}

/// The player a command names (with their password), if it names one.
fn player_named(asked: &Asked) -> Option<String> {
    match asked {
        Asked::Command(
            Command::Form { player, .. }
            | Command::Report { player, .. }
            | Command::Withdraw { player, .. }
            | Command::Vacation { player, .. }
            | Command::Back { player, .. }
            | Command::Resign { player, .. }
            | Command::Draw { player, .. },
        ) => Some(player.clone()),
        _ => None,
    }
}

/// `vacation` and `back` (host::vacation): the password checked, then
/// the log entry committed; `Err` inside is the refusal.
fn away(
    w: &mut Writing,
    c: &Command,
    from: &str,
    now: &str,
    opts: &Options,
    // A String error: both sides are the reply mailed to the player (text by design).
) -> Result<std::result::Result<String, String>> {
    if matches!(c, Command::Resign { .. } | Command::Draw { .. }) {
        return ending(w, c, from, now, opts);
    }
    let (player, password) = match c {
        Command::Vacation {
            player, password, ..
        }
        | Command::Back { player, password } => (player, password),
        _ => return Ok(Err("not a vacation command".into())),
    };
    if let Err(why) = authorised(w, player, password, from, opts.guard) {
        return Ok(Err(why));
    }
    let host = w.store.dir.root().parent().map(super::layout::HostDir::at);
    let name = Name::new("game", &w.game.head().id).ok();
    let record = match (&host, &name) {
        (Some(host), Some(name)) => super::lobby::seats::load(host, name).ok().flatten(),
        _ => None,
    };
    let r = match c {
        Command::Vacation { until, .. } => {
            let allowance = record
                .as_ref()
                .map_or(super::lobby::seats::VACATION_DAYS, |r| r.vacation_days);
            let mode = record.as_ref().map(|r| r.vacation).unwrap_or_default();
            super::vacation::request(w, player, until, now, allowance, mode)?
        }
        _ => super::vacation::back(w, player, now)?,
    };
    // The lobby's record shows the vacations on the status page (the
    // game's log is the record that counts).
    if let (Ok(_), Some(host), Some(name)) = (&r, &host, &name) {
        let mut rec = record.unwrap_or_else(|| super::lobby::seats::GameSeats::new(name.as_str()));
        rec.away.retain(|a| &a.player != player);
        if let Ok(t) = crate::time::parse_time(now) {
            if let Some(until) = super::vacation::away_until(&w.game, player, &t) {
                rec.away.push(super::lobby::seats::Away {
                    player: player.clone(),
                    until,
                });
            }
        }
        let _ = super::lobby::seats::save(host, &rec);
    }
    Ok(r)
}

/// `resign` and `offer`/`accept`/`decline draw` (pipeline::ending): the
/// password checked, the entry committed, the player's stored orders of
/// the turn set aside (all of them if the game ended), every other player
/// with an address told at once; `Err` inside is the refusal, with the
/// line to send.
fn ending(
    w: &mut Writing,
    c: &Command,
    from: &str,
    now: &str,
    opts: &Options,
    // A String error: both sides are the reply mailed to the player (text by design).
) -> Result<std::result::Result<String, String>> {
    let (player, password) = match c {
        Command::Resign { player, password }
        | Command::Draw {
            player, password, ..
        } => (player, password),
        _ => return Ok(Err("not a resign or draw command".into())),
    };
    if let Err(why) = authorised(w, player, password, from, opts.guard) {
        return Ok(Err(why));
    }
    let outcome = ending_request(w, c, now)?;
    let done = match outcome {
        Ok(d) => d,
        Err(r) => return Ok(Err(r.to_string())),
    };
    let turn = w.game.head().turn;
    let set_aside: Vec<String> = if done.ended.is_some() {
        w.game.players()
    } else if matches!(c, Command::Resign { .. }) {
        vec![player.clone()]
    } else {
        Vec::new()
    };
    for p in &set_aside {
        if let Ok(name) = Name::new("player", p) {
            let _ = std::fs::remove_file(w.store.dir.stored_order(turn, &name));
        }
    }
    w.commit(now)?;
    let reply_from = opts
        .reply_from
        .map(str::to_string)
        .or_else(|| w.game.head().moderator.clone())
        .unwrap_or_else(|| crate::mail::eml::NO_MODERATOR.into());
    tell_others(w, player, &c.describe(), &done.told, now, &reply_from)?;
    Ok(Ok(format!(
        "{}
",
        done.told
    )))
}

/// The typed request of `resign` / `draw`: the entry appended in memory,
/// or the refusal (the door's merge moves this with the rest).
pub fn ending_request(
    w: &mut Writing,
    c: &Command,
    now: &str,
) -> Result<std::result::Result<crate::pipeline::ending::Done, crate::pipeline::ending::Refusal>> {
    let seed = w.seed()?;
    match c {
        Command::Resign { player, .. } => {
            crate::pipeline::ending::resign(&mut w.game, player, now, &seed, &w.signer)
        }
        Command::Draw { act, player, .. } => {
            crate::pipeline::ending::draw(&mut w.game, player, *act, now, &seed, &w.signer)
        }
        _ => Err(Error::internal("not a resign or draw command")),
    }
}

/// Every player but `player` with an address told `told` at once (fixed
/// Message-IDs, so a mail read again queues nothing new).
fn tell_others(
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
                text: format!(
                    "Hello,

in game {}, turn {}: {told}
",
                    h.id, h.turn
                ),
                attachments: Vec::new(),
            }),
        ));
    }
    crate::store::outbox::queue_all(&w.store.dir.outbox_dir(), mails)?;
    Ok(())
}

/// `withdraw`, the player's password checked: their stored orders of
/// this turn removed, before the deadline.
// A String error: both sides are the reply mailed to the player (text by design).
fn withdraw(w: &Writing, player: &str, now: &str) -> std::result::Result<String, String> {
    let h = w.game.head();
    if h.outcome.is_some() {
        return Err("the game is over".into());
    }
    if let Some(d) = &h.deadline {
        let (d, n) = (
            crate::time::parse_time(d).map_err(|e| format!("the deadline: {e}"))?,
            crate::time::parse_time(now).map_err(|e| format!("internal: {e}"))?,
        );
        if n >= d {
            return Err(format!(
                "the deadline of turn {} ({}) has passed",
                h.turn,
                crate::time::shown(h.deadline.as_deref().unwrap_or(""))
            ));
        }
    }
    let name = Name::new("player", player).map_err(|e| e.to_string())?;
    let path = w.store.dir.stored_order(h.turn, &name);
    match std::fs::remove_file(&path) {
        Ok(()) => {
            if let Some(dir) = path.parent() {
                if let Ok(f) = std::fs::File::open(dir) {
                    let _ = f.sync_all();
                }
            }
            Ok(format!(
                "The orders you sent as {player} for turn {} are WITHDRAWN: none are stored for you now.\nSend a new order file before the deadline, or the game's missed-orders policy plays for you.\n",
                h.turn
            ))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
            "no orders of {player} are stored for turn {}",
            h.turn
        )),
        Err(e) => Err(Error::io(&path, e).to_string()),
    }
}

/// How a refusal for a spent budget of password checks begins.
const TOO_MANY: &str = "too many wrong passwords";

/// The seat of `player` if `password` is theirs; else why not (never
/// echoing the password).
fn authorised(
    w: &Writing,
    player: &str,
    password: &str,
    from: &str,
    guard: Option<&dyn Guard>,
    // A String error: both sides are the reply mailed to the player (text by design).
) -> std::result::Result<usize, String> {
    let h = w.game.head();
    let Some(seat) = h.player_index(player) else {
        return Err(format!(
            "`{}` is not a player of this game ({})",
            player.chars().take(32).collect::<String>(),
            w.game.players().join(", ")
        ));
    };
    let stored = &h.players[seat].password;
    let verdict = match guard {
        Some(g) => g.check(player, from, password, stored),
        None if crate::auth::matches(password, stored) => Verdict::Right,
        None => Verdict::Wrong,
    };
    match verdict {
        Verdict::Right => Ok(seat),
        Verdict::Wrong => Err(format!("the password for {player} is not right")),
        Verdict::Throttled => Err(format!(
            "{TOO_MANY} for {player} in the last hour; the moderator has been told (mails from {player}'s own address are still read)"
        )),
    }
}

/// Do a command; the reply's body, or why it is refused. `check` checks
/// a player's password.
fn run(
    w: &Writing,
    c: &Command,
    now: &str,
    // A String error: both sides are the reply mailed to the player (text by design).
    check: &dyn Fn(&str, &str) -> std::result::Result<usize, String>,
    // A String error: both sides are the reply mailed to the player (text by design).
) -> std::result::Result<String, String> {
    let h = w.game.head();
    let err = |e: Error| e.to_string();
    match c {
        Command::Help => {
            let rules = crate::pipeline::press::rules_of(&w.store, &w.game).map_err(err)?;
            Ok(if rules.kind == "none" {
                HELP.to_string()
            } else {
                format!(
                    "{HELP}\nPress: {}.\n\n{}",
                    crate::pipeline::press::describe(&rules),
                    super::press::HOW
                )
            })
        }
        Command::Status => {
            let t = crate::time::parse_time(now).map_err(|e| format!("internal: {e}"))?;
            crate::pipeline::status::text_for_mail(&w.store, &w.game, &t).map_err(err)
        }
        Command::Form { player, password } => {
            let seat = check(player, password)?;
            if h.outcome.is_some() {
                return Err("the game is over".into());
            }
            let form = render::form(&w.game, seat).map_err(err)?;
            Ok(format!(
                "Your blank order form as {player} for turn {}: fill in your password and orders and send it back.\n\n{form}",
                h.turn
            ))
        }
        Command::Report { player, password } => {
            let seat = check(player, password)?;
            let name = Name::new("player", player).map_err(|e| e.to_string())?;
            let path = w.store.dir.report(h.turn, &name, "txt");
            let text = match std::fs::read_to_string(&path) {
                Ok(t) => t,
                Err(_) => String::from_utf8_lossy(
                    &render::one(&w.game, seat, "text", Some(&w.signer)).map_err(err)?,
                )
                .into_owned(),
            };
            Ok(format!(
                "Your report as {player}, turn {}:\n\n{text}",
                h.turn
            ))
        }
        Command::Vacation { .. }
        | Command::Back { .. }
        | Command::Resign { .. }
        | Command::Draw { .. } => Err("not here".into()),
        Command::Withdraw { player, password } => {
            check(player, password)?;
            withdraw(w, player, now)
        }
    }
}
