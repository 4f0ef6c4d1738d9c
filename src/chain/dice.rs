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

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::RngCore;

    fn rec(player: &str, text: &str) -> OrderRecord {
        OrderRecord {
            player: player.into(),
            text: text.into(),
            sha256: crate::chain::canon::sha256_hex(text.as_bytes()),
            read: text.split(';').map(str::to_string).collect(),
            nmr: None,
            received: None,
        }
    }

    #[test]
    fn the_orders_steer_the_stream_and_the_same_inputs_repeat_it() {
        let a = [rec("red", "x"), rec("blue", "y")];
        let b = [rec("red", "x"), rec("blue", "z")];
        let draw =
            |o: &[OrderRecord], seed: &str| phase_stream(2, seed, "g", 3, "move", o).next_u64();
        assert_eq!(draw(&a, "s"), draw(&a, "s"));
        assert_ne!(draw(&a, "s"), draw(&b, "s"));
        assert_ne!(draw(&a, "s"), draw(&a, "t"));
        // the orders count, not their order within a file
        let c = [rec("red", "x;w"), rec("blue", "y")];
        let d = [rec("red", "w;x"), rec("blue", "y")];
        assert_eq!(draw(&c, "s"), draw(&d, "s"));
        // format 1 ignores the orders
        assert_eq!(
            phase_stream(1, "s", "g", 3, "move", &a).next_u64(),
            phase_stream(1, "s", "g", 3, "move", &b).next_u64()
        );
    }
}
