//! Resolving a phase: every awaited player's orders (or, once the deadline
//! has passed, the missed-order policy's stand-ins), the phase's dice drawn
//! from the seed and those orders, the new state, and the log entry that
//! records it all. Nothing here touches the disk.

use super::check::{check_orders, check_orders_of, Accepted, Submitted};
use super::loaded::{summary, Loaded};
use super::nmr;
use crate::chain::body::{Body, Phase, Reveal, Roll};
use crate::chain::canon::sha256_hex;
use crate::chain::check::apply_phase;
use crate::chain::dice::phase_stream;
use crate::chain::step::PhaseStep;
use crate::chain::{Head, Signer};
use crate::error::{Error, Result};
use crate::games::{AnyState, Rules, Seat};
use crate::report;
use crate::rng::{Dice, Seen};

/// The dice derivation new phases use (`chain::dice`).
pub const DICE: u32 = 2;

/// Has the current phase's deadline passed at `now`?
pub fn deadline_passed(head: &Head, now: &str) -> bool {
    let due = head
        .deadline
        .as_deref()
        .and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok());
    let now = chrono::DateTime::parse_from_rfc3339(now).ok();
    matches!((due, now), (Some(d), Some(n)) if n >= d)
}

/// Check the files; every awaited player must have sent one, or, once the
/// deadline has passed, gets the missed-order policy's orders; every
/// awaited bot seat gets its bot's (`nmr::bot_seat`), deadline or not.
///
/// Long (about 90 lines): the files checked, then the bot seats' orders,
/// then the stand-ins, each made into an order file and checked as a
/// player's would be, in that order.
pub fn accept_all(g: &Loaded, files: &[Submitted], now: &str, seed: &str) -> Result<Accepted> {
    let mut accepted = check_orders(g, files)?;
    let head = g.head();
    let ids = g.players();
    let (bots, missing): (Vec<Seat>, Vec<Seat>) = g
        .rules
        .awaiting(&g.state)
        .into_iter()
        .filter(|s| !accepted.orders.contains_key(s))
        .partition(|&s| g.genesis.bot(&ids[s]).is_some());
    if bots.is_empty() && missing.is_empty() {
        return Ok(accepted);
    }
    if !missing.is_empty() && !deadline_passed(head, now) {
        let names: Vec<&str> = missing
            .iter()
            .filter_map(|&s| ids.get(s).map(String::as_str))
            .collect();
        let policy = nmr::policy(head, g.entry).name();
        let when = match &head.deadline {
            Some(d) => format!(
                "the deadline is {d}; at or after it `herald resolve` stands in for them with the missed-order policy `{policy}`"
            ),
            None => "this phase has no deadline; `herald deadline <game> <time>` sets one".into(),
        };
        return Err(Error::refused(format!(
            "turn {} still needs orders from {} ({when})",
            head.turn,
            names.join(", ")
        )));
    }
    // The bot seats' orders, from each one's view alone, whenever the
    // phase is resolved: a bot is never late.
    for seat in bots {
        let Some((spec, lines)) = nmr::bot_seat(g, seat, seed) else {
            continue;
        };
        let id = &ids[seat];
        let text = format!(
            "{}{id} (bot `{spec}`), turn {}.\n{}",
            crate::chain::fields::BOT_MARK,
            head.turn,
            report::order_file(&head.id, id, head.turn, "", &lines)
        );
        let made = Submitted {
            name: format!("orders of the bot seat {id}"),
            text,
            check_password: false,
            received: None,
        };
        let mut more = check_orders_of(g, &[made], true)?;
        for r in &mut more.records {
            r.bot = Some(spec.clone());
        }
        accepted.orders.extend(more.orders);
        accepted.records.extend(more.records);
        accepted.summary.extend(more.summary);
    }
    for seat in missing {
        let (policy, lines) = nmr::stand_in(g, seat, seed);
        let id = &ids[seat];
        let text = format!(
            "# herald: no orders from {id} for turn {} by the deadline {}; missed-order policy `{}`.\n{}",
            head.turn,
            head.deadline.as_deref().unwrap_or("-"),
            policy.name(),
            report::order_file(&head.id, id, head.turn, "", &lines)
        );
        let stand = Submitted {
            name: format!("missed orders of {id}"),
            text,
            check_password: false,
            received: None,
        };
        let mut more = check_orders(g, &[stand])?;
        for r in &mut more.records {
            r.nmr = Some(policy.name().to_string());
        }
        accepted.orders.extend(more.orders);
        accepted.records.extend(more.records);
        accepted.summary.extend(more.summary);
    }
    accepted
        .records
        .sort_by_key(|r| ids.iter().position(|p| *p == r.player));
    Ok(accepted)
}

/// A mail's Date is the sender's word: one later than the resolve (a
/// clock ahead) is recorded as the resolve's own time, so that no order
/// record says it arrived after the phase it was resolved in (a rule
/// `verify` checks).
pub fn received_by(accepted: &mut Accepted, now: &str) {
    let at = |t: &str| chrono::DateTime::parse_from_rfc3339(t).ok();
    for r in &mut accepted.records {
        if let (Some(got), Some(n)) = (r.received.as_deref().and_then(at), at(now)) {
            if got > n {
                r.received = Some(now.to_string());
            }
        }
    }
}

