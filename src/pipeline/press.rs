//! Press: messages between players, relayed by the host from the game's
//! address under the game's press rules (docs/host.md, "Press").
//!
//! A relayed message is kept twice: its text in the game folder
//! (`press/<id>.json`, 0600, never in the game file), and a signed entry
//! (`press`: its number, sender, recipients, time and a salted sha256 of
//! the text) that the recipients' mails name, so that `herald verify
//! --witness` proves a kept press mail was relayed as it reads.
//!
//! Where the rules and entries live ([`Home`]): in a game begun with
//! format 3's press, the rules are in the genesis entry (`press`) and each
//! press is an entry of the game file, appended under the game's lock and
//! committed as every change is. Games begun before that (format 2, and
//! format-3 games of the herald in between) keep theirs in the folder, as
//! they were written: the rules in `press/rules.json`, signed at `new`,
//! and the entries as lines of the game file's own entry form in
//! `press/log.jsonl`, chained from the game's genesis entry. They stay
//! there, also after `herald convert` (docs/store.md says why).
//!
//! The order of writes makes a relay idempotent: the press file, then the
//! entry (the commit point), then one mail per recipient queued
//! in the outbox by a Message-ID made from the press and the recipient; a
//! run cut short anywhere is completed by judging the mail again, which
//! finds the entry by its id and only queues the mails again (the outbox
//! sends each Message-ID at most once).

use super::loaded::Loaded;
use crate::chain::body::{Body, PressEntry, PressRules};
use crate::chain::canon::{canonical, sha256_lines};
use crate::chain::keys::Domain;
pub(crate) use crate::chain::record::EntryLine;
use crate::error::{Error, Result};
use crate::mail::eml;
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// The press kinds a game may choose at `new`.
pub const KINDS: [&str; 4] = crate::chain::body::PRESS_KINDS;
/// What `--press-reveal` accepts.
pub const REVEALS: [&str; 2] = crate::chain::body::PRESS_REVEALS;
/// No press text is longer than this, whatever host.toml says (bytes).
pub const MAX_TEXT: usize = 64 * 1024;

/// `new`'s press flags, as given.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `--press none|public|private|grey`.
    pub kind: Option<String>,
    /// `--press-while-resolving yes|no` (default yes).
    pub while_resolving: Option<String>,
    /// `--press-after-end yes|no` (default yes).
    pub after_end: Option<String>,
    /// `--press-reveal end|never` (default never).
    pub reveal: Option<String>,
}

fn yes_no(flag: &str, v: &Option<String>, default: bool, problems: &mut Vec<String>) -> bool {
    match v.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None => default,
        Some("yes") => true,
        Some("no") => false,
        Some(other) => {
            problems.push(format!(
                "{flag} {}: say yes or no",
                other.chars().take(32).collect::<String>()
            ));
            default
        }
    }
}

impl Settings {
    /// The rules these flags choose (`None`: no `--press` flag at all, so
    /// the game has no press), or every problem with them.
    pub fn rules(&self) -> std::result::Result<Option<PressRules>, Vec<String>> {
        let mut problems = Vec::new();
        let Some(kind) = &self.kind else {
            for (flag, v) in [
                ("--press-while-resolving", &self.while_resolving),
                ("--press-after-end", &self.after_end),
                ("--press-reveal", &self.reveal),
            ] {
                if v.is_some() {
                    problems.push(format!(
                        "{flag} needs --press {} (which press the game allows)",
                        KINDS.join("|")
                    ));
                }
            }
            return if problems.is_empty() {
                Ok(None)
            } else {
                Err(problems)
            };
        };
        let kind = kind.to_ascii_lowercase();
        if !KINDS.contains(&kind.as_str()) {
            problems.push(format!(
                "--press {}: the press kinds are {} (none: no press; public: to all only; private: to any players; grey: private, and anonymous allowed)",
                kind.chars().take(32).collect::<String>(),
                KINDS.join(", ")
            ));
        }
        let while_resolving = yes_no(
            "--press-while-resolving",
            &self.while_resolving,
            true,
            &mut problems,
        );
        let after_end = yes_no("--press-after-end", &self.after_end, true, &mut problems);
        let reveal = self
            .reveal
            .as_deref()
            .unwrap_or("never")
            .to_ascii_lowercase();
        if !REVEALS.contains(&reveal.as_str()) {
            problems.push(format!(
                "--press-reveal {}: say end (an archive for the public after the game may include the press) or never",
                reveal.chars().take(32).collect::<String>()
            ));
        }
        if problems.is_empty() {
            Ok(Some(PressRules {
                kind,
                while_resolving,
                after_end,
                reveal,
            }))
        } else {
            Err(problems)
        }
    }
}

