//! Seeded randomness (docs/design.md, "Turns, phases and randomness").
//!
//! Every stream is ChaCha20. A phase's dice are seeded from the seed and
//! the orders accepted for the phase (`chain::dice`, docs/trust.md); set-up,
//! stand-ins for missed orders and demo bots draw from
//! `sha256(seed ‖ 0 ‖ game id ‖ 0 ‖ turn ‖ 0 ‖ purpose)` (turn in decimal, 0
//! a zero byte), [`phase_rng`]. Numbers are drawn with our own mapping, not
//! `gen_range`, so a crate upgrade cannot change a game's dice.
//!
//! The rules roll through [`Dice`], which records each roll with what it
//! decided and who may see it: the roll log of the phase.

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

/// Who may see a roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// Every player.
    All,
    /// Only these seats (a combat in the fog: the players in it).
    Only(Vec<usize>),
}

/// One roll as the rules made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rolled {
    pub sides: u32,
    pub value: u32,
    pub what: String,
    pub seen: Seen,
}

/// The dice of one phase: a ChaCha20 stream and, when recording, the log
/// of every roll with its purpose. Rules draw only through [`Dice::roll`].
pub struct Dice<'r> {
    rng: &'r mut ChaCha20Rng,
    log: Option<Vec<Rolled>>,
}

impl<'r> Dice<'r> {
    /// Dice that keep a roll log: every resolve the engine records.
    pub fn recording(rng: &'r mut ChaCha20Rng) -> Dice<'r> {
        Dice {
            rng,
            log: Some(Vec::new()),
        }
    }

    /// Dice that keep nothing: playouts and bots, where only the numbers
    /// matter. The same stream gives the same numbers either way.
    pub fn quiet(rng: &'r mut ChaCha20Rng) -> Dice<'r> {
        Dice { rng, log: None }
    }

    /// Roll a die of `sides` sides (1..=sides). `what` says what the roll
    /// decided, given its value ("attack on 0915: die 4, +2 forest → 6");
    /// it is called only when recording. `[seat N]` in the words becomes
    /// that player's id in the log.
    pub fn roll(&mut self, sides: u32, seen: Seen, what: impl FnOnce(u32) -> String) -> u32 {
        let value = die(self.rng, sides);
        if let Some(log) = &mut self.log {
            log.push(Rolled {
                sides,
                value,
                what: what(value),
                seen,
            });
        }
        value
    }

    /// The rolls made so far, in order (empty when quiet).
    pub fn rolls(self) -> Vec<Rolled> {
        self.log.unwrap_or_default()
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
