//! Unit tests of `herald::playtest::summary` (src/playtest/summary.rs).

use herald::playtest::summary::ending;

#[test]
fn endings_keep_the_reason_without_numbers_or_pieces() {
    assert_eq!(ending("0 won: took the Throne"), "took the Throne");
    assert_eq!(
        ending("1 (Wulfenburg) won a marginal victory: after turn 15 Orfburg does not hold Kaiserburg and Wulfenburg stands in the between-rivers area (C2 1015, A3 0420)"),
        "after turn # Orfburg does not hold Kaiserburg and Wulfenburg stands in the between-rivers area"
    );
    assert_eq!(ending("draw"), "draw");
}
