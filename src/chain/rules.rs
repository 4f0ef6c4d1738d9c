//! The rules of the lobby's and the press's entries (`seat`, `vacation`,
//! `press`, a phase's `excused`), each field derived again from the log
//! where the log can derive it: the turn the game waited for, who had
//! dropped out, who was away and until when, the deadline, the end, the
//! game's press rules. No seed is needed, so `verify` checks them on a
//! published copy too (docs/trust.md, "What checks each field"). What
//! only the game folder can tell (the addresses, the texts, the
//! allowance of a host's table) is `pipeline::sealed`'s.

use super::body::{Body, Genesis, PressEntry, PressRules, SeatChange, Vacation, ADDRESS_FORMAT};
use super::canon::is_digest;
use super::check::{apply_phase, is_time};
use super::head::LENGTH_FORMAT;
use super::record::Record;
use super::step::PhaseStep;
use chrono::{DateTime, FixedOffset};
use std::collections::BTreeMap;

/// The longest display name the lobby takes (`join`, `takeover`).
pub const NAME_CHARS: usize = 40;

/// A day, in seconds: the allowance is counted in days, and formats 3 to
/// 6 charge vacations in whole days.
const DAY: i64 = 86_400;

/// The units a format-7 vacation entry is charged in (its `unit`), with
/// their length in seconds: the unit the player asked (docs/host.md,
/// "Vacations").
pub const VACATION_UNITS: [(&str, i64); 3] = [("minute", 60), ("hour", 3_600), ("day", DAY)];

/// The length in seconds of a vacation unit's name.
pub fn unit_seconds(unit: &str) -> Option<i64> {
    VACATION_UNITS
        .iter()
        .find(|(n, _)| *n == unit)
        .map(|(_, s)| *s)
}

fn time(t: &str) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(t).ok()
}

/// The whole units (of `unit` seconds) a vacation from `at` until `until`
/// charges: every unit begun (`requests::vacation::request`).
pub fn charged(at: &str, until: &str, unit: i64) -> Option<u32> {
    let s = (time(until)? - time(at)?).num_seconds();
    (s > 0 && unit > 0).then(|| u32::try_from((s + unit - 1) / unit).unwrap_or(u32::MAX))
}

/// The whole units (of `unit` seconds) not used of a vacation until
/// `until`, when its player is back at `at` (`requests::vacation::back`).
pub fn given_back(at: &str, until: &str, unit: i64) -> Option<u32> {
    let s = (time(until)? - time(at)?).num_seconds();
    (unit > 0).then(|| u32::try_from(s.max(0) / unit).unwrap_or(u32::MAX))
}

/// The whole days a vacation from `at` until `until` charges (formats 3
/// to 6): every day begun.
pub fn days_charged(at: &str, until: &str) -> Option<u32> {
    charged(at, until, DAY)
}

/// The whole days not used of a vacation until `until`, when its player
/// is back at `at` (formats 3 to 6).
pub fn days_back(at: &str, until: &str) -> Option<u32> {
    given_back(at, until, DAY)
}

/// A vacation entry's charge (or what a return gives back) in minutes,
/// and its unit's length in seconds: `days` (formats 3 to 6) or `length`
/// in `unit` (format 7). `None` for an entry holding neither, both, or a
/// unit not of [`VACATION_UNITS`].
pub fn vacation_minutes(v: &Vacation) -> Option<(u64, i64)> {
    match (v.days, v.length, v.unit.as_deref()) {
        (Some(d), None, None) => Some((u64::from(d) * 1440, DAY)),
        (None, Some(n), Some(u)) => {
            let secs = unit_seconds(u)?;
            Some((u64::from(n) * (secs / 60) as u64, secs))
        }
        _ => None,
    }
}

/// Is `name` a display name as the lobby takes them: not empty, at most
/// [`NAME_CHARS`] characters, no control character, no space at either end?
pub fn is_display_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= NAME_CHARS
        && !name.chars().any(char::is_control)
        && name.trim() == name
}

/// The game as the log stood before an entry: what the rules below read.
struct At {
    head: super::head::Head,
    /// Each player's vacation under way: its end, and its unit's length
    /// in seconds.
    away: BTreeMap<String, (String, i64)>,
    /// Minutes charged so far, by player (given back taken off).
    used: BTreeMap<String, u64>,
    /// The seed revealed: the game is over.
    ended: bool,
    /// Press entries so far.
    press: u32,
}

/// Is entry `i` written by format 5 (not carried over by `convert` from
/// an older file)? Its anonymous sender is a `sender_commitment`, its seat
/// salt secret.
pub fn of_format_5(r: &Record, g: &Genesis, i: usize) -> bool {
    r.head.format >= ADDRESS_FORMAT
        && match &g.redacted {
            Some(red) => i as u64 >= red.entries,
            None => g.format >= ADDRESS_FORMAT,
        }
}

