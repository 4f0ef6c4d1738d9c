//! Seeded randomness (DESIGN.md, "Determinism and verifiable dice").
//!
//! Each phase gets its own ChaCha20 stream seeded from
//! `sha256(seed ‖ 0 ‖ game id ‖ 0 ‖ turn ‖ 0 ‖ phase)` (turn in decimal, 0 a
//! zero byte). Numbers are drawn with our own mapping, not `gen_range`, so a
//! crate upgrade cannot change a game's dice.

use rand_chacha::rand_core::{RngCore, SeedableRng};
pub use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};

pub fn phase_rng(seed: &str, game_id: &str, turn: u32, phase: &str) -> ChaCha20Rng {
    let mut h = Sha256::new();
    h.update(seed.as_bytes());
    h.update([0]);
    h.update(game_id.as_bytes());
    h.update([0]);
    h.update(turn.to_string().as_bytes());
    h.update([0]);
    h.update(phase.as_bytes());
    ChaCha20Rng::from_seed(h.finalize().into())
}

/// A ChaCha20 stream from a plain number, for bots and tests.
pub fn from_u64(n: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(n)
}

/// A uniform number in `0..n` (n > 0), by rejection so every value is
/// equally likely.
pub fn below(rng: &mut impl RngCore, n: u32) -> u32 {
    assert!(n > 0, "below(0)");
    let zone = u32::MAX - (u32::MAX % n);
    loop {
        let x = rng.next_u32();
        if x < zone {
            return x % n;
        }
    }
}

/// A die of `sides` sides: 1..=sides.
pub fn die(rng: &mut impl RngCore, sides: u32) -> u32 {
    below(rng, sides) + 1
}

/// Pick one element uniformly.
pub fn pick<'a, T>(rng: &mut impl RngCore, items: &'a [T]) -> Option<&'a T> {
    if items.is_empty() {
        None
    } else {
        Some(&items[below(rng, items.len() as u32) as usize])
    }
}

/// 32 bytes from the operating system, as lowercase hex.
pub fn os_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::getrandom(&mut buf).expect("the operating system's random source failed");
    hex(&buf)
}

pub fn hex(bytes: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(D[(b >> 4) as usize] as char);
        s.push(D[(b & 15) as usize] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_streams_are_fixed_and_distinct() {
        let mut a = phase_rng("42", "g", 1, "move");
        let mut b = phase_rng("42", "g", 1, "move");
        let mut c = phase_rng("42", "g", 2, "move");
        let (x, y, z) = (a.next_u64(), b.next_u64(), c.next_u64());
        assert_eq!(x, y);
        assert_ne!(x, z);
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = from_u64(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[below(&mut r, 6) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800 && n < 1200), "{seen:?}");
    }
}
