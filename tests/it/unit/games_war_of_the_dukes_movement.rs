//! Unit tests of `herald::games::war_of_the_dukes::movement` (src/games/war_of_the_dukes/movement.rs).

use herald::games::war_of_the_dukes::map::{Ix, Label, Terrain};
use herald::games::war_of_the_dukes::movement::*;
use herald::games::war_of_the_dukes::ruleset::Ruleset;
use herald::games::war_of_the_dukes::{setup, WarOfTheDukes};

fn at(rules: &Ruleset, s: &str) -> Ix {
    rules.map.ix(Label::parse(s).unwrap()).unwrap()
}

/// A lake hex with a single bridge is a dead end (the ruling in
/// games/war-of-the-dukes.md): entered and left by that bridge only.
/// The printed map has none, so the map is changed here: 1806 keeps
/// its bridge from 1706 and loses the one to 1807.
#[test]
fn a_causeway_with_one_bridge_is_a_dead_end() {
    let text = WarOfTheDukes::RULESET_TEXT.replace("  \"1806 1807 bridge_with_road\",\n", "");
    assert_ne!(text, WarOfTheDukes::RULESET_TEXT);
    let rules = Ruleset::parse(&text).unwrap();
    let ez = vec![false; rules.map.cells.len()];
    let (lake, land, city) = (at(&rules, "1806"), at(&rules, "1706"), at(&rules, "1807"));
    let position =
        |unit: &str| format!("orfburg = [\"D 3019\", \"I1 {unit}\"]\nwulfenburg = [\"D 0101\"]\n");
    let i1 = 1;
    // From 1706, I1 may step onto the causeway (½) and stop there, but
    // whatever path it finds to 1807 avoids 1806.
    let st = setup::from_position(&rules, &position("1706")).unwrap();
    assert_eq!(st.units[i1].id.to_string(), "I1");
    let board = st.board(&rules);
    let into = follow(&rules, &st, &board, &ez, i1, &[lake]).unwrap();
    assert_eq!(into.cost, 1);
    if let Ok(r) = find(&rules, &st, &board, &ez, i1, city) {
        assert!(!r.path.contains(&lake), "{:?}", r.path);
    }
    // On it, I1 leaves by the bridge it came by, not over the water.
    let st = setup::from_position(&rules, &position("1806")).unwrap();
    let board = st.board(&rules);
    let back = follow(&rules, &st, &board, &ez, i1, &[land]).unwrap();
    assert_eq!(back.cost, 1);
    let e = follow(&rules, &st, &board, &ez, i1, &[city]).unwrap_err();
    let l = |s: &str| Label::parse(s).unwrap();
    assert_eq!(
        e,
        NoRoute::LeaveLake {
            at: l("1806"),
            terrain: Terrain::Lake,
            exits: vec![l("1706")],
        }
    );
    assert_eq!(
        e.to_string(),
        "1806 is a lake: a piece leaves it only across a bridge, to 1706"
    );
    // With both bridges (the printed map) the way through is open.
    let printed = Ruleset::parse(WarOfTheDukes::RULESET_TEXT).unwrap();
    let st = setup::from_position(&printed, &position("1806")).unwrap();
    let board = st.board(&printed);
    let through = follow(&printed, &st, &board, &ez, i1, &[city]).unwrap();
    assert_eq!(through.cost, 1);
}
