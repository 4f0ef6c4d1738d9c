//! Unit tests of `herald::games::war_of_the_dukes::ascii` (src/games/war_of_the_dukes/ascii.rs).

use herald::games::war_of_the_dukes::ascii::*;
use herald::games::war_of_the_dukes::map::Label;
use herald::games::war_of_the_dukes::ruleset::Ruleset;
use herald::games::war_of_the_dukes::WarOfTheDukes;

#[test]
fn the_corner_of_the_map_is_drawn_as_a_honeycomb() {
    let rules = Ruleset::parse(WarOfTheDukes::RULESET_TEXT).unwrap();
    let marks = vec![Mark {
        at: Label::parse("0101").unwrap(),
        code: "I3".into(),
    }];
    let pic = panel(&rules, &marks, 0, 3, 0, 1);
    // 0101 (a city) holds I3; 0201 sits half a hex lower, a line down.
    let want = "    01 02 03 04
01  #I3   #
       #     .
02  #     #
       #     .
";
    assert_eq!(pic, want, "\n{pic}");
}
