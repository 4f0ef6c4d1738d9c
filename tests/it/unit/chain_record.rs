//! Unit tests of `herald::chain::record` (src/chain/record.rs).

use herald::chain::body::Body;
use herald::chain::body::Reveal;
use herald::chain::keys::Signer;
use herald::chain::record::*;

#[test]
fn entry_lines_round_trip_and_refuse_damage() {
    let k = Signer::from_bytes([1; 32]);
    let body = Body::Reveal(Reveal {
        seed: "s".into(),
        at: "t".into(),
    });
    let e = EntryLine::new(&body, ZERO, &k);
    let line = e.text();
    let back = EntryLine::parse(&line).unwrap();
    assert_eq!(back, e);
    assert!(back.hash_ok() && back.sig_ok(&k.public()));
    assert_eq!(back.decode().unwrap(), body);
    // one byte changed in the body: the hash no longer matches
    let edited = line.replacen("\"s\"", "\"x\"", 1);
    assert!(!EntryLine::parse(&edited).unwrap().hash_ok());
    // damaged layouts are refused, never panic
    for bad in [
        "",
        "{",
        &line[..line.len() - 1],
        &line.replace("\"prev\"", "\"prex\""),
        &format!("{line}x"),
        "{\"body\":ééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé",
    ] {
        assert!(EntryLine::parse(bad).is_err(), "{bad}");
    }
}
