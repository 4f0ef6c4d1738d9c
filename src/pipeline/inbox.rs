//! `herald inbox`: read a mailbox into a game. Each new mail's order file is
//! found, checked (its password, once), and if good stored sealed with a
//! receipt; every mail gets a reply in the outbox; and the mail is recorded
//! as done by the sha256 of its bytes. Each mail is finished — stored,
//! answered, recorded — before the next is read, so a killed run resumes
//! where it stopped and never answers a mail twice.

use super::check::{check_orders, Submitted};
use super::{open_to_write, Writing};
use crate::chain::canon::sha256_hex;
use crate::chain::witness::Receipt;
use crate::error::Result;
use crate::mail::eml::{self, Mail};
use crate::mail::{extract, mailbox};
use crate::orders::Zone;
use crate::store::{orders, seen, Name};
use mail_parser::MessageParser;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

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
    /// Read before (the same bytes): nothing done, no reply.
    AlreadyRead,
    /// Not read: the player's budget of password checks for mails from
    /// other addresses is spent for now ([`crate::auth::Guard`]).
    Throttled {
        player: String,
    },
}

pub struct Read {
    pub place: String,
    pub from: String,
    pub fate: Fate,
    pub reply: Option<PathBuf>,
}

/// Read every new mail of `mailbox` into the game; `now` dates the replies.
pub fn run(game: &Path, mailbox: &Path, now: &str, wait: Duration) -> Result<Vec<Read>> {
    let mut w = open_to_write(game, wait, now)?;
    w.complete(now)?;
    let mut done = seen::read(&w.store.dir)?;
    let letters = mailbox::read(mailbox, |raw| done.contains(&sha256_hex(raw)))?;
    let parser = MessageParser::default();
    // Sort by the mail's own Date, then by place, so "later replaces
    // earlier" means later written, whatever order the mailbox holds.
    let mut parsed: Vec<(i64, usize, &mailbox::Letter, Option<mail_parser::Message>)> = letters
        .iter()
        .enumerate()
        .map(|(i, l)| {
            // A mail read before is not parsed again.
            let m = if l.known { None } else { parser.parse(&l.raw) };
            let date = m
                .as_ref()
                .and_then(|m| m.date().map(|d| d.to_timestamp()))
                .unwrap_or(i64::MAX);
            (date, i, l, m)
        })
        .collect();
    parsed.sort_by_key(|(d, i, _, _)| (*d, *i));
    let mut out = Vec::new();
    for (_, _, letter, m) in parsed {
        if letter.known {
            out.push(Read {
                place: letter.place.clone(),
                // who sent it is said even when it is not read again
                from: sender(parser.parse_headers(&letter.raw).as_ref()),
                fate: Fate::AlreadyRead,
                reply: None,
            });
            continue;
        }
        let one = match handle_one(
            &mut w,
            &mut done,
            &letter.raw,
            m.as_ref(),
            letter.too_big,
            now,
            &Options::default(),
        ) {
            Ok(one) => one,
            // Mails read so far are done (stored, answered, recorded): say
            // where it stopped, and exit 0; the rest wait for a re-run.
            Err(e) if out.iter().any(|r: &Read| r.fate != Fate::AlreadyRead) => {
                crate::error::warn(format!(
                    "{}: {}; the mails before it are read and answered, the rest wait: {}run `herald inbox` again",
                    letter.place,
                    e.problems.join("; "),
                    if e.problems.iter().any(|p| p.contains(crate::error::DISK_FULL)) {
                        "free some space on the disk, then "
                    } else {
                        ""
                    }
                ));
                break;
            }
            Err(e) => return Err(e),
        };
        out.push(Read {
            place: letter.place.clone(),
            from: one.from,
            fate: one.fate,
            reply: one.reply,
        });
    }
    Ok(out)
}

/// How [`handle_one`] answers: `herald inbox` uses the defaults (replies
/// from the game's moderator address); the host sets its own.
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// The From of the reply (default: the game's moderator address).
    pub reply_from: Option<&'a str>,
    /// A paragraph added to a refusal (the host names its commands there).
    pub refused_note: Option<&'a str>,
    /// Who may have passwords checked, how often (the host's budget);
    /// `None`: every password is checked.
    pub guard: Option<&'a dyn crate::auth::Guard>,
    /// Whether the sender gets a reply for this fate (the host sends an
    /// address no more than one refusal an hour); `None`: always.
    pub may_reply: Option<&'a dyn Fn(&str, &Fate) -> bool>,
}

