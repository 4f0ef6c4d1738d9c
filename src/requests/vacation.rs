//! Vacations through the door (docs/host.md, "Vacations"): a player asks
//! to be away until a date, or to be back (by mail, `vacation PLAYER
//! PASSWORD until DATE` and `back PLAYER PASSWORD`; `host::commands`
//! reads them). A vacation granted is a `vacation` entry in the game's log
//! (format 3):
//! the player, the end, the whole days charged to the player's allowance
//! (a per-game number of days, from the table the game came from:
//! `herald host open --vacation-days`, 14 by default). Never the reason.
//!
//! `back` ends it early and gives back the whole days not used. What a
//! vacation does at a deadline (`host::vacation`, the host's game time)
//! is the table's [`VacationMode`].
//!
//! Each returns a typed outcome ([`Granted`], [`Returned`]) or refusal
//! ([`Refusal`]); the words are the edge's (`host::commands`).

use crate::chain::body::{Body, Vacation};
use crate::error::{Error, Result};
use crate::pipeline::{self, Loaded, Writing};
use chrono::{DateTime, FixedOffset};
use serde::{Deserialize, Serialize};

const DAY: i64 = 86_400;

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

/// Days charged to `player` so far (given back days taken off).
pub fn used(g: &Loaded, player: &str) -> u32 {
    entries(g, player).iter().fold(0u32, |n, v| {
        if v.back {
            n.saturating_sub(v.days)
        } else {
            n + v.days
        }
    })
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

/// A vacation granted: to `until` (RFC 3339), `days` charged now (0 for
/// the same request read again), `left` of the game's allowance after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Granted {
    pub player: String,
    pub until: String,
    pub days: u32,
    pub left: u32,
    pub mode: VacationMode,
}

/// A vacation ended early: `days` whole days given back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Returned {
    pub player: String,
    pub days: u32,
}

/// Why a vacation (or `back`) is refused; nothing is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The game file's format (below 3) cannot record a vacation.
    Format(u32),
    /// The game is over.
    Over,
    /// `until` is not a date (as the player wrote it).
    NotADate(String),
    /// The end (RFC 3339) is not in the future.
    NotFuture(String),
    /// Away already, until this (RFC 3339).
    AwayAlready(String),
    /// More days asked than are left; `latest` is the last day
    /// (YYYY-MM-DD) the allowance reaches.
    TooLong {
        days: i64,
        left: u32,
        allowance: u32,
        latest: String,
    },
    /// `back` from a player who is not away.
    NotAway,
}

/// Grant `player` (their password checked) a vacation until `until`.
/// The inner `Err` is the refusal (nothing written).
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
    let Some(end) = parse_until(until) else {
        return Ok(Err(Refusal::NotADate(until.to_string())));
    };
    if end <= now_t {
        return Ok(Err(Refusal::NotFuture(end.to_rfc3339())));
    }
    let granted = |until: &str, days: u32, left: u32| Granted {
        player: player.to_string(),
        until: until.to_string(),
        days,
        left,
        mode,
    };
    if let Some(u) = away_until(&w.game, player, &now_t) {
        if time(&u) == Some(end) {
            // The same mail read again after a restart: the same answer.
            let left = allowance - used(&w.game, player).min(allowance);
            return Ok(Ok(granted(&u, 0, left)));
        }
        return Ok(Err(Refusal::AwayAlready(u)));
    }
    let days = ((end - now_t).num_seconds() + DAY - 1) / DAY;
    let left = allowance.saturating_sub(used(&w.game, player));
    if days > left as i64 {
        return Ok(Err(Refusal::TooLong {
            days,
            left,
            allowance,
            latest: (now_t + chrono::Duration::days(left as i64))
                .format("%Y-%m-%d")
                .to_string(),
        }));
    }
    pipeline::forward_in_time(&w.game, now)?;
    let until = end.to_rfc3339();
    let turn = h.turn;
    w.game.record.append(
        &Body::Vacation(Vacation {
            player: player.to_string(),
            until: until.clone(),
            days: days as u32,
            back: false,
            turn,
            at: now.to_string(),
        }),
        &w.signer,
    );
    w.game.record.seal_with(&w.signer);
    w.commit(now)?;
    Ok(Ok(granted(&until, days as u32, left - days as u32)))
}

/// End `player`'s vacation now; the whole days not used are given back.
pub fn back(
    w: &mut Writing,
    player: &str,
    now: &str,
) -> Result<std::result::Result<Returned, Refusal>> {
    let now_t = time(now).ok_or_else(|| Error::internal("the pass's time"))?;
    let Some(until) = away_until(&w.game, player, &now_t) else {
        return Ok(Err(Refusal::NotAway));
    };
    let end = time(&until)
        .ok_or_else(|| Error::internal("a vacation's end that does not read as a time"))?;
    let days = ((end - now_t).num_seconds() / DAY) as u32;
    pipeline::forward_in_time(&w.game, now)?;
    let turn = w.game.head().turn;
    w.game.record.append(
        &Body::Vacation(Vacation {
            player: player.to_string(),
            until: now.to_string(),
            days,
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
        days,
    }))
}
