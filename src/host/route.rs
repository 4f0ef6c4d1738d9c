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
use crate::names::{self, Name};
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

pub use crate::requests::seats::{game_id_of, list_games, peek, Peek, PeekPlayer};

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
