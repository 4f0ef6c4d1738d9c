//! The lobby's commands by mail, to the host's own address:
//!
//! ```text
//! join TABLE [display name] [public]   ask for a seat: a code is mailed back
//! confirm CODE                         take the seat the code was mailed for
//! leave TABLE                          give up a seat (or a join) before the start
//! tables                               the open tables
//! ```
//!
//! A seat goes only to the address a code was mailed to, confirmed from
//! that address: nobody can sign someone else up. A refused command
//! writes nothing but its reply (and the mail's hash in `state/seen`).

use super::seats::{self, GameSeats, OfferStatus};
use super::{Effect, Handled, HostDir, Pending, Seat, Status, Table};
use crate::chain::canon::sha256_hex;
use crate::error::Result;
use crate::mail::{eml, extract};
use crate::names::Name;
use mail_parser::Message;

/// The lobby's words, for the help text.
pub const HELP: &str = "\
Joining a game (write to the host's own address, the command as the
subject or as the first line of the mail):
      tables                       the open tables
      join TABLE [your name] [public]
                                   ask for a seat; a code comes back by mail
                                   (`public` shows your address on the
                                   host's public tables page; without it
                                   only the moderator sees it)
      confirm CODE                 take the seat (from the address you joined with)
      leave TABLE                  give your seat up before the game starts
Taking over a seat in a game under way:
      standby                      be told of seats to take over
      standby off                  no longer
      takeover GAME PLAYER [your name]
                                   ask for the seat; a code comes back by mail
                                   (then `confirm CODE` as for a join)
";

/// A lobby command read from a mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Tables,
    Join {
        table: String,
        name: Option<String>,
        public: bool,
    },
    Confirm(String),
    Leave(String),
    Standby(bool),
    Takeover {
        game: String,
        player: String,
        name: Option<String>,
    },
    /// A lobby word with the wrong words after it: the line to send.
    Bad(String),
}

const WORDS: [&str; 6] = ["tables", "join", "confirm", "leave", "standby", "takeover"];
const NAME_CHARS: usize = 40;

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
        ("join", [table, rest @ ..]) => {
            let mut rest: Vec<&str> = rest.to_vec();
            let public = rest
                .last()
                .is_some_and(|w| w.eq_ignore_ascii_case("public"));
            if public {
                rest.pop();
            }
            let name: String = rest
                .join(" ")
                .chars()
                .filter(|c| !c.is_control())
                .take(NAME_CHARS)
                .collect();
            Command::Join {
                table: table.to_ascii_lowercase(),
                name: (!name.trim().is_empty()).then(|| name.trim().to_string()),
                public,
            }
        }
        ("confirm", [code]) => Command::Confirm(code.to_string()),
        ("confirm", [a, b, c]) => Command::Confirm(format!("{a}{b}{c}")),
        ("leave", [table]) => Command::Leave(table.to_ascii_lowercase()),
        ("standby", []) => Command::Standby(true),
        ("standby", [off]) if off.eq_ignore_ascii_case("off") => Command::Standby(false),
        ("standby", _) => Command::Bad("standby (or: standby off)".into()),
        ("takeover", [game, player, rest @ ..]) => {
            let name: String = rest
                .join(" ")
                .chars()
                .filter(|c| !c.is_control())
                .take(NAME_CHARS)
                .collect();
            Command::Takeover {
                game: game.to_ascii_lowercase(),
                player: player.to_ascii_lowercase(),
                name: (!name.trim().is_empty()).then(|| name.trim().to_string()),
            }
        }
        ("takeover", _) => Command::Bad("takeover GAME PLAYER [your name]".into()),
        ("join", _) => Command::Bad("join TABLE [your name] [public]".into()),
        ("confirm", _) => Command::Bad("confirm CODE (the code the host mailed you)".into()),
        _ => Command::Bad("leave TABLE".into()),
    })
}

