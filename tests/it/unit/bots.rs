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
