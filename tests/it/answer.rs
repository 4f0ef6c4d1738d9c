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

/// A Maildir with one mail from `from` in it (the only one new).
fn one_mail(md: &Path, n: usize, from: &str, date: &str, body: &str) {
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    let text = format!(
        "From: {from}\r\nTo: gm@example.org\r\nSubject: orders\r\nDate: {date}\r\nMessage-ID: <tz{n}@example.org>\r\n\r\n{}",
        body.replace('\n', "\r\n")
    );
    std::fs::write(md.join("new").join(format!("{n}.tz")), text).unwrap();
}

/// The text of the reply `herald inbox` queued to mail `n` of [`one_mail`].
fn reply_to(g: &Path, n: usize) -> String {
    for e in std::fs::read_dir(g.join("outbox")).unwrap() {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        let m = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        if m.in_reply_to().as_text() == Some(&format!("tz{n}@example.org")) {
            return m.body_text(0).unwrap().to_string();
        }
    }
    panic!("no reply to mail {n}");
}

/// Red's order file for turn 0 of the game `tz`, `tz_line` after the
/// password.
fn red_file(password: &str, tz_line: &str, orders: &[&str]) -> String {
    let orders: Vec<String> = orders.iter().map(|s| s.to_string()).collect();
    herald::report::order_file("tz", "red", 0, password, &orders)
        .replace("\norders = [", &format!("\n{tz_line}\norders = ["))
}

