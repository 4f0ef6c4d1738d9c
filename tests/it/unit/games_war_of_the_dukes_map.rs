//! Unit tests of `herald::games::war_of_the_dukes::map` (src/games/war_of_the_dukes/map.rs).

use herald::board::{Dir, Hex};
use herald::games::war_of_the_dukes::map::*;

#[test]
fn labels_round_trip_through_axial() {
    for col in 0..32u8 {
        for row in 0..23u8 {
            let l = Label { col, row };
            assert_eq!(Label::of(l.hex()), Some(l));
            assert_eq!(Label::parse(&l.to_string()), Some(l));
        }
    }
    assert_eq!(Label::parse("0101").unwrap().hex(), Hex::new(0, 0));
    // 0101's south-east neighbour is 0201; 0201's north-east is 0301.
    let a = Label::parse("0101").unwrap().hex();
    assert_eq!(Label::of(a.step(Dir::SE)).unwrap().to_string(), "0201");
    assert_eq!(Label::of(a.step(Dir::S)).unwrap().to_string(), "0102");
    let b = Label::parse("0201").unwrap().hex();
    assert_eq!(Label::of(b.step(Dir::NE)).unwrap().to_string(), "0301");
    assert_eq!(Label::of(b.step(Dir::SE)).unwrap().to_string(), "0302");
    assert!(Label::parse("0001").is_none() && Label::parse("101").is_none());
}
