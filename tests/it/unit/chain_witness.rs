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
            assert_eq!(above.text, report);
            assert!(!above.quoted);
            assert!(above.holds(&w));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(found[1], Kept::Receipt(r.clone()));
    let mut forged = r;
    forged.turn = 5;
    assert!(!forged.signature_ok());
}

/// A report quoted back in a mail (`> `, CR LF line ends, words of the
/// player's own above it, a deeper quote inside): the block is found and
/// the report under the player's words still holds; one changed
/// character does not.
#[test]
fn a_quoted_report_is_found_and_holds() {
    let k = Signer::from_bytes([3; 32]);
    let h = sha256_hex(b"head");
    let report = "WAR OF THE DUKES — game g — report for red\n==\n\n  0712  I3\n> odd line\n";
    let w = Witness::new(&k, "g", "red", 5, &h, report);
    let sent = format!("{report}{}", w.block());
    let quoted: String = sent
        .lines()
        .map(|l| {
            if l.is_empty() {
                ">\r\n".to_string()
            } else {
                format!("> {l}\r\n")
            }
        })
        .collect();
    let mail =
        format!("Here is my report back.\r\n\r\nOn Mon, GM wrote:\r\n{quoted}-- \r\nRed\r\n");
    let (found, problems) = find(&mail);
    assert!(problems.is_empty(), "{problems:?}");
    match &found[..] {
        [Kept::Report(back, above)] => {
            assert_eq!(back, &w);
            assert!(above.quoted);
            assert!(above.holds(&w), "{}", above.text);
        }
        other => panic!("{other:?}"),
    }
    let changed = mail.replacen("0712", "0713", 1);
    let (found, _) = find(&changed);
    match &found[..] {
        [Kept::Report(_, above)] => assert!(!above.holds(&w)),
        other => panic!("{other:?}"),
    }
    assert_eq!(unquote("> > x"), (2, "x"));
    assert_eq!(unquote(">     06 07"), (1, "    06 07"));
    assert_eq!(unquote(">"), (1, ""));
    assert_eq!(unquote("plain"), (0, "plain"));
}
