//! Format 6 → 7 (issue 52, seat preferences): a game the herald of
//! format 6 wrote (`tests/fixtures/format6`, see its make.sh: a Stack
//! Wars game whose white seat is a bot) loads, verifies and plays on as
//! format 6; `herald convert GAME` brings it to the current format by its head's
//! `format` alone (every entry byte for byte as it was), and it verifies
//! and plays on.

use crate::common::{herald, lines};
use crate::store::{copy_dir, ok, s, Spot};
use std::path::Path;

#[test]
fn a_format_6_game_plays_on_and_converts_to_7_by_its_head_alone() {
    let spot = Spot::new("format6");
    let g = spot.join("stack");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format6/stack"),
        &g,
    );
    let before = lines(&g);
    assert_eq!(before[0]["head"]["format"], 6);
    ok(&["verify", s(&g)]);
    // Read as format 6: its status, awaiting black.
    let out = ok(&["status", s(&g)]);
    assert!(out.contains("black"), "{out}");
    let played = lines(&g);
    assert_eq!(played[0]["head"]["format"], 6, "the head keeps its format");
    assert_eq!(played.len(), before.len());
    let out = ok(&["convert", s(&g)]);
    assert!(
        out.contains(&format!("6 -> {}", herald::chain::FORMAT)),
        "{out}"
    );
    let after = lines(&g);
    assert_eq!(after[0]["head"]["format"], herald::chain::FORMAT);
    assert_eq!(after.len(), played.len());
    assert_eq!(&after[1..], &played[1..], "every entry as it was");
    ok(&["verify", s(&g)]);
    // Converted again: nothing to do.
    ok(&["convert", s(&g)]);
    assert_eq!(lines(&g), after);
    let (code, out, err) = herald(&["status", s(&g)]);
    assert_eq!(code, 0, "{out}{err}");
}
