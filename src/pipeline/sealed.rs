//! What a game file binds without showing it, opened with the game
//! folder's private part (docs/trust.md, "What the folder opens"): the
//! players' addresses (format 5: `address_sha256`, seat entries'
//! `holder_sha256`, the genesis before `convert` took them out), and each
//! press's text and sender (the kept `press/<id>.json`: the nonce that
//! salts `text_sha256`, the opening of an anonymous `sender_commitment`).
//!
//! `herald verify` of a game folder runs [`check`]; of a published game
//! file, it says what it could not check and why.

use super::loaded::Loaded;
use super::press;
use crate::chain::body::{opens, Body, Genesis};
use crate::chain::canon::canonical;
use crate::chain::record::{entry_hash, ZERO};
use crate::error::Result;
use crate::store::{Secrets, Store};

/// What [`check`] found: what holds (lines to print), what does not
/// (problems), and what it could not check (notes).
#[derive(Debug, Default)]
pub struct Findings {
    pub held: Vec<String>,
    pub problems: Vec<String>,
    pub unchecked: Vec<String>,
}

/// Open every address commitment and every press of `g` with the folder's
/// `secrets.toml` and kept press (those that are there).
pub fn check(g: &Loaded, store: &Store) -> Result<Findings> {
    let mut f = Findings::default();
    let secrets = match std::fs::symlink_metadata(store.dir.secrets()) {
        Ok(_) => Some(store.secrets()?),
        Err(_) => None,
    };
    addresses(g, secrets.as_ref(), &mut f);
    presses(g, store, &mut f)?;
    Ok(f)
}

/// Every commitment to an address in the game file: the genesis's, each
/// seat entry's, the head's.
fn commitments(g: &Loaded) -> Vec<(String, String, Option<String>, String)> {
    // (where, player, the salt the entry shows, commitment)
    let mut out = Vec::new();
    for p in &g.genesis.players {
        if let Some(c) = &p.address_sha256 {
            out.push((
                format!("entry 0 (genesis): {}'s address_sha256", p.id),
                p.id.clone(),
                None,
                c.clone(),
            ));
        }
    }
    for (i, e) in g.record.entries.iter().enumerate().skip(1) {
        if !e.body.contains("\"kind\":\"seat\"") {
            continue;
        }
        if let Ok(Body::Seat(c)) = e.decode() {
            out.push((
                format!("entry {i} (seat): {}'s holder_sha256", c.player),
                c.player.clone(),
                c.salt.clone(),
                c.holder_sha256.clone(),
            ));
        }
    }
    out
}

/// The addresses: each commitment opened by an address `secrets.toml`
/// keeps for its player; the head's each by the player's address now; the
/// genesis before `convert` made again and hashed.
fn addresses(g: &Loaded, secrets: Option<&Secrets>, f: &mut Findings) {
    if g.head().format < crate::chain::ADDRESS_FORMAT {
        // The file holds the addresses; `open` checks each seat entry's.
        return;
    }
    let all = commitments(g);
    let head: Vec<(String, String)> = g
        .head()
        .players
        .iter()
        .filter_map(|p| Some((p.id.clone(), p.address_sha256.clone()?)))
        .collect();
    if all.is_empty() && head.is_empty() {
        return;
    }
    let Some(s) = secrets else {
        f.unchecked.push(format!(
            "the game file binds {} mail addresses without holding them (address_sha256, holder_sha256): they open with the game folder's secrets.toml, not with this file alone",
            all.len()
        ));
        return;
    };
    let mut opened = 0;
    for (place, player, shown, c) in &all {
        let by = s.addresses.iter().find(|a| {
            a.player == *player
                && shown.as_ref().is_none_or(|salt| *salt == a.salt)
                && opens(c, &a.salt, &a.address)
        });
        // The seat's holder now: the head binds their address by this
        // very commitment.
        let now = g
            .head()
            .players
            .iter()
            .any(|p| p.id == *player && p.address_sha256.as_deref() == Some(c.as_str()));
        match (by, shown) {
            (Some(_), _) => opened += 1,
            // Formats 3 and 4 kept only the seat's holder now: an earlier
            // holder's address is nowhere.
            (None, Some(_)) if !now => f.unchecked.push(format!(
                "{place}: the address of an earlier holder of the seat, which a game file of format 3 or 4 did not keep"
            )),
            (None, _) => f.problems.push(format!(
                "{place} is opened by no address secrets.toml keeps for {player}: the address was changed, or the file is not this game's"
            )),
        }
    }
    for (player, c) in &head {
        if s.address_of(player, c).is_none() {
            f.problems.push(format!(
                "head record: {player}'s address_sha256 is opened by no address secrets.toml keeps for {player}: the address was changed, or the file is not this game's"
            ));
        }
    }
    if let Some(r) = &g.genesis.redacted {
        match before(&g.genesis, s) {
            Some(h) if h == r.genesis => f.held.push(format!(
                "the genesis before `convert` took the addresses out, made again with the addresses of secrets.toml, hashes to `redacted.genesis`"
            )),
            _ => f.problems.push(
                "entry 0 (genesis): the genesis before `convert`, made again with the addresses of secrets.toml, does not hash to `redacted.genesis`: an address or a field was changed".into(),
            ),
        }
    }
    if f.problems.is_empty() {
        f.held.push(format!(
            "the {opened} mail addresses the game file binds open with secrets.toml"
        ));
    }
}

