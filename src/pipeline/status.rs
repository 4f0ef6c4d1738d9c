//! `herald status`: where the game stands, from the head record alone
//! (no replay, no walk of the log's bodies).

use super::loaded::Loaded;
use super::nmr;
use crate::error::Result;
use crate::store::{orders, Store};

/// `herald status`'s text, top to bottom as it is printed: long (about 95
/// lines) because it is one page.
pub fn text(
    store: &Store,
    g: &Loaded,
    now: &chrono::DateTime<chrono::FixedOffset>,
) -> Result<String> {
    told(store, g, now, true)
}

/// The status as the host mails it to a player (the `status` command):
/// the same page without the host's folders ("orders in for turn 3: …"),
/// which are the moderator's business.
pub fn text_for_mail(
    store: &Store,
    g: &Loaded,
    now: &chrono::DateTime<chrono::FixedOffset>,
) -> Result<String> {
    told(store, g, now, false)
}

/// Long (about 105 lines): one status text, a paragraph a fact (the turn, the
/// outcome, the deadline, the missed and stored orders, the paths), in the
/// order it is printed.
fn told(
    store: &Store,
    g: &Loaded,
    now: &chrono::DateTime<chrono::FixedOffset>,
    paths: bool,
) -> Result<String> {
    let h = g.head();
    let mut s = format!(
        "{} — {} ({} {})\n",
        h.id,
        g.entry.title,
        h.ruleset.name,
        &h.ruleset.sha256[..12.min(h.ruleset.sha256.len())]
    );
    s.push_str(&format!("players: {}\n", h.player_ids().join(", ")));
    let bots: Vec<String> = h
        .players
        .iter()
        .filter_map(|p| Some(format!("{} (bot {})", p.id, g.genesis.bot(&p.id)?)))
        .collect();
    if !bots.is_empty() {
        s.push_str(&format!(
            "bot seats: {} (their orders are made from their view when the phase is resolved)\n",
            bots.join(", ")
        ));
    }
    s.push_str(&format!("turn {}, phase {}\n", h.turn, h.phase));
    match &h.outcome {
        Some(o) => s.push_str(&format!("game over: {}\n", o.summary)),
        None => s.push_str(&format!(
            "awaiting orders from: {}\n",
            h.awaiting.join(", ")
        )),
    }
    if let Some(d) = &h.deadline {
        s.push_str(&format!("deadline: {}\n", crate::time::shown(d)));
    }
    let missed: Vec<String> = h
        .missed
        .iter()
        .map(|m| {
            let mut t = format!("{} {}", m.player, m.total);
            if m.dropped {
                t.push_str(" (dropped out)");
            }
            t
        })
        .collect();
    s.push_str(&format!(
        "missed orders: {} (policy {}{})\n",
        missed.join(", "),
        nmr::policy(h, g.entry).name(),
        if h.drop_after > 0 {
            format!("; drop-out after {} in a row", h.drop_after)
        } else {
            String::new()
        }
    ));
    s.push_str(&format!(
        "chain head: {} (entry {}; key {})\n",
        g.record.chain_head(),
        g.record.entries.len() - 1,
        g.key.fingerprint()
    ));
    if h.outcome.is_some() {
        return Ok(s);
    }
    let waiting: Vec<String> = orders::waiting(&store.dir, h.turn)?
        .into_iter()
        .map(|w| w.player)
        .collect();
    if !waiting.is_empty() {
        let missing: Vec<&str> = h
            .awaiting
            .iter()
            .filter(|p| !waiting.contains(p) && g.genesis.bot(p).is_none())
            .map(String::as_str)
            .collect();
        let place = if paths {
            store.dir.orders_dir(h.turn).display().to_string()
        } else {
            format!("for turn {}", h.turn)
        };
        s.push_str(&format!(
            "orders in {place}: {}; still missing: {}\n",
            waiting.join(", "),
            if missing.is_empty() {
                "nobody".to_string()
            } else {
                missing.join(", ")
            }
        ));
    }
    if let Some(d) = h
        .deadline
        .as_deref()
        .and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok())
    {
        let left = d.signed_duration_since(*now).num_seconds();
        let policy = nmr::policy(h, g.entry).name();
        if left > 0 {
            s.push_str(&format!(
                "time left: {}\n",
                crate::time::span_shown(left as u64)
            ));
        } else {
            s.push_str(&format!(
                "the deadline passed {} ago: `herald resolve` now stands in for missing orders ({policy})\n",
                crate::time::span_shown(left.unsigned_abs())
            ));
        }
    }
    Ok(s)
}
