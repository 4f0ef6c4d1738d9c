//! A report tells a player what to do (issue 48): the address to answer,
//! the deadline in UTC and on the player's own clock, how long is left,
//! what happens if nothing comes; the zone kept private and the report
//! still proven by `verify --witness`; War of the Dukes' hexsides in
//! words; each form's hint in its game's own notation.

use crate::common::{herald, scratch};
use std::path::Path;

fn secrets(dir: &Path) -> toml::Table {
    toml::from_str(&std::fs::read_to_string(dir.join("secrets.toml")).unwrap()).unwrap()
}

#[test]
// Long: one game's first reports, each promise checked beside the others.
fn the_report_says_where_when_and_what_if_not() {
    let dir = scratch("answer");
    let g = dir.join("game");
    let gs = g.to_str().unwrap();
    let (code, out, err) = herald(&[
        "new",
        "hexwar",
        "--players",
        "red,blue",
        "--id",
        "answer",
        "--seed",
        "7",
        "--out",
        gs,
        "--now",
        "2026-12-01T18:00:00Z",
        "--deadline-every",
        "72h",
        "--moderator",
        "gm@example.org",
        "--tz",
        "red=europe/berlin",
        "--light-passwords",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let red = std::fs::read_to_string(g.join("reports/turn-0000/red.txt")).unwrap();
    for want in [
        "Deadline: 2026-12-04 18:00 UTC (Fri 4 Dec 19:00 Europe/Berlin (UTC+01:00)), 3d after this report.",
        "HOW TO ANSWER",
        "Reply to this mail (your reply goes to gm@example.org)",
        "If no orders come by then: herald sends `pass` for you. After 3 missed in a row you surrender and the other side wins.",
        "means `move ",
    ] {
        assert!(red.contains(want), "red's report lacks `{want}`:\n{red}");
    }
    assert!(
        !red.contains("X 0101"),
        "HEXWAR's form explains its own notation:\n{red}"
    );
    // Blue gave no zone; blue is not awaited, so no form.
    let blue = std::fs::read_to_string(g.join("reports/turn-0000/blue.txt")).unwrap();
    assert!(
        blue.contains("Deadline: 2026-12-04 18:00 UTC, 3d after this report."),
        "{blue}"
    );
    assert!(
        !blue.contains("Europe/Berlin") && !blue.contains("HOW TO ANSWER"),
        "{blue}"
    );
    // The zone is private: in the secrets file, not in the game file.
    let s = secrets(&g);
    assert_eq!(s["zones"]["red"].as_str(), Some("Europe/Berlin"));
    let jsonl = std::fs::read_to_string(g.join("game.jsonl")).unwrap();
    assert!(!jsonl.contains("Berlin"), "the game file holds no zone");
    // verify --witness makes the report again in the zone it shows, from
    // the archive alone (a copy without the secrets file).
    let public = dir.join("public");
    std::fs::create_dir_all(&public).unwrap();
    std::fs::copy(g.join("game.jsonl"), public.join("game.jsonl")).unwrap();
    let seed = s["seed"].as_str().unwrap();
    for kept in ["red.txt", "red.json"] {
        let f = g.join("reports/turn-0000").join(kept);
        let (code, out, err) = herald(&[
            "verify",
            public.join("game.jsonl").to_str().unwrap(),
            "--seed",
            seed,
            "--witness",
            f.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{kept}: {out}{err}");
    }
    // A changed zone in the kept report is caught.
    let forged = dir.join("forged.txt");
    std::fs::write(&forged, red.replace("Europe/Berlin", "Europe/Paris")).unwrap();
    let (code, _, _) = herald(&[
        "verify",
        public.join("game.jsonl").to_str().unwrap(),
        "--seed",
        seed,
        "--witness",
        forged.to_str().unwrap(),
    ]);
    assert_ne!(code, 0, "a report with another zone is not the one sent");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_zone_that_is_none_is_refused_with_the_rest() {
    let dir = scratch("answer-bad-zone");
    let g = dir.join("game");
    let (code, _, err) = herald(&[
        "new",
        "hexwar",
        "--players",
        "red,blue",
        "--tz",
        "red=Mars/Olympus",
        "--tz",
        "green=UTC",
        "--out",
        g.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--tz red=Mars/Olympus: `Mars/Olympus` is not a time zone"),
        "{err}"
    );
    assert!(
        err.contains("--tz green=UTC: `green` is not one of the players"),
        "{err}"
    );
    assert!(!g.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn war_of_the_dukes_tells_its_hexsides_in_words() {
    let dir = scratch("answer-wotd");
    let g = dir.join("game");
    let (code, out, err) = herald(&[
        "new",
        "war-of-the-dukes",
        "--players",
        "red,blue",
        "--seed",
        "1",
        "--out",
        g.to_str().unwrap(),
        "--light-passwords",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let red = std::fs::read_to_string(g.join("reports/turn-0000/red.txt")).unwrap();
    assert!(
        !red.contains("war-of-the-dukes.toml"),
        "no file players lack:\n{red}"
    );
    assert!(
        red.contains("Roads, rivers and bridges run along hexsides"),
        "{red}"
    );
    assert!(
        red.lines()
            .any(|l| l.trim_start().starts_with("roads: ") && l.contains('–')),
        "the roads near the player's hexes:\n{red}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
