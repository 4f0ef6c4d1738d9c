//! The start: the board drawn from the seeded RNG (Contentious hexes from
//! the central nine, Difficult hexes scattered so both corners keep fair,
//! clear paths), the forces on their start hexes awaiting deployment; and
//! position files (`herald new --setup`) for rule cases and puzzles.

use super::board::{parse_hex, Board};
use super::ruleset::Ruleset;
use super::state::{Force, Phase, Side, State};
use crate::board::Hex;
use crate::rng::{self, ChaCha20Rng};
use serde::Deserialize;

fn hex(h: [i32; 2]) -> Hex {
    Hex::new(h[0], h[1])
}

/// Draw `k` distinct items from `pool` (order of the pool fixed by the caller).
fn draw(rng: &mut ChaCha20Rng, mut pool: Vec<Hex>, k: usize) -> Vec<Hex> {
    let mut out = Vec::with_capacity(k);
    for _ in 0..k.min(pool.len()) {
        let i = rng::below(rng, pool.len() as u32) as usize;
        out.push(pool.swap_remove(i));
    }
    out.sort();
    out
}

/// Whether a board is fair: each corner reaches every Contentious hex
/// without crossing a Difficult one, and the totals of those path lengths
/// from the two corners differ by at most `max_path_difference`.
pub fn fair(rules: &Ruleset, b: &Board) -> bool {
    let [c0, c1] = rules.board.corners.map(hex);
    match (b.path_total(c0), b.path_total(c1)) {
        (Some(a), Some(z)) => (a - z).abs() <= rules.board.max_path_difference,
        _ => false,
    }
}

/// Draw a fair board.
pub fn generate(rules: &Ruleset, rng: &mut ChaCha20Rng) -> Result<Board, BadPosition> {
    let br = &rules.board;
    let starts: Vec<Hex> = br.starts.iter().flatten().map(|h| hex(*h)).collect();
    let central: Vec<Hex> = (br.contentious_from..=br.contentious_to)
        .flat_map(|q| (br.contentious_from..=br.contentious_to).map(move |r| Hex::new(q, r)))
        .collect();
    for _ in 0..br.max_draws {
        let contentious = draw(rng, central.clone(), br.contentious);
        let span = (br.difficult_max - br.difficult_min + 1) as u32;
        let k = br.difficult_min + rng::below(rng, span) as usize;
        let pool: Vec<Hex> = (0..br.size)
            .flat_map(|q| (0..br.size).map(move |r| Hex::new(q, r)))
            .filter(|h| !starts.contains(h) && !contentious.contains(h))
            .collect();
        let difficult = draw(rng, pool, k);
        let b = Board {
            size: br.size,
            centre: rules.centre(),
            contentious,
            difficult,
            radius: None,
        };
        if fair(rules, &b) {
            return Ok(b);
        }
    }
    Err(BadPosition::NoFairBoard {
        draws: br.max_draws,
    })
}

