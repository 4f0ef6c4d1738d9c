//! The rules every field of a game file must keep that no replay can
//! recompute: times in order, addresses that are addresses, versions of
//! herald that exist, password hashes herald could have made, stand-ins
//! labelled as stand-ins. `verify` checks them all (its walk); docs/trust.md
//! ("What checks each field") lists every field with what checks it.
//!
//! An edit the moderator's key signed again is caught here when it breaks
//! one of these rules; within them (a time moved between its neighbours,
//! one valid address for another) only the players' kept mails show it.

use super::body::{Body, Genesis, Phase};
use super::canon::is_digest;
use super::record::Record;
use chrono::{DateTime, FixedOffset};

/// Every version of herald that has written game files of format 2 or 3 (this
/// one included): a game file naming another was not written by herald.
/// A release adds its own version here.
pub const KNOWN_VERSIONS: [&str; 1] = ["0.1.0"];

/// The mark that begins the order text of every stand-in herald writes
/// for a player who sent nothing (`pipeline::resolve::accept_all`).
pub const STAND_IN_MARK: &str = "# herald: no orders from ";

/// The mark that begins the order text herald writes for a bot seat
/// (`pipeline::resolve::accept_all`).
pub const BOT_MARK: &str = "# herald: orders of the bot seat ";

/// Is `v` a version of herald (one that wrote game files, or this one)?
pub fn known_version(v: &str) -> bool {
    KNOWN_VERSIONS.contains(&v) || v == env!("CARGO_PKG_VERSION")
}

/// Is `a` a mail address as `new --email` and `--moderator` take them:
/// `local@domain`, no spaces, quotes, brackets or control characters?
pub fn is_address(a: &str) -> bool {
    let Some((local, domain)) = a.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && (domain.contains('.') || domain == "localhost")
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && a.len() <= 254
        && a.chars()
            .all(|c| !c.is_control() && !c.is_whitespace() && !"<>\",;()[]\\".contains(c))
        && !domain.contains('@')
}

fn time(t: &str) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(t).ok()
}

/// The rules' findings for a whole game file, in order; empty: it keeps
/// every rule.
pub fn problems(r: &Record, g: &Genesis) -> Vec<String> {
    let mut out = Vec::new();
    genesis(g, &mut out);
    if !known_version(&r.head.herald) {
        out.push(format!(
            "head record: herald `{}` is not a version of herald (known: {})",
            r.head.herald.escape_debug(),
            KNOWN_VERSIONS.join(", ")
        ));
    }
    entries(r, g, &mut out);
    if let Some(red) = &g.redacted {
        if red.entries == 0 || red.entries > r.entries.len() as u64 {
            out.push(format!(
                "entry 0 (genesis): redacted.entries {}: the log held at least its genesis when it was converted, and holds {} entries now",
                red.entries,
                r.entries.len()
            ));
        }
    }
    out
}

