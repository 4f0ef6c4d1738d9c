//! The door: what a player can ask of a game, whatever carried the asking
//! (a mail today, a page of `herald serve` next). A typed request from a
//! requester goes in, a typed outcome comes out; neither holds a word a
//! player reads. The words are made at the edge from the outcome, as the
//! games' typed refusals become words in `error::Problem`s: the mail host
//! (`crate::host`) turns a mail into a request and an outcome into a reply
//! mail, and a web server will turn a form into the same request and the
//! same outcome into a page.
//!
//! What the door keeps, shared by every way in:
//!
//! - [`guard`]: the budget of password checks, per game and player, that
//!   makes guessing cost the guesser ([`guard::Budget`], one
//!   [`guard::Check`] per request);
//! - [`bound`]: the host's bound on replies to one address an hour (a
//!   reply a secret did not earn counts);
//! - whether a request's answer is told at all ([`Door::answer`]: one
//!   refusal an hour to an address that is no player's, and the bound).
//!
//! The request kinds through the door so far:
//!
//! - [`orders`]: an order file, checked, sealed and stored with its
//!   receipt (and the `tz` line it may carry: the player's time zone);
//! - [`game`]: a player's other requests of a game: `help`, `status`,
//!   and for a seat `form`, `report`, `withdraw`, and [`vacation`]
//!   (`vacation` and `back`);
//! - [`press`]: press to other players (relayed, recorded, mailed to
//!   each recipient) and a seat's mutes.
//!
//! - [`lobby`]: the lobby's requests (`tables`, `me`, `help`, `join`,
//!   `leave`, `standby`, `takeover`, and `confirm` with a code the host
//!   mailed: [`Requester::Code`]), with the tables, the waiting requests
//!   and the games' seats offered they read and change;
//! - [`seats`]: which seats of which games an address holds (the game
//!   folders' head lines and secrets files), for a signed-in session.
//!
//! The words are the edge's: `host::commands`, `host::vacation`,
//! `host::press` and `host::lobby::commands` for mail; docs/design.md,
//! "The door", draws the whole.

pub mod bound;
pub mod game;
pub mod guard;
pub mod lobby;
pub mod orders;
pub mod press;
pub mod seats;
pub mod vacation;

use crate::pipeline::inbox::Fate;

/// Who the carrier says sent a request, and how far the host believes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Claim {
    /// The address the request came from: a mail's From (anyone can
    /// write it), or the address a session proved; "" when none.
    pub address: String,
    /// Whether the address is proven: the host's own mail server vouches
    /// for the From (`host::sender`), or a signed-in session proved it.
    pub vouched: bool,
}

impl Claim {
    /// An address only claimed (a mail's From no server vouched for).
    pub fn claimed(address: &str) -> Claim {
        Claim {
            address: address.to_string(),
            vouched: false,
        }
    }
}

/// Who asks, as the door sees them: what they show to be let in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requester {
    /// No secret shown: a request that needs none (`help`, `status`), or
    /// one that carries its own (an order file's `password` line).
    Anyone(Claim),
    /// A player and their password, checked by the door through the
    /// game's budget of password checks.
    Password {
        player: String,
        password: String,
        claim: Claim,
    },
    /// A confirmation code the host mailed to the claimed address (the
    /// lobby's requests: [`lobby::confirm`]), tried through the address's
    /// budget of codes ([`guard::Tries`]).
    Code { code: String, claim: Claim },
    /// A signed-in session (the web server, next): its address proven by
    /// a sign-in link mailed to it. It acts for the seats the game holds
    /// under that address, with no password.
    Session { address: String },
}

impl Requester {
    /// The address the requester came from (claimed or proven).
    pub fn claim(&self) -> Claim {
        match self {
            Requester::Anyone(c)
            | Requester::Password { claim: c, .. }
            | Requester::Code { claim: c, .. } => c.clone(),
            Requester::Session { address } => Claim {
                address: address.clone(),
                vouched: true,
            },
        }
    }
}

/// What carried a request, as the door keys it: answers and the record
/// of what was handled name the carrier, never a header the sender
/// chose for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carrier {
    /// The mail's Message-ID (or `sha256:<digest>`); a page's request id.
    pub id: String,
    /// sha256 of the carrier's bytes: the reply bound grants by it, and a
    /// mail handled again after a crash gets the same answer.
    pub digest: String,
}

/// Whether the requester is told the outcome by mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Tell,
    /// Not told: one refusal an hour to an address (the game's rule), or
    /// the host's bound of replies to one address an hour.
    Held(Held),
}

/// Why an answer is held back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// One refusal an hour to an address that is no player's of the game,
    /// and one answer an hour past a player's spent budget.
    Hourly,
    /// The host's bound on replies to one address an hour.
    Bound,
}

/// The door of one game for one handling of its requests: the game's
/// budget of password checks and the host's bound on replies. A request
/// handled without a door (`herald inbox`, run by the moderator on a
/// mailbox) checks every password and answers every mail.
pub struct Door<'a> {
    pub budget: &'a guard::Budget,
    pub bound: &'a bound::Bound,
}

impl Door<'_> {
    /// Whether the answer to a request from `to` whose fate is `fate` is
    /// told. A reply the request earned with a secret (`earned`: a right
    /// password, accepted orders) is the player's own doing and never
    /// counts against the bound; any other does, keyed by the carrier.
    pub fn answer(&self, to: &str, fate: &Fate, earned: bool, carrier: &Carrier) -> Answer {
        if !self.budget.may_reply(to, fate) {
            return Answer::Held(Held::Hourly);
        }
        let earned = earned || matches!(fate, Fate::Accepted { .. });
        if earned || self.bound.grant(to, &carrier.digest).ok() == Some(bound::Grant::Send) {
            Answer::Tell
        } else {
            Answer::Held(Held::Bound)
        }
    }
}
