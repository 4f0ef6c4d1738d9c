//! Unit tests of `herald::games::unfought_battle::board` (src/games/unfought_battle/board.rs).

use herald::board::Hex;
use herald::games::unfought_battle::board::*;

#[test]
fn labels_round_trip() {
    for h in [Hex::new(0, 0), Hex::new(3, 6), Hex::new(6, 2)] {
        assert_eq!(parse_hex(&label(h)), Some(h));
    }
    assert_eq!(parse_hex("(2, 5)"), Some(Hex::new(2, 5)));
    assert_eq!(parse_hex("2;5"), None);
}

#[test]
fn the_shrink_leaves_37_19_and_7_hexes() {
    let mut b = Board {
        size: 7,
        centre: Hex::new(3, 3),
        contentious: vec![],
        difficult: vec![],
        radius: None,
    };
    assert_eq!(b.count_within(None), 49);
    for (r, n) in [(3, 37), (2, 19), (1, 7)] {
        b.radius = Some(r);
        assert_eq!(b.hexes().filter(|h| b.playable(*h)).count(), n);
    }
    assert!(b.scorched(Hex::new(0, 0)) && b.scorched(Hex::new(6, 6)));
}
