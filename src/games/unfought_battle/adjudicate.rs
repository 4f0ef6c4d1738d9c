//! Simultaneous resolution of one turn, the way a Diplomacy adjudicator
//! does it: every order is read into a table indexed by force (so neither
//! the order of the order files nor the order of their lines matters),
//! then the turn is resolved as a whole:
//!
//! 1. Shih is paid; scouts look at the hexes they name (positions as the
//!    turn began).
//! 2. Head-on swaps between enemy forces fight; the winner goes on, the
//!    loser dies, a tie sends both back.
//! 3. Two enemy forces entering one hex fight; the winner goes on, the
//!    loser dies, a tie sends both back.
//! 4. Each hex now has at most one force entering it. A move into an empty
//!    hex, or a hex whose occupant really leaves, succeeds; cycles of moves
//!    all succeed; a move into a hex whose occupant stays bounces off a
//!    friend or assaults an enemy (who defends with fortify, ambush and
//!    terrain). Chains are settled from their far end, so a failed move
//!    stops the moves into its own hex in turn.
//! 5. Ambushing forces spring on an enemy that ended its move next to them.
//!
//! Every combat's dice are drawn in an order fixed by the board (hexes,
//! seats, force ids), never by the input. Combats reveal both powers to
//! both players; every death is announced.

use super::board::label;
use super::combat::{fight, Entrant};
use super::events::{CombatKind, Event};
use super::orders::{Act, Order};
use super::ruleset::Ruleset;
use super::state::State;
use crate::board::Hex;
use crate::rng::Dice;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    /// Still trying to move.
    Moving,
    /// Settled: moved into its target.
    Moved,
    /// Settled where it started (never moved, or its move failed).
    Stayed,
    Dead,
}

/// The orders of both seats as a table: `acts[seat][force index]`.
pub fn table(st: &State, orders: &BTreeMap<usize, Vec<Order>>) -> [Vec<Act>; 2] {
    let mut acts = [
        vec![Act::Hold; st.sides[0].forces.len()],
        vec![Act::Hold; st.sides[1].forces.len()],
    ];
    for (&seat, list) in orders {
        for o in list {
            if let Order::Act { force, act } = *o {
                if let Some(slot) = acts[seat].get_mut(force as usize - 1) {
                    *slot = act;
                }
            }
        }
    }
    // Orders for fallen forces do nothing.
    for (seat, side_acts) in acts.iter_mut().enumerate() {
        for (i, a) in side_acts.iter_mut().enumerate() {
            if !st.sides[seat].forces[i].alive {
                *a = Act::Hold;
            }
        }
    }
    acts
}

struct Turn<'a> {
    rules: &'a Ruleset,
    st: &'a mut State,
    acts: [Vec<Act>; 2],
    status: Vec<Status>,
    /// The force index per seat: unit = seat * n + index.
    n: usize,
    sprung: Vec<bool>,
    ev: &'a mut Vec<Event>,
}

