//! Why HEXWAR refuses a turn's orders, as values: the template's slots, the
//! piece and its pattern, the hexes it could go to instead. The words are
//! made only by `Display`.

use super::ruleset::{relative_text, Movement, Template};
use crate::board::Dir;
use std::fmt;

/// Why a turn's orders are refused (beyond a line that does not read, an
/// [`super::play::OrderError`]).
#[derive(Debug, Clone)]
pub enum TurnRefused {
    /// No order lines at all.
    NoOrders { template: Template },
    /// `pass` (or, with `surrender`, `surrender`) among other orders.
    StandsAlone { surrender: bool },
    /// The template has no slot of this action at all.
    NoSuchAction { template: Template, action: Action },
    /// Every slot of the template is used.
    Full { template: Template },
    /// The slots left after the earlier orders take no such action.
    OutOfOrder { template: Template, action: Action },
    /// A move that is not legal now.
    Move(MoveRefused),
    /// A rebirth that is not legal now.
    Rebirth(RebirthRefused),
}

/// The two kinds of action a template's slot takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Move,
    Rotate,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Action::Move => "Move",
            Action::Rotate => "Rotate",
        })
    }
}

/// What the player's pieces can do now: per piece that can move, its type's
/// name, its hex and the hexes it can go to.
#[derive(Debug, Clone, Default)]
pub struct Movable(pub Vec<(String, String, Vec<String>)>);

impl fmt::Display for Movable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none of your pieces can move");
        }
        f.write_str("your moves: ")?;
        for (i, (name, at, to)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{name} {at} → {}", to.join(" "))?;
        }
        Ok(())
    }
}

/// How a piece type moves, as it faces now.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub name: String,
    pub movement: Movement,
    /// The relative directions (bit k: facing turned k × 60°).
    pub relative: u8,
    /// The absolute directions those are, facing `facing`.
    pub allowed: Vec<Dir>,
    pub facing: Dir,
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let allowed: Vec<&str> = self.allowed.iter().map(|d| d.name()).collect();
        write!(
            f,
            "a {} moves {} {} ({} while facing {})",
            self.name,
            self.movement.describe(),
            relative_text(self.relative),
            allowed.join(" "),
            self.facing
        )
    }
}

/// A move refused: no piece of the player's on its hex, or why the piece
/// there may not go, with what it (or the player's other pieces) can do.
#[derive(Debug, Clone)]
pub enum MoveRefused {
    NoPiece { at: String, movable: Movable },
    Piece { why: WhyNot, instead: Instead },
}

/// Why a piece may not make this move.
#[derive(Debug, Clone)]
pub enum WhyNot {
    /// From and to are the same hex.
    Stay,
    JumpDistance {
        pattern: Pattern,
        n: u8,
        to: String,
        dist: i32,
    },
    JumpDirection {
        pattern: Pattern,
        to: String,
    },
    NotStraight {
        pattern: Pattern,
        from: String,
        to: String,
    },
    Direction {
        pattern: Pattern,
        dir: Dir,
    },
    TooFar {
        pattern: Pattern,
        n: u8,
        to: String,
        dist: i32,
    },
    /// A piece (its type's name, its hex) blocks a step or slide.
    InTheWay {
        piece: String,
        at: String,
    },
    Landing(Landing),
}

/// Why a piece may not end its move on a hex.
#[derive(Debug, Clone)]
pub enum Landing {
    NotOpen,
    OwnPiece { at: String, piece: String },
    TargetPhased { at: String, piece: String },
    Phased { piece: String },
}

/// What a refused piece can do instead.
#[derive(Debug, Clone)]
pub struct Instead {
    pub name: String,
    pub from: String,
    pub targets: Vec<String>,
    pub movable: Movable,
}

/// A rebirth refused, and where one may go instead.
#[derive(Debug, Clone)]
pub enum RebirthRefused {
    /// The army has no type that can be reborn.
    NoneCan { army: String, movable: Movable },
    /// The graveyard holds none of the types that can.
    EmptyGraveyard { able: Vec<String>, movable: Movable },
    /// The graveyard holds none of the type named.
    NotInGraveyard { kind: String },
    /// Several types could come back: the order must name one.
    SayWhich { at: String, ids: Vec<String> },
    /// The hex is not one a rebirth may go on.
    Spot {
        at: String,
        why: Spot,
        royal: String,
        spots: Vec<String>,
    },
}

/// Why a hex takes no rebirth: not next to the royal piece (on its hex), or
/// not empty.
#[derive(Debug, Clone)]
pub enum Spot {
    NotNext { royal_at: String },
    NotEmpty,
}

