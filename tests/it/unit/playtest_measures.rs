//! Unit tests of `herald::playtest::measures` (src/playtest/measures.rs):
//! Ludii's measures on hand-made records whose answers are worked out by
//! hand in the comments.

use herald::playtest::measures::{
    at_turn_limit, balance_index, choice_measures, decisiveness, drama, endings, eval_measures,
    lead_changes,
};
use herald::playtest::stats::{chi_square_homogeneity, mean_difference, spread};
use herald::playtest::{summary, Record};

fn rec(game: &str, index: u64, seats: usize, winners: &[usize], result: &str) -> Record {
    Record {
        game: game.into(),
        rules: None,
        ruleset_sha256: None,
        weights: None,
        weights_sha256: None,
        herald: None,
        options: Default::default(),
        seed: "m".into(),
        index,
        round: index / seats as u64,
        seats,
        bots: vec!["greedy".into(); seats],
        winners: winners.to_vec(),
        draw: winners.is_empty() && !result.starts_with("unfinished"),
        finished: !result.starts_with("unfinished"),
        length: 5,
        scores: vec![0; seats],
        margin: 0,
        lead_changes: 0,
        result: result.into(),
        evals: None,
        choices: None,
        coverage: None,
    }
}

#[test]
fn balance_index_is_one_minus_the_widest_gap_between_win_rates() {
    // 10 games of 3 seats: 5, 3 and 1 wins and a draw. Rates .5, .3, .1:
    // the widest gap is .4, the index .6.
    let mut rs = Vec::new();
    for i in 0..10u64 {
        let w: &[usize] = match i {
            0..=4 => &[0],
            5..=7 => &[1],
            8 => &[2],
            _ => &[],
        };
        rs.push(rec(
            "norse-wars",
            i,
            3,
            w,
            if w.is_empty() { "draw" } else { "won" },
        ));
    }
    let refs: Vec<&Record> = rs.iter().collect();
    assert!((balance_index(&refs, 3) - 0.6).abs() < 1e-12);
    // Even seats: 1; one seat always: 0.
    let even: Vec<Record> = (0..4)
        .map(|i| rec("hexwar", i, 2, &[(i % 2) as usize], "won"))
        .collect();
    assert_eq!(balance_index(&even.iter().collect::<Vec<_>>(), 2), 1.0);
    let one: Vec<Record> = (0..4).map(|i| rec("hexwar", i, 2, &[1], "won")).collect();
    assert_eq!(balance_index(&one.iter().collect::<Vec<_>>(), 2), 0.0);
}

#[test]
fn games_ended_by_the_rules_turn_limit_are_counted_apart() {
    let rs = [
        rec("hexwar", 0, 2, &[0], "0 (white, Knights) won: turn limit, royal piece nearer the centre (3 to 4)"),
        rec("hexwar", 1, 2, &[1], "1 (black, Necromancers) won: the enemy's royal piece was captured"),
        rec("hexwar", 2, 2, &[1], "1 (black, Necromancers) won: turn limit, royal pieces equally near the centre, more pieces"),
        rec("hexwar", 3, 2, &[], "unfinished after 5000 phases"),
        rec("hexwar", 4, 2, &[], "draw: both royal pieces fell"),
    ];
    let refs: Vec<&Record> = rs.iter().collect();
    let e = endings(&refs);
    assert_eq!(
        (
            e.won_in_play.hits,
            e.won_at_limit.hits,
            e.drawn_at_limit.hits
        ),
        (1, 2, 0)
    );
    assert_eq!((e.drawn_in_play.hits, e.unfinished.hits), (1, 1));
    // Ludii's Completion: a winner, whether in play or at the limit: 3 of 5.
    assert_eq!((e.completion.hits, e.completion.of), (3, 5));
    // The texts of the other games' limits; the same words in another game
    // are not its limit.
    assert!(at_turn_limit(
        "unfought-battle",
        "draw: the turn cap: turn 40 ended with both Sovereigns alive"
    ));
    assert!(at_turn_limit(
        "war-of-the-dukes",
        "1 (Wulfenburg) won a marginal victory: after turn 15 Orfburg does not hold Kaiserburg"
    ));
    assert!(!at_turn_limit(
        "war-of-the-dukes",
        "0 (Orfburg) won: the Duke of Wulfenburg was eliminated in the combat for K12"
    ));
    assert!(!at_turn_limit("norse-wars", "0 won: turn limit"));
}

