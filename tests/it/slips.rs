//! Every slip in one answer (issue 48): the order files of `tests/slips/`,
//! each with 3 to 6 slips of different kinds, through `herald check` and
//! as a mail through `herald inbox`; the first answer must name every
//! slip, nothing is stored from the refused file, the game file is
//! untouched. And `herald new` with several wrong arguments lists them
//! all.
//!
//! `HERALD_SLIPS_BIN=<a herald binary>` runs the corpus against another
//! herald (an older one) and only counts what it names.

use crate::common::{head, herald, scratch};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Corpus {
    game: String,
    player: String,
    #[serde(default)]
    options: Vec<String>,
    /// Resolves before the file, each a list of `"player: order; order"`.
    #[serde(default)]
    before: Vec<Vec<String>>,
    /// The order file, with GAME, TURN and PW to fill in.
    file: String,
    slip: Vec<Slip>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Slip {
    /// The line it is told at; 0: the file as a whole.
    line: usize,
    says: String,
}

/// The binary to run: herald, or the one `HERALD_SLIPS_BIN` names.
fn bin() -> (PathBuf, bool) {
    match std::env::var_os("HERALD_SLIPS_BIN") {
        Some(b) => (PathBuf::from(b), true),
        None => (PathBuf::from(env!("CARGO_BIN_EXE_herald")), false),
    }
}

fn run(args: &[&str]) -> (i32, String, String) {
    let (b, other) = bin();
    if !other {
        return herald(args);
    }
    let out = Command::new(b).args(args).output().expect("herald runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The problems of an answer, one each: a refusal on standard error (each
/// `herald: ` line), or a refused mail's reply (each `  - ` item).
fn problems(answer: &str, sep: &str) -> Vec<String> {
    answer.split(sep).skip(1).map(str::to_string).collect()
}

/// Whether one of `problems` names `slip`: at its line (`above` lines
/// down, where the file stands below a mail's greeting), saying its words.
fn named(problems: &[String], slip: &Slip, above: usize) -> bool {
    problems.iter().any(|p| {
        let at = slip.line == 0 || p.contains(&format!(":{}: ", slip.line + above));
        at && p.replace('\n', " ").contains(&slip.says)
    })
}

/// A game as the corpus file sets it up: its folder and the passwords.
fn start(c: &Corpus, dir: &Path) -> (String, BTreeMap<String, String>) {
    let g = dir.join("game").to_str().unwrap().to_string();
    let mut args = vec![
        "new",
        &c.game,
        "--players",
        "red,blue",
        "--id",
        "slips",
        "--seed",
        "1",
        "--out",
        &g,
        "--now",
        "2026-11-22T12:00:00Z",
        "--light-passwords",
        "--moderator",
        "gm@example.org",
    ];
    for o in &c.options {
        args.extend(["--option", o]);
    }
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out}{err}");
    let secrets: toml::Table =
        toml::from_str(&std::fs::read_to_string(dir.join("game/secrets.toml")).unwrap()).unwrap();
    let pw = secrets["passwords"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect();
    (g, pw)
}

/// An order file for `player` with the orders given as `o; o`.
fn order_file(id: &str, player: &str, turn: u64, pw: &str, orders: &str) -> String {
    let list: String = orders
        .split(';')
        .map(str::trim)
        .filter(|o| !o.is_empty())
        .map(|o| format!("  {o:?},\n"))
        .collect();
    format!("game = {id:?}\nplayer = {player:?}\nturn = {turn}\npassword = {pw:?}\norders = [\n{list}]\n")
}

/// What one corpus file's first answers name: (slips, named by `check`,
/// named by the mail's reply), and what they said.
// Long: one scenario, set up, checked by file and by mail, each step beside its check.
fn one(path: &Path) -> (usize, usize, usize, String) {
    let c: Corpus = toml::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let tag = path.file_stem().unwrap().to_string_lossy().to_string();
    let dir = scratch(&format!("slips-{tag}"));
    let (g, pw) = start(&c, &dir);
    let id = head(Path::new(&g))["id"].as_str().unwrap().to_string();
    for (k, resolve) in c.before.iter().enumerate() {
        let turn = head(Path::new(&g))["turn"].as_u64().unwrap();
        let mut files = Vec::new();
        for (j, entry) in resolve.iter().enumerate() {
            let (player, orders) = entry.split_once(':').unwrap();
            let f = dir.join(format!("before-{k}-{j}.toml"));
            std::fs::write(
                &f,
                order_file(&id, player.trim(), turn, &pw[player.trim()], orders),
            )
            .unwrap();
            files.push(f.to_str().unwrap().to_string());
        }
        let mut args = vec!["resolve", g.as_str()];
        args.extend(files.iter().map(String::as_str));
        args.extend(["--now", "2026-11-22T13:00:00Z"]);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{tag}: before {k}: {out}{err}");
    }
    let turn = head(Path::new(&g))["turn"].as_u64().unwrap();
    let text = c
        .file
        .trim_start()
        .replace("GAME", &id)
        .replace("TURN", &turn.to_string())
        .replace("PW", &pw[&c.player]);
    let file = dir.join("orders.toml");
    std::fs::write(&file, &text).unwrap();
    let game_file = std::fs::read(Path::new(&g).join("game.jsonl")).unwrap();

    // By file: `herald check`.
    let (code, _, err) = run(&["check", &g, file.to_str().unwrap()]);
    let by_file = problems(&format!("\n{err}"), "\nherald: ");
    let (_, other) = bin();
    if !other {
        assert_eq!(code, 1, "{tag}: check exits 1\n{err}");
        assert!(!err.contains("panicked"), "{tag}: {err}");
    }
    let checked = c.slip.iter().filter(|s| named(&by_file, s, 0)).count();

    // By mail: `herald inbox`, the reply in the outbox.
    let maildir = dir.join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).unwrap();
    }
    let mail = format!(
        "From: {p}@example.org\r\nTo: gm@example.org\r\nSubject: Re: turn {turn}\r\nDate: Sun, 22 Nov 2026 14:00:00 +0000\r\nMessage-ID: <slips.{tag}@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMy orders (two lines above the form).\r\n\r\n{}",
        text.replace('\n', "\r\n"),
        p = c.player,
    );
    std::fs::write(maildir.join("new/1.mail"), mail).unwrap();
    let outbox = Path::new(&g).join("outbox");
    let before: Vec<_> = std::fs::read_dir(&outbox)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    let (code, out, err) = run(&[
        "inbox",
        &g,
        maildir.to_str().unwrap(),
        "--now",
        "2026-11-22T14:05:00Z",
    ]);
    assert_eq!(code, 0, "{tag}: inbox: {out}{err}");
    let reply = std::fs::read_dir(&outbox)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| !before.contains(p))
        .unwrap_or_else(|| panic!("{tag}: no reply in the outbox"));
    let bytes = std::fs::read(&reply).unwrap();
    let body = mail_parser::MessageParser::default()
        .parse(&bytes)
        .and_then(|m| m.body_text(0).map(|b| b.into_owned()))
        .unwrap_or_default();
    let by_mail = problems(&body, "\n  - ");
    let mailed = c.slip.iter().filter(|s| named(&by_mail, s, 2)).count();
    if !other {
        assert!(body.contains("REFUSED"), "{tag}: the reply\n{body}");
        // All or nothing: nothing stored from the refused file, the game
        // file as it was.
        let stored = Path::new(&g).join(format!("orders/turn-{turn:04}"));
        let kept: Vec<_> = std::fs::read_dir(&stored)
            .map(|d| d.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        assert!(
            kept.is_empty(),
            "{tag}: stored from a refused file: {kept:?}"
        );
        assert_eq!(
            std::fs::read(Path::new(&g).join("game.jsonl")).unwrap(),
            game_file,
            "{tag}: the game file changed"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    (c.slip.len(), checked, mailed, format!("{err}\n{body}"))
}

#[test]
fn every_slip_is_named_in_the_first_answer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/slips");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let games = [
        "hexwar",
        "norse-wars",
        "stack-wars",
        "unfought-battle",
        "war-of-the-dukes",
    ];
    for g in games {
        assert!(
            files
                .iter()
                .any(|f| f.file_name().unwrap().to_string_lossy().starts_with(g)),
            "tests/slips/ has no file for {g}"
        );
    }
    let (_, other) = bin();
    let mut failures = Vec::new();
    for f in &files {
        let (slips, checked, mailed, said) = one(f);
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        eprintln!("{name}: {slips} slips; named by check {checked}, by mail {mailed}");
        assert!(
            (3..=6).contains(&slips),
            "{name}: a corpus file holds 3 to 6 slips"
        );
        if !other && (checked < slips || mailed < slips) {
            failures.push(format!(
                "{name}: {checked} and {mailed} of {slips} named:\n{said}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn new_lists_every_problem_of_its_arguments() {
    let dir = scratch("new-every-problem");
    let out = dir.join("game");
    let (code, stdout, err) = herald(&[
        "new",
        "hexwar",
        "--players",
        "a,b,c",
        "--option",
        "template=Z",
        "--nmr",
        "repeat",
        "--id",
        "bad id",
        "--deadline-every",
        "3x",
        "--email",
        "d=nobody",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stdout}{err}");
    for want in [
        "hexwar takes exactly 2 players",
        "option template=Z: the ruleset's templates are",
        "--nmr repeat",
        "--id",
        "--deadline-every 3x",
        "--email d=nobody",
    ] {
        assert!(err.contains(want), "the answer lacks `{want}`:\n{err}");
    }
    assert!(!out.exists(), "nothing is written");
    // Three problems of Norse Wars: a player twice, a bad option value, a
    // policy the game does not offer.
    let (code, _, err) = herald(&[
        "new",
        "norse-wars",
        "--players",
        "red,red",
        "--option",
        "fog=maybe",
        "--nmr",
        "hold",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    let told = err.lines().filter(|l| l.starts_with("herald: ")).count();
    assert_eq!(told, 3, "three problems, three lines:\n{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
