//! Unit tests of `herald::games::norse_wars::compose` (src/games/norse_wars/compose.rs).

use herald::board::Hex;
use herald::games::norse_wars::compose::*;
use herald::games::norse_wars::ruleset::Ruleset;
use herald::games::norse_wars::state::State;
use herald::games::norse_wars::view::vision;
use herald::games::{BotSupport, Game, Options};
use herald::rng;

/// The composer's data never depends on what fog hides: taking every
/// hidden piece off the board leaves it the same, and every cell it
/// names is in sight.
#[test]
fn fog_hides_nothing_from_the_composer_and_it_tells_nothing() {
    let rules = Ruleset::parse(herald::games::norse_wars::NorseWars::RULESET_TEXT).unwrap();
    let mut checked = 0;
    for (n, game) in [(2usize, 1u64), (3, 2), (4, 3), (6, 4)] {
        let players: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let mut options = Options::new();
        options.insert("fog".into(), "true".into());
        let mut r = rng::from_u64(game);
        let mut st =
            herald::games::norse_wars::NorseWars::setup(&rules, &players, &options, None, &mut r)
                .unwrap()
                .state;
        for _ in 0..120 {
            let Some(seat) = st.to_move() else { break };
            let data = serde_json::to_value(compose(&rules, &st, seat)).unwrap();
            let seen = vision(&rules, &st, seat);
            let g = st.grid_radius;
            let side = (2 * g + 1) as usize;
            let sees = |h: Hex| seen[((h.q + g) as usize) * side + (h.r + g) as usize];
            // every cell named is in sight
            for c in data["choices"].as_array().unwrap() {
                if let Some(to) = c["to"].as_str() {
                    assert!(sees(st.labels().parse(to).unwrap()), "{to} is fogged");
                }
            }
            // the same data with the hidden pieces gone
            let mut v = serde_json::to_value(&st).unwrap();
            let mut hidden = 0;
            for p in v["pieces"].as_array_mut().unwrap() {
                let at: Option<Hex> = serde_json::from_value(p["at"].clone()).unwrap();
                if at.is_some_and(|h| !sees(h)) {
                    p["at"] = serde_json::Value::Null;
                    hidden += 1;
                }
            }
            if hidden > 0 {
                let fewer: State = serde_json::from_value(v).unwrap();
                assert_eq!(
                    serde_json::to_value(compose(&rules, &fewer, seat)).unwrap(),
                    data,
                    "the composer changed with hidden pieces"
                );
                checked += 1;
            }
            let orders =
                herald::games::norse_wars::NorseWars::scripted_orders(&rules, &st, seat, &mut r);
            let mut all = std::collections::BTreeMap::new();
            all.insert(seat, orders);
            st = herald::games::norse_wars::NorseWars::resolve(
                &rules,
                &st,
                &all,
                &mut herald::rng::Dice::quiet(&mut r),
            )
            .0;
        }
    }
    assert!(checked > 50, "only {checked} positions with hidden pieces");
}
