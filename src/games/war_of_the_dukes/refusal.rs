//! Why War of the Dukes refuses a player's orders, as values: the units,
//! the hexes, the movement points and what is legal instead. The words are
//! made only by `Display`.

use super::map::{Label, Terrain};
use super::movement::{mp, NoRoute};
use super::units::{Side, UnitId};
use std::fmt;

/// Why a deployment or a phase's orders are refused (beyond a line that
/// does not read, or a unit not on the map: `OrderError`, `NoUnit`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A move or an attack in the deployment.
    NotAPlacement,
    NoSuchUnit {
        side: Side,
        unit: UnitId,
    },
    PlacedTwice {
        unit: UnitId,
    },
    /// A hex off the map (the map's columns and rows).
    OffMap {
        at: Label,
        columns: u8,
        rows: u8,
    },
    /// A placement outside the side's territory (`owner`: whose it is).
    NotTerritory {
        at: Label,
        side: Side,
        owner: Option<Side>,
    },
    /// A placement on a hex no piece enters.
    Terrain {
        at: Label,
        terrain: Terrain,
    },
    /// Pieces the deployment leaves out.
    NotPlaced {
        units: Vec<UnitId>,
    },
    /// A second piece on a hex (`first`: the one placed there first).
    Stacked {
        at: Label,
        first: UnitId,
    },
    /// Own city and fortress hexes (of `count`) left without a unit.
    Strongpoints {
        count: usize,
        empty: Vec<Label>,
    },
    /// A placement after the deployment.
    DeploymentOver,
    MovesTwice {
        unit: UnitId,
    },
    /// A move that breaks a rule of movement, and where the unit can go
    /// (hex, cost in half-points).
    Route {
        why: NoRoute,
        unit: UnitId,
        can: Vec<(Label, u32)>,
    },
    /// An attack on a hex off the map.
    TargetOffMap {
        target: Label,
    },
    /// An attack on a hex without an enemy piece (`own`: it holds one of
    /// the player's), and the enemy pieces within reach.
    NoEnemy {
        target: Label,
        own: bool,
        reachable: Reachable,
    },
    AttackedTwice {
        target: Label,
    },
    DukeAttacks,
    AttacksTwice {
        unit: UnitId,
    },
    /// A unit that cannot reach the target, and those of the player's
    /// (not yet attacking) that can.
    OutOfReach {
        unit: UnitId,
        at: Label,
        target: Label,
        others: Vec<UnitId>,
    },
    Bombards {
        unit: UnitId,
        target: Label,
    },
    NotInAttack {
        unit: UnitId,
    },
}

/// A list for a message: the first `max`, then how many more.
pub fn list<T: fmt::Display>(items: &[T], max: usize) -> String {
    let mut s: Vec<String> = items.iter().take(max).map(|a| a.to_string()).collect();
    if items.len() > max {
        s.push(format!("… and {} more", items.len() - max));
    }
    s.join(", ")
}

/// The enemy pieces a side's units can reach: each hex with the units
/// reaching it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reachable(pub Vec<(Label, Vec<UnitId>)>);

