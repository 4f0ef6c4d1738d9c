//! The two sides and their pieces: the Duke, infantry, cavalry, artillery,
//! named by kind and number (`D`, `I1`–`I10`, `C1`–`C10`, `A1`–`A10`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Seat 0 plays Orfburg (moves first), seat 1 Wulfenburg.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Orfburg,
    Wulfenburg,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Orfburg, Side::Wulfenburg];

    pub fn seat(self) -> usize {
        self as usize
    }

    pub fn of_seat(seat: usize) -> Side {
        if seat == 0 {
            Side::Orfburg
        } else {
            Side::Wulfenburg
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::Orfburg => Side::Wulfenburg,
            Side::Wulfenburg => Side::Orfburg,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Orfburg => "Orfburg",
            Side::Wulfenburg => "Wulfenburg",
        }
    }

    pub fn parse(s: &str) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|x| x.name().eq_ignore_ascii_case(s.trim()))
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Duke,
    Infantry,
    Cavalry,
    Artillery,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Duke, Kind::Infantry, Kind::Cavalry, Kind::Artillery];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Duke => "duke",
            Kind::Infantry => "infantry",
            Kind::Cavalry => "cavalry",
            Kind::Artillery => "artillery",
        }
    }
}

/// One piece of a side: its kind and number (the Duke is number 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnitId {
    pub kind: Kind,
    pub num: u8,
}

impl UnitId {
    pub const DUKE: UnitId = UnitId {
        kind: Kind::Duke,
        num: 0,
    };

    pub fn parse(s: &str) -> Option<UnitId> {
        let s = s.trim();
        let mut chars = s.chars();
        let kind = match chars.next()?.to_ascii_uppercase() {
            'D' => Kind::Duke,
            'I' => Kind::Infantry,
            'C' => Kind::Cavalry,
            'A' => Kind::Artillery,
            _ => return None,
        };
        let rest = chars.as_str();
        if kind == Kind::Duke {
            return rest.is_empty().then_some(UnitId::DUKE);
        }
        if rest.is_empty() || rest.starts_with('0') || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let num: u8 = rest.parse().ok()?;
        Some(UnitId { kind, num })
    }

    pub fn letter(self) -> char {
        match self.kind {
            Kind::Duke => 'D',
            Kind::Infantry => 'I',
            Kind::Cavalry => 'C',
            Kind::Artillery => 'A',
        }
    }

    pub fn is_duke(self) -> bool {
        self.kind == Kind::Duke
    }
}

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_duke() {
            f.write_str("D")
        } else {
            write!(f, "{}{}", self.letter(), self.num)
        }
    }
}

impl Serialize for UnitId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for UnitId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<UnitId, D::Error> {
        let s = String::deserialize(d)?;
        UnitId::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not a unit")))
    }
}

/// A kind's numbers from the ruleset. The printed counter carries one
/// number, "representing the offensive and defensive power", so the ruleset
/// gives `strength` and both values are read from it; rulesets written
/// before that ruling (version 1, embedded in older game files) gave a
/// separate `attack` and `defence`, which are still read so that those
/// games replay with the numbers they were played with.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(try_from = "StatsData")]
pub struct Stats {
    pub letter: char,
    pub count: u8,
    /// What the unit attacks with (0 for the Duke, who never attacks).
    pub attack: u32,
    /// What the unit defends with.
    pub defence: u32,
    /// Whole movement points (the rules count in half points: ×2).
    pub movement: u32,
    pub range: u32,
}

impl Stats {
    /// Attack and defence are one number (the printed counter), or the
    /// piece never attacks and defends with it (the Duke).
    pub fn one_number(&self) -> bool {
        self.attack == self.defence || self.attack == 0
    }
}

/// A kind as the ruleset writes it: `strength`, or (before version 2)
/// `attack` and `defence`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StatsData {
    letter: char,
    count: u8,
    strength: Option<u32>,
    attack: Option<u32>,
    defence: Option<u32>,
    movement: u32,
    range: u32,
}

impl TryFrom<StatsData> for Stats {
    type Error = String;
    // A String error: serde's `try_from` wants an error it can print into
    // its own message (`Display`); that message is all that is kept.
    fn try_from(d: StatsData) -> Result<Stats, String> {
        let (attack, defence) = match (d.strength, d.attack, d.defence) {
            // One number for both; a piece without range (the Duke) only
            // defends.
            (Some(s), None, None) => (if d.range == 0 { 0 } else { s }, s),
            (None, Some(a), Some(d)) => (a, d),
            _ => {
                return Err(
                    "give `strength` (the counter's one number, attack and defence), \
                     or `attack` and `defence` as rulesets before version 2 did"
                        .into(),
                )
            }
        };
        Ok(Stats {
            letter: d.letter,
            count: d.count,
            attack,
            defence,
            movement: d.movement,
            range: d.range,
        })
    }
}
