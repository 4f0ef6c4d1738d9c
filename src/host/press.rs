//! Press by mail (docs/host.md, "Press"): a mail to a game whose first
//! line (of the player's own text, not the quoted lines) is
//!
//! ```text
//! press to blue, white          to these players
//! press to all                  to every other player
//! press to blue anonymous       grey press, where the game allows it
//! press reply                   to the sender of the press mail this one answers
//! ```
//!
//! followed by the player's id (unless the mail comes from the player's
//! own address) and password as the order form writes them
//! (`player = "red"`, `password = "…"`), then the text. This module reads
//! the mail into a request of the door (`requests::press`), which checks
//! the password and the game's press rules, records the press
//! ([`crate::pipeline::press::record`]), and queues one mail per recipient
//! from the game's address, plus an acknowledgement with a copy to the
//! sender. No mail address is ever shown to another player; a relayed
//! mail carries only the text, never the sender's headers or attachments.

use crate::error::Result;
use crate::mail::extract;
use crate::pipeline::inbox::{queue_reply, Fate, Reply};
use crate::pipeline::press::{self, Kept, To};
use crate::pipeline::Writing;
use crate::requests::press::{BadName, Muted, Outcome, Refusal, Shown};
use crate::requests::{self, Answer, Carrier, Claim, Door, Held, Requester};
use mail_parser::Message;

/// How to write press, for replies and `help`.
pub const HOW: &str = "\
To write to other players (where the game's rules allow press), mail the
game's address with, as the first lines:

    press to blue, white        (or: press to all; add `anonymous` where
                                 the game allows grey press)
    player = \"red\"              (your player id; not needed from your own address)
    password = \"YOUR-PASSWORD\"

    Your message, as plain text.

The host relays it from the game's address to each player named (never
showing anyone's mail address) and sends you a copy. To answer a press
mail, reply to it with `press reply` and your password above the quote.

To stop getting press from a player, mail the game's address with
`mute red` (or `unmute red`, `unmute all`; `mute` alone lists whom you
muted) and the `player` and `password` lines as above.
";

/// A press mail as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `None`: `press reply`.
    pub to: Option<To>,
    pub anonymous: bool,
    pub player: Option<String>,
    pub password: Option<String>,
    /// Normalised.
    pub text: String,
    /// In-Reply-To and References of the mail.
    pub refs: Vec<String>,
    /// `press #N` named in the subject (a reply's).
    pub subject_n: Option<u32>,
    /// The lines of greeting above the press line, not relayed.
    pub greeting: Vec<String>,
}

/// A `mute` or `unmute` mail as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MuteRequest {
    /// `mute` (true) or `unmute`.
    pub on: bool,
    /// The players named (none: only list whom the player has muted).
    pub others: Vec<String>,
    /// `unmute all`.
    pub all: bool,
    pub player: Option<String>,
    pub password: Option<String>,
}

/// What a press mail asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    Press(Request),
    /// `mute PLAYER` / `unmute PLAYER` (docs/host.md, "Muting a player").
    Mute(MuteRequest),
    /// `press` (or `mute`) with words herald cannot read: why, with the
    /// line to send.
    Bad(String),
}

/// The `player` and `password` lines from line `at` on (blank lines
/// between them skipped): both, and the first line after them.
fn credentials(lines: &[&str], mut at: usize) -> (Option<String>, Option<String>, usize) {
    let (mut player, mut password) = (None, None);
    while at < lines.len() {
        let l = lines[at];
        if let Some(v) = field(l, "password") {
            password = Some(v);
        } else if let Some(v) = field(l, "player") {
            player = Some(v.to_ascii_lowercase());
        } else if !l.trim().is_empty() {
            break;
        }
        at += 1;
    }
    (player, password, at)
}

/// A `key = "value"`, `key: value` or `key value` line, if its key is
/// `key`.
fn field(line: &str, key: &str) -> Option<String> {
    let t = line.trim();
    let rest = t.get(..key.len())?;
    if !rest.eq_ignore_ascii_case(key) {
        return None;
    }
    let v = t[key.len()..].trim_start();
    let v = v
        .strip_prefix('=')
        .or_else(|| v.strip_prefix(':'))
        .unwrap_or(v)
        .trim();
    if v.is_empty() && !t[key.len()..].starts_with([' ', '=', ':']) {
        return None;
    }
    let v = v.trim_matches(|c: char| c == '"' || c == '\'' || "“”‘’".contains(c));
    Some(v.to_string())
}

