//! Unit tests of `herald::chain::witness` (src/chain/witness.rs).

use herald::chain::canon::sha256_hex;
use herald::chain::keys::Signer;
use herald::chain::witness::*;

#[test]
fn blocks_round_trip_and_signatures_hold() {
    let k = Signer::from_bytes([3; 32]);
    let h = sha256_hex(b"head");
    let r = Receipt::new(
        &k,
        "g",
        "red",
        4,
        &sha256_hex(b"o"),
        &h,
        "2026-01-01T00:00:00+00:00",
    );
    assert!(r.signature_ok());
    let report = "Your report.\nline two\n";
    let w = Witness::new(&k, "g", "red", 5, &h, report);
    assert!(w.signature_ok());
    let text = format!("{report}{}\nsome words\n{}", w.block(), r.block());
    let (found, problems) = find(&text);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(found.len(), 2);
    match &found[0] {
        Kept::Report(back, above) => {
            assert_eq!(back, &w);
            assert_eq!(above, &w.report_sha256);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(found[1], Kept::Receipt(r.clone()));
    let mut forged = r;
    forged.turn = 5;
    assert!(!forged.signature_ok());
}