fn names(v: &[UnitId], sep: &str) -> String {
    v.iter()
        .map(|u| u.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

impl fmt::Display for Reachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("None of your units can reach an enemy piece now");
        }
        let out: Vec<String> = self
            .0
            .iter()
            .map(|(at, by)| format!("{at} (by {})", names(by, " ")))
            .collect();
        write!(f, "Enemy pieces within reach: {}", list(&out, 20))
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::NotAPlacement => f.write_str("this is the deployment: each line places one piece, `I3 0712`; moves and attacks start with turn 1"),
            Refused::NoSuchUnit { side, unit } => write!(f, "{side} has no unit {unit}"),
            Refused::PlacedTwice { unit } => write!(f, "{unit} is placed twice"),
            Refused::OffMap { at, columns, rows } => write!(
                f,
                "{at} is not on the map (columns 01–{columns:02}, rows 01–{rows:02})"
            ),
            Refused::NotTerritory { at, side, owner } => not_territory(f, *at, *side, *owner),
            Refused::Terrain { at, terrain } => write!(f, "{at} is a {}", terrain.name()),
            Refused::NotPlaced { units } => write!(
                f,
                "every piece is deployed in this one order file; not placed: {}",
                names(units, " ")
            ),
            Refused::Stacked { at, first } => write!(
                f,
                "{at} already holds {first}: a hex holds one unit, or in a city or fortress one unit and the Duke"
            ),
            Refused::Strongpoints { count, empty } => {
                let empty: Vec<String> = empty.iter().map(|l| l.to_string()).collect();
                write!(
                    f,
                    "each of your {count} city and fortress hexes gets one unit (the Duke does not count); without one: {}",
                    empty.join(" ")
                )
            }
            Refused::DeploymentOver => f.write_str("deployment is over"),
            Refused::MovesTwice { unit } => {
                write!(f, "{unit} already moves this phase; a unit moves once")
            }
            Refused::Route { why, unit, can } => route(f, why, *unit, can),
            Refused::TargetOffMap { target } => write!(f, "{target} is not on the map"),
            Refused::NoEnemy {
                target,
                own,
                reachable,
            } => write!(
                f,
                "{target} holds no enemy piece{}. {reachable}",
                if *own { " (it holds your own)" } else { "" }
            ),
            Refused::AttackedTwice { target } => write!(
                f,
                "{target} is already attacked this phase; a piece is attacked once a phase"
            ),
            Refused::DukeAttacks => f.write_str(
                "the Duke never attacks (he doubles the units within 2 hexes instead)",
            ),
            Refused::AttacksTwice { unit } => write!(
                f,
                "{unit} already attacks this phase; a unit attacks once a phase"
            ),
            Refused::OutOfReach {
                unit,
                at,
                target,
                others,
            } => out_of_reach(f, (*unit, *at, *target), others),
            Refused::Bombards { unit, target } => write!(
                f,
                "{unit} bombards {target} and cannot advance into it; only a unit in contact advances"
            ),
            Refused::NotInAttack { unit } => write!(
                f,
                "{unit} does not take part in this attack; the advancing unit is one of those after `with`"
            ),
        }
    }
}

/// A placement on `at`, not `side`'s territory but `owner`'s.
fn not_territory(
    f: &mut fmt::Formatter<'_>,
    at: Label,
    side: Side,
    owner: Option<Side>,
) -> fmt::Result {
    write!(
        f,
        "{at} is not {side} territory; you deploy on your own territory ({at} "
    )?;
    match owner {
        Some(o) => write!(f, "is {o}'s)"),
        None => f.write_str("belongs to neither side)"),
    }
}

/// A move refused (`why`), and where the unit can go (hex, cost).
fn route(
    f: &mut fmt::Formatter<'_>,
    why: &NoRoute,
    unit: UnitId,
    can: &[(Label, u32)],
) -> fmt::Result {
    if can.is_empty() {
        write!(f, "{why}. {unit} cannot move at all now")
    } else {
        let can: Vec<String> = can
            .iter()
            .map(|(l, c)| format!("{l} ({})", mp(*c)))
            .collect();
        write!(f, "{why}. {unit} can reach: {}", list(&can, 30))
    }
}

/// A unit on `at` that cannot reach `target`, and the `others` that can.
fn out_of_reach(
    f: &mut fmt::Formatter<'_>,
    (unit, at, target): (UnitId, Label, Label),
    others: &[UnitId],
) -> fmt::Result {
    write!(f, "{unit} on {at} cannot reach {target} (infantry and cavalry attack a neighbouring hex not across an unbridged river; artillery also fires from two hexes). ")?;
    if others.is_empty() {
        write!(f, "No other unit of yours reaches {target}")
    } else {
        write!(f, "Within reach of {target}: {}", names(others, " "))
    }
}

crate::games::rules_error::rules_detail!(Refused, |self| match self {
    Refused::NotAPlacement | Refused::DeploymentOver => K::WrongPhase,
    Refused::NoSuchUnit { .. } => K::UnknownPiece,
    _ => K::Illegal,
});