/// The games' own result texts, as played today: HEXWAR's greedy
/// self-play file tells 279 + 28 + 3 games ended by the turn limit
/// (docs/playtest/hexwar/greedy-self.txt, "endings"), War of the Dukes'
/// 45 + 14 + 5 + 3 after the last turn, The Unfought Battle's one at the
/// turn cap.
#[test]
fn the_turn_limit_texts_match_the_games_results() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/playtest");
    for (file, want) in [
        ("hexwar/greedy-self.jsonl", 310),
        ("war-of-the-dukes/greedy-self.jsonl", 67),
        ("unfought-battle/greedy-self.jsonl", 1),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let rs = summary::read(file, &text).unwrap();
        let n = rs
            .iter()
            .filter(|r| r.finished && at_turn_limit(&r.game, &r.result))
            .count();
        assert_eq!(n, want, "{file}");
    }
}

#[test]
fn lead_changes_follow_the_set_of_leaders_on_the_evaluation() {
    // Leaders {0} {0} {1} {0,1} {0,1} {0}: changes at the 3rd, 4th and
    // 6th phase: 3; Ludii's Lead Change for the game 3 / 6 = 0.5.
    let evals = vec![
        vec![10, -10],
        vec![5, -5],
        vec![-3, 3],
        vec![0, 0],
        vec![0, 0],
        vec![7, -7],
    ];
    assert_eq!(lead_changes(&evals), 3);
    let mut r = rec(
        "hexwar",
        0,
        2,
        &[0],
        "0 won: the enemy's royal piece was captured",
    );
    r.length = 6;
    r.evals = Some(evals);
    let m = eval_measures(&[&r]).unwrap();
    assert_eq!(m.lead_changes.mean, 3.0);
    assert!((m.lead_change - 0.5).abs() < 1e-12);
}

#[test]
fn decisiveness_and_drama_by_hand() {
    // Seat 1 wins. Seat 0's best evaluation is 30 (the threshold); seat
    // 1's -10, -30, 20, 40, 100 first passes it after phase 4: 4 of 5
    // phases, 0.8.
    let evals = vec![
        vec![10, -10],
        vec![30, -30],
        vec![-20, 20],
        vec![-40, 40],
        vec![-100, 100],
    ];
    assert_eq!(decisiveness(&evals, &[1]), Some((30, 4, 0.8)));
    // Drama: the winner stood 20, 60, 0, 0, 0 below the best: mean 16,
    // behind in 2 of 5 phases.
    let (d, behind) = drama(&evals, &[1]).unwrap();
    assert!((d - 16.0).abs() < 1e-12 && (behind - 0.4).abs() < 1e-12);
    // Two winners (a team) against seat 2, whose best is 6: neither winner
    // passes it, so the game is decided only at its end (2 of 2 phases).
    // Drama: best 5 against the winners' mean 3, then 6 against 3: 2.5.
    let team = vec![vec![5, 1, 0], vec![2, 4, 6]];
    assert_eq!(decisiveness(&team, &[0, 1]), Some((6, 2, 1.0)));
    assert_eq!(drama(&team, &[0, 1]), Some((2.5, 1.0)));
    // No winner: neither measure.
    assert_eq!(decisiveness(&evals, &[]), None);
    assert_eq!(drama(&evals, &[]), None);
    // Over games: the measures' means; a drawn game counts for lead
    // changes only.
    let mut a = rec(
        "hexwar",
        0,
        2,
        &[1],
        "1 won: the enemy's royal piece was captured",
    );
    a.evals = Some(evals);
    let mut b = rec("hexwar", 1, 2, &[], "draw: both royal pieces fell");
    b.evals = Some(vec![vec![0, 0], vec![1, -1]]);
    let m = eval_measures(&[&a, &b]).unwrap();
    assert_eq!((m.games, m.decided), (2, 1));
    assert!((m.decisiveness.mean - 0.8).abs() < 1e-12);
    assert_eq!(m.decisive_phase.mean, 4.0);
    assert!((m.drama.mean - 16.0).abs() < 1e-12);
    // Lead changes: a's leaders {0} {0} {1} {1} {1}: 1; b's {0,1} {0}: 1.
    assert_eq!(m.lead_changes.mean, 1.0);
    // Records without evaluations give no such measures.
    let c = rec("hexwar", 2, 2, &[1], "1 won");
    assert!(eval_measures(&[&c]).is_none());
}

