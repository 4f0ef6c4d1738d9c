//! Resign and draw by agreement in each of the five games (issue 52,
//! format 6): each ends the game as the rules and docs/host.md ("Resign
//! and draw") say, and `verify`'s replay makes every entry again.

use crate::common::EngineGame;
use herald::pipeline::ending::{self, Act, Refusal};

const GAMES: [(&str, &[&str]); 5] = [
    ("stack-wars", &["black", "white"]),
    ("hexwar", &["white", "black"]),
    ("unfought-battle", &["red", "blue"]),
    ("war-of-the-dukes", &["orf", "wolf"]),
    ("norse-wars", &["red", "blue"]),
];

fn at(minute: u32) -> String {
    format!("2026-11-22T14:{minute:02}:00Z")
}

/// Every awaited player plays their first legal set of orders.
fn play_turn(g: &mut EngineGame) {
    g.turn(|l, seat| {
        l.rules
            .legal_orders(&l.state, seat)
            .into_iter()
            .next()
            .unwrap_or_default()
    });
}

/// A game of `name` played until a resignation of its first player is
/// taken (Norse Wars: past the Shield draft).
fn under_way(name: &str, players: &[&str], tag: &str) -> EngineGame {
    let mut g = EngineGame::new(name, players, "52", Vec::new(), tag);
    for _ in 0..40 {
        if ending::resign_body(&g.loaded, players[0], &at(0)).is_ok() {
            return g;
        }
        assert!(
            !g.over(),
            "{name}: the game ended before a resignation was taken"
        );
        play_turn(&mut g);
    }
    panic!("{name}: no resignation taken in 40 turns");
}

fn resign(g: &mut EngineGame, player: &str, now: &str) -> Result<ending::Done, Refusal> {
    ending::resign(&mut g.loaded, player, now, &g.seed.clone(), &g.signer).unwrap()
}

fn draw(g: &mut EngineGame, player: &str, act: Act, now: &str) -> Result<ending::Done, Refusal> {
    ending::draw(&mut g.loaded, player, act, now, &g.seed.clone(), &g.signer).unwrap()
}

/// In every game a resignation ends a two-player game at once: the other
/// player wins, the seed is revealed in the same commit, and `verify`
/// replays the resignation.
#[test]
fn a_resignation_ends_each_two_player_game_and_verify_replays_it() {
    for (name, players) in GAMES {
        let mut g = under_way(name, players, &format!("resign-{name}"));
        let done = resign(&mut g, players[0], &at(1)).unwrap_or_else(|r| panic!("{name}: {r}"));
        let o = done.ended.expect("the game ended");
        assert_eq!(o.winners, vec![players[1].to_string()], "{name}: {o:?}");
        assert!(done.told.contains("resigned"), "{name}: {}", done.told);
        let h = g.loaded.head();
        assert!(h.seed.is_some(), "{name}: the seed is revealed");
        assert!(h.awaiting.is_empty(), "{name}");
        let kinds: Vec<String> = g
            .loaded
            .record
            .entries
            .iter()
            .rev()
            .take(2)
            .map(|e| e.decode().unwrap().kind().to_string())
            .collect();
        assert_eq!(kinds, ["reveal", "resign"], "{name}");
        // Nothing more is taken.
        assert_eq!(
            resign(&mut g, players[1], &at(2)).unwrap_err(),
            Refusal::Over
        );
        assert_eq!(
            draw(&mut g, players[1], Act::Offer, &at(2)).unwrap_err(),
            Refusal::Over
        );
        assert_eq!(g.verify(), Vec::<String>::new(), "{name}");
    }
}

