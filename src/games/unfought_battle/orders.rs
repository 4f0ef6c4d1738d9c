//! Orders: reading an order line, writing it back, and checking one
//! player's orders as a whole (one order per living force, no two moves
//! into one hex, affordable in Shih).

use super::board::{label, parse_hex};
pub use super::ruleset::Kind;
use super::ruleset::Ruleset;
use super::state::{Phase, State};
use crate::board::{Dir, Hex};
use crate::games::Problem;
use std::fmt;

/// What one force does this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Act {
    Hold,
    Move(Dir),
    Fortify,
    Ambush,
    /// Learn the power of the enemy force standing on this hex.
    Scout(Hex),
}

impl Act {
    pub fn kind(self) -> Kind {
        match self {
            Act::Hold => Kind::Hold,
            Act::Move(_) => Kind::Move,
            Act::Fortify => Kind::Fortify,
            Act::Ambush => Kind::Ambush,
            Act::Scout(_) => Kind::Scout,
        }
    }
}

/// One line of an order file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Order {
    /// Deployment: force `force` gets power `power`.
    Deploy {
        force: u8,
        power: u8,
    },
    Act {
        force: u8,
        act: Act,
    },
    Concede,
}

impl fmt::Display for Act {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Act::Hold => f.write_str("hold"),
            Act::Move(d) => write!(f, "move {d}"),
            Act::Fortify => f.write_str("fortify"),
            Act::Ambush => f.write_str("ambush"),
            Act::Scout(h) => write!(f, "scout {}", label(*h)),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Deploy { force, power } => write!(f, "f{force} power {power}"),
            Order::Act { force, act } => write!(f, "f{force} {act}"),
            Order::Concede => f.write_str("concede"),
        }
    }
}

const DEPLOY_FORM: &str =
    "deployment orders are `f<force> power <p>`, one line per force, e.g. `f1 power 3`";
const ORDER_FORM: &str = "orders are `f<force> move <N|NE|SE|S|SW|NW>`, `f<force> fortify`, `f<force> ambush`, `f<force> scout <q,r>`, `f<force> hold`, or `concede` alone";

/// Read one order line. The phase decides which forms are expected.
///
/// Long (about 95 lines): one order line read: the phase's forms, the force,
/// the verb and its words; one branch a verb.
pub fn parse(rules: &Ruleset, st: &State, line: &str) -> Result<Order, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let n = rules.forces();
    let form = match st.phase {
        Phase::Deploy => DEPLOY_FORM,
        _ => ORDER_FORM,
    };
    if words.is_empty() {
        return Err(format!("empty order; {form}"));
    }
    if words.len() == 1 && words[0].eq_ignore_ascii_case("concede") {
        return Ok(Order::Concede);
    }
    let fw = words[0].to_ascii_lowercase();
    let force = fw
        .strip_prefix('f')
        .and_then(|d| d.parse::<u8>().ok())
        .filter(|&d| d >= 1 && d as usize <= n)
        .ok_or_else(|| {
            format!(
                "`{}` is not one of your forces (f1 to f{n}); {form}",
                words[0]
            )
        })?;
    let verb = words
        .get(1)
        .map(|w| w.to_ascii_lowercase())
        .unwrap_or_default();
    let rest = &words[2.min(words.len())..];
    let order = match verb.as_str() {
        "power" => {
            let powers = rules
                .forces
                .powers
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            let p = rest
                .first()
                .and_then(|w| w.parse::<u8>().ok())
                .filter(|p| rules.forces.powers.contains(p) && rest.len() == 1)
                .ok_or(format!(
                    "say `f{force} power <p>` with p one of {powers}, e.g. `f{force} power 3`"
                ))?;
            Order::Deploy { force, power: p }
        }
        "move" => {
            let d = rest
                .first()
                .and_then(|w| Dir::parse(w))
                .filter(|_| rest.len() == 1)
                .ok_or(format!(
                    "say `f{force} move <direction>` with a direction N, NE, SE, S, SW or NW"
                ))?;
            Order::Act {
                force,
                act: Act::Move(d),
            }
        }
        "scout" => {
            let h = parse_hex(&rest.join(" ")).ok_or(format!(
                "say `f{force} scout <q,r>` naming the hex of the enemy force to scout, e.g. `f{force} scout 3,4`"
            ))?;
            Order::Act {
                force,
                act: Act::Scout(h),
            }
        }
        "fortify" | "ambush" | "hold" if rest.is_empty() => Order::Act {
            force,
            act: match verb.as_str() {
                "fortify" => Act::Fortify,
                "ambush" => Act::Ambush,
                _ => Act::Hold,
            },
        },
        "fortify" | "ambush" | "hold" => {
            return Err(format!("`f{force} {verb}` takes nothing after it"))
        }
        "" => return Err(format!("`{}` needs an order after it; {form}", words[0])),
        _ => return Err(format!("`{}` is not an order; {form}", words[1])),
    };
    match (st.phase, order) {
        (Phase::Deploy, Order::Act { .. }) => Err(format!(
            "this is the deployment phase: no force acts yet; {DEPLOY_FORM}"
        )),
        (Phase::Orders, Order::Deploy { .. }) => Err(format!(
            "deployment is over (powers are fixed for the game); {ORDER_FORM}"
        )),
        _ => Ok(order),
    }
}

