//! Vacations through the door (docs/host.md, "Vacations"): a player asks
//! to be away until a date, a time or for a length of time, or to be
//! back (by mail, `vacation PLAYER PASSWORD until DATE`, `… for 90
//! minutes` and `back PLAYER PASSWORD`; `host::commands` reads them). A
//! vacation granted is a `vacation` entry in the game's log (format 3):
//! the player, the end, and what is charged to the player's allowance (a
//! per-game number of days, from the table the game came from: `herald
//! host open --vacation-days`, 14 by default) in the unit the player
//! asked ([`Unit`]: format 7's `length` and `unit`; a game of format 3 to
//! 6 records, and so charges, whole `days`). Never the reason.
//!
//! `back` ends it early and gives back the whole units not used, in the
//! vacation's unit. What a vacation does at a deadline (`host::vacation`,
//! the host's game time) is the table's [`VacationMode`].
//!
//! Each returns a typed outcome ([`Granted`], [`Returned`]) or refusal
//! ([`Refusal`]); the words are the edge's (`host::commands`).

use crate::chain::body::{Body, Vacation};
use crate::chain::rules::{self, vacation_minutes};
use crate::chain::LENGTH_FORMAT;
use crate::error::{Error, Result};
use crate::pipeline::{self, Loaded, Writing};
use chrono::{DateTime, FixedOffset};
use serde::{Deserialize, Serialize};

const DAY: i64 = 86_400;

/// The longest length a player may write (`for N UNIT`): far past any
/// allowance, and no overflow when it is made a time.
const MOST: u32 = 1_000_000;

/// The unit a vacation is asked, charged and told in: a date asks whole
/// days, an RFC 3339 time minutes, `for N hours` hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Unit {
    Minute,
    Hour,
    Day,
}

impl Unit {
    /// Its name in the game file (format 7's `unit`).
    pub fn name(self) -> &'static str {
        match self {
            Unit::Minute => "minute",
            Unit::Hour => "hour",
            Unit::Day => "day",
        }
    }

    /// Its length in seconds.
    pub fn seconds(self) -> i64 {
        rules::unit_seconds(self.name()).unwrap_or(DAY)
    }

    /// The unit of its length in seconds (the game file's).
    fn of_seconds(s: i64) -> Unit {
        [Unit::Minute, Unit::Hour, Unit::Day]
            .into_iter()
            .find(|u| u.seconds() == s)
            .unwrap_or(Unit::Day)
    }

    /// A unit as a player writes it: `minute`, `minutes`, `min`, `hour`,
    /// `hours`, `h`, `day`, `days`, `d` (any case).
    fn word(w: &str) -> Option<Unit> {
        match w.to_ascii_lowercase().as_str() {
            "minute" | "minutes" | "min" | "mins" | "m" => Some(Unit::Minute),
            "hour" | "hours" | "hr" | "hrs" | "h" => Some(Unit::Hour),
            "day" | "days" | "d" => Some(Unit::Day),
            _ => None,
        }
    }
}

/// A length in a unit, told as a player says it: "1 minute", "2 days".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Length {
    pub n: u32,
    pub unit: Unit,
}

impl std::fmt::Display for Length {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = if self.n == 1 { "" } else { "s" };
        write!(f, "{} {}{s}", self.n, self.unit.name())
    }
}

impl Length {
    /// `minutes` in whole `unit`s (rounded down: what is left).
    fn of_minutes(minutes: u64, unit: Unit) -> Length {
        let per = (unit.seconds() / 60) as u64;
        Length {
            n: u32::try_from(minutes / per).unwrap_or(u32::MAX),
            unit,
        }
    }

    fn minutes(self) -> u64 {
        u64::from(self.n) * (self.unit.seconds() / 60) as u64
    }
}

/// What a vacation does to a deadline that comes with the player's
/// orders missing (a table's `--vacation`; docs/host.md, "Vacations").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VacationMode {
    /// The deadline moves to the end of the vacation.
    #[default]
    Extend,
    /// The deadline stands; the game's stand-in plays the phase for the
    /// player, not counted as missed.
    StandIn,
}

impl VacationMode {
    pub const NAMES: [&'static str; 2] = ["extend", "stand-in"];

    pub fn parse(s: &str) -> Option<VacationMode> {
        match s {
            "extend" => Some(VacationMode::Extend),
            "stand-in" => Some(VacationMode::StandIn),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            VacationMode::Extend => "extend",
            VacationMode::StandIn => "stand-in",
        }
    }
}

/// A time in RFC 3339, if it reads.
pub fn time(t: &str) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(t).ok()
}