/// `press/rules.json`: the rules `new` chose in games begun before the
/// genesis held them, bound to the game by its id and genesis entry and
/// signed with its key.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesFile {
    pub game: String,
    /// The hash of the game's genesis entry.
    pub genesis: String,
    pub rules: PressRules,
    pub signature: String,
}

fn rules_message(game: &str, genesis: &str, rules: &PressRules) -> String {
    format!("{game}\n{genesis}\n{}\n", canonical(rules))
}

/// The game's first genesis entry's hash ([`Loaded::first_genesis`]): what
/// a folder's press rules and log are bound to, also after `convert` took
/// the addresses out of the genesis.
pub(crate) fn genesis_hash(g: &Loaded) -> String {
    g.first_genesis()
}

/// No press: a game that chose none (or was begun before press existed).
pub fn no_press() -> PressRules {
    PressRules {
        kind: "none".into(),
        while_resolving: false,
        after_end: false,
        reveal: "never".into(),
    }
}

/// Where a game keeps its press rules and entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Home {
    /// The genesis entry holds the rules, the game file the entries.
    GameFile,
    /// `press/rules.json` and `press/log.jsonl`: a game begun before the
    /// game file held press.
    Folder,
}

/// Where game `g` keeps its press: in the folder if it was begun with
/// rules there (or has a press log there), else in the game file.
pub fn home(store: &Store, g: &Loaded) -> Home {
    if g.genesis.press.is_none()
        && (store.dir.press_rules().exists() || store.dir.press_log().exists())
    {
        Home::Folder
    } else {
        Home::GameFile
    }
}

/// A game's press rules: those `new` chose (in the genesis entry, or
/// signed in `press/rules.json`), or no press. A rules file that is not
/// this game's, or not signed by its key, is refused (never read as "no
/// press"), and so is one beside rules in the genesis.
pub fn rules_of(store: &Store, g: &Loaded) -> Result<PressRules> {
    let path = store.dir.press_rules();
    if let Some(r) = &g.genesis.press {
        if path.exists() || store.dir.press_log().exists() {
            return Err(Error::refused(format!(
                "{}: the game's rules and press are in its game file (entry 0, `press`); a press folder file beside them is not this game's (put there by hand?)",
                path.display()
            )));
        }
        return Ok(r.clone());
    }
    if !path.exists() {
        return Ok(no_press());
    }
    let t = crate::store::limits::read_text(
        &path,
        crate::store::limits::STORED_FILE,
        "a press rules file",
    )?;
    let f: RulesFile =
        serde_json::from_str(&t).map_err(|e| Error::refused(format!("{}: {e}", path.display())))?;
    let ok = f.game == g.head().id
        && f.genesis == genesis_hash(g)
        && g.key.verify(
            Domain::PressRules,
            rules_message(&f.game, &f.genesis, &f.rules).as_bytes(),
            &f.signature,
        )
        && KINDS.contains(&f.rules.kind.as_str())
        && REVEALS.contains(&f.rules.reveal.as_str());
    if !ok {
        return Err(Error::refused(format!(
            "{}: not this game's press rules signed by its key (changed by hand?)",
            path.display()
        )));
    }
    Ok(f.rules)
}

/// The rules in words, for reports, replies and `status`.
pub fn describe(r: &PressRules) -> String {
    let kind = match r.kind.as_str() {
        "public" => "public press only (to all players)",
        "private" => "press to all or to any players",
        "grey" => "press to all or to any players, anonymous allowed",
        _ => return "no press (players cannot write to each other through the host)".into(),
    };
    format!(
        "{kind}; {} while a turn is being resolved (after its deadline); {} after the game ends; the texts are {} for the public after the game",
        if r.while_resolving { "allowed" } else { "not" },
        if r.after_end { "allowed" } else { "not" },
        if r.reveal == "end" {
            "revealed"
        } else {
            "never revealed"
        }
    )
}

/// Whom a press mail is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum To {
    /// Every other player.
    All,
    /// These players.
    Players(Vec<String>),
}

