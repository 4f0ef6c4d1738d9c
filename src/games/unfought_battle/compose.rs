//! The order composer's data (issue 21).
//!
//! Deployment: tap a force, then its power (the list beside the board);
//! each power goes to exactly one force and every force needs one.
//! Orders: tap a force, then a highlighted hex: a neighbour to move there,
//! or a visible enemy to scout it; or pick hold, fortify or ambush from the
//! list. One order per force, no two forces moving into one hex, the total
//! cost within your Shih; a force with no order holds.
//!
//! Hidden information: the orders are `orders::options`, whose moves
//! depend on the board alone and whose scout targets are the enemy forces
//! in sight (`scout_targets`: within the scout range and the sight range).
//! Nothing here depends on an enemy force out of sight (tested by moving
//! hidden forces: the data does not change).
//!
//! What a move will meet (issue 30): a move into the hex of a force of
//! yours `wants` that force to leave (`left:<hex>`, which each of its
//! moves gives), so the page warns when it will bounce: the force there
//! holds, fortifies, ambushes, scouts, or its own move fails; the failure
//! carries down a chain (step 5 of the resolution, among your own forces;
//! what the enemy does is not known). A move into the hex of an enemy
//! force in sight notes the assault it makes if that force stays: your
//! power against its known power or the highest it may have (the report's
//! threat), with the bonuses it may add; a move next to an enemy force in
//! sight notes the ambush it may spring.

use super::board::label;
use super::orders::{options, Act, Order};
use super::ruleset::Ruleset;
use super::state::{Phase, State};
use super::view::sighted;
use super::UnfoughtBattle;
use crate::games::compose::{Budget, Choice, Mark, Orders, Piece, Required};
use crate::games::{Compose, Seat};

/// Long (about 120 lines): one match, a branch a phase, each listing the
/// choices a tap may make in it.
pub fn compose(rules: &Ruleset, st: &State, seat: usize) -> Orders {
    let mut o = Orders::default();
    let side = &st.sides[seat];
    match st.phase {
        Phase::Over => return o,
        Phase::Deploy => {
            for f in &side.forces {
                let name = f.name();
                o.pieces
                    .push(Piece::on(name.clone(), format!("your {name}"), label(f.at)));
                for &p in &rules.forces.powers {
                    let order = Order::Deploy {
                        force: f.id,
                        power: p,
                    };
                    o.choices.push(
                        Choice::new(Some(&name), order.to_string(), Mark::Tag)
                            .uses(&[&format!("force:{name}"), &format!("power:{p}")]),
                    );
                }
                o.required.push(Required {
                    key: format!("force:{name}"),
                    why: format!("{name} needs a power"),
                });
            }
            o.why.insert("force".into(), "one power per force".into());
            o.why.insert(
                "power".into(),
                "each power goes to exactly one force".into(),
            );
            o.help = vec![
                "Tap one of your forces, then pick its power from the list.".into(),
                format!(
                    "Every force gets one of the powers {}; the one with {} is your Sovereign.",
                    rules
                        .forces
                        .powers
                        .iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    rules.forces.sovereign
                ),
            ];
        }
        Phase::Orders => {
            let enemies = sighted(rules, st, seat);
            for f in side.living() {
                let name = f.name();
                let power = if f.power == rules.forces.sovereign {
                    format!("Sovereign, power {}", f.power)
                } else {
                    format!("power {}", f.power)
                };
                o.pieces.push(Piece::on(
                    name.clone(),
                    format!("your {name} ({power})"),
                    label(f.at),
                ));
                for act in options(rules, st, seat, f.id) {
                    let text = Order::Act { force: f.id, act }.to_string();
                    let force = format!("force:{name}");
                    let c = Choice::new(Some(&name), text, Mark::Tag)
                        .cost(rules.cost(act.kind()))
                        .uses(&[&force]);
                    o.choices.push(match act {
                        Act::Move(d) => {
                            let there = f.at.step(d);
                            let to = label(there);
                            let mut c = c
                                .to(to.clone())
                                .uses(&[&format!("end:{to}")])
                                .gives(&[&format!("left:{}", label(f.at))])
                                .moves();
                            c.mark = Mark::Move;
                            if side.living().any(|g| g.id != f.id && g.at == there) {
                                c = c.wants(&[&format!("left:{to}")]);
                            }
                            if let Some(n) = meets(rules, st, f.power, &name, there, &enemies) {
                                c = c.note(n);
                            }
                            c
                        }
                        Act::Scout(h) => {
                            let mut c = c.to(label(h));
                            c.mark = Mark::Scout;
                            c
                        }
                        _ => c,
                    });
                }
            }
            o.choices
                .push(Choice::new(None, "concede", Mark::Tag).alone());
            o.budget = Some(Budget {
                total: side.shih,
                unit: "Shih".into(),
            });
            o.why.insert("force".into(), "one order per force".into());
            o.why.insert(
                "end".into(),
                "two of your forces may not move into one hex".into(),
            );
            o.want_why.insert(
                "left".into(),
                "a force of yours stays on that hex, so this one bounces and stays where it is"
                    .into(),
            );
            o.help = vec![
                "Tap one of your forces, then a highlighted hex: a neighbour to move there, or an enemy in sight to scout it; or pick hold, fortify or ambush from the list.".into(),
                format!(
                    "One order per force; a force without one holds. Moving and holding are free; fortify costs {}, ambush {}, scout {} (you have {} Shih).",
                    rules.cost(super::orders::Kind::Fortify),
                    rules.cost(super::orders::Kind::Ambush),
                    rules.cost(super::orders::Kind::Scout),
                    side.shih
                ),
            ];
        }
    }
    o
}

