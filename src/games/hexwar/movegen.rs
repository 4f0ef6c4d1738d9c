//! Legal actions and applying them: the rules of movement in one place.

use super::piece::Piece;
use super::ruleset::{Movement, Ruleset, CELLS, OFF};
use super::state::{Finish, How, State};
use crate::board::Dir;

/// One action of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Action {
    /// A piece moves (and captures what stands on `to`).
    Move { from: u8, to: u8 },
    /// A piece type with rebirth comes back from the graveyard onto `at`,
    /// facing its royal piece. Takes the Move action.
    Rebirth { kind: u8, at: u8 },
    /// A piece turns to face `facing` (a Dir index).
    Rotate { at: u8, facing: u8 },
}

impl Action {
    pub fn is_rotate(self) -> bool {
        matches!(self, Action::Rotate { .. })
    }
}

/// What applying an action did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Done {
    pub piece: Piece,
    pub captured: Option<Piece>,
}

impl State {
    /// May the piece `p` end its move on `cell`? (empty, or an enemy that can
    /// be captured by this piece).
    #[inline]
    fn may_land(&self, rules: &Ruleset, p: Piece, cell: usize) -> bool {
        let b = self.board[cell];
        if b == 0 {
            return true;
        }
        let t = Piece(b);
        t.side() != p.side()
            && !rules.kinds[p.kind() as usize].phased
            && !rules.kinds[t.kind() as usize].phased
    }

    /// The Move actions of the piece on `from` (no rebirths), into `out`.
    #[inline]
    pub fn piece_moves(&self, rules: &Ruleset, from: usize, out: &mut Vec<Action>) {
        let p = Piece(self.board[from]);
        let kind = &rules.kinds[p.kind() as usize];
        let mask = kind.absolute[p.facing_index()];
        let next = &rules.geo.next;
        match kind.movement {
            Movement::Jump(_) => {
                for &c in &kind.jumps[from * 6 + p.facing_index()] {
                    if self.may_land(rules, p, c as usize) {
                        out.push(Action::Move {
                            from: from as u8,
                            to: c,
                        });
                    }
                }
            }
            Movement::Step(_) | Movement::Slide => {
                let max = match kind.movement {
                    Movement::Step(n) => n,
                    _ => u8::MAX,
                };
                for d in 0..6 {
                    if mask & (1 << d) == 0 {
                        continue;
                    }
                    let mut c = from;
                    for _ in 0..max {
                        let n = next[c * 6 + d];
                        if n == OFF {
                            break;
                        }
                        c = n as usize;
                        if self.board[c] == 0 {
                            out.push(Action::Move {
                                from: from as u8,
                                to: n,
                            });
                            continue;
                        }
                        if self.may_land(rules, p, c) {
                            out.push(Action::Move {
                                from: from as u8,
                                to: n,
                            });
                        }
                        break;
                    }
                }
            }
        }
    }

    /// The rebirths open to the side to move, into `out`.
    pub fn rebirths(&self, rules: &Ruleset, out: &mut Vec<Action>) {
        let side = self.side as usize;
        let mut any = false;
        for (k, kind) in rules.kinds.iter().enumerate() {
            if kind.rebirth && kind.side == self.side && self.graveyard[side][k] > 0 {
                any = true;
            }
        }
        if !any {
            return;
        }
        let Some(royal) = self.royal(rules, self.side) else {
            return;
        };
        for (k, kind) in rules.kinds.iter().enumerate() {
            if !(kind.rebirth && kind.side == self.side && self.graveyard[side][k] > 0) {
                continue;
            }
            for d in 0..6 {
                let n = rules.geo.next[royal * 6 + d];
                if n != OFF && self.board[n as usize] == 0 {
                    out.push(Action::Rebirth {
                        kind: k as u8,
                        at: n,
                    });
                }
            }
        }
    }

    /// Every Move action of the side to move (piece moves, then rebirths).
    pub fn moves(&self, rules: &Ruleset, out: &mut Vec<Action>) {
        out.clear();
        for c in 0..CELLS {
            let b = self.board[c];
            if b != 0 && Piece(b).side() == self.side {
                self.piece_moves(rules, c, out);
            }
        }
        self.rebirths(rules, out);
    }

