//! Orders: reading an order line, writing it back, and checking one
//! player's orders as a whole (one order per living force, no two moves
//! into one hex, affordable in Shih).

use super::board::{label, parse_hex};
pub use super::ruleset::Kind;
use super::ruleset::Ruleset;
use super::state::{Phase, State};
use crate::board::{Dir, Hex};
use crate::games::{Problem, RulesError};
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

/// Why an Unfought Battle order line does not read, or is not one for
/// this phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderError {
    /// A first word that names none of the player's forces (f1 to f`forces`).
    NotAForce {
        word: String,
        forces: usize,
        form: &'static str,
    },
    /// `power` without one of the ruleset's powers.
    Power { force: u8, powers: Vec<u8> },
    /// `move` without one direction.
    Move { force: u8 },
    /// `scout` without a hex.
    Scout { force: u8 },
    /// `fortify`, `ambush` or `hold` with words after it.
    Extra { force: u8, verb: String },
    /// A force and nothing after it.
    NoVerb { word: String, form: &'static str },
    /// A second word that is no order.
    NotAVerb { word: String, form: &'static str },
    /// An action in the deployment phase.
    Deploying,
    /// A deployment after it.
    Deployed,
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderError::NotAForce { word, forces, form } => write!(
                f,
                "`{word}` is not one of your forces (f1 to f{forces}); {form}"
            ),
            OrderError::Power { force, powers } => {
                let powers: Vec<String> = powers.iter().map(|p| p.to_string()).collect();
                write!(
                    f,
                    "say `f{force} power <p>` with p one of {}, e.g. `f{force} power 3`",
                    powers.join(", ")
                )
            }
            OrderError::Move { force } => write!(
                f,
                "say `f{force} move <direction>` with a direction N, NE, SE, S, SW or NW"
            ),
            OrderError::Scout { force } => write!(
                f,
                "say `f{force} scout <q,r>` naming the hex of the enemy force to scout, e.g. `f{force} scout 3,4`"
            ),
            OrderError::Extra { force, verb } => {
                write!(f, "`f{force} {verb}` takes nothing after it")
            }
            OrderError::NoVerb { word, form } => {
                write!(f, "`{word}` needs an order after it; {form}")
            }
            OrderError::NotAVerb { word, form } => write!(f, "`{word}` is not an order; {form}"),
            OrderError::Deploying => write!(
                f,
                "this is the deployment phase: no force acts yet; {DEPLOY_FORM}"
            ),
            OrderError::Deployed => write!(
                f,
                "deployment is over (powers are fixed for the game); {ORDER_FORM}"
            ),
        }
    }
}

crate::games::rules_error::rules_detail!(OrderError, |self| match self {
    OrderError::NotAForce { .. } => K::UnknownPiece,
    OrderError::Deploying | OrderError::Deployed => K::WrongPhase,
    _ => K::Malformed,
});