/// The recipients of a press from `from` to `to` at `now`, or why the
/// game's rules (or the players named) refuse it: the reason names the
/// rule and what would be accepted.
///
/// Long (about 95 lines): each rule of the game's press in turn, then the
/// players named; a table of refusals.
pub fn allowed(
    g: &Loaded,
    r: &PressRules,
    from: &str,
    to: &To,
    anonymous: bool,
    now: &str,
) -> std::result::Result<Vec<String>, String> {
    let h = g.head();
    let rule = format!(
        "game {}'s rules, chosen at its start: {}",
        h.id,
        describe(r)
    );
    match r.kind.as_str() {
        "public" | "private" | "grey" => {}
        _ => return Err(format!("this game allows no press ({rule})")),
    }
    if r.kind == "public" && *to != To::All {
        return Err(format!(
            "this game allows public press only: write `press to all` ({rule})"
        ));
    }
    if anonymous && r.kind != "grey" {
        return Err(format!(
            "this game allows no anonymous press: leave out `anonymous` ({rule})"
        ));
    }
    if anonymous && h.format < crate::chain::ADDRESS_FORMAT {
        return Err(format!(
            "this game's file is of format {}, which cannot keep an anonymous sender from the recipients; until the moderator brings it to format {} (`herald convert`), write without `anonymous`",
            h.format,
            crate::chain::ADDRESS_FORMAT
        ));
    }
    if h.outcome.is_some() && !r.after_end {
        return Err(format!("the game is over ({rule})"));
    }
    if h.outcome.is_none() && !r.while_resolving {
        if let (Some(d), Ok(n)) = (&h.deadline, crate::time::parse_time(now)) {
            if crate::time::parse_time(d).is_ok_and(|d| n >= d) {
                return Err(format!(
                    "the deadline of turn {} ({}) has passed and the turn is being resolved; write again once the next report is out ({rule})",
                    h.turn,
                    crate::time::shown(d)
                ));
            }
        }
    }
    let ids = g.players();
    let list: Vec<String> = match to {
        // Anonymous press to all goes to every player, its sender too: a
        // list of all but one would name the one left out.
        To::All if anonymous => ids.clone(),
        To::All => ids.iter().filter(|p| *p != from).cloned().collect(),
        To::Players(named) => {
            let mut bad = Vec::new();
            for p in named {
                if p == from {
                    bad.push(format!("{p} is you"));
                } else if !ids.contains(p) {
                    bad.push(format!(
                        "`{}` is not a player of this game",
                        p.chars().take(32).collect::<String>()
                    ));
                }
            }
            if !bad.is_empty() {
                let others: Vec<&str> = ids
                    .iter()
                    .filter(|p| *p != from)
                    .map(String::as_str)
                    .collect();
                return Err(format!(
                    "{}: write `press to PLAYER, PLAYER` with players of {} ({}), or `press to all`",
                    bad.join("; "),
                    h.id,
                    others.join(", ")
                ));
            }
            // In seat order, each once; anonymous press that names every
            // other player goes to all, its sender too, as above.
            let everyone_else = ids.iter().filter(|x| *x != from).all(|x| named.contains(x));
            ids.iter()
                .filter(|p| named.contains(p) || (anonymous && everyone_else && *p == from))
                .cloned()
                .collect()
        }
    };
    if list.is_empty() {
        return Err("nobody to write to: the game has no other player".into());
    }
    Ok(list)
}

/// The text as it is relayed and hashed: lines without trailing blanks,
/// without blank lines at either end, joined by LF.
pub fn normalise(text: &str) -> String {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.trim_end_matches(['\r', ' ', '\t']))
        .collect();
    let start = lines.iter().position(|l| !l.is_empty()).unwrap_or(0);
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(start, |e| e + 1);
    lines[start..end.max(start)].join("\n")
}

/// The salted hash of a press text the log records.
pub fn text_sha256(nonce: &str, text: &str) -> String {
    sha256_lines(&[b"herald/press", nonce.as_bytes(), text.as_bytes()])
}

/// The hash that stood for an anonymous sender in the log of formats 3
/// and 4: salted with the nonce its recipients get, so that any of them
/// names the sender by trying every player id. Checked, never written.
pub fn sender_sha256(nonce: &str, player: &str) -> String {
    sha256_lines(&[b"herald/press sender", nonce.as_bytes(), player.as_bytes()])
}

/// What stands for an anonymous sender in the log from format 5 on
/// (`sender_commitment`): `lines("herald/press sender", opening, sender)`.
/// Hiding: without the opening (256 bits, the moderator's secret), trying
/// every player id tells nothing; binding: no other sender gives the same
/// digest (SHA-256). docs/trust.md, "Anonymous press".
pub fn sender_commitment(opening: &str, player: &str) -> String {
    sha256_lines(&[
        b"herald/press sender",
        opening.as_bytes(),
        player.as_bytes(),
    ])
}