/// Long (about 90 lines): one rule a field of the genesis, in the order
/// of its fields; a table of cases.
fn genesis(g: &Genesis, out: &mut Vec<String>) {
    let at = "entry 0 (genesis)";
    if !known_version(&g.herald) {
        out.push(format!(
            "{at}: herald `{}` is not a version of herald (known: {})",
            g.herald.escape_debug(),
            KNOWN_VERSIONS.join(", ")
        ));
    }
    for (i, p) in g.players.iter().enumerate() {
        // Format 8 names its players (the lobby's display names, `new
        // --name`); before it herald wrote each player's id (a converted
        // game keeps what the old file held).
        if g.format >= super::head::NAMES_FORMAT {
            if p.name != p.id && !super::rules::is_display_name(&p.name) {
                out.push(format!(
                    "{at}: players[{i}].name `{}` is not a display name (1 to {} characters, no control character, no space at either end)",
                    p.name.escape_debug(),
                    super::rules::NAME_CHARS
                ));
            }
        } else if p.name != p.id && g.converted.is_none() {
            out.push(format!(
                "{at}: players[{i}].name `{}` is not the player's id `{}` (game files of formats 2 to 7 name each player by their id)",
                p.name.escape_debug(),
                p.id
            ));
        }
        if let Some(e) = &p.email {
            if !is_address(e) {
                out.push(format!(
                    "{at}: players[{i}].email `{}` is not a mail address",
                    e.escape_debug()
                ));
            }
        }
        if g.bots.contains_key(&p.id) {
            if p.password != super::body::BOT_PASSWORD {
                out.push(format!(
                    "{at}: players[{i}].password: {} is a bot seat, which has no password (empty)",
                    p.id
                ));
            }
            if p.address_sha256.is_some() || p.file_email.is_some() {
                out.push(format!(
                    "{at}: players[{i}]: {} is a bot seat, which has no mail address",
                    p.id
                ));
            }
        } else if let Err(why) = crate::auth::check_stored(&p.password) {
            out.push(format!("{at}: players[{i}].password: {why}"));
        }
        if p.address_sha256.as_deref().is_some_and(|c| !is_digest(c)) {
            out.push(format!("{at}: players[{i}].address_sha256 is not a sha256"));
        }
    }
    bots(g, at, out);
    if let Some(r) = &g.redacted {
        if !(2..super::body::ADDRESS_FORMAT).contains(&r.from_format) {
            out.push(format!(
                "{at}: redacted.from_format {}: `convert` takes the addresses out of games of formats 2 to {}",
                r.from_format,
                super::body::ADDRESS_FORMAT - 1
            ));
        }
        if !is_digest(&r.genesis) {
            out.push(format!("{at}: redacted.genesis is not a sha256"));
        }
    }
    if let Some(m) = &g.moderator {
        if !is_address(m) {
            out.push(format!(
                "{at}: moderator `{}` is not a mail address",
                m.escape_debug()
            ));
        }
    }
    if g.deadline_every == Some(0) {
        out.push(format!("{at}: deadline_every is 0 seconds"));
    }
    if !is_digest(&g.initial_sha256) {
        out.push(format!("{at}: initial_sha256 is not a sha256"));
    }
    if let (Some(d), Some(c)) = (g.deadline.as_deref().and_then(time), time(&g.created)) {
        if d < c {
            out.push(format!("{at}: its deadline is before the game was created"));
        }
    }
    if let Some(c) = &g.converted {
        if c.from_format != 1 {
            out.push(format!(
                "{at}: converted from format {}, but only format 1 is converted",
                c.from_format
            ));
        }
        if !is_digest(&c.old_head) || !is_digest(&c.old_sha256) {
            out.push(format!(
                "{at}: converted: old_head and old_sha256 must be sha256 digests"
            ));
        }
        if time(&c.at).is_none() {
            out.push(format!("{at}: converted.at is not a time (RFC 3339)"));
        }
        if c.unproven.is_empty() {
            out.push(format!(
                "{at}: converted.unproven is empty: a converted game always says what format 1 could not prove"
            ));
        }
    }
}

/// The genesis's `bots`: each a player's, with a spec herald's bots
/// read, and a person left to play (the format: `check::open`).
fn bots(g: &Genesis, at: &str, out: &mut Vec<String>) {
    if g.bots.is_empty() {
        return;
    }
    for (player, spec) in &g.bots {
        if !g.players.iter().any(|p| &p.id == player) {
            out.push(format!(
                "{at}: bots: `{}` is not one of the players",
                player.escape_debug()
            ));
        }
        if let Err(why) = crate::bots::BotSpec::parse(spec) {
            out.push(format!("{at}: bots: {}: {why}", player.escape_debug()));
        }
    }
    if g.players.iter().all(|p| g.bots.contains_key(&p.id)) {
        out.push(format!(
            "{at}: bots: every seat is a bot's; a game has at least one player"
        ));
    }
}

