//! One combat: power + bonuses + a ±variance drawn for each side; higher
//! wins, a tie leaves both alive. Seat 0's die is always drawn first, so
//! the draws do not depend on who is attacking or on the order orders were
//! read in.

use super::events::Fighter;
use super::ruleset::Ruleset;
use crate::board::Hex;
use crate::rng::{Dice, Seen};

/// A force about to fight: seat, force id, start hex, power, bonuses.
pub struct Entrant {
    pub seat: usize,
    pub force: u8,
    pub from: Hex,
    pub power: u8,
    pub bonuses: Vec<(String, i32)>,
}

/// Fight `a` against `b` (any order of seats); the fighters by seat and
/// the winning seat (`None`: a tie). Each side's variance is a two-sided
/// die (1: −variance, 2: +variance), seen by both players, since both
/// powers become known to both. `what` names the combat for the roll log.
pub fn fight(
    rules: &Ruleset,
    dice: &mut Dice,
    what: &str,
    a: Entrant,
    b: Entrant,
) -> ([Fighter; 2], Option<usize>) {
    let (first, second) = if a.seat == 0 { (a, b) } else { (b, a) };
    let v = rules.combat.variance;
    let mut roll = |e: &Entrant| {
        let up = dice.roll(2, Seen::Only(vec![0, 1]), |x| {
            let r = if x == 1 { -v } else { v };
            format!(
                "{what}: [seat {}]'s force {} (power {}) varies by {r:+}",
                e.seat, e.force, e.power
            )
        });
        if up == 1 {
            -v
        } else {
            v
        }
    };
    let r0 = roll(&first);
    let r1 = roll(&second);
    let make = |e: Entrant, roll: i32| {
        let total = e.power as i32 + e.bonuses.iter().map(|b| b.1).sum::<i32>() + roll;
        Fighter {
            seat: e.seat,
            force: e.force,
            from: e.from,
            power: e.power,
            bonuses: e.bonuses,
            roll,
            total,
        }
    };
    let f0 = make(first, r0);
    let f1 = make(second, r1);
    let winner = match f0.total.cmp(&f1.total) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    ([f0, f1], winner)
}
