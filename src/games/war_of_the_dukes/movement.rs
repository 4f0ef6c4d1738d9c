//! Movement: costs in half points, the cheapest legal path (Dijkstra over
//! the map, ties to the lower hex), paths given in full, zones of control,
//! moving through friends and where a move may end.

use super::map::{Ix, Label, Terrain};
use super::ruleset::Ruleset;
use super::state::{Board, State};
use super::units::UnitId;
use super::zoc;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

pub const UNREACHED: u32 = u32::MAX;

/// Half movement points written as a player reads them: `3`, `2½`, `½`.
pub fn mp(half: u32) -> String {
    match (half / 2, half % 2) {
        (0, 1) => "½".to_string(),
        (w, 0) => w.to_string(),
        (w, _) => format!("{w}½"),
    }
}

/// The cheapest cost to every hex a piece can reach from where it stands,
/// within `budget` half points, and the hex each is reached from.
pub struct Reach {
    pub start: Ix,
    pub cost: Vec<u32>,
    pub prev: Vec<Ix>,
}

impl Reach {
    pub fn path(&self, to: Ix) -> Vec<Ix> {
        let mut p = vec![to];
        let mut c = to;
        while c != self.start {
            c = self.prev[c as usize];
            p.push(c);
        }
        p.pop();
        p.reverse();
        p
    }
}

/// Dijkstra from unit `n`'s hex. `enemy_zoc` is the enemy's zone of
/// control: a piece that enters it stops; one that starts in it may leave
/// only for a hex outside every enemy zone. Enemy-held hexes are closed;
/// friendly ones are passed through.
pub fn reach(
    rules: &Ruleset,
    st: &State,
    board: &Board,
    enemy_zoc: &[bool],
    n: usize,
    budget: u32,
) -> Reach {
    reach_until(rules, st, board, enemy_zoc, n, budget, |_, _| false)
}

/// [`reach`], told each hex as its cost becomes final (cheapest first,
/// the start included), stopping as soon as `stop` says so: then only the
/// hexes told so far have their final cost and path. A bot looking for
/// the nearest hex of some kind (the search's expected reply, in
/// `playout`) need not cost the whole of a unit's range.
#[allow(clippy::too_many_arguments)]
pub fn reach_until(
    rules: &Ruleset,
    st: &State,
    board: &Board,
    enemy_zoc: &[bool],
    n: usize,
    budget: u32,
    mut stop: impl FnMut(Ix, u32) -> bool,
) -> Reach {
    let start = board.pos[n].expect("a piece on the map");
    let side = st.units[n].side;
    let cells = rules.map.cells.len();
    let mut cost = vec![UNREACHED; cells];
    let mut prev = vec![start; cells];
    let mut heap = BinaryHeap::new();
    cost[start as usize] = 0;
    heap.push(Reverse((0u32, start)));
    while let Some(Reverse((k, c))) = heap.pop() {
        if k > cost[c as usize] {
            continue;
        }
        if stop(c, k) {
            break;
        }
        if c != start && enemy_zoc[c as usize] {
            continue;
        }
        for (nb, s) in rules.map.neighbours(c) {
            let Some(step) = rules.step_cost(c, s, nb) else {
                continue;
            };
            if board.side_at(st, nb).is_some_and(|o| o != side) {
                continue;
            }
            if c == start && enemy_zoc[start as usize] && enemy_zoc[nb as usize] {
                continue;
            }
            let nk = k + step;
            if nk <= budget && nk < cost[nb as usize] {
                cost[nb as usize] = nk;
                prev[nb as usize] = c;
                heap.push(Reverse((nk, nb)));
            }
        }
    }
    Reach { start, cost, prev }
}

/// Why unit `n` may not end its move on `to`, if it may not.
pub fn end_problem(rules: &Ruleset, st: &State, board: &Board, n: usize, to: Ix) -> Option<Ending> {
    let u = &st.units[n];
    let o = board.occ[to as usize];
    if o.is_empty() {
        return None;
    }
    let stack = rules.at(to).stack;
    let friendly = |p: u8| st.units[p as usize].side == u.side;
    let ok = if u.id.is_duke() {
        o.duke.is_none() && o.unit.is_some_and(friendly) && stack
    } else {
        o.unit.is_none() && o.duke.is_some_and(friendly) && stack
    };
    if ok {
        return None;
    }
    let at = rules.map.label(to);
    let who: Vec<UnitId> = o.pieces().map(|p| st.units[p as usize].id).collect();
    Some(if o.pieces().any(|p| !friendly(p)) {
        Ending::Enemy { at, who }
    } else if u.id.is_duke() || o.duke.is_some() {
        Ending::Duke { at, who }
    } else {
        Ending::Friend { at, who }
    })
}