#[test]
fn branching_factor_and_decision_moves_by_hand() {
    // Game 1: 3, 1, 4 choices (mean 8/3, two of three decisions a
    // choice); game 2: 2, 2 (mean 2, both a choice). Ludii's averages over
    // the games: (8/3 + 2) / 2 = 7/3 and (2/3 + 1) / 2 = 5/6; max 4.
    let mut a = rec("norse-wars", 0, 2, &[0], "0 won: took the Throne");
    a.choices = Some(vec![vec![3], vec![1], vec![4]]);
    let mut b = rec("norse-wars", 1, 2, &[1], "1 won: took the Throne");
    b.choices = Some(vec![vec![2], vec![2]]);
    let c = choice_measures(&[&a, &b]).unwrap();
    assert!(c.exact, "norse-wars lists every legal move");
    assert_eq!(c.decisions, 5);
    assert!((c.per_game.mean - 7.0 / 3.0).abs() < 1e-12);
    assert_eq!(c.per_decision.max, 4.0);
    assert!((c.decision_moves.mean - 5.0 / 6.0).abs() < 1e-12);
    // By phase (three phases: one a row): 3 and 2, 1 and 2, 4.
    let means: Vec<(u32, u32, f64)> = c
        .by_phase
        .iter()
        .map(|(a, b, s)| (*a, *b, s.mean))
        .collect();
    assert_eq!(means, vec![(1, 1, 2.5), (2, 2, 1.5), (3, 3, 4.0)]);
    // A game whose candidates are a sample says so.
    let mut w = rec("war-of-the-dukes", 0, 2, &[0], "0 won");
    w.choices = Some(vec![vec![6]]);
    assert!(!choice_measures(&[&w]).unwrap().exact);
}

#[test]
fn comparison_statistics_by_hand() {
    // 30:10 against 20:20 wins: column totals 50 and 30, every row 40, so
    // 25 and 15 expected in each; chi-square = 1 + 5/3 + 1 + 5/3 = 16/3
    // with 1 degree of freedom: p = 2 (1 - Phi(sqrt(16/3))) = 0.02092.
    let (x, df, p) = chi_square_homogeneity(&[30, 10], &[20, 20]).unwrap();
    assert!((x - 16.0 / 3.0).abs() < 1e-9, "{x}");
    assert_eq!(df, 1);
    assert!((p - 0.020921).abs() < 1e-5, "{p}");
    // A seat no game's winner sat in drops out; one row empty: no test.
    assert_eq!(
        chi_square_homogeneity(&[30, 10, 0], &[20, 20, 0])
            .unwrap()
            .1,
        1
    );
    assert!(chi_square_homogeneity(&[0, 0], &[3, 4]).is_none());
    // Means 10 and 8, sd 2 over 4 each: the difference 2 ± 1.96 sqrt(2).
    let a = spread(&[8.0, 8.0, 12.0, 12.0]);
    let b = spread(&[6.0, 6.0, 10.0, 10.0]);
    assert!((a.sd - (16.0f64 / 3.0).sqrt()).abs() < 1e-12);
    let (d, lo, hi) = mean_difference(&a, &b);
    let half = 1.959_963_984_540_054 * (2.0 * 16.0 / 3.0 / 4.0f64).sqrt();
    assert_eq!(d, 2.0);
    assert!((lo - (2.0 - half)).abs() < 1e-12 && (hi - (2.0 + half)).abs() < 1e-12);
}