/// What became of one mail handed to [`handle_one`].
#[derive(Debug, Clone)]
pub struct One {
    /// The sender's address ("" when the mail names none).
    pub from: String,
    /// The mail's Message-ID, or `sha256:<digest>` when it has none.
    pub message_id: String,
    /// sha256 of the mail's bytes: its name in `inbox/seen`.
    pub digest: String,
    pub fate: Fate,
    /// The reply queued in the game's outbox.
    pub reply: Option<PathBuf>,
}

/// The sender's address of a parsed mail, or "".
pub fn sender(m: Option<&mail_parser::Message>) -> String {
    m.and_then(|m| m.from())
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .unwrap_or("")
        .to_string()
}

/// Handle ONE mail against a game opened to write (its lock held): the
/// per-mail work of `herald inbox`, with no door (every password checked,
/// every mail answered; `herald host` asks the door, `crate::requests`,
/// in the same steps). A mail whose sha256 is in `done` (the game's
/// `inbox/seen`) is skipped without a reply; otherwise its order file is
/// found ([`submission`]), judged ([`judge`]: the password, once) and if
/// good stored sealed with a receipt ([`keep`]); a reply goes into the
/// game's outbox (none when the mail names no sender); and the digest is
/// appended to `inbox/seen` (and to `done`) last, so a run killed at any
/// point judges the mail again and rewrites the same files under the same
/// names. `too_big`: only the head of the mail is in `raw`; it is refused.
pub fn handle_one(
    w: &mut Writing,
    done: &mut BTreeSet<String>,
    raw: &[u8],
    m: Option<&mail_parser::Message>,
    too_big: bool,
    now: &str,
    opts: &Options,
) -> Result<One> {
    let digest = sha256_hex(raw);
    let from = sender(m);
    let id = m
        .and_then(|m| m.message_id())
        .map(str::to_string)
        .unwrap_or_else(|| format!("sha256:{digest}"));
    if done.contains(&digest) {
        return Ok(One {
            from,
            message_id: id,
            digest,
            fate: Fate::AlreadyRead,
            reply: None,
        });
    }
    let judged = match submission(m, too_big, &from, &id, &digest, now) {
        Ok(sub) => judge(w, &sub, now, opts.guard)?,
        Err(problems) => Judged::refused(problems),
    };
    let Judged { ruling, keep: kept } = judged;
    let answer = !from.is_empty() && opts.may_reply.is_none_or(|f| f(&from, &ruling.fate));
    // The reply is queued before the orders are stored, and taken back if
    // they cannot be: a reply saying ACCEPTED never waits in the outbox
    // for orders that are not there (a full disk).
    let reply = if !answer {
        None
    } else {
        let text = reply_words(w, &ruling, opts.refused_note);
        let subject = m.and_then(|m| m.subject());
        Some(queue_reply(
            w,
            Reply {
                to: &from,
                subject,
                in_reply_to: &id,
                digest: &digest,
                text,
                now,
                from: opts.reply_from,
            },
        )?)
    };
    keep_or_take_back(w, kept, reply.as_deref())?;
    seen::add(&w.store.dir, &digest)?;
    done.insert(digest.clone());
    Ok(One {
        from,
        message_id: id,
        digest,
        fate: ruling.fate,
        reply,
    })
}

/// The reply's words for a ruling, with `refused_note` (the host's list
/// of what it accepts) after a refusal.
pub fn reply_words(w: &Writing, ruling: &Ruling, refused_note: Option<&str>) -> String {
    let mut text = reply_text(w, ruling);
    if let (Fate::Refused { .. }, Some(note)) = (&ruling.fate, refused_note) {
        text.push('\n');
        text.push_str(note);
    }
    text
}

/// Keep what a ruling promised (the sealed orders, then their zone),
/// after its reply is queued; if they cannot be kept, the queued reply
/// `reply` is taken back.
pub fn keep_or_take_back(w: &mut Writing, kept: Option<Keep>, reply: Option<&Path>) -> Result<()> {
    let Some(k) = kept else {
        return Ok(());
    };
    if let Err(e) = keep(w, k) {
        if let Some(r) = reply {
            let _ = std::fs::remove_file(r);
        }
        return Err(e);
    }
    Ok(())
}

