//! `herald inbox`: read a Maildir or an mbox file, find the order file in
//! each new mail (body or text attachment, a pasted report included), check
//! it, keep the accepted ones in the order folder and write a reply to
//! every mail.

use super::eml::{self, Attachment, Mail};
use super::{Arrival, Waiting};
use crate::engine::{check_orders, Loaded};
use crate::error::{Error, Result};
use crate::file::{self, sha256_hex};
use mail_parser::MessageParser;
use std::path::{Path, PathBuf};

/// One mail as read from the mailbox.
struct Letter {
    /// Where it was found: "mbox message 3" or the Maildir file name.
    place: String,
    raw: Vec<u8>,
}

/// What became of one mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// Stored for `player`; `replaced` is the date of the file it replaced.
    Accepted {
        player: String,
        replaced: Option<String>,
    },
    /// A later file from the same player was already stored.
    Superseded {
        player: String,
        kept: String,
    },
    Refused {
        problems: Vec<String>,
    },
    /// Read before (same Message-ID): nothing done, no reply.
    AlreadyRead,
}

pub struct Read {
    pub place: String,
    pub from: String,
    pub fate: Fate,
    pub reply: Option<PathBuf>,
}

fn read_mailbox(path: &Path) -> Result<Vec<Letter>> {
    let mut out = Vec::new();
    if path.is_dir() {
        let mut files = Vec::new();
        for sub in ["new", "cur"] {
            let d = path.join(sub);
            if !d.is_dir() {
                return Err(Error::usage(format!(
                    "{}: a folder given to inbox must be a Maildir (with new/ and cur/); or give an mbox file",
                    path.display()
                )));
            }
            for e in std::fs::read_dir(&d).map_err(|e| Error::io(&d, e))? {
                let p = e.map_err(|e| Error::io(&d, e))?.path();
                if p.is_file() {
                    files.push(p);
                }
            }
        }
        // Maildir names start with the delivery time: sorted, they are in
        // arrival order, and the same on every machine.
        files.sort_by_key(|p| p.file_name().map(|n| n.to_os_string()));
        for p in files {
            let raw = std::fs::read(&p).map_err(|e| Error::io(&p, e))?;
            out.push(Letter {
                place: p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                raw,
            });
        }
    } else {
        let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let it = mail_parser::mailbox::mbox::MessageIterator::new(std::io::BufReader::new(f));
        for (i, m) in it.enumerate() {
            let m = m.map_err(|e| Error::io(path, e))?;
            out.push(Letter {
                place: format!("mbox message {}", i + 1),
                raw: m.unwrap_contents(),
            });
        }
    }
    Ok(out)
}

/// Read the mailbox into the game's order folder; write one reply per new
/// mail into `replies`. `now` dates the replies.
pub fn run(game: &Path, mailbox: &Path, replies: &Path, now: &str) -> Result<Vec<Read>> {
    let g = Loaded::open(game)?;
    let letters = read_mailbox(mailbox)?;
    let mut seen = super::seen(game)?;
    let parser = MessageParser::default();
    // Sort by the mail's own Date, then by place, so "later replaces
    // earlier" means later written, whatever order the mailbox holds.
    let mut parsed: Vec<(i64, usize, &Letter)> = letters
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let date = parser
                .parse(&l.raw)
                .and_then(|m| m.date().map(|d| d.to_timestamp()))
                .unwrap_or(i64::MAX);
            (date, i, l)
        })
        .collect();
    parsed.sort_by_key(|(d, i, _)| (*d, *i));
    let mut out = Vec::new();
    for (_, _, letter) in parsed {
        let Some(m) = parser.parse(&letter.raw) else {
            out.push(Read {
                place: letter.place.clone(),
                from: String::new(),
                fate: Fate::Refused {
                    problems: vec!["not a mail message".into()],
                },
                reply: None,
            });
            continue;
        };
        let id = m
            .message_id()
            .map(str::to_string)
            .unwrap_or_else(|| format!("sha256:{}", sha256_hex(&letter.raw)));
        let from = m
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or("")
            .to_string();
        if seen.contains(&id) {
            out.push(Read {
                place: letter.place.clone(),
                from,
                fate: Fate::AlreadyRead,
                reply: None,
            });
            continue;
        }
        let date = m
            .date()
            .map(|d| d.to_rfc3339())
            .unwrap_or_else(|| now.to_string());
        let label = format!(
            "mail from {} ({date})",
            if from.is_empty() { "?" } else { &from }
        );
        let (fate, echo) = judge(
            &g,
            game,
            &m,
            &label,
            &Arrival {
                received: date.clone(),
                from: from.clone(),
                message_id: id.clone(),
            },
        )?;
        let reply = if from.is_empty() {
            None
        } else {
            let text = reply_text(&g, &fate, &echo);
            let subject = match m.subject() {
                Some(s) if s.to_ascii_lowercase().starts_with("re:") => s.to_string(),
                Some(s) => format!("Re: {s}"),
                None => format!("Re: orders for {}", g.file.id),
            };
            let mail = Mail {
                from: g
                    .file
                    .moderator
                    .clone()
                    .unwrap_or_else(|| eml::NO_MODERATOR.into()),
                to: from.clone(),
                subject,
                date: now.to_string(),
                message_id: eml::message_id(&g.file.id, &["reply", &id]),
                in_reply_to: Some(id.clone()),
                text,
                attachments: Vec::<Attachment>::new(),
            };
            std::fs::create_dir_all(replies).map_err(|e| Error::io(replies, e))?;
            let p = replies.join(format!("reply-{}.eml", &sha256_hex(id.as_bytes())[..12]));
            file::write_atomic(&p, &eml::build(&mail))?;
            Some(p)
        };
        seen.push(id);
        out.push(Read {
            place: letter.place.clone(),
            from,
            fate,
            reply,
        });
    }
    // Once, at the end: a run cut short reads its mails again next time,
    // which stores the same files and writes the same replies.
    if out.iter().any(|r| r.fate != Fate::AlreadyRead) {
        super::write_seen(game, &seen)?;
    }
    Ok(out)
}

