//! The host's memory of its players (issue 52): reliability across a
//! host's games, worked by hand and by the code from the game files.

use crate::store::{ok, s, Spot};
use herald::community::reliability::{of_address, of_host, Tally};
use std::path::{Path, PathBuf};
use std::time::Duration;

const T0: &str = "2026-11-22T12:00:00Z";

/// The time `m` minutes after T0.
fn t(m: i64) -> String {
    (chrono::DateTime::parse_from_rfc3339(T0).unwrap() + chrono::Duration::minutes(m)).to_rfc3339()
}

/// What happens to the awaited player in one phase.
#[derive(Clone, Copy)]
enum Then {
    /// They send their orders.
    Orders,
    /// They send nothing; the deadline passes and the stand-in plays.
    Missed,
    /// They are away on vacation (the host's stand-in mode): excused.
    Away,
}

/// A Stack Wars game `id` in host folder `host`, black and white at the
/// addresses given, with an hour to each phase.
fn game(host: &Path, id: &str, black: &str, white: &str) -> PathBuf {
    let g = host.join(id);
    ok(&[
        "new",
        "stack-wars",
        "--players",
        "black,white",
        "--id",
        id,
        "--out",
        s(&g),
        "--seed",
        id,
        "--now",
        T0,
        "--deadline",
        &t(60),
        "--deadline-every",
        "1h",
        "--drop-after",
        "0",
        "--email",
        &format!("black={black}"),
        "--email",
        &format!("white={white}"),
        "--light-passwords",
    ]);
    g
}

/// Play one phase of `g` at minute `m` (past the last deadline when
/// `then` is not Orders); the awaited player's id.
fn phase(g: &Path, m: i64, then: Then) -> String {
    if let Then::Away = then {
        // Away on vacation (stand-in mode) since the minute before.
        let before = t(m - 1);
        let mut w = herald::pipeline::open_to_write(g, Duration::from_secs(5), &before).unwrap();
        let seat = w.game.rules.awaiting(&w.game.state)[0];
        let id = w.game.players()[seat].clone();
        herald::host::vacation::request(
            &mut w,
            &id,
            &t(m + 3 * 1440),
            &before,
            14,
            herald::host::lobby::seats::VacationMode::StandIn,
        )
        .unwrap()
        .unwrap();
    }
    let now = t(m);
    let mut w = herald::pipeline::open_to_write(g, Duration::from_secs(5), &now).unwrap();
    let seat = w.game.rules.awaiting(&w.game.state)[0];
    let id = w.game.players()[seat].clone();
    let pw = w.store.secrets().unwrap().passwords[&id].clone();
    match then {
        Then::Orders => {
            let orders = w.game.rules.legal_orders(&w.game.state, seat).remove(0);
            let text = herald::report::order_file(
                &w.game.head().id,
                &id,
                w.game.head().turn,
                &pw,
                &orders,
            );
            let f = g.parent().unwrap().join(format!("{id}-{m}.toml"));
            std::fs::write(&f, text).unwrap();
            herald::pipeline::resolve_writing(&mut w, &[f], &now).unwrap();
        }
        Then::Missed => {
            herald::pipeline::resolve_writing(&mut w, &[], &now).unwrap();
        }
        Then::Away => {
            herald::pipeline::resolve_excusing(&mut w, &[], &now, &[id.clone()]).unwrap();
        }
    }
    id
}