/// Lines of greeting a `press to …` or `press reply` line may have above
/// it ("Hi all,"): read as meant for the host, never relayed.
pub const GREETING_LINES: usize = 2;

/// Read a mail as press, or `None` if its first own line is not `press …`
/// (`mute`, `unmute`), nor `press to …` or `press reply` below at most
/// [`GREETING_LINES`] lines of greeting (lines that are no `key = value`).
pub fn asked(m: &Message) -> Option<Asked> {
    // As the sender wrote it: soft breaks of format=flowed joined.
    let body = extract::body(m);
    let (own, _) = extract::split_reply(&body);
    let lines: Vec<&str> = own.lines().collect();
    let own_lines: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].trim().is_empty())
        .take(GREETING_LINES + 1)
        .collect();
    let words_of = |i: usize| -> Vec<String> {
        lines[i]
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(|w| w.trim_end_matches([':', '.']).to_ascii_lowercase())
            .collect()
    };
    let first = *own_lines.first()?;
    let words = words_of(first);
    match words.first().map(String::as_str) {
        Some("mute") => return Some(asked_mute(true, &words, &lines, first)),
        Some("unmute") => return Some(asked_mute(false, &words, &lines, first)),
        Some("press") => return Some(asked_press(m, &words, &lines, first, Vec::new())),
        _ => {}
    }
    // Below a greeting, only the whole of a press line counts (a "press
    // ahead" in a letter is no press).
    let at = own_lines[1..]
        .iter()
        .position(|&i| extract::press_line(lines[i]).is_some())?
        + 1;
    if own_lines[..at].iter().any(|&i| lines[i].contains('=')) {
        return None;
    }
    let greeting = own_lines[..at]
        .iter()
        .map(|&i| lines[i].trim().chars().take(80).collect())
        .collect();
    Some(asked_press(
        m,
        &words_of(own_lines[at]),
        &lines,
        own_lines[at],
        greeting,
    ))
}

/// A `mute` (`on`) or `unmute` mail whose first own line, `lines[first]`,
/// is `words`.
fn asked_mute(on: bool, words: &[String], lines: &[&str], first: usize) -> Asked {
    let others: Vec<String> = words[1..].iter().filter(|w| *w != "and").cloned().collect();
    let all = others.iter().any(|w| w == "all");
    if all && (on || others.len() > 1) {
        return Asked::Bad(
            "`mute` names the players whose press you no longer want (`mute red, blue`); `unmute all` takes back every mute".into(),
        );
    }
    let (player, password, _) = credentials(lines, first + 1);
    Asked::Mute(MuteRequest {
        on,
        others: if all { Vec::new() } else { others },
        all,
        player,
        password,
    })
}

/// A `press …` mail whose press line, `lines[first]`, is `words`, below
/// the lines of `greeting`.
fn asked_press(
    m: &Message,
    words: &[String],
    lines: &[&str],
    first: usize,
    greeting: Vec<String>,
) -> Asked {
    let mut args: Vec<String> = words[1..].to_vec();
    let anonymous = match args.last().map(String::as_str) {
        Some("anonymous" | "anonymously" | "grey" | "gray") => {
            args.pop();
            true
        }
        _ => false,
    };
    let to = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["reply"] => None,
        ["to", "all"] => Some(To::All),
        ["to", rest @ ..] if !rest.is_empty() && !rest.contains(&"all") => Some(To::Players(
            rest.iter()
                .filter(|w| **w != "and")
                .map(|w| w.to_string())
                .collect(),
        )),
        _ => {
            return Asked::Bad(
                "the first line of a press mail is `press to PLAYER, PLAYER`, `press to all` or `press reply` (add `anonymous` where the game allows grey press)".into(),
            )
        }
    };
    let (player, password, at) = credentials(lines, first + 1);
    let text = press::normalise(&lines[at.min(lines.len())..].join("\n"));
    let mut refs = Vec::new();
    for h in [m.in_reply_to(), m.references()] {
        if let Some(t) = h.as_text() {
            refs.push(t.to_string());
        }
        if let Some(l) = h.as_text_list() {
            refs.extend(l.iter().map(|s| s.to_string()));
        }
    }
    let subject_n = m.subject().and_then(|s| {
        let i = s.find("press #")?;
        s[i + 7..]
            .split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    });
    Asked::Press(Request {
        to,
        anonymous,
        player,
        password,
        text,
        refs,
        subject_n,
        greeting,
    })
}

/// The host's limits on press: the door's.
pub use crate::requests::press::Limits;