/// In every game: an offer declined lapses; a second offer, accepted by
/// the other player, ends the game drawn with no winner; the refusals
/// each name the line to send; `verify` replays every entry.
#[test]
fn a_draw_by_agreement_ends_each_game_with_no_winner_and_verify_replays_it() {
    for (name, players) in GAMES {
        let mut g = under_way(name, players, &format!("draw-{name}"));
        let (a, b) = (players[0], players[1]);
        let r = draw(&mut g, b, Act::Accept, &at(1)).unwrap_err();
        assert_eq!(r, Refusal::NoOffer { player: b.into() });
        assert!(
            r.to_string()
                .contains(&format!("offer draw {b} YOUR-PASSWORD")),
            "{r}"
        );
        let d = draw(&mut g, a, Act::Offer, &at(2)).unwrap();
        assert!(
            d.ended.is_none() && d.told.contains("offers a draw"),
            "{}",
            d.told
        );
        assert_eq!(ending::standing(&g.loaded), Some(vec![a.to_string()]));
        let r = draw(&mut g, b, Act::Offer, &at(3)).unwrap_err();
        assert!(
            r.to_string()
                .contains(&format!("accept draw {b} YOUR-PASSWORD")),
            "{r}"
        );
        assert_eq!(
            draw(&mut g, a, Act::Accept, &at(3)).unwrap_err(),
            Refusal::Agreed { player: a.into() }
        );
        let d = draw(&mut g, b, Act::Decline, &at(4)).unwrap();
        assert!(
            d.ended.is_none() && d.told.contains("declined"),
            "{}",
            d.told
        );
        assert_eq!(ending::standing(&g.loaded), None);
        // The reports made now tell it, the HTML report too (to every
        // player: the other seat's report as well).
        for seat in 0..2 {
            let html = crate::common::report(&g.loaded, seat, "html");
            for said in [
                format!("{a} offered a draw"),
                format!("{b} declined the draw"),
            ] {
                assert!(
                    html.contains(&said),
                    "{name}, seat {seat}: {said} not in the HTML report"
                );
            }
        }
        let text = crate::common::report(&g.loaded, 0, "text");
        assert!(
            text.contains(&format!("{a} offered a draw")),
            "{name}: {text}"
        );
        assert!(
            text.contains(&format!("{b} declined the draw")),
            "{name}: {text}"
        );
        draw(&mut g, b, Act::Offer, &at(5)).unwrap();
        let d = draw(&mut g, a, Act::Accept, &at(6)).unwrap();
        let o = d.ended.expect("drawn");
        assert!(o.winners.is_empty(), "{name}: {o:?}");
        assert!(
            o.summary.contains("drawn by agreement"),
            "{name}: {}",
            o.summary
        );
        assert!(g.loaded.head().seed.is_some(), "{name}");
        assert_eq!(g.verify(), Vec::<String>::new(), "{name}");
    }
}

/// An offer lapses when the next phase is resolved.
#[test]
fn a_draw_offer_lapses_at_the_next_resolution() {
    let mut g = under_way("hexwar", &["white", "black"], "draw-lapses");
    draw(&mut g, "white", Act::Offer, &at(1)).unwrap();
    assert!(ending::standing(&g.loaded).is_some());
    g.loaded
        .resolve_files(
            &g.files(|l, seat| l.rules.legal_orders(&l.state, seat).remove(0)),
            &at(2),
            &g.seed.clone(),
            &g.signer,
        )
        .unwrap();
    assert_eq!(ending::standing(&g.loaded), None);
    assert_eq!(
        draw(&mut g, "black", Act::Accept, &at(3)).unwrap_err(),
        Refusal::NoOffer {
            player: "black".into()
        }
    );
    assert_eq!(g.verify(), Vec::<String>::new());
}