/// The enemy hexes `seat`'s force on `from` could scout now: enemy forces
/// within scout range (so within sight).
pub fn scout_targets(rules: &Ruleset, st: &State, seat: usize, from: Hex) -> Vec<Hex> {
    let mut v: Vec<Hex> = st.sides[1 - seat]
        .living()
        .map(|f| f.at)
        .filter(|h| h.distance(from) <= rules.orders.scout_range.min(rules.sight.range))
        .collect();
    v.sort();
    v
}

/// Every order force `id` of `seat` may be given now (cost aside).
pub fn options(rules: &Ruleset, st: &State, seat: usize, id: u8) -> Vec<Act> {
    let Some(f) = st.sides[seat]
        .forces
        .get(id as usize - 1)
        .filter(|f| f.alive)
    else {
        return Vec::new();
    };
    let mut v = vec![Act::Hold];
    v.extend(st.board.moves(f.at).map(|(d, _)| Act::Move(d)));
    v.push(Act::Fortify);
    v.push(Act::Ambush);
    v.extend(
        scout_targets(rules, st, seat, f.at)
            .into_iter()
            .map(Act::Scout),
    );
    v
}

/// Everything wrong with `seat`'s orders taken together.
pub fn check(rules: &Ruleset, st: &State, seat: usize, orders: &[Order]) -> Vec<Problem> {
    let mut p = Vec::new();
    match st.phase {
        Phase::Over => return vec![Problem::whole("the game is over")],
        Phase::Deploy => check_deploy(rules, orders, &mut p),
        Phase::Orders => check_orders(rules, st, seat, orders, &mut p),
    }
    p
}

fn check_deploy(rules: &Ruleset, orders: &[Order], p: &mut Vec<Problem>) {
    let n = rules.forces();
    let mut by_force: Vec<Option<(usize, u8)>> = vec![None; n];
    let mut by_power: Vec<(u8, usize)> = Vec::new();
    for (i, o) in orders.iter().enumerate() {
        match *o {
            Order::Deploy { force, power } => {
                let slot = &mut by_force[force as usize - 1];
                if let Some((j, _)) = slot {
                    p.push(Problem::at(
                        i,
                        format!("f{force} already has a power (line {} of the orders); one power per force", *j + 1),
                    ));
                    continue;
                }
                if let Some((_, j)) = by_power.iter().find(|(q, _)| *q == power) {
                    p.push(Problem::at(
                        i,
                        format!(
                            "power {power} is already given to f{}; each power goes to exactly one force",
                            match orders[*j] {
                                Order::Deploy { force, .. } => force,
                                _ => 0,
                            }
                        ),
                    ));
                    continue;
                }
                *slot = Some((i, power));
                by_power.push((power, i));
            }
            Order::Concede => p.push(Problem::at(
                i,
                "there is nothing to concede before the battle: deploy your forces",
            )),
            Order::Act { .. } => p.push(Problem::at(i, DEPLOY_FORM)),
        }
    }
    if p.is_empty() {
        let missing_f: Vec<String> = (1..=n)
            .filter(|&f| by_force[f - 1].is_none())
            .map(|f| format!("f{f}"))
            .collect();
        let missing_p: Vec<String> = rules
            .forces
            .powers
            .iter()
            .filter(|q| !by_power.iter().any(|(x, _)| x == *q))
            .map(|q| q.to_string())
            .collect();
        if !missing_f.is_empty() {
            p.push(Problem::whole(format!(
                "every force needs a power: {} still without one; powers not yet given: {}",
                missing_f.join(", "),
                missing_p.join(", ")
            )));
        }
    }
}

