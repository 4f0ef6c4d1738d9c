//! Unit tests of `herald::games::rules_error` (src/games/rules_error.rs):
//! the rules' problems are values a caller matches on, carrying the facts
//! (the word given, the orders legal instead); the words come from Display.

use herald::games::hexwar::NoSuch;
use herald::games::norse_wars::{IllegalMove, OrderError as NorseOrder};
use herald::games::rules_error::Kind;
use herald::games::{AnyState, Options, Rules, RulesError};
use herald::rng;

/// A game's rules and a fresh state (the standard setup, 2 players).
fn start(game: &str, players: &[&str], options: &[(&str, &str)]) -> (Box<dyn Rules>, AnyState) {
    let entry = herald::games::find(game).unwrap();
    let rules = entry.load(entry.ruleset).unwrap();
    let players: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    let options: Options = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut r = rng::phase_rng("7", "g", 0, "setup");
    let (state, _) = rules.setup(&players, &options, None, &mut r).unwrap();
    (rules, state)
}

#[test]
fn an_illegal_move_carries_the_moves_the_composer_could_offer() {
    let (rules, state) = start("norse-wars", &["red", "blue"], &[]);
    let seat = rules.awaiting(&state)[0];
    // Every move of every piece, tried: those the rules refuse must say
    // what that piece (or, without one, the player) may do instead, and
    // each such order must itself be accepted.
    let mut refused = 0;
    for piece in ["J", "W1", "W2", "W3", "W4", "W5"] {
        for dir in ["N", "NE", "SE", "S", "SW", "NW"] {
            for steps in ["1", "2"] {
                let line = format!("{piece} {dir} {steps}");
                let order = rules.parse_order(&state, seat, &line).unwrap();
                let problems = rules.check(&state, seat, &[order]);
                let Some(p) = problems.first() else { continue };
                refused += 1;
                assert_eq!(p.order, Some(0), "{line}");
                let kind = p.why.kind();
                let detail = p
                    .why
                    .detail::<IllegalMove>()
                    .unwrap_or_else(|| panic!("{line}: {:?} is not an IllegalMove", p.why));
                assert_eq!(detail.piece, piece);
                assert_eq!(kind, Kind::Illegal, "{line}");
                let legal = p.why.legal();
                assert!(!legal.is_empty(), "{line}: no alternatives");
                assert_eq!(legal, detail.legal.as_slice());
                for alt in legal {
                    let o = rules.parse_order(&state, seat, alt).unwrap();
                    assert!(
                        rules.check(&state, seat, &[o]).is_empty(),
                        "{line}: the alternative `{alt}` is refused"
                    );
                    if !detail.alternatives.is_empty() {
                        assert!(alt.starts_with(&format!("{piece} ")), "{line}: {alt}");
                    }
                }
                // The words are made from the facts, naming each alternative.
                let text = p.why.to_string();
                for alt in &detail.alternatives {
                    assert!(text.contains(alt.as_str()), "{text} lacks {alt}");
                }
            }
        }
    }
    assert!(refused > 10, "only {refused} moves refused at the start");
}

#[test]
fn order_syntax_has_kinds_shared_by_every_game() {
    let games: [(&str, &[&str]); 5] = [
        ("norse-wars", &["red", "blue"]),
        ("hexwar", &["white", "black"]),
        ("stack-wars", &["black", "white"]),
        ("war-of-the-dukes", &["orfburg", "wulfenburg"]),
        ("unfought-battle", &["north", "south"]),
    ];
    for (game, players) in games {
        let (rules, state) = start(game, players, &[]);
        let seat = rules.awaiting(&state)[0];
        let e = rules.parse_order(&state, seat, "   ").err().unwrap();
        assert!(matches!(e, RulesError::EmptyOrder { .. }), "{game}: {e:?}");
        assert_eq!(e.kind(), Kind::Malformed, "{game}");
        assert!(e.to_string().starts_with("empty order"), "{game}: {e}");
        let e = rules
            .parse_order(&state, seat, "zz9 zz9 zz9")
            .err()
            .unwrap();
        assert!(
            matches!(e.kind(), Kind::Malformed | Kind::UnknownPiece),
            "{game}: {e:?}"
        );
    }
}

