//! The order notation and the checks of a whole order file.
//!
//! - deployment: `I3 0712` places I3 on 0712 (one line per piece, all 31);
//! - a move: `I3 0712` (the destination: herald finds the cheapest legal
//!   path) or `C1 0712 0713 0814` (the whole path, hex by hex);
//! - an attack: `attack 0915 with I3 I4 A2 advance I3` (`advance …`
//!   optional).

use super::combat;
use super::map::{Ix, Label};
use super::movement;
use super::refusal::{list, Reachable, Refused};
use super::ruleset::Ruleset;
use super::state::{Phase, State};
use super::units::{Side, UnitId};
use super::zoc;
use crate::games::{Problem, RulesError};
use std::collections::BTreeSet;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    Place {
        unit: UnitId,
        at: Label,
    },
    /// One label: the destination; more: the whole path.
    Move {
        unit: UnitId,
        path: Vec<Label>,
    },
    Attack {
        target: Label,
        with: Vec<UnitId>,
        advance: Option<UnitId>,
    },
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Place { unit, at } => write!(f, "{unit} {at}"),
            Order::Move { unit, path } => {
                write!(f, "{unit}")?;
                for l in path {
                    write!(f, " {l}")?;
                }
                Ok(())
            }
            Order::Attack {
                target,
                with,
                advance,
            } => {
                write!(f, "attack {target} with")?;
                for u in with {
                    write!(f, " {u}")?;
                }
                if let Some(a) = advance {
                    write!(f, " advance {a}")?;
                }
                Ok(())
            }
        }
    }
}

pub const NOTATION: &str = "orders are `I3 0712` (a move to 0712; herald finds the cheapest legal path), `C1 0712 0713 0814` (a move along that path) and `attack 0915 with I3 I4 A2 advance I3` (`advance …` optional); units are D, I1–I10, C1–C10, A1–A10, hexes CCRR";

const ATTACK_FORM: &str =
    "say `attack CCRR with UNIT … [advance UNIT]`, e.g. `attack 0915 with I3 I4 A2 advance I3`";

/// Why a War of the Dukes order line does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderError {
    /// A word that names no unit.
    NotAUnit { word: String },
    /// A word that is no hex label.
    NotAHex { word: String },
    /// An attack not of the form `attack CCRR with UNIT … [advance UNIT]`.
    Attack,
    /// `advance` not followed by exactly one last unit.
    Advance,
    /// A deployment line not placing one unit on one hex.
    Place { unit: UnitId },
    /// A move naming no hex.
    Whither { unit: UnitId },
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderError::NotAUnit { word } => write!(
                f,
                "`{word}` is not a unit (D, I1–I10, C1–C10, A1–A10); {NOTATION}"
            ),
            OrderError::NotAHex { word } => write!(
                f,
                "`{word}` is not a hex: write four digits CCRR, column then row, e.g. 0712"
            ),
            OrderError::Attack => f.write_str(ATTACK_FORM),
            OrderError::Advance => write!(f, "`advance` names one unit, last: {ATTACK_FORM}"),
            OrderError::Place { unit } => write!(
                f,
                "during deployment each line places one piece on one hex: `{unit} CCRR`, e.g. `{unit} 0712`"
            ),
            OrderError::Whither { unit } => write!(
                f,
                "say where {unit} goes: `{unit} CCRR` (the destination) or `{unit} CCRR CCRR …` (the path)"
            ),
        }
    }
}

crate::games::rules_error::rules_detail!(OrderError, |self| match self {
    OrderError::NotAUnit { .. } => K::UnknownPiece,
    _ => K::Malformed,
});

/// A unit named in an order that is not the player's on the map: none of
/// that name, or eliminated; the units the player has there instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoUnit {
    pub side: Side,
    pub unit: UnitId,
    pub eliminated: bool,
    /// The player's units on the map, by name.
    pub yours: Vec<String>,
}

impl fmt::Display for NoUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let yours = list(&self.yours, 40);
        if self.eliminated {
            write!(
                f,
                "{} was eliminated; your units on the map are {yours}",
                self.unit
            )
        } else {
            write!(
                f,
                "{} has no unit {}; yours are {yours}",
                self.side, self.unit
            )
        }
    }
}

crate::games::rules_error::rules_detail!(NoUnit, |self| K::UnknownPiece);

fn unit(word: &str) -> Result<UnitId, OrderError> {
    UnitId::parse(word).ok_or(OrderError::NotAUnit {
        word: word.to_string(),
    })
}

fn hex(word: &str) -> Result<Label, OrderError> {
    Label::parse(word).ok_or(OrderError::NotAHex {
        word: word.to_string(),
    })
}

