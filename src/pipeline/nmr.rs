//! Missed orders (NMR, "no moves received"): what herald sends for a player
//! who sent nothing by the deadline, and what the last phase had to say
//! about orders. The counts themselves live in the head record.
//!
//! [`stand_in`] is the one path a missed order takes, whatever the policy:
//! the player's last orders (`repeat`), the game's hold (`hold`), or a bot
//! that is handed the player's view and nothing else (`bot`).

use super::loaded::Loaded;
use crate::bots;
use crate::chain::body::Phase;
use crate::chain::Head;
use crate::games::{AnyState, Entry, Nmr, Rules, Seat};
use crate::orders::OrderFile;
use crate::report::LastPhase;
use crate::rng::{self, ChaCha20Rng};
use serde_json::Value;

/// The game's policy (the head record's, if this herald knows it).
pub fn policy(head: &Head, entry: &Entry) -> Nmr {
    Nmr::parse(&head.nmr)
        .filter(|p| entry.nmr.contains(p))
        .unwrap_or(entry.nmr[0])
}

/// The orders standing in for `seat`'s missing file, and the policy that
/// gave them. `repeat` falls back to `hold` where the last orders are no
/// longer legal; `hold` falls back to the bot where the rules allow no
/// hold now (a deployment, a game without a pass).
pub fn stand_in(g: &Loaded, seat: Seat, seed: &str) -> (Nmr, Vec<String>) {
    let wanted = policy(g.head(), g.entry);
    if wanted == Nmr::Repeat {
        if let Some(lines) = repeat(g, seat) {
            return (Nmr::Repeat, lines);
        }
    }
    if matches!(wanted, Nmr::Hold | Nmr::Repeat) {
        if let Some(lines) = g.rules.hold_orders(&g.state, seat) {
            return (Nmr::Hold, lines);
        }
    }
    let head = g.head();
    let id = &head.players[seat].id;
    let mut r = rng::phase_rng(seed, &head.id, head.turn, &format!("missed orders of {id}"));
    let orders = bot_orders(
        g.rules.as_ref(),
        &g.state,
        &g.players(),
        seat,
        &g.events_for(seat),
        &bots::STAND_IN,
        &mut r,
    );
    (Nmr::Bot, orders)
}

/// The orders of a bot seat (the genesis's `bots`) for the phase the game
/// waits for, with the spec that made them: its bot plays through
/// [`bot_orders`], the stand-in's own view-only path, from a stream of its
/// own (`bot seat <player>`, drawn from the game's seed, so `verify`
/// makes them again bit for bit). `None`: `seat` is a person's.
pub fn bot_seat(g: &Loaded, seat: Seat, seed: &str) -> Option<(String, Vec<String>)> {
    let head = g.head();
    let id = &head.players[seat].id;
    let spec = g.genesis.bot(id)?;
    // The genesis's specs were checked when the game began, and `verify`
    // names one that does not read; one that does not still plays, as
    // the stand-in does.
    let bot = bots::BotSpec::parse(spec).unwrap_or(bots::STAND_IN);
    let mut r = rng::phase_rng(seed, &head.id, head.turn, &format!("bot seat {id}"));
    let orders = bot_orders(
        g.rules.as_ref(),
        &g.state,
        &g.players(),
        seat,
        &g.events_for(seat),
        &bot,
        &mut r,
    );
    Some((spec.to_string(), orders))
}

/// A bot's orders for `seat`: the `bot` policy's (the stand-in bot,
/// [`bots::STAND_IN`]) or a bot seat's (its own `spec`) decides on
/// `seat`'s view, built here from exactly what a report takes (the state,
/// the players, the events the report tells), and gets nothing else
/// (issue 20). Deterministic from `r`.
pub fn bot_orders(
    rules: &dyn Rules,
    state: &AnyState,
    players: &[String],
    seat: Seat,
    events: &[(u32, Value)],
    spec: &bots::BotSpec,
    r: &mut ChaCha20Rng,
) -> Vec<String> {
    // Events a report could not read would make the report fail too; the
    // bot then decides on the view without them.
    let view = rules
        .view(state, players, seat, events)
        .or_else(|_| rules.view(state, players, seat, &[]));
    let chosen = view
        .ok()
        .map(|view| bots::seat_orders_on_view(rules, &view, seat, players.len(), spec, r));
    match chosen {
        Some(Ok(orders)) => orders,
        // A view the bot cannot work from: a random legal set (a player's
        // own legal orders never depend on what they cannot see).
        _ => rng::pick(r, &rules.legal_orders(state, seat))
            .cloned()
            .unwrap_or_default(),
    }
}

/// The player's orders from the last phase of the same kind, if every one
/// of them still parses and the set passes the game's check.
fn repeat(g: &Loaded, seat: Seat) -> Option<Vec<String>> {
    let id = &g.head().players[seat].id;
    let phase = g.rules.phase(&g.state);
    let last = g
        .phases_back()
        .filter(|e| e.phase == phase)
        .find_map(|e| e.orders.into_iter().find(|o| &o.player == id))?;
    let file = OrderFile::parse("repeat", &last.text).ok()?;
    let parsed = file
        .orders
        .iter()
        .map(|l| g.rules.parse_order(&g.state, seat, &l.text))
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    g.rules
        .check(&g.state, seat, &parsed)
        .is_empty()
        .then(|| parsed.into_iter().map(|o| o.text).collect())
}

/// Who sent nothing in a phase (and what stood in), who was late, who
/// dropped out.
pub fn last_phase(p: &Phase) -> LastPhase {
    let due = p
        .deadline
        .as_deref()
        .and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok());
    let late = p
        .orders
        .iter()
        .filter(|o| {
            let sent = o
                .received
                .as_deref()
                .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok());
            matches!((sent, due), (Some(s), Some(d)) if s > d)
        })
        .map(|o| o.player.clone())
        .collect();
    LastPhase {
        turn: p.turn,
        missing: p
            .orders
            .iter()
            .filter_map(|o| o.nmr.as_ref().map(|n| (o.player.clone(), n.clone())))
            .collect(),
        late,
        dropped: p.dropped.clone(),
    }
}
