//! Unit tests of `herald::playtest::stats` (src/playtest/stats.rs).

use herald::playtest::stats::*;

#[test]
fn wilson_matches_the_textbook() {
    // 81 of 263: 0.3080 [0.2553, 0.3662] (Wilson 1927 / Newcombe 1998).
    let r = wilson(81, 263);
    assert!((r.low - 0.2553).abs() < 5e-4, "{r:?}");
    assert!((r.high - 0.3662).abs() < 5e-4, "{r:?}");
    let all = wilson(40, 40);
    assert!(all.low > 0.91 && all.low < 0.92, "{all:?}");
    assert_eq!(all.high, 1.0);
    let none = wilson(0, 10);
    assert_eq!(none.low, 0.0);
}

#[test]
fn spread_of_a_sample() {
    let s = spread(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
    assert!((s.mean - 5.0).abs() < 1e-12);
    assert!((s.sd - 2.138_089_935).abs() < 1e-6);
    assert_eq!((s.min, s.max), (2.0, 9.0));
}

#[test]
fn elo_orders_players_by_results() {
    // b beats a 3 of 4, c beats b 3 of 4.
    let mut pairs = Vec::new();
    for k in 0..4 {
        pairs.push(Pair {
            a: 1,
            b: 0,
            score: if k < 3 { 1.0 } else { 0.0 },
        });
        pairs.push(Pair {
            a: 2,
            b: 1,
            score: if k < 3 { 1.0 } else { 0.0 },
        });
    }
    let e = elo(3, &pairs);
    assert_eq!(e[0], 0.0);
    assert!(e[1] > 50.0 && e[2] > e[1] + 50.0, "{e:?}");
    // Even results: even ratings.
    let even = elo(
        2,
        &[
            Pair {
                a: 0,
                b: 1,
                score: 1.0,
            },
            Pair {
                a: 0,
                b: 1,
                score: 0.0,
            },
        ],
    );
    assert!(even[1].abs() < 1e-9, "{even:?}");
}
