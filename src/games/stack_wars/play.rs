//! The actions of Stack Wars and what they do: fortify, move, attack,
//! invasion, the end of the game. Every rule lives here; `games/stack-wars.md`
//! gives each ruling with its reason.

use super::state::{Ending, Side, Square, Stack, State};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One action: what one line of an order file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// `fortify 8,4`: one army from reserve onto a controlled territory.
    Fortify(Square),
    /// `move 8,4 7,4`: one army to an adjacent territory.
    Move { from: Square, to: Square },
    /// `attack 5,4 4,4`: from a lone army against an adjacent enemy territory.
    Attack { from: Square, to: Square },
    /// `resign`
    Resign,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Fortify(at) => write!(f, "fortify {at}"),
            Action::Move { from, to } => write!(f, "move {from} {to}"),
            Action::Attack { from, to } => write!(f, "attack {from} {to}"),
            Action::Resign => f.write_str("resign"),
        }
    }
}

/// Why an action is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    OffBoard(Square),
    NoReserves,
    /// Fortify on a territory the player does not control.
    NotControlled(Square),
    /// No army of the player's on the square an action starts from.
    NoArmy(Square),
    NotAdjacent,
    /// A MOVE onto enemy armies (that is an ATTACK).
    Enemy(Square),
    /// A MOVE onto the player's own armies without `move_onto_own`.
    OwnArmies(Square),
    /// A MOVE onto the player's own empty baseline without `move_onto_own`.
    OwnBaseline(Square),
    /// An ATTACK from a stack of this many armies.
    FromStack(Square, u16),
    /// An ATTACK on a territory without enemy armies.
    NoEnemy(Square),
}

/// What happened, for the log and the reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    Fortified {
        side: Side,
        at: Square,
        /// Armies on the territory afterwards.
        armies: u16,
        reserves: u16,
    },
    Moved {
        side: Side,
        from: Square,
        to: Square,
        armies: u16,
    },
    Attacked {
        side: Side,
        from: Square,
        to: Square,
        /// Defending armies left on `to`.
        left: u16,
        /// The target was emptied and the attacker moved in (or invaded).
        moved_in: bool,
    },
    Invaded {
        side: Side,
        from: Square,
        to: Square,
        by_attack: bool,
        points: u16,
    },
    /// The player to move had no legal action and passed.
    Passed {
        side: Side,
    },
    Resigned {
        side: Side,
    },
    Ended {
        winner: Option<Side>,
        how: String,
        points: [u16; 2],
    },
}

impl State {
    /// Is `action` legal for `side` now? (Resigning always is.)
    pub fn check_action(&self, side: Side, action: Action) -> Result<(), Illegal> {
        match action {
            Action::Resign => Ok(()),
            Action::Fortify(at) => {
                if !self.on_board(at) {
                    return Err(Illegal::OffBoard(at));
                }
                if self.reserve(side) == 0 {
                    return Err(Illegal::NoReserves);
                }
                if !self.controls(side, at) {
                    return Err(Illegal::NotControlled(at));
                }
                Ok(())
            }
            Action::Move { from, to } => {
                self.check_step(side, from, to)?;
                match self.at(to) {
                    Some(s) if s.side != side => Err(Illegal::Enemy(to)),
                    Some(_) if !self.move_onto_own => Err(Illegal::OwnArmies(to)),
                    None if to.row == side.baseline(self.size) && !self.move_onto_own => {
                        Err(Illegal::OwnBaseline(to))
                    }
                    _ => Ok(()),
                }
            }
            Action::Attack { from, to } => {
                self.check_step(side, from, to)?;
                let n = self.at(from).map_or(0, |s| s.armies);
                if n != 1 {
                    return Err(Illegal::FromStack(from, n));
                }
                match self.at(to) {
                    Some(s) if s.side != side => Ok(()),
                    _ => Err(Illegal::NoEnemy(to)),
                }
            }
        }
    }

    /// From one of `side`'s armies to an adjacent square on the board.
    fn check_step(&self, side: Side, from: Square, to: Square) -> Result<(), Illegal> {
        for sq in [from, to] {
            if !self.on_board(sq) {
                return Err(Illegal::OffBoard(sq));
            }
        }
        if self.at(from).is_none_or(|s| s.side != side) {
            return Err(Illegal::NoArmy(from));
        }
        if !from.adjacent(to) {
            return Err(Illegal::NotAdjacent);
        }
        Ok(())
    }

    /// Every legal action of `side` but resigning, in a fixed order:
    /// fortifies row by row, then each army's moves and attacks.
    pub fn actions(&self, side: Side, out: &mut Vec<Action>) {
        out.clear();
        let n = self.size;
        if self.reserve(side) > 0 {
            for sq in self.squares() {
                if self.controls(side, sq) {
                    out.push(Action::Fortify(sq));
                }
            }
        }
        let home = side.baseline(n);
        let goal = side.other().baseline(n);
        for from in self.squares() {
            let Some(mine) = self.at(from) else { continue };
            if mine.side != side {
                continue;
            }
            for to in from.neighbours(n) {
                match self.at(to) {
                    Some(s) if s.side != side => {
                        if mine.armies == 1 {
                            out.push(Action::Attack { from, to });
                        }
                    }
                    Some(_) => {
                        if self.move_onto_own {
                            out.push(Action::Move { from, to });
                        }
                    }
                    None => {
                        if to.row == goal || to.row != home || self.move_onto_own {
                            out.push(Action::Move { from, to });
                        }
                    }
                }
            }
        }
    }

