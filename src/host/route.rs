//! Routing: which game a mail is for, and whether it deserves an answer at
//! all.
//!
//! A mail goes to game `G` by plus-addressing, `local+G@domain` in
//! `Delivered-To`, `X-Original-To`, `To` or `Cc` (in that order, the first
//! of the host's plus addresses wins), or, failing that, by a `[G]` tag in
//! its subject (herald's report mails carry `[G]`, so a reply routes). `G`
//! must be a valid name (`crate::names`) and a game folder `DIR/G/` whose
//! `game.jsonl` names `G` as its id; anything else is mail for no game.
//!
//! No mail loops: a mail from the host's own address (plain or plus), a
//! bounce (an empty `Return-Path`, a sender `MAILER-DAEMON@…` or
//! `postmaster@…`, a delivery report) or an automatic mail
//! (`Auto-Submitted` other than `no`, `Precedence: bulk/junk/list`) is
//! never answered and never handled: it is logged and marked handled.

use super::config::HostAddress;
use super::layout::{HostDir, RESERVED};
use crate::names::{self, Name};
use crate::store::GameDir;
use mail_parser::Message;
use std::path::Path;

/// Where a mail goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// To this game (a folder `DIR/<game>/` holding its game).
    Game(Name),
    /// For no game (no tag, or a tag naming no game here): answered from
    /// `DIR/outbox/` with how to address a game. `tag` is what the mail
    /// named, if anything.
    NoGame { tag: Option<String> },
    /// Not answered, not handled: a bounce, an automatic mail, the host's
    /// own mail. `why` is for the log.
    Ignore { why: String },
}

/// The header values named `name` (case-insensitive), raw.
fn raw_headers<'a>(m: &'a Message, name: &str) -> Vec<&'a str> {
    m.headers_raw()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
        .collect()
}

/// Bare addresses in a raw header value: `<a@b>` pieces, else the
/// whitespace- and comma-separated words holding `@`.
fn addresses(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = raw;
    while let Some(i) = rest.find('<') {
        let after = &rest[i + 1..];
        let Some(j) = after.find('>') else { break };
        out.push(after[..j].trim().to_string());
        rest = &after[j + 1..];
    }
    if out.is_empty() {
        out.extend(
            raw.split(|c: char| c == ',' || c.is_whitespace())
                .filter(|w| w.contains('@'))
                .map(|w| w.trim_matches(|c| c == '"' || c == '\'').to_string()),
        );
    }
    out
}

/// Every recipient address the mail names, in routing order.
fn recipients(m: &Message) -> Vec<String> {
    let mut out = Vec::new();
    for h in ["Delivered-To", "X-Original-To", "To", "Cc"] {
        for v in raw_headers(m, h) {
            out.extend(addresses(v));
        }
    }
    out
}

/// The `[TAG]` tags of a subject, in order.
pub fn subject_tags(subject: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = subject;
    while let Some(i) = rest.find('[') {
        let after = &rest[i + 1..];
        let Some(j) = after.find(']') else { break };
        out.push(after[..j].trim());
        rest = &after[j + 1..];
    }
    out
}

/// Why a mail must not be answered (a bounce, an automatic mail, the
/// host's own), or `None`.
pub fn no_reply(m: &Message, host: &HostAddress) -> Option<String> {
    for v in raw_headers(m, "Return-Path") {
        let v = v.trim();
        if v == "<>" || v.is_empty() {
            return Some("a bounce (empty Return-Path)".into());
        }
    }
    for v in raw_headers(m, "Auto-Submitted") {
        let v = v.trim().to_ascii_lowercase();
        if !v.starts_with("no") {
            return Some(format!("an automatic mail (Auto-Submitted: {v})"));
        }
    }
    for v in raw_headers(m, "Precedence") {
        let v = v.trim().to_ascii_lowercase();
        if ["bulk", "junk", "list"].contains(&v.as_str()) {
            return Some(format!("an automatic mail (Precedence: {v})"));
        }
    }
    let ct = raw_headers(m, "Content-Type")
        .first()
        .map(|v| v.to_ascii_lowercase())
        .unwrap_or_default();
    if ct.contains("multipart/report") {
        return Some("a delivery or read report".into());
    }
    let from = crate::pipeline::inbox::sender(Some(m));
    if from.is_empty() {
        return Some("no sender address".into());
    }
    let local = from.rsplit_once('@').map(|(l, _)| l).unwrap_or(&from);
    if local.eq_ignore_ascii_case("mailer-daemon") || local.eq_ignore_ascii_case("postmaster") {
        return Some(format!("a bounce (from {from})"));
    }
    if from.eq_ignore_ascii_case(&host.plain()) || host.tag_of(&from).is_some() {
        return Some(format!("from the host's own address ({from})"));
    }
    None
}

/// What a game folder's head record says of the game, read from its first
/// line without checking the file (for routing and the log's labels; every
/// command that acts on the game checks it whole).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Peek {
    pub id: String,
    #[serde(default)]
    pub players: Vec<PeekPlayer>,
}