/// Every rule of this file over the whole log; `press` the game's press
/// rules (the genesis's, or its folder's `press/rules.json`; `None`: not
/// known here), `allowance` the vacation days each player may take (a
/// host table's; `None`: not known here).
///
/// Long (about 90 lines): one pass over the log with the game as it stood
/// before each entry, each kind's rules in turn.
pub fn problems(
    r: &Record,
    g: &Genesis,
    press: Option<&PressRules>,
    allowance: Option<u32>,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = At {
        head: r.head.clone(),
        away: BTreeMap::new(),
        used: BTreeMap::new(),
        ended: false,
        press: 0,
    };
    at.head.players = g.players.clone();
    at.head.missed = super::body::Missed::none_yet(&g.players);
    at.head.deadline = g.deadline.clone();
    at.head.turn = 0;
    for (i, e) in r.entries.iter().enumerate().skip(1) {
        let what = e.describe(i);
        let Ok(body) = e.decode() else { continue };
        match body {
            Body::Phase(p) => {
                excused(&what, &p, &at, &mut out);
                apply_phase(&mut at.head, &PhaseStep::of(&p));
                at.head.turn += 1;
                // A vacation ends at its `until`.
                let t = time(&p.resolved_at);
                at.away.retain(|_, (u, _)| time(u) > t);
            }
            Body::Deadline(d) => at.head.deadline = d.deadline,
            Body::Reveal(_) => {
                at.ended = true;
                at.head.deadline = None;
            }
            Body::Seat(c) => {
                seat(&what, &c, &at, of_format_5(r, g, i), &mut out);
                if let Some(m) = at.head.missed.iter_mut().find(|m| m.player == c.player) {
                    m.in_a_row = 0;
                    m.dropped = false;
                }
            }
            Body::Vacation(v) => {
                vacation(
                    &what,
                    &v,
                    &mut at,
                    allowance,
                    of_format_7(r, g, i),
                    &mut out,
                );
            }
            Body::Press(p) => {
                at.press += 1;
                press_entry(&what, &p, &at, press, of_format_5(r, g, i), &mut out);
            }
            Body::Resign(x) => during_play(&what, &x.player, x.turn, &at, &mut out),
            Body::Draw(x) => during_play(&what, &x.player, x.turn, &at, &mut out),
            Body::Passwd(_) | Body::Genesis(_) => {}
        }
    }
    out
}

/// A `resign` or `draw` entry (format 6) against the game as it stood: a
/// player's, for the turn the game waited for, before the game ended
/// (what it did to the game is the replay's to check).
fn during_play(what: &str, player: &str, turn: u32, at: &At, out: &mut Vec<String>) {
    if at.head.player_index(player).is_none() {
        out.push(format!(
            "{what}: `{}` is not a player",
            player.escape_debug()
        ));
    }
    if at.ended {
        out.push(format!("{what}: after the game ended"));
    }
    if turn != at.head.turn {
        out.push(format!(
            "{what}: turn {turn} where the game waited for turn {}",
            at.head.turn
        ));
    }
}

/// A phase's `excused`: players of the game, each stood in for in this
/// phase and away on vacation (by the log's `vacation` entries) when it
/// was resolved; none twice.
fn excused(what: &str, p: &super::body::Phase, at: &At, out: &mut Vec<String>) {
    for (k, x) in p.excused.iter().enumerate() {
        if p.excused[..k].contains(x) {
            out.push(format!("{what}: excused names {x} twice"));
            continue;
        }
        if at.head.player_index(x).is_none() {
            out.push(format!(
                "{what}: excused `{}` is not a player",
                x.escape_debug()
            ));
            continue;
        }
        if !p.orders.iter().any(|o| &o.player == x && o.nmr.is_some()) {
            out.push(format!(
                "{what}: excused {x}, but no stand-in played for {x} in this phase"
            ));
        }
        let away = at
            .away
            .get(x)
            .is_some_and(|(u, _)| time(u) > time(&p.resolved_at));
        if !away {
            out.push(format!(
                "{what}: excused {x}, who was not away on vacation when the phase was resolved ({}), by the log's vacation entries",
                p.resolved_at
            ));
        }
    }
}