/// The lobby command a mail holds: the subject, or one of the first three
/// lines of the sender's own text.
pub fn asked(m: &Message) -> Option<Command> {
    let in_subject = m
        .subject()
        .map(crate::host::commands::bare_subject)
        .and_then(parse_line);
    if let Some(
        c @ (Command::Join { .. }
        | Command::Confirm(_)
        | Command::Leave(_)
        | Command::Standby(_)
        | Command::Takeover { .. }),
    ) = &in_subject
    {
        return Some(c.clone());
    }
    let body = m.body_text(0).unwrap_or_default();
    let (own, _) = extract::split_reply(&body);
    let in_body = own
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(3)
        .find_map(parse_line);
    match (in_subject, in_body) {
        (
            _,
            Some(
                b @ (Command::Join { .. }
                | Command::Confirm(_)
                | Command::Leave(_)
                | Command::Takeover { .. }),
            ),
        ) => Some(b),
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
}

/// What answering a lobby mail did, for the log.
pub struct Answered {
    pub what: String,
    /// A reply to send (its Message-ID and bytes); `None` when the rules
    /// of refusals (one an hour to an address) hold it back.
    pub reply: Option<(String, Vec<u8>)>,
    /// The command was refused (nothing changed).
    pub refused: bool,
}

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
            "  {}\n    press: {}\n    to join, send:  join {} [your name]\n",
            t.describe(),
            t.press_words(),
            t.name
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

/// The open tables where `from` holds a seat or waits for its
/// confirmation, with the line that leaves each.
fn yours_text(tables: &[Table], from: &str) -> String {
    let mine: Vec<&Table> = tables
        .iter()
        .filter(|t| {
            t.status == Status::Open
                && (t.seated(from).is_some()
                    || t.pending
                        .iter()
                        .any(|p| p.address.eq_ignore_ascii_case(from)))
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

/// What one command came to: for the log, the reply's text (before the
/// help), and whether it was refused (nothing changed).
type Told = (String, String, bool);

/// Answer one lobby mail from `from` (its sha256 `digest`, Message-ID
/// `mid`). The table is written (and its outcome recorded) before the
/// reply is built; a mail already recorded in a table gets the same reply
/// again.
pub fn answer(
    cx: &Ctx,
    cmd: &Command,
    from: &str,
    digest: &str,
    mid: &str,
    subject: &str,
) -> Result<Answered> {
    let (tables, _) = super::all(&cx.host);
    let (what, told, refused) = match cmd {
        Command::Tables => ("tables".to_string(), offers_text(&cx.host, &tables), false),
        Command::Bad(line) => (
            format!("bad command (send `{line}`)"),
            format!(
                "Your mail was not understood. Send a mail whose first line is\n\n    {line}\n\n{}",
                offers_text(&cx.host, &tables)
            ),
            true,
        ),
        Command::Join {
            table,
            name,
            public,
        } => join(cx, &tables, table, name, *public, from, digest)?,
        Command::Confirm(code) => confirm(cx, &tables, code, from, digest)?,
        Command::Standby(on) => standby(cx, *on, from)?,
        Command::Takeover { game, player, name } => takeover(cx, game, player, name, from, digest)?,
        Command::Leave(table) => leave(cx, &tables, table, from, digest)?,
    };
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
    Ok(Answered {
        what,
        reply: Some((message_id, eml::build(&mail))),
        refused,
    })
}

/// `join TABLE [name] [public]`: a confirmation code mailed to the From
/// address, the join pending until it comes back.
///
/// Long (about 85 lines): one early return a refusal, in the order they are
/// told, then the code mailed.
fn join(
    cx: &Ctx,
    tables: &[Table],
    table: &str,
    name: &Option<String>,
    public: bool,
    from: &str,
    digest: &str,
) -> Result<Told> {
    let Some(mut t) = tables.iter().find(|t| t.name == table).cloned() else {
        return Ok((
            format!("join {}: no such table", shown(table)),
            format!(
                "There is no open table `{}` here. Send `join TABLE` with one of these.\n\n{}",
                shown(table),
                offers_text(&cx.host, tables)
            ),
            true,
        ));
    };
    if let Some(Effect::CodeSent { .. }) = t.handled(digest) {
        return Ok((
            format!("join {table}: code mailed (again, after a restart)"),
            code_text(cx, &t, digest)?,
            false,
        ));
    }
    if t.status != Status::Open {
        return Ok((
            format!("join {table}: the table is closed"),
            format!(
                "Table `{table}` takes no more players (it has {}).\n\n{}",
                closed_word(&t),
                offers_text(&cx.host, tables)
            ),
            true,
        ));
    }
    if t.seated(from).is_some() {
        return Ok((
            format!("join {table}: already seated"),
            format!(
                "You have a seat at `{table}` already: {}.\nTo give it up, send `leave {table}`.\n",
                t.describe()
            ),
            true,
        ));
    }
    if t.seats.len() >= t.max {
        return Ok((
            format!("join {table}: full"),
            format!(
                "Table `{table}` is full.\n\n{}",
                offers_text(&cx.host, tables)
            ),
            true,
        ));
    }
    let key = super::key(&cx.host)?;
    let code = super::code_for(&key, digest);
    // A new join from the same address replaces the old one.
    t.pending.retain(|p| !p.address.eq_ignore_ascii_case(from));
    t.pending.push(Pending {
        address: from.to_string(),
        name: name.clone(),
        public,
        code_sha256: sha256_hex(code.as_bytes()),
        mail: digest.to_string(),
        at: cx.now.clone(),
    });
    t.handled.push(Handled {
        mail: digest.to_string(),
        outcome: Effect::CodeSent {
            table: table.to_string(),
        },
    });
    super::save(&cx.host, &t)?;
    Ok((
        format!("join {table}: code mailed"),
        code_text(cx, &t, digest)?,
        false,
    ))
}

/// `confirm CODE`: a pending join's seat taken, or a takeover's claim
/// confirmed; a mail recorded already gets the same answer.
fn confirm(cx: &Ctx, tables: &[Table], code: &str, from: &str, digest: &str) -> Result<Told> {
    // A mail already recorded: the same answer.
    let again = seats::all(&cx.host).into_iter().find_map(|g| {
        let d = g.handled(digest)?;
        (d.what == "confirmed").then(|| (g.game.clone(), d.player.clone(), g.approve))
    });
    if let Some(t) = tables.iter().find(|t| t.handled(digest).is_some()) {
        return Ok((
            format!("confirm: seat at {} (again, after a restart)", t.name),
            confirmed_text(t, from),
            false,
        ));
    }
    if let Some((game, player, approve)) = again {
        return Ok((
            format!("confirm: takeover of {player} in {game} (again, after a restart)"),
            takeover_confirmed_text(&game, &player, approve),
            false,
        ));
    }
    let normal = super::normal_code(code);
    let hash = normal.as_deref().map(|c| sha256_hex(c.as_bytes()));
    let found = hash.as_deref().and_then(|h| {
        tables.iter().find_map(|t| {
            t.pending
                .iter()
                .position(|p| p.code_sha256 == h)
                .map(|i| (t.clone(), i))
        })
    });
    let claim = if found.is_none() {
        hash.as_deref().and_then(|h| find_claim(&cx.host, h))
    } else {
        None
    };
    if let Some((rec, oi, ci)) = claim {
        return confirm_takeover(cx, rec, oi, ci, from, digest, tables);
    }
    match found {
        None => Ok((
            "confirm: no such code".into(),
            format!(
                "That code is not one this host is waiting for (a newer `join` replaces an older code; a code is used once). Send `join TABLE` again for a new one.\n\n{}",
                offers_text(&cx.host, tables)
            ),
            true,
        )),
        Some((t, i)) if !t.pending[i].address.eq_ignore_ascii_case(from) => Ok((
            format!("confirm {}: from another address than the join", t.name),
            format!(
                "That code was mailed to another address. Confirm from the address you sent `join {}` from (the seat is that address's).\n",
                t.name
            ),
            true,
        )),
        Some((t, _)) if t.status != Status::Open => Ok((
            format!("confirm {}: the table is closed", t.name),
            format!(
                "Table `{}` takes no more players (it has {}).\n\n{}",
                t.name,
                closed_word(&t),
                offers_text(&cx.host, tables)
            ),
            true,
        )),
        Some((t, _)) if t.seats.len() >= t.max => Ok((
            format!("confirm {}: full", t.name),
            format!(
                "Sorry: table `{}` filled before your confirmation came.\n\n{}",
                t.name,
                offers_text(&cx.host, tables)
            ),
            true,
        )),
        Some((t, i)) => seat(cx, t, i, from, digest),
    }
}

/// A confirmed join: the pending entry `i` of table `t` seated.
fn seat(cx: &Ctx, mut t: Table, i: usize, from: &str, digest: &str) -> Result<Told> {
    let p = t.pending.remove(i);
    if t.seated(from).is_none() {
        t.seats.push(Seat {
            address: p.address,
            name: p.name,
            public: p.public,
            at: cx.now.clone(),
        });
    }
    let seat = t.seated(from).unwrap_or(0) + 1;
    t.handled.push(Handled {
        mail: digest.to_string(),
        outcome: Effect::Confirmed {
            table: t.name.clone(),
            seat,
        },
    });
    super::save(&cx.host, &t)?;
    Ok((
        format!("confirm: seat {seat} at {}", t.name),
        confirmed_text(&t, from),
        false,
    ))
}

/// `standby on` / `standby off`: the From address put on the standby
/// list or taken off it.
fn standby(cx: &Ctx, on: bool, from: &str) -> Result<Told> {
    let mut list = seats::standby(&cx.host)?;
    let had = list
        .list
        .iter()
        .any(|s| s.address.eq_ignore_ascii_case(from));
    if on && !had {
        list.list.push(seats::StandbyEntry {
            address: from.to_string(),
            at: cx.now.clone(),
        });
        seats::save_standby(&cx.host, &list)?;
    } else if !on && had {
        list.list.retain(|s| !s.address.eq_ignore_ascii_case(from));
        seats::save_standby(&cx.host, &list)?;
    }
    let mut text = String::new();
    if on {
        text.push_str(
            "You are on the standby list: when a seat in a game here is free
to take over, you get a mail saying how. `standby off` takes you off.

",
        );
    } else {
        text.push_str(
            "You are not on the standby list (any more).

",
        );
    }
    text.push_str(&seats::open_seats_text(&cx.host));
    Ok((
        format!("standby {}", if on { "on" } else { "off" }),
        text,
        false,
    ))
}

/// `leave TABLE`: the From address's seat (or pending join) at an open
/// table given up.
fn leave(cx: &Ctx, tables: &[Table], table: &str, from: &str, digest: &str) -> Result<Told> {
    let Some(mut t) = tables.iter().find(|t| t.name == table).cloned() else {
        return Ok((
            format!("leave {}: no such table", shown(table)),
            format!(
                "There is no table `{}` here.\n\n{}\n{}",
                shown(table),
                yours_text(tables, from),
                offers_text(&cx.host, tables)
            ),
            true,
        ));
    };
    if t.handled(digest).is_some() {
        return Ok((
            format!("leave {table}: left (again, after a restart)"),
            format!("You have left table `{table}`.\n"),
            false,
        ));
    }
    if t.status != Status::Open {
        return Ok((
            format!("leave {table}: the table is closed"),
            format!(
                "Table `{table}` has {}: seats can be left only before the start.\nA player who cannot go on asks the moderator to free the seat for\nsomeone else (their game's stand-in plays it meanwhile).\n\n{}",
                closed_word(&t),
                yours_text(tables, from)
            ),
            true,
        ));
    }
    let had = t.seated(from).is_some()
        || t.pending
            .iter()
            .any(|p| p.address.eq_ignore_ascii_case(from));
    if !had {
        return Ok((
            format!("leave {table}: not seated"),
            format!(
                "This address has no seat at `{table}`, so there was nothing to leave.\n\n{}\n{}",
                yours_text(tables, from),
                offers_text(&cx.host, tables)
            ),
            true,
        ));
    }
    t.seats.retain(|s| !s.address.eq_ignore_ascii_case(from));
    t.pending.retain(|p| !p.address.eq_ignore_ascii_case(from));
    t.handled.push(Handled {
        mail: digest.to_string(),
        outcome: Effect::Left {
            table: table.to_string(),
        },
    });
    super::save(&cx.host, &t)?;
    Ok((
        format!("leave {table}: left"),
        format!("You have left table `{table}`. Now: {}.\n", t.describe()),
        false,
    ))
}

fn shown(s: &str) -> String {
    s.chars().take(40).filter(|c| !c.is_control()).collect()
}

fn closed_word(t: &Table) -> &'static str {
    match t.status {
        Status::Open => "room",
        Status::Starting | Status::Started => "started",
        Status::Cancelled => "been cancelled",
    }
}

fn code_text(cx: &Ctx, t: &Table, digest: &str) -> Result<String> {
    let key = super::key(&cx.host)?;
    let code = super::code_for(&key, digest);
    Ok(format!(
        "Someone (you, we hope) asked for a seat at table `{}` for this address:\n  {}.\n\nTo take the seat, reply to this mail with the first line\n\n    confirm {code}\n\nfrom this address. If you did not ask, do nothing: without the\nconfirmation nobody gets a seat in your name.\n",
        t.name,
        t.describe()
    ))
}

fn confirmed_text(t: &Table, from: &str) -> String {
    let seat = t.seated(from).map_or(0, |i| i + 1);
    format!(
        "Confirmed: you have seat {seat} at table `{}`.\n  {}.\n\nWhen the game starts you get your password and your first report\nby mail. The order of the seats in the game is drawn from the game's\nseed, not from the order of joining. To give your seat up before the\nstart, send `leave {}`.\n",
        t.name,
        t.describe(),
        t.name
    )
}

/// Is `t`'s name a valid table name?
pub fn valid_table(t: &str) -> bool {
    Name::new("table", t).is_ok()
}

/// The offer and claim whose code has this sha256, in any game's record.
fn find_claim(host: &HostDir, hash: &str) -> Option<(GameSeats, usize, usize)> {
    seats::all(host).into_iter().find_map(|g| {
        let found = g.offers.iter().enumerate().find_map(|(oi, o)| {
            o.claims
                .iter()
                .position(|c| c.code_sha256 == hash)
                .map(|ci| (oi, ci))
        });
        found.map(|(oi, ci)| (g, oi, ci))
    })
}

/// `takeover GAME PLAYER [name]`: a code mailed to the From address, for
/// an open offer. Returns (what, text, refused).
fn takeover(
    cx: &Ctx,
    game: &str,
    player: &str,
    name: &Option<String>,
    from: &str,
    digest: &str,
) -> Result<Told> {
    let (tables, _) = super::all(&cx.host);
    let refuse = |what: String, why: String| {
        Ok((
            what,
            format!("{why}\n\n{}", offers_text(&cx.host, &tables)),
            true,
        ))
    };
    let rec = Name::new("game", game)
        .ok()
        .and_then(|n| seats::load(&cx.host, &n).ok().flatten());
    let Some(mut rec) = rec else {
        return refuse(
            format!("takeover {}: no seat offered in that game", shown(game)),
            format!(
                "No seat of a game `{}` is free to take over here.",
                shown(game)
            ),
        );
    };
    if let Some(d) = rec.handled(digest) {
        if d.what == "code" {
            let key = super::key(&cx.host)?;
            let code = super::code_for(&key, digest);
            return Ok((
                format!("takeover {game} {player}: code mailed (again, after a restart)"),
                takeover_code_text(game, player, &code),
                false,
            ));
        }
    }
    let Some(oi) = rec.live(player) else {
        return refuse(
            format!("takeover {game} {}: not offered", shown(player)),
            format!(
                "The seat `{}` of game `{game}` is not free to take over.",
                shown(player)
            ),
        );
    };
    if rec.offers[oi].status != OfferStatus::Open {
        return refuse(
            format!("takeover {game} {player}: taken"),
            format!("The seat `{player}` of game `{game}` has been taken by someone who confirmed first."),
        );
    }
    let key = super::key(&cx.host)?;
    let code = super::code_for(&key, digest);
    let o = &mut rec.offers[oi];
    o.claims.retain(|c| !c.address.eq_ignore_ascii_case(from));
    o.claims.push(Pending {
        address: from.to_string(),
        name: name.clone(),
        public: false,
        code_sha256: sha256_hex(code.as_bytes()),
        mail: digest.to_string(),
        at: cx.now.clone(),
    });
    rec.handled.push(seats::Done {
        mail: digest.to_string(),
        what: "code".into(),
        player: player.to_string(),
    });
    seats::save(&cx.host, &rec)?;
    Ok((
        format!("takeover {game} {player}: code mailed"),
        takeover_code_text(game, player, &code),
        false,
    ))
}

fn takeover_code_text(game: &str, player: &str, code: &str) -> String {
    format!(
        "Someone (you, we hope) asked to take over the seat `{player}` of game\n`{game}` for this address. To take it, reply to this mail with the\nfirst line\n\n    confirm {code}\n\nfrom this address. The first confirmation takes the seat. If you did\nnot ask, do nothing: without the confirmation nobody gets a seat in\nyour name.\n"
    )
}

/// `confirm CODE` for a takeover's claim. Returns (what, text, refused).
fn confirm_takeover(
    cx: &Ctx,
    mut rec: GameSeats,
    oi: usize,
    ci: usize,
    from: &str,
    digest: &str,
    tables: &[Table],
) -> Result<Told> {
    let game = rec.game.clone();
    let player = rec.offers[oi].player.clone();
    let claim = rec.offers[oi].claims[ci].clone();
    if !claim.address.eq_ignore_ascii_case(from) {
        return Ok((
            format!("confirm takeover {game} {player}: from another address than the takeover"),
            format!("That code was mailed to another address. Confirm from the address you sent `takeover {game} {player}` from.\n"),
            true,
        ));
    }
    if rec.offers[oi].status != OfferStatus::Open {
        return Ok((
            format!("confirm takeover {game} {player}: taken"),
            format!(
                "Sorry: the seat `{player}` of game `{game}` was taken by someone who confirmed first.\n\n{}",
                offers_text(&cx.host, tables)
            ),
            true,
        ));
    }
    let approve = rec.approve;
    let o = &mut rec.offers[oi];
    o.taker = Some(Seat {
        address: claim.address,
        name: claim.name,
        public: false,
        at: cx.now.clone(),
    });
    o.claims.clear();
    o.status = if approve {
        OfferStatus::Approval
    } else {
        OfferStatus::Granted
    };
    rec.handled.push(seats::Done {
        mail: digest.to_string(),
        what: "confirmed".into(),
        player: player.clone(),
    });
    seats::save(&cx.host, &rec)?;
    Ok((
        format!("confirm: takeover of {player} in {game}"),
        takeover_confirmed_text(&game, &player, approve),
        false,
    ))
}

fn takeover_confirmed_text(game: &str, player: &str, approve: bool) -> String {
    if approve {
        format!("Confirmed: the seat `{player}` of game `{game}` is yours once the\nmoderator approves. You get its password, its history and its\ncurrent report by mail then.\n")
    } else {
        format!("Confirmed: the seat `{player}` of game `{game}` is yours. Its password,\nits history and its current report follow in their own mails.\n")
    }
}