/// The opening of anonymous press `id`'s sender commitment in game `game`
/// (64 hex digits): the game key's deterministic signature in its own
/// domain, hashed, so that only the key's holder makes it, and a record
/// made again after a crash is the same. Kept in the press's file
/// (`press/<id>.json`, 0600) and the sender's own copy; never in a
/// recipient's mail or a published file, but where the game's rules
/// reveal press at the end.
pub fn opening(signer: &crate::chain::Signer, game: &str, id: &str) -> String {
    crate::chain::canon::sha256_hex(
        signer
            .sign(Domain::PressOpening, format!("{game}\n{id}\n").as_bytes())
            .as_bytes(),
    )
}

/// One relayed press as the game folder keeps it (`press/<id>.json`,
/// 0600): the entry's fields and what the log does not hold.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Kept {
    pub entry: PressEntry,
    /// The sender, also when anonymous.
    pub sender: String,
    pub anonymous: bool,
    /// The press this one answers (`press reply`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<u32>,
    pub nonce: String,
    /// Anonymous press (format 5): the opening of the entry's
    /// `sender_commitment` ([`opening`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
    pub text: String,
    /// sha256 of the mail that carried it.
    pub mail_sha256: String,
    /// The players it was not relayed to because they had muted its
    /// sender (`press/mutes.json`); absent in files written before mutes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withheld: Vec<String>,
}

/// The press log's lines as stored (none yet: empty).
pub(crate) fn log_lines(store: &Store) -> Result<Vec<EntryLine>> {
    let path = store.dir.press_log();
    if !path.exists() {
        return Ok(Vec::new());
    }
    let t = crate::store::limits::read_text(&path, crate::store::limits::GAME_FILE, "a press log")?;
    t.lines()
        .enumerate()
        .map(|(i, l)| {
            EntryLine::parse(l)
                .map_err(|e| Error::refused(format!("{} line {}: {e}", path.display(), i + 1)))
        })
        .collect()
}

/// The press entries, with each one's hash, checked, from where the game
/// keeps them ([`home`]).
pub fn entries(store: &Store, g: &Loaded) -> Result<Vec<(PressEntry, String)>> {
    match home(store, g) {
        Home::GameFile => Ok(in_game_file(g)?),
        Home::Folder => folder_entries(store, g),
    }
}

/// The press entries of the game file (whose chain and signatures
/// `Loaded` checked), numbered in order.
pub fn in_game_file(g: &Loaded) -> Result<Vec<(PressEntry, String)>> {
    let mut out = Vec::new();
    for (i, e) in g.record.entries.iter().enumerate().skip(1) {
        // A cheap look first: a phase's body is large, and only an entry
        // of kind press holds this (a string's quotes are escaped).
        if !e.body.contains("\"kind\":\"press\"") {
            continue;
        }
        match e.decode() {
            Ok(Body::Press(p)) if p.n as usize == out.len() + 1 => out.push((p, e.hash.clone())),
            Ok(Body::Press(p)) => {
                return Err(Error::refused(format!(
                    "{}: press number {} where {} comes next",
                    e.describe(i),
                    p.n,
                    out.len() + 1
                )))
            }
            _ => {}
        }
    }
    Ok(out)
}

/// The press log's entries (`press/log.jsonl`), each chained to the one
/// before it (the first to the game's genesis entry), its hash right,
/// signed with the game's key, numbered in order. Any fault refuses the
/// whole log, naming the line.
fn folder_entries(store: &Store, g: &Loaded) -> Result<Vec<(PressEntry, String)>> {
    let path = store.dir.press_log();
    let mut prev = genesis_hash(g);
    let mut out = Vec::new();
    for (i, e) in log_lines(store)?.into_iter().enumerate() {
        let bad = |why: &str| {
            Error::refused(format!(
                "{} line {}: {why} (changed by hand?)",
                path.display(),
                i + 1
            ))
        };
        if e.prev != prev || !e.hash_ok() || !e.sig_ok(&g.key) {
            return Err(bad(
                "not chained to the line before it and signed with the game's key",
            ));
        }
        match e.decode() {
            Ok(Body::Press(p)) if p.n as usize == i + 1 => {
                prev = e.hash.clone();
                out.push((p, e.hash));
            }
            _ => return Err(bad("not press number {} in order")),
        }
    }
    Ok(out)
}

/// The press id of a mail (sha256 `mail_sha256`).
pub fn id_of(mail_sha256: &str) -> String {
    mail_sha256.chars().take(32).collect()
}

/// The kept press `id` (its file), if there is one.
pub fn read_kept(w: &Store, id: &str) -> Result<Option<Kept>> {
    if id.len() != 32 || !id.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let path = w.dir.press_file(id);
    match crate::store::limits::read_text(&path, crate::store::limits::STORED_FILE, "a press file")
    {
        Ok(t) => serde_json::from_str(&t)
            .map(Some)
            .map_err(|e| Error::refused(format!("{}: {e}", path.display()))),
        Err(_) if !path.exists() => Ok(None),
        Err(e) => Err(e),
    }
}

