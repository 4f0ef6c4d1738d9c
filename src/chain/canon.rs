//! Canonical JSON and hashing. Canonical JSON is serde_json's compact form
//! of a `serde_json::Value`, whose objects keep their keys sorted: no
//! spaces, keys in byte order, strings escaped as serde_json escapes them,
//! integers only (herald keeps no floats). Hashes are SHA-256, written as
//! lowercase hex.

pub use crate::rng::hex;
use serde::Serialize;
use sha2::{Digest, Sha256};

/// The canonical JSON text of a value.
pub fn canonical<T: Serialize + ?Sized>(v: &T) -> String {
    let value = serde_json::to_value(v).expect("game data serialises to JSON");
    serde_json::to_string(&value).expect("JSON values serialise")
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// SHA-256 over several parts, each followed by a newline.
pub fn sha256_lines(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
        h.update(b"\n");
    }
    hex(&h.finalize())
}

/// sha256 of a value's canonical JSON.
pub fn hash_of<T: Serialize + ?Sized>(v: &T) -> String {
    sha256_hex(canonical(v).as_bytes())
}

/// Lowercase hex of exactly `n` bytes.
pub fn unhex(s: &str, n: usize) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if b.len() != 2 * n {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    b.chunks(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

/// Is `s` a lowercase hex SHA-256?
pub fn is_digest(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
}
