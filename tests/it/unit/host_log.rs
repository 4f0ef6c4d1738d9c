//! Unit tests of `herald::host::log` (src/host/log.rs).

use herald::host::log::*;

#[test]
fn lines_quote_escape_and_cut_values() {
    let l = format_line(
        1_795_000_000_123,
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
    // Stamped to the millisecond.
    assert!(
        l.starts_with(&format!(
            "{}.123Z ",
            herald::host::log::time_text(1_795_000_000).trim_end_matches('Z')
        )),
        "{l}"
    );
    assert!(l.contains(" from=a@b.org "), "{l}");
    assert!(l.contains(" subject=\"two words\""), "{l}");
    assert!(l.contains("forged=\"x\\nTIME out sent\""), "{l}");
    assert!(!l.contains('\n'));
    assert!(l.contains(&format!("long={}…", "y".repeat(300))), "{l}");
}
