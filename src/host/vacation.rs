//! Vacations in the host's game time (docs/host.md, "Vacations"): the
//! requests themselves (`vacation`, `back`) are the door's
//! (`crate::requests::vacation`); here, their words, and what a vacation
//! does at a deadline. While a player is away, a deadline that comes with
//! their orders missing is moved to the end of the vacation (a `deadline`
//! entry), and every other player with an address is told that the
//! deadline moved because a player is away, and to when; or, in stand-in
//! mode, the stand-in plays and the others are told.

use crate::chain::body::{Body, DeadlineSet};
use crate::error::Result;
use crate::mail::eml;
use crate::pipeline::{self, Loaded, Writing};
use crate::requests::vacation::time;
pub use crate::requests::vacation::{
    away_until, back, parse_asked, parse_until, request, used, Granted, Length, Refusal, Returned,
    Unit, VacationMode,
};

/// The words of a vacation granted (the reply to `vacation`): the charge
/// and what is left in the unit the player asked, the allowance in days.
pub fn granted_text(g: &Granted) -> String {
    let Granted {
        player,
        until,
        charged,
        left,
        allowance,
        mode,
    } = g;
    let meanwhile = match mode {
        VacationMode::Extend => "While you are away, a deadline that comes without your orders moves to\nthe end of your vacation; the other players are told that a deadline\nmoved because a player is away (not why).",
        VacationMode::StandIn => "While you are away, a deadline that comes without your orders stands:\nthe game's stand-in plays that phase for you, and it is not counted\nas missed; the other players are told that a stand-in played because a\nplayer is away (not why).",
    };
    format!(
        "Vacation granted for {player} until {}{}; {left} left of your allowance ({}).\n{meanwhile} Orders you send meanwhile\ncount as always. Back early? Send `back {player} YOUR-PASSWORD`.\n",
        crate::time::shown(until),
        if charged.n > 0 {
            format!(" ({charged} charged)")
        } else {
            String::new()
        },
        days(*allowance)
    )
}

/// "1 day", "14 days".
fn days(n: u32) -> String {
    format!("{n} day{}", if n == 1 { "" } else { "s" })
}

/// The words of a vacation ended early (the reply to `back`).
pub fn returned_text(r: &Returned) -> String {
    format!(
        "Welcome back, {}: your vacation is over; {} given back to your allowance.\n",
        r.player, r.given
    )
}

/// Why a vacation or `back` of `player` is refused, in words.
pub fn refusal_text(r: &Refusal, player: &str) -> String {
    let line = format!("vacation {player} YOUR-PASSWORD until YYYY-MM-DD");
    match r {
        Refusal::Format(f) => format!(
            "this game's file is format {f}, which cannot record a vacation; the moderator can run `herald convert` on it"
        ),
        Refusal::Over => "the game is over".into(),
        Refusal::NotADate(until) => format!(
            "`{}` is not a date: send `{line}` (or a time in RFC 3339, e.g. 2026-12-01T18:00:00Z, or `for 3 days`, `for 6 hours`, `for 90 minutes`)",
            until.chars().take(40).collect::<String>()
        ),
        Refusal::NotFuture(end) => format!(
            "{end} is not in the future: send `{line}` with the day you are back"
        ),
        Refusal::AwayAlready(u) => format!(
            "you are away until {u} already; send `back {player} YOUR-PASSWORD` first, then the new vacation"
        ),
        Refusal::TooLong {
            asked,
            left,
            allowance,
            latest,
        } => format!(
            "{asked} asked, {left} left of the {} this game allows each player; send `vacation {player} YOUR-PASSWORD until {latest}` at the latest",
            days(*allowance)
        ),
        Refusal::NotAway => format!(
            "{player} is not on vacation; to go away send `vacation {player} YOUR-PASSWORD until YYYY-MM-DD`"
        ),
    }
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
