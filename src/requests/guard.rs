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
//! The counts live in the game's host state (`Counts` here, kept as
//! `host::state::GameState::guard`, and the refusals' times), so they hold
//! across passes; [`Budget::new`] takes them out and [`Budget::into_counts`]
//! gives them back. Time is the pass's `now`: nothing here reads the clock.
//!
//! The budget is the door's (`crate::requests`): every way a password can
//! be tried (an order file, a command, press, and the web's sign-in next)
//! goes through the same [`Check`].

use super::{Claim, Requester};
use crate::auth::{self, Verdict};
use crate::pipeline::inbox::Fate;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// An hour, the window of every limit here.
pub const HOUR: i64 = 3600;

/// What the host keeps to make guessing passwords cost the guesser (in
/// each game's host state, `DIR/state/<game>.json`, as `guard`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Per player: when a password of theirs was checked for a mail from
    /// another address than theirs, in the last hour (Unix seconds).
    #[serde(default)]
    pub checks: BTreeMap<String, Vec<i64>>,
    /// Per player: when the moderator was last told of a flood.
    #[serde(default)]
    pub told: BTreeMap<String, i64>,
    /// Per player: when a mail past the budget was last answered.
    #[serde(default)]
    pub answered: BTreeMap<String, i64>,
    /// Per player: when a password of theirs was checked for a mail whose
    /// From is their own address but which the host's server did not
    /// vouch for, in the last hour (a From is a claim: it is counted).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub own_checks: BTreeMap<String, Vec<i64>>,
    /// Per player: when the moderator was last told those were spent.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub own_told: BTreeMap<String, i64>,
}

/// Which of a player's two budgets a check uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
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
    pub claim: Whose,
}

/// The rationing of one game's password checks and refusals.
pub struct Budget {
    per_hour: u32,
    now: i64,
    /// Player id → their own address, lower-cased.
    own: BTreeMap<String, String>,
    guard: Mutex<Counts>,
    refusals_to: Mutex<BTreeMap<String, i64>>,
    /// Budgets found spent in this handling, the moderator not yet told
    /// this hour (each once).
    floods: Mutex<Vec<Flood>>,
}

impl Budget {
    /// The budget of a game whose players have these addresses, taking the
    /// counts (`guard`) and the refusals' times (`refusals_to`) out of its
    /// state (put back by [`Budget::into_counts`]).
    pub fn new(
        per_hour: u32,
        now: i64,
        players: &[crate::chain::body::Player],
        guard: &mut Counts,
        refusals_to: &mut BTreeMap<String, i64>,
    ) -> Budget {
        let own = players
            .iter()
            .filter_map(|p| Some((p.id.clone(), p.email.as_ref()?.to_ascii_lowercase())))
            .collect();
        let mut guard = std::mem::take(guard);
        for list in guard
            .checks
            .values_mut()
            .chain(guard.own_checks.values_mut())
        {
            list.retain(|t| *t > now - HOUR);
        }
        guard.checks.retain(|_, l| !l.is_empty());
        guard.own_checks.retain(|_, l| !l.is_empty());
        let mut refusals = std::mem::take(refusals_to);
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

    /// The checks of one request from `by`: the guard its passwords go
    /// through, which remembers whether one was right. A signed-in
    /// session acts for the seats whose address it proved, with no
    /// password and no check counted; any other requester's passwords
    /// are checked against the budget, as the address it claims.
    pub fn for_request<'a>(&'a self, by: &Requester) -> Check<'a> {
        Check {
            budget: self,
            claim: by.claim(),
            session: matches!(by, Requester::Session { .. }),
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

    /// Give the counts and the refusals' times back, to be kept in the
    /// game's state.
    pub fn into_counts(self) -> (Counts, BTreeMap<String, i64>) {
        (
            self.guard.into_inner().unwrap_or_else(|e| e.into_inner()),
            self.refusals_to
                .into_inner()
                .unwrap_or_else(|e| e.into_inner()),
        )
    }

    /// One check for `player` claimed as `claim`: `false` when the budget
    /// is spent (the moderator to be told, once an hour).
    fn spend(&self, player: &str, claim: Whose) -> bool {
        let mut g = self.guard.lock().unwrap_or_else(|e| e.into_inner());
        let g = &mut *g;
        let (list, told) = match claim {
            Whose::Other => (&mut g.checks, &mut g.told),
            Whose::Own => (&mut g.own_checks, &mut g.own_told),
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

/// The password checks of one request ([`Budget::for_request`]).
pub struct Check<'a> {
    budget: &'a Budget,
    claim: Claim,
    /// The claim is a signed-in session's proven address.
    session: bool,
    right: AtomicBool,
}

impl Check<'_> {
    /// A password of this mail was checked and right: its answer is the
    /// player's own doing.
    pub fn proven(&self) -> bool {
        self.right.load(Ordering::SeqCst)
    }
}

impl auth::Guard for Check<'_> {
    fn check(&self, player: &str, _from: &str, password: &str, stored: &str) -> Verdict {
        let b = self.budget;
        let own = b.is_own(player, &self.claim.address);
        // A session acts for its own seats only, and needs no password.
        if self.session {
            if own {
                self.right.store(true, Ordering::SeqCst);
                return Verdict::Right;
            }
            return Verdict::Wrong;
        }
        // The player's own mail, vouched for by the host's server: free.
        if !(own && self.claim.vouched) {
            let claim = if own { Whose::Own } else { Whose::Other };
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

/// The codes an address tried in the last hour (the lobby's confirmation
/// codes), kept in the host's state (`DIR/state/code-tries`, 0600) by the
/// sha256 of the address as written in lowercase: never the address.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TryCounts {
    /// sha256 of the address → when each code was tried (Unix seconds).
    #[serde(default)]
    pub tries: BTreeMap<String, Vec<i64>>,
}

/// Guessing codes costs the guesser, as guessing passwords does: every
/// code tried from an address (its From claimed, not vouched for) spends
/// one of the address's `per_hour` checks (host.toml's
/// `password_checks_per_hour`); past them no code is looked up for the
/// hour. The budget is the claimed address's: a guesser forging a
/// player's address spends that address's, and the player's own mail,
/// vouched for by the host's server, spends nothing. A code is 48 bits:
/// at 20 tries an hour, finding one by chance takes longer than any
/// code waits.
pub struct Tries {
    per_hour: u32,
    now: i64,
    counts: Mutex<TryCounts>,
}

impl Tries {
    /// The budget at `now`, from the counts kept (tries older than an
    /// hour forgotten).
    pub fn new(per_hour: u32, now: i64, mut counts: TryCounts) -> Tries {
        for list in counts.tries.values_mut() {
            list.retain(|t| *t > now - HOUR);
        }
        counts.tries.retain(|_, l| !l.is_empty());
        Tries {
            per_hour,
            now,
            counts: Mutex::new(counts),
        }
    }

    /// One try from `address`: `false` when its budget is spent (the try
    /// is not counted, and the code must not be looked up).
    pub fn spend(&self, address: &str) -> bool {
        let key = crate::chain::canon::sha256_hex(address.trim().to_ascii_lowercase().as_bytes());
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let list = c.tries.entry(key).or_default();
        if list.len() >= self.per_hour as usize {
            return false;
        }
        list.push(self.now);
        true
    }

    /// The counts as they stand, to be kept.
    pub fn counts(&self) -> TryCounts {
        self.counts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}
