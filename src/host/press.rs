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
//! (`player = "red"`, `password = "…"`), then the text. The host checks
//! the password and the game's press rules, records the press
//! ([`crate::pipeline::press::record`]), and queues one mail per recipient
//! from the game's address, plus an acknowledgement with a copy to the
//! sender. No mail address is ever shown to another player; a relayed
//! mail carries only the text, never the sender's headers or attachments.

use crate::auth::Verdict;
use crate::error::Result;
use crate::mail::extract;
use crate::pipeline::inbox::{queue_reply, Options};
use crate::pipeline::press::{self, Kept, To};
use crate::pipeline::Writing;
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

/// The host's limits on press.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub per_day: u32,
    pub max_bytes: u64,
}

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
}

/// The mail a reply answers: its sender, Message-ID, sha256, the time it
/// is judged at, and the game's address the reply comes from.
struct Mail<'a> {
    from: &'a str,
    id: &'a str,
    digest: &'a str,
    now: &'a str,
    game_addr: &'a str,
}

impl Mail<'_> {
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
            self.from,
            Some(&format!("[{}] {subject}", h.id)),
            self.id,
            self.digest,
            titled,
            self.now,
            Some(self.game_addr),
        )
    }

    /// Refuse a mail (`word`: `press`, `mute`, `unmute`): tell its sender
    /// why (where they may be told) and that `nothing` was done, and say
    /// what it came to for the log.
    fn refuse(
        &self,
        w: &mut Writing,
        opts: &Options,
        (why, player, throttled): Refusal,
        word: &str,
        nothing: &str,
    ) -> Result<Answered> {
        let fate = match (&player, throttled) {
            (Some(p), true) => crate::pipeline::inbox::Fate::Throttled { player: p.clone() },
            _ => crate::pipeline::inbox::Fate::Refused {
                problems: vec![why.clone()],
            },
        };
        if !self.from.is_empty() && opts.may_reply.is_none_or(|f| f(self.from, &fate)) {
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
        })
    }
}

/// Answer press mail `m` (Message-ID `id`, sha256 `digest`, sender
/// `from`) at `now`: relay it or refuse it, the reply From `game_addr`.
#[allow(clippy::too_many_arguments)]
pub fn answer(
    w: &mut Writing,
    asked: &Asked,
    from: &str,
    id: &str,
    digest: &str,
    now: &str,
    opts: &Options,
    limits: Limits,
    game_addr: &str,
) -> Result<Answered> {
    let mail = Mail {
        from,
        id,
        digest,
        now,
        game_addr,
    };
    let result = match asked {
        Asked::Mute(req) => return mute(w, req, &mail, opts),
        Asked::Bad(why) => Err((why.clone(), None, false)),
        Asked::Press(req) => relay(w, req, from, digest, now, opts, limits, game_addr),
    };
    let done = match result {
        Ok(done) => done,
        Err(refusal) => return mail.refuse(w, opts, refusal, "press", "nothing was relayed"),
    };
    let accepted = crate::pipeline::inbox::Fate::Accepted {
        player: done.player.clone(),
        replaced: None,
    };
    if opts.may_reply.is_none_or(|f| f(from, &accepted)) {
        mail.reply(w, &format!("press #{}", done.n), &done.ack)?;
    }
    Ok(Answered {
        what: done.what,
        player: Some(done.player),
        ok: true,
        anonymous: done.anonymous,
        throttled: false,
        command: false,
    })
}

/// Answer a `mute` / `unmute` mail: check the password, change the
/// player's mutes (`press/mutes.json`, written whole), and reply with
/// whom they have muted now. The reply says the state, not the change,
/// so a mail judged again after a crash gets the same reply (and the
/// outbox sends it once).
fn mute(w: &mut Writing, req: &MuteRequest, mail: &Mail, opts: &Options) -> Result<Answered> {
    let word = if req.on { "mute" } else { "unmute" };
    let (player, state) = match set_mutes(w, req, mail.from, opts, word) {
        Ok(done) => done,
        Err(refusal) => return mail.refuse(w, opts, refusal, word, "nothing was changed"),
    };
    mail.reply(w, word, &format!("{state}\n"))?;
    Ok(Answered {
        // The log and the status page are the moderator's; they still do
        // not need whom.
        what: format!("{word}: the mutes of {player} set"),
        player: Some(player),
        ok: true,
        anonymous: false,
        throttled: false,
        command: true,
    })
}

