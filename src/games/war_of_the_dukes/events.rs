//! What happens, as the game file logs it and the reports tell it.

use super::map::Label;
use super::ruleset::Res;
use super::units::{Side, UnitId};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    pub unit: UnitId,
    pub at: Label,
}

/// One piece in a combat, with the strength it counted for and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    pub unit: UnitId,
    pub at: Label,
    pub value: u32,
    /// How the value is made, e.g. `3 ×2 city ×2 Duke`.
    pub how: String,
    /// Artillery firing from two hexes (or across a river): untouched by
    /// retreats and exchanges.
    pub bombard: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "fate", rename_all = "snake_case")]
pub enum Fate {
    Eliminated {
        side: Side,
        unit: UnitId,
        at: Label,
        /// Eliminated because no retreat was open.
        blocked: bool,
    },
    Retreated {
        side: Side,
        unit: UnitId,
        from: Label,
        to: Label,
    },
    /// Could not retreat, surrounded by friends: changed places with one.
    Swapped {
        side: Side,
        unit: UnitId,
        from: Label,
        with: UnitId,
        to: Label,
    },
    Advanced {
        side: Side,
        unit: UnitId,
        from: Label,
        to: Label,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A side's whole deployment, revealed with the other's.
    Deployed { side: Side, units: Vec<Placed> },
    Moved {
        side: Side,
        unit: UnitId,
        from: Label,
        /// The hexes entered, in order.
        path: Vec<Label>,
        /// Half movement points spent.
        cost: u32,
        /// herald found the path (the order named only the destination).
        found: bool,
    },
    Combat {
        side: Side,
        target: Label,
        attackers: Vec<Fighter>,
        defenders: Vec<Fighter>,
        attack: u32,
        defence: u32,
        odds: String,
        die: u32,
        modifier: u32,
        /// The die plus the modifier, at most 6.
        roll: u32,
        result: Res,
        fates: Vec<Fate>,
        /// Why a named advance did not happen, if it did not; which pieces
        /// in the hex were spared as attacked already this phase.
        note: Option<String>,
    },
    /// The target hex held no enemy any more when its attack came (or
    /// only pieces already attacked this phase: `why` says so).
    Lapsed {
        side: Side,
        target: Label,
        with: Vec<UnitId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        why: Option<String>,
    },
    Ended {
        winner: Side,
        victory: String,
        how: String,
    },
}