/// A seat entry against the game as it stood: the turn it waited for; a
/// player's seat, freed as `why` says (`dropped`: the drop rule had
/// dropped them); a display name; the salt where format 5 keeps it secret.
fn seat(what: &str, c: &SeatChange, at: &At, five: bool, out: &mut Vec<String>) {
    let Some(m) = at.head.missed.iter().find(|m| m.player == c.player) else {
        out.push(format!(
            "{what}: `{}` is not a player",
            c.player.escape_debug()
        ));
        return;
    };
    if at.ended {
        out.push(format!("{what}: a seat changes hands after the game ended"));
    }
    if c.turn != at.head.turn {
        out.push(format!(
            "{what}: turn {} where the game waited for turn {}",
            c.turn, at.head.turn
        ));
    }
    match c.why.as_str() {
        "dropped" if !m.dropped => out.push(format!(
            "{what}: why `dropped`, but {} had not dropped out (the log's phases never dropped them since their seat last changed hands): the seat was not offered",
            c.player
        )),
        "dropped" | "replaced" => {}
        other => out.push(format!(
            "{what}: why `{}`: a seat changes hands because its player dropped out (`dropped`) or the moderator replaced them (`replaced`)",
            other.escape_debug()
        )),
    }
    if !is_display_name(&c.name) {
        out.push(format!(
            "{what}: name `{}` is not a display name (1 to {NAME_CHARS} characters, no control character, no space at either end)",
            c.name.escape_debug()
        ));
    }
    match (&c.salt, five) {
        (Some(_), true) => out.push(format!(
            "{what}: its salt is shown: from format {ADDRESS_FORMAT} on it is secret (with it, anyone can test a guessed address against holder_sha256)"
        )),
        (None, false) => out.push(format!("{what}: no salt (formats 3 and 4 keep it in the entry)")),
        (Some(s), false) if !(s.len() == 32 && is_digest(&format!("{s}{s}"))) => {
            out.push(format!("{what}: salt is not 32 lowercase hex digits"))
        }
        _ => {}
    }
    if !is_digest(&c.holder_sha256) {
        out.push(format!("{what}: holder_sha256 is not a sha256"));
    }
}

/// Is entry `i` written by a format-7 herald (not carried over from a
/// game that was of an older format when it was written)? Its vacation
/// is charged in `length` and `unit`, never `days`.
fn of_format_7(r: &Record, g: &Genesis, i: usize) -> bool {
    r.head.format >= LENGTH_FORMAT
        && g.format >= LENGTH_FORMAT
        && g.redacted
            .as_ref()
            .is_none_or(|red| i as u64 >= red.entries)
}

/// What a vacation entry charges or gives back, in words: "3 days",
/// "1 minute".
fn amount(v: &Vacation) -> String {
    match (v.days, v.length, v.unit.as_deref()) {
        (Some(d), _, _) => format!("{d} day{}", if d == 1 { "" } else { "s" }),
        (None, Some(n), Some(u)) => format!("{n} {u}{}", if n == 1 { "" } else { "s" }),
        _ => "nothing".into(),
    }
}

/// A vacation entry: of a player, in the turn the game waited for; a
/// vacation ending after it begins, charged the whole units it spans (days
/// in formats 3 to 6, the unit the player asked in format 7), only when
/// none is under way, within the allowance (in days: a day 1440 minutes);
/// `back` only during a vacation, giving back the whole units not used,
/// in that vacation's unit, and ending at its own time.
///
/// Long (about 110 lines): the entry's shape by format, then the return's
/// rules and the vacation's, each told apart.
fn vacation(
    what: &str,
    v: &Vacation,
    at: &mut At,
    allowance: Option<u32>,
    seven: bool,
    out: &mut Vec<String>,
) {
    if at.head.player_index(&v.player).is_none() {
        out.push(format!(
            "{what}: `{}` is not a player",
            v.player.escape_debug()
        ));
        return;
    }
    if at.ended {
        out.push(format!("{what}: a vacation after the game ended"));
    }
    if v.turn != at.head.turn {
        out.push(format!(
            "{what}: turn {} where the game waited for turn {}",
            v.turn, at.head.turn
        ));
    }
    let Some((minutes, unit)) = vacation_minutes(v) else {
        out.push(format!(
            "{what}: a vacation holds `days` (formats 3 to 6) or `length` and `unit` (format 7; minute, hour or day), one of the two"
        ));
        return;
    };
    if v.length.is_some() && at.head.format < LENGTH_FORMAT {
        out.push(format!(
            "{what}: `length` and `unit` are format {LENGTH_FORMAT}'s, in a game file of format {}",
            at.head.format
        ));
    }
    if v.days.is_some() && seven {
        out.push(format!(
            "{what}: `days` in an entry of format {LENGTH_FORMAT}, which charges a vacation in `length` and `unit`"
        ));
    }
    let count = v.days.or(v.length).unwrap_or(0);
    let under_way = at
        .away
        .get(&v.player)
        .filter(|(u, _)| time(u) > time(&v.at))
        .cloned();
    if v.back {
        if v.until != v.at {
            out.push(format!(
                "{what}: back at {}, but its until is {} (a return ends the vacation when it is made)",
                v.at, v.until
            ));
        }
        match &under_way {
            None => out.push(format!(
                "{what}: back, but {} was not away (no vacation of theirs under way at {})",
                v.player, v.at
            )),
            Some((_, away_unit)) if *away_unit != unit => out.push(format!(
                "{what}: {} given back, where the vacation under way was charged in {}s",
                amount(v),
                VACATION_UNITS
                    .iter()
                    .find(|(_, s)| s == away_unit)
                    .map_or("?", |(n, _)| n)
            )),
            Some((u, _)) => {
                let due = given_back(&v.at, u, unit).unwrap_or(0);
                if count != due {
                    out.push(format!(
                        "{what}: {} given back, where the vacation until {u} left {due} whole units unused",
                        amount(v)
                    ));
                }
            }
        }
        let used = at.used.entry(v.player.clone()).or_default();
        *used = used.saturating_sub(minutes);
        at.away.remove(&v.player);
        return;
    }
    if let Some((u, _)) = &under_way {
        out.push(format!(
            "{what}: a vacation while {} is away until {u} already",
            v.player
        ));
    }
    match charged(&v.at, &v.until, unit) {
        None => out.push(format!(
            "{what}: until {} is not after at {}",
            v.until, v.at
        )),
        Some(d) if d != count => out.push(format!(
            "{what}: {} charged, where {} to {} spans {d} units begun",
            amount(v),
            v.at,
            v.until
        )),
        Some(_) => {}
    }
    let used = at.used.entry(v.player.clone()).or_default();
    *used += minutes;
    if let Some(a) = allowance.filter(|a| *used > u64::from(*a) * 1440) {
        out.push(format!(
            "{what}: {} has been charged {used} minutes, more than the {a} days ({} minutes) each player may take",
            v.player,
            u64::from(a) * 1440
        ));
    }
    at.away.insert(v.player.clone(), (v.until.clone(), unit));
}