#[test]
fn a_word_that_names_no_piece_is_told_back() {
    let (rules, state) = start("norse-wars", &["red", "blue"], &[]);
    let e = rules.parse_order(&state, 0, "X9 N").err().unwrap();
    assert_eq!(e.kind(), Kind::UnknownPiece);
    assert_eq!(
        e.detail::<NorseOrder>(),
        Some(&NorseOrder::NotAPiece { word: "X9".into() })
    );
    assert!(e.to_string().starts_with("`X9` is not a piece"));
    let e = rules.parse_order(&state, 0, "J N 3").err().unwrap();
    assert_eq!(
        e.detail::<NorseOrder>(),
        Some(&NorseOrder::BadSteps { word: "3".into() })
    );
}

#[test]
fn an_order_for_another_phase_is_of_kind_wrong_phase() {
    let (rules, state) = start("unfought-battle", &["north", "south"], &[]);
    assert_eq!(rules.phase(&state), "deploy");
    let e = rules.parse_order(&state, 0, "f1 move N").err().unwrap();
    assert_eq!(e.kind(), Kind::WrongPhase, "{e:?}");
}

#[test]
fn a_bad_option_names_what_the_ruleset_has() {
    let entry = herald::games::find("hexwar").unwrap();
    let rules = entry.load(entry.ruleset).unwrap();
    let mut options = Options::new();
    options.insert("template".into(), "nosuch".into());
    let found = rules.check_options(2, &options);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kind(), Kind::BadOption);
    let d = found[0].detail::<NoSuch>().unwrap();
    assert_eq!(d.value, "nosuch");
    assert!(d.names.contains(&"single".to_string()), "{:?}", d.names);
    assert_eq!(found[0].legal(), d.names.as_slice());
    options.insert("template".into(), "single".into());
    assert!(rules.check_options(2, &options).is_empty());
    let mut options = Options::new();
    options.insert("fog".into(), "maybe".into());
    let nw = herald::games::find("norse-wars").unwrap();
    let found = nw.load(nw.ruleset).unwrap().check_options(2, &options);
    assert!(
        matches!(&found[..], [RulesError::NotABool { name, value }] if name == "fog" && value == "maybe"),
        "{found:?}"
    );
}

#[test]
fn a_ruleset_that_does_not_read_keeps_the_parser_error() {
    let entry = herald::games::find("stack-wars").unwrap();
    let e = entry.load("not toml [").err().unwrap();
    assert_eq!(e.kind(), Kind::Ruleset);
    assert!(matches!(
        e,
        RulesError::RulesetUnreadable {
            title: "Stack Wars",
            ..
        }
    ));
}

#[test]
fn a_refused_action_says_what_is_legal_instead() {
    use herald::games::stack_wars::{IllegalAction, Instead};
    let (rules, state) = start("stack-wars", &["black", "white"], &[]);
    let order = rules.parse_order(&state, 0, "fortify 1,1").unwrap();
    let problems = rules.check(&state, 0, &[order]);
    assert_eq!(problems.len(), 1);
    let why = &problems[0].why;
    assert_eq!(why.kind(), Kind::NotYours, "{why:?}");
    let d = why.detail::<IllegalAction>().unwrap();
    assert!(
        matches!(&d.instead, Instead::SameKind(v) if v.len() == 9),
        "{d:?}"
    );
    assert_eq!(why.legal().len(), 9);
    for alt in why.legal() {
        let o = rules.parse_order(&state, 0, alt).unwrap();
        assert!(rules.check(&state, 0, &[o]).is_empty(), "{alt}");
    }
    // The player to move is not White: a whole-orders problem of its kind.
    let order = rules.parse_order(&state, 1, "fortify 0,0").unwrap();
    let problems = rules.check(&state, 1, &[order]);
    assert_eq!(problems[0].order, None);
    assert_eq!(problems[0].why.kind(), Kind::WrongPhase);
    assert_eq!(problems[0].why.to_string(), "it is not your turn");
}