fn tz_game(dir: &Path) -> (std::path::PathBuf, String) {
    let g = dir.join("game");
    let (code, out, err) = herald(&[
        "new",
        "hexwar",
        "--players",
        "red,blue",
        "--id",
        "tz",
        "--seed",
        "7",
        "--out",
        g.to_str().unwrap(),
        "--now",
        "2026-12-01T18:00:00Z",
        "--deadline-every",
        "72h",
        "--moderator",
        "gm@example.org",
        "--email",
        "red=red@example.org",
        "--light-passwords",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let pw = secrets(&g)["passwords"]["red"]
        .as_str()
        .unwrap()
        .to_string();
    (g, pw)
}

fn inbox(g: &Path, md: &Path, now: &str) -> String {
    let (code, out, err) = herald(&[
        "inbox",
        g.to_str().unwrap(),
        md.to_str().unwrap(),
        "--now",
        now,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    out
}

#[test]
// Long: one player's zone by mail, set, cleared, set again, then used.
fn a_zone_sent_by_mail_is_kept_private_and_used_in_the_next_report() {
    let dir = scratch("answer-tz-mail");
    let (g, pw) = tz_game(&dir);
    let md = dir.join("Maildir");
    let zone_of = |g: &Path| {
        secrets(g)
            .get("zones")
            .and_then(|z| z.get("red"))
            .and_then(|z| z.as_str())
            .map(str::to_string)
    };
    // Written in small letters, as a player may: the database's spelling
    // is kept.
    one_mail(
        &md,
        1,
        "red@example.org",
        "Tue, 1 Dec 2026 19:00:00 +0000",
        &format!(
            "Hello,\n\n{}",
            red_file(&pw, "tz = \"america/new_york\"", &["pass"])
        ),
    );
    let out = inbox(&g, &md, "2026-12-01T19:05:00Z");
    assert!(out.contains("1 accepted"), "{out}");
    assert_eq!(zone_of(&g).as_deref(), Some("America/New_York"));
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(g.join("secrets.toml"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(
        mode & 0o777,
        0o600,
        "secrets.toml stays the moderator's alone"
    );
    let reply = reply_to(&g, 1);
    assert!(
        reply.contains("ACCEPTED") && reply.contains("Your time zone is now America/New_York"),
        "{reply}"
    );
    // The stored orders hold neither the password nor the zone line.
    let stored = std::fs::read_to_string(g.join("orders/turn-0000/red.json")).unwrap();
    assert!(
        !stored.contains("New_York") && !stored.contains("tz ="),
        "{stored}"
    );
    // Cleared by tz = "".
    one_mail(
        &md,
        2,
        "red@example.org",
        "Tue, 1 Dec 2026 19:10:00 +0000",
        &red_file(&pw, "tz = \"\"", &["pass"]),
    );
    inbox(&g, &md, "2026-12-01T19:15:00Z");
    assert_eq!(zone_of(&g), None);
    let reply = reply_to(&g, 2);
    assert!(
        reply.contains("You have no time zone now: your reports show the deadline in UTC only"),
        "{reply}"
    );
    // Set again, and the next report uses it; nobody else sees it.
    one_mail(
        &md,
        3,
        "red@example.org",
        "Tue, 1 Dec 2026 19:20:00 +0000",
        &red_file(&pw, "tz = \"Asia/Kathmandu\"", &["pass"]),
    );
    inbox(&g, &md, "2026-12-01T19:25:00Z");
    assert_eq!(zone_of(&g).as_deref(), Some("Asia/Kathmandu"));
    let (code, out, err) = herald(&[
        "resolve",
        g.to_str().unwrap(),
        "--now",
        "2026-12-01T21:00:00Z",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let red = std::fs::read_to_string(g.join("reports/turn-0001/red.txt")).unwrap();
    assert!(
        red.contains("Deadline: 2026-12-04 21:00 UTC (Sat 5 Dec 02:45 Asia/Kathmandu (UTC+05:45))"),
        "{red}"
    );
    let blue = std::fs::read_to_string(g.join("reports/turn-0001/blue.txt")).unwrap();
    let export = dir.join("export-blue");
    let site = dir.join("site");
    for args in [
        vec![
            "export",
            g.to_str().unwrap(),
            "--for",
            "blue",
            "--out",
            export.to_str().unwrap(),
        ],
        vec!["site", g.to_str().unwrap(), "--out", site.to_str().unwrap()],
    ] {
        let (code, out, err) = herald(&args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
    }
    let mut public = vec![
        ("blue's report".to_string(), blue),
        (
            "the game file".to_string(),
            std::fs::read_to_string(g.join("game.jsonl")).unwrap(),
        ),
    ];
    for tree in [&export, &site, &g.join("reports/turn-0001")] {
        for e in walk(tree) {
            if e.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("red"))
            {
                continue;
            }
            if let Ok(t) = std::fs::read_to_string(&e) {
                public.push((e.display().to_string(), t));
            }
        }
    }
    for (what, text) in &public {
        for zone in ["Kathmandu", "New_York", "new_york"] {
            assert!(!text.contains(zone), "{what} holds `{zone}`");
        }
    }
    // The log keeps red's file without its tz line (an empty line
    // stands for it), as it keeps it without its password.
    let log = std::fs::read_to_string(g.join("game.jsonl")).unwrap();
    assert!(
        log.contains(r#"password = \"\"\n\norders = ["#) && !log.contains("tz ="),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn a_bad_zone_or_a_forged_mail_changes_nothing() {
    let dir = scratch("answer-tz-refused");
    let (g, pw) = tz_game(&dir);
    let md = dir.join("Maildir");
    let before = std::fs::read(g.join("secrets.toml")).unwrap();
    // A zone misspelt, beside a slip in an order: both named at once,
    // each at its line, with the zone meant.
    one_mail(
        &md,
        1,
        "red@example.org",
        "Tue, 1 Dec 2026 19:00:00 +0000",
        &red_file(&pw, "tz = \"Europe/Berlinn\"", &["move z9 z8"]),
    );
    let out = inbox(&g, &md, "2026-12-01T19:05:00Z");
    assert!(out.contains("1 refused"), "{out}");
    let reply = reply_to(&g, 1);
    assert!(
        reply.contains(":5: `Europe/Berlinn` is not a time zone; did you mean Europe/Berlin?"),
        "{reply}"
    );
    assert!(reply.contains(":7: \"move z9 z8\""), "{reply}");
    // The right address, but no password or a wrong one: a From header is
    // anyone's to write.
    one_mail(
        &md,
        2,
        "red@example.org",
        "Tue, 1 Dec 2026 19:10:00 +0000",
        &red_file("not-the-password", "tz = \"Asia/Tokyo\"", &["pass"]),
    );
    one_mail(
        &md,
        3,
        "Red <red@example.org>",
        "Tue, 1 Dec 2026 19:20:00 +0000",
        "game = \"tz\"\nplayer = \"red\"\nturn = 0\ntz = \"Asia/Tokyo\"\norders = [\"pass\"]\n",
    );
    let out = inbox(&g, &md, "2026-12-01T19:25:00Z");
    assert!(out.contains("2 refused"), "{out}");
    assert!(reply_to(&g, 2).contains("wrong password for red"));
    assert!(reply_to(&g, 3).contains("`password` is missing"));
    assert_eq!(
        std::fs::read(g.join("secrets.toml")).unwrap(),
        before,
        "no zone written"
    );
    assert!(!g.join("orders").join("turn-0000").join("red.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_zone_in_a_file_given_to_resolve_is_kept_and_check_writes_none() {
    let dir = scratch("answer-tz-resolve");
    let (g, pw) = tz_game(&dir);
    let file = dir.join("red.toml");
    std::fs::write(&file, red_file(&pw, "tz = \"Asia/Kathmandu\"", &["pass"])).unwrap();
    let before = std::fs::read(g.join("secrets.toml")).unwrap();
    let (code, out, err) = herald(&["check", g.to_str().unwrap(), file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        std::fs::read(g.join("secrets.toml")).unwrap(),
        before,
        "a dry run"
    );
    let (code, out, err) = herald(&[
        "resolve",
        g.to_str().unwrap(),
        file.to_str().unwrap(),
        "--now",
        "2026-12-01T21:00:00Z",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(secrets(&g)["zones"]["red"].as_str(), Some("Asia/Kathmandu"));
    let red = std::fs::read_to_string(g.join("reports/turn-0001/red.txt")).unwrap();
    assert!(red.contains("Asia/Kathmandu (UTC+05:45)"), "{red}");
    let log = std::fs::read_to_string(g.join("game.jsonl")).unwrap();
    assert!(!log.contains("Kathmandu") && !log.contains("tz ="));
    let _ = std::fs::remove_dir_all(&dir);
}