/// What a press mail came to, for the log and the host's state.
#[derive(Debug, Clone)]
pub struct Answered {
    /// "press #3 relayed to blue, white", "press refused: …" (never the text).
    pub what: String,
    pub player: Option<String>,
    pub ok: bool,
    /// Anonymous: the sender's address is not noted on the status page.
    pub anonymous: bool,
    pub throttled: bool,
    /// A `mute` or `unmute` mail (counted with the commands).
    pub command: bool,
    /// The reply the door held back, and why.
    pub held: Option<Held>,
}

/// One press mail as the host hands it to the door: who sent it, what
/// carried it, the pass's time, the game's address (the From of the
/// reply and of the relayed mails) and the host's limits.
pub struct Asking<'a> {
    pub claim: Claim,
    pub carrier: &'a Carrier,
    pub now: &'a str,
    pub game_addr: &'a str,
    pub limits: Limits,
}

impl Asking<'_> {
    /// Queue `text` to the sender under the game's title, subject
    /// `[GAME] subject`.
    fn reply(&self, w: &mut Writing, subject: &str, text: &str) -> Result<std::path::PathBuf> {
        let h = w.game.head();
        let titled = format!(
            "{} — game {}, turn {}\n\n{text}",
            w.game.entry.title, h.id, h.turn
        );
        queue_reply(
            w,
            Reply {
                to: &self.claim.address,
                subject: Some(&format!("[{}] {subject}", h.id)),
                in_reply_to: &self.carrier.id,
                digest: &self.carrier.digest,
                text: titled,
                now: self.now,
                from: Some(self.game_addr),
            },
        )
    }

    /// Refuse a mail (`word`: `press`, `mute`, `unmute`): tell its sender
    /// why (where the door lets them be told: `answer`) and that
    /// `nothing` was done, and say what it came to for the log.
    fn refuse(
        &self,
        w: &mut Writing,
        (why, player, throttled): (String, Option<String>, bool),
        answer: Answer,
        (word, nothing): (&str, &str),
    ) -> Result<Answered> {
        let from = self.claim.address.as_str();
        let held = match answer {
            Answer::Held(h) => Some(h),
            Answer::Tell => None,
        };
        if !from.is_empty() && held.is_none() {
            self.reply(
                w,
                word,
                &format!("Your {word} mail is REFUSED, {nothing}: {why}\n\n{HOW}"),
            )?;
        }
        Ok(Answered {
            what: format!("{word} refused"),
            player,
            ok: false,
            anonymous: false,
            throttled,
            command: word != "press",
            held,
        })
    }
}

/// Answer press mail `asked` through the game's door: relay it, change
/// the mutes, or refuse it, and reply in words made from the outcome.
pub fn answer(w: &mut Writing, asked: &Asked, a: &Asking, door: &Door) -> Result<Answered> {
    let from = a.claim.address.clone();
    let Some((request, word, greeting)) = door_request(asked, a) else {
        let why = match asked {
            Asked::Bad(why) => why.clone(),
            _ => String::new(),
        };
        let fate = Fate::Refused {
            problems: Vec::new(),
        };
        // No address, no answer asked for.
        let answer = match from.is_empty() {
            true => Answer::Tell,
            false => door.answer(&from, &fate, false, a.carrier),
        };
        let refusal = (why, None, false);
        return a.refuse(w, refusal, answer, ("press", "nothing was relayed"));
    };
    let (check, out) = requests::press::run(w, door, &request, a.now, a.limits, a.game_addr);
    match out {
        Outcome::Refused(r) => {
            let answer = match from.is_empty() {
                true => Answer::Tell,
                false => door.answer(&from, &r.fate(), check.proven(), a.carrier),
            };
            let nothing = match word {
                "press" => "nothing was relayed",
                _ => "nothing was changed",
            };
            let refusal = (
                refusal_text(w, &r, word),
                r.player().map(str::to_string),
                matches!(r, Refusal::Throttled { .. }),
            );
            a.refuse(w, refusal, answer, (word, nothing))
        }
        Outcome::Muted(m) => {
            a.reply(w, word, &format!("{}\n", muted_text(&m)))?;
            Ok(Answered {
                // The log and the status page are the moderator's; they
                // still do not need whom.
                what: format!("{word}: the mutes of {} set", m.player),
                player: Some(m.player),
                ok: true,
                anonymous: false,
                throttled: false,
                command: true,
                held: None,
            })
        }
        Outcome::Relayed(r) => relayed(w, r, a, door, (check.proven(), greeting)),
    }
}

