//! Unit tests of `herald::games::war_of_the_dukes::units` (src/games/war_of_the_dukes/units.rs).

use herald::games::war_of_the_dukes::units::*;

#[test]
fn unit_names_read_and_write_back() {
    for s in ["D", "I1", "I10", "C3", "A10"] {
        assert_eq!(UnitId::parse(s).unwrap().to_string(), s);
    }
    assert_eq!(UnitId::parse("i3").unwrap().to_string(), "I3");
    for bad in ["", "X1", "I", "I01", "D1", "I-1", "I1a"] {
        assert!(UnitId::parse(bad).is_none(), "{bad}");
    }
}
