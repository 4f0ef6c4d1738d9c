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

/// A two-seat record: `bots` in seats 1 and 2, `winner` (a seat) with
/// `result`.
fn rec(index: u64, bots: [&str; 2], winner: usize, result: &str) -> herald::playtest::Record {
    herald::playtest::Record {
        game: "unfought-battle".into(),
        rules: None,
        ruleset_sha256: None,
        weights: None,
        weights_sha256: None,
        herald: None,
        options: Default::default(),
        seed: "s".into(),
        index,
        round: index / 2,
        seats: 2,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        winners: vec![winner],
        draw: false,
        finished: true,
        length: 10,
        scores: vec![0, 0],
        margin: 0,
        lead_changes: 0,
        result: format!("{winner} won: {result}"),
        evals: None,
        choices: None,
        coverage: None,
    }
}

#[test]
fn endings_are_told_by_the_winners_seat_and_bot() {
    use herald::playtest::summary;
    // 25 games ended by domination: seat 2 won 19 of them, seat 1 6.
    let mut rs = Vec::new();
    for i in 0..25u64 {
        let winner = usize::from(i >= 6);
        let bots = if i % 2 == 0 {
            ["greedy", "ismcts"]
        } else {
            ["ismcts", "greedy"]
        };
        rs.push(rec(i, bots, winner, "4 dominated"));
    }
    rs.push(rec(25, ["greedy", "ismcts"], 0, "the Sovereign fell"));
    let t = &summary::tables(&rs).unwrap()[0];
    let d = t
        .endings_by
        .iter()
        .find(|e| e.ending == "# dominated")
        .unwrap();
    assert_eq!(d.games, 25);
    assert_eq!(d.by_seat, vec![6, 19]);
    let by_bot: u64 = d.by_bot.iter().map(|(_, k)| k).sum();
    assert_eq!(by_bot, 25, "{:?}", d.by_bot);
    let text = summary::text(&summary::tables(&rs).unwrap());
    assert!(
        text.contains("# dominated  [seat 1 6, seat 2 19; "),
        "{text}"
    );
    assert!(
        text.contains("the Sovereign fell  [seat 1 1, seat 2 0;"),
        "{text}"
    );
}

#[test]
fn strengths_carry_their_interval_and_method() {
    use herald::playtest::summary;
    // 400 games, the second bot winning 300: a rating near +190 whose
    // interval is tens of points wide and excludes 0; 4 games: hundreds.
    let many: Vec<_> = (0..400u64)
        .map(|i| {
            let bots = if i % 2 == 0 {
                ["greedy", "mcts"]
            } else {
                ["mcts", "greedy"]
            };
            let mcts_wins = i % 4 != 3;
            let mcts_seat = usize::from(i % 2 == 0);
            let winner = if mcts_wins { mcts_seat } else { 1 - mcts_seat };
            rec(i, bots, winner, "won")
        })
        .collect();
    let t = &summary::tables(&many).unwrap()[0];
    let (name, r) = &t.elo[1];
    assert_eq!(name, "mcts");
    let (lo, hi) = t.elo_95[1].expect("an interval");
    assert!(
        lo < *r && *r < hi && lo > 0.0 && hi - lo < 150.0,
        "{lo} {r} {hi}"
    );
    let text = summary::text(&summary::tables(&many).unwrap());
    assert!(text.contains("Bradley-Terry fit with one virtual draw a pair, first bot 0; 95% Wald interval from the fit's information; 400 results"), "{text}");
    assert!(text.contains("(the reference)"), "{text}");
    let few: Vec<_> = many[..4].to_vec();
    let t = &summary::tables(&few).unwrap()[0];
    let (lo, hi) = t.elo_95[1].expect("an interval");
    assert!(
        hi - lo > 400.0,
        "four games leave the strength open: {lo} {hi}"
    );
}