/// Why a move may not end on a hex: the pieces (by name) already there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Enemy {
        at: Label,
        who: Vec<UnitId>,
    },
    /// A Duke and a unit where they may not share (or two Dukes).
    Duke {
        at: Label,
        who: Vec<UnitId>,
    },
    Friend {
        at: Label,
        who: Vec<UnitId>,
    },
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = |who: &[UnitId]| {
            who.iter()
                .map(|u| u.to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        };
        match self {
            Ending::Enemy { at, who } => write!(f, "{at} holds the enemy's {}", names(who)),
            Ending::Duke { at, who } => write!(
                f,
                "{at} holds your {}: the Duke shares a hex with one friendly unit only in a city or fortress",
                names(who)
            ),
            Ending::Friend { at, who } => write!(
                f,
                "{at} holds your {}: a move may pass through friendly units but not end on one",
                names(who)
            ),
        }
    }
}

/// Why a move has no route: the facts of the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoRoute {
    AlreadyThere {
        unit: UnitId,
        at: Label,
    },
    End(Ending),
    /// The cheapest legal path costs more (half-points) than the unit has.
    TooDear {
        unit: UnitId,
        budget: u32,
        to: Label,
        cost: u32,
    },
    /// A lake (`entries`: the hexes whose bridges lead into it).
    Impassable {
        at: Label,
        terrain: Terrain,
        entries: Vec<Label>,
    },
    NoPath {
        unit: UnitId,
        to: Label,
    },
    NotNeighbours {
        from: Label,
        to: Label,
    },
    /// Leaving a lake other than across its bridges (`exits`).
    LeaveLake {
        at: Label,
        terrain: Terrain,
        exits: Vec<Label>,
    },
    River {
        from: Label,
        to: Label,
    },
    Enemy {
        at: Label,
    },
    /// Moving on out of an enemy zone of control (`by`: who exerts it).
    Zoc {
        at: Label,
        by: Vec<String>,
    },
    ZocToZoc {
        unit: UnitId,
        to: Label,
        by: Vec<String>,
    },
    /// The path's cost (half-points) passes the budget at step `step`.
    Costs {
        cost: u32,
        at: Label,
        step: usize,
        unit: UnitId,
        budget: u32,
    },
    Circle {
        unit: UnitId,
    },
}

impl fmt::Display for NoRoute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let labels = |v: &[Label]| {
            v.iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(" or ")
        };
        match self {
            NoRoute::AlreadyThere { unit, at } => write!(f, "{unit} already stands on {at}"),
            NoRoute::End(e) => write!(f, "{e}"),
            NoRoute::TooDear {
                unit,
                budget,
                to,
                cost,
            } => write!(
                f,
                "{unit} has {} MP and the cheapest legal path to {to} costs {} MP",
                mp(*budget),
                mp(*cost)
            ),
            NoRoute::Impassable {
                at,
                terrain,
                entries,
            } => {
                let t = terrain.name();
                if entries.is_empty() {
                    write!(f, "{at} is a {t} (impassable)")
                } else {
                    write!(
                        f,
                        "{at} is a {t}, entered only across its bridge from {}",
                        labels(entries)
                    )
                }
            }
            NoRoute::NoPath { unit, to } => write!(
                f,
                "{unit} has no legal path to {to} (rivers without bridges, lakes, enemy pieces and zones of control are in the way)"
            ),
            NoRoute::NotNeighbours { from, to } => {
                write!(f, "{from} and {to} are not neighbours")
            }
            NoRoute::LeaveLake { at, terrain, exits } => write!(
                f,
                "{at} is a {}: a piece leaves it only across a bridge, to {}",
                terrain.name(),
                labels(exits)
            ),
            NoRoute::River { from, to } => {
                write!(f, "a river without a bridge runs between {from} and {to}")
            }
            NoRoute::Enemy { at } => write!(f, "{at} holds an enemy piece; no move enters it"),
            NoRoute::Zoc { at, by } => write!(
                f,
                "{at} is in the zone of control of the enemy's {}: the move must stop there",
                by.join(", ")
            ),
            NoRoute::ZocToZoc { unit, to, by } => write!(
                f,
                "{unit} starts in an enemy zone of control and {to} is in one too (of {}): a piece leaves one zone of control before it enters another",
                by.join(", ")
            ),
            NoRoute::Costs {
                cost,
                at,
                step,
                unit,
                budget,
            } => write!(
                f,
                "the path costs {} MP by {at} (step {step}), more than {unit}'s {} MP",
                mp(*cost),
                mp(*budget)
            ),
            NoRoute::Circle { unit } => write!(f, "{unit} would end where it started"),
        }
    }
}

/// Every hex unit `n` may move to now, with its cost, in label order.
pub fn destinations(
    rules: &Ruleset,
    st: &State,
    board: &Board,
    enemy_zoc: &[bool],
    n: usize,
) -> Vec<(Ix, u32)> {
    let budget = rules.mp(st.units[n].id.kind);
    let r = reach(rules, st, board, enemy_zoc, n, budget);
    let mut out: Vec<(Ix, u32)> = (0..rules.map.cells.len() as Ix)
        .filter(|&i| i != r.start && r.cost[i as usize] != UNREACHED)
        .filter(|&i| end_problem(rules, st, board, n, i).is_none())
        .map(|i| (i, r.cost[i as usize]))
        .collect();
    out.sort_by_key(|&(i, _)| rules.map.label(i));
    out
}