/// Every kept press of the game, by number.
pub fn all_kept(g: &Loaded, store: &Store) -> Result<Vec<(Kept, String)>> {
    let mut out = Vec::new();
    for (e, hash) in entries(store, g)? {
        match read_kept(store, &e.id)? {
            Some(k) if k.entry == e => out.push((k, hash)),
            Some(_) => {
                return Err(Error::refused(format!(
                    "{}: it is not the press the log records as #{} (changed by hand?)",
                    store.dir.press_file(&e.id).display(),
                    e.n
                )))
            }
            None => {
                return Err(Error::refused(format!(
                    "{}: missing: the log records press #{} there",
                    store.dir.press_file(&e.id).display(),
                    e.n
                )))
            }
        }
    }
    Ok(out)
}

const WITNESS_OPEN: &str = "----- HERALD PRESS -----";
const WITNESS_CLOSE: &str = "----- END HERALD PRESS -----";
const TEXT_OPEN: &str = "----- PRESS TEXT -----";
const TEXT_CLOSE: &str = "----- END PRESS TEXT -----";

/// How the sender of `k` is shown to a recipient: `red (Ann)`, or
/// `anonymous`.
pub fn shown_sender(g: &Loaded, k: &Kept) -> String {
    if k.anonymous {
        return "anonymous".into();
    }
    let h = g.head();
    h.players
        .iter()
        .find(|p| p.id == k.sender)
        .map_or_else(|| k.sender.clone(), |p| p.shown())
}