/// The worked example of docs/host.md ("Reliability"): ann plays three
/// games of one host. Game 1 (ann black, bob white): ann sends orders
/// twice and misses once; bob sends every time. Game 2 (cy black, ann
/// white): ann is away once (a stand-in plays, excused) and sends once;
/// cy misses once. Game 3 (ann black, cy white): ann sends once, misses
/// once. Ann: 4 of 6 phases with orders in, 1 excused, 3 games: 67%.
/// The code's figures from the files equal the count of what was done.
#[test]
fn reliability_over_three_games_with_a_vacation_and_a_stand_in() {
    let spot = Spot::new("reliability");
    let host = spot.join("host");
    std::fs::create_dir_all(&host).unwrap();
    let mut want: std::collections::BTreeMap<String, Tally> = Default::default();
    let games = [
        (
            "g1",
            "ann@c.test",
            "Bob@C.test",
            vec![
                Then::Orders,
                Then::Orders,
                Then::Missed,
                Then::Orders,
                Then::Orders,
                Then::Orders,
            ],
        ),
        (
            "g2",
            "cy@c.test",
            "ANN@c.test",
            vec![Then::Missed, Then::Away, Then::Orders, Then::Orders],
        ),
        (
            "g3",
            "ann@c.test",
            "cy@c.test",
            vec![Then::Orders, Then::Orders, Then::Missed],
        ),
    ];
    for (id, black, white, plan) in &games {
        let g = game(&host, id, black, white);
        let mut seen = std::collections::BTreeSet::new();
        for (k, then) in plan.iter().enumerate() {
            let who = phase(&g, 61 * (k as i64 + 1), *then);
            let addr = if who == "black" { black } else { white }.to_ascii_lowercase();
            let e = want.entry(addr.clone()).or_default();
            match then {
                Then::Orders => {
                    e.seated += 1;
                    e.ordered += 1;
                }
                Then::Missed => e.seated += 1,
                Then::Away => e.excused += 1,
            }
            if seen.insert(addr) {
                e.games += 1;
            }
        }
        crate::format3::verify_ok(&g);
    }
    let got = of_host(&host);
    assert_eq!(got, want);
    let ann = of_address(&host, "Ann@c.test");
    assert_eq!(ann, want["ann@c.test"]);
    assert_eq!(
        (ann.seated, ann.ordered, ann.excused, ann.games),
        (6, 4, 1, 3),
        "the plan above, by hand: {}",
        ann.shown()
    );
    assert_eq!(ann.percent(), Some(67));
    assert_eq!(want["bob@c.test"].percent(), Some(100));
    assert!(
        ann.shown().starts_with("67% (4 of 6 phases"),
        "{}",
        ann.shown()
    );
    assert_eq!(of_address(&host, "nobody@c.test").percent(), None);
}

/// A table asking a reliability of at least 80% refuses ann (67%) saying
/// both figures and what to do, and takes bob (100%) and a newcomer (no
/// figure); `me` mails each address its own figure only.
#[test]
fn a_table_refuses_a_join_below_its_minimum_and_me_tells_the_sender_alone() {
    let spot = Spot::new("reliability-lobby");
    let host = spot.join("host");
    std::fs::create_dir_all(&host).unwrap();
    let g = game(&host, "r1", "ann@c.test", "bob@c.test");
    for (k, then) in [
        Then::Missed,
        Then::Orders,
        Then::Orders,
        Then::Orders,
        Then::Missed,
    ]
    .into_iter()
    .enumerate()
    {
        phase(&g, 61 * (k as i64 + 1), then);
    }
    // ann: 1 of 3 phases (33%); bob: 2 of 2 (100%).
    crate::lobby::open(
        &host,
        "t9",
        &["--ruleset", "hexwar", "--min-reliability", "80"],
    );
    let (code, _, err) = crate::common::herald(&[
        "host",
        "open",
        s(&host),
        "t8",
        "--ruleset",
        "hexwar",
        "--min-reliability",
        "101",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("0 to 100"), "{err}");
    use herald::host::lobby::commands;
    let addr = |g: &str| format!("host+{g}@x.test");
    let cx = commands::Ctx {
        host: herald::host::layout::HostDir::at(&host),
        from: "host@x.test".into(),
        game_address: &addr,
        now: t(2000),
        seats_per_address: 1,
        may_mail_code: &|_, _| Ok(true),
    };
    let say = |line: &str, from: &str, n: usize| {
        let cmd = commands::parse_line(line).unwrap();
        let a = commands::answer(&cx, &cmd, from, &format!("{n:064x}"), "<m@x>", "Re: x").unwrap();
        let text = String::from_utf8_lossy(&a.reply.unwrap().1).into_owned();
        (a.outcome, text)
    };
    let (o, text) = say("join t9 Ann", "ann@c.test", 1);
    assert!(o.refused(), "{text}");
    assert!(text.contains("at least 80%"), "{text}");
    assert!(text.contains("33% (1 of 3 phases"), "{text}");
    let (o, text) = say("join t9 Bob", "Bob@c.test", 2);
    assert!(!o.refused(), "{text}");
    let (o, _) = say("join t9 Dee", "dee@c.test", 3);
    assert!(!o.refused());
    let (_, text) = say("me", "ann@c.test", 4);
    assert!(text.contains("33% (1 of 3 phases"), "{text}");
    assert!(
        !text.contains("bob@c.test") && !text.contains("100%"),
        "{text}"
    );
}