impl Turn<'_> {
    fn seat(&self, u: usize) -> usize {
        u / self.n
    }
    fn idx(&self, u: usize) -> usize {
        u % self.n
    }
    fn start(&self, u: usize) -> Hex {
        self.st.sides[self.seat(u)].forces[self.idx(u)].at
    }
    fn act(&self, u: usize) -> Act {
        self.acts[self.seat(u)][self.idx(u)]
    }
    fn target(&self, u: usize) -> Option<Hex> {
        match self.act(u) {
            Act::Move(d) => Some(self.start(u).step(d)),
            _ => None,
        }
    }
    fn units(&self) -> impl Iterator<Item = usize> {
        0..2 * self.n
    }
    /// The living unit that began the turn on `h`.
    fn starting_on(&self, h: Hex) -> Option<usize> {
        self.units()
            .find(|&u| self.status[u] != Status::Dead && self.start(u) == h)
    }
    fn entrant(&self, u: usize, defending_at: Option<Hex>) -> Entrant {
        let f = self.st.sides[self.seat(u)].forces[self.idx(u)];
        let o = &self.rules.orders;
        let mut bonuses = Vec::new();
        if let Some(h) = defending_at {
            match self.act(u) {
                Act::Fortify => bonuses.push(("fortified".to_string(), o.fortify_bonus)),
                Act::Ambush => bonuses.push(("ambush".to_string(), o.ambush_bonus)),
                _ => {}
            }
            if self.st.board.is_difficult(h) {
                bonuses.push(("Difficult ground".to_string(), o.difficult_bonus));
            }
        }
        Entrant {
            seat: self.seat(u),
            force: f.id,
            from: f.at,
            power: f.power,
            bonuses,
        }
    }

    /// Fight two units; returns the winner unit (None on a tie). The
    /// caller settles what follows; `after` is written by `record`.
    fn combat(
        &mut self,
        kind: CombatKind,
        at: Hex,
        a: (usize, Entrant),
        b: (usize, Entrant),
        dice: &mut Dice,
    ) -> (Option<usize>, usize) {
        let (ua, ub) = (a.0, b.0);
        let what = format!("{} at {}", kind.name(), super::board::label(at));
        let (fighters, winner) = fight(self.rules, dice, &what, a.1, b.1);
        // Both powers become known to both players.
        let (fa, fb) = (fighters[0].force, fighters[1].force);
        self.st.sides[0].learn(fb);
        self.st.sides[1].learn(fa);
        let win_unit = winner.map(|s| if self.seat(ua) == s { ua } else { ub });
        self.ev.push(Event::Combat {
            kind,
            at,
            fighters,
            winner,
            after: [String::new(), String::new()],
        });
        (win_unit, self.ev.len() - 1)
    }

    fn note_after(&mut self, at_event: usize, u: usize, text: String) {
        let seat = self.seat(u);
        if let Event::Combat { after, .. } = &mut self.ev[at_event] {
            after[seat] = text;
        }
    }

    fn kill(&mut self, u: usize) {
        self.status[u] = Status::Dead;
    }

    fn bounce(&mut self, u: usize, why: String) {
        self.status[u] = Status::Stayed;
        let f = self.st.sides[self.seat(u)].forces[self.idx(u)];
        self.ev.push(Event::Bounced {
            seat: self.seat(u),
            force: f.id,
            from: f.at,
            to: self.target(u).unwrap_or(f.at),
            why,
        });
    }

    /// Stage 2: head-on swaps between enemies.
    fn swaps(&mut self, dice: &mut Dice) {
        let mut pairs: Vec<(Hex, usize, usize)> = Vec::new();
        for u in 0..self.n {
            if self.status[u] != Status::Moving {
                continue;
            }
            let t = self.target(u).unwrap();
            if let Some(v) = self.starting_on(t) {
                if self.seat(v) == 1
                    && self.status[v] == Status::Moving
                    && self.target(v) == Some(self.start(u))
                {
                    pairs.push((self.start(u), u, v));
                }
            }
        }
        pairs.sort();
        for (at, u, v) in pairs {
            let (a, b) = (self.entrant(u, None), self.entrant(v, None));
            let (w, e) = self.combat(CombatKind::Swap, at, (u, a), (v, b), dice);
            match w {
                Some(w) => {
                    let l = if w == u { v } else { u };
                    self.kill(l);
                    self.note_after(e, l, "died".to_string());
                    let to = label(self.target(w).unwrap());
                    self.note_after(e, w, format!("went on toward {to}"));
                }
                None => {
                    for x in [u, v] {
                        self.status[x] = Status::Stayed;
                        let back = label(self.start(x));
                        self.note_after(e, x, format!("held {back}"));
                    }
                }
            }
        }
    }

    /// Stage 3: two enemies entering one hex.
    fn contests(&mut self, dice: &mut Dice) {
        let mut by_hex: BTreeMap<Hex, Vec<usize>> = BTreeMap::new();
        for u in self.units() {
            if self.status[u] == Status::Moving {
                by_hex.entry(self.target(u).unwrap()).or_default().push(u);
            }
        }
        for (at, us) in by_hex {
            if us.len() < 2 {
                continue;
            }
            // The check allows one mover per seat into a hex: one of each.
            let (u, v) = (us[0], us[1]);
            let (a, b) = (self.entrant(u, None), self.entrant(v, None));
            let (w, e) = self.combat(CombatKind::Contest, at, (u, a), (v, b), dice);
            match w {
                Some(w) => {
                    let l = if w == u { v } else { u };
                    self.kill(l);
                    self.note_after(e, l, "died".to_string());
                    self.note_after(e, w, format!("went on into {}", label(at)));
                }
                None => {
                    for x in [u, v] {
                        self.status[x] = Status::Stayed;
                        let back = label(self.start(x));
                        self.note_after(e, x, format!("fell back to {back}"));
                    }
                }
            }
        }
    }

    /// Stage 4: settle every remaining move, far end of each chain first.
    fn chains(&mut self, dice: &mut Dice) {
        for first in self.units() {
            if self.status[first] != Status::Moving {
                continue;
            }
            let mut path: Vec<usize> = Vec::new();
            let mut x = first;
            loop {
                if let Some(k) = path.iter().position(|&p| p == x) {
                    // A cycle: every hex in it is vacated as it is entered.
                    for &c in &path[k..] {
                        self.status[c] = Status::Moved;
                    }
                    path.truncate(k);
                    break;
                }
                path.push(x);
                match self.starting_on(self.target(x).unwrap()) {
                    Some(o) if self.status[o] == Status::Moving => x = o,
                    _ => break,
                }
            }
            while let Some(x) = path.pop() {
                if self.status[x] == Status::Moving {
                    self.settle(x, dice);
                }
            }
        }
    }

    /// Settle one move whose target's occupant (if any) is settled.
    fn settle(&mut self, x: usize, dice: &mut Dice) {
        let t = self.target(x).unwrap();
        let occ = self
            .units()
            .find(|&o| o != x && self.status[o] != Status::Dead && self.start(o) == t);
        let Some(o) = occ else {
            self.status[x] = Status::Moved;
            return;
        };
        match self.status[o] {
            Status::Moved | Status::Dead => self.status[x] = Status::Moved,
            Status::Moving => unreachable!("chains settle the far end first"),
            Status::Stayed if self.seat(o) == self.seat(x) => {
                let name = self.st.sides[self.seat(o)].forces[self.idx(o)].name();
                self.bounce(x, format!("your {name} stayed on {}", label(t)));
            }
            Status::Stayed => {
                let a = self.entrant(x, None);
                let d = self.entrant(o, Some(t));
                if self.act(o) == Act::Ambush {
                    self.sprung[o] = true;
                }
                let (w, e) = self.combat(CombatKind::Assault, t, (x, a), (o, d), dice);
                match w {
                    Some(w) if w == x => {
                        self.kill(o);
                        self.status[x] = Status::Moved;
                        self.note_after(e, o, "died".to_string());
                        self.note_after(e, x, format!("took {}", label(t)));
                    }
                    Some(_) => {
                        self.kill(x);
                        self.note_after(e, x, "died".to_string());
                        self.note_after(e, o, format!("held {}", label(t)));
                    }
                    None => {
                        self.status[x] = Status::Stayed;
                        let back = label(self.start(x));
                        self.note_after(e, x, format!("fell back to {back}"));
                        self.note_after(e, o, format!("held {}", label(t)));
                    }
                }
            }
        }
    }

    /// Where a settled living unit ends.
    fn end_hex(&self, u: usize) -> Hex {
        match self.status[u] {
            Status::Moved => self.target(u).unwrap(),
            _ => self.start(u),
        }
    }

    /// Stage 5: each unsprung ambusher strikes once, at the enemy that
    /// moved this turn and ended next to it, first in board order (q, then r).
    fn ambushes(&mut self, dice: &mut Dice) {
        let mut ambushers: Vec<(Hex, usize)> = self
            .units()
            .filter(|&u| {
                self.status[u] == Status::Stayed && self.act(u) == Act::Ambush && !self.sprung[u]
            })
            .map(|u| (self.start(u), u))
            .collect();
        ambushers.sort();
        for (at, a) in ambushers {
            if self.status[a] == Status::Dead {
                continue;
            }
            let mut prey: Vec<(Hex, usize)> = self
                .units()
                .filter(|&v| {
                    self.seat(v) != self.seat(a)
                        && self.status[v] == Status::Moved
                        && self.end_hex(v).distance(at) == 1
                })
                .map(|v| (self.end_hex(v), v))
                .collect();
            prey.sort();
            let Some(&(there, v)) = prey.first() else {
                continue;
            };
            self.sprung[a] = true;
            let mut ea = self.entrant(a, None);
            ea.bonuses
                .push(("ambush".to_string(), self.rules.orders.ambush_bonus));
            let mut ev = self.entrant(v, None);
            if self.st.board.is_difficult(there) {
                ev.bonuses.push((
                    "Difficult ground".to_string(),
                    self.rules.orders.difficult_bonus,
                ));
            }
            let (w, e) = self.combat(CombatKind::Ambush, at, (a, ea), (v, ev), dice);
            let (ta, tv) = (label(at), label(there));
            match w {
                Some(w) => {
                    let l = if w == a { v } else { a };
                    self.kill(l);
                    self.note_after(e, l, "died".to_string());
                    let held = if w == a { ta } else { tv };
                    self.note_after(e, w, format!("held {held}"));
                }
                None => {
                    self.note_after(e, a, format!("held {ta}"));
                    self.note_after(e, v, format!("held {tv}"));
                }
            }
        }
    }
}

