//! Unit tests of the lab's board coverage (Ludii's Board Coverage
//! Default): each game's `BotSupport::occupancy` on hand-made states whose
//! occupied sites are known (src/games/*/bot.rs), a game's sites held
//! counted once (`herald::playtest::SitesHeld`, src/playtest/mod.rs), and
//! the measure over games (`coverage_measures`, src/playtest/measures.rs).

use herald::board::{Dir, Hex};
use herald::games::{BotSupport, Game, Options};
use herald::playtest::measures::coverage_measures;
use herald::playtest::{Coverage, Record, SitesHeld};
use herald::rng;

/// The indices of the occupied sites.
fn held(occ: &[bool]) -> Vec<usize> {
    (0..occ.len()).filter(|&i| occ[i]).collect()
}

/// A game's states' occupancies, then their coverage.
fn coverage_of(occs: &[Vec<bool>]) -> Coverage {
    let mut held = SitesHeld::default();
    for o in occs {
        held.add(o);
    }
    held.coverage()
}

/// The state `G::setup` makes for two seats.
fn setup<G: Game>(rules: &G::Ruleset) -> G::State {
    let ids = ["0".to_string(), "1".to_string()];
    G::setup(rules, &ids, &Options::new(), None, &mut rng::from_u64(3))
        .unwrap()
        .state
}

#[test]
fn a_site_counts_once_however_often_it_is_held() {
    // Sites 0 and 2 held at the start, 2 and 3 after a phase, 3 after the
    // next: 0, 2 and 3 held at some point, 3 of 5.
    let occs = vec![
        vec![true, false, true, false, false],
        vec![false, false, true, true, false],
        vec![false, false, false, true, false],
    ];
    assert_eq!(
        coverage_of(&occs),
        Coverage {
            covered: 3,
            sites: 5
        }
    );
    assert_eq!(
        coverage_of(&[vec![false; 4]]),
        Coverage {
            covered: 0,
            sites: 4
        }
    );
}

#[test]
fn hexwar_sites_are_the_61_cells() {
    use herald::games::hexwar::piece::Piece;
    use herald::games::hexwar::ruleset::Ruleset;
    use herald::games::hexwar::state::{State, LABELS};
    use herald::games::hexwar::Hexwar;
    let rules = Ruleset::parse(Hexwar::RULESET_TEXT).unwrap();
    let cell = |l: &str| rules.geo.cell(LABELS.parse(l).unwrap()).unwrap() as usize;
    let mut st = State::empty(0);
    assert_eq!(Hexwar::occupancy(&rules, &st), vec![false; 61]);
    // A White piece on e5, a Black one on a1.
    st.board[cell("e5")] = Piece::new(0, 0, Dir::N).0;
    st.board[cell("a1")] = Piece::new(1, 1, Dir::S).0;
    let start = Hexwar::occupancy(&rules, &st);
    let mut want = vec![cell("e5"), cell("a1")];
    want.sort();
    assert_eq!(held(&start), want);
    // e5 moves to e6, then a1 is captured: e5, e6 and a1 were held.
    st.board[cell("e6")] = st.board[cell("e5")];
    st.board[cell("e5")] = 0;
    let moved = Hexwar::occupancy(&rules, &st);
    st.board[cell("a1")] = 0;
    let taken = Hexwar::occupancy(&rules, &st);
    assert_eq!(held(&taken), vec![cell("e6")]);
    assert_eq!(
        coverage_of(&[start, moved, taken]),
        Coverage {
            covered: 3,
            sites: 61
        }
    );
    // The published start: every piece on a hex of its own.
    let opening = State::scenario(&rules, 0, 0);
    let on_board = opening.pieces().count();
    assert_eq!(
        held(&Hexwar::occupancy(&rules, &opening)).len(),
        on_board,
        "one piece a hex"
    );
}

