//! The small answers a user trips on (issue 54): a missing path named in
//! the user's words, player ids matched without case or with a "did you
//! mean", result lines numbering seats as the summaries do, and `inbox`
//! naming the sender of a mail it had already read.

use crate::common::{herald, scratch};
use std::path::Path;

/// A new two-player game of Norse Wars in `dir/g`, addresses and all.
fn game(dir: &Path) -> String {
    let g = dir.join("g");
    let (code, _, err) = herald(&[
        "new",
        "norse-wars",
        "--players",
        "red,blue",
        "--email",
        "red=red@example.org",
        "--email",
        "blue=blue@example.org",
        "--light-passwords",
        "--seed",
        "small",
        "--out",
        g.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    g.display().to_string()
}

#[test]
fn a_missing_path_is_named_in_the_users_words_exit_1() {
    let d = scratch("missing-paths");
    let g = game(&d);
    let nosuch = d.join("nosuch").display().to_string();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["check", &nosuch, "x.toml"],
            format!("{nosuch}: no such game folder"),
        ),
        (
            vec!["status", &nosuch],
            format!("{nosuch}: no such game folder"),
        ),
        (
            vec!["verify", &nosuch],
            format!("{nosuch}: no such game folder"),
        ),
        (
            vec!["resolve", &nosuch],
            format!("{nosuch}: no such game folder"),
        ),
        (
            vec!["report", &nosuch, "--player", "red"],
            format!("{nosuch}: no such game folder"),
        ),
        (
            vec!["check", &g, &nosuch],
            format!("{nosuch}: no such file or folder"),
        ),
        (
            vec!["inbox", &g, &nosuch],
            format!("{nosuch}: no such file or folder"),
        ),
        (
            vec!["host", &nosuch],
            format!("{nosuch}: no such host folder"),
        ),
        (
            vec!["send", "--host", &nosuch],
            format!("--host {nosuch}: no such host folder"),
        ),
    ];
    for (args, want) in cases {
        let (code, _, err) = herald(&args);
        assert_eq!(code, 1, "herald {}: {err}", args.join(" "));
        assert!(
            err.contains(&want) && !err.contains("os error"),
            "herald {}: wanted `{want}`:\n{err}",
            args.join(" ")
        );
    }
}

#[test]
fn player_ids_are_matched_without_case_or_answered_with_did_you_mean() {
    let d = scratch("ids-case");
    let g = game(&d);
    let (code, out, err) = herald(&["orders", &g, "--player", "Red"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("player = \"red\""), "{out}");
    let (code, _, err) = herald(&["orders", &g, "--player", "rde"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("`rde` is not a player of this game; did you mean `red`?"),
        "{err}"
    );
    let (code, _, err) = herald(&["orders", &g, "--player", "green"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("(red, blue)") && !err.contains("did you mean"),
        "{err}"
    );
    // An order file that writes the id in capitals is red's.
    let (_, form, _) = herald(&["orders", &g, "--player", "red"]);
    let secrets = std::fs::read_to_string(Path::new(&g).join("secrets.toml")).unwrap();
    let pw = secrets
        .lines()
        .find_map(|l| l.strip_prefix("red = \""))
        .and_then(|r| r.strip_suffix('"'))
        .expect("red's password");
    let filled = form
        .replace("player = \"red\"", "player = \"Red\"")
        .replace("password = \"\"", &format!("password = \"{pw}\""));
    assert!(
        filled.contains("\"Red\"") && filled.contains(pw),
        "{filled}"
    );
    let f = d.join("red.toml");
    std::fs::write(&f, filled).unwrap();
    // (the blank form has no orders: refused for that, not for the id)
    let (_, out, err) = herald(&["check", &g, f.to_str().unwrap()]);
    assert!(
        !err.contains("not a player") && !err.contains("Red") && err.contains("legal now"),
        "{out}{err}"
    );
}

#[test]
fn result_lines_number_seats_from_1_as_the_summaries_do() {
    let d = scratch("result-seats");
    let out = d.join("r.jsonl");
    let (code, _, err) = herald(&[
        "playtest",
        "stack-wars",
        "--games",
        "2",
        "--bots",
        "greedy,random",
        "--option",
        "size=5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let result = v["result"].as_str().unwrap();
        let winners: Vec<u64> = v["winners"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap())
            .collect();
        if let [w] = winners.as_slice() {
            assert!(
                result.starts_with(&format!("seat {} (", w + 1)),
                "winners {winners:?}: {result}"
            );
        }
    }
    let (code, sum, err) = herald(&["playtest", "summarize", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(sum.contains("seat 1") && !sum.contains("seat 0"), "{sum}");
}

#[test]
fn inbox_names_the_sender_of_a_mail_it_had_read_already() {
    let d = scratch("inbox-again");
    let g = game(&d);
    let md = d.join("Maildir");
    for s in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(s)).unwrap();
    }
    std::fs::write(
        md.join("new/1.red"),
        "From: red@example.org\nTo: gm@example.org\nSubject: hi\nMessage-ID: <1@example.org>\n\nno orders here\n",
    )
    .unwrap();
    let (code, _, err) = herald(&["inbox", &g, md.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = herald(&["inbox", &g, md.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("from red@example.org: already read"), "{out}");
    assert!(!out.contains("from ?"), "{out}");
}
