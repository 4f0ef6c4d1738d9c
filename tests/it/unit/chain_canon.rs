//! Unit tests of `herald::chain::canon` (src/chain/canon.rs).

use herald::chain::canon::*;
use serde::Serialize;

#[test]
fn canonical_sorts_keys_and_is_compact() {
    #[derive(Serialize)]
    struct S {
        z: u32,
        a: &'static str,
    }
    assert_eq!(canonical(&S { z: 1, a: "é\"" }), r#"{"a":"é\"","z":1}"#);
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(unhex("00ff10", 3), Some(vec![0, 255, 16]));
    assert_eq!(unhex("0F", 1), None);
    assert!(is_digest(&sha256_hex(b"")) && !is_digest("ab"));
}
