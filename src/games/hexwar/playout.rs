//! Random playouts, perft and the demo bot, on the typed state (no JSON, no
//! allocation per move): what benchmarks, playout tests and bots use.

use super::movegen::Action;
use super::piece::Piece;
use super::play::Plan;
use super::ruleset::{Ruleset, Slot, CELLS};
use super::state::State;
use crate::rng::{self, ChaCha20Rng};

/// Buffers reused from turn to turn.
#[derive(Default)]
pub struct Scratch {
    pub moves: Vec<Action>,
    pub rotations: Vec<Action>,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch {
            moves: Vec::with_capacity(128),
            rotations: Vec::with_capacity(128),
        }
    }
}

/// A random rotation for the side to move, or None (skip) with the same
/// chance as each rotation: uniform over the rotations and skipping.
#[inline]
fn random_rotation(st: &State, rng: &mut ChaCha20Rng, own: &[u8], n: usize) -> Option<Action> {
    let k = rng::below(rng, (n * 5 + 1) as u32) as usize;
    if k == n * 5 {
        return None;
    }
    let at = own[k / 5];
    let f = Piece(st.board[at as usize]).facing_index() as u8;
    let g = (k % 5) as u8;
    Some(Action::Rotate {
        at,
        facing: if g >= f { g + 1 } else { g },
    })
}

/// Play one random turn of the side to move under the active template: each
/// Move slot a uniformly random Move action (or none when there is none),
/// each Rotate slot uniform over the rotations and skipping, a
/// move-or-rotate slot uniform over moves, rotations and skipping.
/// Returns the number of actions taken.
#[inline]
pub fn random_turn(
    rules: &Ruleset,
    st: &mut State,
    rng: &mut ChaCha20Rng,
    s: &mut Scratch,
) -> usize {
    random_turn_with(rules, st, rng, s, |_| {})
}

/// [`random_turn`], telling `record` each action before it is applied.
#[inline]
pub fn random_turn_with(
    rules: &Ruleset,
    st: &mut State,
    rng: &mut ChaCha20Rng,
    s: &mut Scratch,
    mut record: impl FnMut(Action),
) -> usize {
    let mut taken = 0;
    let mut own = [0u8; CELLS];
    // the side's pieces, listed again only after a move changed them
    let mut n = 0;
    let mut stale = true;
    for &slot in &rules.templates[st.template as usize].slots {
        if st.is_over() {
            break;
        }
        if stale && slot.takes_rotate() {
            n = 0;
            for c in 0..CELLS {
                let b = st.board[c];
                if b != 0 && Piece(b).side() == st.side {
                    own[n] = c as u8;
                    n += 1;
                }
            }
            stale = false;
        }
        let a = match slot {
            Slot::Move => {
                st.moves(rules, &mut s.moves);
                if s.moves.is_empty() {
                    None
                } else {
                    Some(s.moves[rng::below(rng, s.moves.len() as u32) as usize])
                }
            }
            Slot::Rotate => random_rotation(st, rng, &own, n),
            Slot::MoveOrRotate => {
                st.moves(rules, &mut s.moves);
                let m = s.moves.len();
                let k = rng::below(rng, (m + n * 5 + 1) as u32) as usize;
                if k < m {
                    Some(s.moves[k])
                } else if k == m + n * 5 {
                    None
                } else {
                    let k = k - m;
                    let at = own[k / 5];
                    let f = Piece(st.board[at as usize]).facing_index() as u8;
                    let g = (k % 5) as u8;
                    Some(Action::Rotate {
                        at,
                        facing: if g >= f { g + 1 } else { g },
                    })
                }
            }
        };
        if let Some(a) = a {
            record(a);
            st.apply(rules, a);
            stale |= !a.is_rotate();
            taken += 1;
        }
    }
    st.end_turn(rules);
    taken
}

/// Random turns until the game ends (or `max_turns`). Returns the turns
/// (player moves) played.
pub fn random_game(
    rules: &Ruleset,
    st: &mut State,
    rng: &mut ChaCha20Rng,
    max_turns: usize,
    s: &mut Scratch,
) -> usize {
    let mut played = 0;
    while !st.is_over() && played < max_turns {
        random_turn(rules, st, rng, s);
        played += 1;
    }
    played
}