/// Resolve one phase: the new state and the phase's log body; the head
/// record's turn, state, summary, deadline and missed counts brought up to
/// date in place (not its log reference: the caller appends the body).
///
/// Long (about 90 lines): one phase resolved in order (the dice, the rules'
/// resolve, the missed phases and drops, the outcome, the next deadline), each
/// step on the head the one before brought up to date.
pub fn step(
    rules: &dyn Rules,
    head: &mut Head,
    state: &AnyState,
    seed: &str,
    accepted: Accepted,
    now: &str,
    dice: u32,
) -> (AnyState, Phase) {
    let phase = rules.phase(state);
    let players = head.player_ids();
    let mut stream = phase_stream(dice, seed, &head.id, head.turn, &phase, &accepted.records);
    let mut dice_log = Dice::recording(&mut stream);
    let (mut next, mut events) = rules.resolve(state, &accepted.orders, &mut dice_log);
    let rolls = dice_log
        .rolls()
        .into_iter()
        .map(|r| Roll {
            sides: r.sides,
            value: r.value,
            // "[seat N]" in a roll's words becomes the player's id.
            what: players
                .iter()
                .enumerate()
                .fold(r.what, |w, (i, p)| w.replace(&format!("[seat {i}]"), p)),
            seen_by: match r.seen {
                Seen::All => None,
                Seen::Only(seats) => Some(
                    seats
                        .into_iter()
                        .filter_map(|s| players.get(s).cloned())
                        .collect(),
                ),
            },
        })
        .collect();
    // Players at their limit of missed phases in a row drop out.
    let mut dropped = Vec::new();
    if head.drop_after > 0 {
        for r in accepted
            .records
            .iter()
            .filter(|r| r.nmr.is_some() && !accepted.excused.contains(&r.player))
        {
            let in_a_row = head
                .missed
                .iter()
                .find(|m| m.player == r.player)
                .map_or(0, |m| m.in_a_row);
            if in_a_row + 1 < head.drop_after {
                continue;
            }
            let Some(seat) = head.player_index(&r.player) else {
                continue;
            };
            if let Some((after, more)) = rules.drop_out(&next, seat) {
                next = after;
                events.extend(more);
                dropped.push(r.player.clone());
            }
        }
    }
    let value = rules.encode(&next);
    let mut excused: Vec<String> = accepted
        .records
        .iter()
        .filter(|r| r.nmr.is_some() && accepted.excused.contains(&r.player))
        .map(|r| r.player.clone())
        .collect();
    excused.sort();
    let body = Phase {
        turn: head.turn,
        phase,
        orders: accepted.records,
        dice,
        rolls,
        events,
        dropped,
        excused,
        state_sha256: sha256_hex(crate::chain::canon::canonical(&value).as_bytes()),
        resolved_at: now.to_string(),
        deadline: head.deadline.clone(),
    };
    apply_phase(head, &PhaseStep::of(&body));
    head.turn += 1;
    head.state = value;
    let (phase, awaiting, outcome) = summary(rules, &next, &players);
    head.phase = phase;
    head.awaiting = awaiting;
    head.outcome = outcome;
    (next, body)
}

/// What resolving `files` now would give — the new head record and the
/// phase's log body — leaving `g` as it is (tests compare resolutions).
pub fn preview(g: &Loaded, files: &[Submitted], now: &str, seed: &str) -> Result<(Head, Phase)> {
    let accepted = accept_all(g, files, now, seed)?;
    let mut head = g.head().clone();
    let (_, body) = step(
        g.rules.as_ref(),
        &mut head,
        &g.state,
        seed,
        accepted,
        now,
        DICE,
    );
    Ok((head, body))
}

impl Loaded {
    /// Resolve the awaited phase with `accepted` and append it to the
    /// record (with the seed's reveal if the game ended), sealed with
    /// `signer`. In memory: the caller commits the record.
    pub fn advance(&mut self, accepted: Accepted, now: &str, seed: &str, signer: &Signer) {
        let (next, body) = step(
            self.rules.as_ref(),
            &mut self.record.head,
            &self.state,
            seed,
            accepted,
            now,
            DICE,
        );
        self.state = next;
        self.record.append(&Body::Phase(body), signer);
        if self.record.head.outcome.is_some() {
            self.record.append(
                &Body::Reveal(Reveal {
                    seed: seed.to_string(),
                    at: now.to_string(),
                }),
                signer,
            );
            self.record.head.seed = Some(seed.to_string());
            self.record.head.deadline = None;
        }
        self.record.head.herald = env!("CARGO_PKG_VERSION").to_string();
        self.record.seal_with(signer);
    }

    /// Check `files` and resolve the awaited phase in memory (demos,
    /// playouts, tests): as `herald resolve` does, minus the disk.
    pub fn resolve_files(
        &mut self,
        files: &[Submitted],
        now: &str,
        seed: &str,
        signer: &Signer,
    ) -> Result<()> {
        let mut accepted = accept_all(self, files, now, seed)?;
        received_by(&mut accepted, now);
        self.advance(accepted, now, seed, signer);
        Ok(())
    }
}
