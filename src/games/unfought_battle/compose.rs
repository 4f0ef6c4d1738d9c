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

use super::board::label;
use super::orders::{options, Act, Order};
use super::ruleset::Ruleset;
use super::state::{Phase, State};
use super::UnfoughtBattle;
use crate::games::compose::{Budget, Choice, Mark, Orders, Piece, Required};
use crate::games::{Compose, Seat};

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
                            let to = label(f.at.step(d));
                            let mut c = c.to(to.clone()).uses(&[&format!("end:{to}")]).moves();
                            c.mark = Mark::Move;
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

impl Compose for UnfoughtBattle {
    fn compose(rules: &Ruleset, st: &State, seat: Seat) -> Orders {
        compose(rules, st, seat)
    }
}