/// The checks and the change of a `mute` / `unmute` mail ([`mute`]): the
/// player, and the sentence telling whom they have muted now.
fn set_mutes(
    w: &Writing,
    req: &MuteRequest,
    from: &str,
    opts: &Options,
    word: &str,
) -> std::result::Result<(String, String), Refusal> {
    let h = w.game.head();
    let player = authenticate(w, &req.player, &req.password, from, opts, word)?;
    let rules = press::rules_of(&w.store, &w.game).map_err(|e| (e.to_string(), None, false))?;
    if rules.kind == "none" {
        return Err((
            format!(
                "this game allows no press, so there is nobody to mute (game {}'s rules, chosen at its start: {})",
                h.id,
                press::describe(&rules)
            ),
            Some(player),
            false,
        ));
    }
    check_muted(w, req, &player, word)?;
    let internal = |e: crate::error::Error| (e.to_string(), Some(player.clone()), false);
    let mut mutes = crate::pipeline::mutes::Mutes::load(&w.store, &w.game).map_err(internal)?;
    let others = if req.all {
        mutes.of(&player)
    } else {
        req.others.clone()
    };
    let before = mutes.clone();
    mutes.set(&player, &others, req.on);
    if mutes != before {
        mutes.save(&w.store).map_err(internal)?;
    }
    let now_muted = mutes.of(&player);
    let state = if now_muted.is_empty() {
        "You have muted nobody: press from every player reaches you.".to_string()
    } else {
        format!(
            "You have muted {}: their press, anonymous or not, is not relayed to you (a player you muted who writes to you by name is told so; an answer to your anonymous press is not relayed to you either, and its writer is not told). `unmute {}` takes it back.",
            now_muted.join(", "),
            now_muted[0]
        )
    };
    Ok((player, state))
}

/// Refuse a `mute` / `unmute` mail naming the player themself or anyone
/// who is not a player of the game.
fn check_muted(
    w: &Writing,
    req: &MuteRequest,
    player: &str,
    word: &str,
) -> std::result::Result<(), Refusal> {
    let players = w.game.players();
    let mut bad = Vec::new();
    for o in &req.others {
        if *o == player {
            bad.push(format!("{o} is you"));
        } else if !players.contains(o) {
            bad.push(format!(
                "`{}` is not a player of this game",
                o.chars().take(32).collect::<String>()
            ));
        }
    }
    if bad.is_empty() {
        return Ok(());
    }
    let others: Vec<&str> = players
        .iter()
        .filter(|p| **p != player)
        .map(String::as_str)
        .collect();
    Err((
        format!(
            "{}: write `{word} PLAYER, PLAYER` with players of {} ({})",
            bad.join("; "),
            w.game.head().id,
            others.join(", ")
        ),
        Some(player.to_string()),
        false,
    ))
}

struct Relayed {
    n: u32,
    player: String,
    anonymous: bool,
    what: String,
    ack: String,
}

type Refusal = (String, Option<String>, bool);

/// The player a mail is from: named, or the one whose own address sent
/// it. `line`: the mail's first word (`press`, `mute`), for the reply.
fn who(
    w: &Writing,
    named: &Option<String>,
    from: &str,
    line: &str,
) -> std::result::Result<String, Refusal> {
    if let Some(p) = named {
        return Ok(p.clone());
    }
    let h = w.game.head();
    let own: Vec<&str> = h
        .players
        .iter()
        .filter(|p| {
            p.email
                .as_deref()
                .is_some_and(|e| !from.is_empty() && e.eq_ignore_ascii_case(from))
        })
        .map(|p| p.id.as_str())
        .collect();
    match own.as_slice() {
        [one] => Ok(one.to_string()),
        _ => Err((
            format!(
                "say who you are: a line `player = \"YOUR-PLAYER-ID\"` ({}) under the `{line}` line",
                w.game.players().join(", ")
            ),
            None,
            false,
        )),
    }
}

