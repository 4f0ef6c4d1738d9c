//! Zones of control: the six hexes around every piece, not across a river
//! hexside (bridges carry them), and into or out of a lake only across its
//! bridges (the causeways): wherever a piece could step, see
//! [`Ruleset::joined`].

use super::map::Ix;
use super::ruleset::Ruleset;
use super::state::{Board, State};
use super::units::Side;

/// The hexes in the zone of control of `side`'s pieces.
pub fn zoc(rules: &Ruleset, st: &State, board: &Board, side: Side) -> Vec<bool> {
    let mut z = vec![false; rules.map.cells.len()];
    for (n, u) in st.units.iter().enumerate() {
        if u.side != side {
            continue;
        }
        let Some(i) = board.pos[n] else { continue };
        for (nb, s) in rules.map.neighbours(i) {
            if rules.joined(i, s, nb) {
                z[nb as usize] = true;
            }
        }
    }
    z
}

/// The enemy pieces whose zone of control covers `i` (for messages).
pub fn exerted_by(rules: &Ruleset, st: &State, board: &Board, side: Side, i: Ix) -> Vec<String> {
    let mut out = Vec::new();
    for (nb, s) in rules.map.neighbours(i) {
        if !rules.joined(nb, s, i) {
            continue;
        }
        for p in board.occ[nb as usize].pieces() {
            let u = &st.units[p as usize];
            if u.side == side {
                out.push(format!("{} {}", u.id, rules.map.label(nb)));
            }
        }
    }
    out
}