/// Read one order line. The phase decides which forms are expected.
///
/// Long (about 95 lines): one order line read: the phase's forms, the force,
/// the verb and its words; one branch a verb.
pub fn parse(rules: &Ruleset, st: &State, line: &str) -> Result<Order, RulesError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let n = rules.forces();
    let form = match st.phase {
        Phase::Deploy => DEPLOY_FORM,
        _ => ORDER_FORM,
    };
    if words.is_empty() {
        return Err(RulesError::EmptyOrder { accepted: form });
    }
    if words.len() == 1 && words[0].eq_ignore_ascii_case("concede") {
        return Ok(Order::Concede);
    }
    let fw = words[0].to_ascii_lowercase();
    let force = fw
        .strip_prefix('f')
        .and_then(|d| d.parse::<u8>().ok())
        .filter(|&d| d >= 1 && d as usize <= n)
        .ok_or_else(|| OrderError::NotAForce {
            word: words[0].to_string(),
            forces: n,
            form,
        })?;
    let verb = words
        .get(1)
        .map(|w| w.to_ascii_lowercase())
        .unwrap_or_default();
    let rest = &words[2.min(words.len())..];
    let order = match verb.as_str() {
        // A number that is no power reads (the check refuses it), so the
        // force counts as given one and is not told again as without.
        "power" => {
            let p = rest
                .first()
                .and_then(|w| w.parse::<u8>().ok())
                .filter(|_| rest.len() == 1)
                .ok_or_else(|| OrderError::Power {
                    force,
                    powers: rules.forces.powers.clone(),
                })?;
            Order::Deploy { force, power: p }
        }
        "move" => {
            let d = rest
                .first()
                .and_then(|w| Dir::parse(w))
                .filter(|_| rest.len() == 1)
                .ok_or(OrderError::Move { force })?;
            Order::Act {
                force,
                act: Act::Move(d),
            }
        }
        "scout" => {
            let h = parse_hex(&rest.join(" ")).ok_or(OrderError::Scout { force })?;
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
        "fortify" | "ambush" | "hold" => return Err(OrderError::Extra { force, verb }.into()),
        "" => {
            return Err(OrderError::NoVerb {
                word: words[0].to_string(),
                form,
            }
            .into())
        }
        _ => {
            return Err(OrderError::NotAVerb {
                word: words[1].to_string(),
                form,
            }
            .into())
        }
    };
    match (st.phase, order) {
        (Phase::Deploy, Order::Act { .. }) => Err(OrderError::Deploying.into()),
        (Phase::Orders, Order::Deploy { .. }) => Err(OrderError::Deployed.into()),
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

/// Why The Unfought Battle refuses a player's orders taken together (a line
/// that does not read is an [`OrderError`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// A second power for a force (`given`: the power the first gave).
    PowerTwice { force: u8, given: u8 },
    /// A power given to two forces (`to`: the first).
    PowerGiven { power: u8, to: u8 },
    /// `concede` in the deployment.
    NothingToConcede,
    /// An action in the deployment.
    DeployForm,
    /// A deployment order after it.
    OrderForm,
    /// Forces without a power, and the powers not given.
    Unpowered { forces: Vec<u8>, powers: Vec<u8> },
    /// `concede` among other orders.
    ConcedeAlone,
    /// An order for a fallen force; the living ones.
    Fallen { force: u8, living: Vec<u8> },
    /// A second order for a force (`order`: the first).
    Twice { force: u8, order: Order },
    /// A move off the board or into a Scorched hex, and where the force can
    /// move instead.
    CannotMove {
        force: u8,
        at: Hex,
        dir: Dir,
        to: Hex,
        scorched: bool,
        can: Vec<(Dir, Hex)>,
    },
    /// Two forces moving into one hex.
    Collide { force: u8, other: u8, to: Hex },
    /// A scout of a hex the force cannot scout, and the hexes it can.
    CannotScout {
        force: u8,
        at: Hex,
        target: Hex,
        range: i32,
        targets: Vec<Hex>,
    },
    /// Orders costing more Shih than the side has: the total, each costly
    /// order with its cost, the Shih in hand.
    TooDear {
        cost: u32,
        costly: Vec<(Order, u32)>,
        shih: u32,
    },
}

fn hexes(v: &[Hex]) -> String {
    v.iter().map(|h| label(*h)).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let forces = |v: &[u8]| {
            v.iter()
                .map(|x| format!("f{x}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Refused::PowerTwice { force, given } => write!(
                f,
                "f{force} already has a power (`f{force} power {given}` above); one power per force"
            ),
            Refused::PowerGiven { power, to } => write!(
                f,
                "power {power} is already given to f{to}; each power goes to exactly one force"
            ),
            Refused::NothingToConcede => f.write_str(
                "there is nothing to concede before the battle: deploy your forces",
            ),
            Refused::DeployForm => f.write_str(DEPLOY_FORM),
            Refused::OrderForm => f.write_str(ORDER_FORM),
            Refused::Unpowered { forces: v, powers } => write!(
                f,
                "every force needs a power: {} still without one; powers not yet given: {}",
                forces(v),
                powers.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
            ),
            Refused::ConcedeAlone => {
                f.write_str("`concede` stands alone: send it as your only order line")
            }
            Refused::Fallen { force, living } => write!(
                f,
                "f{force} has fallen and takes no orders; your living forces: {}",
                forces(living)
            ),
            Refused::Twice { force, order } => write!(
                f,
                "f{force} already has an order (`{order}`); one order per force"
            ),
            Refused::CannotMove { .. } => self.cannot_move(f),
            Refused::Collide { force, other, to } => write!(
                f,
                "f{force} and f{other} both move into {}; two of your forces may not end in one hex",
                label(*to)
            ),
            Refused::CannotScout { .. } => self.cannot_scout(f),
            Refused::TooDear { cost, costly, shih } => {
                let costly: Vec<String> =
                    costly.iter().map(|(o, c)| format!("`{o}` {c}")).collect();
                write!(
                    f,
                    "these orders cost {cost} Shih ({}) but you have {shih} Shih; drop or change some (moving and holding are free)",
                    costly.join(", ")
                )
            }
        }
    }
}

impl Refused {
    fn cannot_move(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Refused::CannotMove {
            force,
            at,
            dir,
            to,
            scorched,
            can,
        } = self
        else {
            return Ok(());
        };
        let why = if *scorched {
            "Scorched"
        } else {
            "off the board"
        };
        write!(
            f,
            "f{force} on {} cannot move {dir}: {} is {why}; it can move ",
            label(*at),
            label(*to)
        )?;
        if can.is_empty() {
            return f.write_str("nowhere");
        }
        let dirs: Vec<String> = can
            .iter()
            .map(|(d, h)| format!("{d} (to {})", label(*h)))
            .collect();
        f.write_str(&dirs.join(", "))
    }

    fn cannot_scout(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Refused::CannotScout {
            force,
            at,
            target,
            range,
            targets,
        } = self
        else {
            return Ok(());
        };
        write!(
            f,
            "f{force} on {} cannot scout {}: a scout names the hex of an enemy force it can see within {range} hexes; ",
            label(*at),
            label(*target)
        )?;
        if targets.is_empty() {
            f.write_str("no enemy force is in its range now")
        } else {
            write!(f, "it can scout {}", hexes(targets))
        }
    }
}

crate::games::rules_error::rules_detail!(Refused, |self| match self {
    Refused::NothingToConcede | Refused::DeployForm | Refused::OrderForm => K::WrongPhase,
    Refused::Fallen { .. } => K::UnknownPiece,
    _ => K::Illegal,
});

/// Everything wrong with `seat`'s orders taken together.
pub fn check(rules: &Ruleset, st: &State, seat: usize, orders: &[Order]) -> Vec<Problem> {
    let mut p = Vec::new();
    match st.phase {
        Phase::Over => return vec![Problem::whole(RulesError::GameOver)],
        Phase::Deploy => check_deploy(rules, orders, &mut p),
        Phase::Orders => check_orders(rules, st, seat, orders, &mut p),
    }
    p
}

fn check_deploy(rules: &Ruleset, orders: &[Order], p: &mut Vec<Problem>) {
    let n = rules.forces();
    let mut by_force: Vec<Option<(usize, u8)>> = vec![None; n];
    let mut by_power: Vec<(u8, usize)> = Vec::new();
    // Forces some line gives a power to, refused or not: a refused line
    // is told at its line, not again as a force without a power.
    let mut named: Vec<u8> = Vec::new();
    for (i, o) in orders.iter().enumerate() {
        match *o {
            Order::Deploy { force, power } => {
                named.push(force);
                if !rules.forces.powers.contains(&power) {
                    let powers = rules.forces.powers.clone();
                    p.push(Problem::at(i, OrderError::Power { force, powers }));
                    continue;
                }
                let slot = &mut by_force[force as usize - 1];
                if let Some((_, given)) = slot {
                    let given = *given;
                    p.push(Problem::at(i, Refused::PowerTwice { force, given }));
                    continue;
                }
                if let Some((_, j)) = by_power.iter().find(|(q, _)| *q == power) {
                    let to = match orders[*j] {
                        Order::Deploy { force, .. } => force,
                        _ => 0,
                    };
                    p.push(Problem::at(i, Refused::PowerGiven { power, to }));
                    continue;
                }
                *slot = Some((i, power));
                by_power.push((power, i));
            }
            Order::Concede => p.push(Problem::at(i, Refused::NothingToConcede)),
            Order::Act { .. } => p.push(Problem::at(i, Refused::DeployForm)),
        }
    }
    {
        let forces: Vec<u8> = (1..=n as u8)
            .filter(|&f| by_force[f as usize - 1].is_none() && !named.contains(&f))
            .collect();
        let powers: Vec<u8> = rules
            .forces
            .powers
            .iter()
            .copied()
            .filter(|q| !by_power.iter().any(|(x, _)| x == q))
            .collect();
        if !forces.is_empty() {
            p.push(Problem::whole(Refused::Unpowered { forces, powers }));
        }
    }
}

/// Long (about 85 lines): one pass over the orders, one check a kind of order,
/// sharing the forces given orders and the cost so far, so every problem is
/// told at once.
fn check_orders(rules: &Ruleset, st: &State, seat: usize, orders: &[Order], p: &mut Vec<Problem>) {
    let side = &st.sides[seat];
    if let Some(i) = orders.iter().position(|o| *o == Order::Concede) {
        if orders.len() > 1 {
            p.push(Problem::at(i, Refused::ConcedeAlone));
        }
        return;
    }
    let mut given: Vec<(u8, usize)> = Vec::new();
    let mut moves: Vec<(Hex, u8, usize)> = Vec::new();
    let mut cost = 0;
    let mut costly = Vec::new();
    for (i, o) in orders.iter().enumerate() {
        let Order::Act { force, act } = *o else {
            p.push(Problem::at(i, Refused::OrderForm));
            continue;
        };
        let f = side.forces[force as usize - 1];
        if !f.alive {
            let living = side.living().map(|f| f.id).collect();
            p.push(Problem::at(i, Refused::Fallen { force, living }));
            continue;
        }
        if let Some((_, j)) = given.iter().find(|(g, _)| *g == force) {
            let order = orders[*j];
            p.push(Problem::at(i, Refused::Twice { force, order }));
            continue;
        }
        given.push((force, i));
        let legal = options(rules, st, seat, force);
        match act {
            Act::Move(dir) => {
                let to = f.at.step(dir);
                if !st.board.playable(to) {
                    p.push(Problem::at(
                        i,
                        Refused::CannotMove {
                            force,
                            at: f.at,
                            dir,
                            to,
                            scorched: st.board.on_board(to),
                            can: st.board.moves(f.at).collect(),
                        },
                    ));
                    continue;
                }
                if let Some((_, other, _)) = moves.iter().find(|(h, _, _)| *h == to) {
                    let other = *other;
                    p.push(Problem::at(i, Refused::Collide { force, other, to }));
                    continue;
                }
                moves.push((to, force, i));
            }
            Act::Scout(target) if !legal.contains(&act) => {
                p.push(Problem::at(
                    i,
                    Refused::CannotScout {
                        force,
                        at: f.at,
                        target,
                        range: rules.orders.scout_range,
                        targets: scout_targets(rules, st, seat, f.at),
                    },
                ));
                continue;
            }
            _ => {}
        }
        let c = rules.cost(act.kind());
        if c > 0 {
            cost += c;
            costly.push((*o, c));
        }
    }
    // The cost of the orders that are good as they stand, checked beside
    // the problems of the others (which are told at their lines).
    if cost > side.shih {
        p.push(Problem::whole(Refused::TooDear {
            cost,
            costly,
            shih: side.shih,
        }));
    }
}
