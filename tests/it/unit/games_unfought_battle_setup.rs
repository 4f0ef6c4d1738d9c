//! Unit tests of `herald::games::unfought_battle::setup` (src/games/unfought_battle/setup.rs).

use herald::board::Hex;
use herald::games::unfought_battle::board::Board;
use herald::games::unfought_battle::ruleset::Ruleset;
use herald::games::unfought_battle::setup::*;
use herald::rng::{self};

fn rules() -> Ruleset {
    Ruleset::parse(herald::games::unfought_battle::UnfoughtBattle::RULESET_TEXT).unwrap()
}

#[test]
fn every_drawn_board_is_fair_and_in_bounds() {
    let r = rules();
    let starts: Vec<Hex> = r
        .board
        .starts
        .iter()
        .flatten()
        .map(|h| Hex::new(h[0], h[1]))
        .collect();
    let mut boards = std::collections::BTreeSet::new();
    for seed in 0..300 {
        let b = generate(&r, &mut rng::from_u64(seed)).unwrap();
        assert!(fair(&r, &b));
        assert_eq!(b.contentious.len(), 3);
        assert!(b
            .contentious
            .iter()
            .all(|h| (2..=4).contains(&h.q) && (2..=4).contains(&h.r)));
        assert!((9..=11).contains(&b.difficult.len()));
        assert!(b
            .difficult
            .iter()
            .all(|h| b.on_board(*h) && !starts.contains(h) && !b.is_contentious(*h)));
        let [a, z] = r.board.corners.map(|h| Hex::new(h[0], h[1]));
        let (ta, tz) = (b.path_total(a).unwrap(), b.path_total(z).unwrap());
        assert!((ta - tz).abs() <= 1, "{ta} vs {tz}");
        boards.insert((b.contentious.clone(), b.difficult.clone()));
    }
    assert!(boards.len() > 250, "the draw varies: {}", boards.len());
}

#[test]
fn an_unfair_board_is_refused_by_the_fairness_test() {
    let r = rules();
    // 2,2 is 4 from 0,0 and 8 from 6,6: totals 4+6+6 vs 8+6+6.
    let mut b = Board {
        size: 7,
        centre: Hex::new(3, 3),
        contentious: vec![Hex::new(2, 2), Hex::new(2, 4), Hex::new(4, 2)],
        difficult: vec![],
        radius: None,
    };
    assert!(!fair(&r, &b));
    b.contentious = vec![Hex::new(2, 4), Hex::new(3, 3), Hex::new(4, 2)];
    assert!(fair(&r, &b));
    // Walling a corner off a Contentious hex is unfair.
    b.difficult = vec![Hex::new(1, 0), Hex::new(0, 1), Hex::new(1, 1)];
    b.difficult.sort();
    assert!(!fair(&r, &b));
}

#[test]
fn positions_read_and_fallen_powers_are_public() {
    let r = rules();
    let st = from_position(
        &r,
        "contentious = [\"3,3\"]\n[[side]]\nforces = [\"f1 0,0 1\", \"f3 2,2 5\"]\n[[side]]\nforces = [\"f2 6,6 1\"]\n",
    )
    .unwrap();
    let powers: Vec<u8> = st.sides[0].forces.iter().map(|f| f.power).collect();
    assert_eq!(powers, vec![1, 2, 5, 3, 4]);
    assert_eq!(st.sides[1].known, vec![2, 4, 5]);
    let e = from_position(
        &r,
        "contentious = []\n[[side]]\nforces = [\"f2 0,0 2\"]\n[[side]]\nforces = [\"f1 6,6 1\"]\n",
    )
    .unwrap_err();
    assert!(
        matches!(e, BadPosition::Sovereign { side: 1, power: 1 }),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "side 1: the Sovereign (power 1) must be alive"
    );
}