pub fn parse(st: &State, line: &str) -> Result<Order, RulesError> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let Some(&first) = words.first() else {
        return Err(RulesError::EmptyOrder { accepted: NOTATION });
    };
    if first.eq_ignore_ascii_case("attack") {
        if words.len() < 4 || !words[2].eq_ignore_ascii_case("with") {
            return Err(OrderError::Attack.into());
        }
        let target = hex(words[1])?;
        let mut with = Vec::new();
        let mut advance = None;
        let mut k = 3;
        while k < words.len() {
            if words[k].eq_ignore_ascii_case("advance") {
                if k + 2 != words.len() {
                    return Err(OrderError::Advance.into());
                }
                advance = Some(unit(words[k + 1])?);
                break;
            }
            with.push(unit(words[k])?);
            k += 1;
        }
        if with.is_empty() {
            return Err(OrderError::Attack.into());
        }
        return Ok(Order::Attack {
            target,
            with,
            advance,
        });
    }
    let u = unit(first)?;
    let labels: Vec<Label> = words[1..]
        .iter()
        .map(|w| hex(w))
        .collect::<Result<_, _>>()?;
    if st.phase == Phase::Deployment {
        if labels.len() != 1 {
            return Err(OrderError::Place { unit: u }.into());
        }
        return Ok(Order::Place {
            unit: u,
            at: labels[0],
        });
    }
    if labels.is_empty() {
        return Err(OrderError::Whither { unit: u }.into());
    }
    Ok(Order::Move {
        unit: u,
        path: labels,
    })
}

/// The pieces a side has on the map, by name.
fn roster(st: &State, side: Side) -> Vec<String> {
    st.on_map(side).map(|(_, u)| u.id.to_string()).collect()
}

/// Unit `id` of `side`, on the map.
fn own_unit(st: &State, side: Side, id: UnitId) -> Result<usize, NoUnit> {
    let none = |eliminated| NoUnit {
        side,
        unit: id,
        eliminated,
        yours: roster(st, side),
    };
    match st.find(side, id) {
        None => Err(none(false)),
        Some(n) if st.units[n].at.is_none() => Err(none(true)),
        Some(n) => Ok(n),
    }
}

/// The checks of a deployment: every piece once, on its own territory, one
/// combat unit on each own city and fortress hex, stacking.
///
/// Long (about 110 lines): every rule of a deployment checked on one trial
/// position, each adding to one list of problems so that all are told at once.
pub fn check_deployment(rules: &Ruleset, st: &State, side: Side, orders: &[Order]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut trial = st.clone();
    let mut placed: BTreeSet<usize> = BTreeSet::new();
    // The placements that are good alone: (line, unit, hex).
    let mut good: Vec<(usize, UnitId, Ix)> = Vec::new();
    // Hexes some line places a piece on, refused or not.
    let mut aimed: BTreeSet<Ix> = BTreeSet::new();
    for (k, o) in orders.iter().enumerate() {
        let Order::Place { unit, at } = o else {
            problems.push(Problem::at(k, Refused::NotAPlacement));
            continue;
        };
        aimed.extend(rules.map.ix(*at));
        let Some(n) = st.find(side, *unit) else {
            problems.push(Problem::at(k, Refused::NoSuchUnit { side, unit: *unit }));
            continue;
        };
        if !placed.insert(n) {
            problems.push(Problem::at(k, Refused::PlacedTwice { unit: *unit }));
            continue;
        }
        let Some(i) = rules.map.ix(*at) else {
            problems.push(Problem::at(k, off_map(rules, *at)));
            continue;
        };
        let c = rules.map.cell(i);
        if c.owner != Some(side) {
            problems.push(Problem::at(
                k,
                Refused::NotTerritory {
                    at: *at,
                    side,
                    owner: c.owner,
                },
            ));
            continue;
        }
        if rules.at(i).cost == 0 {
            problems.push(Problem::at(
                k,
                Refused::Terrain {
                    at: *at,
                    terrain: c.terrain,
                },
            ));
            continue;
        }
        trial.units[n].at = Some(*at);
        good.push((k, *unit, i));
    }
    let units: Vec<UnitId> = st
        .units
        .iter()
        .enumerate()
        .filter(|(n, u)| u.side == side && !placed.contains(n))
        .map(|(_, u)| u.id)
        .collect();
    if !units.is_empty() {
        problems.push(Problem::whole(Refused::NotPlaced { units }));
    }
    // Stacking and the strongpoints are checked on the placements that are
    // good alone, beside the problems above, so one answer tells them all.
    let board = trial.board(rules);
    // Stacking: a second piece on a hex.
    let mut seen: Vec<Vec<(usize, UnitId)>> = vec![Vec::new(); rules.map.cells.len()];
    for &(k, unit, i) in &good {
        seen[i as usize].push((k, unit));
    }
    for (i, ks) in seen.iter().enumerate() {
        if ks.len() < 2 {
            continue;
        }
        let dukes = ks.iter().filter(|(_, u)| u.is_duke()).count();
        let ok = ks.len() == 2 && dukes == 1 && rules.at(i as Ix).stack;
        if !ok {
            problems.push(Problem::at(
                ks[1].0,
                Refused::Stacked {
                    at: rules.map.label(i as Ix),
                    first: ks[0].1,
                },
            ));
        }
    }
    // A strongpoint only a refused line aimed at is told at that line.
    for (_, _, i) in &good {
        aimed.remove(i);
    }
    let empty: Vec<Label> = rules
        .strongpoints(side)
        .into_iter()
        .filter(|&i| board.occ[i as usize].unit.is_none() && !aimed.contains(&i))
        .map(|i| rules.map.label(i))
        .collect();
    if !empty.is_empty() {
        problems.push(Problem::whole(Refused::Strongpoints {
            count: rules.strongpoints(side).len(),
            empty,
        }));
    }
    problems
}