/// Press relayed: the acknowledgement, with the copy of what the
/// recipients read, where the door lets the sender be told (`earned`: a
/// right password made the request), and what it came to for the log.
fn relayed(
    w: &mut Writing,
    r: requests::press::Relayed,
    a: &Asking,
    door: &Door,
    (earned, greeting): (bool, &[String]),
) -> Result<Answered> {
    let accepted = Fate::Accepted {
        player: r.player.clone(),
        replaced: None,
    };
    let held = match door.answer(&a.claim.address, &accepted, earned, a.carrier) {
        Answer::Tell => {
            let ack = greeted(greeting) + &acknowledgement(w, &r.kept, &r.hash, &r.not_mailed);
            a.reply(w, &format!("press #{}", r.kept.entry.n), &ack)?;
            None
        }
        Answer::Held(h) => Some(h),
    };
    Ok(Answered {
        what: for_the_log(&r.kept, &r.mailed),
        player: Some(r.player),
        ok: true,
        anonymous: r.kept.anonymous,
        throttled: false,
        command: false,
        held,
    })
}

/// The door's request for a press or mute mail, its first word and the
/// greeting above it; `None` for a mail misread (`Asked::Bad`).
fn door_request<'m>(
    asked: &'m Asked,
    a: &Asking,
) -> Option<(requests::press::Request, &'static str, &'m [String])> {
    Some(match asked {
        Asked::Bad(_) => return None,
        Asked::Mute(m) => (
            press_request(
                requests::press::Asked::Mute(requests::press::Mute {
                    on: m.on,
                    others: m.others.clone(),
                    all: m.all,
                }),
                (&m.player, &m.password),
                a,
            ),
            if m.on { "mute" } else { "unmute" },
            &[][..],
        ),
        Asked::Press(p) => (
            press_request(
                requests::press::Asked::Press(requests::press::Press {
                    to: p.to.clone(),
                    anonymous: p.anonymous,
                    text: p.text.clone(),
                    refs: p.refs.clone(),
                    subject_n: p.subject_n,
                }),
                (&p.player, &p.password),
                a,
            ),
            "press",
            &p.greeting[..],
        ),
    })
}

/// The door's request for a press or mute mail: the seat and password
/// its lines show, from its claimed From.
fn press_request(
    asked: requests::press::Asked,
    (player, password): (&Option<String>, &Option<String>),
    a: &Asking,
) -> requests::press::Request {
    requests::press::Request {
        asked,
        by: Requester::Anyone(a.claim.clone()),
        shown: Shown {
            player: player.clone(),
            password: password.clone(),
        },
        carrier: a.carrier.clone(),
    }
}

/// Whom a seat has muted now, in words.
fn muted_text(m: &Muted) -> String {
    if m.muted.is_empty() {
        "You have muted nobody: press from every player reaches you.".to_string()
    } else {
        format!(
            "You have muted {}: their press, anonymous or not, is not relayed to you (a player you muted who writes to you by name is told so; an answer to your anonymous press is not relayed to you either, and its writer is not told). `unmute {}` takes it back.",
            m.muted.join(", "),
            m.muted[0]
        )
    }
}