/// The player a mail is from ([`who`]), their password checked as an
/// order mail's is (the guard counts the checks).
fn authenticate(
    w: &Writing,
    named: &Option<String>,
    password: &Option<String>,
    from: &str,
    opts: &Options,
    line: &str,
) -> std::result::Result<String, Refusal> {
    let typed = who(w, named, from, line)?;
    // Ids are lowercase: `Red` is red.
    let player = typed.to_ascii_lowercase();
    let h = w.game.head();
    let Some(seat) = h.player_index(&player) else {
        return Err((w.game.not_a_player(&typed), None, false));
    };
    let Some(password) = password else {
        return Err((
            format!("your password is missing: a line `password = \"YOUR-PASSWORD\"` under the `{line}` line (as in your order form)"),
            Some(player),
            false,
        ));
    };
    let stored = h.players[seat].password.clone();
    let verdict = match opts.guard {
        Some(g) => g.check(&player, from, password, &stored),
        None if crate::auth::matches(password, &stored) => Verdict::Right,
        None => Verdict::Wrong,
    };
    match verdict {
        Verdict::Right => Ok(player),
        Verdict::Wrong => Err((
            format!("the password for {player} is not right"),
            Some(player),
            false,
        )),
        Verdict::Throttled => Err((
            format!("too many wrong passwords for {player} in the last hour; the moderator has been told"),
            Some(player),
            true,
        )),
    }
}

/// The press a `press reply` answers: the one whose mail to `player` the
/// reply names (In-Reply-To, References), else `press #N` in its subject
/// if that press went to `player`.
fn answered(
    w: &Writing,
    req: &Request,
    player: &str,
) -> Result<std::result::Result<Kept, Refusal>> {
    let h = w.game.head();
    let all = press::all_kept(&w.game, &w.store)?;
    let went_to = |k: &Kept| {
        let answered = k
            .answers
            .and_then(|n| all.iter().find(|(a, _)| a.entry.n == n).map(|(a, _)| a));
        press::recipients(k, answered).iter().any(|r| r == player)
    };
    for r in &req.refs {
        let r = r.trim_matches(['<', '>']);
        if let Some((k, _)) = all
            .iter()
            .find(|(k, _)| press::message_id(&h.id, k, player) == r)
        {
            return Ok(Ok(k.clone()));
        }
    }
    if let Some(n) = req.subject_n {
        if let Some((k, _)) = all.iter().find(|(k, _)| k.entry.n == n && went_to(k)) {
            return Ok(Ok(k.clone()));
        }
    }
    Ok(Err((
        format!("`press reply` answers a press mail you got: reply to that mail (its subject names `press #N`), or write `press to PLAYER` ({})", w.game.players().join(", ")),
        Some(player.to_string()),
        false,
    )))
}

/// Relay a press mail: the sender's password and the press rules
/// checked, the press recorded, one mail queued to each recipient, and
/// the acknowledgement to the sender written. A mail recorded already (a
/// pass cut short after the record) is queued again, not checked again.
#[allow(clippy::too_many_arguments)]
fn relay(
    w: &mut Writing,
    req: &Request,
    from: &str,
    digest: &str,
    now: &str,
    opts: &Options,
    limits: Limits,
    game_addr: &str,
) -> std::result::Result<Relayed, Refusal> {
    let internal = |e: crate::error::Error| (e.to_string(), None, false);
    let player = authenticate(w, &req.player, &req.password, from, opts, "press")?;
    let id = press::id_of(digest);
    let recorded = press::entries(&w.store, &w.game)
        .map_err(internal)?
        .into_iter()
        .any(|(e, _)| e.id == id);
    // The press this one answers, and its recipients.
    let (answers, answered_kept) = match &req.to {
        None => match answered(w, req, &player).map_err(internal)? {
            Ok(k) => (Some(k.entry.n), Some(k)),
            Err(r) => return Err(r),
        },
        Some(_) => (None, None),
    };
    let (to_entry, to_real, withheld) = if recorded {
        (Vec::new(), Vec::new(), Vec::new())
    } else {
        within_limits(w, req, &player, now, limits)?;
        new_recipients(w, req, &player, answered_kept.as_ref(), now)?
    };
    let (kept, hash) = crate::pipeline::relay::record(
        w,
        &crate::pipeline::relay::Relay {
            sender: &player,
            to: to_entry,
            anonymous: req.anonymous,
            answers,
            text: &req.text,
            mail_sha256: digest,
            withheld: withheld.clone(),
        },
        now,
    )
    .map_err(internal)?;
    let real = if recorded {
        let all = press::all_kept(&w.game, &w.store).map_err(internal)?;
        let a = kept.answers.and_then(|n| {
            all.into_iter()
                .find(|(a, _)| a.entry.n == n)
                .map(|(a, _)| a)
        });
        press::recipients(&kept, a.as_ref())
    } else {
        to_real
    };
    let (mailed, not_mailed) =
        crate::pipeline::relay::queue(w, &kept, &hash, &real, game_addr).map_err(internal)?;
    Ok(Relayed {
        n: kept.entry.n,
        player,
        anonymous: kept.anonymous,
        what: for_the_log(&kept, &mailed),
        ack: greeted(&req.greeting) + &acknowledgement(w, &kept, &hash, &not_mailed),
    })
}

