//! `herald new` (and `herald demo`) refuse a wrong player count, a player
//! id that is not a plain name or is given twice, an unknown option, an
//! option given twice and an option value the game does not accept, for
//! every game: exit status 2, a message naming what the game accepts, and
//! nothing written — the folder `--out` points into stays empty (issue 14).

use crate::common::{herald, scratch};
use std::path::Path;

/// Every entry under `dir`, recursively (none for a clean refusal).
fn contents(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        out.push(p.display().to_string());
        if p.is_dir() {
            out.extend(contents(&p));
        }
    }
    out
}

/// `herald new GAME --players PLAYERS OPTIONS… --out DIR/game`
/// is refused with exit 2, says each of `want`, and leaves DIR empty.
fn refused(game: &str, players: &str, options: &[&str], want: &[&str]) {
    let dir = scratch(&format!("refuse-{game}"));
    let out = dir.join("game");
    let mut args = vec![
        "new",
        game,
        "--players",
        players,
        "--seed",
        "1",
        "--now",
        "2026-11-22T12:00:00Z",
        "--out",
        out.to_str().unwrap(),
    ];
    for o in options {
        args.extend(["--option", o]);
    }
    let (code, stdout, err) = herald(&args);
    let what = format!("herald {}", args.join(" "));
    assert_eq!(code, 2, "{what}: exit {code}\n{stdout}{err}");
    for w in want {
        assert!(err.contains(w), "{what}: the message lacks `{w}`:\n{err}");
    }
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert_eq!(
        contents(&dir),
        Vec::<String>::new(),
        "{what}: files were written"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The players a game accepts, for the cases below that test something
/// else: (game, a good --players, the count message for a bad count, a bad
/// count, an unknown option, a bad option value and what it says).
struct Game {
    name: &'static str,
    good: &'static str,
    counts: &'static str,
    too_many: &'static str,
    too_few: &'static str,
    bad_value: Option<(&'static str, &'static str)>,
    no_options: bool,
}

const GAMES: [Game; 5] = [
    Game {
        name: "hexwar",
        good: "white,black",
        counts: "hexwar takes exactly 2 players: white,black",
        too_many: "a,b,c",
        too_few: "a",
        bad_value: Some((
            "template=Z",
            "option template=Z: the ruleset's templates are",
        )),
        no_options: false,
    },
    Game {
        name: "norse-wars",
        good: "red,blue",
        counts: "norse-wars takes 2 to 6 players",
        too_many: "a,b,c,d,e,f,g",
        too_few: "a",
        bad_value: Some(("fog=maybe", "option fog=maybe: say true or false")),
        no_options: false,
    },
    Game {
        name: "stack-wars",
        good: "black,white",
        counts: "stack-wars takes exactly 2 players: black,white",
        too_many: "a,b,c",
        too_few: "a",
        bad_value: Some(("size=99", "option size=99: the board is N×N with N from")),
        no_options: false,
    },
    Game {
        name: "unfought-battle",
        good: "north,south",
        counts: "unfought-battle takes exactly 2 players: north,south",
        too_many: "a,b,c",
        too_few: "a",
        bad_value: None,
        no_options: true,
    },
    Game {
        name: "war-of-the-dukes",
        good: "orfburg,wulfenburg",
        counts: "war-of-the-dukes takes exactly 2 players: orfburg,wulfenburg",
        too_many: "a,b,c",
        too_few: "a",
        bad_value: None,
        no_options: true,
    },
];

#[test]
fn a_wrong_player_count_writes_nothing() {
    for g in &GAMES {
        refused(
            g.name,
            g.too_many,
            &[],
            &[
                g.counts,
                &format!("--players gave {}", g.too_many.split(',').count()),
            ],
        );
        refused(g.name, g.too_few, &[], &[g.counts, "--players gave 1: a"]);
    }
}

#[test]
fn a_player_id_given_twice_writes_nothing() {
    for g in &GAMES {
        let first = g.good.split(',').next().unwrap();
        refused(
            g.name,
            &format!("{first},{first}"),
            &[],
            &[&format!("player id `{first}` is given more than once")],
        );
    }
}

#[test]
fn a_player_id_that_is_not_a_plain_name_writes_nothing() {
    for g in &GAMES {
        let second = g.good.split(',').nth(1).unwrap();
        for bad in ["Red", "../x", "a b", "ü"] {
            refused(
                g.name,
                &format!("{bad},{second}"),
                &[],
                &[&format!(
                    "player id `{bad}`: use lowercase letters, digits, - and _"
                )],
            );
        }
    }
}

#[test]
fn an_unknown_option_writes_nothing() {
    for g in &GAMES {
        let want = if g.no_options {
            format!("--option bogus=1: {} takes no options", g.name)
        } else {
            format!(
                "--option bogus=1: {} has no option `bogus`; it has: ",
                g.name
            )
        };
        refused(g.name, g.good, &["bogus=1"], &[&want]);
        refused(
            g.name,
            g.good,
            &["bogus"],
            &["--option bogus: write it as key=value"],
        );
    }
}

#[test]
fn a_bad_option_value_writes_nothing() {
    let mut tested = 0;
    for g in &GAMES {
        if let Some((opt, want)) = g.bad_value {
            refused(g.name, g.good, &[opt], &[want]);
            let name = opt.split('=').next().unwrap();
            refused(
                g.name,
                g.good,
                &[opt, opt],
                &[&format!("--option {name} is given twice")],
            );
            tested += 1;
        }
    }
    assert_eq!(tested, 3);
    // Norse Wars' teams need 4 or 6 players: 3 is refused before writing.
    refused(
        "norse-wars",
        "a,b,c",
        &["teams=true"],
        &["option teams=true: team mode needs 4 or 6 players, not 3"],
    );
}

/// Every problem is told at once, and a wrong count with a bad id too.
#[test]
fn every_problem_is_told_at_once() {
    refused(
        "hexwar",
        "a,a,Bad",
        &["bogus=1"],
        &[
            "hexwar takes exactly 2 players: white,black; --players gave 3: a,a,Bad",
            "player id `Bad`",
            "player id `a` is given more than once",
            "--option bogus=1: hexwar has no option `bogus`",
        ],
    );
}

/// `herald demo` goes through the same check: its --out folder is never
/// made.
#[test]
fn demo_refuses_before_making_its_folder() {
    let dir = scratch("refuse-demo");
    let out = dir.join("demo");
    let (code, _, err) = herald(&[
        "demo",
        "hexwar",
        "--players",
        "a,b,c",
        "--out",
        out.to_str().unwrap(),
        "--now",
        "2026-11-22T12:00:00Z",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("hexwar takes exactly 2 players: white,black"),
        "{err}"
    );
    assert_eq!(contents(&dir), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The checks refuse only what is wrong: each game's good players and
/// options still make a game.
#[test]
fn good_arguments_still_make_a_game() {
    for g in &GAMES {
        let dir = scratch(&format!("accept-{}", g.name));
        let out = dir.join("game");
        let (code, stdout, err) = herald(&[
            "new",
            g.name,
            "--players",
            g.good,
            "--seed",
            "1",
            "--now",
            "2026-11-22T12:00:00Z",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{}: {stdout}{err}", g.name);
        assert!(out.join("game.jsonl").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `new --light-passwords` (test and practice games) hashes with Argon2id's
/// lightest cost; without it, the standard cost. The parameters are in the
/// hash, so the same checking code serves both.
#[test]
fn light_passwords_only_when_asked() {
    let dir = crate::common::scratch("light-passwords");
    for (light, want) in [(true, "m=64,t=1"), (false, "m=19456,t=2")] {
        let out = dir.join(format!("g-{light}"));
        let out_s = out.to_str().unwrap();
        let mut args = vec![
            "new",
            "stack-wars",
            "--players",
            "black,white",
            "--seed",
            "1",
            "--out",
            out_s,
            "--now",
            "2026-11-22T12:00:00Z",
        ];
        if light {
            args.push("--light-passwords");
        }
        let (code, _, err) = crate::common::herald(&args);
        assert_eq!(code, 0, "{err}");
        let text = std::fs::read_to_string(out.join("game.jsonl")).unwrap();
        let hashes = text.matches("$argon2id$").count();
        assert_eq!(hashes, text.matches(want).count(), "light={light}");
        assert!(hashes >= 2, "light={light}: {hashes} hashes");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
