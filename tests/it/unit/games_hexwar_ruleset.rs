//! Unit tests of `herald::games::hexwar::ruleset` (src/games/hexwar/ruleset.rs).

use herald::board::{Dir, Hex};
use herald::games::hexwar::ruleset::*;

#[test]
fn wedges_split_odd_rings_and_share_even_midpoints() {
    let mut all: Vec<Hex> = Dir::ALL.iter().flat_map(|d| jump_wedge(*d, 3)).collect();
    assert_eq!(all.len(), 18);
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 18, "the six Jump-3 wedges split the ring");
    assert_eq!(jump_wedge(Dir::N, 1), vec![Hex::new(0, -1)]);
    let n2 = jump_wedge(Dir::N, 2);
    assert_eq!(n2.len(), 3, "corner and both midpoints: {n2:?}");
    assert!(n2.contains(&Hex::new(1, -2)) && n2.contains(&Hex::new(-1, -1)));
    assert!(jump_wedge(Dir::N, 3).contains(&Hex::new(1, -3)));
    assert!(!jump_wedge(Dir::N, 3).contains(&Hex::new(2, -3)));
}

#[test]
fn catalogue_loads() {
    let r = Ruleset::parse(include_str!("../../../games/hexwar.toml")).unwrap();
    assert_eq!(r.kinds.len(), 11);
    let goblin = &r.kinds[r.find_kind(WHITE, "goblin").unwrap() as usize];
    // facing N: forward-left NW, forward-right NE
    assert_eq!(
        goblin.absolute[0],
        (1 << Dir::NW.index()) | (1 << Dir::NE.index())
    );
    let wyvern = &r.kinds[r.find_kind(WHITE, "F2").unwrap() as usize];
    let centre = r.geo.cell(Hex::ORIGIN).unwrap() as usize;
    assert_eq!(wyvern.jumps[centre * 6].len(), 18);
    assert_eq!(r.templates[r.default_template].slots.len(), 3);
    assert!(Ruleset::parse(
        &include_str!("../../../games/hexwar.toml").replace("radius = 4", "radius = 5")
    )
    .is_err());
}