    /// Every Rotate action of the side to move: each piece to each facing
    /// other than its own.
    pub fn rotations(&self, out: &mut Vec<Action>) {
        out.clear();
        for c in 0..CELLS {
            let b = self.board[c];
            if b != 0 && Piece(b).side() == self.side {
                let f = Piece(b).facing_index() as u8;
                for g in 0..6u8 {
                    if g != f {
                        out.push(Action::Rotate {
                            at: c as u8,
                            facing: g,
                        });
                    }
                }
            }
        }
    }

    /// Is `a` a legal action for the side to move now (ignoring the template)?
    pub fn is_legal(&self, rules: &Ruleset, a: Action) -> bool {
        if self.is_over() {
            return false;
        }
        match a {
            Action::Move { from, to } => {
                let b = self.board[from as usize];
                if b == 0 || Piece(b).side() != self.side {
                    return false;
                }
                let mut v = Vec::with_capacity(32);
                self.piece_moves(rules, from as usize, &mut v);
                v.contains(&Action::Move { from, to })
            }
            Action::Rebirth { .. } => {
                let mut v = Vec::with_capacity(12);
                self.rebirths(rules, &mut v);
                v.contains(&a)
            }
            // Any of the six facings, its own included (a rotation that
            // changes nothing; games/hexwar.md, "Rotate").
            Action::Rotate { at, facing } => {
                let b = self.board[at as usize];
                b != 0 && Piece(b).side() == self.side && facing < 6
            }
        }
    }

    /// Apply a legal action of the side to move. Capturing a royal piece
    /// ends the game at once.
    #[inline]
    pub fn apply(&mut self, rules: &Ruleset, a: Action) -> Done {
        match a {
            Action::Move { from, to } => {
                let p = Piece(self.board[from as usize]);
                let t = self.board[to as usize];
                self.board[to as usize] = p.0;
                self.board[from as usize] = 0;
                let captured = (t != 0).then_some(Piece(t));
                if let Some(c) = captured {
                    self.graveyard[c.side() as usize][c.kind() as usize] += 1;
                    if rules.kinds[c.kind() as usize].royal {
                        self.finish = Some(Finish {
                            winner: p.side(),
                            how: How::KingCaptured,
                        });
                    }
                }
                Done { piece: p, captured }
            }
            Action::Rebirth { kind, at } => {
                let royal = self.royal(rules, self.side).expect("a royal piece");
                let (rh, ah) = (rules.geo.hex[royal], rules.geo.hex[at as usize]);
                let facing = Dir::ALL
                    .into_iter()
                    .find(|d| ah.step(*d) == rh)
                    .expect("rebirth next to the royal piece");
                let p = Piece::new(kind, self.side, facing);
                self.graveyard[self.side as usize][kind as usize] -= 1;
                self.board[at as usize] = p.0;
                Done {
                    piece: p,
                    captured: None,
                }
            }
            Action::Rotate { at, facing } => {
                let p = Piece(self.board[at as usize]).with_facing(facing);
                self.board[at as usize] = p.0;
                Done {
                    piece: p,
                    captured: None,
                }
            }
        }
    }

    /// End the turn of the side to move: the other side moves; after Black's
    /// move of the last turn the game is adjudicated.
    pub fn end_turn(&mut self, rules: &Ruleset) {
        if self.is_over() {
            return;
        }
        if self.side == super::ruleset::BLACK {
            if self.turn as u32 >= rules.turn_limit {
                self.finish = Some(self.adjudicate(rules));
                return;
            }
            self.turn += 1;
        }
        self.side ^= 1;
    }

    /// The turn-limit result: the royal piece nearer the centre, then more
    /// pieces on the board, then White.
    pub fn adjudicate(&self, rules: &Ruleset) -> Finish {
        let dist = |side| {
            self.royal(rules, side)
                .map(|c| rules.geo.centre_distance[c])
                .unwrap_or(u8::MAX)
        };
        let (w, b) = (dist(0), dist(1));
        if w != b {
            return Finish {
                winner: if w < b { 0 } else { 1 },
                how: How::NearerCentre,
            };
        }
        let (wc, bc) = (self.count(0), self.count(1));
        if wc != bc {
            return Finish {
                winner: if wc > bc { 0 } else { 1 },
                how: How::MorePieces,
            };
        }
        Finish {
            winner: 0,
            how: How::WhiteByDefault,
        }
    }

    /// The side to move gives up.
    pub fn surrender(&mut self) {
        self.finish = Some(Finish {
            winner: self.side ^ 1,
            how: How::Surrender,
        });
    }
}