/// Every vacation entry of `player`, in log order.
fn entries(g: &Loaded, player: &str) -> Vec<Vacation> {
    g.record
        .entries
        .iter()
        .filter(|e| e.body.contains("\"kind\":\"vacation\""))
        .filter_map(|e| match e.decode() {
            Ok(Body::Vacation(v)) if v.player == player => Some(v),
            _ => None,
        })
        .collect()
}

/// The end of `player`'s vacation, if they are away at `now`.
pub fn away_until(g: &Loaded, player: &str, now: &DateTime<FixedOffset>) -> Option<String> {
    let last = entries(g, player).pop()?;
    (!last.back && time(&last.until).is_some_and(|u| u > *now)).then_some(last.until)
}

/// Minutes charged to `player` so far (what was given back taken off; a
/// day of a format-6 entry is 1440).
pub fn used(g: &Loaded, player: &str) -> u64 {
    entries(g, player).iter().fold(0u64, |n, v| {
        let m = vacation_minutes(v).map_or(0, |(m, _)| m);
        if v.back {
            n.saturating_sub(m)
        } else {
            n + m
        }
    })
}

/// What a player asked, read: the end, and the unit it is charged in. A
/// date (`YYYY-MM-DD`, the start of that day, UTC: the player is back
/// that day) asks whole days; an RFC 3339 time minutes; a length (`90
/// minutes`, `3 hours`, `2 days`, `1 d`, after `for` by mail) its own
/// unit, from `now`.
pub fn parse_asked(s: &str, now: &DateTime<FixedOffset>) -> Option<(DateTime<FixedOffset>, Unit)> {
    let s = s.trim();
    if let Some(t) = time(s) {
        return Some((t, Unit::Minute));
    }
    if let Ok(d) = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        return Some((d.and_hms_opt(0, 0, 0)?.and_utc().fixed_offset(), Unit::Day));
    }
    let s = s
        .strip_prefix("for ")
        .or_else(|| s.strip_prefix("FOR "))
        .unwrap_or(s)
        .trim();
    let digits = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (n, unit) = s.split_at(digits);
    let n: u32 = n.parse().ok().filter(|n| (1..=MOST).contains(n))?;
    let unit = Unit::word(unit.trim())?;
    Some((
        *now + chrono::Duration::seconds(i64::from(n) * unit.seconds()),
        unit,
    ))
}

/// A date as a player writes it: RFC 3339, or `YYYY-MM-DD` (the start of
/// that day, UTC: the player is back that day).
pub fn parse_until(s: &str) -> Option<DateTime<FixedOffset>> {
    time(s).or_else(|| {
        chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|t| t.and_utc().fixed_offset())
    })
}

/// A vacation granted: to `until` (RFC 3339), `charged` now (0 for the
/// same request read again), `left` of the game's allowance after it (in
/// the unit charged, rounded down), the allowance in days.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Granted {
    pub player: String,
    pub until: String,
    pub charged: Length,
    pub left: Length,
    pub allowance: u32,
    pub mode: VacationMode,
}

/// A vacation ended early: `given` back, in the vacation's unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Returned {
    pub player: String,
    pub given: Length,
}

/// Why a vacation (or `back`) is refused; nothing is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The game file's format (below 3) cannot record a vacation.
    Format(u32),
    /// The game is over.
    Over,
    /// `until` is not a date, a time or a length (as the player wrote it).
    NotADate(String),
    /// The end (RFC 3339) is not in the future.
    NotFuture(String),
    /// Away already, until this (RFC 3339).
    AwayAlready(String),
    /// More asked than is left (both in the unit asked) of the
    /// `allowance` (days); `latest` is the furthest end the allowance
    /// reaches, as the player would write it (a date for days, else an
    /// RFC 3339 time).
    TooLong {
        asked: Length,
        left: Length,
        allowance: u32,
        latest: String,
    },
    /// `back` from a player who is not away.
    NotAway,
}

