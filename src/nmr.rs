//! Missed orders (NMR, "no moves received"): what herald sends for a player
//! who sent nothing by the deadline, and the counts every report shows.

use crate::engine::Loaded;
use crate::file::{GameFile, LogEntry};
use crate::games::{Entry, Nmr, Seat};
use crate::orders::OrderFile;
use crate::rng;
use serde::Serialize;

/// The game file's policy, or the game's default for files without one.
pub fn policy(file: &GameFile, entry: &Entry) -> Nmr {
    file.nmr
        .as_deref()
        .and_then(Nmr::parse)
        .filter(|p| entry.nmr.contains(p))
        .unwrap_or(entry.nmr[0])
}

/// The orders standing in for `seat`'s missing file, and the policy that
/// gave them. `repeat` falls back to `hold` where the last orders are no
/// longer legal; `hold` falls back to the bot where the rules allow no
/// hold now (a deployment, a game without a pass).
pub fn stand_in(g: &Loaded, seat: Seat, seed: &str) -> (Nmr, Vec<String>) {
    let wanted = policy(&g.file, g.entry);
    if wanted == Nmr::Repeat {
        if let Some(lines) = repeat(g, seat) {
            return (Nmr::Repeat, lines);
        }
    }
    if matches!(wanted, Nmr::Hold | Nmr::Repeat) {
        if let Some(lines) = g.session.hold_orders(&g.state, seat) {
            return (Nmr::Hold, lines);
        }
    }
    let id = &g.file.players[seat].id;
    let mut r = rng::phase_rng(
        seed,
        &g.file.id,
        g.file.turn,
        &format!("missed orders of {id}"),
    );
    (
        Nmr::Bot,
        g.session
            .view_bot_orders(&g.state, &g.players(), seat, &g.events_for(seat), &mut r),
    )
}

/// The player's orders from the last phase of the same kind, if every one
/// of them still parses and the set passes the game's check.
fn repeat(g: &Loaded, seat: Seat) -> Option<Vec<String>> {
    let id = &g.file.players[seat].id;
    let phase = g.session.phase(&g.state);
    let last = g
        .file
        .log
        .iter()
        .rev()
        .filter(|e| e.phase == phase)
        .find_map(|e| e.orders.iter().find(|o| &o.player == id))?;
    let file = OrderFile::parse("repeat", &last.text).ok()?;
    let parsed = file
        .orders
        .iter()
        .map(|l| g.session.parse_order(&g.state, seat, &l.text))
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    g.session
        .check(&g.state, seat, &parsed)
        .is_empty()
        .then(|| parsed.into_iter().map(|o| o.text).collect())
}

/// Phases in a row, up to the end of `log`, for which `player` sent nothing
/// (phases that did not await them do not break the run).
pub fn streak(log: &[LogEntry], player: &str) -> u32 {
    let mut n = 0;
    for e in log.iter().rev() {
        match e.orders.iter().find(|o| o.player == player) {
            Some(o) if o.nmr.is_some() => n += 1,
            Some(_) => break,
            None => {}
        }
    }
    n
}

/// One player's missed orders, for every report.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Missed {
    pub player: String,
    pub total: u32,
    pub in_a_row: u32,
    pub dropped: bool,
}

/// What the last resolved phase had to say about orders: who sent none
/// (and what stood in), who was late, who dropped out.
#[derive(Debug, Clone, Serialize, Default)]
pub struct LastPhase {
    pub turn: u32,
    /// `(player, policy)` for each stand-in.
    pub missing: Vec<(String, String)>,
    /// Players whose mail was sent after the deadline (and still used).
    pub late: Vec<String>,
    pub dropped: Vec<String>,
}

pub fn missed(file: &GameFile) -> Vec<Missed> {
    file.players
        .iter()
        .map(|p| Missed {
            player: p.id.clone(),
            total: file
                .log
                .iter()
                .flat_map(|e| &e.orders)
                .filter(|o| o.player == p.id && o.nmr.is_some())
                .count() as u32,
            in_a_row: streak(&file.log, &p.id),
            dropped: file.log.iter().any(|e| e.dropped.contains(&p.id)),
        })
        .collect()
}

pub fn last_phase(file: &GameFile) -> Option<LastPhase> {
    let e = file.log.last()?;
    let due = e
        .deadline
        .as_deref()
        .and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok());
    let late = e
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
    Some(LastPhase {
        turn: e.turn,
        missing: e
            .orders
            .iter()
            .filter_map(|o| o.nmr.as_ref().map(|n| (o.player.clone(), n.clone())))
            .collect(),
        late,
        dropped: e.dropped.clone(),
    })
}