/// A checked move: the hexes entered and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub path: Vec<Ix>,
    pub cost: u32,
}

/// Unit `n` moving to `dest` by the cheapest legal path.
pub fn find(
    rules: &Ruleset,
    st: &State,
    board: &Board,
    enemy_zoc: &[bool],
    n: usize,
    dest: Ix,
) -> Result<Route, NoRoute> {
    let u = &st.units[n];
    let budget = rules.mp(u.id.kind);
    let start = board.pos[n].expect("on the map");
    if dest == start {
        return Err(NoRoute::AlreadyThere {
            unit: u.id,
            at: rules.map.label(dest),
        });
    }
    if let Some(p) = end_problem(rules, st, board, n, dest) {
        return Err(NoRoute::End(p));
    }
    let r = reach(rules, st, board, enemy_zoc, n, budget);
    if r.cost[dest as usize] != UNREACHED {
        return Ok(Route {
            path: r.path(dest),
            cost: r.cost[dest as usize],
        });
    }
    let unlimited = reach(rules, st, board, enemy_zoc, n, UNREACHED - 64);
    let to = rules.map.label(dest);
    Err(if unlimited.cost[dest as usize] != UNREACHED {
        NoRoute::TooDear {
            unit: u.id,
            budget,
            to,
            cost: unlimited.cost[dest as usize],
        }
    } else if rules.at(dest).cost == 0 {
        impassable(rules, dest)
    } else {
        NoRoute::NoPath { unit: u.id, to }
    })
}

/// Why a piece cannot enter impassable hex `i`: a lake, or a lake that
/// only its bridges lead into.
fn impassable(rules: &Ruleset, i: Ix) -> NoRoute {
    NoRoute::Impassable {
        at: rules.map.label(i),
        terrain: rules.map.cell(i).terrain,
        entries: rules
            .entries(i)
            .iter()
            .map(|&e| rules.map.label(e))
            .collect(),
    }
}

/// Unit `n` moving along `path` exactly (the hexes entered, in order).
///
/// Long (about 90 lines): one path walked hex by hex, one check a rule of
/// movement, sharing the movement points spent so far.
pub fn follow(
    rules: &Ruleset,
    st: &State,
    board: &Board,
    enemy_zoc: &[bool],
    n: usize,
    path: &[Ix],
) -> Result<Route, NoRoute> {
    let u = &st.units[n];
    let budget = rules.mp(u.id.kind);
    let start = board.pos[n].expect("on the map");
    let mut cost = 0;
    let mut at = start;
    let lab = |i: Ix| rules.map.label(i);
    for (k, &next) in path.iter().enumerate() {
        let side = rules
            .map
            .side_between(at, next)
            .ok_or(NoRoute::NotNeighbours {
                from: lab(at),
                to: lab(next),
            })?;
        let step = rules.step_cost(at, side, next).ok_or_else(|| {
            if rules.at(next).cost == 0 {
                impassable(rules, next)
            } else if rules.at(at).cost == 0 {
                NoRoute::LeaveLake {
                    at: lab(at),
                    terrain: rules.map.cell(at).terrain,
                    exits: rules.entries(at).iter().map(|&i| lab(i)).collect(),
                }
            } else {
                NoRoute::River {
                    from: lab(at),
                    to: lab(next),
                }
            }
        })?;
        if board.side_at(st, next).is_some_and(|o| o != u.side) {
            return Err(NoRoute::Enemy { at: lab(next) });
        }
        if at != start && enemy_zoc[at as usize] {
            return Err(NoRoute::Zoc {
                at: lab(at),
                by: zoc::exerted_by(rules, st, board, u.side.other(), at),
            });
        }
        if at == start && enemy_zoc[at as usize] && enemy_zoc[next as usize] {
            return Err(NoRoute::ZocToZoc {
                unit: u.id,
                to: lab(next),
                by: zoc::exerted_by(rules, st, board, u.side.other(), next),
            });
        }
        cost += step;
        if cost > budget {
            return Err(NoRoute::Costs {
                cost,
                at: lab(next),
                step: k + 1,
                unit: u.id,
                budget,
            });
        }
        at = next;
    }
    if at == start {
        return Err(NoRoute::Circle { unit: u.id });
    }
    if let Some(p) = end_problem(rules, st, board, n, at) {
        return Err(NoRoute::End(p));
    }
    Ok(Route {
        path: path.to_vec(),
        cost,
    })
}

/// The labels of a path, for events.
pub fn labels(rules: &Ruleset, path: &[Ix]) -> Vec<Label> {
    path.iter().map(|&i| rules.map.label(i)).collect()
}
