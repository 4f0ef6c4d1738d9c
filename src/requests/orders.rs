//! Orders through the door: an order file from a requester, judged by
//! the game (`pipeline::inbox::judge`: the password through the door's
//! budget, the orders checked, sealed, a receipt signed), and whether the
//! requester is told. The file's `tz` line, the player's time zone, is
//! part of it: kept with the orders (`Note::Zone` says so).
//!
//! The outcome is everything an answer shows: the fate (accepted,
//! superseded, refused with its problems, not read), the orders as read,
//! the receipt, the notes (late, lines outside the form, the zone), the
//! turn and its deadline. What it promised to store is kept by
//! [`Outcome::keep`] after the answer is queued, so an answer saying
//! ACCEPTED never waits for orders that are not stored, and orders are
//! never stored unanswered by a kill between the two (the carrier is
//! handled again, and judged again to the same bytes).

use super::{Answer, Carrier, Door, Requester};
use crate::error::Result;
use crate::pipeline::inbox::{self, Judged, Keep, Ruling, Submission};
use crate::pipeline::Writing;

/// An order file from a requester.
#[derive(Debug, Clone)]
pub struct Orders {
    /// The file, or why what carried it holds none (not a mail, too
    /// large, no order form): refused as it is.
    pub file: std::result::Result<Submission, Vec<String>>,
    pub by: Requester,
    pub carrier: Carrier,
}

/// What the door made of orders.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub ruling: Ruling,
    /// Whether the requester is told by mail.
    pub answer: Answer,
    /// The turn the orders are for, and its deadline (RFC 3339).
    pub turn: u32,
    pub deadline: Option<String>,
    keep: Option<Keep>,
}

impl Outcome {
    /// Store what the outcome accepted (the sealed orders, then the time
    /// zone): after the answer is on disk. `Err`: nothing is stored, and
    /// the answer is to be taken back.
    pub fn keep(&mut self, w: &mut Writing) -> Result<()> {
        match self.keep.take() {
            Some(k) => inbox::keep(w, k),
            None => Ok(()),
        }
    }

    /// What the outcome would store, taken (for a caller that stores it
    /// itself, taking its answer back if it cannot).
    pub fn take_keep(&mut self) -> Option<Keep> {
        self.keep.take()
    }
}

/// Orders through the door of a game opened to write (its lock held), at
/// `now`: judged, their password checked through the door's budget as
/// the requester ([`super::guard::Budget::for_request`]), and the answer
/// granted or held back ([`Door::answer`]).
pub fn submit(w: &Writing, door: &Door, req: &Orders, now: &str) -> Result<Outcome> {
    let check = door.budget.for_request(&req.by);
    let Judged { ruling, keep } = match &req.file {
        Ok(sub) => inbox::judge(w, sub, now, Some(&check))?,
        Err(problems) => Judged::refused(problems.clone()),
    };
    let to = req.by.claim().address;
    // No address, no answer to grant: nothing is counted for it.
    let answer = if to.is_empty() {
        Answer::Tell
    } else {
        door.answer(&to, &ruling.fate, check.proven(), &req.carrier)
    };
    let h = w.game.head();
    Ok(Outcome {
        ruling,
        answer,
        turn: h.turn,
        deadline: h.deadline.clone(),
        keep,
    })
}