/// Why press or a mute (`word`: its first word) is refused, in words.
pub fn refusal_text(w: &Writing, r: &Refusal, word: &str) -> String {
    let id = &w.game.head().id;
    match r {
        Refusal::WhoAreYou { players } => format!(
            "say who you are: a line `player = \"YOUR-PLAYER-ID\"` ({}) under the `{word}` line",
            players.join(", ")
        ),
        Refusal::NotAPlayer { named, players } => {
            crate::pipeline::loaded::not_a_player(named, players)
        }
        Refusal::PasswordMissing { .. } => format!(
            "your password is missing: a line `password = \"YOUR-PASSWORD\"` under the `{word}` line (as in your order form)"
        ),
        Refusal::WrongPassword { player } => format!("the password for {player} is not right"),
        Refusal::Throttled { player } => format!(
            "too many wrong passwords for {player} in the last hour; the moderator has been told"
        ),
        Refusal::NoPress { rules, .. } => format!(
            "this game allows no press, so there is nobody to mute (game {id}'s rules, chosen at its start: {})",
            press::describe(rules)
        ),
        Refusal::BadNames { bad, others, .. } => {
            let bad: Vec<String> = bad
                .iter()
                .map(|b| match b {
                    BadName::Yourself(o) => format!("{o} is you"),
                    BadName::NotAPlayer(o) => format!(
                        "`{}` is not a player of this game",
                        o.chars().take(32).collect::<String>()
                    ),
                })
                .collect();
            format!(
                "{}: write `{word} PLAYER, PLAYER` with players of {id} ({})",
                bad.join("; "),
                others.join(", ")
            )
        }
        Refusal::NotAnAnswer { players, .. } => format!(
            "`press reply` answers a press mail you got: reply to that mail (its subject names `press #N`), or write `press to PLAYER` ({})",
            players.join(", ")
        ),
        Refusal::NoText { .. } => {
            "there is no text under the `press`, `player` and `password` lines: nothing to relay"
                .into()
        }
        Refusal::TooLong { bytes, max, .. } => format!(
            "the text is {bytes} bytes; this host relays press of at most {max} bytes (host.toml: press_max_bytes): send it in parts"
        ),
        Refusal::PerDay { sent, per_day, .. } => format!(
            "you have sent {sent} press mails in the last 24 hours, this host's limit (host.toml: press_per_day = {per_day}); write again later"
        ),
        Refusal::Rules { why, .. } => why.clone(),
        Refusal::MutedBy { player, by } => format!(
            "{} muted you: nothing was relayed (a player who mutes you gets no press from you, anonymous or not, until they write `unmute {player}`)",
            if by.len() == 1 {
                format!("{} has", by[0])
            } else {
                format!("{} have", by.join(", "))
            }
        ),
        Refusal::Failed { why, .. } => why.clone(),
    }
}

/// The acknowledgement's word on a greeting above the press line.
fn greeted(greeting: &[String]) -> String {
    if greeting.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = greeting.iter().map(|g| format!("`{g}`")).collect();
    format!(
        "Above your `press …` line, {} {} read as a greeting to the host and NOT relayed.\n",
        quoted.join(" and "),
        if quoted.len() == 1 { "was" } else { "were" }
    )
}

/// The sender's acknowledgement of relayed press `kept` (hash `hash`):
/// to whom, who muted them, who has no address, and the copy of what the
/// recipients read.
pub fn acknowledgement(w: &Writing, kept: &Kept, hash: &str, not_mailed: &[String]) -> String {
    let shown_to = if kept.entry.to.is_empty() {
        "the anonymous sender of the press you answered".to_string()
    } else {
        // by id and name, as the recipients' mails list them
        crate::pipeline::press::shown_to(&w.game, kept)
    };
    let mut ack = format!(
        "Your press #{} {}to {shown_to} is RELAYED{}.\n",
        kept.entry.n,
        if kept.anonymous { "(anonymous) " } else { "" },
        match kept.answers {
            Some(n) => format!(" (an answer to press #{n})"),
            None => String::new(),
        }
    );
    let told = if kept.entry.to.is_empty() {
        Vec::new()
    } else {
        kept.withheld.clone()
    };
    if !told.is_empty() {
        ack.push_str(&format!(
            "Not relayed to {}, who muted you.\n",
            told.join(", ")
        ));
    }
    if !not_mailed.is_empty() && !kept.entry.to.is_empty() {
        ack.push_str(&format!(
            "The game holds no mail address for {}: kept for them, not mailed.\n",
            not_mailed.join(", ")
        ));
    }
    if kept.anonymous && kept.entry.to.contains(&kept.sender) {
        ack.push_str("You get it too, as every player does: anonymous press to all goes to every\nplayer, its sender included, so that the list of recipients names nobody.\n");
    }
    ack.push_str(SEATS);
    ack.push_str(&format!(
        "\nWhat they read (keep this mail: `herald verify GAME --witness THIS-MAIL` proves it):\n\n{}",
        press::sender_copy(&w.game, kept, hash)
    ));
    ack
}

/// The ruling on press and seat changes, told to every sender with each
/// press relayed (docs/host.md, "Press and seat changes").
pub const SEATS: &str = "\nPress belongs to the seats, not to the people playing them: if a seat\nchanges hands, its new player is given the seat's press, sent and\nreceived, this one included (who sent anonymous press stays hidden from\neveryone else).\n";

/// What relayed press `kept` came to, for the log: never the text, and
/// for anonymous press not whom it was mailed to.
fn for_the_log(kept: &Kept, mailed: &[String]) -> String {
    if kept.anonymous {
        format!("press #{} relayed (anonymous)", kept.entry.n)
    } else {
        format!(
            "press #{} relayed to {}",
            kept.entry.n,
            if mailed.is_empty() {
                "nobody by mail".to_string()
            } else {
                mailed.join(", ")
            }
        )
    }
}
