//! Guessing passwords costs the guesser (docs/host.md, "Guessing
//! passwords"). For one game, during one handling of its mails:
//!
//! - a mail From a player's own address (the one the game holds) is
//!   checked at once and never counts: the player is never locked out;
//! - a mail from any other address that needs a password check uses one
//!   of the player's `password_checks_per_hour` (host.toml); past it, the
//!   password is not hashed at all and the mail is answered once an hour
//!   ("too many wrong passwords; the moderator has been told"), and the
//!   moderator is told once;
//! - no address other than a player's own gets more than one refusal an
//!   hour from this game.
//!
//! The counts live in the game's host state (`state::Guard`,
//! `GameState::refusals_to`), so they hold across passes. Time is the
//! pass's `now`: nothing here reads the clock.

use super::state::{GameState, Guard};
use crate::auth::{self, Verdict};
use crate::pipeline::inbox::Fate;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// An hour, the window of every limit here.
pub const HOUR: i64 = 3600;

/// The rationing of one game's password checks and refusals.
pub struct Budget {
    per_hour: u32,
    now: i64,
    /// Player id → their own address, lower-cased.
    own: BTreeMap<String, String>,
    guard: Mutex<Guard>,
    refusals_to: Mutex<BTreeMap<String, i64>>,
    /// Players whose budget was found spent, the moderator not yet told
    /// this hour (each once).
    floods: Mutex<Vec<(String, usize)>>,
}

impl Budget {
    /// The budget of a game whose players have these addresses, taking the
    /// counts out of its state (put back by [`Budget::into_state`]).
    pub fn new(
        per_hour: u32,
        now: i64,
        players: &[crate::chain::body::Player],
        st: &mut GameState,
    ) -> Budget {
        let own = players
            .iter()
            .filter_map(|p| Some((p.id.clone(), p.email.as_ref()?.to_ascii_lowercase())))
            .collect();
        let mut guard = std::mem::take(&mut st.guard);
        for list in guard.checks.values_mut() {
            list.retain(|t| *t > now - HOUR);
        }
        guard.checks.retain(|_, l| !l.is_empty());
        let mut refusals = std::mem::take(&mut st.refusals_to);
        refusals.retain(|_, t| *t > now - HOUR);
        Budget {
            per_hour,
            now,
            own,
            guard: Mutex::new(guard),
            refusals_to: Mutex::new(refusals),
            floods: Mutex::new(Vec::new()),
        }
    }

    /// Is `from` the address the game holds for `player`?
    pub fn is_own(&self, player: &str, from: &str) -> bool {
        self.own
            .get(player)
            .is_some_and(|a| a.eq_ignore_ascii_case(from.trim()))
    }

    /// Is `from` the address of some player of the game?
    pub fn is_player(&self, from: &str) -> bool {
        self.own
            .values()
            .any(|a| a.eq_ignore_ascii_case(from.trim()))
    }

    /// May `from` be answered for a mail whose fate is `fate`? Accepted
    /// orders always are, and a player's own address always is. Past the
    /// budget a player's mails are answered once an hour; and no other
    /// address gets more than one refusal an hour.
    pub fn may_reply(&self, from: &str, fate: &Fate) -> bool {
        let refusal = match fate {
            Fate::Refused { .. } => true,
            Fate::Throttled { player } => {
                let mut g = self.guard.lock().unwrap_or_else(|e| e.into_inner());
                if g.answered.get(player).is_some_and(|t| *t > self.now - HOUR) {
                    return false;
                }
                g.answered.insert(player.clone(), self.now);
                true
            }
            _ => false,
        };
        if !refusal || self.is_player(from) {
            return true;
        }
        let key = from.trim().to_ascii_lowercase();
        let mut r = self.refusals_to.lock().unwrap_or_else(|e| e.into_inner());
        if r.get(&key).is_some_and(|t| *t > self.now - HOUR) {
            return false;
        }
        r.insert(key, self.now);
        true
    }

    /// Players whose budget was spent in this handling, the moderator not
    /// told yet this hour, with their checks in the hour: each returned
    /// once (the caller tells the moderator).
    pub fn take_floods(&self) -> Vec<(String, usize)> {
        std::mem::take(&mut *self.floods.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Put the counts back into the game's state.
    pub fn into_state(self, st: &mut GameState) {
        st.guard = self.guard.into_inner().unwrap_or_else(|e| e.into_inner());
        st.refusals_to = self
            .refusals_to
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
    }
}

impl auth::Guard for Budget {
    fn check(&self, player: &str, from: &str, password: &str, stored: &str) -> Verdict {
        if !self.is_own(player, from) {
            let mut g = self.guard.lock().unwrap_or_else(|e| e.into_inner());
            let used = g.checks.get(player).map_or(0, Vec::len);
            if used >= self.per_hour as usize {
                if g.told.get(player).is_none_or(|t| *t <= self.now - HOUR) {
                    g.told.insert(player.to_string(), self.now);
                    self.floods
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((player.to_string(), used));
                }
                return Verdict::Throttled;
            }
            g.checks
                .entry(player.to_string())
                .or_default()
                .push(self.now);
        }
        if auth::matches(password, stored) {
            Verdict::Right
        } else {
            Verdict::Wrong
        }
    }
}
