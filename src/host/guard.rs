//! Guessing passwords costs the guesser (docs/host.md, "Guessing
//! passwords"). For one game, during one handling of its mails:
//!
//! - every mail that needs one of a player's passwords hashed uses one
//!   check of the player's `password_checks_per_hour` (host.toml),
//!   whatever its From: a From header is a claim anyone can write. Past
//!   the budget the password is not hashed at all; the mail is answered
//!   once an hour ("too many wrong passwords; the moderator has been
//!   told"), and the moderator is told once;
//! - the budget is kept twice per player: for mails whose From is the
//!   player's own address, and for mails from any other, so a guesser
//!   writing from their own address never locks the player out; one
//!   forging the player's address spends the first, and the player's
//!   mails wait for the hour, or are read at once where the host's own
//!   server vouches for them;
//! - a mail whose From is the player's own address and which the host's
//!   own receiving server vouches for (`host::sender`, an
//!   `Authentication-Results` field of an authserv-id named in host.toml)
//!   counts for nothing: it is the player's, and they are never locked
//!   out;
//! - no address other than a player's own gets more than one refusal an
//!   hour from this game (and no address more replies an hour than the
//!   host's bound, `host::replies`).
//!
//! The counts live in the game's host state (`state::Guard`,
//! `GameState::refusals_to`), so they hold across passes. Time is the
//! pass's `now`: nothing here reads the clock.

use super::sender::Sender;
use super::state::{GameState, Guard};
use crate::auth::{self, Verdict};
use crate::pipeline::inbox::Fate;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// An hour, the window of every limit here.
pub const HOUR: i64 = 3600;

/// Which of a player's two budgets a check uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The mail's From is the player's own address (not vouched for).
    Own,
    /// Any other From.
    Other,
}

/// A player's budget found spent, the moderator not yet told this hour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flood {
    pub player: String,
    /// Checks made in the last hour from this kind of sender.
    pub checks: usize,
    pub claim: Claim,
}

/// The rationing of one game's password checks and refusals.
pub struct Budget {
    per_hour: u32,
    now: i64,
    /// Player id → their own address, lower-cased.
    own: BTreeMap<String, String>,
    guard: Mutex<Guard>,
    refusals_to: Mutex<BTreeMap<String, i64>>,
    /// Budgets found spent in this handling, the moderator not yet told
    /// this hour (each once).
    floods: Mutex<Vec<Flood>>,
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
        for list in guard
            .checks
            .values_mut()
            .chain(guard.own_checks.values_mut())
        {
            list.retain(|t| *t > now - HOUR);
        }
        guard.checks.retain(|_, l| !l.is_empty());
        guard.own_checks.retain(|_, l| !l.is_empty());
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

    /// The checks of one mail from `sender`: the guard its passwords go
    /// through, which remembers whether one was right.
    pub fn for_mail<'a>(&'a self, sender: &'a Sender) -> MailCheck<'a> {
        MailCheck {
            budget: self,
            sender,
            right: AtomicBool::new(false),
        }
    }

    /// May `from` be answered for a mail whose fate is `fate`? Accepted
    /// orders always are, and a player's own address always is (within
    /// the host's bound on replies, asked after this). Past the budget a
    /// player's mails are answered once an hour; and no other address
    /// gets more than one refusal an hour.
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

    /// Budgets spent in this handling, the moderator not told yet this
    /// hour: each returned once (the caller tells the moderator).
    pub fn take_floods(&self) -> Vec<Flood> {
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

    /// One check for `player` claimed as `claim`: `false` when the budget
    /// is spent (the moderator to be told, once an hour).
    fn spend(&self, player: &str, claim: Claim) -> bool {
        let mut g = self.guard.lock().unwrap_or_else(|e| e.into_inner());
        let g = &mut *g;
        let (list, told) = match claim {
            Claim::Other => (&mut g.checks, &mut g.told),
            Claim::Own => (&mut g.own_checks, &mut g.own_told),
        };
        let used = list.get(player).map_or(0, Vec::len);
        if used >= self.per_hour as usize {
            if told.get(player).is_none_or(|t| *t <= self.now - HOUR) {
                told.insert(player.to_string(), self.now);
                self.floods
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(Flood {
                        player: player.to_string(),
                        checks: used,
                        claim,
                    });
            }
            return false;
        }
        list.entry(player.to_string()).or_default().push(self.now);
        true
    }
}

/// The password checks of one mail ([`Budget::for_mail`]).
pub struct MailCheck<'a> {
    budget: &'a Budget,
    sender: &'a Sender,
    right: AtomicBool,
}

impl MailCheck<'_> {
    /// A password of this mail was checked and right: its answer is the
    /// player's own doing.
    pub fn proven(&self) -> bool {
        self.right.load(Ordering::SeqCst)
    }
}

impl auth::Guard for MailCheck<'_> {
    fn check(&self, player: &str, _from: &str, password: &str, stored: &str) -> Verdict {
        let b = self.budget;
        let own = b.is_own(player, &self.sender.address);
        // The player's own mail, vouched for by the host's server: free.
        if !(own && self.sender.vouched()) {
            let claim = if own { Claim::Own } else { Claim::Other };
            if !b.spend(player, claim) {
                return Verdict::Throttled;
            }
        }
        if auth::matches(password, stored) {
            self.right.store(true, Ordering::SeqCst);
            Verdict::Right
        } else {
            Verdict::Wrong
        }
    }
}
