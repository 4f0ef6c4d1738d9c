//! Movement, push combat, chains, the Throne, eliminations, rounds and
//! starvation: the rules of play in one place.

use super::ruleset::Ruleset;
use super::state::{Phase, Piece, State, SLOTS};
use crate::board::{Dir, Hex};
use serde::{Deserialize, Serialize};

/// One piece's move: `W3 NE 2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Move {
    /// 0 for the Jarl, 1..=9 for W1..W9.
    pub piece: u8,
    pub dir: Dir,
    pub steps: u8,
}

/// Why a Shield cannot be drafted onto a hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoShield {
    OffBoard,
    Throne,
    Edge,
    Taken,
    /// It would close the last straight line from this seat's Jarl to the Throne.
    ClosesLine {
        seat: usize,
    },
}

impl std::fmt::Display for NoShield {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoShield::OffBoard => f.write_str("that hex is not on the board"),
            NoShield::Throne => f.write_str("a Shield never stands on the Throne"),
            NoShield::Edge => f.write_str("a Shield never stands on an edge hex"),
            NoShield::Taken => f.write_str("that hex is taken"),
            NoShield::ClosesLine { seat } => write!(
                f,
                "it would close the last straight line from seat {}'s Jarl to the Throne",
                seat + 1
            ),
        }
    }
}

/// A Shield order the draft refuses: the hex and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShieldRefused {
    pub hex: String,
    pub why: NoShield,
}

impl std::fmt::Display for ShieldRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no Shield on {}: {}", self.hex, self.why)
    }
}

crate::games::rules_error::rules_detail!(ShieldRefused, |self| K::Illegal);

/// Why a move cannot be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    NoSuchPiece,
    Steps { max: u8 },
    NoDraft,
    OffBoard(Hex),
    Shield(Hex),
    Own(Hex, usize),
    InPath(Hex, usize),
    ThroneWarrior(Hex),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceRef {
    pub seat: u8,
    pub piece: u8,
}

impl PieceRef {
    pub fn of(p: &Piece) -> PieceRef {
        PieceRef {
            seat: p.seat,
            piece: p.number,
        }
    }
}

/// Attack or defence, term by term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub strength: u32,
    pub momentum: u32,
    /// Inline support (attack) or bracing (defence).
    pub line: u32,
}

