//! Unit tests of `herald::games::unfought_battle::compose` (src/games/unfought_battle/compose.rs).

use herald::games::unfought_battle::compose::*;
use herald::games::unfought_battle::state::{Phase, State};
use herald::games::{BotSupport, Game, Options};
use herald::rng;
use std::collections::BTreeMap;

/// The composer's data never depends on an enemy force out of sight:
/// with every hidden enemy force gone it is the same, and it scouts
/// only enemies in sight.
#[test]
fn fog_hides_nothing_from_the_composer_and_it_tells_nothing() {
    type G = herald::games::unfought_battle::UnfoughtBattle;
    let rules = G::load_ruleset(G::RULESET).unwrap();
    let players = vec!["north".to_string(), "south".to_string()];
    let mut checked = 0;
    for game in 0..12u64 {
        let mut r = rng::from_u64(game + 40);
        let mut st = G::setup(&rules, &players, &Options::new(), None, &mut r)
            .unwrap()
            .state;
        for _ in 0..40 {
            if st.phase == Phase::Over {
                break;
            }
            for seat in 0..2 {
                let data = serde_json::to_value(compose(&rules, &st, seat)).unwrap();
                let me = &st.sides[seat];
                let sees = |h: herald::board::Hex| {
                    me.living().any(|f| f.at.distance(h) <= rules.sight.range)
                };
                for c in data["choices"].as_array().unwrap() {
                    if c["mark"] == "scout" {
                        let h = herald::games::unfought_battle::board::parse_hex(
                            c["to"].as_str().unwrap(),
                        )
                        .unwrap();
                        assert!(sees(h), "a scout of a hidden hex");
                        assert!(st.sides[1 - seat].at(h).is_some());
                    }
                }
                let mut v = serde_json::to_value(&st).unwrap();
                let mut hidden = 0;
                for f in v["sides"][1 - seat]["forces"].as_array_mut().unwrap() {
                    let at: herald::board::Hex = serde_json::from_value(f["at"].clone()).unwrap();
                    if f["alive"] == true && !sees(at) {
                        f["alive"] = false.into();
                        hidden += 1;
                    }
                }
                if hidden > 0 {
                    let fewer: State = serde_json::from_value(v).unwrap();
                    assert_eq!(
                        serde_json::to_value(compose(&rules, &fewer, seat)).unwrap(),
                        data,
                        "the composer changed with hidden forces"
                    );
                    checked += 1;
                }
            }
            let mut orders = BTreeMap::new();
            for seat in 0..2 {
                orders.insert(seat, G::scripted_orders(&rules, &st, seat, &mut r));
            }
            st = G::resolve(&rules, &st, &orders, &mut herald::rng::Dice::quiet(&mut r)).0;
        }
    }
    assert!(checked > 20, "only {checked} positions with hidden forces");
}