/// The hash the genesis had before `convert` took its addresses out: the
/// genesis with its first format, each commitment replaced by the address
/// that opens it, no `redacted`.
fn before(g: &Genesis, s: &Secrets) -> Option<String> {
    let r = g.redacted.as_ref()?;
    let mut old = g.clone();
    old.format = r.from_format;
    old.redacted = None;
    for p in &mut old.players {
        if let Some(c) = p.address_sha256.take() {
            let a = s
                .addresses
                .iter()
                .find(|a| a.player == p.id && opens(&c, &a.salt, &a.address))?;
            p.file_email = Some(a.address.clone());
        }
    }
    Some(entry_hash(ZERO, &canonical(&Body::Genesis(old))))
}

/// Each press against its kept file: the text hashes to `text_sha256`
/// with the kept nonce; a named press's `from` is the kept sender; an
/// anonymous one's commitment opens to the kept sender with the kept
/// opening (format 5), or its `sender_sha256` is the kept sender's
/// (formats 3 and 4).
fn presses(g: &Loaded, store: &Store, f: &mut Findings) -> Result<()> {
    let logged = press::entries(store, g)?;
    if logged.is_empty() {
        return Ok(());
    }
    if !store.dir.press().is_dir() {
        f.unchecked.push(format!(
            "{} press entries: their texts and senders are in the game folder's press/, not beside this file",
            logged.len()
        ));
        return Ok(());
    }
    let (mut anonymous, mut bad) = (0, 0);
    for (e, _) in &logged {
        let at = format!("press #{}", e.n);
        let Some(k) = press::read_kept(store, &e.id)? else {
            f.problems.push(format!(
                "{at}: its text ({}) is missing",
                store.dir.press_file(&e.id).display()
            ));
            bad += 1;
            continue;
        };
        let mut wrong = |why: String| {
            f.problems.push(format!("{at}: {why}"));
            bad += 1;
        };
        if k.entry != *e {
            wrong("the kept file is not the press the log records".into());
            continue;
        }
        if press::text_sha256(&k.nonce, &k.text) != e.text_sha256 {
            wrong("text_sha256 is not the hash of the kept text".into());
        }
        match (&e.from, &e.sender_commitment, &e.sender_sha256) {
            (Some(from), None, None) if *from == k.sender && !k.anonymous => {}
            (None, Some(c), None) if k.anonymous => {
                anonymous += 1;
                match &k.opening {
                    Some(o) if press::sender_commitment(o, &k.sender) == *c => {}
                    _ => wrong(format!(
                        "sender_commitment does not open to the kept sender ({}) with the kept opening",
                        k.sender
                    )),
                }
            }
            (None, None, Some(h)) if k.anonymous => {
                anonymous += 1;
                if press::sender_sha256(&k.nonce, &k.sender) != *h {
                    wrong(format!(
                        "sender_sha256 is not the kept sender's ({})",
                        k.sender
                    ));
                }
            }
            _ => wrong(format!(
                "its sender is not the kept one ({}, {})",
                k.sender,
                if k.anonymous { "anonymous" } else { "named" }
            )),
        }
    }
    if bad == 0 {
        f.held.push(format!(
            "the {} press entries open with the folder's kept press: each text as relayed, each sender ({anonymous} anonymous, their commitments opened)",
            logged.len()
        ));
    }
    Ok(())
}
