//! Random playouts and the demo bot, on the typed state (no JSON, no files):
//! what benchmarks, playout tests and bots use.

use super::play::{Event, Move};
use super::ruleset::Ruleset;
use super::state::{Opts, Phase, State};
use crate::board::Hex;
use crate::rng::{self, ChaCha20Rng};

/// Play uniformly random legal moves until the game ends or `max_moves`
/// moves are made. Shield drafts are placed at random legal spots.
/// Returns the number of moves played. `events` is reused and cleared.
pub fn random_game(
    rules: &Ruleset,
    st: &mut State,
    rng: &mut ChaCha20Rng,
    max_moves: usize,
    events: &mut Vec<Event>,
) -> usize {
    let mut moves = Vec::with_capacity(64);
    let mut played = 0;
    while played < max_moves {
        events.clear();
        match st.phase {
            Phase::Over => break,
            Phase::Shields => {
                let spots: Vec<Hex> = Hex::spiral_area(st.radius)
                    .into_iter()
                    .filter(|h| st.shield_spot(*h).is_ok())
                    .collect();
                match rng::pick(rng, &spots) {
                    Some(&h) => st.place_shield(rules, h, events),
                    None => {
                        st.shield_order.clear();
                        st.begin(rules, events);
                    }
                }
            }
            Phase::Move => {
                let seat = st.to_move().expect("a seat to move");
                st.moves(rules, seat, &mut moves);
                let mv = moves[rng::below(rng, moves.len() as u32) as usize];
                st.play(rules, mv, events);
                played += 1;
            }
        }
    }
    played
}

/// A fresh standard game for `players` seats.
pub fn new_game(rules: &Ruleset, players: usize, opts: Opts, rng: &mut ChaCha20Rng) -> State {
    super::setup::standard(rules, players, opts, rng)
        .expect("the standard setup works for the table's player counts")
        .0
}

/// The demo bot: take the Throne if it can, else push an enemy piece off
/// the board if it can, else avoid losing its own Jarl, else a random move.
pub fn bot_move(rules: &Ruleset, st: &State, rng: &mut ChaCha20Rng) -> Option<Move> {
    let seat = st.to_move()?;
    let mut moves = Vec::new();
    st.moves(rules, seat, &mut moves);
    if moves.is_empty() {
        return None;
    }
    let mut scored: Vec<(i32, Move)> = Vec::with_capacity(moves.len());
    let mut events = Vec::new();
    for &m in &moves {
        let mut next = st.clone();
        events.clear();
        next.play(rules, m, &mut events);
        let mut score = 0;
        if next
            .winners
            .as_ref()
            .is_some_and(|w| w.contains(&(seat as u8)))
        {
            score += 1000;
        }
        for e in &events {
            if let Event::Push { shifted, .. } = e {
                for s in shifted.iter().filter(|s| s.to.is_none()) {
                    let theirs = !st.friendly(s.who.seat as usize, seat);
                    let jarl = s.who.piece == 0;
                    score += match (theirs, jarl) {
                        (true, true) => 500,
                        (true, false) => 50,
                        (false, true) => -1000,
                        (false, false) => -50,
                    };
                }
            }
        }
        // A Jarl closer to the Throne is worth a little.
        if let Some(j) = next.jarl(seat).at {
            score -= j.length();
        }
        scored.push((score, m));
    }
    let best = scored.iter().map(|s| s.0).max()?;
    let top: Vec<Move> = scored
        .into_iter()
        .filter(|s| s.0 == best)
        .map(|s| s.1)
        .collect();
    rng::pick(rng, &top).copied()
}
