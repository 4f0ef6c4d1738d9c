//! Player passwords: generated, hashed with Argon2id, checked in constant
//! time. The game file keeps only the PHC string
//! (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), never the password.

use crate::rng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// How hard a password hash is to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cost {
    /// Argon2id with the crate's recommended parameters (19 MiB, 2 passes):
    /// every real game.
    Standard,
    /// Argon2id with 64 KiB and one pass: demos, whose passwords come from
    /// the seed and so are public once the game ends, and tests that play
    /// thousands of games. The parameters are in the hash string, so
    /// checking needs no flag.
    Light,
}

fn hasher(cost: Cost) -> Argon2<'static> {
    let params = match cost {
        Cost::Standard => Params::default(),
        Cost::Light => Params::new(64, 1, 1, None).expect("valid Argon2 parameters"),
    };
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hash `password` with a 16-byte salt.
pub fn hash(password: &str, salt: &[u8; 16], cost: Cost) -> String {
    let salt = SaltString::encode_b64(salt).expect("16 bytes make a valid salt");
    hasher(cost)
        .hash_password(password.as_bytes(), &salt)
        .expect("Argon2 hashes any password")
        .to_string()
}

/// Does `password` match the stored hash? Argon2 strings are checked by the
/// argon2 crate (constant-time comparison of the digests). Game files from
/// herald 0.1 hold `sha256$salt$hex`; those still check, also in constant
/// time, so no game in progress is lost.
pub fn matches(password: &str, stored: &str) -> bool {
    if stored.starts_with("$argon2") {
        return match PasswordHash::new(stored) {
            Ok(h) => Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok(),
            Err(_) => false,
        };
    }
    let mut parts = stored.splitn(3, '$');
    let (Some("sha256"), Some(salt), Some(_)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let a = format!(
        "sha256${salt}${}",
        crate::chain::canon::sha256_hex(format!("{salt}{password}").as_bytes())
    );
    let (a, b) = (a.as_bytes(), stored.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A stored hash is well formed (a file hand-edited into nonsense would
/// lock its player out without saying why).
pub fn well_formed(stored: &str) -> bool {
    if stored.starts_with("$argon2") {
        PasswordHash::new(stored).is_ok()
    } else {
        stored.starts_with("sha256$") && stored.matches('$').count() == 2
    }
}

/// A new password of three groups of four letters and digits, and a salt.
/// From the operating system or, for demos only, from a seeded stream so a
/// demo replays byte for byte.
pub fn new_secret(mut seeded: Option<&mut rng::ChaCha20Rng>) -> (String, [u8; 16]) {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut byte = || -> u8 {
        match seeded.as_deref_mut() {
            Some(r) => rng::below(r, 256) as u8,
            None => {
                let mut b = [0u8; 1];
                getrandom::getrandom(&mut b).expect("the operating system's random source failed");
                b[0]
            }
        }
    };
    let mut chars = String::new();
    while chars.len() < 12 {
        // 248 = 8 × 31: rejecting the top values keeps every letter equally likely.
        let b = byte();
        if b < 248 {
            chars.push(ALPHABET[b as usize % ALPHABET.len()] as char);
        }
    }
    let mut salt = [0u8; 16];
    salt.iter_mut().for_each(|s| *s = byte());
    let pw = format!("{}-{}-{}", &chars[0..4], &chars[4..8], &chars[8..12]);
    (pw, salt)
}