/// Norse Wars with three players: no resignation during the Shield draft;
/// after it, a resigning player leaves (their pieces off the board) and
/// the others play on; a draw then needs the two still in, not the one
/// who left, who can no longer take part.
#[test]
fn in_norse_wars_with_three_a_resigning_player_leaves_and_the_others_play_on() {
    let players = ["red", "blue", "green"];
    let mut g = EngineGame::new(
        "norse-wars",
        &players,
        "52",
        vec!["draft_shields=true".into()],
        "norse-three",
    );
    assert_eq!(
        g.loaded.head().phase,
        "shields",
        "the game begins with the draft"
    );
    let r = resign(&mut g, "green", &at(0)).unwrap_err();
    assert_eq!(
        r,
        Refusal::NotNow {
            player: "green".into()
        }
    );
    assert!(r.to_string().contains("resign green YOUR-PASSWORD"), "{r}");
    let mut g = under_way("norse-wars", &players, "norse-three-b");
    let d = resign(&mut g, "red", &at(1)).unwrap();
    assert!(d.ended.is_none(), "{}", d.told);
    assert!(d.told.contains("goes on with blue, green"), "{}", d.told);
    let state = &g.loaded.head().state;
    let text = state.to_string();
    assert!(!g.loaded.head().awaiting.contains(&"red".to_string()));
    assert_eq!(
        resign(&mut g, "red", &at(2)).unwrap_err(),
        Refusal::NotIn {
            player: "red".into()
        },
        "{text}"
    );
    assert_eq!(
        draw(&mut g, "red", Act::Offer, &at(2)).unwrap_err(),
        Refusal::NotIn {
            player: "red".into()
        }
    );
    draw(&mut g, "blue", Act::Offer, &at(3)).unwrap();
    let d = draw(&mut g, "green", Act::Accept, &at(4)).unwrap();
    let o = d.ended.expect("blue and green agreed");
    assert!(
        o.winners.is_empty() && o.summary.contains("drawn by agreement"),
        "{o:?}"
    );
    assert_eq!(g.verify(), Vec::<String>::new());
}

/// A game of format 5 takes no resign or draw entry until it is
/// converted; the refusal says what to run.
#[test]
fn a_format_5_game_is_told_to_convert_first() {
    let spot = crate::store::Spot::new("format5-resign");
    let g = spot.join("stack");
    crate::store::copy_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format5/stack"),
        &g,
    );
    let (_, loaded) = herald::pipeline::open(&g).unwrap();
    assert_eq!(loaded.head().format, 5);
    let r = ending::resign_body(&loaded, "black", "2026-11-28T10:00:00Z").unwrap_err();
    assert_eq!(r, Refusal::Format { has: 5 });
    assert!(r.to_string().contains("herald convert"), "{r}");
    crate::format3::verify_ok(&g);
    let out = crate::store::ok(&[
        "convert",
        crate::store::s(&g),
        "--now",
        "2026-11-28T10:00:00Z",
    ]);
    assert!(
        out.contains(&format!("format 5 -> {}", herald::chain::FORMAT)),
        "{out}"
    );
    crate::format3::verify_ok(&g);
    let (_, loaded) = herald::pipeline::open(&g).unwrap();
    assert_eq!(loaded.head().format, herald::chain::FORMAT);
    assert!(ending::resign_body(&loaded, "black", "2026-11-28T10:01:00Z").is_ok());
}

/// A bot never accepts a draw (docs/host.md, "Resign and draw"): with a
/// bot seat still in, `offer draw` is refused saying why and the line to
/// resign instead, and nothing is written; the person may still resign,
/// and the bot wins.
#[test]
fn a_draw_offer_is_refused_while_a_bot_seat_is_in() {
    use crate::store::{ok, s, Spot};
    let spot = Spot::new("draw-bot");
    let g = spot.join("g");
    ok(&[
        "new",
        "stack-wars",
        "--players",
        "black,white",
        "--bot",
        "white=greedy",
        "--seed",
        "52",
        "--out",
        s(&g),
        "--now",
        "2026-11-22T14:00:00Z",
        "--light-passwords",
    ]);
    let now = at(5);
    let mut w =
        herald::pipeline::open_to_write(&g, std::time::Duration::from_secs(5), &now).unwrap();
    let seed = w.seed().unwrap();
    let before = w.game.record.entries.len();
    let r = ending::draw(&mut w.game, "black", Act::Offer, &now, &seed, &w.signer)
        .unwrap()
        .unwrap_err();
    assert_eq!(
        r,
        Refusal::BotIn {
            player: "black".into(),
            bots: vec!["white".into()]
        }
    );
    let words = r.to_string();
    assert!(
        words.contains("white (herald's bot) never accepts"),
        "{words}"
    );
    assert!(words.contains("resign black YOUR-PASSWORD"), "{words}");
    assert_eq!(w.game.record.entries.len(), before, "nothing written");
    let d = ending::resign(&mut w.game, "black", &now, &seed, &w.signer)
        .unwrap()
        .unwrap();
    assert_eq!(d.ended.unwrap().winners, ["white"]);
}