/// Store the sealed orders a ruling accepted, then the time zone their
/// `tz` line asks for (in the secrets file, and in `w`'s game for the
/// reports it makes next): a run cut short between the two judges the
/// orders again and stores both again.
pub fn keep(w: &mut Writing, k: Keep) -> Result<()> {
    orders::put(&w.store.dir, &k.name, &k.stored)?;
    match k.zone {
        Some((p, z)) => super::keep_zone(w, &p, &z),
        None => Ok(()),
    }
}

/// An order file as submitted, whatever carried it: what [`judge`] reads.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The order file's text.
    pub text: String,
    /// How refusals name what carried it: "mail from ann@x.test (…)".
    pub label: String,
    /// Where in the carrier the file was: "attachment orders.txt".
    pub place: String,
    /// The requester's own lines outside the form (the game's orders
    /// among them are named in the answer, as not used).
    pub outside: Vec<extract::Outside>,
    /// When it was sent (RFC 3339; the mail's Date): "later replaces
    /// earlier" and "late" go by it.
    pub sent: String,
    /// The sender's address, kept with the stored orders.
    pub from: String,
    /// The carrier's id (a Message-ID) and sha256, kept with them.
    pub message_id: String,
    pub digest: String,
}

/// The order file of mail `m` (sha256 `digest`, Message-ID `id`, From
/// `from`), or why the mail is refused before any order is read: not a
/// mail, too large (`too_big`), no order form in it.
pub fn submission(
    m: Option<&mail_parser::Message>,
    too_big: bool,
    from: &str,
    id: &str,
    digest: &str,
    now: &str,
) -> std::result::Result<Submission, Vec<String>> {
    let Some(m) = m else {
        return Err(vec!["not a mail message".into()]);
    };
    let sent = m
        .date()
        .map(|d| d.to_rfc3339())
        .unwrap_or_else(|| now.to_string());
    let label = format!(
        "mail from {} ({})",
        if from.is_empty() { "?" } else { from },
        crate::time::shown(&sent)
    );
    if too_big {
        return Err(vec![format!(
            "{label}: too large (the limit is {} MiB); send the order file alone, as plain text",
            crate::store::limits::MAIL / (1024 * 1024)
        )]);
    }
    let found = extract::order_text(m).map_err(|why| vec![format!("{label}: {why}")])?;
    Ok(Submission {
        text: found.text,
        label,
        place: found.place,
        outside: found.outside,
        sent,
        from: from.to_string(),
        message_id: id.to_string(),
        digest: digest.to_string(),
    })
}

/// A reply to a mail: to whom, its subject (`None`: the game's `[GAME]
/// orders`; `Re: ` is added), the answered mail's Message-ID and sha256,
/// the words, the date, and its From (`None`: the game's moderator
/// address).
pub struct Reply<'a> {
    pub to: &'a str,
    pub subject: Option<&'a str>,
    pub in_reply_to: &'a str,
    pub digest: &'a str,
    pub text: String,
    pub now: &'a str,
    pub from: Option<&'a str>,
}

/// Queue a reply in the game's outbox, synced; named by its own
/// Message-ID, which is made from the game and the answered mail's
/// digest, so the same mail answered again after a crash is the same
/// file. Returns the file.
pub fn queue_reply(w: &Writing, r: Reply) -> Result<PathBuf> {
    let Reply {
        to,
        subject,
        in_reply_to,
        digest,
        text,
        now,
        from,
    } = r;
    let head = w.game.head();
    let subject = match subject {
        Some(s) if s.to_ascii_lowercase().starts_with("re:") => s.to_string(),
        Some(s) => format!("Re: {s}"),
        None => format!("Re: [{}] orders", head.id),
    };
    let message_id = eml::message_id(&head.id, &["reply", digest]);
    let mail = Mail {
        from: from
            .map(str::to_string)
            .or_else(|| head.moderator.clone())
            .unwrap_or_else(|| eml::NO_MODERATOR.into()),
        to: to.to_string(),
        subject,
        date: now.to_string(),
        message_id: message_id.clone(),
        in_reply_to: Some(in_reply_to.to_string()),
        text,
        attachments: Vec::new(),
    };
    let outbox = w.store.dir.outbox_dir();
    // A reply the outbox has sent already is not queued again.
    crate::store::outbox::queue(&outbox, &message_id, &eml::build(&mail))?;
    Ok(outbox.mail(&crate::store::outbox::name_of(&message_id)))
}