/// Every whole turn under a one-action template from `st`: each Move
/// action, each rotation, and the pass.
pub fn single_turns(rules: &Ruleset, st: &State, out: &mut Vec<Action>) {
    let mut rot = Vec::new();
    st.moves(rules, out);
    st.rotations(&mut rot);
    out.extend(rot);
}

/// Perft under the one-action template: the number of turn sequences of
/// `depth` turns (a pass counts as a turn; a game that ends stops its line).
pub fn perft_single(rules: &Ruleset, st: &State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if st.is_over() {
        return 0;
    }
    let mut turns = Vec::new();
    single_turns(rules, st, &mut turns);
    let mut total = 0;
    // the pass
    let mut next = st.clone();
    next.end_turn(rules);
    total += perft_single(rules, &next, depth - 1);
    for &a in &turns {
        let mut next = st.clone();
        next.apply(rules, a);
        next.end_turn(rules);
        total += perft_single(rules, &next, depth - 1);
    }
    total
}

/// How many enemy pieces the piece on `cell` could capture now.
fn threats(rules: &Ruleset, st: &State, cell: usize, buf: &mut Vec<Action>) -> i32 {
    buf.clear();
    st.piece_moves(rules, cell, buf);
    buf.iter()
        .filter(|a| matches!(a, Action::Move { to, .. } if st.board[*to as usize] != 0))
        .map(|a| match a {
            Action::Move { to, .. } => {
                let t = Piece(st.board[*to as usize]);
                if rules.kinds[t.kind() as usize].royal {
                    20
                } else {
                    1
                }
            }
            _ => 0,
        })
        .sum()
}

/// Score of a Move action for the bot: captures first (the royal piece
/// above all), then rebirths.
fn move_score(rules: &Ruleset, st: &State, a: Action) -> i32 {
    match a {
        Action::Move { to, .. } => match st.piece(to as usize) {
            Some(t) if rules.kinds[t.kind() as usize].royal => 1000,
            Some(_) => 100,
            None => 0,
        },
        Action::Rebirth { .. } => 50,
        Action::Rotate { .. } => 0,
    }
}

/// The best rotation for the bot: the one that most raises what a piece
/// threatens; none if no rotation raises it.
fn best_rotation(rules: &Ruleset, st: &State, rng: &mut ChaCha20Rng) -> Option<Action> {
    let mut buf = Vec::new();
    let mut best = 0;
    let mut top = Vec::new();
    for (c, p) in st.pieces() {
        if p.side() != st.side {
            continue;
        }
        let now = threats(rules, st, c, &mut buf);
        for f in 0..6u8 {
            if f as usize == p.facing_index() {
                continue;
            }
            let mut t = st.clone();
            let a = Action::Rotate {
                at: c as u8,
                facing: f,
            };
            t.apply(rules, a);
            let gain = threats(rules, &t, c, &mut buf) - now;
            if gain > best {
                best = gain;
                top.clear();
            }
            if gain == best && gain > 0 {
                top.push(a);
            }
        }
    }
    rng::pick(rng, &top).copied()
}

/// The demo bot's turn: the best-scoring Move (captures first; otherwise a
/// random move), then rotations that aim pieces at enemies.
pub fn bot_turn(rules: &Ruleset, st: &State, rng: &mut ChaCha20Rng) -> Plan {
    let template = &rules.templates[st.template as usize];
    let mut sim = st.clone();
    let mut actions = Vec::new();
    let mut moves = Vec::new();
    for &slot in &template.slots {
        if sim.is_over() {
            break;
        }
        let mut choice = None;
        if slot.takes_move() {
            sim.moves(rules, &mut moves);
            let best = moves.iter().map(|a| move_score(rules, &sim, *a)).max();
            if let Some(best) = best {
                let top: Vec<Action> = moves
                    .iter()
                    .copied()
                    .filter(|a| move_score(rules, &sim, *a) == best)
                    .collect();
                if best > 0 || slot == Slot::Move {
                    choice = rng::pick(rng, &top).copied();
                }
            }
        }
        if choice.is_none() && slot.takes_rotate() {
            choice = best_rotation(rules, &sim, rng);
        }
        if choice.is_none() && slot == Slot::MoveOrRotate && !moves.is_empty() {
            choice = rng::pick(rng, &moves).copied();
        }
        if let Some(a) = choice {
            sim.apply(rules, a);
            actions.push(a);
        }
    }
    if actions.is_empty() {
        Plan::Pass
    } else {
        Plan::Actions(actions)
    }
}