impl Tally {
    pub fn total(&self) -> u32 {
        self.strength + self.momentum + self.line
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    Shield,
    Throne,
    Ally,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum PushResult {
    /// Attack ≤ defence: the mover stops adjacent.
    Blocked,
    /// Attack > defence, but the chain has no room: nothing moves, the mover
    /// stops adjacent.
    Compressed { against: Hex, by: Stop },
    /// The chain moved one hex.
    Pushed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shift {
    pub who: PieceRef,
    pub from: Hex,
    /// `None`: pushed off the board.
    pub to: Option<Hex>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// Its Jarl was lost, so the Warrior leaves the game.
    JarlLost,
    Starved,
    /// The board shrank under it (sudden death).
    Shrunk,
    /// Its player dropped out after missing orders (the Jarl; the Warriors
    /// then leave with it).
    DroppedOut,
    /// Its player resigned (the Jarl; the Warriors then leave with it).
    Resigned,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    ShieldPlaced {
        seat: u8,
        at: Hex,
    },
    Moved {
        who: PieceRef,
        from: Hex,
        to: Hex,
    },
    Push {
        who: PieceRef,
        from: Hex,
        /// Where the mover ended.
        to: Hex,
        target: PieceRef,
        target_at: Hex,
        /// The first hex past the mover's line of supporters (behind its
        /// start) and past the line of pieces from the target on: what a
        /// report must be able to see before it may give the numbers.
        support_end: Hex,
        line_end: Hex,
        attack: Tally,
        defence: Tally,
        outcome: PushResult,
        shifted: Vec<Shift>,
    },
    Removed {
        who: PieceRef,
        at: Hex,
        cause: Cause,
    },
    Starving {
        seat: u8,
    },
    Eliminated {
        seat: u8,
    },
    Skipped {
        seat: u8,
    },
    Shrunk {
        radius: i32,
    },
    RoundEnded {
        round: u32,
        stalemate: u32,
    },
    Won {
        seats: Vec<u8>,
        how: String,
    },
    Draw {
        seats: Vec<u8>,
        how: String,
    },
}

impl State {
    fn strength(&self, rules: &Ruleset, piece: usize) -> u32 {
        if self.pieces[piece].is_jarl() {
            rules.pieces.jarl_strength
        } else {
            rules.pieces.warrior_strength
        }
    }

    /// Sum of the strengths of the pieces friendly to `seat` lined up from
    /// `start` (exclusive) in `dir`.
    fn line_strength(&self, rules: &Ruleset, start: Hex, dir: Dir, seat: usize) -> u32 {
        let mut sum = 0;
        let mut h = start.step(dir);
        while let Some(o) = self.piece_at(h) {
            if !self.friendly(self.pieces[o].seat as usize, seat) {
                break;
            }
            sum += self.strength(rules, o);
            h = h.step(dir);
        }
        sum
    }

    /// Does the Jarl at `at` have draft for a move in `dir`?
    pub fn has_draft(&self, rules: &Ruleset, seat: usize, at: Hex, dir: Dir) -> bool {
        let back = dir.opposite();
        (1..=rules.pieces.draft_warriors as i32).all(|k| match self.piece_at(at.steps(back, k)) {
            Some(o) => self.pieces[o].seat as usize == seat && !self.pieces[o].is_jarl(),
            None => false,
        })
    }

    /// Can `seat` make this move now? On success, the hex the move reaches.
    pub fn check_move(&self, rules: &Ruleset, seat: usize, mv: Move) -> Result<Hex, Illegal> {
        if mv.piece as usize >= SLOTS {
            return Err(Illegal::NoSuchPiece);
        }
        let idx = State::slot(seat, mv.piece);
        let Some(at) = self.pieces[idx].at else {
            return Err(Illegal::NoSuchPiece);
        };
        let jarl = mv.piece == 0;
        let max = if jarl {
            2
        } else {
            rules.pieces.warrior_steps as u8
        };
        if mv.steps == 0 || mv.steps > max {
            return Err(Illegal::Steps { max });
        }
        if jarl && mv.steps == 2 && !self.has_draft(rules, seat, at, mv.dir) {
            return Err(Illegal::NoDraft);
        }
        for i in 1..=mv.steps as i32 {
            let h = at.steps(mv.dir, i);
            if !self.on_board(h) {
                return Err(Illegal::OffBoard(h));
            }
            if h == Hex::ORIGIN && !jarl {
                return Err(Illegal::ThroneWarrior(h));
            }
            if self.is_shield(h) {
                return Err(Illegal::Shield(h));
            }
            match self.piece_at(h) {
                None if h == Hex::ORIGIN => return Ok(h), // the Throne stops a Jarl
                None => {}
                Some(o) => {
                    if self.friendly(self.pieces[o].seat as usize, seat) {
                        return Err(Illegal::Own(h, o));
                    }
                    if i < mv.steps as i32 {
                        return Err(Illegal::InPath(h, o));
                    }
                    return Ok(h);
                }
            }
        }
        Ok(at.steps(mv.dir, mv.steps as i32))
    }

    /// Every distinct legal move of `seat` (a Jarl's two-step that the Throne
    /// stops after one is listed once, as the one-step).
    pub fn moves(&self, rules: &Ruleset, seat: usize, out: &mut Vec<Move>) {
        out.clear();
        for (idx, p) in self.pieces_of(seat) {
            let at = p.at.expect("pieces_of lists pieces on the board");
            let number = (idx % SLOTS) as u8;
            for dir in Dir::ALL {
                for steps in 1..=2u8 {
                    let mv = Move {
                        piece: number,
                        dir,
                        steps,
                    };
                    if steps == 2 && (number == 0 && at.step(dir) == Hex::ORIGIN) {
                        continue;
                    }
                    if self.check_move(rules, seat, mv).is_ok() {
                        out.push(mv);
                    }
                }
            }
        }
    }

    pub fn has_move(&self, rules: &Ruleset, seat: usize) -> bool {
        for (idx, _) in self.pieces_of(seat) {
            let number = (idx % SLOTS) as u8;
            for dir in Dir::ALL {
                if self
                    .check_move(
                        rules,
                        seat,
                        Move {
                            piece: number,
                            dir,
                            steps: 1,
                        },
                    )
                    .is_ok()
                {
                    return true;
                }
            }
        }
        false
    }

    /// Play a legal move of the seat to move, then pass the turn on.
    pub fn play(&mut self, rules: &Ruleset, mv: Move, ev: &mut Vec<Event>) {
        let seat = self.to_move().expect("a seat to move");
        debug_assert!(self.check_move(rules, seat, mv).is_ok());
        let throne = self.execute(rules, seat, mv, ev);
        if throne {
            let seats = self.team_seats(seat);
            self.finish(ev, Some(seats), "took the Throne".into());
            return;
        }
        if self.settle(ev) {
            return;
        }
        self.next += 1;
        self.seek(rules, ev);
    }

    /// The seat passes its turn (no move given: missed orders).
    pub fn pass(&mut self, rules: &Ruleset, ev: &mut Vec<Event>) {
        if let Some(seat) = self.to_move() {
            ev.push(Event::Skipped { seat: seat as u8 });
            self.next += 1;
            self.seek(rules, ev);
        }
    }

    /// Carry out a move; true if it wins by the Throne.
    ///
    /// Long (about 140 lines): one move carried out in the rules' order (the
    /// walk, the push, the fall, the capture, the Throne), each step on the
    /// position the one before leaves, every event told on the way.
    pub(super) fn execute(
        &mut self,
        rules: &Ruleset,
        seat: usize,
        mv: Move,
        ev: &mut Vec<Event>,
    ) -> bool {
        let idx = State::slot(seat, mv.piece);
        let from = self.pieces[idx].at.expect("a piece on the board");
        let jarl = mv.piece == 0;
        let who = PieceRef::of(&self.pieces[idx]);
        // Walk the path: up to the first piece, or the Throne.
        let mut reached = from;
        let mut target = None;
        for i in 1..=mv.steps as i32 {
            let h = from.steps(mv.dir, i);
            if let Some(o) = self.piece_at(h) {
                target = Some((o, h, i));
                break;
            }
            reached = h;
            if h == Hex::ORIGIN {
                break;
            }
        }
        let Some((t, t_at, i)) = target else {
            self.put(idx, Some(reached));
            ev.push(Event::Moved {
                who,
                from,
                to: reached,
            });
            return jarl && reached == Hex::ORIGIN;
        };
        let target_ref = PieceRef::of(&self.pieces[t]);
        let t_seat = self.pieces[t].seat as usize;
        let drafted = jarl && mv.steps == 2;
        let attack = Tally {
            strength: self.strength(rules, idx),
            momentum: u32::from(i == 2),
            line: if drafted {
                0
            } else {
                self.line_strength(rules, from, mv.dir.opposite(), seat)
            },
        };
        let defence = Tally {
            strength: self.strength(rules, t),
            momentum: 0,
            line: self.line_strength(rules, t_at, mv.dir, t_seat),
        };
        let back = mv.dir.opposite();
        let mut support_end = from.step(back);
        while self
            .piece_at(support_end)
            .is_some_and(|o| self.friendly(self.pieces[o].seat as usize, seat))
        {
            support_end = support_end.step(back);
        }
        let mut line_end = t_at;
        while self.piece_at(line_end).is_some() {
            line_end = line_end.step(mv.dir);
        }
        let mut push = |to: Hex, outcome: PushResult, shifted: Vec<Shift>| {
            ev.push(Event::Push {
                who,
                from,
                to,
                target: target_ref,
                target_at: t_at,
                support_end,
                line_end,
                attack,
                defence,
                outcome,
                shifted,
            });
        };
        if attack.total() <= defence.total() {
            self.put(idx, Some(reached));
            push(reached, PushResult::Blocked, Vec::new());
            return false;
        }
        // The chain: every piece lined up from the target on.
        let mut chain = Vec::new();
        let mut h = t_at;
        while let Some(o) = self.piece_at(h) {
            chain.push((o, h));
            h = h.step(mv.dir);
        }
        let beyond = h;
        let mut stop = None;
        for &(o, at) in &chain {
            if self.options.teams && self.friendly(self.pieces[o].seat as usize, seat) {
                stop = Some((at, Stop::Ally));
                break;
            }
            if at.step(mv.dir) == Hex::ORIGIN && !self.pieces[o].is_jarl() {
                stop = Some((Hex::ORIGIN, Stop::Throne));
                break;
            }
        }
        if stop.is_none() && self.is_shield(beyond) {
            stop = Some((beyond, Stop::Shield));
        }
        if let Some((against, by)) = stop {
            self.put(idx, Some(reached));
            push(reached, PushResult::Compressed { against, by }, Vec::new());
            return false;
        }
        let mut shifted = Vec::with_capacity(chain.len());
        let mut fell = None;
        for &(o, at) in chain.iter().rev() {
            let dest = at.step(mv.dir);
            let to = if self.on_board(dest) {
                Some(dest)
            } else {
                None
            };
            if to.is_none() {
                fell = Some(o);
            }
            self.put(o, to);
            shifted.push(Shift {
                who: PieceRef::of(&self.pieces[o]),
                from: at,
                to,
            });
        }
        shifted.reverse();
        self.put(idx, Some(t_at));
        push(t_at, PushResult::Pushed, shifted);
        if let Some(o) = fell {
            self.eliminated_this_round = true;
            if self.pieces[o].is_jarl() {
                self.eliminate(self.pieces[o].seat as usize, ev);
            }
        }
        jarl && t_at == Hex::ORIGIN
    }

    /// A player dropped out after missing orders (issue 7): they are
    /// eliminated as if their Jarl were lost, every piece leaves the board,
    /// and play goes on with the others (or ends if one side is left).
    pub fn drop_out(&mut self, rules: &Ruleset, seat: usize) -> Vec<Event> {
        self.leave(rules, seat, Cause::DroppedOut)
    }

    /// A player resigned (issue 52): as dropping out, the cause told.
    pub fn resign(&mut self, rules: &Ruleset, seat: usize) -> Vec<Event> {
        self.leave(rules, seat, Cause::Resigned)
    }

    /// Every player still in agreed to a draw (issue 52).
    pub fn agree_draw(&mut self) -> Vec<Event> {
        let mut ev = Vec::new();
        self.finish(&mut ev, None, crate::games::game::DRAWN_BY_AGREEMENT.into());
        ev
    }

    fn leave(&mut self, rules: &Ruleset, seat: usize, cause: Cause) -> Vec<Event> {
        let mut ev = Vec::new();
        if self.phase == Phase::Over || !self.seats[seat].alive {
            return ev;
        }
        self.remove(State::slot(seat, 0), cause, &mut ev);
        self.eliminate(seat, &mut ev);
        self.eliminated_this_round = true;
        if !self.settle(&mut ev) {
            self.seek(rules, &mut ev);
        }
        ev
    }

    /// A player's Jarl is gone: their Warriors leave too.
    fn eliminate(&mut self, seat: usize, ev: &mut Vec<Event>) {
        self.seats[seat].alive = false;
        self.seats[seat].starving = false;
        for k in 0..SLOTS {
            let idx = State::slot(seat, k as u8);
            if let Some(at) = self.pieces[idx].at {
                self.put(idx, None);
                ev.push(Event::Removed {
                    who: PieceRef::of(&self.pieces[idx]),
                    at,
                    cause: Cause::JarlLost,
                });
            }
        }
        ev.push(Event::Eliminated { seat: seat as u8 });
    }

    /// Remove one piece for a cause other than a push.
    fn remove(&mut self, idx: usize, cause: Cause, ev: &mut Vec<Event>) {
        if let Some(at) = self.pieces[idx].at {
            self.put(idx, None);
            ev.push(Event::Removed {
                who: PieceRef::of(&self.pieces[idx]),
                at,
                cause,
            });
            if self.pieces[idx].is_jarl() {
                let seat = self.pieces[idx].seat as usize;
                self.eliminate(seat, ev);
            }
        }
    }

    pub fn team_seats(&self, seat: usize) -> Vec<u8> {
        let team = self.seats[seat].team;
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.team == team)
            .map(|(i, _)| i as u8)
            .collect()
    }

    fn finish(&mut self, ev: &mut Vec<Event>, winners: Option<Vec<u8>>, how: String) {
        match &winners {
            Some(seats) => ev.push(Event::Won {
                seats: seats.clone(),
                how: how.clone(),
            }),
            None => {
                let seats: Vec<u8> = self.alive_seats().map(|s| s as u8).collect();
                ev.push(Event::Draw {
                    seats,
                    how: how.clone(),
                });
            }
        }
        self.winners = Some(winners.unwrap_or_default());
        self.result = Some(how);
        self.phase = Phase::Over;
    }

    /// Last standing: end the game if one team (or none) has a Jarl left.
    fn settle(&mut self, ev: &mut Vec<Event>) -> bool {
        // Teams are seat numbers (at most 6), so a bit mask counts them.
        let teams = self
            .alive_seats()
            .fold(0u32, |m, s| m | 1 << self.seats[s].team);
        match teams.count_ones() {
            0 => {
                self.finish(ev, None, "every remaining Jarl was lost at once".into());
                true
            }
            1 => {
                let seat = self.alive_seats().next().expect("one team alive");
                let seats = self.team_seats(seat);
                self.finish(ev, Some(seats), "last standing".into());
                true
            }
            _ => false,
        }
    }

    /// This round's seats in playing order: clockwise from the round's
    /// starting seat, which moves one seat clockwise each round.
    pub fn round_order(&self) -> Vec<u8> {
        let n = self.seats.len();
        let start = (self.round.saturating_sub(1) as usize) % n;
        (0..n)
            .map(|k| (start + k) % n)
            .filter(|&s| self.seats[s].alive)
            .map(|s| s as u8)
            .collect()
    }

    /// Start play after setup (or after the shield draft).
    pub fn begin(&mut self, rules: &Ruleset, ev: &mut Vec<Event>) {
        self.phase = Phase::Move;
        self.round = 1;
        self.order = self.round_order();
        self.next = 0;
        self.seek(rules, ev);
    }

    /// From `next`, find the seat to move: skip the eliminated and those
    /// with no legal move, ending rounds as they run out.
    pub fn seek(&mut self, rules: &Ruleset, ev: &mut Vec<Event>) {
        let mut idle = 0usize;
        loop {
            if self.phase == Phase::Over {
                return;
            }
            if self.next >= self.order.len() {
                self.end_round(rules, ev);
                if self.phase == Phase::Over {
                    return;
                }
                continue;
            }
            let seat = self.order[self.next] as usize;
            if self.seats[seat].alive {
                if self.has_move(rules, seat) {
                    return;
                }
                ev.push(Event::Skipped { seat: seat as u8 });
                idle += 1;
                if idle > 10_000 {
                    self.finish(
                        ev,
                        None,
                        "no player could move for ten thousand turns".into(),
                    );
                    return;
                }
            }
            self.next += 1;
        }
    }

    fn end_round(&mut self, rules: &Ruleset, ev: &mut Vec<Event>) {
        if self.eliminated_this_round {
            self.stalemate = 0;
            for s in self.seats.iter_mut() {
                s.starving = false;
            }
        } else {
            self.stalemate += 1;
        }
        self.eliminated_this_round = false;
        ev.push(Event::RoundEnded {
            round: self.round,
            stalemate: self.stalemate,
        });
        if self.options.sudden_death {
            if rules.sudden_death.triggers(self.stalemate) {
                self.shrink(ev);
            }
        } else if rules.starvation.triggers(self.stalemate) {
            self.starve(ev);
        }
        if self.settle(ev) {
            return;
        }
        self.round += 1;
        self.order = self.round_order();
        self.next = 0;
    }

    /// Starvation: every player loses the Warrior farthest from the Throne
    /// (their standing preference among equals, else the lowest number); a
    /// player with none left has a starving Jarl, lost at the next starvation.
    fn starve(&mut self, ev: &mut Vec<Event>) {
        let seats: Vec<usize> = self.alive_seats().collect();
        for seat in seats {
            if self.seats[seat].starving {
                self.remove(State::slot(seat, 0), Cause::Starved, ev);
                continue;
            }
            let warriors: Vec<(usize, i32, u8)> = self
                .pieces_of(seat)
                .filter(|(_, p)| !p.is_jarl())
                .map(|(i, p)| (i, p.at.expect("on board").length(), p.number))
                .collect();
            if let Some(far) = warriors.iter().map(|w| w.1).max() {
                let tied: Vec<&(usize, i32, u8)> = warriors.iter().filter(|w| w.1 == far).collect();
                let pref = &self.seats[seat].starve_preference;
                let chosen = pref
                    .iter()
                    .find_map(|n| tied.iter().find(|w| w.2 == *n))
                    .or_else(|| tied.iter().min_by_key(|w| w.2))
                    .expect("a tied warrior");
                let idx = chosen.0;
                self.remove(idx, Cause::Starved, ev);
                if warriors.len() == 1 {
                    self.seats[seat].starving = true;
                    ev.push(Event::Starving { seat: seat as u8 });
                }
            } else {
                self.seats[seat].starving = true;
                ev.push(Event::Starving { seat: seat as u8 });
            }
        }
    }

    /// Sudden death: the outer ring becomes the edge; what stood there falls.
    fn shrink(&mut self, ev: &mut Vec<Event>) {
        if self.radius == 0 {
            return;
        }
        let radius = self.radius - 1;
        ev.push(Event::Shrunk { radius });
        let shields: Vec<Hex> = self
            .shields
            .iter()
            .copied()
            .filter(|h| h.length() > radius)
            .collect();
        for h in shields {
            self.remove_shield(h);
        }
        let mut falling: Vec<usize> = (0..self.pieces.len())
            .filter(|&i| self.pieces[i].at.is_some_and(|h| h.length() > radius))
            .collect();
        // Warriors first, so a falling Jarl's own Warriors are reported as fallen.
        falling.sort_by_key(|&i| (self.pieces[i].is_jarl(), i));
        for i in falling {
            if self.pieces[i].at.is_some() {
                self.remove(i, Cause::Shrunk, ev);
            }
        }
        self.radius = radius;
    }

    /// Is there a straight hex line from `jarl` to the Throne with no Shield
    /// on it (either way a tie in the line is broken)?
    pub fn free_line(shields: &[Hex], jarl: Hex) -> bool {
        [1, -1].into_iter().any(|nudge| {
            let line = jarl.line_to(Hex::ORIGIN, nudge);
            line[1..line.len().saturating_sub(1)]
                .iter()
                .all(|h| !shields.contains(h))
        })
    }

    /// Can a Shield be drafted onto `h`?
    pub fn shield_spot(&self, h: Hex) -> Result<(), NoShield> {
        if !self.on_board(h) {
            return Err(NoShield::OffBoard);
        }
        if h == Hex::ORIGIN {
            return Err(NoShield::Throne);
        }
        if h.length() == self.radius {
            return Err(NoShield::Edge);
        }
        if self.cell(h) != super::state::EMPTY {
            return Err(NoShield::Taken);
        }
        let mut shields = self.shields.clone();
        shields.push(h);
        for seat in self.alive_seats() {
            if let Some(j) = self.jarl(seat).at {
                if !State::free_line(&shields, j) {
                    return Err(NoShield::ClosesLine { seat });
                }
            }
        }
        Ok(())
    }

    /// Place a drafted Shield and, once all are placed, start play.
    pub fn place_shield(&mut self, rules: &Ruleset, h: Hex, ev: &mut Vec<Event>) {
        let seat = self.shield_order.remove(0);
        self.add_shield(h);
        ev.push(Event::ShieldPlaced { seat, at: h });
        if self.shield_order.is_empty() {
            self.begin(rules, ev);
        }
    }
}