/// What force `name` (of power `power`) moving into `there` meets among
/// the enemy forces in sight: the assault if the one there stays, or the
/// ambush one beside it may spring.
fn meets(
    rules: &Ruleset,
    st: &State,
    power: u8,
    name: &str,
    there: crate::board::Hex,
    enemies: &super::view::Sighted,
) -> Option<String> {
    let o = &rules.orders;
    let v = rules.combat.variance;
    let theirs = |p: Option<u8>| match p {
        Some(p) => format!("its power {p}"),
        None => format!("its power, unknown (at most {})", enemies.threat),
    };
    let luck = if v > 0 {
        format!("; each side {}{v}", '±')
    } else {
        String::new()
    };
    if let Some((i, (_, p))) = enemies
        .seen
        .iter()
        .enumerate()
        .find(|(_, (h, _))| *h == there)
    {
        let difficult = if st.board.is_difficult(there) {
            format!(" +{} Difficult ground", o.difficult_bonus)
        } else {
            String::new()
        };
        return Some(format!(
            "if E{n} stays on {to}, {name} assaults it: power {power} against {}{difficult}, +{} if it fortified, +{} if it ambushes{luck}; the higher total wins and the loser dies; a tie sends {name} back",
            theirs(*p),
            o.fortify_bonus,
            o.ambush_bonus,
            n = i + 1,
            to = label(there),
        ));
    }
    let beside: Vec<String> = enemies
        .seen
        .iter()
        .enumerate()
        .filter(|(_, (h, _))| h.distance(there) == 1)
        .map(|(i, (_, p))| match p {
            Some(p) => format!("E{} (power {p})", i + 1),
            None => format!("E{} (power unknown, at most {})", i + 1, enemies.threat),
        })
        .collect();
    if beside.is_empty() {
        return None;
    }
    let difficult = if st.board.is_difficult(there) {
        format!(" +{} Difficult ground", o.difficult_bonus)
    } else {
        String::new()
    };
    Some(format!(
        "{to} is next to {}: one that ambushes strikes {name} there with its power +{}{luck}, against power {power}{difficult}",
        beside.join(", "),
        o.ambush_bonus,
        to = label(there),
    ))
}

impl Compose for UnfoughtBattle {
    fn compose(rules: &Ruleset, st: &State, seat: Seat) -> Orders {
        compose(rules, st, seat)
    }
    fn own_cells(_: &Ruleset, v: &super::view::View) -> Vec<String> {
        v.forces
            .iter()
            .filter(|f| f.alive)
            .map(|f| f.at.clone())
            .collect()
    }
}