/// The time an entry records (its `resolved_at` or `at`).
fn when(b: &Body) -> Option<&str> {
    match b {
        Body::Genesis(g) => Some(&g.created),
        Body::Phase(p) => Some(&p.resolved_at),
        Body::Passwd(p) => Some(&p.at),
        Body::Deadline(d) => Some(&d.at),
        Body::Reveal(r) => Some(&r.at),
        Body::Press(p) => Some(&p.at),
        Body::Seat(c) => Some(&c.at),
        Body::Vacation(v) => Some(&v.at),
        Body::Resign(r) => Some(&r.at),
        Body::Draw(d) => Some(&d.at),
    }
}

/// Was this entry carried over by `convert` (a phase of herald 0.1, or the
/// reveal or deadline `convert` adds, dated at the conversion)? Those keep
/// the old game's times; the time order holds from the conversion on.
fn carried(b: &Body, converted_at: Option<&str>) -> bool {
    let Some(c) = converted_at else {
        return false;
    };
    match b {
        Body::Phase(p) => p.dice == 1,
        Body::Reveal(r) => r.at == c,
        Body::Deadline(d) => d.at == c,
        _ => false,
    }
}

/// Long (about 90 lines): one pass over the log's entries, each entry's time
/// checked against the one before it; the entries a conversion carried over,
/// and the phases, kept aside on the way.
fn entries(r: &Record, g: &Genesis, out: &mut Vec<String>) {
    let converted = g.converted.as_ref().map(|c| c.at.as_str());
    let converted_at = converted.and_then(time);
    let mut last = converted_at.or_else(|| time(&g.created));
    // The time of the last entry that could end the game: a phase, a
    // resignation, the accept of a draw (format 6).
    let mut ending: Option<String> = None;
    for (i, e) in r.entries.iter().enumerate().skip(1) {
        let what = e.describe(i);
        // Bodies that do not decode are verify's replay's to name.
        let Ok(body) = e.decode() else { continue };
        let Some(t) = when(&body) else { continue };
        if carried(&body, converted) {
            if let Body::Phase(p) = &body {
                ending = Some(p.resolved_at.clone());
            }
            continue;
        }
        let field = match &body {
            Body::Phase(_) => "resolved_at",
            _ => "at",
        };
        match time(t) {
            None => out.push(format!(
                "{what}: {field} `{}` is not a time (RFC 3339)",
                t.escape_debug()
            )),
            Some(t) => {
                if last.is_some_and(|l| t < l) {
                    out.push(format!(
                        "{what}: {field} {} is before the time of the entry before it: entries are made in time order",
                        t.to_rfc3339()
                    ));
                }
                last = Some(t);
            }
        }
        match &body {
            Body::Phase(p) => {
                phase(&what, p, converted_at, out);
                bot_orders(&what, p, g, out);
                ending = Some(p.resolved_at.clone());
            }
            Body::Resign(x) => ending = Some(x.at.clone()),
            Body::Draw(x) => {
                if x.state_sha256.is_some() {
                    ending = Some(x.at.clone());
                }
                if x.state_sha256.is_some() != x.events.is_some() {
                    out.push(format!(
                        "{what}: state_sha256 and events come together, on the accept that ended the game"
                    ));
                }
            }
            Body::Passwd(p) if g.bots.contains_key(&p.player) => out.push(format!(
                "{what}: a new password for {}, a bot seat, which has none",
                p.player
            )),
            Body::Seat(c) if g.bots.contains_key(&c.player) => out.push(format!(
                "{what}: {} is a bot seat, which changes no hands",
                c.player
            )),
            Body::Passwd(p) => {
                if let Err(why) = crate::auth::check_stored(&p.password) {
                    out.push(format!("{what}: password: {why}"));
                }
            }
            Body::Deadline(d) => {
                if let Some(t) = &d.deadline {
                    if time(t).is_none() {
                        out.push(format!(
                            "{what}: deadline `{}` is not a time (RFC 3339)",
                            t.escape_debug()
                        ));
                    }
                }
            }
            Body::Reveal(rv) => {
                let press_only = r.entries[i + 1..]
                    .iter()
                    .all(|e| matches!(e.decode(), Ok(Body::Press(_))));
                if !press_only {
                    out.push(format!(
                        "{what}: the seed is revealed before the log's end: the reveal is the last entry of a finished game (only press may follow it)"
                    ));
                }
                match &ending {
                    Some(t) if *t == rv.at => {}
                    _ if carried(&body, converted) => {}
                    _ => out.push(format!(
                        "{what}: at is not the time of the phase (or resignation, or agreed draw) that ended the game (the reveal is made in the same commit)"
                    )),
                }
            }
            Body::Seat(c) => {
                if let Err(why) = crate::auth::check_stored(&c.password) {
                    out.push(format!("{what}: password: {why}"));
                }
            }
            Body::Vacation(v) => {
                if time(&v.until).is_none() {
                    out.push(format!(
                        "{what}: until `{}` is not a time (RFC 3339)",
                        v.until.escape_debug()
                    ));
                }
            }
            Body::Genesis(_) | Body::Press(_) => {}
        }
    }
}

