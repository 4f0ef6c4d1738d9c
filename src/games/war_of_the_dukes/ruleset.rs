//! The ruleset data (`games/war-of-the-dukes.toml`): unit values, terrain
//! and hexside costs in half movement points, the combat results table and
//! the map.

use super::map::{BadMap, Hexside, Ix, Map, MapData, PlaceData, Terrain};
use super::units::{Kind, Side, Stats};
use crate::games::RulesError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesData {
    name: String,
    title: String,
    version: String,
    turns: u32,
    duke_aura: i32,
    /// A piece is attacked at most once a phase, even in another hex after
    /// a retreat or a swap (absent, so false, in rulesets before version 2).
    #[serde(default)]
    attacked_once: bool,
    units: BTreeMap<String, Stats>,
    terrain: BTreeMap<String, TerrainRule>,
    hexsides: BTreeMap<String, u32>,
    crt: CrtData,
    map: MapData,
    places: Vec<PlaceData>,
    victory: VictoryData,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRule {
    /// Half movement points to enter; 0 = impassable.
    pub cost: u32,
    /// Multiplier of the defence of units standing here.
    pub defence: u32,
    /// Added to the attacker's die when the defender stands here.
    pub die: u32,
    /// The Duke may share this hex with one friendly unit.
    pub stack: bool,
    /// The defence multiplier counts only while a combat unit holds the
    /// hex: a Duke alone is no garrison (a fortress "without a garrison"
    /// is "defenseless"). Absent in rulesets before version 2.
    #[serde(default)]
    pub garrison: bool,
    /// Impassable terrain that its bridge hexsides cross (a causeway): a
    /// piece enters and leaves it only across a bridge, at the bridge's
    /// cost. Absent in rulesets before version 2 (never entered).
    #[serde(default)]
    pub causeway: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CrtData {
    columns: Vec<String>,
    rows: Vec<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VictoryData {
    kaiserburg: String,
    orfburg_capital: String,
    wulfenburg_capital: String,
}

/// A combat result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Res {
    AE,
    AR,
    DE,
    DR,
    EX,
}

impl Res {
    pub fn parse(s: &str) -> Option<Res> {
        Some(match s {
            "AE" => Res::AE,
            "AR" => Res::AR,
            "DE" => Res::DE,
            "DR" => Res::DR,
            "EX" => Res::EX,
            _ => return None,
        })
    }

    pub fn meaning(self) -> &'static str {
        match self {
            Res::AE => "attackers eliminated",
            Res::AR => "attackers retreat",
            Res::DE => "defenders eliminated",
            Res::DR => "defenders retreat",
            Res::EX => "exchange",
        }
    }
}

impl fmt::Display for Res {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

#[derive(Debug, Clone)]
pub struct Ruleset {
    pub name: String,
    pub title: String,
    pub version: String,
    pub turns: u32,
    pub duke_aura: i32,
    /// A piece is attacked at most once a phase (see [`RulesData`]).
    pub attacked_once: bool,
    /// By [`Kind::index`].
    pub stats: [Stats; 4],
    /// By terrain, in [`Terrain::ALL`] order.
    terrain: [TerrainRule; 6],
    pub road: u32,
    pub bridge_with_road: u32,
    pub bridge: u32,
    /// Odds columns: the largest `1-k` to the left, the largest `m-1` to the right.
    pub crt_columns: Vec<String>,
    pub worst_odds: u32,
    pub best_odds: u32,
    pub crt: Vec<Vec<Res>>,
    pub map: Map,
    pub kaiserburg: usize,
    pub capitals: [usize; 2],
}

impl Ruleset {
    /// The ruleset from its TOML text, every section checked (`read`).
    pub fn parse(text: &str) -> Result<Ruleset, RulesError> {
        let d: RulesData = toml::from_str(text).map_err(|e| RulesError::RulesetUnreadable {
            title: "War of the Dukes",
            error: Box::new(e),
        })?;
        Ok(Ruleset::read(d)?)
    }

    /// Long (about 140 lines): every section of the ruleset file read and
    /// checked in turn (units, terrain, hexsides, the combat table, the map),
    /// each a few lines.
    fn read(d: RulesData) -> Result<Ruleset, BadRuleset> {
        let stat = |k: &str| {
            d.units
                .get(k)
                .copied()
                .ok_or_else(|| BadRuleset::Missing(format!("units.{k}")))
        };
        let stats = [
            stat("duke")?,
            stat("infantry")?,
            stat("cavalry")?,
            stat("artillery")?,
        ];
        if d.units.len() != 4 {
            return Err(BadRuleset::UnitKinds);
        }
        for (k, s) in Kind::ALL.iter().zip(stats.iter()) {
            let want = ['D', 'I', 'C', 'A'][k.index()];
            if s.letter != want {
                return Err(BadRuleset::Letter { kind: *k, want });
            }
            if s.count == 0 || s.count > 99 || (*k == Kind::Duke && s.count != 1) {
                return Err(BadRuleset::Count(*k));
            }
            if s.movement == 0 || s.movement > 50 {
                return Err(BadRuleset::Movement(*k));
            }
            if *k != Kind::Duke && (s.attack == 0 || s.range == 0 || s.range > 2) {
                return Err(BadRuleset::Attack(*k));
            }
            if *k == Kind::Duke && s.attack != 0 {
                return Err(BadRuleset::DukeAttacks);
            }
            if s.defence == 0 {
                return Err(BadRuleset::Defence(*k));
            }
        }
        let mut terrain = [TerrainRule {
            cost: 0,
            defence: 1,
            die: 0,
            stack: false,
            garrison: false,
            causeway: false,
        }; 6];
        for (i, t) in Terrain::ALL.iter().enumerate() {
            terrain[i] = *d
                .terrain
                .get(t.name())
                .ok_or_else(|| BadRuleset::Missing(format!("terrain.{}", t.name())))?;
            if terrain[i].defence == 0 || terrain[i].cost > 40 || terrain[i].die > 5 {
                return Err(BadRuleset::TerrainBounds(*t));
            }
            if terrain[i].causeway && terrain[i].cost != 0 {
                return Err(BadRuleset::Causeway(*t));
            }
        }
        let side = |k: &str| {
            d.hexsides
                .get(k)
                .copied()
                .ok_or_else(|| BadRuleset::Missing(format!("hexsides.{k}")))
        };
        let (road, bridge_with_road, bridge) =
            (side("road")?, side("bridge_with_road")?, side("bridge")?);
        if side("river")? != 0 {
            return Err(BadRuleset::River);
        }
        // Columns: 1-K … 1-2, 1-1, 2-1 … M-1.
        let cols = &d.crt.columns;
        let one = cols
            .iter()
            .position(|c| c == "1-1")
            .ok_or(BadRuleset::NoEvenOdds)?;
        let worst = one as u32 + 1;
        let best = (cols.len() - one) as u32;
        for (i, c) in cols.iter().enumerate() {
            let want = if i <= one {
                (1, worst - i as u32)
            } else {
                ((i - one + 1) as u32, 1)
            };
            if *c != format!("{}-{}", want.0, want.1) {
                return Err(BadRuleset::Column {
                    n: i + 1,
                    got: c.clone(),
                    want,
                });
            }
        }
        if d.crt.rows.len() != 6 {
            return Err(BadRuleset::Rows);
        }
        let mut crt = Vec::new();
        for (n, row) in d.crt.rows.iter().enumerate() {
            if row.len() != cols.len() {
                return Err(BadRuleset::RowLength {
                    row: n + 1,
                    results: row.len(),
                    columns: cols.len(),
                });
            }
            crt.push(
                row.iter()
                    .map(|r| Res::parse(r).ok_or_else(|| BadRuleset::Result(r.clone())))
                    .collect::<Result<Vec<_>, _>>()?,
            );
        }
        let map = Map::build(&d.map, &d.places).map_err(BadRuleset::Map)?;
        let place = |n: &str| map.place(n).ok_or_else(|| BadRuleset::Place(n.to_string()));
        let kaiserburg = place(&d.victory.kaiserburg)?;
        let capitals = [
            place(&d.victory.orfburg_capital)?,
            place(&d.victory.wulfenburg_capital)?,
        ];
        let rules = Ruleset {
            name: d.name,
            title: d.title,
            version: d.version,
            turns: d.turns,
            duke_aura: d.duke_aura,
            attacked_once: d.attacked_once,
            stats,
            terrain,
            road,
            bridge_with_road,
            bridge,
            crt_columns: cols.clone(),
            worst_odds: worst,
            best_odds: best,
            crt,
            map,
            kaiserburg,
            capitals,
        };
        rules.validate()?;
        Ok(rules)
    }

    fn validate(&self) -> Result<(), BadRuleset> {
        if self.turns == 0 || self.turns > 99 {
            return Err(BadRuleset::Turns);
        }
        for side in Side::BOTH {
            let strong = self.strongpoints(side).len();
            let units: u32 = [Kind::Infantry, Kind::Cavalry, Kind::Artillery]
                .iter()
                .map(|k| self.stats[k.index()].count as u32)
                .sum();
            if strong as u32 > units {
                return Err(BadRuleset::Garrison {
                    side,
                    strong,
                    units,
                });
            }
            let land = self
                .map
                .cells
                .iter()
                .filter(|c| c.owner == Some(side) && self.terrain(c.terrain).cost > 0)
                .count();
            if (land as u32) < units {
                return Err(BadRuleset::Room { side, units });
            }
            let cap = &self.map.places[self.capitals[side.seat()]];
            if cap
                .cells
                .iter()
                .any(|&i| self.map.cell(i).owner != Some(side))
            {
                return Err(BadRuleset::Capital {
                    side,
                    name: cap.name.clone(),
                });
            }
        }
        Ok(())
    }

    pub fn terrain(&self, t: Terrain) -> TerrainRule {
        self.terrain[t as usize]
    }

    pub fn at(&self, i: Ix) -> TerrainRule {
        self.terrain(self.map.cell(i).terrain)
    }

    pub fn stats(&self, k: Kind) -> Stats {
        self.stats[k.index()]
    }

    /// Half movement points a kind has.
    pub fn mp(&self, k: Kind) -> u32 {
        self.stats[k.index()].movement * 2
    }

    /// The city and fortress hexes a side owns (one unit each at setup).
    pub fn strongpoints(&self, side: Side) -> Vec<Ix> {
        (0..self.map.cells.len() as Ix)
            .filter(|&i| {
                let c = self.map.cell(i);
                c.owner == Some(side) && matches!(c.terrain, Terrain::City | Terrain::Fortress)
            })
            .collect()
    }

    /// The hexes `a` and `b`, neighbours across hexside `side`, are joined:
    /// a piece may step between them, a zone of control reaches across, a
    /// unit is in contact for close combat and may retreat across. Not
    /// across an unbridged river; into or out of impassable terrain only
    /// across a bridge, and only where that terrain carries causeways.
    pub fn joined(&self, a: Ix, side: Hexside, b: Ix) -> bool {
        if side == Hexside::River {
            return false;
        }
        let bridge = matches!(side, Hexside::Bridge | Hexside::BridgeWithRoad);
        [a, b].into_iter().all(|i| {
            let t = self.at(i);
            t.cost > 0 || (t.causeway && bridge)
        })
    }

    /// Half movement points to step from `from` across hexside `side` into
    /// `to`; `None` when the step is impossible (river, lake).
    pub fn step_cost(&self, from: Ix, side: Hexside, to: Ix) -> Option<u32> {
        if !self.joined(from, side, to) {
            return None;
        }
        match side {
            Hexside::River => None,
            Hexside::Road => Some(self.road),
            Hexside::BridgeWithRoad => Some(self.bridge_with_road),
            Hexside::Bridge => Some(self.bridge),
            Hexside::Open => Some(self.at(to).cost),
        }
    }

    /// The hexes across whose sides a piece may enter `i`, in label order
    /// (for messages).
    pub fn entries(&self, i: Ix) -> Vec<Ix> {
        let mut out: Vec<Ix> = self
            .map
            .neighbours(i)
            .filter(|&(n, s)| self.joined(n, s, i))
            .map(|(n, _)| n)
            .collect();
        out.sort_by_key(|&n| self.map.label(n));
        out
    }

    /// A piece may stand on `i`: passable terrain, or a causeway hex with
    /// a bridge to reach it by.
    pub fn standable(&self, i: Ix) -> bool {
        self.at(i).cost > 0 || !self.entries(i).is_empty()
    }

    /// The odds column for attack `a` against defence `d`, rounded in the
    /// defender's favour and clamped to the table: (index, "a-b").
    pub fn odds(&self, a: u32, d: u32) -> (usize, String) {
        let one = (self.worst_odds - 1) as usize;
        if a >= d {
            let n = (a / d.max(1)).min(self.best_odds);
            (one + n as usize - 1, format!("{n}-1"))
        } else {
            let n = d.div_ceil(a.max(1)).min(self.worst_odds);
            (one + 1 - n as usize, format!("1-{n}"))
        }
    }
}

/// What is wrong with the ruleset beyond TOML: a section missing, a bound
/// broken, a name that names nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadRuleset {
    /// A key the ruleset must have (as `section.key`).
    Missing(String),
    UnitKinds,
    Letter {
        kind: Kind,
        want: char,
    },
    Count(Kind),
    Movement(Kind),
    Attack(Kind),
    DukeAttacks,
    Defence(Kind),
    TerrainBounds(Terrain),
    Causeway(Terrain),
    River,
    /// The combat table without a 1-1 column.
    NoEvenOdds,
    /// A combat table column (1-based) not the odds expected there.
    Column {
        n: usize,
        got: String,
        want: (u32, u32),
    },
    Rows,
    RowLength {
        row: usize,
        results: usize,
        columns: usize,
    },
    Result(String),
    Map(BadMap),
    Place(String),
    Turns,
    /// More city and fortress hexes than units to garrison them.
    Garrison {
        side: Side,
        strong: usize,
        units: u32,
    },
    Room {
        side: Side,
        units: u32,
    },
    Capital {
        side: Side,
        name: String,
    },
}

impl fmt::Display for BadRuleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadRuleset::Missing(key) => write!(f, "{key} is missing"),
            BadRuleset::UnitKinds => {
                f.write_str("units: exactly duke, infantry, cavalry and artillery")
            }
            BadRuleset::Letter { kind, want } => {
                write!(f, "units.{}: letter must be {want}", kind.name())
            }
            BadRuleset::Count(k) => write!(
                f,
                "units.{}: count out of range (one Duke, 1..=99 others)",
                k.name()
            ),
            BadRuleset::Movement(k) => write!(f, "units.{}: movement must be 1..=50", k.name()),
            BadRuleset::Attack(k) => write!(
                f,
                "units.{}: attack must be positive and range 1 or 2",
                k.name()
            ),
            BadRuleset::DukeAttacks => f.write_str(
                "units.duke: the Duke never attacks (attack 0, or strength with range 0)",
            ),
            BadRuleset::Defence(k) => write!(f, "units.{}: defence must be positive", k.name()),
            BadRuleset::TerrainBounds(t) => {
                write!(f, "terrain.{}: defence ≥ 1, cost ≤ 40, die ≤ 5", t.name())
            }
            BadRuleset::Causeway(t) => write!(
                f,
                "terrain.{}: causeway is for impassable terrain (cost 0)",
                t.name()
            ),
            BadRuleset::River => f.write_str("hexsides.river must be 0 (impassable)"),
            BadRuleset::NoEvenOdds => f.write_str("crt.columns must include 1-1"),
            BadRuleset::Column { n, got, want } => write!(
                f,
                "crt.columns: column {n} is `{got}`, expected `{}-{}`",
                want.0, want.1
            ),
            BadRuleset::Rows => f.write_str("crt.rows: one row per die roll, 1 to 6"),
            BadRuleset::RowLength {
                row,
                results,
                columns,
            } => write!(f, "crt.rows[{row}]: {results} results for {columns} columns"),
            BadRuleset::Result(r) => write!(f, "crt: `{r}` is not AE, AR, DE, DR or EX"),
            BadRuleset::Map(e) => write!(f, "{e}"),
            BadRuleset::Place(n) => write!(f, "victory: no place called `{n}`"),
            BadRuleset::Turns => f.write_str("turns must be 1..=99"),
            BadRuleset::Garrison {
                side,
                strong,
                units,
            } => write!(
                f,
                "{side} owns {strong} city and fortress hexes but has only {units} units to garrison them"
            ),
            BadRuleset::Room { side, units } => {
                write!(f, "{side}'s territory has room for fewer than {units} units")
            }
            BadRuleset::Capital { side, name } => {
                write!(f, "{side}'s capital {name} lies outside its territory")
            }
        }
    }
}

crate::games::rules_error::rules_detail!(BadRuleset, |self| K::Ruleset);