/// Resolve one orders phase's movement and combat in place (upkeep is
/// separate). `orders` are both seats' checked orders.
///
/// Long (about 105 lines): one turn's movement and combat in the rules' order
/// (the costs, the scouting, the moves and swaps, the combats), each step on
/// the state the one before leaves.
pub fn resolve(
    rules: &Ruleset,
    st: &mut State,
    orders: &BTreeMap<usize, Vec<Order>>,
    dice: &mut Dice,
    ev: &mut Vec<Event>,
) {
    let acts = table(st, orders);
    // Shih first: every order's cost is paid whatever happens later.
    for (seat, side_acts) in acts.iter().enumerate() {
        let mut spent = 0;
        let mut costly = Vec::new();
        for (i, a) in side_acts.iter().enumerate() {
            let c = rules.cost(a.kind());
            if c > 0 {
                spent += c;
                costly.push(format!("f{} {a}", i + 1));
            }
        }
        if spent > 0 {
            let side = &mut st.sides[seat];
            side.shih = side.shih.saturating_sub(spent);
            ev.push(Event::Spent {
                seat,
                orders: costly,
                shih: spent,
                left: side.shih,
            });
        }
    }
    // Scouts look at the hexes as the turn began.
    for (seat, side_acts) in acts.iter().enumerate() {
        for (i, a) in side_acts.iter().enumerate() {
            if let Act::Scout(target) = *a {
                let found = st.sides[1 - seat].at(target).map(|f| (f.id, f.power));
                if let Some((id, _)) = found {
                    st.sides[seat].learn(id);
                }
                ev.push(Event::Scouted {
                    seat,
                    force: i as u8 + 1,
                    at: st.sides[seat].forces[i].at,
                    target,
                    found: found.map(|f| f.1),
                });
            }
        }
    }
    let n = st.sides[0].forces.len();
    let status: Vec<Status> = (0..2 * n)
        .map(|u| {
            let (s, i) = (u / n, u % n);
            if !st.sides[s].forces[i].alive {
                Status::Dead
            } else if matches!(acts[s][i], Act::Move(_)) {
                Status::Moving
            } else {
                Status::Stayed
            }
        })
        .collect();
    let mut t = Turn {
        rules,
        st,
        acts,
        status,
        n,
        sprung: vec![false; 2 * n],
        ev,
    };
    t.swaps(dice);
    t.contests(dice);
    t.chains(dice);
    // Moves happen together: the successful ones are told, then positions
    // change, then ambushes spring.
    let ends: Vec<Hex> = (0..2 * n).map(|u| t.end_hex(u)).collect();
    for (u, &to) in ends.iter().enumerate() {
        if t.status[u] == Status::Moved {
            let (s, i) = (u / n, u % n);
            let f = t.st.sides[s].forces[i];
            t.ev.push(Event::Moved {
                seat: s,
                force: f.id,
                from: f.at,
                to,
            });
        }
    }
    t.ambushes(dice);
    for (u, &end) in ends.iter().enumerate() {
        let (s, i) = (u / n, u % n);
        let dead = t.status[u] == Status::Dead;
        let f = t.st.sides[s].forces[i];
        if f.alive && dead {
            t.st.sides[s].forces[i].alive = false;
            // Every fallen force's power is public.
            t.st.sides[1 - s].learn(f.id);
        }
        if !dead {
            t.st.sides[s].forces[i].at = end;
        }
    }
}