/// What [`judge`] ruled of an order file, and what it promised to keep.
#[derive(Debug, Clone)]
pub struct Judged {
    pub ruling: Ruling,
    /// The sealed orders to store ([`keep`]): the caller stores them
    /// after queueing the answer.
    pub keep: Option<Keep>,
}

/// What became of an order file: everything its answer says, typed (the
/// words are [`reply_text`]'s, or a page's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruling {
    pub fate: Fate,
    /// The orders as herald read them.
    pub echo: Vec<String>,
    pub receipt: Option<Receipt>,
    /// What the player should know besides.
    pub notes: Vec<Note>,
}

/// Something an accepted (or superseded) order file's answer tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// Sent after the deadline of `turn` (`deadline`), by `by` (words of
    /// a span); the turn was not resolved yet, so they are used.
    Late {
        sent: String,
        turn: u32,
        deadline: String,
        by: String,
    },
    /// The player's lines outside the form that read as orders, not used
    /// ("line 4 `A Par-Bur` (body)").
    Ignored(Vec<String>),
    /// The time zone the orders' `tz` line set or cleared.
    Zone(Zone),
}

/// The sealed orders an accepted file stores, and the time zone its `tz`
/// line asks for, by player.
#[derive(Debug, Clone)]
pub struct Keep {
    name: Name,
    stored: orders::Stored,
    zone: Option<(String, Zone)>,
}

impl Judged {
    pub fn refused(problems: Vec<String>) -> Judged {
        Judged {
            ruling: Ruling {
                fate: Fate::Refused { problems },
                echo: Vec::new(),
                receipt: None,
                notes: Vec::new(),
            },
            keep: None,
        }
    }
    fn fate(fate: Fate) -> Judged {
        Judged {
            ruling: Ruling {
                fate,
                ..Judged::refused(Vec::new()).ruling
            },
            keep: None,
        }
    }
}

/// The player's lines outside the form that the game reads as orders (a
/// list item's bullet, quotes and trailing comma taken off): named in the
/// acknowledgement, since they are not used.
fn ignored_orders(g: &super::Loaded, seat: usize, outside: &[extract::Outside]) -> Vec<String> {
    let mut out = Vec::new();
    for o in outside {
        let t = o
            .text
            .trim_start_matches(['-', '*', '•', '>', ' '])
            .trim_end_matches([',', ';', ' '])
            .trim_matches(|c: char| c == '"' || c == '\'' || "“”‘’„".contains(c))
            .trim();
        if t.is_empty() || t.len() > 200 {
            continue;
        }
        if g.rules.parse_order(&g.state, seat, t).is_ok() {
            out.push(format!("line {} `{t}` ({})", o.line, o.place));
            if out.len() == 10 {
                break;
            }
        }
    }
    out
}

/// Check the password of an order file through the guard, if there is
/// one: `Err` is the fate of a file whose password is wrong or may not be
/// checked now; `Ok(true)`: checked and right (not to be hashed again).
fn guarded(
    w: &Writing,
    sub: &Submitted,
    from: &str,
    guard: Option<&dyn crate::auth::Guard>,
) -> std::result::Result<bool, Fate> {
    let Some(guard) = guard else {
        return Ok(false);
    };
    let head = w.game.head();
    // The file as meant, slips and all: its password is checked (and
    // counted) as the check itself would check it.
    let Ok((of, slips)) = crate::orders::OrderFile::parse_as_meant(&sub.name, &sub.text) else {
        return Ok(false);
    };
    let Some(seat) = head.player_index(&of.player).filter(|_| of.game == head.id) else {
        return Ok(false);
    };
    match guard.check(&of.player, from, &of.password, &head.players[seat].password) {
        crate::auth::Verdict::Right => Ok(true),
        crate::auth::Verdict::Wrong => Err(Fate::Refused {
            problems: slips
                .iter()
                .chain([&super::check::wrong_password(
                    &sub.name,
                    of.lines.password,
                    &of.player,
                )])
                .map(|p| p.to_string())
                .collect(),
        }),
        crate::auth::Verdict::Throttled => Err(Fate::Throttled { player: of.player }),
    }
}

