//! Where a phase's dice come from (docs/trust.md, "Dice").
//!
//! Format 2: the phase's ChaCha20 stream is seeded with
//! `sha256("herald/2 dice\n" ‖ seed ‖ "\n" ‖ game id ‖ "\n" ‖ turn ‖ "\n" ‖
//! phase ‖ "\n" ‖ orders ‖ "\n")`, where `orders` is the sha256 of one line
//! `<player> <order>\n` per order of the phase as herald read it (the
//! log's `read` lists), the players in seat order and each player's orders
//! sorted, stand-ins for missed orders included: the orders, not the bytes
//! of the files (a comment or the order of lines in a simultaneous game
//! changes nothing). The moderator, who knows the seed, cannot know a roll
//! before every order is in; a player, who does not know the seed, cannot
//! choose one.
//!
//! Format 1 (games begun by herald 0.1, kept on conversion): the seed alone,
//! [`crate::rng::phase_rng`].

use super::body::OrderRecord;
use super::canon::sha256_lines;
use crate::rng::{self, ChaCha20Rng};
use rand_chacha::rand_core::SeedableRng;

/// The digest of a phase's orders that the dice are drawn from.
pub fn orders_digest(orders: &[OrderRecord]) -> String {
    let mut lines: Vec<String> = Vec::new();
    for o in orders {
        let mut read = o.read.clone();
        read.sort();
        lines.extend(read.iter().map(|r| format!("{} {r}", o.player)));
    }
    let parts: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
    sha256_lines(&parts)
}

/// The stream a phase rolls from, by the phase's `dice` derivation.
pub fn phase_stream(
    derivation: u32,
    seed: &str,
    game_id: &str,
    turn: u32,
    phase: &str,
    orders: &[OrderRecord],
) -> ChaCha20Rng {
    if derivation == 1 {
        return rng::phase_rng(seed, game_id, turn, phase);
    }
    let turn = turn.to_string();
    let digest = orders_digest(orders);
    let h = sha256_lines(&[
        b"herald/2 dice",
        seed.as_bytes(),
        game_id.as_bytes(),
        turn.as_bytes(),
        phase.as_bytes(),
        digest.as_bytes(),
    ]);
    let mut bytes = [0u8; 32];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(&h[2 * i..2 * i + 2], 16).expect("sha256 hex");
    }
    ChaCha20Rng::from_seed(bytes)
}