#[test]
fn norse_wars_sites_are_the_starting_hexes_and_shields_count() {
    use herald::games::norse_wars::ruleset::Ruleset;
    use herald::games::norse_wars::NorseWars;
    let rules = Ruleset::parse(NorseWars::RULESET_TEXT).unwrap();
    let mut st = setup::<NorseWars>(&rules);
    // Two players: radius 3, 37 hexes; two Jarls, 5 Warriors each and 5
    // Shields on 17 of them.
    let start = NorseWars::occupancy(&rules, &st);
    assert_eq!(start.len(), 37);
    assert_eq!(held(&start).len(), 2 + 2 * 5 + 5);
    // By hand: every piece off, every Shield away; seat 0's Jarl on
    // (1,-1), seat 1's on (-2,0), a Shield on (0,2).
    for p in 0..st.pieces.len() {
        st.put(p, None);
    }
    for h in st.shields.clone() {
        st.remove_shield(h);
    }
    let order = Hex::spiral_area(3);
    let at = |h: Hex| order.iter().position(|&x| x == h).unwrap();
    st.put(0, Some(Hex::new(1, -1)));
    st.put(10, Some(Hex::new(-2, 0)));
    st.add_shield(Hex::new(0, 2));
    let a = NorseWars::occupancy(&rules, &st);
    let mut want = vec![at(Hex::new(1, -1)), at(Hex::new(-2, 0)), at(Hex::new(0, 2))];
    want.sort();
    assert_eq!(held(&a), want);
    // The Jarl steps to (1,0); seat 1's Jarl is pushed off: 4 hexes held.
    st.put(0, Some(Hex::new(1, 0)));
    let b = NorseWars::occupancy(&rules, &st);
    st.put(10, None);
    let c = NorseWars::occupancy(&rules, &st);
    assert_eq!(held(&c).len(), 2);
    assert_eq!(
        coverage_of(&[a, b, c]),
        Coverage {
            covered: 4,
            sites: 37
        }
    );
}

#[test]
fn stack_wars_sites_are_the_squares() {
    use herald::games::stack_wars::state::{Side, Square, Stack, State};
    use herald::games::stack_wars::{ruleset::Ruleset, StackWars};
    let rules = Ruleset::parse(StackWars::RULESET_TEXT).unwrap();
    let mut st = State::new(5, 15, false, 100);
    assert_eq!(StackWars::occupancy(&rules, &st), vec![false; 25]);
    let stack = |side, armies| Some(Stack { side, armies });
    st.set(Square::new(0, 1), stack(Side::White, 2));
    st.set(Square::new(4, 3), stack(Side::Black, 1));
    let a = StackWars::occupancy(&rules, &st);
    // Row by row: (0,1) is 1, (4,3) is 4 * 5 + 3.
    assert_eq!(held(&a), vec![1, 23]);
    // Black's stack moves to (3,3), then White's is taken off.
    st.set(Square::new(4, 3), None);
    st.set(Square::new(3, 3), stack(Side::Black, 1));
    let b = StackWars::occupancy(&rules, &st);
    st.set(Square::new(0, 1), None);
    let c = StackWars::occupancy(&rules, &st);
    assert_eq!(held(&c), vec![18]);
    assert_eq!(
        coverage_of(&[a, b, c]),
        Coverage {
            covered: 3,
            sites: 25
        }
    );
    // The setup's board is as the size option says.
    let nine = setup::<StackWars>(&rules);
    assert_eq!(
        StackWars::occupancy(&rules, &nine).len(),
        nine.size as usize * nine.size as usize
    );
}

#[test]
fn war_of_the_dukes_sites_are_the_661_map_hexes() {
    use herald::games::war_of_the_dukes::map::Label;
    use herald::games::war_of_the_dukes::state::State;
    use herald::games::war_of_the_dukes::units::{Kind, Side};
    use herald::games::war_of_the_dukes::{ruleset::Ruleset, WarOfTheDukes};
    let rules = Ruleset::parse(WarOfTheDukes::RULESET_TEXT).unwrap();
    // Before deployment no piece stands anywhere.
    let mut st = State::new(&rules);
    let none = WarOfTheDukes::occupancy(&rules, &st);
    assert_eq!(none.len(), 661);
    assert!(held(&none).is_empty());
    let l = |s: &str| Label::parse(s).unwrap();
    let ix = |s: &str| rules.map.ix(l(s)).unwrap() as usize;
    let duke = st.duke(Side::Orfburg);
    let foot = st
        .units
        .iter()
        .position(|u| u.side == Side::Orfburg && u.id.kind == Kind::Infantry)
        .unwrap();
    let enemy = st.duke(Side::Wulfenburg);
    // Orfburg's Duke and an Infantry stack on 1012: one hex; Wulfenburg's
    // Duke on 1514.
    st.units[duke].at = Some(l("1012"));
    st.units[foot].at = Some(l("1012"));
    st.units[enemy].at = Some(l("1514"));
    let a = WarOfTheDukes::occupancy(&rules, &st);
    let mut want = vec![ix("1012"), ix("1514")];
    want.sort();
    assert_eq!(held(&a), want);
    // The Infantry moves to 1013; then it is eliminated.
    st.units[foot].at = Some(l("1013"));
    let b = WarOfTheDukes::occupancy(&rules, &st);
    st.units[foot].at = None;
    let c = WarOfTheDukes::occupancy(&rules, &st);
    assert_eq!(held(&c), want);
    assert_eq!(
        coverage_of(&[none, a, b, c]),
        Coverage {
            covered: 3,
            sites: 661
        }
    );
}

