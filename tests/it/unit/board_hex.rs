//! Unit tests of `herald::board::hex` (src/board/hex.rs).

use herald::board::hex::*;

#[test]
fn labels_follow_the_design() {
    let l = HexagonLabels { radius: 4 };
    assert_eq!(l.label(Hex::ORIGIN), "e5");
    assert_eq!(l.label(Hex::new(-4, 4)), "a1");
    assert_eq!(l.label(Hex::new(-4, 0)), "a5");
    assert_eq!(l.label(Hex::new(4, -4)), "i5");
    assert_eq!(l.label(Hex::new(0, 4)), "e1");
    assert_eq!(l.label(Hex::new(0, -4)), "e9");
    for h in Hex::spiral_area(4) {
        assert_eq!(l.parse(&l.label(h)), Some(h));
    }
    assert_eq!(l.parse("e10"), None);
    assert_eq!(l.parse("j1"), None);
    assert_eq!(l.parse("a6"), None);
}

#[test]
fn rings_and_rotation() {
    assert_eq!(Hex::ORIGIN.ring(3).len(), 18);
    assert_eq!(Hex::ORIGIN.ring(1)[0], Hex::new(0, -1));
    assert_eq!(Hex::ORIGIN.ring(1)[1], Hex::new(1, -1));
    assert_eq!(Hex::new(0, -2).rotate(1), Hex::new(2, -2));
    assert_eq!(Hex::new(0, -2).rotate(3), Hex::new(0, 2));
    for d in Dir::ALL {
        assert_eq!(d.offset().rotate(1), d.turn(1).offset());
    }
    assert_eq!(Hex::spiral_area(3).len(), 37);
    assert_eq!(Hex::new(2, -2).sextant(), 1);
    assert_eq!(Hex::new(1, -2).sextant(), 0);
}

#[test]
fn lines() {
    let l = Hex::new(0, 3).line_to(Hex::ORIGIN, 1);
    assert_eq!(
        l,
        vec![Hex::new(0, 3), Hex::new(0, 2), Hex::new(0, 1), Hex::ORIGIN]
    );
    let a = Hex::new(1, -2).line_to(Hex::new(-1, 2), 1);
    let b = Hex::new(1, -2).line_to(Hex::new(-1, 2), -1);
    assert_eq!(a.len(), 5);
    for w in a.windows(2).chain(b.windows(2)) {
        assert_eq!(w[0].distance(w[1]), 1);
    }
}
