//! Random playouts and the demo bot, on the typed state (no JSON, no
//! files): what benchmarks, playout tests and `herald demo` use.

use super::play::{Action, Event};
use super::ruleset::Ruleset;
use super::setup::{self, Opts};
use super::state::{Side, Square, State};
use crate::rng::{self, ChaCha20Rng};

/// A fresh game on an N×N board.
pub fn new_game(rules: &Ruleset, size: u8, move_onto_own: bool) -> State {
    setup::standard(
        rules,
        Opts {
            size,
            move_onto_own,
        },
    )
}

/// Play uniformly random legal actions (never resigning) until the game
/// ends or `max_moves` actions are played. Returns the actions played.
/// `events` is reused and cleared.
pub fn random_game(
    st: &mut State,
    rng: &mut ChaCha20Rng,
    max_moves: usize,
    events: &mut Vec<Event>,
) -> usize {
    let mut actions = Vec::with_capacity(128);
    let mut played = 0;
    while played < max_moves {
        let Some(side) = st.mover() else { break };
        events.clear();
        st.actions(side, &mut actions);
        let a = actions[rng::below(rng, actions.len() as u32) as usize];
        st.play(a, events);
        played += 1;
    }
    played
}

/// A lone army of `side` on `sq` that an enemy lone army could attack next.
fn exposed(st: &State, side: Side, sq: Square) -> bool {
    sq.neighbours(st.size)
        .any(|n| st.at(n).is_some_and(|s| s.side != side && s.armies == 1))
}

/// Quiet turns after which the bot stops avoiding exposed squares.
const BOLD_AFTER: u32 = 6;

/// How much the bot likes an action.
fn score(st: &State, side: Side, a: Action) -> i32 {
    let n = st.size;
    let goal = side.other().baseline(n);
    let home = side.baseline(n);
    let to_goal = |sq: Square| sq.row.abs_diff(goal) as i32;
    let to_home = |sq: Square| sq.row.abs_diff(home) as i32;
    match a {
        Action::Resign => i32::MIN,
        Action::Attack { from, to } => {
            let left = st.at(to).map_or(0, |s| s.armies) - 1;
            let mut s = 300;
            if left == 0 {
                s += if to.row == goal { 1000 } else { 100 };
            }
            // Enemy armies near our baseline are about to invade.
            s += 40 * (3 - to_home(to)).max(0);
            if left == 0 && to.row != goal {
                let mut after = st.clone();
                after.set(from, None);
                after.set(to, None);
                if exposed(&after, side, to) {
                    s -= 50;
                }
            }
            s
        }
        Action::Move { from, to } => {
            if to.row == goal {
                return 1000;
            }
            let mut s = 10 * (to_goal(from) - to_goal(to));
            if to_goal(to) == 1 {
                s += 30;
            }
            // Caution while the game moves; boldness once it stalls.
            let lone = st.at(to).is_none();
            if lone && exposed(st, side, to) && st.quiet < BOLD_AFTER {
                s -= 60;
            }
            // Leaving a lone army behind where it can be attacked.
            if st.at(from).is_some_and(|s| s.armies == 2) && exposed(st, side, from) {
                s -= 20;
            }
            s
        }
        Action::Fortify(at) => {
            let mut s = 40;
            let enemy_near = at
                .neighbours(n)
                .any(|q| st.at(q).is_some_and(|s| s.side != side));
            if enemy_near {
                s += 30;
            }
            if st.at(at).is_some() {
                s -= 15; // prefer spreading out over tall stacks
            }
            s
        }
    }
}

/// The demo bot: invade when it can, then attack (enemies near home first),
/// then fortify and advance; ties broken at random. Never resigns.
pub fn bot_action(st: &State, rng: &mut ChaCha20Rng) -> Option<Action> {
    let side = st.mover()?;
    let mut all = Vec::new();
    st.actions(side, &mut all);
    if all.is_empty() {
        return Some(Action::Resign); // cannot happen: a stuck player passes
    }
    let scored: Vec<(i32, Action)> = all.iter().map(|&a| (score(st, side, a), a)).collect();
    let best = scored.iter().map(|s| s.0).max()?;
    let top: Vec<Action> = scored
        .into_iter()
        .filter(|s| s.0 == best)
        .map(|s| s.1)
        .collect();
    rng::pick(rng, &top).copied()
}
