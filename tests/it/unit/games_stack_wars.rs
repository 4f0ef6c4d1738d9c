//! Unit tests of `herald::games::stack_wars` (src/games/stack_wars/mod.rs).

use herald::games::stack_wars::*;
use herald::games::{Draw, Game, Options};
use play::{Action, Event};
use ruleset::Ruleset;
use state::Stack;
use state::{Side, Square, State};

fn rules() -> Ruleset {
    Ruleset::parse(StackWars::RULESET_TEXT).unwrap()
}

fn sq(r: u8, c: u8) -> Square {
    Square::new(r, c)
}

#[test]
fn orders_read_and_write_back() {
    for text in ["fortify 8,4", "move 8,4 7,4", "attack 5,4 4,4", "resign"] {
        assert_eq!(parse_action(text).unwrap().to_string(), text);
    }
    assert_eq!(
        parse_action("Move (8,4) (7,4)").unwrap(),
        Action::Move {
            from: sq(8, 4),
            to: sq(7, 4)
        }
    );
    assert!(parse_action("move 8,4").is_err());
    assert!(parse_action("resign now").is_err());
    assert!(parse_action("fortify -1,2").is_err());
    assert!(parse_action("jump 1,1")
        .unwrap_err()
        .to_string()
        .contains("not an order"));
}

#[test]
fn neighbours_are_orthogonal_and_on_the_board() {
    let corner: Vec<Square> = sq(0, 0).neighbours(9).collect();
    assert_eq!(corner, vec![sq(0, 1), sq(1, 0)]);
    let mid: Vec<Square> = sq(2, 2).neighbours(9).collect();
    assert_eq!(mid, vec![sq(1, 2), sq(2, 1), sq(2, 3), sq(3, 2)]);
    let edge: Vec<Square> = sq(8, 8).neighbours(9).collect();
    assert_eq!(edge, vec![sq(7, 8), sq(8, 7)]);
}

#[test]
fn control_and_unclaimed() {
    let mut st = State::new(5, 15, false, 100);
    st.set(
        sq(2, 2),
        Some(Stack {
            side: Side::White,
            armies: 1,
        }),
    );
    assert!(st.controls(Side::Black, sq(4, 0)));
    assert!(!st.controls(Side::Black, sq(0, 0)));
    assert!(st.controls(Side::White, sq(0, 0)));
    assert!(st.controls(Side::White, sq(2, 2)));
    assert!(!st.controls(Side::Black, sq(2, 2)));
    assert!(st.unclaimed(sq(1, 1)));
    assert!(!st.unclaimed(sq(0, 1)) && !st.unclaimed(sq(4, 1)) && !st.unclaimed(sq(2, 2)));
}

#[test]
fn every_listed_action_is_legal_and_every_other_refused() {
    let r = rules();
    let mut rng = herald::rng::from_u64(3);
    for onto_own in [false, true] {
        let mut st = playout::new_game(&r, 5, onto_own);
        let mut ev = Vec::new();
        for _ in 0..60 {
            let Some(side) = st.mover() else { break };
            let mut all = Vec::new();
            st.actions(side, &mut all);
            // Brute force: every action on the board, listed iff legal.
            for a in st.squares() {
                let fortify = Action::Fortify(a);
                assert_eq!(
                    all.contains(&fortify),
                    st.check_action(side, fortify).is_ok()
                );
                for b in st.squares() {
                    for act in [
                        Action::Move { from: a, to: b },
                        Action::Attack { from: a, to: b },
                    ] {
                        assert_eq!(
                            all.contains(&act),
                            st.check_action(side, act).is_ok(),
                            "{act}"
                        );
                    }
                }
            }
            assert!(st.can_act(side) && !all.is_empty());
            assert_eq!(st.can_act(side.other()), {
                let mut theirs = Vec::new();
                st.actions(side.other(), &mut theirs);
                !theirs.is_empty()
            });
            let a = all[herald::rng::below(&mut rng, all.len() as u32) as usize];
            st.play(a, &mut ev);
        }
    }
}

#[test]
fn the_board_is_drawn_as_the_rules_text_draws_it() {
    let r = rules();
    let st = setup::from_position(
        &r,
        setup::parse_options(&r, &Options::new()).unwrap(),
        "size = 3\nblack = [\"2,1 x2\"]\nwhite = [\"1,0\"]\n",
    )
    .unwrap();
    let players = vec!["b".to_string(), "w".to_string()];
    let v = StackWars::view(&r, &st, &players, 0, &[]);
    let board = StackWars::ascii_board(&r, &v);
    let want = "      0      1      2
 0  (___)--(___)--(___)   White's baseline
      |      |      |
 1  (W 1)--(___)--(___)
      |      |      |
 2  (___)--(B 2)--(___)   Black's baseline
";
    assert_eq!(board, want);
}

#[test]
fn outcome_names_the_winner_and_the_score() {
    let r = rules();
    let mut st = State::new(3, 0, false, 100);
    st.points = [1, 2];
    st.set(
        sq(1, 1),
        Some(Stack {
            side: Side::Black,
            armies: 1,
        }),
    );
    st.reserves = [0, 1];
    let mut ev = Vec::new();
    st.play(
        Action::Move {
            from: sq(1, 1),
            to: sq(0, 1),
        },
        &mut ev,
    );
    let players = vec!["b".to_string(), "w".to_string()];
    let o = StackWars::outcome(&r, &st, &players).unwrap();
    assert!(o.winners.is_empty(), "2–2 is a draw");
    assert!(
        o.summary.starts_with("draw, points Black–White 2–2"),
        "{}",
        o.summary
    );
    assert!(matches!(ev.last(), Some(Event::Ended { winner: None, .. })));
}