/// A phase's orders of bot seats: labelled with the seat's bot (`bot`,
/// the genesis's spec for the player), made by herald (its mark, no
/// `received`, no `nmr`); no other orders so labelled. Whether they are
/// the bot's is the replay's to say.
fn bot_orders(what: &str, p: &Phase, g: &Genesis, out: &mut Vec<String>) {
    for o in &p.orders {
        match (g.bot(&o.player), &o.bot) {
            (None, None) => {}
            (None, Some(_)) => out.push(format!(
                "{what}: the orders of {} are labelled a bot's (bot), but {} is not a bot seat",
                o.player, o.player
            )),
            (Some(spec), None) => out.push(format!(
                "{what}: the orders of {}, a bot seat (`{spec}`), are not labelled as the bot's (bot)",
                o.player
            )),
            (Some(spec), Some(b)) if spec != b => out.push(format!(
                "{what}: the orders of {} are labelled bot `{}`, but the seat's bot is `{spec}`",
                o.player,
                b.escape_debug()
            )),
            (Some(_), Some(_)) => {
                if o.nmr.is_some() || o.received.is_some() || !o.text.starts_with(BOT_MARK) {
                    out.push(format!(
                        "{what}: the orders of {} are labelled the bot's but are not as herald makes them (its mark `{}…`, no nmr, not received)",
                        o.player,
                        BOT_MARK.trim()
                    ));
                }
            }
        }
    }
}

fn phase(
    what: &str,
    p: &Phase,
    converted_at: Option<DateTime<FixedOffset>>,
    out: &mut Vec<String>,
) {
    let resolved = time(&p.resolved_at);
    match (p.dice, converted_at) {
        (2, _) => {}
        (1, _) => out.push(format!(
            "{what}: dice 1 (the seed alone) marks a phase carried over from format 1; this one is not"
        )),
        (d, _) => out.push(format!("{what}: dice {d} is not a way herald draws dice (2, or 1 for converted phases)")),
    }
    if let Some(d) = &p.deadline {
        if time(d).is_none() {
            out.push(format!(
                "{what}: deadline `{}` is not a time (RFC 3339)",
                d.escape_debug()
            ));
        }
    }
    for o in &p.orders {
        if let Some(rcv) = &o.received {
            match (time(rcv), resolved) {
                (None, _) => out.push(format!(
                    "{what}: the orders of {}: received `{}` is not a time (RFC 3339)",
                    o.player,
                    rcv.escape_debug()
                )),
                (Some(t), Some(r)) if t > r => out.push(format!(
                    "{what}: the orders of {} were received ({rcv}) after the phase was resolved ({})",
                    o.player, p.resolved_at
                )),
                _ => {}
            }
        }
        match &o.nmr {
            None if o.text.starts_with(STAND_IN_MARK) && p.dice == 2 => out.push(format!(
                "{what}: the orders of {} are a stand-in's (herald's mark `{}…`) but not labelled as one (nmr)",
                o.player,
                STAND_IN_MARK.trim()
            )),
            Some(_) if o.received.is_some() => out.push(format!(
                "{what}: the orders of {} are labelled a stand-in (nmr) but came by mail (received)",
                o.player
            )),
            _ => {}
        }
    }
}