/// Long (about 120 lines): one pass over the orders, one check a kind of order,
/// sharing the forces given orders and the cost so far, so every problem is
/// told at once.
fn check_orders(rules: &Ruleset, st: &State, seat: usize, orders: &[Order], p: &mut Vec<Problem>) {
    let side = &st.sides[seat];
    let living: Vec<String> = side.living().map(|f| f.name()).collect();
    if let Some(i) = orders.iter().position(|o| *o == Order::Concede) {
        if orders.len() > 1 {
            p.push(Problem::at(
                i,
                "`concede` stands alone: send it as your only order line",
            ));
        }
        return;
    }
    let mut given: Vec<(u8, usize)> = Vec::new();
    let mut moves: Vec<(Hex, u8, usize)> = Vec::new();
    let mut cost = 0;
    let mut costly = Vec::new();
    for (i, o) in orders.iter().enumerate() {
        let Order::Act { force, act } = *o else {
            p.push(Problem::at(i, ORDER_FORM));
            continue;
        };
        let f = side.forces[force as usize - 1];
        if !f.alive {
            p.push(Problem::at(
                i,
                format!(
                    "f{force} has fallen and takes no orders; your living forces: {}",
                    living.join(", ")
                ),
            ));
            continue;
        }
        if let Some((_, j)) = given.iter().find(|(g, _)| *g == force) {
            p.push(Problem::at(
                i,
                format!(
                    "f{force} already has an order (`{}`); one order per force",
                    orders[*j]
                ),
            ));
            continue;
        }
        given.push((force, i));
        let legal = options(rules, st, seat, force);
        match act {
            Act::Move(d) => {
                let to = f.at.step(d);
                if !st.board.playable(to) {
                    let why = if st.board.on_board(to) {
                        format!("{} is Scorched", label(to))
                    } else {
                        format!("{} is off the board", label(to))
                    };
                    let dirs: Vec<String> = st
                        .board
                        .moves(f.at)
                        .map(|(d, h)| format!("{d} (to {})", label(h)))
                        .collect();
                    p.push(Problem::at(
                        i,
                        format!(
                            "f{force} on {} cannot move {d}: {why}; it can move {}",
                            label(f.at),
                            if dirs.is_empty() {
                                "nowhere".to_string()
                            } else {
                                dirs.join(", ")
                            }
                        ),
                    ));
                    continue;
                }
                if let Some((_, g, _)) = moves.iter().find(|(h, _, _)| *h == to) {
                    p.push(Problem::at(
                        i,
                        format!(
                            "f{force} and f{g} both move into {}; two of your forces may not end in one hex",
                            label(to)
                        ),
                    ));
                    continue;
                }
                moves.push((to, force, i));
            }
            Act::Scout(h) if !legal.contains(&act) => {
                let targets: Vec<String> = scout_targets(rules, st, seat, f.at)
                    .into_iter()
                    .map(label)
                    .collect();
                p.push(Problem::at(
                    i,
                    format!(
                        "f{force} on {} cannot scout {}: a scout names the hex of an enemy force it can see within {} hexes; {}",
                        label(f.at),
                        label(h),
                        rules.orders.scout_range,
                        if targets.is_empty() {
                            "no enemy force is in its range now".to_string()
                        } else {
                            format!("it can scout {}", targets.join(", "))
                        }
                    ),
                ));
                continue;
            }
            _ => {}
        }
        let c = rules.cost(act.kind());
        if c > 0 {
            cost += c;
            costly.push(format!("`{o}` {c}"));
        }
    }
    if p.is_empty() && cost > side.shih {
        p.push(Problem::whole(format!(
            "these orders cost {cost} Shih ({}) but you have {} Shih; drop or change some (moving and holding are free)",
            costly.join(", "),
            side.shih
        )));
    }
}
