//! Unit tests of `herald::auth` (src/auth.rs).

use herald::auth::*;
use herald::rng;

#[test]
fn argon2_hashes_check_and_refuse() {
    let h = hash("abcd-efgh-jkmn", &[7; 16], Cost::Light);
    assert!(h.starts_with("$argon2id$"), "{h}");
    assert!(matches("abcd-efgh-jkmn", &h));
    assert!(!matches("abcd-efgh-jkmm", &h));
    assert!(!matches("", &h));
    assert!(well_formed(&h));
    let s = hash("pw", &[1; 16], Cost::Standard);
    assert!(s.contains("m=19456,t=2"), "{s}");
    assert!(matches("pw", &s) && !matches("px", &s));
}

#[test]
fn legacy_sha256_hashes_still_check() {
    let stored = format!(
        "sha256$abc${}",
        herald::chain::canon::sha256_hex("abcsecret".as_bytes())
    );
    assert!(matches("secret", &stored));
    assert!(!matches("secreT", &stored));
    assert!(!matches("secret", "md5$abc$00"));
}

#[test]
fn passwords_have_the_documented_shape() {
    let mut r = rng::from_u64(3);
    let (pw, salt) = new_secret(Some(&mut r));
    let mut r2 = rng::from_u64(3);
    assert_eq!((pw.clone(), salt), new_secret(Some(&mut r2)));
    assert_eq!(pw.len(), 14);
    assert!(pw
        .chars()
        .all(|c| c == '-' || "abcdefghjkmnpqrstuvwxyz23456789".contains(c)));
}
