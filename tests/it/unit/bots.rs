//! Unit tests of `herald::bots` (src/bots/mod.rs).

use herald::bots::*;

#[test]
fn bot_names_parse_and_print_back() {
    for s in [
        "random",
        "greedy",
        "mcts:1000",
        "ismcts:50",
        "mcts:200:greedy",
        "ismcts:10:d5",
    ] {
        assert_eq!(BotSpec::parse(s).unwrap().to_string(), s);
    }
    assert_eq!(BotSpec::parse("mcts").unwrap().to_string(), "mcts:1000");
    assert!(BotSpec::parse("mcts:x").is_err());
    assert!(BotSpec::parse("random:3").is_err());
    assert!(BotSpec::parse("alphazero").is_err());
}

#[test]
fn ln_agrees_with_the_library_to_many_digits() {
    for n in [1u32, 2, 3, 7, 10, 99, 1000, 65_537, 4_000_000] {
        let x = n as f64;
        assert!((ln(x) - x.ln()).abs() < 1e-12, "{n}: {} {}", ln(x), x.ln());
    }
}

#[test]
fn a_playout_depth_given_is_kept_and_none_means_the_games() {
    for s in ["mcts:1000:d20", "mcts:5:d0", "ismcts:30:greedy:d2"] {
        assert_eq!(BotSpec::parse(s).unwrap().to_string(), s);
    }
    let BotSpec::Mcts(s) = BotSpec::parse("mcts:10").unwrap() else {
        panic!("mcts is a search")
    };
    assert_eq!(s.depth, None);
    use herald::games::war_of_the_dukes::WarOfTheDukes;
    use herald::games::{hexwar::Hexwar, norse_wars::NorseWars, BotSupport};
    assert_eq!(s.depth_in::<NorseWars>(), 20);
    assert_eq!(s.depth_in::<Hexwar>(), Hexwar::PLAYOUT_DEPTH);
    // War of the Dukes: the enemy's reply, then the evaluation (issue 53).
    assert_eq!(s.depth_in::<WarOfTheDukes>(), 1);
    assert!(BotSpec::parse("mcts:10:d10001").is_err());
}

/// A position `phases` phases of the scripted player in, and its state.
fn scripted<G: herald::games::BotSupport>(phases: u32, seed: u64) -> (G::Ruleset, G::State) {
    use herald::games::Options;
    let rules = G::load_ruleset(G::RULESET).unwrap();
    let ids = seat_ids(2);
    let mut r = herald::rng::from_u64(seed);
    let mut st = G::setup(&rules, &ids, &Options::new(), None, &mut r)
        .unwrap()
        .state;
    for _ in 0..phases {
        let orders: std::collections::BTreeMap<usize, Vec<G::Order>> = G::awaiting(&rules, &st)
            .into_iter()
            .map(|s| (s, G::scripted_orders(&rules, &st, s, &mut r)))
            .collect();
        st = G::resolve(&rules, &st, &orders, &mut herald::rng::Dice::quiet(&mut r)).0;
    }
    (rules, st)
}