/// The moves order `k` builds on: where it is an attack, the moves of the
/// units it attacks with (the moves come first, wherever they are written).
pub fn builds_on(orders: &[Order], k: usize) -> Vec<usize> {
    let Some(Order::Attack { with, advance, .. }) = orders.get(k) else {
        return Vec::new();
    };
    orders
        .iter()
        .enumerate()
        .filter(|(_, o)| match o {
            Order::Move { unit, .. } => with.contains(unit) || advance.as_ref() == Some(unit),
            _ => false,
        })
        .map(|(j, _)| j)
        .collect()
}

/// A phase's orders checked and made concrete: the moves in order (unit,
/// route, whether herald found the path), then the attacks (target, units,
/// the advancing one).
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub moves: Vec<(usize, movement::Route, bool)>,
    pub attacks: Vec<(Ix, Vec<usize>, Option<usize>)>,
}

/// Check a phase's orders: the moves in the order written, on the position
/// each leaves, then the attacks on the position after every move.
///
/// Long (about 160 lines): the moves checked in the order written, on the
/// position each leaves, then the attacks on the position after every move;
/// both passes share the trial position and the list of problems.
pub fn plan(rules: &Ruleset, st: &State, side: Side, orders: &[Order]) -> (Plan, Vec<Problem>) {
    let mut problems = Vec::new();
    let mut plan = Plan::default();
    let mut trial = st.clone();
    let mut board = trial.board(rules);
    let enemy_zoc = zoc::zoc(rules, &trial, &board, side.other());
    let mut moved: BTreeSet<usize> = BTreeSet::new();
    for (k, o) in orders.iter().enumerate() {
        let Order::Move { unit, path } = o else {
            if let Order::Place { .. } = o {
                problems.push(Problem::at(k, Refused::DeploymentOver));
            }
            continue;
        };
        let n = match own_unit(&trial, side, *unit) {
            Ok(n) => n,
            Err(e) => {
                problems.push(Problem::at(k, e));
                continue;
            }
        };
        if !moved.insert(n) {
            problems.push(Problem::at(k, Refused::MovesTwice { unit: *unit }));
            continue;
        }
        let mut cells = Vec::new();
        let mut bad = None;
        for l in path {
            match rules.map.ix(*l) {
                Some(i) => cells.push(i),
                None => bad = Some(*l),
            }
        }
        if let Some(l) = bad {
            problems.push(Problem::at(k, off_map(rules, l)));
            continue;
        }
        let start = board.pos[n].unwrap();
        if cells.len() > 1 && cells[0] == start {
            cells.remove(0);
        }
        let found = path.len() == 1;
        let route = if found {
            movement::find(rules, &trial, &board, &enemy_zoc, n, cells[0])
        } else {
            movement::follow(rules, &trial, &board, &enemy_zoc, n, &cells)
        };
        match route {
            Ok(r) => {
                let to = *r.path.last().unwrap();
                trial.units[n].at = Some(rules.map.label(to));
                // The board after the move, without building it again
                // (a phase moves up to 31 pieces): the piece leaves its
                // hex for `to`, in its own slot (Duke or unit).
                let duke = trial.units[n].id.is_duke();
                for (i, here) in [(start, None), (to, Some(n as u8))] {
                    let o = &mut board.occ[i as usize];
                    if duke {
                        o.duke = here;
                    } else {
                        o.unit = here;
                    }
                }
                board.pos[n] = Some(to);
                plan.moves.push((n, r, found));
            }
            Err(why) => {
                let dests = movement::destinations(rules, &trial, &board, &enemy_zoc, n);
                let can = dests
                    .iter()
                    .map(|&(i, c)| (rules.map.label(i), c))
                    .collect();
                let unit = *unit;
                problems.push(Problem::at(k, Refused::Route { why, unit, can }));
            }
        }
    }
    // Attacks, on the position after all the moves.
    let mut used: BTreeSet<usize> = BTreeSet::new();
    let mut targets: BTreeSet<Ix> = BTreeSet::new();
    for (k, o) in orders.iter().enumerate() {
        let Order::Attack {
            target,
            with,
            advance,
        } = o
        else {
            continue;
        };
        let Some(t) = rules.map.ix(*target) else {
            problems.push(Problem::at(k, Refused::TargetOffMap { target: *target }));
            continue;
        };
        if board.side_at(&trial, t) != Some(side.other()) {
            problems.push(Problem::at(
                k,
                Refused::NoEnemy {
                    target: *target,
                    own: board.side_at(&trial, t) == Some(side),
                    reachable: reachable(rules, &trial, side),
                },
            ));
            continue;
        }
        if !targets.insert(t) {
            problems.push(Problem::at(k, Refused::AttackedTwice { target: *target }));
            continue;
        }
        let mut ns = Vec::new();
        let mut fine = true;
        for id in with {
            let n = match own_unit(&trial, side, *id) {
                Ok(n) => n,
                Err(e) => {
                    problems.push(Problem::at(k, e));
                    fine = false;
                    continue;
                }
            };
            if id.is_duke() {
                problems.push(Problem::at(k, Refused::DukeAttacks));
                fine = false;
                continue;
            }
            if ns.contains(&n) || !used.insert(n) {
                problems.push(Problem::at(k, Refused::AttacksTwice { unit: *id }));
                fine = false;
                continue;
            }
            if combat::reach(rules, &trial, &board, n, t).is_none() {
                problems.push(Problem::at(
                    k,
                    Refused::OutOfReach {
                        unit: *id,
                        at: trial.units[n].at.unwrap(),
                        target: *target,
                        others: in_range(rules, &trial, side, t, &used),
                    },
                ));
                fine = false;
                continue;
            }
            ns.push(n);
        }
        let mut adv = None;
        if let Some(a) = advance {
            match ns.iter().copied().find(|&n| trial.units[n].id == *a) {
                Some(n) if combat::reach(rules, &trial, &board, n, t) == Some(false) => {
                    adv = Some(n)
                }
                Some(_) => {
                    problems.push(Problem::at(
                        k,
                        Refused::Bombards {
                            unit: *a,
                            target: *target,
                        },
                    ));
                    fine = false;
                }
                None => {
                    problems.push(Problem::at(k, Refused::NotInAttack { unit: *a }));
                    fine = false;
                }
            }
        }
        if fine {
            plan.attacks.push((t, ns, adv));
        }
    }
    (plan, problems)
}