/// Judge an order file as submitted (whatever carried it): its
/// password through `guard` if there is one (else checked as the file
/// is), then its orders. The ruling, for the answer, and the sealed
/// orders to store (the caller stores them with [`keep`] after queueing
/// the answer).
///
/// Long (about 120 lines): one file judged in the order its refusals are
/// told (its header, the player and password, the turn, the orders
/// checked, a later file kept), each step using what the ones before read.
pub fn judge(
    w: &Writing,
    sub: &Submission,
    now: &str,
    guard: Option<&dyn crate::auth::Guard>,
) -> Result<Judged> {
    let g = &w.game;
    let (label, date) = (&sub.label, &sub.sent);
    let name = format!("{label}, {}", sub.place);
    let mut file = Submitted::file(name, sub.text.clone());
    file.received = Some(date.to_string());
    match guarded(w, &file, &sub.from, guard) {
        Ok(true) => file.check_password = false,
        Ok(false) => {}
        Err(fate) => return Ok(Judged::fate(fate)),
    }
    let mut accepted = match check_orders(g, &[file]) {
        Ok(a) => a,
        Err(e) => return Ok(Judged::refused(e.problems)),
    };
    let zone = accepted.zones.pop();
    let Some((_, player, echo)) = accepted.summary.into_iter().next() else {
        return Ok(Judged::refused(vec![format!("{label}: no orders")]));
    };
    let Some(record) = accepted.records.into_iter().next() else {
        return Ok(Judged::refused(vec![format!("{label}: no orders")]));
    };
    let head = g.head();
    let mut notes = Vec::new();
    if let Some(late) = late_by(head.deadline.as_deref(), date) {
        notes.push(Note::Late {
            sent: date.to_string(),
            turn: head.turn,
            deadline: head.deadline.clone().unwrap_or_default(),
            by: late,
        });
    }
    if let Some(seat) = head.player_index(&player) {
        let ignored = ignored_orders(g, seat, &sub.outside);
        if !ignored.is_empty() {
            notes.push(Note::Ignored(ignored));
        }
    }
    let name = Name::new("player", &player).map_err(crate::error::Error::refused)?;
    let earlier = orders::waiting(&w.store.dir, head.turn)?
        .into_iter()
        .find(|s| s.player == player);
    if let Some(prev) = &earlier {
        let t = |s: &str| chrono::DateTime::parse_from_rfc3339(s).ok();
        if let Some(r) = prev.received.as_deref() {
            if t(r) > t(date) {
                // Nothing of a file not used is used: its zone neither.
                return Ok(Judged {
                    ruling: Ruling {
                        fate: Fate::Superseded {
                            player,
                            kept: r.to_string(),
                        },
                        echo,
                        receipt: None,
                        notes,
                    },
                    keep: None,
                });
            }
        }
    }
    let receipt = Receipt::new(
        &w.signer,
        &head.id,
        &player,
        head.turn,
        &record.sha256,
        g.record.chain_head(),
        now,
    );
    // The same mail stored by a run cut short before it recorded the mail
    // as read: it replaced what that run's reply said it replaced.
    let replaced = match earlier {
        Some(e) if e.mail_sha256.as_deref() == Some(sub.digest.as_str()) => e.replaced,
        Some(e) => Some(e.received.unwrap_or_else(|| "an earlier file".into())),
        None => None,
    };
    let stored = orders::Stored {
        game: head.id.clone(),
        player: player.clone(),
        turn: head.turn,
        text: record.text,
        sha256: record.sha256,
        received: Some(date.to_string()),
        from: Some(sub.from.clone()),
        message_id: Some(sub.message_id.clone()),
        mail_sha256: Some(sub.digest.clone()),
        chain_head: receipt.chain_head.clone(),
        accepted: receipt.accepted.clone(),
        signature: receipt.signature.clone(),
        replaced: replaced.clone(),
    };
    if let Some((_, z)) = &zone {
        notes.push(Note::Zone(z.clone()));
    }
    Ok(Judged {
        ruling: Ruling {
            fate: Fate::Accepted { player, replaced },
            echo,
            receipt: Some(receipt),
            notes,
        },
        keep: Some(Keep { name, stored, zone }),
    })
}