/// Refuse press with no text, longer than the host relays, or past the
/// sender's press of the last 24 hours.
fn within_limits(
    w: &Writing,
    req: &Request,
    player: &str,
    now: &str,
    limits: Limits,
) -> std::result::Result<(), Refusal> {
    let internal = |e: crate::error::Error| (e.to_string(), None, false);
    if req.text.is_empty() {
        return Err((
            "there is no text under the `press`, `player` and `password` lines: nothing to relay"
                .into(),
            Some(player.to_string()),
            false,
        ));
    }
    if req.text.len() as u64 > limits.max_bytes {
        return Err((
            format!(
                "the text is {} bytes; this host relays press of at most {} bytes (host.toml: press_max_bytes): send it in parts",
                req.text.len(),
                limits.max_bytes
            ),
            Some(player.to_string()),
            false,
        ));
    }
    let day = crate::time::parse_time(now).map_err(|e| (e, None, false))?;
    let sent_today = press::all_kept(&w.game, &w.store)
        .map_err(internal)?
        .iter()
        .filter(|(k, _)| {
            k.sender == player
                && crate::time::parse_time(&k.entry.at)
                    .is_ok_and(|t| (day - t).num_seconds() < 86_400)
        })
        .count();
    if sent_today as u64 >= limits.per_day as u64 {
        return Err((
            format!(
                "you have sent {sent_today} press mails in the last 24 hours, this host's limit (host.toml: press_per_day = {}); write again later",
                limits.per_day
            ),
            Some(player.to_string()),
            false,
        ));
    }
    Ok(())
}

/// The players a press entry names, those it is mailed to, and those
/// who muted the sender (and get nothing).
type Recipients = (Vec<String>, Vec<String>, Vec<String>);

/// Whom new press goes to, by the game's press rules and the players'
/// mutes ([`Recipients`]).
fn new_recipients(
    w: &Writing,
    req: &Request,
    player: &str,
    answered_kept: Option<&Kept>,
    now: &str,
) -> std::result::Result<Recipients, Refusal> {
    let internal = |e: crate::error::Error| (e.to_string(), None, false);
    let to = match (&req.to, answered_kept) {
        (Some(t), _) => t.clone(),
        (None, Some(k)) => To::Players(vec![k.sender.clone()]),
        (None, None) => To::All,
    };
    let rules = press::rules_of(&w.store, &w.game).map_err(internal)?;
    let real = match press::allowed(&w.game, &rules, player, &to, req.anonymous, now) {
        Ok(r) => r,
        // Answering one's own anonymous press: refused without saying why
        // it is one's own to anyone else (only the sender reads this).
        Err(why) => return Err((why, Some(player.to_string()), false)),
    };
    // Mutes (docs/host.md, "Muting a player"): a player who muted the
    // sender gets nothing from them, anonymous or not.
    let mutes = crate::pipeline::mutes::Mutes::load(&w.store, &w.game).map_err(internal)?;
    let (withheld, real): (Vec<String>, Vec<String>) =
        real.into_iter().partition(|r| mutes.muted(r, player));
    match answered_kept {
        // An answer to anonymous press: its entry names nobody, and its
        // writer is told nothing of a mute, which would tell them who the
        // anonymous sender is. It is kept, and not relayed.
        Some(k) if k.anonymous => Ok((Vec::new(), real, withheld)),
        // Otherwise the sender is told plainly, and the entry names only
        // the players it was relayed to: a muting player, who may read
        // the game file, finds no press to them they never got (which
        // would tell them who an anonymous one came from).
        _ if real.is_empty() => Err((
            format!(
                "{} muted you: nothing was relayed (a player who mutes you gets no press from you, anonymous or not, until they write `unmute {player}`)",
                if withheld.len() == 1 {
                    format!("{} has", withheld[0])
                } else {
                    format!("{} have", withheld.join(", "))
                }
            ),
            Some(player.to_string()),
            false,
        )),
        _ => Ok((real.clone(), real, withheld)),
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
fn acknowledgement(w: &Writing, kept: &Kept, hash: &str, not_mailed: &[String]) -> String {
    let shown_to = if kept.entry.to.is_empty() {
        "the anonymous sender of the press you answered".to_string()
    } else {
        kept.entry.to.join(", ")
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
