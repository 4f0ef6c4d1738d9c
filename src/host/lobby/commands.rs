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

use super::{Handled, HostDir, Outcome, Pending, Seat, Status, Table};
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
    /// A lobby word with the wrong words after it: the line to send.
    Bad(String),
}

const WORDS: [&str; 4] = ["tables", "join", "confirm", "leave"];
const NAME_CHARS: usize = 40;

fn bare_subject(s: &str) -> &str {
    let mut s = s.trim();
    loop {
        let lower = s.to_ascii_lowercase();
        if let Some(p) = ["re:", "fwd:", "fw:", "aw:"]
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
        ("join", _) => Command::Bad("join TABLE [your name] [public]".into()),
        ("confirm", _) => Command::Bad("confirm CODE (the code the host mailed you)".into()),
        _ => Command::Bad("leave TABLE".into()),
    })
}

/// The lobby command a mail holds: the subject, or one of the first three
/// lines of the sender's own text.
pub fn asked(m: &Message) -> Option<Command> {
    let in_subject = m.subject().map(bare_subject).and_then(parse_line);
    if let Some(c @ (Command::Join { .. } | Command::Confirm(_) | Command::Leave(_))) = &in_subject
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
        (_, Some(b @ (Command::Join { .. } | Command::Confirm(_) | Command::Leave(_)))) => Some(b),
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

fn open_tables_text(tables: &[Table]) -> String {
    let open: Vec<&Table> = tables.iter().filter(|t| t.status == Status::Open).collect();
    if open.is_empty() {
        return "There is no open table on this host now.\n".into();
    }
    let mut s = String::from("Open tables:\n");
    for t in open {
        s.push_str(&format!("  {}\n", t.describe()));
    }
    s
}

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
    let mut text = String::from("Hello,\n\nthis is herald's lobby.\n\n");
    let mut refused = true;
    let what;
    match cmd {
        Command::Tables => {
            refused = false;
            what = "tables".to_string();
            text.push_str(&open_tables_text(&tables));
        }
        Command::Bad(line) => {
            what = format!("bad command (send `{line}`)");
            text.push_str(&format!(
                "Your mail was not understood. Send a mail whose first line is\n\n    {line}\n\n"
            ));
            text.push_str(&open_tables_text(&tables));
        }
        Command::Join {
            table,
            name,
            public,
        } => {
            let found = tables.iter().find(|t| &t.name == table).cloned();
            match found {
                None => {
                    what = format!("join {}: no such table", shown(table));
                    text.push_str(&format!(
                        "There is no open table `{}` here. Send `join TABLE` with one of these.\n\n",
                        shown(table)
                    ));
                    text.push_str(&open_tables_text(&tables));
                }
                Some(mut t) => {
                    let done = t.handled(digest).cloned();
                    if let Some(Outcome::CodeSent { .. }) = done {
                        refused = false;
                        what = format!("join {table}: code mailed (again, after a restart)");
                        text.push_str(&code_text(cx, &t, digest)?);
                    } else if t.status != Status::Open {
                        what = format!("join {table}: the table is closed");
                        text.push_str(&format!(
                            "Table `{table}` takes no more players (it has {}).\n\n",
                            closed_word(&t)
                        ));
                        text.push_str(&open_tables_text(&tables));
                    } else if t.seated(from).is_some() {
                        what = format!("join {table}: already seated");
                        text.push_str(&format!(
                            "You have a seat at `{table}` already: {}.\nTo give it up, send `leave {table}`.\n",
                            t.describe()
                        ));
                    } else if t.seats.len() >= t.max {
                        what = format!("join {table}: full");
                        text.push_str(&format!(
                            "Table `{table}` is full.\n\n{}",
                            open_tables_text(&tables)
                        ));
                    } else {
                        refused = false;
                        what = format!("join {table}: code mailed");
                        let key = super::key(&cx.host)?;
                        let code = super::code_for(&key, digest);
                        // A new join from the same address replaces the old one.
                        t.pending.retain(|p| !p.address.eq_ignore_ascii_case(from));
                        t.pending.push(Pending {
                            address: from.to_string(),
                            name: name.clone(),
                            public: *public,
                            code_sha256: sha256_hex(code.as_bytes()),
                            mail: digest.to_string(),
                            at: cx.now.clone(),
                        });
                        t.handled.push(Handled {
                            mail: digest.to_string(),
                            outcome: Outcome::CodeSent {
                                table: table.clone(),
                            },
                        });
                        super::save(&cx.host, &t)?;
                        text.push_str(&code_text(cx, &t, digest)?);
                    }
                }
            }
        }
        Command::Confirm(code) => {
            // A mail already recorded: the same answer.
            if let Some(t) = tables.iter().find(|t| t.handled(digest).is_some()) {
                refused = false;
                what = format!("confirm: seat at {} (again, after a restart)", t.name);
                text.push_str(&confirmed_text(t, from));
            } else {
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
                match found {
                    None => {
                        what = "confirm: no such code".into();
                        text.push_str("That code is not one this host is waiting for (a newer `join` replaces an older code; a code is used once). Send `join TABLE` again for a new one.\n\n");
                        text.push_str(&open_tables_text(&tables));
                    }
                    Some((t, i)) if !t.pending[i].address.eq_ignore_ascii_case(from) => {
                        what = format!("confirm {}: from another address than the join", t.name);
                        text.push_str(&format!(
                            "That code was mailed to another address. Confirm from the address you sent `join {}` from (the seat is that address's).\n",
                            t.name
                        ));
                    }
                    Some((t, _)) if t.status != Status::Open => {
                        what = format!("confirm {}: the table is closed", t.name);
                        text.push_str(&format!(
                            "Table `{}` takes no more players (it has {}).\n\n{}",
                            t.name,
                            closed_word(&t),
                            open_tables_text(&tables)
                        ));
                    }
                    Some((t, _)) if t.seats.len() >= t.max => {
                        what = format!("confirm {}: full", t.name);
                        text.push_str(&format!(
                            "Sorry: table `{}` filled before your confirmation came.\n\n{}",
                            t.name,
                            open_tables_text(&tables)
                        ));
                    }
                    Some((mut t, i)) => {
                        refused = false;
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
                            outcome: Outcome::Confirmed {
                                table: t.name.clone(),
                                seat,
                            },
                        });
                        super::save(&cx.host, &t)?;
                        what = format!("confirm: seat {seat} at {}", t.name);
                        text.push_str(&confirmed_text(&t, from));
                    }
                }
            }
        }
        Command::Leave(table) => match tables.iter().find(|t| &t.name == table).cloned() {
            None => {
                what = format!("leave {}: no such table", shown(table));
                text.push_str(&format!(
                    "There is no table `{}` here.\n\n{}",
                    shown(table),
                    open_tables_text(&tables)
                ));
            }
            Some(t) if t.handled(digest).is_some() => {
                refused = false;
                what = format!("leave {table}: left (again, after a restart)");
                text.push_str(&format!("You have left table `{table}`.\n"));
            }
            Some(t) if t.status != Status::Open => {
                what = format!("leave {table}: the table is closed");
                text.push_str(&format!(
                    "Table `{table}` has {}: seats can be left only before the start.\n",
                    closed_word(&t)
                ));
            }
            Some(mut t) => {
                let had = t.seated(from).is_some()
                    || t.pending
                        .iter()
                        .any(|p| p.address.eq_ignore_ascii_case(from));
                if had {
                    refused = false;
                    t.seats.retain(|s| !s.address.eq_ignore_ascii_case(from));
                    t.pending.retain(|p| !p.address.eq_ignore_ascii_case(from));
                    t.handled.push(Handled {
                        mail: digest.to_string(),
                        outcome: Outcome::Left {
                            table: table.clone(),
                        },
                    });
                    super::save(&cx.host, &t)?;
                    what = format!("leave {table}: left");
                    text.push_str(&format!(
                        "You have left table `{table}`. Now: {}.\n",
                        t.describe()
                    ));
                } else {
                    what = format!("leave {table}: not seated");
                    text.push_str(&format!(
                        "This address has no seat at `{table}`, so there was nothing to leave.\n"
                    ));
                }
            }
        },
    }
    text.push_str(&format!("\n{HELP}"));
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