/// The words of a note.
fn note_words(n: &Note) -> String {
    match n {
        Note::Late {
            sent,
            turn,
            deadline,
            by,
        } => format!(
            "These orders are LATE: your mail is dated {}, after the deadline of turn {turn} ({}), by {by}. The turn was not resolved yet, so they are used; the report will list them as late.",
            crate::time::shown(sent),
            crate::time::shown(deadline),
        ),
        Note::Ignored(lines) => format!(
            "Outside the order form, herald IGNORED these lines, which read as orders (only the form's `orders = [ … ]` counts; put them inside it and send the file again if you meant them): {}.",
            lines.join("; ")
        ),
        Note::Zone(z) => zone_note(z),
    }
}

/// What the acknowledgement says of a `tz` line taken.
fn zone_note(z: &Zone) -> String {
    match z {
        Zone::Set(name) => format!(
            "Your time zone is now {name}: your reports show the deadline on your clock too. It is kept private, with the moderator; send tz = \"\" to clear it."
        ),
        Zone::Clear => "You have no time zone now: your reports show the deadline in UTC only.".into(),
    }
}

/// How long after `deadline` a mail dated `date` was sent, if it was
/// (whole minutes, or seconds under a minute).
fn late_by(deadline: Option<&str>, date: &str) -> Option<String> {
    let d = crate::time::parse_time(deadline?).ok()?;
    let t = crate::time::parse_time(date).ok()?;
    let secs = (t - d).num_seconds();
    (secs > 0).then(|| crate::time::span_shown(secs.unsigned_abs()))
}

/// The answer to an order file, in words, from its ruling (the mail's
/// reply, for `herald inbox` and the host alike).
pub fn reply_text(w: &Writing, ruling: &Ruling) -> String {
    let Ruling {
        fate,
        echo,
        receipt,
        notes,
    } = ruling;
    let h = w.game.head();
    let mut s = format!(
        "{} — game {}, turn {}\n\n",
        w.game.entry.title, h.id, h.turn
    );
    match fate {
        Fate::Accepted { player, replaced } => {
            s.push_str(&format!(
                "Your orders as {player} for turn {} are ACCEPTED.\n",
                h.turn
            ));
            if let Some(r) = replaced {
                s.push_str(&format!(
                    "They replace the orders you sent before ({}).\n",
                    crate::time::shown(r)
                ));
            }
            s.push_str("\nherald read them as:\n");
            if echo.is_empty() {
                s.push_str("  (no orders)\n");
            }
            for o in echo {
                s.push_str(&format!("  {o}\n"));
            }
            for n in notes {
                s.push('\n');
                s.push_str(&note_words(n));
                s.push('\n');
            }
            s.push_str("\nYou may send a new file until the turn is resolved; the latest one counts.\n");
            if let Some(r) = receipt {
                s.push_str("\nYour receipt (keep it: `herald verify <archive> --witness <this mail>` proves\nthe archive holds exactly these orders):\n");
                s.push_str(&r.block());
            }
        }
        Fate::Superseded { player, kept } => s.push_str(&format!(
            "These orders of {player} are valid but NOT USED: orders you sent later ({}) are already stored, and the latest counts.\n",
            crate::time::shown(kept)
        )),
        Fate::Refused { problems } => {
            s.push_str("Your mail is REFUSED; nothing in it is used. What is wrong:\n\n");
            for p in problems {
                s.push_str(&format!("  - {p}\n"));
            }
            s.push_str("\nCorrect the order file and send it again.\n");
        }
        Fate::Throttled { player } => s.push_str(&format!(
            "Your mail is NOT READ: too many wrong passwords for {player} in the last hour; the moderator has been told.\n\
             Mails from {player}'s own address (the one the game holds) are still read at once.\n"
        )),
        Fate::AlreadyRead => {}
    }
    if let Some(d) = &h.deadline {
        s.push_str(&format!(
            "\nDeadline for turn {}: {}\n",
            h.turn,
            crate::time::shown(d)
        ));
    }
    s
}