/// Every combination the per-piece search can make in War of the Dukes
/// is a legal order set: moves into a hex another piece leaves wait for
/// it, clashes hold, the attacks are worked out after the moves.
#[test]
fn war_of_the_dukes_piece_options_always_combine_into_legal_orders() {
    use herald::games::war_of_the_dukes::WarOfTheDukes;
    use herald::games::{BotSupport, Game};
    for (phases, seed) in [(1, 1), (4, 2), (7, 3), (12, 4)] {
        let (rules, st) = scripted::<WarOfTheDukes>(phases, seed);
        let Some(&seat) = WarOfTheDukes::awaiting(&rules, &st).first() else {
            continue;
        };
        let mut r = herald::rng::from_u64(seed);
        let parts = WarOfTheDukes::parts(&rules, &st, seat, &mut r).expect("a play phase");
        assert!(
            parts.parts.len() > 5,
            "one decision a piece and the attacks"
        );
        assert!(parts.parts.iter().all(|p| !p.is_empty()));
        let mut moved_max = 0;
        for k in 0..200 {
            let choice: Vec<usize> = parts
                .parts
                .iter()
                .map(|p| {
                    if k == 0 {
                        0
                    } else {
                        herald::rng::below(&mut r, p.len() as u32) as usize
                    }
                })
                .collect();
            let orders = WarOfTheDukes::combine(&rules, &st, seat, &parts, &choice);
            let problems = WarOfTheDukes::check(&rules, &st, seat, &orders);
            assert!(
                problems.is_empty(),
                "phase {phases}, choice {choice:?}: {problems:?}\n{}",
                orders
                    .iter()
                    .map(|o| o.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
            moved_max = moved_max.max(orders.len());
        }
        assert!(moved_max > 3, "the combinations move pieces");
    }
}

/// The searches are functions of the view and the seed: the per-piece
/// search (War of the Dukes) and the closed-loop one (HEXWAR) give the
/// same orders twice, and other orders from another seed somewhere.
#[test]
fn the_new_searches_repeat_themselves_from_the_seed() {
    use herald::games::war_of_the_dukes::WarOfTheDukes;
    use herald::games::{hexwar::Hexwar, BotSupport};
    fn run<G: BotSupport>(phases: u32, spec: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
        let (rules, st) = scripted::<G>(phases, 7);
        let seat = G::awaiting(&rules, &st)[0];
        let view = G::view(&rules, &st, &seat_ids(2), seat, &[]);
        let spec = BotSpec::parse(spec).unwrap();
        let go = |seed| {
            choose::<G>(
                &rules,
                &view,
                seat,
                2,
                &spec,
                &mut herald::rng::from_u64(seed),
            )
            .unwrap()
            .iter()
            .map(|o| o.to_string())
            .collect::<Vec<_>>()
        };
        (go(1), go(1), go(2))
    }
    let (a, b, _) = run::<WarOfTheDukes>(5, "mcts:60");
    assert_eq!(a, b);
    assert!(!a.is_empty());
    let (a, b, _) = run::<Hexwar>(6, "mcts:300");
    assert_eq!(a, b);
}

/// HEXWAR's closed-loop search tries captures of a royal piece first and
/// never misses one: over random positions, wherever a candidate takes
/// the enemy's royal piece, MCTS-100 plays a turn that wins at once.
#[test]
fn hexwar_search_never_misses_a_royal_capture() {
    use herald::games::hexwar::Hexwar;
    use herald::games::{BotSupport, Game};
    let rules = Hexwar::load_ruleset(Hexwar::RULESET).unwrap();
    let ids = seat_ids(2);
    let spec = BotSpec::parse("mcts:100").unwrap();
    let mut found = 0;
    for seed in 0..40u64 {
        let mut r = herald::rng::from_u64(seed);
        let mut st = Hexwar::setup(&rules, &ids, &Default::default(), None, &mut r)
            .unwrap()
            .state;
        for _ in 0..200 {
            let Some(&seat) = Hexwar::awaiting(&rules, &st).first() else {
                break;
            };
            let wins = |orders: &[_]| {
                let mut m = std::collections::BTreeMap::new();
                m.insert(seat, orders.to_vec());
                let next = Hexwar::resolve(
                    &rules,
                    &st,
                    &m,
                    &mut herald::rng::Dice::quiet(&mut herald::rng::from_u64(0)),
                )
                .0;
                Hexwar::outcome(&rules, &next, &ids)
                    .is_some_and(|o| o.winners == vec![ids[seat].clone()])
            };
            let cands = Hexwar::candidate_orders(&rules, &st, seat, &mut r);
            if cands.iter().any(|c| wins(c)) {
                let view = Hexwar::view(&rules, &st, &ids, seat, &[]);
                let o = choose::<Hexwar>(&rules, &view, seat, 2, &spec, &mut r).unwrap();
                let w: Vec<String> = cands
                    .iter()
                    .filter(|c| wins(c))
                    .map(|c| {
                        format!(
                            "{:?} p={}",
                            c.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
                            herald::games::hexwar::bot::priority(&rules, &st, c)
                        )
                    })
                    .collect();
                assert!(
                    wins(&o),
                    "seed {seed}: the bot missed the win: played {:?}, wins {w:?}",
                    o.iter().map(|o| o.to_string()).collect::<Vec<_>>()
                );
                found += 1;
                break;
            }
            let o = Hexwar::random_orders(&rules, &st, seat, &mut r);
            let mut m = std::collections::BTreeMap::new();
            m.insert(seat, o);
            st = Hexwar::resolve(&rules, &st, &m, &mut herald::rng::Dice::quiet(&mut r)).0;
        }
    }
    assert!(found >= 10, "only {found} positions with a royal capture");
}
