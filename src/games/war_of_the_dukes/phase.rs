//! Resolving a phase: the simultaneous deployment, or one side's moves then
//! attacks; the end of the game (a Duke eliminated, a capital taken, the
//! marginal victory after the last turn).

use super::combat;
use super::events::{Event, Placed};
use super::orders::{self, Order};
use super::ruleset::Ruleset;
use super::setup;
use super::state::{End, Phase, State};
use super::units::Side;
use std::collections::BTreeSet;

/// Both deployments at once. A side whose orders do not form a legal
/// deployment (the engine refuses those, so only a direct caller) gets
/// the default one.
pub fn deploy(rules: &Ruleset, st: &mut State, orders: [&[Order]; 2], ev: &mut Vec<Event>) {
    for side in Side::BOTH {
        let mine = orders[side.seat()];
        let list: Vec<Order> = if orders::check_deployment(rules, st, side, mine).is_empty() {
            mine.to_vec()
        } else {
            setup::default_deployment(rules, st, side, None)
        };
        for o in &list {
            if let Order::Place { unit, at } = o {
                let n = st.find(side, *unit).expect("checked");
                st.units[n].at = Some(*at);
            }
        }
    }
    for side in Side::BOTH {
        let units = st
            .units
            .iter()
            .filter(|u| u.side == side)
            .map(|u| Placed {
                unit: u.id,
                at: u.at.expect("deployed"),
            })
            .collect();
        ev.push(Event::Deployed { side, units });
    }
    st.turn = 1;
    st.phase = Phase::Play(Side::Orfburg);
}

/// A side whose player dropped out after missing orders (issue 7) loses:
/// a total victory for the other side, as if it had resigned.
pub fn drop_out(st: &mut State, side: Side, ev: &mut Vec<Event>) {
    end(
        st,
        side.other(),
        "total",
        format!("{side} dropped out after missing orders"),
        ev,
    );
}

/// `side` resigned (issue 52): a total victory for the other side, at any
/// phase, deployment included.
pub fn resign(st: &mut State, side: Side, ev: &mut Vec<Event>) {
    end(st, side.other(), "total", format!("{side} resigned"), ev);
}

fn end(st: &mut State, winner: Side, victory: &str, how: String, ev: &mut Vec<Event>) {
    st.result = Some(End {
        winner,
        victory: victory.to_string(),
        how: how.clone(),
    });
    st.phase = Phase::Over;
    ev.push(Event::Ended {
        winner,
        victory: victory.to_string(),
        how,
    });
}

/// A Duke eliminated ends the game at once.
fn duke_down(st: &mut State, ev: &mut Vec<Event>) -> bool {
    for side in Side::BOTH {
        if st.units[st.duke(side)].at.is_none() {
            let last = ev.iter().rev().find_map(|e| match e {
                Event::Combat { target, .. } => Some(*target),
                _ => None,
            });
            let at = last
                .map(|t| format!(" in the combat for {t}"))
                .unwrap_or_default();
            end(
                st,
                side.other(),
                "total",
                format!("the Duke of {side} was eliminated{at}"),
                ev,
            );
            return true;
        }
    }
    false
}

/// One side's phase: every move in the order written, then every attack.
pub fn play(
    rules: &Ruleset,
    st: &mut State,
    side: Side,
    list: &[Order],
    dice: &mut crate::rng::Dice,
    ev: &mut Vec<Event>,
) {
    let (plan, _) = orders::plan(rules, st, side, list);
    for (n, route, found) in &plan.moves {
        let from = st.units[*n].at.expect("on the map");
        let path: Vec<_> = route.path.iter().map(|&i| rules.map.label(i)).collect();
        st.units[*n].at = path.last().copied();
        ev.push(Event::Moved {
            side,
            unit: st.units[*n].id,
            from,
            path,
            cost: route.cost,
            found: *found,
        });
    }
    let mut attacked = BTreeSet::new();
    for (t, with, adv) in &plan.attacks {
        let e = combat::attack(rules, st, side, *t, with, *adv, &mut attacked, dice);
        ev.push(e);
        if duke_down(st, ev) {
            return;
        }
    }
    end_of_phase(rules, st, side, ev);
}

fn end_of_phase(rules: &Ruleset, st: &mut State, side: Side, ev: &mut Vec<Event>) {
    for s in [side, side.other()] {
        let cap = rules.capitals[s.other().seat()];
        if st.holds(rules, s, cap) {
            let name = &rules.map.places[cap].name;
            end(
                st,
                s,
                "total",
                format!("{s} took {name}, the capital of {}", s.other()),
                ev,
            );
            return;
        }
    }
    match side {
        Side::Orfburg => st.phase = Phase::Play(Side::Wulfenburg),
        Side::Wulfenburg if st.turn < rules.turns => {
            st.turn += 1;
            st.phase = Phase::Play(Side::Orfburg);
        }
        Side::Wulfenburg => final_verdict(rules, st, ev),
    }
}

/// After the last turn: Orfburg's marginal victory, or Wulfenburg's.
fn final_verdict(rules: &Ruleset, st: &mut State, ev: &mut Vec<Event>) {
    let k = rules.kaiserburg;
    let kname = rules.map.places[k].name.clone();
    let holds = st.holds(rules, Side::Orfburg, k);
    let controls = st.orfburg_controls_between(rules);
    let turns = rules.turns;
    if holds && controls {
        end(
            st,
            Side::Orfburg,
            "marginal",
            format!(
                "after turn {turns} Orfburg holds {kname} and controls the between-rivers area"
            ),
            ev,
        );
        return;
    }
    let mut why = Vec::new();
    if !holds {
        why.push(format!("Orfburg does not hold {kname}"));
    }
    if !controls {
        why.push(format!(
            "Wulfenburg stands in the between-rivers area ({})",
            st.intruders(rules).join(", ")
        ));
    }
    end(
        st,
        Side::Wulfenburg,
        "marginal",
        format!("after turn {turns} {}", why.join(" and ")),
        ev,
    );
}
