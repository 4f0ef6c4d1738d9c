//! Unit tests of `herald::chain::keys` (src/chain/keys.rs).

use herald::chain::keys::*;

#[test]
fn sign_verify_and_domains() {
    let k = Signer::from_bytes([7; 32]);
    let p = k.public();
    let s = k.sign(Domain::Entry, b"abc");
    assert_eq!(s, k.sign(Domain::Entry, b"abc"));
    assert!(p.verify(Domain::Entry, b"abc", &s));
    assert!(!p.verify(Domain::Head, b"abc", &s));
    assert!(!p.verify(Domain::Entry, b"abd", &s));
    assert!(!p.verify(Domain::Entry, b"abc", "00"));
    assert_eq!(PublicKey::parse(&p.to_string()).unwrap(), p);
    assert!(PublicKey::parse("ed25519:zz").is_err());
    let back = Signer::from_file(&k.to_file()).unwrap();
    assert_eq!(back.public(), p);
    assert!(Signer::from_file("nonsense").is_err());
}