    /// Does `side` have any legal action but resigning? (The same rules
    /// as [`State::actions`], stopping at the first; no allocation.)
    pub fn can_act(&self, side: Side) -> bool {
        if self.reserve(side) > 0 {
            return true; // its own baseline is always controlled
        }
        let n = self.size;
        let home = side.baseline(n);
        let goal = side.other().baseline(n);
        self.squares().any(|from| match self.at(from) {
            Some(mine) if mine.side == side => from.neighbours(n).any(|to| match self.at(to) {
                Some(s) if s.side != side => mine.armies == 1,
                Some(_) => self.move_onto_own,
                None => to.row == goal || to.row != home || self.move_onto_own,
            }),
            _ => false,
        })
    }

    fn take_one(&mut self, sq: Square) {
        let s = self.at(sq).expect("an army to take");
        self.set(
            sq,
            (s.armies > 1).then_some(Stack {
                side: s.side,
                armies: s.armies - 1,
            }),
        );
    }

    fn add_one(&mut self, sq: Square, side: Side) -> u16 {
        let armies = self.at(sq).map_or(0, |s| s.armies) + 1;
        self.set(sq, Some(Stack { side, armies }));
        armies
    }

    fn invade(
        &mut self,
        side: Side,
        from: Square,
        to: Square,
        by_attack: bool,
        ev: &mut Vec<Event>,
    ) {
        self.points[side.seat()] += 1;
        ev.push(Event::Invaded {
            side,
            from,
            to,
            by_attack,
            points: self.score(side),
        });
    }

    /// Play a legal action for the side to move, then end the game or pass
    /// the turn on.
    pub fn play(&mut self, action: Action, ev: &mut Vec<Event>) {
        debug_assert!(!self.is_over());
        debug_assert_eq!(self.check_action(self.to_move, action), Ok(()));
        let side = self.to_move;
        let goal = side.other().baseline(self.size);
        let quiet = match action {
            Action::Resign => {
                ev.push(Event::Resigned { side });
                let how = format!("{side} resigned");
                self.end(Some(side.other()), how, ev);
                return;
            }
            Action::Fortify(at) => {
                self.reserves[side.seat()] -= 1;
                let armies = self.add_one(at, side);
                ev.push(Event::Fortified {
                    side,
                    at,
                    armies,
                    reserves: self.reserve(side),
                });
                false
            }
            Action::Move { from, to } => {
                self.take_one(from);
                if to.row == goal {
                    self.invade(side, from, to, false, ev);
                    false
                } else {
                    let armies = self.add_one(to, side);
                    ev.push(Event::Moved {
                        side,
                        from,
                        to,
                        armies,
                    });
                    true
                }
            }
            Action::Attack { from, to } => {
                self.take_one(to);
                let left = self.at(to).map_or(0, |s| s.armies);
                ev.push(Event::Attacked {
                    side,
                    from,
                    to,
                    left,
                    moved_in: left == 0,
                });
                if left == 0 {
                    self.take_one(from);
                    if to.row == goal {
                        self.invade(side, from, to, true, ev);
                    } else {
                        self.add_one(to, side);
                    }
                }
                false
            }
        };
        self.quiet = if quiet { self.quiet + 1 } else { 0 };
        if self.settle(ev) {
            return;
        }
        // The turn passes; a player with no legal action passes in turn.
        self.to_move = side.other();
        if !self.can_act(side.other()) {
            ev.push(Event::Passed { side: side.other() });
            self.quiet += 1;
            self.to_move = side;
            if self.settle(ev) {
                return;
            }
            if !self.can_act(side) {
                let how = "neither side has a legal action".to_string();
                let winner = self.leader();
                self.end(winner, how, ev);
            }
        }
    }

    /// The side with more points, or `None` when equal.
    pub fn leader(&self) -> Option<Side> {
        use std::cmp::Ordering::*;
        match self.score(Side::Black).cmp(&self.score(Side::White)) {
            Greater => Some(Side::Black),
            Less => Some(Side::White),
            Equal => None,
        }
    }

    /// End the game if a side has nothing left, or the quiet cap is reached.
    fn settle(&mut self, ev: &mut Vec<Event>) -> bool {
        let spent: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|&s| self.reserve(s) == 0 && self.in_play(s) == 0)
            .collect();
        if !spent.is_empty() {
            let names: Vec<&str> = spent.iter().map(|s| s.name()).collect();
            let how = format!(
                "{} {} no armies in play and none in reserve",
                names.join(" and "),
                if spent.len() == 1 { "has" } else { "have" }
            );
            let winner = self.leader();
            self.end(winner, how, ev);
            return true;
        }
        if self.quiet_limit > 0 && self.quiet >= self.quiet_limit {
            let how = format!(
                "{} turns in a row without a fortify, attack or invasion",
                self.quiet
            );
            self.end(None, how, ev);
            return true;
        }
        false
    }

    pub fn end(&mut self, winner: Option<Side>, how: String, ev: &mut Vec<Event>) {
        ev.push(Event::Ended {
            winner,
            how: how.clone(),
            points: self.points,
        });
        self.result = Some(Ending { winner, how });
    }
}
