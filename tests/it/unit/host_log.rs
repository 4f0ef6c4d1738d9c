//! Unit tests of `herald::host::log` (src/host/log.rs).

use herald::host::log::*;

#[test]
fn lines_quote_escape_and_cut_values() {
    let l = format_line(
        1_795_000_000,
        "in",
        "received",
        &[
            ("from", "a@b.org"),
            ("subject", "two words"),
            ("forged", "x\nTIME out sent"),
            ("long", &"y".repeat(400)),
        ],
    );
    assert!(l.starts_with("2026-11-18T"), "{l}");
    assert!(l.contains(" from=a@b.org "), "{l}");
    assert!(l.contains(" subject=\"two words\""), "{l}");
    assert!(l.contains("forged=\"x\\nTIME out sent\""), "{l}");
    assert!(!l.contains('\n'));
    assert!(l.contains(&format!("long={}…", "y".repeat(300))), "{l}");
}