/// Find, check and (if good) store the order file in one mail. The second
/// value is the orders as herald read them, for the reply.
fn judge(
    g: &Loaded,
    game: &Path,
    m: &mail_parser::Message,
    label: &str,
    arrival: &Arrival,
) -> Result<(Fate, Vec<String>)> {
    let found = match super::extract::order_text(m) {
        Ok(c) => c,
        Err(why) => {
            return Ok((
                Fate::Refused {
                    problems: vec![format!("{label}: {why}")],
                },
                Vec::new(),
            ))
        }
    };
    let (where_, text) = (&found.place, &found.text);
    let name = format!("{label}, {where_}");
    let accepted = match check_orders(g, &[(name, text.clone())], true) {
        Ok(a) => a,
        Err(e) => {
            return Ok((
                Fate::Refused {
                    problems: e.problems,
                },
                Vec::new(),
            ))
        }
    };
    let (_, player, echo) = accepted.summary.into_iter().next().expect("one file");
    let stored: Option<Waiting> = super::waiting(game, g.file.turn)?
        .into_iter()
        .find(|w| w.player == player);
    let earlier = stored.as_ref().and_then(|w| w.arrival.clone());
    if let Some(prev) = &earlier {
        let t = |s: &str| chrono::DateTime::parse_from_rfc3339(s).ok();
        if t(&prev.received) > t(&arrival.received) {
            return Ok((
                Fate::Superseded {
                    player,
                    kept: prev.received.clone(),
                },
                echo,
            ));
        }
    }
    super::store(game, g.file.turn, &player, text, arrival)?;
    let replaced = match (stored, earlier) {
        (Some(_), Some(a)) => Some(a.received),
        (Some(_), None) => Some("an earlier file".into()),
        _ => None,
    };
    Ok((Fate::Accepted { player, replaced }, echo))
}

fn reply_text(g: &Loaded, fate: &Fate, echo: &[String]) -> String {
    let f = &g.file;
    let mut s = format!("{} — game {}, turn {}\n\n", g.entry.title, f.id, f.turn);
    match fate {
        Fate::Accepted { player, replaced } => {
            s.push_str(&format!(
                "Your orders as {player} for turn {} are ACCEPTED.\n",
                f.turn
            ));
            if let Some(r) = replaced {
                s.push_str(&format!(
                    "They replace the orders you sent before ({r}).\n"
                ));
            }
            s.push_str("\nherald read them as:\n");
            if echo.is_empty() {
                s.push_str("  (no orders)\n");
            }
            for o in echo {
                s.push_str(&format!("  {o}\n"));
            }
            s.push_str("\nYou may send a new file until the turn is resolved; the latest one counts.\n");
        }
        Fate::Superseded { player, kept } => s.push_str(&format!(
            "These orders of {player} are valid but NOT USED: orders you sent later ({kept}) are already stored, and the latest counts.\n"
        )),
        Fate::Refused { problems } => {
            s.push_str("Your mail is REFUSED; nothing in it is used. What is wrong:\n\n");
            for p in problems {
                s.push_str(&format!("  - {p}\n"));
            }
            s.push_str("\nCorrect the order file and send it again.\n");
        }
        Fate::AlreadyRead => {}
    }
    if let Some(d) = &f.deadline {
        s.push_str(&format!("\nDeadline for turn {}: {d}\n", f.turn));
    }
    s
}