impl fmt::Display for TurnRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnRefused::NoOrders { template: t } => write!(
                f,
                "no orders: give this turn's actions (template {}: {}) or `pass`",
                t.name,
                t.describe()
            ),
            TurnRefused::StandsAlone { surrender } => write!(
                f,
                "`{}` stands alone: it is the whole turn, so send it as the only order",
                if *surrender { "surrender" } else { "pass" }
            ),
            TurnRefused::NoSuchAction { template, action } => {
                write!(f, "template {} has no {action} action", template.name)
            }
            TurnRefused::Full { template: t } => write!(
                f,
                "template {} ({}) has room for no more actions this turn",
                t.name,
                t.describe()
            ),
            TurnRefused::OutOfOrder {
                template: t,
                action,
            } => write!(
                f,
                "template {} ({}) takes its actions in that order; no {action} action is left after the earlier orders",
                t.name,
                t.describe()
            ),
            TurnRefused::Move(m) => write!(f, "{m}"),
            TurnRefused::Rebirth(r) => write!(f, "{r}"),
        }
    }
}

impl fmt::Display for MoveRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveRefused::NoPiece { at, movable } => {
                write!(f, "you have no piece on {at}; {movable}")
            }
            MoveRefused::Piece { why, instead: i } => {
                write!(f, "{why}. ")?;
                if i.targets.is_empty() {
                    write!(
                        f,
                        "the {} on {} cannot move now; {}",
                        i.name, i.from, i.movable
                    )
                } else {
                    write!(
                        f,
                        "The {} on {} can go to: {}",
                        i.name,
                        i.from,
                        i.targets.join(" ")
                    )
                }
            }
        }
    }
}

impl fmt::Display for WhyNot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WhyNot::Stay => f.write_str("a move must leave its hex"),
            WhyNot::JumpDistance {
                pattern,
                n,
                to,
                dist,
            } => write!(
                f,
                "{pattern}: exactly {n} hexes away, and {to} is {dist} away"
            ),
            WhyNot::JumpDirection { pattern, to } => {
                write!(f, "{pattern}; {to} is not in those directions")
            }
            WhyNot::NotStraight { pattern, from, to } => write!(
                f,
                "{pattern}, in a straight line, and {to} is not in a straight line from {from}"
            ),
            WhyNot::Direction { pattern, dir } => write!(f, "{pattern}, not {dir}"),
            WhyNot::TooFar {
                pattern,
                n,
                to,
                dist,
            } => write!(f, "{pattern}: at most {n} hexes, and {to} is {dist} away"),
            WhyNot::InTheWay { piece, at } => write!(
                f,
                "the {piece} on {at} is in the way (only a jump passes over pieces)"
            ),
            WhyNot::Landing(l) => write!(f, "{l}"),
        }
    }
}

impl fmt::Display for Landing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Landing::NotOpen => f.write_str("that move is not open"),
            Landing::OwnPiece { at, piece } => write!(f, "{at} holds your own {piece}"),
            Landing::TargetPhased { at, piece } => {
                write!(f, "the {piece} on {at} is phased: it cannot be captured")
            }
            Landing::Phased { piece } => write!(f, "a {piece} is phased: it cannot capture"),
        }
    }
}

impl fmt::Display for RebirthRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RebirthRefused::NoneCan { army, movable } => {
                write!(f, "no piece of the {army} can be reborn; {movable}")
            }
            RebirthRefused::EmptyGraveyard { able, movable } => write!(
                f,
                "your graveyard holds no {} to bring back; {movable}",
                able.join(" or ")
            ),
            RebirthRefused::NotInGraveyard { kind } => {
                write!(f, "your graveyard holds no {kind}")
            }
            RebirthRefused::SayWhich { at, ids } => write!(
                f,
                "say which piece comes back: `rebirth {at} <{}>`",
                ids.join("|")
            ),
            RebirthRefused::Spot {
                at,
                why,
                royal,
                spots,
            } => {
                match why {
                    Spot::NotNext { royal_at } => {
                        write!(f, "{at} is not next to your {royal} on {royal_at}")?
                    }
                    Spot::NotEmpty => write!(f, "{at} is not empty")?,
                }
                if spots.is_empty() {
                    write!(
                        f,
                        "; no hex next to your {royal} is empty, so there is no rebirth now"
                    )
                } else {
                    write!(f, "; a rebirth may go on: {}", spots.join(" "))
                }
            }
        }
    }
}

crate::games::rules_error::rules_detail!(TurnRefused, |self| match self {
    TurnRefused::Move(MoveRefused::NoPiece { .. }) => K::NotYours,
    TurnRefused::Rebirth(RebirthRefused::SayWhich { .. }) => K::Malformed,
    _ => K::Illegal,
});
