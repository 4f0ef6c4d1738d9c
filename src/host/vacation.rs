//! Vacations (docs/host.md, "Vacations"): `vacation PLAYER PASSWORD until
//! DATE` and `back PLAYER PASSWORD`, by mail to the game's address. A
//! vacation granted is a `vacation` entry in the game's log (format 3):
//! the player, the end, the whole days charged to the player's allowance
//! (a per-game number of days, from the table the game came from:
//! `herald host open --vacation-days`, 14 by default). Never the reason.
//!
//! While a player is away, a deadline that comes with their orders missing
//! is moved to the end of the vacation (a `deadline` entry), and every
//! other player with an address is told that the deadline moved because a
//! player is away, and to when. `back` ends it early and gives back the
//! whole days not used.

use crate::chain::body::{Body, DeadlineSet, Vacation};
use crate::error::{Error, Result};
use crate::host::lobby::seats::VacationMode;
use crate::mail::eml;
use crate::pipeline::{self, Loaded, Writing};
use chrono::{DateTime, FixedOffset};

const DAY: i64 = 86_400;

fn time(t: &str) -> Option<DateTime<FixedOffset>> {
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

/// Grant `player` (their password checked) a vacation until `until`.
/// `Err` is the refusal's text (nothing written).
pub fn request(
    w: &mut Writing,
    player: &str,
    until: &str,
    now: &str,
    allowance: u32,
    mode: VacationMode,
    // A String error: both sides are the reply mailed to the player (text by design).
) -> Result<std::result::Result<String, String>> {
    let h = w.game.head();
    let line = format!("vacation {player} YOUR-PASSWORD until YYYY-MM-DD");
    if h.format < 3 {
        return Ok(Err(format!(
            "this game's file is format {}, which cannot record a vacation; the moderator can run `herald convert` on it",
            h.format
        )));
    }
    if h.outcome.is_some() {
        return Ok(Err("the game is over".into()));
    }
    let now_t = time(now).ok_or_else(|| Error::internal("the pass's time"))?;
    let Some(end) = parse_until(until) else {
        return Ok(Err(format!(
            "`{}` is not a date: send `{line}` (or a time in RFC 3339, e.g. 2026-12-01T18:00:00Z)",
            until.chars().take(40).collect::<String>()
        )));
    };
    if end <= now_t {
        return Ok(Err(format!(
            "{} is not in the future: send `{line}` with the day you are back",
            end.to_rfc3339()
        )));
    }
    if let Some(u) = away_until(&w.game, player, &now_t) {
        if time(&u) == Some(end) {
            // The same mail read again after a restart: the same answer.
            return Ok(Ok(granted_text(
                player,
                &u,
                0,
                allowance - used(&w.game, player).min(allowance),
                mode,
            )));
        }
        return Ok(Err(format!(
            "you are away until {u} already; send `back {player} YOUR-PASSWORD` first, then the new vacation"
        )));
    }
    let days = ((end - now_t).num_seconds() + DAY - 1) / DAY;
    let left = allowance.saturating_sub(used(&w.game, player));
    if days > left as i64 {
        return Ok(Err(format!(
            "{days} days asked, {left} left of the {allowance} days this game allows each player; send `vacation {player} YOUR-PASSWORD until {}` at the latest",
            (now_t + chrono::Duration::days(left as i64)).format("%Y-%m-%d")
        )));
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
    Ok(Ok(granted_text(
        player,
        &until,
        days as u32,
        left - days as u32,
        mode,
    )))
}

fn granted_text(player: &str, until: &str, days: u32, left: u32, mode: VacationMode) -> String {
    let meanwhile = match mode {
        VacationMode::Extend => "While you are away, a deadline that comes without your orders moves to\nthe end of your vacation; the other players are told that a deadline\nmoved because a player is away (not why).",
        VacationMode::StandIn => "While you are away, a deadline that comes without your orders stands:\nthe game's stand-in plays that phase for you, and it is not counted\nas missed; the other players are told that a stand-in played because a\nplayer is away (not why).",
    };
    format!(
        "Vacation granted for {player} until {}{}; {left} days left of your allowance.\n{meanwhile} Orders you send meanwhile\ncount as always. Back early? Send `back {player} YOUR-PASSWORD`.\n",
        crate::time::shown(until),
        if days > 0 {
            format!(" ({days} days charged)")
        } else {
            String::new()
        }
    )
}

/// End `player`'s vacation now; the whole days not used are given back.
pub fn back(
    w: &mut Writing,
    player: &str,
    now: &str,
    // A String error: both sides are the reply mailed to the player (text by design).
) -> Result<std::result::Result<String, String>> {
    let now_t = time(now).ok_or_else(|| Error::internal("the pass's time"))?;
    let Some(until) = away_until(&w.game, player, &now_t) else {
        return Ok(Err(format!(
            "{player} is not on vacation; to go away send `vacation {player} YOUR-PASSWORD until YYYY-MM-DD`"
        )));
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
    Ok(Ok(format!(
        "Welcome back, {player}: your vacation is over; {days} whole days given back to your allowance.\n"
    )))
}

/// At a deadline that has passed: if an awaited player without orders is
/// away, move the deadline to the latest end of such vacations (a
/// `deadline` entry), and queue a notice to every other player. Returns
/// the new deadline.
pub fn hold(w: &mut Writing, missing: &[String], now: &str, from: &str) -> Result<Option<String>> {
    let Some(now_t) = time(now) else {
        return Ok(None);
    };
    let mut away: Vec<(String, String)> = missing
        .iter()
        .filter_map(|p| away_until(&w.game, p, &now_t).map(|u| (p.clone(), u)))
        .collect();
    away.sort_by_key(|(_, u)| time(u));
    let Some((_, until)) = away.last().cloned() else {
        return Ok(None);
    };
    let h = w.game.head();
    if h.deadline.as_deref().and_then(time) >= time(&until) {
        return Ok(None);
    }
    pipeline::forward_in_time(&w.game, now)?;
    w.game.record.append(
        &Body::Deadline(DeadlineSet {
            deadline: Some(until.clone()),
            at: now.to_string(),
        }),
        &w.signer,
    );
    w.game.record.head.deadline = Some(until.clone());
    w.game.record.seal_with(&w.signer);
    w.commit(now)?;
    let away_ids: Vec<&str> = away.iter().map(|(p, _)| p.as_str()).collect();
    moved_notices(w, &away_ids, &until, now, from)?;
    Ok(Some(until))
}

/// After a pass cut short between moving a deadline for a vacation (the
/// commit) and queueing the others' notices: when the log ends with a
/// `deadline` entry that set the deadline to the end of an away awaited
/// player's vacation, the notices are queued again (fixed Message-IDs: a
/// mail sent already is left out).
pub fn renotify(w: &Writing, now: &str, from: &str) -> Result<()> {
    let Some(last) = w.game.record.entries.last() else {
        return Ok(());
    };
    let Ok(Body::Deadline(d)) = last.decode() else {
        return Ok(());
    };
    let (Some(until), Some(at)) = (d.deadline, time(&d.at)) else {
        return Ok(());
    };
    let h = w.game.head();
    let away: Vec<&str> = h
        .awaiting
        .iter()
        .filter(|p| away_until(&w.game, p, &at).as_deref() == Some(until.as_str()))
        .map(String::as_str)
        .collect();
    if away.is_empty() || h.deadline.as_deref() != Some(until.as_str()) {
        return Ok(());
    }
    moved_notices(w, &away, &until, now, from)
}

/// The others told that the deadline moved to `until` because `away_ids`
/// are away (never why).
fn moved_notices(w: &Writing, away_ids: &[&str], until: &str, now: &str, from: &str) -> Result<()> {
    let h = w.game.head();
    let mut mails = Vec::new();
    for p in &h.players {
        let Some(to) = &p.email else { continue };
        if away_ids.contains(&p.id.as_str()) {
            continue;
        }
        let mid = eml::message_id(
            &h.id,
            &["vacation-deadline", &h.turn.to_string(), until, &p.id],
        );
        mails.push((
            mid.clone(),
            eml::build(&eml::Mail {
                from: from.to_string(),
                to: to.clone(),
                subject: format!("[{}] the deadline of turn {} moved", h.id, h.turn),
                date: now.to_string(),
                message_id: mid,
                in_reply_to: None,
                text: format!(
                    "Hello,\n\nthe deadline of turn {} of game {} has moved to {}:\n{} on vacation until then (within the days the game allows\neach player), and their orders are not in yet. Orders you sent stand;\nyou may change them until the new deadline.\n",
                    h.turn,
                    h.id,
                    crate::time::shown(until),
                    if away_ids.len() == 1 {
                        format!("{} is", away_ids[0])
                    } else {
                        format!("{} are", away_ids.join(", "))
                    }
                ),
                attachments: Vec::new(),
            }),
        ));
    }
    crate::store::outbox::queue_all(&w.store.dir.outbox_dir(), mails)?;
    Ok(())
}

/// The awaited players without orders who are away at `now`, sorted.
pub fn away_missing(g: &Loaded, missing: &[String], now: &str) -> Vec<String> {
    let Some(now_t) = time(now) else {
        return Vec::new();
    };
    let mut v: Vec<String> = missing
        .iter()
        .filter(|p| away_until(g, p, &now_t).is_some())
        .cloned()
        .collect();
    v.sort();
    v
}

/// After a phase resolved at its deadline with `excused` (away, in
/// stand-in mode) played by the stand-in: every other player with an
/// address is told that a stand-in played because a player is away, and
/// until when (never why). Fixed Message-IDs.
pub fn stood_in(w: &Writing, turn: u32, excused: &[String], now: &str, from: &str) -> Result<()> {
    let g = &w.game;
    let h = g.head();
    let Some(now_t) = time(now) else {
        return Ok(());
    };
    let who: Vec<String> = excused
        .iter()
        .map(|p| match away_until(g, p, &now_t) {
            Some(u) => format!("{p} (away until {})", crate::time::shown(&u)),
            None => p.clone(),
        })
        .collect();
    let mut mails = Vec::new();
    for p in &h.players {
        let Some(to) = &p.email else { continue };
        if excused.contains(&p.id) {
            continue;
        }
        let mid = eml::message_id(&h.id, &["vacation-stand-in", &turn.to_string(), &p.id]);
        mails.push((
            mid.clone(),
            eml::build(&eml::Mail {
                from: from.to_string(),
                to: to.clone(),
                subject: format!("[{}] a stand-in played turn {turn}", h.id),
                date: now.to_string(),
                message_id: mid,
                in_reply_to: None,
                text: format!(
                    "Hello,\n\nturn {turn} of game {} was resolved at its deadline. {} on vacation\n(within the days the game allows each player), so the game's stand-in\nplayed for {} this turn, as this game's table chose; it is not counted as\na missed turn. The deadlines stay as they were.\n",
                    h.id,
                    if who.len() == 1 {
                        format!("{} is", who[0])
                    } else {
                        format!("{} are", who.join(", "))
                    },
                    if who.len() == 1 { "them" } else { "each of them" }
                ),
                attachments: Vec::new(),
            }),
        ));
    }
    crate::store::outbox::queue_all(&w.store.dir.outbox_dir(), mails)?;
    Ok(())
}