/// The players press `k` went to, as its sender wrote them and its
/// recipients read them: `blue (Bob), green`, each id with the display
/// name beside it where the name is not the id; `you` for an answer to
/// anonymous press (its one recipient).
pub fn shown_to(g: &Loaded, k: &Kept) -> String {
    if k.entry.to.is_empty() {
        return "you".into();
    }
    let players = &g.head().players;
    k.entry
        .to
        .iter()
        .map(|id| {
            players
                .iter()
                .find(|p| &p.id == id)
                .map_or_else(|| id.clone(), |p| p.shown())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// How the sender of `k` is shown once the game's rules reveal its press
/// (a finished game's site, `reveal = end`): `red (Ann)`, and for
/// anonymous press `red (Ann), sent anonymously`.
pub fn revealed_sender(g: &Loaded, k: &Kept) -> String {
    let h = g.head();
    let named = match h.players.iter().find(|p| p.id == k.sender) {
        Some(p) if p.name != p.id => format!("{} ({})", p.id, p.name),
        _ => k.sender.clone(),
    };
    if k.anonymous {
        format!("{named}, sent anonymously")
    } else {
        named
    }
}

/// The block a relayed press mail ends with: what the log's entry `hash`
/// holds, and the nonce that salts the text's hash.
pub fn block(g: &Loaded, k: &Kept, hash: &str) -> String {
    let e = &k.entry;
    format!(
        "{WITNESS_OPEN}\ngame: {}\npress: {}\nturn: {}\nfrom: {}\nto: {}\nat: {}\nnonce: {}\ntext sha256: {}\nentry: {hash}\nkey: {}\n{WITNESS_CLOSE}\n",
        g.head().id,
        e.n,
        e.turn,
        e.from.as_deref().unwrap_or("anonymous"),
        if e.to.is_empty() {
            "the anonymous sender of the press answered".to_string()
        } else {
            e.to.join(", ")
        },
        e.at,
        k.nonce,
        e.text_sha256,
        g.head().key,
    )
}

/// The text of a relayed press mail to `recipient`.
pub fn relayed_text(g: &Loaded, k: &Kept, hash: &str, recipient: &str) -> String {
    let h = g.head();
    let e = &k.entry;
    let from = shown_sender(g, k);
    let to = shown_to(g, k);
    let answers = match k.answers {
        Some(n) => format!(" (an answer to press #{n})"),
        None => String::new(),
    };
    let back = if k.anonymous {
        "the anonymous sender".to_string()
    } else {
        k.sender.clone()
    };
    format!(
        "{title} — game {id}, turn {turn}\n\
         Press #{n} from {from} to {to}{answers}:\n\n\
         {TEXT_OPEN}\n{text}\n{TEXT_CLOSE}\n\n\
         To answer {back} alone, reply to this mail and write above the quoted text:\n\n\
         \x20   press reply\n\
         \x20   password = \"YOUR-PASSWORD\"\n\n\
         \x20   (your answer)\n\n\
         To write to others, send the game's address a mail whose first line is\n\
         `press to PLAYER, PLAYER` or `press to all`. The host relays press from its\n\
         own address: nobody sees anyone's mail address. You are {you}.\n\n\
         Keep this mail: `herald verify GAME --witness THIS-MAIL` proves the game's\n\
         log holds this press as it reads here.\n\n{block}",
        title = g.entry.title,
        id = h.id,
        turn = e.turn,
        n = e.n,
        text = k.text,
        block = block(g, k, hash),
        you = h
            .players
            .iter()
            .find(|p| p.id == recipient)
            .map_or_else(|| recipient.to_string(), |p| p.shown()),
    )
}

/// The sender's copy of press `k`: the text as relayed and the block; for
/// anonymous press of format 5, the opening of its sender commitment too,
/// with which the sender alone can prove it was theirs.
pub fn sender_copy(g: &Loaded, k: &Kept, hash: &str) -> String {
    let mut s = format!(
        "{TEXT_OPEN}\n{}\n{TEXT_CLOSE}\n\n{}",
        k.text,
        block(g, k, hash)
    );
    if let Some(b) = sender_block(g, k, hash) {
        s.push_str(&format!(
            "\nOnly you have the lines below: they prove you sent press #{}, to whomever you show\nthem. Without them nobody, the recipients included, can tell who sent it.\n{b}",
            k.entry.n
        ));
    }
    s
}

/// The block that opens anonymous press `k`'s sender commitment (format
/// 5): its sender and the opening.
fn sender_block(g: &Loaded, k: &Kept, hash: &str) -> Option<String> {
    let o = k.opening.as_ref().filter(|_| k.anonymous)?;
    Some(format!(
        "{SENDER_OPEN}\ngame: {game}\npress: {n}\nentry: {hash}\nsender: {sender}\nopening: {o}\n{SENDER_CLOSE}\n",
        n = k.entry.n,
        game = g.head().id,
        sender = k.sender,
    ))
}

/// What proves press `k` against the game file once its rules reveal it:
/// the text, its block (with the nonce) and, for anonymous press, the
/// block that opens its sender commitment. A finished game's site keeps
/// these (`press.txt`).
pub fn proof(g: &Loaded, k: &Kept, hash: &str) -> String {
    format!(
        "{TEXT_OPEN}\n{}\n{TEXT_CLOSE}\n\n{}{}",
        k.text,
        block(g, k, hash),
        sender_block(g, k, hash).unwrap_or_default()
    )
}

const SENDER_OPEN: &str = "----- HERALD PRESS SENDER -----";
const SENDER_CLOSE: &str = "----- END HERALD PRESS SENDER -----";

/// An opening of an anonymous press's sender commitment, as a sender's
/// copy holds it, or as a site of a finished game whose rules reveal
/// press lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    pub game: String,
    pub n: u32,
    /// The entry's hash (as the kept mail names it).
    pub entry: String,
    pub sender: String,
    pub opening: String,
}

/// Every sender block in `text`.
pub fn openings_in(text: &str) -> Vec<Opening> {
    let text = text.replace("\r\n", "\n");
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find(SENDER_OPEN) {
        let after = &rest[i + SENDER_OPEN.len()..];
        let Some(j) = after.find(SENDER_CLOSE) else {
            break;
        };
        let body = &after[..j];
        let field = |k: &str| {
            body.lines()
                .find_map(|l| {
                    l.trim_start_matches(['>', ' '])
                        .trim()
                        .strip_prefix(&format!("{k}: "))
                })
                .map(|v| v.trim().to_string())
                .unwrap_or_default()
        };
        out.push(Opening {
            game: field("game"),
            n: field("press").parse().unwrap_or(0),
            entry: field("entry"),
            sender: field("sender"),
            opening: field("opening"),
        });
        rest = &after[j + SENDER_CLOSE.len()..];
    }
    out
}

/// Check an opening against the game's press entries: `Ok(what it
/// proves)` or why it does not hold.
pub fn check_opening(
    g: &Loaded,
    logged: &[(PressEntry, String)],
    o: &Opening,
    // A String error: both sides are the sentence `verify --witness` prints.
) -> std::result::Result<String, String> {
    let h = g.head();
    if o.game != h.id {
        return Err(format!("it is for game {}, not {}", o.game, h.id));
    }
    let Some((e, _)) = logged.iter().find(|(e, _)| e.n == o.n) else {
        return Err(format!("the game holds no press #{}", o.n));
    };
    let Some(c) = &e.sender_commitment else {
        return Err(format!(
            "press #{} has no sender commitment to open (it is not anonymous press of format 5)",
            e.n
        ));
    };
    if sender_commitment(&o.opening, &o.sender) != *c {
        return Err(format!(
            "the opening does not open press #{}'s sender commitment for `{}`: it was changed, or names another sender",
            e.n,
            o.sender.chars().take(32).collect::<String>()
        ));
    }
    Ok(format!(
        "press #{} of game {} was sent by {} (its sender commitment opens)",
        e.n, h.id, o.sender
    ))
}

/// The Message-ID of press `k`'s mail to `recipient`.
pub fn message_id(game: &str, k: &Kept, recipient: &str) -> String {
    eml::message_id(game, &["press", &k.entry.id, recipient])
}

/// The recipients of `k` by player id: the entry's, or for an answer to
/// anonymous press (the entry names nobody), the answered press's sender;
/// never one it was withheld from (a player who had muted its sender).
pub fn recipients(k: &Kept, answered: Option<&Kept>) -> Vec<String> {
    let all = if k.entry.to.is_empty() {
        answered.map(|a| vec![a.sender.clone()]).unwrap_or_default()
    } else {
        k.entry.to.clone()
    };
    all.into_iter()
        .filter(|r| !k.withheld.contains(r))
        .collect()
}

/// A press witness block and the text above it, read from a kept mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Witness {
    pub game: String,
    pub n: u32,
    pub turn: u32,
    pub from: String,
    pub to: String,
    pub at: String,
    pub nonce: String,
    pub text_sha256: String,
    pub entry: String,
    pub key: String,
    /// The text between the press text markers, normalised.
    pub text: Option<String>,
}

/// Every press witness in `text` (a relayed press mail's text).
pub fn witnesses_in(text: &str) -> Vec<Witness> {
    let text = text.replace("\r\n", "\n");
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find(WITNESS_OPEN) {
        let before = &rest[..i];
        let after = &rest[i + WITNESS_OPEN.len()..];
        let Some(j) = after.find(WITNESS_CLOSE) else {
            break;
        };
        let body = &after[..j];
        let field = |k: &str| {
            body.lines()
                .find_map(|l| l.trim().strip_prefix(&format!("{k}: ")))
                .map(|v| v.trim().to_string())
                .unwrap_or_default()
        };
        let press_text = before.rfind(TEXT_OPEN).and_then(|a| {
            let t = &before[a + TEXT_OPEN.len()..];
            t.rfind(TEXT_CLOSE).map(|b| normalise(&t[..b]))
        });
        out.push(Witness {
            game: field("game"),
            n: field("press").parse().unwrap_or(0),
            turn: field("turn").parse().unwrap_or(u32::MAX),
            from: field("from"),
            to: field("to"),
            at: field("at"),
            nonce: field("nonce"),
            text_sha256: field("text sha256"),
            entry: field("entry"),
            key: field("key"),
            text: press_text,
        });
        rest = &after[j + WITNESS_CLOSE.len()..];
    }
    out
}

/// Check a press witness against the game: `Ok(what it proves)` or why
/// it does not hold (naming what differs).
pub fn check_witness(
    g: &Loaded,
    logged: &[(PressEntry, String)],
    w: &Witness,
    // A String error: both sides are the sentence `verify --witness` prints.
) -> std::result::Result<String, String> {
    let h = g.head();
    if w.game != h.id {
        return Err(format!("it is for game {}, not {}", w.game, h.id));
    }
    if w.key != h.key {
        return Err("it names another key than the game's".into());
    }
    let Some((e, _)) = logged.iter().find(|(_, hash)| *hash == w.entry).cloned() else {
        return Err(format!(
            "the game's press log holds no entry {}",
            w.entry.chars().take(64).collect::<String>()
        ));
    };
    let to = if e.to.is_empty() {
        "the anonymous sender of the press answered".to_string()
    } else {
        e.to.join(", ")
    };
    let from = e.from.clone().unwrap_or_else(|| "anonymous".into());
    for (what, kept, logged) in [
        ("press", w.n.to_string(), e.n.to_string()),
        ("turn", w.turn.to_string(), e.turn.to_string()),
        ("from", w.from.clone(), from),
        ("to", w.to.clone(), to),
        ("at", w.at.clone(), e.at.clone()),
        ("text sha256", w.text_sha256.clone(), e.text_sha256.clone()),
    ] {
        if kept != logged {
            return Err(format!(
                "its `{what}` reads `{}`, the log's press #{} says `{logged}`",
                kept.chars().take(80).collect::<String>(),
                e.n
            ));
        }
    }
    let Some(text) = &w.text else {
        return Err(format!(
            "the press text (between `{TEXT_OPEN}` and `{TEXT_CLOSE}`) is not in the mail"
        ));
    };
    if text_sha256(&w.nonce, text) != e.text_sha256 {
        return Err(format!(
            "the text of press #{} is not the text relayed: it was changed",
            e.n
        ));
    }
    Ok(format!(
        "press #{} of game {} (turn {}, from {}, {}), text as relayed",
        e.n,
        h.id,
        e.turn,
        e.from.as_deref().unwrap_or("anonymous"),
        e.at
    ))
}

/// The press each player got in the turn a report closes and since
/// (turns `turn - 1` and `turn`), in seat order, oldest first. Press an
/// answer to anonymous press went to is its anonymous sender's.
pub fn received_by_seat(store: &Store, g: &Loaded) -> Result<Vec<Vec<Kept>>> {
    let h = g.head();
    let from_turn = h.turn.saturating_sub(1);
    let logged = entries(store, g)?;
    let mut recent: Vec<Kept> = Vec::new();
    for (e, _) in logged
        .iter()
        .filter(|(e, _)| e.turn >= from_turn && e.turn <= h.turn)
    {
        match read_kept(store, &e.id)? {
            Some(k) if k.entry == *e => recent.push(k),
            _ => {
                return Err(Error::refused(format!(
                    "{}: missing or changed: the log records press #{} there",
                    store.dir.press_file(&e.id).display(),
                    e.n
                )))
            }
        }
    }
    let mut out = vec![Vec::new(); h.players.len()];
    for k in &recent {
        let answered = match k.answers {
            Some(n) if k.entry.to.is_empty() => match logged.iter().find(|(e, _)| e.n == n) {
                Some((e, _)) => read_kept(store, &e.id)?,
                None => None,
            },
            _ => None,
        };
        for r in recipients(k, answered.as_ref()) {
            if let Some(seat) = h.player_index(&r) {
                out[seat].push(k.clone());
            }
        }
    }
    Ok(out)
}

/// Fill each player's rendered report (seat order) with the press they
/// got ([`received_by_seat`]) and, where the game allows press, the
/// page's box that writes one: the page's press section and the text the
/// report mail shows above the report. Only a player's own press goes
/// into their report.
pub fn fill_reports(
    store: &Store,
    g: &Loaded,
    rendered: &mut [crate::report::Rendered],
) -> Result<()> {
    let rules = rules_of(store, g)?;
    let got = received_by_seat(store, g)?;
    for (seat, r) in rendered.iter_mut().enumerate() {
        fill(g, &rules, &got[seat], seat, r)?;
    }
    Ok(())
}

/// [`fill_reports`] for one player's report (`herald report --format
/// html|eml`), the same section and text the host's mail and page carry.
pub fn fill_report(
    store: &Store,
    g: &Loaded,
    seat: usize,
    r: &mut crate::report::Rendered,
) -> Result<()> {
    let rules = rules_of(store, g)?;
    let got = received_by_seat(store, g)?;
    fill(
        g,
        &rules,
        got.get(seat).map(Vec::as_slice).unwrap_or(&[]),
        seat,
        r,
    )
}

fn fill(
    g: &Loaded,
    rules: &PressRules,
    got: &[Kept],
    seat: usize,
    r: &mut crate::report::Rendered,
) -> Result<()> {
    let h = g.head();
    let open = rules.kind != "none" && (h.outcome.is_none() || rules.after_end);
    let you = &h.players[seat].id;
    let items: Vec<crate::report::PressItem> = got
        .iter()
        .map(|k| crate::report::PressItem {
            n: k.entry.n,
            turn: k.entry.turn,
            from: shown_sender(g, k),
            to: shown_to(g, k),
            at: k.entry.at.clone(),
            text: k.text.clone(),
        })
        .collect();
    let write = open.then(|| {
        let subject = format!("[{}] press", h.id);
        crate::report::PressBox {
            address: h.moderator.clone(),
            mailto: format!(
                "mailto:{}?subject={}",
                h.moderator.as_deref().unwrap_or(""),
                crate::report::url_component(&subject)
            ),
            subject,
            others: h.player_ids().into_iter().filter(|p| p != you).collect(),
            public_only: rules.kind == "public",
            grey: rules.kind == "grey",
            rules: describe(rules),
        }
    });
    let section = crate::report::press_html(&items, write.as_ref(), you)?;
    r.html = crate::report::with_press(&r.html, &section);
    r.press = crate::report::press_text(&items);
    Ok(())
}