#[derive(Debug, Clone, serde::Deserialize)]
pub struct PeekPlayer {
    pub id: String,
    /// The player's address: the head's (format 4 and older), or the game
    /// folder's secrets file's (format 5, [`peek`]).
    #[serde(default)]
    pub email: Option<String>,
    /// Format 5: what binds the address in the game file.
    #[serde(default)]
    pub address_sha256: Option<String>,
}

/// The head record of a game folder's `game.jsonl`, read from its first
/// line, or `None` when it does not read; the players' addresses a game
/// file of format 5 binds without holding, from the folder's secrets file.
pub fn peek(folder: &Path) -> Option<Peek> {
    let mut head = head_line(folder)?;
    if head
        .players
        .iter()
        .any(|p| p.email.is_none() && p.address_sha256.is_some())
    {
        let dir = crate::store::GameDir::at(folder);
        if let Ok(s) = crate::store::Secrets::read(&dir.secrets()) {
            for p in &mut head.players {
                if let Some(c) = &p.address_sha256 {
                    p.email = s.address_of(&p.id, c).map(|a| a.address.clone());
                }
            }
        }
    }
    Some(head)
}

/// The head record as its first line holds it (no address of format 5).
fn head_line(folder: &Path) -> Option<Peek> {
    use std::io::{BufRead, Read};
    #[derive(serde::Deserialize)]
    struct First {
        head: Peek,
    }
    let f = std::fs::File::open(crate::store::GameDir::at(folder).game_file()).ok()?;
    let mut line = Vec::new();
    std::io::BufReader::new(f.take(crate::store::limits::GAME_FILE))
        .read_until(b'\n', &mut line)
        .ok()?;
    serde_json::from_slice::<First>(&line).ok().map(|f| f.head)
}

/// The id a game folder's `game.jsonl` names, read from its first line
/// (the head record), or `None` when it does not read.
pub fn game_id_of(folder: &Path) -> Option<String> {
    head_line(folder).map(|p| p.id)
}

/// Is `tag` a game of `host_dir`: a valid name, a folder holding a
/// game.jsonl that names it?
pub fn is_game(host_dir: &Path, tag: &str) -> Option<Name> {
    let name = Name::new("game id", tag).ok()?;
    let folder = super::layout::HostDir::at(host_dir).game(&name);
    (game_id_of(folder.root()).as_deref() == Some(name.as_str())).then_some(name)
}

/// Where the mail `m` goes. Tags are compared in lowercase (game ids are
/// lowercase; mail programs may change the case of an address).
pub fn route(m: &Message, host: &HostAddress, host_dir: &Path) -> Route {
    if let Some(why) = no_reply(m, host) {
        return Route::Ignore { why };
    }
    let mut named = None;
    for a in recipients(m) {
        if let Some(tag) = host.tag_of(&a) {
            let tag = tag.to_ascii_lowercase();
            if let Some(g) = is_game(host_dir, &tag) {
                return Route::Game(g);
            }
            named.get_or_insert(tag);
        }
    }
    if let Some(s) = m.subject() {
        for tag in subject_tags(s) {
            let tag = tag.to_ascii_lowercase();
            if !names::valid(&tag) {
                continue;
            }
            if let Some(g) = is_game(host_dir, &tag) {
                return Route::Game(g);
            }
            named.get_or_insert(tag);
        }
    }
    Route::NoGame { tag: named }
}

/// The games in `dir`: subfolders with a valid name holding game.jsonl.
/// Folders whose game.jsonl names another id are returned as problems.
pub fn list_games(dir: &Path) -> (Vec<Name>, Vec<String>) {
    let host = HostDir::at(dir);
    let mut games = Vec::new();
    let mut problems = Vec::new();
    let Ok(list) = std::fs::read_dir(dir) else {
        return (games, vec![format!("{}: cannot be read", dir.display())]);
    };
    let mut folders: Vec<(String, std::path::PathBuf)> = list
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| Some((e.file_name().to_str()?.to_string(), e.path())))
        .filter(|(n, _)| !RESERVED.contains(&n.as_str()) && !n.starts_with('.'))
        .collect();
    folders.sort();
    for (n, path) in folders {
        if !GameDir::at(&path).game_file().is_file() {
            continue;
        }
        let Ok(name) = Name::new("game", &n) else {
            problems.push(format!(
                "folder {n}: not a game id ({}); it gets no mail",
                names::RULE
            ));
            continue;
        };
        match game_id_of(host.game(&name).root()) {
            Some(id) if id == n => games.push(name),
            Some(id) => problems.push(format!(
                "folder {n}: its game.jsonl is game {id}; a game's folder must be named by its id (rename it {id}); it gets no mail"
            )),
            None => problems.push(format!(
                "folder {n}: its game.jsonl does not read; it gets no mail"
            )),
        }
    }
    (games, problems)
}