/// The enemy pieces `side`'s units can reach now, for messages.
pub fn reachable(rules: &Ruleset, st: &State, side: Side) -> Reachable {
    let board = st.board(rules);
    let mut out = Vec::new();
    for (i, o) in board.occ.iter().enumerate() {
        if o.is_empty() || board.side_at(st, i as Ix) != Some(side.other()) {
            continue;
        }
        let by: Vec<UnitId> = st
            .on_map(side)
            .filter(|(n, _)| combat::reach(rules, st, &board, *n, i as Ix).is_some())
            .map(|(_, u)| u.id)
            .collect();
        if !by.is_empty() {
            out.push((rules.map.label(i as Ix), by));
        }
    }
    Reachable(out)
}

/// `side`'s units not yet attacking (`used`) that reach hex `t`.
fn in_range(rules: &Ruleset, st: &State, side: Side, t: Ix, used: &BTreeSet<usize>) -> Vec<UnitId> {
    let board = st.board(rules);
    st.on_map(side)
        .filter(|(n, _)| !used.contains(n) && combat::reach(rules, st, &board, *n, t).is_some())
        .map(|(_, u)| u.id)
        .collect()
}

/// A hex off the map, with the map's bounds.
fn off_map(rules: &Ruleset, at: Label) -> Refused {
    Refused::OffMap {
        at,
        columns: rules.map.columns,
        rows: rules.map.rows,
    }
}
