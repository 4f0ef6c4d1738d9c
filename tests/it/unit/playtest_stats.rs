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

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn gamma_and_chi_square_match_the_tables() {
    // ln Γ(n) = ln (n − 1)!; Γ(½) = √π.
    assert!(close(ln_gamma(10.0), (362_880f64).ln(), 1e-10));
    assert!(close(
        ln_gamma(0.5),
        std::f64::consts::PI.sqrt().ln(),
        1e-10
    ));
    // The χ² table's 5% and 1% points.
    for (x, df, p) in [
        (3.841_459, 1, 0.05),
        (5.991_465, 2, 0.05),
        (11.070_498, 5, 0.05),
        (6.634_897, 1, 0.01),
        (15.086_27, 5, 0.01),
        (0.0, 3, 1.0),
    ] {
        let got = chi_square_p(x, df);
        assert!(close(got, p, 1e-6), "χ²({df}) ≥ {x}: {got}, not {p}");
    }
    // Far in the tail, and a statistic of 40 with 1 df.
    assert!(chi_square_p(40.0, 1) < 1e-9);
    assert_eq!(chi_square_equal(&[10]), None);
    let (x, df, p) = chi_square_equal(&[30, 10]).unwrap();
    assert!(close(x, 10.0, 1e-12) && df == 1 && close(p, 0.001_565, 1e-5));
}

#[test]
fn binomial_test_matches_r() {
    // binom.test(7, 20) → p = 0.2632; binom.test(29, 40) → 0.006427;
    // binom.test(3, 10) → 0.3438; binom.test(10, 20) → 1.
    for (k, n, p) in [
        (7, 20, 0.263_2),
        (29, 40, 0.006_427),
        (3, 10, 0.343_8),
        (10, 20, 1.0),
    ] {
        let got = binomial_p(k, n, 0.5);
        assert!(close(got, p, 5e-4), "{k} of {n}: {got}, not {p}");
    }
    // Against a third: binom.test(20, 30, 1/3) → 0.000277.
    assert!(close(binomial_p(20, 30, 1.0 / 3.0), 0.000_277, 2e-6));
}

#[test]
fn verdicts_read_the_interval() {
    let v = |k, n| verdict(&wilson(k, n), 0.5, binomial_p(k, n, 0.5), 1);
    assert_eq!(v(620, 1000), Verdict::Favoured);
    assert_eq!(v(380, 1000), Verdict::Disfavoured);
    assert_eq!(v(505, 1000), Verdict::Balanced);
    assert_eq!(v(22, 40), Verdict::Undecided);
    // The interval of 4 of 4 is above a half, the exact test is not.
    assert!(wilson(4, 4).low > 0.5);
    assert_eq!(v(4, 4), Verdict::Undecided);
    // A seat of six, 400 games (a fair sixth is 66.7 wins): 90 wins has
    // p = 0.0025 (R: binom.test(90, 400, 1/6)), below 0.05 / 6 = 0.0083,
    // so it is favoured alone and as one of six seats; 86 wins (p = 0.013)
    // has its interval above a sixth too, and is favoured alone but not
    // when read as one of six.
    let six = |k, tests| {
        verdict(
            &wilson(k, 400),
            1.0 / 6.0,
            binomial_p(k, 400, 1.0 / 6.0),
            tests,
        )
    };
    assert!(binomial_p(90, 400, 1.0 / 6.0) < 0.05 / 6.0);
    let p86 = binomial_p(86, 400, 1.0 / 6.0);
    assert!(p86 > 0.05 / 6.0 && p86 < 0.05, "{p86}");
    assert!(wilson(86, 400).low > 1.0 / 6.0);
    assert_eq!(six(90, 6), Verdict::Favoured);
    assert_eq!(six(86, 1), Verdict::Favoured);
    assert_ne!(six(86, 6), Verdict::Favoured);
}