#[test]
fn unfought_battle_sites_are_the_rhombus_and_fallen_forces_stand_nowhere() {
    use herald::games::unfought_battle::{ruleset::Ruleset, UnfoughtBattle};
    let rules = Ruleset::parse(UnfoughtBattle::RULESET_TEXT).unwrap();
    let mut st = setup::<UnfoughtBattle>(&rules);
    // 7 × 7 hexes; each side's five forces on its five start hexes.
    let idx = |q: i32, r: i32| (q * 7 + r) as usize;
    let start = UnfoughtBattle::occupancy(&rules, &st);
    assert_eq!(start.len(), 49);
    let mut want = vec![
        idx(0, 0),
        idx(1, 0),
        idx(0, 1),
        idx(1, 1),
        idx(2, 0),
        idx(6, 6),
        idx(5, 6),
        idx(6, 5),
        idx(5, 5),
        idx(4, 6),
    ];
    want.sort();
    assert_eq!(held(&start), want);
    // f1 of the first side marches to (3,3); the second side's f1 falls.
    st.sides[0].forces[0].at = Hex::new(3, 3);
    let moved = UnfoughtBattle::occupancy(&rules, &st);
    st.sides[1].forces[0].alive = false;
    let fallen = UnfoughtBattle::occupancy(&rules, &st);
    assert!(!fallen[idx(6, 6)] && fallen[idx(3, 3)] && !fallen[idx(0, 0)]);
    assert_eq!(held(&fallen).len(), 9);
    assert_eq!(
        coverage_of(&[start, moved, fallen]),
        Coverage {
            covered: 11,
            sites: 49
        }
    );
}

fn rec(index: u64, coverage: Option<Coverage>) -> Record {
    Record {
        game: "stack-wars".into(),
        rules: None,
        ruleset_sha256: None,
        weights: None,
        weights_sha256: None,
        herald: None,
        options: Default::default(),
        seed: "c".into(),
        index,
        round: index / 2,
        seats: 2,
        bots: vec!["greedy".into(); 2],
        winners: vec![0],
        draw: false,
        finished: true,
        length: 5,
        scores: vec![0, 0],
        margin: 0,
        lead_changes: 0,
        result: "0 won".into(),
        evals: None,
        choices: None,
        coverage,
    }
}

#[test]
fn coverage_over_games_by_hand() {
    // 20 of 25 and 10 of 25 sites: shares 0.8 and 0.4, mean 0.6, sample
    // sd sqrt(0.08) = 0.2828; the mean's interval 0.6 ± 1.96 × 0.2828 / √2.
    let a = rec(
        0,
        Some(Coverage {
            covered: 20,
            sites: 25,
        }),
    );
    let b = rec(
        1,
        Some(Coverage {
            covered: 10,
            sites: 25,
        }),
    );
    let m = coverage_measures(&[&a, &b]).unwrap();
    assert_eq!(m.games, 2);
    assert!((m.share.mean - 0.6).abs() < 1e-12);
    assert!((m.share.sd - 0.08f64.sqrt()).abs() < 1e-12);
    assert_eq!((m.share.min, m.share.max), (0.4, 0.8));
    assert_eq!(
        (m.covered.mean, m.sites.min, m.sites.max),
        (15.0, 25.0, 25.0)
    );
    let half = 1.959_963_984_540_054 * 0.08f64.sqrt() / 2f64.sqrt();
    assert!((m.share_interval.0 - (0.6 - half)).abs() < 1e-12);
    assert!((m.share_interval.1 - (0.6 + half)).abs() < 1e-12);
    // A game without the count is left out; none with it: no measure.
    let c = rec(2, None);
    assert_eq!(coverage_measures(&[&a, &c]).unwrap().games, 1);
    assert!(coverage_measures(&[&c]).is_none());
}