/// The forces of both seats on their start hexes, powers unassigned.
pub fn standard(rules: &Ruleset, board: Board) -> State {
    let sides = [0, 1].map(|s| Side {
        shih: rules.shih.start,
        forces: rules.board.starts[s]
            .iter()
            .enumerate()
            .map(|(i, h)| Force {
                id: i as u8 + 1,
                at: hex(*h),
                power: 0,
                alive: true,
            })
            .collect(),
        domination: 0,
        known: Vec::new(),
        conceded: false,
    });
    State {
        board,
        phase: Phase::Deploy,
        turn: 1,
        sides,
        end: None,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Position {
    #[serde(default = "one")]
    turn: u32,
    contentious: Vec<String>,
    #[serde(default)]
    difficult: Vec<String>,
    radius: Option<i32>,
    side: Vec<PositionSide>,
}

fn one() -> u32 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionSide {
    shih: Option<u32>,
    #[serde(default)]
    domination: u32,
    /// "f<id> <q,r> <power>"; forces not listed have fallen.
    forces: Vec<String>,
    /// Enemy forces ("f<id>") whose power this side knows.
    #[serde(default)]
    known: Vec<String>,
}

/// A position file: the board, the turn, both sides' forces with powers
/// (the orders phase of that turn).
///
/// Long (about 150 lines): every check of a position file, each adding to one
/// list of problems so that all are told at once.
pub fn from_position(rules: &Ruleset, text: &str) -> Result<State, BadPosition> {
    let p: Position = toml::from_str(text).map_err(|e| BadPosition::Unreadable(Box::new(e)))?;
    let hexes = |list: &[String], what: &'static str| -> Result<Vec<Hex>, BadPosition> {
        let mut v = list
            .iter()
            .map(|s| {
                parse_hex(s).ok_or_else(|| BadPosition::Hex {
                    what,
                    entry: s.clone(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        v.sort();
        v.dedup();
        Ok(v)
    };
    let board = Board {
        size: rules.board.size,
        centre: rules.centre(),
        contentious: hexes(&p.contentious, "contentious")?,
        difficult: hexes(&p.difficult, "difficult")?,
        radius: p.radius,
    };
    if p.side.len() != 2 {
        return Err(BadPosition::Sides);
    }
    let n = rules.forces();
    let mut sides = Vec::new();
    for (s, ps) in p.side.iter().enumerate() {
        let mut forces: Vec<Option<Force>> = vec![None; n];
        for line in &ps.forces {
            let w: Vec<&str> = line.split_whitespace().collect();
            let at_line = |why| BadPosition::Force {
                side: s + 1,
                line: line.clone(),
                why,
            };
            let bad = || at_line(BadForce::Form);
            if w.len() != 3 {
                return Err(bad());
            }
            let id: usize = w[0]
                .strip_prefix('f')
                .and_then(|d| d.parse().ok())
                .filter(|&d| (1..=n).contains(&d))
                .ok_or_else(bad)?;
            let at = parse_hex(w[1]).ok_or_else(bad)?;
            let power: u8 = w[2].parse().map_err(|_| bad())?;
            if !rules.forces.powers.contains(&power) {
                return Err(at_line(BadForce::Power));
            }
            if !board.playable(at) {
                return Err(at_line(BadForce::Hex));
            }
            if forces[id - 1].is_some() {
                return Err(BadPosition::Twice { side: s + 1, id });
            }
            forces[id - 1] = Some(Force {
                id: id as u8,
                at,
                power,
                alive: true,
            });
        }
        let mut spare: Vec<u8> = rules
            .forces
            .powers
            .iter()
            .copied()
            .filter(|q| !forces.iter().flatten().any(|f| f.power == *q))
            .collect();
        spare.sort_unstable();
        let listed: Vec<u8> = forces.iter().flatten().map(|f| f.power).collect();
        if listed.len() + spare.len() != n {
            return Err(BadPosition::PowerTwice { side: s + 1 });
        }
        if !listed.contains(&rules.forces.sovereign) {
            return Err(BadPosition::Sovereign {
                side: s + 1,
                power: rules.forces.sovereign,
            });
        }
        let start = rules.board.starts[s].clone();
        let mut spare = spare.into_iter();
        let forces: Vec<Force> = forces
            .into_iter()
            .enumerate()
            .map(|(i, f)| {
                f.unwrap_or_else(|| Force {
                    id: i as u8 + 1,
                    at: hex(start[i]),
                    power: spare.next().expect("a spare power per fallen force"),
                    alive: false,
                })
            })
            .collect();
        let mut known = Vec::new();
        for k in &ps.known {
            let id: u8 = k
                .strip_prefix('f')
                .and_then(|d| d.parse().ok())
                .filter(|&d: &u8| d >= 1 && d as usize <= n)
                .ok_or_else(|| BadPosition::Known {
                    side: s + 1,
                    entry: k.clone(),
                })?;
            known.push(id);
        }
        sides.push(Side {
            shih: ps.shih.unwrap_or(rules.shih.start),
            forces,
            domination: ps.domination,
            known,
            conceded: false,
        });
    }
    let mut sides: [Side; 2] = [sides.remove(0), sides.remove(0)];
    // Fallen forces' powers are public.
    for s in 0..2 {
        let dead: Vec<u8> = sides[1 - s]
            .forces
            .iter()
            .filter(|f| !f.alive)
            .map(|f| f.id)
            .collect();
        for id in dead {
            sides[s].learn(id);
        }
        let mut k = std::mem::take(&mut sides[s].known);
        k.sort_unstable();
        k.dedup();
        sides[s].known = k;
    }
    let mut taken: Vec<Hex> = Vec::new();
    for side in &sides {
        for f in side.living() {
            if taken.contains(&f.at) {
                return Err(BadPosition::Crowded { at: f.at });
            }
            taken.push(f.at);
        }
    }
    Ok(State {
        board,
        phase: Phase::Orders,
        turn: p.turn.max(1),
        sides,
        end: None,
    })
}

/// Why The Unfought Battle cannot start from a position file (`--setup`),
/// or draw a board.
#[derive(Debug)]
pub enum BadPosition {
    /// Not TOML of the position's shape.
    Unreadable(Box<toml::de::Error>),
    /// An entry of the `contentious` or `difficult` list that is no hex.
    Hex {
        what: &'static str,
        entry: String,
    },
    /// Not two `[[side]]` tables.
    Sides,
    /// A force line of side `side` (1 or 2) that places no force.
    Force {
        side: usize,
        line: String,
        why: BadForce,
    },
    Twice {
        side: usize,
        id: usize,
    },
    PowerTwice {
        side: usize,
    },
    /// The Sovereign (its power) is not among the living.
    Sovereign {
        side: usize,
        power: u8,
    },
    /// A `known` entry that names no force.
    Known {
        side: usize,
        entry: String,
    },
    /// Two forces on one hex.
    Crowded {
        at: Hex,
    },
    /// The ruleset's board numbers gave no fair board in `draws` draws.
    NoFairBoard {
        draws: u32,
    },
}

/// Why a position's force line places no force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadForce {
    Form,
    Power,
    Hex,
}

impl std::fmt::Display for BadPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadPosition::Unreadable(e) => write!(f, "the position does not read: {e}"),
            BadPosition::Hex { what, entry } => write!(f, "{what}: `{entry}` is not a hex (q,r)"),
            BadPosition::Sides => {
                f.write_str("a position lists two [[side]] tables, seat 1's then seat 2's")
            }
            BadPosition::Force { side, line, why } => {
                write!(f, "side {side}: `{line}`: ")?;
                f.write_str(match why {
                    BadForce::Form => "say `f<id> <q,r> <power>`",
                    BadForce::Power => "no such power",
                    BadForce::Hex => "not a playable hex",
                })
            }
            BadPosition::Twice { side, id } => write!(f, "side {side}: f{id} is listed twice"),
            BadPosition::PowerTwice { side } => write!(f, "side {side}: a power is given twice"),
            BadPosition::Sovereign { side, power } => write!(
                f,
                "side {side}: the Sovereign (power {power}) must be alive"
            ),
            BadPosition::Known { side, entry } => {
                write!(f, "side {side}: known `{entry}`: say f<id>")
            }
            BadPosition::Crowded { at } => {
                write!(f, "two forces on {}", super::board::label(*at))
            }
            BadPosition::NoFairBoard { draws } => write!(
                f,
                "no fair board in {draws} draws: the ruleset's board numbers cannot be met"
            ),
        }
    }
}

crate::games::rules_error::rules_detail!(BadPosition, |self| K::Setup);