/// Grant `player` (their password checked) a vacation until `until` (a
/// date, a time or a length: [`parse_asked`]), charged in the unit asked
/// (whole days in a game of format 3 to 6, which records no other).
/// The inner `Err` is the refusal (nothing written).
///
/// Long (about 80 lines): the refusals in the order a player meets them,
/// then the entry in the unit the game's format records.
pub fn request(
    w: &mut Writing,
    player: &str,
    until: &str,
    now: &str,
    allowance: u32,
    mode: VacationMode,
) -> Result<std::result::Result<Granted, Refusal>> {
    let h = w.game.head();
    if h.format < 3 {
        return Ok(Err(Refusal::Format(h.format)));
    }
    if h.outcome.is_some() {
        return Ok(Err(Refusal::Over));
    }
    let now_t = time(now).ok_or_else(|| Error::internal("the pass's time"))?;
    let Some((end, asked_unit)) = parse_asked(until, &now_t) else {
        return Ok(Err(Refusal::NotADate(until.to_string())));
    };
    if end <= now_t {
        return Ok(Err(Refusal::NotFuture(end.to_rfc3339())));
    }
    let seven = h.format >= LENGTH_FORMAT;
    let unit = if seven { asked_unit } else { Unit::Day };
    let all = u64::from(allowance) * 1440;
    let left_min = all.saturating_sub(used(&w.game, player));
    let granted = |until: &str, charged: Length, left_min: u64| Granted {
        player: player.to_string(),
        until: until.to_string(),
        charged,
        left: Length::of_minutes(left_min, unit),
        allowance,
        mode,
    };
    if let Some(u) = away_until(&w.game, player, &now_t) {
        if time(&u) == Some(end) {
            // The same mail read again after a restart: the same answer.
            return Ok(Ok(granted(&u, Length { n: 0, unit }, left_min)));
        }
        return Ok(Err(Refusal::AwayAlready(u)));
    }
    let until = end.to_rfc3339();
    let n = rules::charged(now, &until, unit.seconds())
        .ok_or_else(|| Error::internal("a vacation's length"))?;
    let charged = Length { n, unit };
    if charged.minutes() > left_min {
        let left = Length::of_minutes(left_min, unit);
        let reach = now_t + chrono::Duration::seconds(i64::from(left.n) * unit.seconds());
        return Ok(Err(Refusal::TooLong {
            asked: charged,
            left,
            allowance,
            latest: match unit {
                Unit::Day => reach.format("%Y-%m-%d").to_string(),
                _ => reach.to_rfc3339(),
            },
        }));
    }
    pipeline::forward_in_time(&w.game, now)?;
    let turn = h.turn;
    let (days, length, unit_name) = if seven {
        (None, Some(n), Some(unit.name().to_string()))
    } else {
        (Some(n), None, None)
    };
    w.game.record.append(
        &Body::Vacation(Vacation {
            player: player.to_string(),
            until: until.clone(),
            days,
            length,
            unit: unit_name,
            back: false,
            turn,
            at: now.to_string(),
        }),
        &w.signer,
    );
    w.game.record.seal_with(&w.signer);
    w.commit(now)?;
    Ok(Ok(granted(&until, charged, left_min - charged.minutes())))
}

/// End `player`'s vacation now; the whole units not used (in the
/// vacation's unit) are given back.
pub fn back(
    w: &mut Writing,
    player: &str,
    now: &str,
) -> Result<std::result::Result<Returned, Refusal>> {
    let now_t = time(now).ok_or_else(|| Error::internal("the pass's time"))?;
    let Some(until) = away_until(&w.game, player, &now_t) else {
        return Ok(Err(Refusal::NotAway));
    };
    let unit = entries(&w.game, player)
        .pop()
        .and_then(|v| vacation_minutes(&v))
        .map_or(Unit::Day, |(_, secs)| Unit::of_seconds(secs));
    let n = rules::given_back(now, &until, unit.seconds())
        .ok_or_else(|| Error::internal("a vacation's end that does not read as a time"))?;
    pipeline::forward_in_time(&w.game, now)?;
    let turn = w.game.head().turn;
    // Given back in the unit the vacation was charged in (a day for a
    // vacation of format 6's `days`), as `days` in a game of format 6.
    let (days, length, unit_name) = if w.game.head().format >= LENGTH_FORMAT {
        (None, Some(n), Some(unit.name().to_string()))
    } else {
        (Some(n), None, None)
    };
    w.game.record.append(
        &Body::Vacation(Vacation {
            player: player.to_string(),
            until: now.to_string(),
            days,
            length,
            unit: unit_name,
            back: true,
            turn,
            at: now.to_string(),
        }),
        &w.signer,
    );
    w.game.record.seal_with(&w.signer);
    w.commit(now)?;
    Ok(Ok(Returned {
        player: player.to_string(),
        given: Length { n, unit },
    }))
}
