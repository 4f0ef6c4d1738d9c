//! Unit tests of `herald::names` (src/names.rs).

use herald::names::*;

#[test]
fn the_pattern() {
    for ok in ["red", "a", "nw-2026-11-22-abc", "p_1", "0x"] {
        assert!(valid(ok), "{ok}");
    }
    for bad in [
        "",
        "Red",
        "../x",
        "a/b",
        "-x",
        "_x",
        "a b",
        "é",
        ".",
        "..",
        &"a".repeat(33),
    ] {
        assert!(!valid(bad), "{bad}");
        assert!(Name::new("player id", bad).is_err());
    }
    let e = Name::new("player id", &"../".repeat(30)).unwrap_err();
    assert!(e.contains('…') && e.len() < 200, "{e}");
}