/// A press entry against the game's press rules and the game as it stood.
fn press_entry(
    what: &str,
    p: &PressEntry,
    at: &At,
    rules: Option<&PressRules>,
    five: bool,
    out: &mut Vec<String>,
) {
    let players = at.head.player_ids();
    let anonymous = p.from.is_none();
    match (&p.sender_commitment, &p.sender_sha256, five) {
        (Some(_), _, false) => out.push(format!(
            "{what}: sender_commitment in an entry of format 3 or 4"
        )),
        (_, Some(_), true) => out.push(format!(
            "{what}: sender_sha256, which recipients can test every player id against: from format {ADDRESS_FORMAT} on an anonymous sender is a sender_commitment"
        )),
        (Some(c), _, _) | (_, Some(c), _) if !is_digest(c) => {
            out.push(format!("{what}: its sender's digest is not a sha256"))
        }
        _ => {}
    }
    let mut seen = Vec::new();
    for t in &p.to {
        if seen.contains(&t) {
            out.push(format!("{what}: to names {t} twice"));
        }
        seen.push(t);
    }
    let in_order: Vec<&String> = players.iter().filter(|x| p.to.contains(x)).collect();
    if in_order != seen && seen.iter().all(|t| players.contains(t)) {
        out.push(format!("{what}: to is not in seat order"));
    }
    if let Some(r) = rules {
        let rule = format!("the game's press rules: {}", r.kind);
        match r.kind.as_str() {
            "public" | "private" | "grey" => {}
            _ => out.push(format!("{what}: press in a game with no press ({rule})")),
        }
        if anonymous && r.kind != "grey" {
            out.push(format!(
                "{what}: anonymous press where it is not allowed ({rule})"
            ));
        }
        let others: Vec<&String> = players
            .iter()
            .filter(|x| p.from.as_ref() != Some(*x))
            .collect();
        if r.kind == "public" && seen != others {
            out.push(format!(
                "{what}: press not to all other players where only public press is allowed ({rule})"
            ));
        }
        if at.ended && !r.after_end {
            out.push(format!(
                "{what}: press after the game ended, which its rules do not allow"
            ));
        }
        if !at.ended && !r.while_resolving {
            if let (Some(d), Some(t)) = (at.head.deadline.as_deref().and_then(time), time(&p.at)) {
                if t >= d {
                    out.push(format!(
                        "{what}: press at {} past the deadline of turn {} ({}), while the turn waited to be resolved, which its rules do not allow",
                        p.at,
                        at.head.turn,
                        at.head.deadline.as_deref().unwrap_or("")
                    ));
                }
            }
        }
    }
    if !is_time(&p.at) {
        out.push(format!(
            "{what}: at `{}` is not a time (RFC 3339)",
            p.at.escape_debug()
        ));
    }
}
