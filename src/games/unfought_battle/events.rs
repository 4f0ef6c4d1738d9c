//! What happens in a turn, as logged in the game file. The log is the
//! moderator's: it holds hidden powers. Each player's report tells only
//! the events (and the parts of them) that player may know: see
//! `view::tell`.

use crate::board::Hex;
use serde::{Deserialize, Serialize};

/// One side of a combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    pub seat: usize,
    pub force: u8,
    /// Where it stood when the turn began.
    pub from: Hex,
    pub power: u8,
    /// Each bonus by name ("fortified", "ambush", "Difficult ground").
    pub bonuses: Vec<(String, i32)>,
    /// The ±variance drawn for it.
    pub roll: i32,
    pub total: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombatKind {
    /// Two enemy forces entering the same hex.
    Contest,
    /// Two enemy forces trying to swap hexes meet head on.
    Swap,
    /// A force entering a hex held by an enemy that stays.
    Assault,
    /// An ambushing force springs on an enemy that ended its move next to it.
    Ambush,
}

impl CombatKind {
    /// The word a report uses.
    pub fn name(self) -> &'static str {
        match self {
            CombatKind::Contest => "contest",
            CombatKind::Swap => "swap",
            CombatKind::Assault => "assault",
            CombatKind::Ambush => "ambush",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Both players assigned their powers (told to both, powers to no one).
    Deployed,
    Conceded {
        seat: usize,
    },
    /// Orders that cost Shih (owner only).
    Spent {
        seat: usize,
        orders: Vec<String>,
        shih: u32,
        left: u32,
    },
    /// A scout's finding (owner only): the power on `target`, if an enemy
    /// force stood there.
    Scouted {
        seat: usize,
        force: u8,
        at: Hex,
        target: Hex,
        found: Option<u8>,
    },
    /// A force's move that succeeded (owner only).
    Moved {
        seat: usize,
        force: u8,
        from: Hex,
        to: Hex,
    },
    /// A force's move that failed without a fight of its own (owner only).
    Bounced {
        seat: usize,
        force: u8,
        from: Hex,
        to: Hex,
        why: String,
    },
    /// A combat (both players: every combat has a force of each).
    Combat {
        kind: CombatKind,
        /// The hex fought over (the contested, assaulted or ambushing hex;
        /// for a swap, the hex of seat 0's force).
        at: Hex,
        /// Indexed by seat.
        fighters: [Fighter; 2],
        winner: Option<usize>,
        /// What followed, per seat: "took 3,3", "died", "fell back to 2,3".
        after: [String; 2],
    },
    /// The board shrank (both players).
    Shrank {
        radius: i32,
        hexes: usize,
    },
    /// A force died on Scorched ground. Its owner is told where; the enemy
    /// learns only that a force of that power perished.
    Perished {
        seat: usize,
        force: u8,
        at: Hex,
        power: u8,
    },
    /// Shih income (owner only).
    Income {
        seat: usize,
        amount: u32,
        shih: u32,
        holds: usize,
    },
    /// The game ended (both players).
    Ended {
        winner: Option<usize>,
        subject: Option<usize>,
        how: String,
    },
}
