//! herald behaves as a Unix tool (issue 48): a reader that goes away ends
//! it quietly, a bug says what to report and exits 70, every flag with a
//! closed set of values lists them (in `--help`, the manual pages and the
//! completions, all from the one clap definition), `--wait` is a whole
//! number of seconds on the commands that take a lock only, and players
//! and games are named one way, the old spellings still read with a
//! warning.

use crate::common::scratch;
use crate::install::{bash_offers, fish_offers};
use clap::CommandFactory;
use std::collections::BTreeSet;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::Path;
use std::process::{Command, Stdio};

const HERALD: &str = env!("CARGO_BIN_EXE_herald");
const NOW: &str = "2026-12-01T18:00:00Z";
const LATER: &str = "2026-12-02T09:00:00Z";

/// How one run ended: status (None: killed by a signal), stdout, stderr.
struct Ran {
    code: Option<i32>,
    out: String,
    err: String,
}

fn run_in(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> Ran {
    let o = Command::new(HERALD)
        .args(args)
        .envs(envs.iter().copied())
        .current_dir(dir)
        .output()
        .unwrap();
    Ran {
        code: o.status.code(),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn ok_in(dir: &Path, args: &[&str]) -> String {
    let r = run_in(dir, args, &[]);
    assert_eq!(r.code, Some(0), "herald {args:?}:\n{}{}", r.out, r.err);
    r.out
}

/// herald with standard output a pipe whose reader has gone before
/// herald writes a byte (so every write meets EPIPE, whatever the timing):
/// its status and standard error.
fn with_reader_gone(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut fds = [0; 2];
    // SAFETY: pipe writes two descriptors into the array it is given.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both are ours, just made, each owned once.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    let o = Command::new(HERALD)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::from(write))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A finished-looking HEXWAR game in `dir/game` (the walkthrough's end
/// game), with red's orders for turn 0 in `dir/red.toml`, a Maildir and
/// a host folder: what every command below needs.
fn setup(dir: &Path) {
    std::fs::write(
        dir.join("endgame.toml"),
        "to_move = \"white\"\n[pieces]\nwhite = [\"wyvern e5 N\", \"king b1 N\", \"orc c3 N\"]\nblack = [\"necromancer e8 S\", \"ghast h6 S\"]\n",
    )
    .unwrap();
    ok_in(
        dir,
        &[
            "new",
            "hexwar",
            "--players",
            "red,blue",
            "--setup",
            "endgame.toml",
            "--out",
            "game",
            "--seed",
            "pipe",
            "--light-passwords",
            "--moderator",
            "gm@example.org",
            "--email",
            "red=red@example.org",
            "--email",
            "blue=blue@example.org",
            "--now",
            NOW,
        ],
    );
    let secrets = std::fs::read_to_string(dir.join("game/secrets.toml")).unwrap();
    let pw = secrets
        .lines()
        .find_map(|l| l.strip_prefix("red = "))
        .unwrap()
        .trim_matches('"')
        .to_string();
    let id = ok_in(dir, &["status", "game"])
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    std::fs::write(
        dir.join("red.toml"),
        format!(
            "game = \"{id}\"\nplayer = \"red\"\nturn = 0\npassword = \"{pw}\"\norders = [\"move c3 c4\"]\n"
        ),
    )
    .unwrap();
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.join("Maildir").join(d)).unwrap();
    }
    std::fs::create_dir_all(dir.join("hostdir")).unwrap();
    // `herald send`'s mail system: one that takes every mail and keeps none.
    std::fs::write(dir.join("send.toml"), "[sendmail]\npath = \"/bin/true\"\n").unwrap();
}

/// Every command that prints, as the moderator runs it, in an order in
/// which each can run (resolve before undo, a playtest before its
/// summary). Writes go to fresh names each time (`N` is the run).
fn printing_commands(n: usize) -> Vec<Vec<String>> {
    let s = |v: &[&str]| v.iter().map(|x| x.replace('#', &n.to_string())).collect();
    vec![
        s(&["--help"]),
        s(&["--version", "--verbose"]),
        s(&["games"]),
        s(&[
            "new",
            "norse-wars",
            "--players",
            "a,b",
            "--out",
            "new#",
            "--light-passwords",
        ]),
        s(&["check", "game", "red.toml"]),
        s(&["status", "game", "--now", LATER]),
        s(&["orders", "game", "--player", "red"]),
        s(&["report", "game", "--player", "red"]),
        s(&["report", "game", "--player", "red", "--format", "json"]),
        s(&["report", "game", "--player", "red", "--format", "svg"]),
        s(&["report", "game", "--player", "red", "--format", "png"]),
        s(&["report", "game", "--player", "red", "--format", "html"]),
        s(&["report", "game", "--player", "red", "--format", "eml"]),
        s(&["inbox", "game", "Maildir", "--now", LATER]),
        s(&["resolve", "game", "red.toml", "--now", LATER]),
        s(&["verify", "game"]),
        s(&["export", "game", "--player", "red", "--out", "export#"]),
        s(&["site", "game", "--out", "site#"]),
        s(&["undo", "game", "--now", LATER]),
        s(&["deadline", "game", "+48h", "--now", LATER]),
        s(&["passwd", "game", "--player", "blue", "--now", LATER]),
        s(&["convert", "game"]),
        s(&["keygen", "--out", "key#"]),
        s(&["demo", "hexwar", "--out", "demo#", "--max-turns", "2"]),
        s(&[
            "playtest",
            "norse-wars",
            "--games",
            "2",
            "--bots",
            "random,random",
            "--max-phases",
            "20",
        ]),
        s(&["playtest", "summarize", "lab.jsonl"]),
        s(&["host", "status", "hostdir"]),
        s(&["send", "game", "--config", "send.toml"]),
        s(&["completions", "bash"]),
        s(&["man", "--out", "man#"]),
        // The server runs until it is stopped, so its help stands for it
        // here (tests/it/web.rs drives the server itself).
        s(&["serve", "--help"]),
    ]
}

/// `herald … | head`: every command that prints, its reader gone before
/// it writes, ends with status 0 and not a word on standard error (the
/// work it was asked to do done); and the same through a real `head -1`
/// in the shell, whose status `pipefail` reports.
#[test]
fn a_reader_that_goes_away_ends_every_command_quietly() {
    let dir = scratch("manners-pipe");
    setup(&dir);
    ok_in(
        &dir,
        &[
            "playtest",
            "norse-wars",
            "--games",
            "2",
            "--bots",
            "random,random",
            "--max-phases",
            "20",
            "--out",
            "lab.jsonl",
        ],
    );
    // Every command of the definition is among them (or prints nothing
    // to stdout by design: none does).
    let covered: BTreeSet<String> = printing_commands(0)
        .iter()
        .filter_map(|c| c.first().filter(|w| !w.starts_with('-')).cloned())
        .collect();
    for c in herald::cli::Cli::command().get_subcommands() {
        assert!(
            covered.contains(c.get_name()),
            "`herald {}` is not checked with its reader gone",
            c.get_name()
        );
    }
    for args in printing_commands(1) {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, err) = with_reader_gone(&dir, &a);
        assert_eq!(code, Some(0), "herald {a:?}, reader gone: {err}");
        assert_eq!(err, "", "herald {a:?}, reader gone: stderr");
    }
    // The command did its work: resolve resolved and undo undid it.
    assert!(dir.join("game/archive").is_dir());
    // And through a shell's real `| head -1`.
    for args in printing_commands(2) {
        let line = format!(
            "set -o pipefail; '{HERALD}' {} | head -1 >/dev/null",
            args.iter()
                .map(|a| format!("'{a}'"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let o = Command::new("bash")
            .args(["-c", &line])
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.success() && err.is_empty(),
            "{line}: {:?}\n{err}",
            o.status
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A panic (forced through a path only a debug build has) says it is a
/// bug, what to report, and exits 70; from another thread too.
#[test]
fn a_panic_says_what_to_report_and_exits_70() {
    let dir = scratch("manners-panic");
    for how in ["main", "thread"] {
        let r = run_in(&dir, &["games"], &[("HERALD_TEST_PANIC", how)]);
        assert_eq!(r.code, Some(70), "{how}: {}{}", r.out, r.err);
        assert!(
            r.err
                .starts_with("herald: internal fault: HERALD_TEST_PANIC")
                && r.err.contains("this is a bug in herald")
                && r.err.contains("please report it")
                && r.err.contains("herald --version --verbose"),
            "{how}: {}",
            r.err
        );
        // The hook's words only, not Rust's own panic message.
        assert!(!r.err.contains("panicked at"), "{}", r.err);
        assert_eq!(r.out, "");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every command, as the words that name it, and its clap definition.
fn commands() -> Vec<(Vec<String>, clap::Command)> {
    fn walk(path: Vec<String>, c: &clap::Command, out: &mut Vec<(Vec<String>, clap::Command)>) {
        // clap's own `help` subcommand aside.
        for s in c
            .get_subcommands()
            .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        {
            let mut p = path.clone();
            p.push(s.get_name().to_string());
            out.push((p.clone(), s.clone()));
            walk(p, s, out);
        }
    }
    let mut cmd = herald::cli::Cli::command();
    cmd.build();
    let mut out = vec![(Vec::new(), cmd.clone())];
    walk(Vec::new(), &cmd, &mut out);
    out
}

/// The visible arguments of a command that take a value.
fn valued(c: &clap::Command) -> Vec<clap::Arg> {
    c.get_arguments()
        .filter(|a| !a.is_hide_set() && a.get_action().takes_values())
        .cloned()
        .collect()
}

/// Does this help text list a closed set of values by hand (`hold,
/// repeat or bot`, `yes (default) or no`)? A clause (between `.`, `;`,
/// `:` and brackets) that is nothing but single words joined by commas
/// and one `or`.
fn lists_values_by_hand(help: &str) -> Option<String> {
    let mut plain = String::new();
    let mut depth = 0;
    for ch in help.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let word = |w: &str| {
        let w = w.trim().trim_matches('`');
        !w.is_empty()
            && w.len() <= 12
            && w.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && w.chars().all(|c| c.is_ascii_lowercase() || c == '-')
    };
    plain
        .split(['.', ';', ':', '[', ']'])
        .find(|clause| {
            let c = clause.trim();
            let Some((head, last)) = c.rsplit_once(" or ") else {
                return false;
            };
            let head = head.trim_end_matches(',');
            word(last) && head.split(',').all(word)
        })
        .map(|c| c.trim().to_string())
}

/// Every flag with a closed set of values lists them: each value is in
/// the command's `--help`, its manual page, and what bash and fish offer
/// after the flag. The arguments are read from the clap definition
/// itself; one that takes a value and has no set may not list values in
/// its words instead (as `--nmr`'s "hold, repeat or bot" did).
#[test]
fn every_closed_set_of_values_is_listed_in_help_man_and_completions() {
    let dir = scratch("manners-values");
    let man = dir.join("man1");
    ok_in(&dir, &["man", "--out", man.to_str().unwrap()]);
    let bash = dir.join("herald.bash");
    std::fs::write(&bash, ok_in(&dir, &["completions", "bash"])).unwrap();
    let fish = dir.join("herald.fish");
    std::fs::write(&fish, ok_in(&dir, &["completions", "fish"])).unwrap();
    let mut sets = 0;
    for (path, c) in commands() {
        let mut help_args: Vec<&str> = path.iter().map(String::as_str).collect();
        help_args.push("--help");
        let help = ok_in(&dir, &help_args);
        let page_name = if path.is_empty() {
            "herald.1".to_string()
        } else {
            format!("herald-{}.1", path.join("-"))
        };
        let page = std::fs::read_to_string(man.join(&page_name)).unwrap();
        for a in valued(&c) {
            let name = a
                .get_long()
                .map(|l| format!("--{l}"))
                .unwrap_or_else(|| a.get_id().to_string());
            let values: Vec<String> = a
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            if values.is_empty() {
                let words = a.get_long_help().or(a.get_help()).map(|h| h.to_string());
                if let Some(list) = words.as_deref().and_then(lists_values_by_hand) {
                    panic!("herald {path:?} {name}: its help lists `{list}` by hand, not as possible values");
                }
                continue;
            }
            sets += 1;
            // What the shells are asked: the words before the value.
            let mut words: Vec<&str> = vec!["herald"];
            words.extend(path.iter().map(String::as_str));
            if a.get_long().is_some() {
                words.push(&name);
            }
            words.push("");
            let offered_bash = bash_offers(&bash, &words);
            let line = words.join(" ");
            let offered_fish = fish_offers(&fish, &line);
            for v in &values {
                assert!(
                    help.contains(v.as_str()),
                    "herald {path:?} --help does not list {name} {v}:\n{help}"
                );
                assert!(
                    page.contains(&v.replace('-', "\\-")) || page.contains(v.as_str()),
                    "{page_name} does not list {name} {v}"
                );
                assert!(
                    offered_bash.contains(v),
                    "bash offers {offered_bash:?} for `{line}`, not {v}"
                );
                assert!(
                    offered_fish.contains(v),
                    "fish offers {offered_fish:?} for `{line}`, not {v}"
                );
            }
        }
    }
    assert!(sets >= 12, "only {sets} closed sets found");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shells complete the rulesets' names where a command starts from
/// one, and a value outside a set checked by the parser is a usage error
/// naming the set.
#[test]
fn rulesets_complete_and_values_outside_a_set_are_usage_errors() {
    let dir = scratch("manners-rulesets");
    let bash = dir.join("herald.bash");
    std::fs::write(&bash, ok_in(&dir, &["completions", "bash"])).unwrap();
    let names: BTreeSet<String> = herald::games::names()
        .into_iter()
        .map(str::to_string)
        .collect();
    for cmd in ["new", "demo", "playtest"] {
        let offered = bash_offers(&bash, &["herald", cmd, ""]);
        assert!(names.is_subset(&offered), "{cmd}: {offered:?}");
    }
    let offered = bash_offers(
        &bash,
        &["herald", "host", "open", "d", "t", "--ruleset", ""],
    );
    assert!(names.is_subset(&offered), "host open: {offered:?}");
    for args in [
        &["demo", "chess"][..],
        &["playtest", "chess"][..],
        &["report", "g", "--player", "red", "--format", "pdf"][..],
        &["playtest", "summarize", "x.jsonl", "--format", "csv"][..],
        &["host", "open", "d", "t", "--ruleset", "chess"][..],
    ] {
        let r = run_in(&dir, args, &[]);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.err);
        assert!(r.err.contains("possible values"), "{args:?}: {}", r.err);
    }
    // Checked by `new` among every other problem of its arguments.
    let r = run_in(
        &dir,
        &[
            "new",
            "hexwar",
            "--players",
            "a,b",
            "--out",
            "g",
            "--nmr",
            "never",
            "--press",
            "loud",
        ],
        &[],
    );
    assert_eq!(r.code, Some(2), "{}", r.err);
    assert!(
        r.err.contains("--nmr never") && r.err.contains("--press loud"),
        "{}",
        r.err
    );
    assert!(!dir.join("g").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--wait` is a whole number of seconds from 0 to 86400, on the
/// commands that take a lock and on no other.
#[test]
fn wait_is_whole_seconds_on_locking_commands_only() {
    let locking: BTreeSet<&str> = [
        "resolve",
        "report",
        "inbox",
        "deadline",
        "passwd",
        "undo",
        "convert",
        "host",
        "host replace",
        "host approve",
        "send",
    ]
    .into();
    for (path, c) in commands() {
        let has = c
            .get_arguments()
            .any(|a| a.get_long() == Some("wait") && !a.is_hide_set());
        let name = path.join(" ");
        if path.is_empty() {
            assert!(!has, "herald itself lists --wait");
            continue;
        }
        assert_eq!(
            has,
            locking.contains(name.as_str()),
            "herald {name}: --wait {}",
            if has {
                "listed, but it takes no lock"
            } else {
                "missing"
            }
        );
    }
    let dir = scratch("manners-wait");
    setup(&dir);
    for bad in ["1.5", "1e3", "-1", "86401", "soon"] {
        let w = format!("--wait={bad}");
        let r = run_in(&dir, &["deadline", "game", "none", "--now", LATER, &w], &[]);
        assert_eq!(r.code, Some(2), "--wait {bad}: {}", r.err);
        assert!(r.err.contains("--wait"), "{}", r.err);
    }
    ok_in(
        &dir,
        &["deadline", "game", "none", "--now", LATER, "--wait", "0"],
    );
    ok_in(
        &dir,
        &[
            "deadline", "game", "none", "--now", LATER, "--wait", "86400",
        ],
    );
    for args in [&["games", "--wait", "5"][..], &["man", "--wait", "5"][..]] {
        let r = run_in(&dir, args, &[]);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.err);
    }
    // Before the command (the old place): read for a locking command,
    // with a warning; refused for one that takes no lock.
    let r = run_in(
        &dir,
        &["--wait", "5", "deadline", "game", "none", "--now", LATER],
        &[],
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.err.contains("warning: `--wait` before the command"),
        "{}",
        r.err
    );
    let r = run_in(&dir, &["--wait", "5", "games"], &[]);
    assert_eq!(r.code, Some(2), "{}", r.err);
    assert!(r.err.contains("unexpected argument '--wait'"), "{}", r.err);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A player is `--player PLAYER` on every command; a ruleset is RULESET
/// (`new`, `demo`, `playtest`, `host open --ruleset`) and a game folder
/// GAME. The old spellings still work, with a warning.
#[test]
fn players_and_rulesets_have_one_name_and_old_spellings_warn() {
    for (path, c) in commands() {
        for a in c.get_arguments().filter(|a| !a.is_hide_set()) {
            let value = Some(
                a.get_value_names()
                    .and_then(|v| v.first())
                    .map(|v| v.to_string())
                    .unwrap_or_else(|| a.get_id().to_string().to_uppercase()),
            );
            let long = a.get_long();
            assert!(
                !matches!(long, Some("for") | Some("game")),
                "herald {path:?}: --{}",
                long.unwrap_or_default()
            );
            if value.as_deref() == Some("PLAYER") {
                assert_eq!(long, Some("player"), "herald {path:?}: {:?}", a.get_id());
            }
            if long == Some("player") {
                assert_eq!(value.as_deref(), Some("PLAYER"), "herald {path:?}");
            }
            if a.get_id() == "game" && long.is_none() {
                // A positional game: a ruleset where a command starts
                // from one, else a folder.
                let starts = ["new", "demo", "playtest"].contains(&path.join(" ").as_str());
                assert_eq!(
                    value.as_deref(),
                    Some(if starts { "RULESET" } else { "GAME" }),
                    "herald {path:?}"
                );
            }
        }
    }
    let dir = scratch("manners-names");
    setup(&dir);
    ok_in(&dir, &["export", "game", "--player", "red", "--out", "e1"]);
    let r = run_in(
        &dir,
        &["export", "game", "--for", "red", "--out", "e2"],
        &[],
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.err.contains("warning: `--for PLAYER` is an old spelling"),
        "{}",
        r.err
    );
    assert_eq!(
        std::fs::read_dir(dir.join("e1")).unwrap().count(),
        std::fs::read_dir(dir.join("e2")).unwrap().count()
    );
    let r = run_in(
        &dir,
        &["host", "open", "hostdir", "t1", "--game", "hexwar"],
        &[],
    );
    assert_eq!(r.code, Some(0), "{}{}", r.out, r.err);
    assert!(
        r.err
            .contains("`host open --game RULESET` is an old spelling"),
        "{}",
        r.err
    );
    ok_in(
        &dir,
        &["host", "open", "hostdir", "t2", "--ruleset", "hexwar"],
    );
    let status = ok_in(&dir, &["host", "status", "hostdir"]);
    assert!(status.contains("t1") && status.contains("t2"), "{status}");
    let _ = std::fs::remove_dir_all(&dir);
}
