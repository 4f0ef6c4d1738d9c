//! Order files as players write them (issues 15 and 18): each common slip
//! through `herald check` gives one line naming the line and the fix, exit
//! status 1, nothing written; what mail programs do is accepted; the size
//! and count limits are named; and a seeded fuzzer that mutates valid order
//! files finds no panic and no answer slower than its size warrants.

use crate::common::{herald, scratch};
use herald::orders::{OrderFile, MAX_BYTES};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A Norse Wars game through the binary: its folder, game file and red's
/// password.
fn game(tag: &str) -> (PathBuf, String, String) {
    let dir = scratch(tag);
    let g = dir.join("game");
    let (code, out, err) = herald(&[
        "new",
        "norse-wars",
        "--players",
        "red,blue",
        "--id",
        "first",
        "--seed",
        "orders",
        "--out",
        g.to_str().unwrap(),
        "--now",
        "2026-11-22T12:00:00Z",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let secrets: toml::Table =
        toml::from_str(&std::fs::read_to_string(dir.join("game/secrets.toml")).unwrap()).unwrap();
    let pw = secrets["passwords"]["red"].as_str().unwrap().to_string();
    (dir, g.to_str().unwrap().to_string(), pw)
}

/// Every file under `dir` and its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

const FORM: &str =
    "game = \"first\"\nplayer = \"red\"\nturn = 0\npassword = \"PW\"\norders = [\n  \"J NE\",\n]\n";

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn each_slip_is_one_line_naming_the_line_and_the_fix() {
    let (dir, g, pw) = game("slips");
    let good = FORM.replace("PW", &pw);
    // (what the player sent, what herald must say)
    let cases: Vec<(String, &str)> = vec![
        (
            good.replace(&format!("\"{pw}\""), &format!("“{pw}”")),
            ":4: the password is in curly quotes (“ ”), which mail programs insert; use straight quotes: password = \"…\"",
        ),
        (
            good.replace("\"J NE\"", "‘J NE’"),
            ":6: an order is in curly quotes (‘ ’), which mail programs insert; use straight quotes: \"J NE\",",
        ),
        (
            good.replace("orders = [\n  \"J NE\",\n]\n", "J NE\n"),
            ":5: `J NE` is not in an orders list: put orders = [ on a line above your orders and ] on a line below them",
        ),
        (
            good.replace("orders = [\n  \"J NE\",\n]\n", "orders = [\n  \"J NE\",\n"),
            ":5: the orders list opened here is not closed: end it with ]",
        ),
        (
            good.replace("  \"J NE\",\n", "  \"J NE\"\n  \"starve W3 W1\",\n"),
            ":6: a comma is missing after \"J NE\"",
        ),
        (
            good.replace("  \"J NE\",\n", "  J NE,\n"),
            ":6: each order goes in double quotes: \"J NE\",",
        ),
        (
            good.replace("\"J NE\"", "\"J\nNE\""),
            ":6: an order is split across two lines, probably by your mail program: keep each order on its own line",
        ),
        (
            good.replace("\"J NE\"", "'J's move'"),
            ":6: a string in single quotes cannot hold an apostrophe (')",
        ),
        (
            good.replace("password", "pasword"),
            ":4: `pasword` is not a key of an order file; did you mean `password`?",
        ),
        (
            good.replace("turn = 0", "turn = \"0\""),
            ":3: the turn is a number, without quotes: turn = 0",
        ),
        (
            good.replace("player = \"red\"", "player = red"),
            ":2: the player id needs double quotes: player = \"red\"",
        ),
        (
            good.replace(&format!("\"{pw}\""), &format!("\"{pw}")),
            ":4: the password has no closing quote: password = \"…\"",
        ),
        (
            good.replace("player = ", "player: "),
            ":2: write `player = …` with =, not with :",
        ),
        (
            format!("{good}orders = [\"J NW\"]\n"),
            ":8: `orders` is given twice (also on line 5); keep one",
        ),
        (
            good.replace(&format!("\"{pw}\""), &format!("\"\" {pw}")),
            ":4: `…` after the password is not understood: the password goes between the quotes: password = \"…\"",
        ),
    ];
    let before = snapshot(&dir);
    for (k, (text, want)) in cases.iter().enumerate() {
        let f = dir.join(format!("slip{k}.toml"));
        std::fs::write(&f, text).unwrap();
        let (code, out, err) = herald(&["check", &g, f.to_str().unwrap()]);
        assert_eq!(code, 1, "case {k}: exit {code}\n{text}\n{out}{err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "case {k}: one line:\n{text}\n{err}");
        assert!(
            lines[0].contains(&format!("slip{k}.toml{want}")),
            "case {k}: wanted `{want}`:\n{text}\n{err}"
        );
        assert!(
            !err.contains(&pw),
            "case {k}: the password is repeated:\n{err}"
        );
        std::fs::remove_file(&f).unwrap();
    }
    assert!(before == snapshot(&dir), "a refused check wrote something");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_mail_programs_do_to_a_file_is_accepted() {
    let (dir, g, pw) = game("forgiven");
    let good = FORM.replace("PW", &pw);
    let cases = [
        ("a byte-order mark", format!("\u{feff}{good}")),
        ("Windows line ends", good.replace('\n', "\r\n")),
        ("old Mac line ends", good.replace('\n', "\r")),
        (
            "tabs",
            good.replace("  \"J NE\"", "\t\"J\tNE\"")
                .replace(" = ", "\t=\t"),
        ),
        (
            "non-breaking spaces",
            good.replace("  \"J NE\"", "\u{a0}\u{a0}\"J\u{a0}NE\"")
                .replace("player = ", "player\u{a0}= "),
        ),
        ("one string", good.replace("[\n  \"J NE\",\n]", "\"J NE\"")),
        ("lower case", good.replace("J NE", "j ne")),
        (
            "a greeting and the form marker",
            format!("Hello!\n\n----- ORDERS for turn 0: fill in and send back -----\n{good}"),
        ),
    ];
    for (what, text) in cases {
        let f = dir.join("ok.toml");
        std::fs::write(&f, &text).unwrap();
        let (code, out, err) = herald(&["check", &g, f.to_str().unwrap()]);
        assert_eq!(code, 0, "{what}:\n{text:?}\n{out}{err}");
        assert!(
            out.contains("red's orders for turn 0: J NE"),
            "{what}: {out}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn limits_are_named_and_refused_before_reading() {
    let (dir, g, pw) = game("limits");
    // A megabyte of empty orders and a wrong password (issue 15's file).
    let mut big = String::from(
        "game = \"first\"\nplayer = \"red\"\nturn = 0\npassword = \"wrong\"\norders = [\n",
    );
    while big.len() < 1_000_000 {
        big.push_str("\"\",\n");
    }
    big.push_str("]\n");
    let f = dir.join("big.toml");
    std::fs::write(&f, &big).unwrap();
    let (code, _, err) = herald(&["check", &g, f.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("an order file may be at most 65536 bytes (64 KiB)"),
        "{err}"
    );
    // 501 orders, within the size limit
    let many = FORM
        .replace("PW", &pw)
        .replace("  \"J NE\",\n", &"  \"J NE\",\n".repeat(501));
    std::fs::write(&f, &many).unwrap();
    let (code, _, err) = herald(&["check", &g, f.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("501 orders; an order file may hold at most 500"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Valid order files of every shape herald writes or players send.
fn corpus() -> Vec<String> {
    let mut out = Vec::new();
    let orders: Vec<String> = [
        "I1 2207",
        "attack 0915 with I3 I4 A2 advance I3",
        "move 8,4 7,4",
        "f1 power 3",
        "W3 NE 2",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    out.push(herald::report::order_file(
        "g1",
        "red",
        3,
        "abcd-efgh-jkmn",
        &orders,
    ));
    out.push(FORM.replace("PW", "abcd-efgh-jkmn"));
    out.push(format!(
        "Hello,\n\n----- ORDERS for turn 0: fill in and send back -----\n# Legal now:\n#   J NE, J NW\n{}",
        FORM.replace("PW", "x")
    ));
    out.push(format!(
        "Thanks.\r\n\r\n> ----- ORDERS for turn 0: fill in and send back -----\r\n{}",
        FORM.replace("PW", "x")
            .lines()
            .map(|l| format!("> {l}\r\n"))
            .collect::<String>()
    ));
    out.push("game = 'g'\nplayer = \"r\"\nturn = 1\npassword = \"\"\"p\"\"\"\norders = \"\"\"\nW3 NE 2\nJ S\n\"\"\"\n".into());
    out.push(
        "game=\"g\"\nplayer=\"r\"\nturn=1\npassword=\"p\"\norders=[\"a\",\"b\",\"c\"] # done\n"
            .into(),
    );
    out
}

/// A changed copy of `text`: byte flips, inserted quotes, brackets, line
/// ends, curly quotes and bytes that are not UTF-8, cuts, repeats.
fn mutate(rng: &mut rand_chacha::ChaCha8Rng, text: &str) -> Vec<u8> {
    const BITS: [&[u8]; 16] = [
        b"\"",
        b"'",
        b"[",
        b"]",
        b"\n",
        b"\r\n",
        b",",
        b"=",
        b"#",
        b"\"\"\"",
        b"'''",
        "“".as_bytes(),
        "’".as_bytes(),
        b"\xff",
        b"\xc3",
        b"\\",
    ];
    let mut b = text.as_bytes().to_vec();
    let edits = 1 + rng.next_u32() as usize % 4;
    for _ in 0..edits {
        let at = if b.is_empty() {
            0
        } else {
            rng.next_u32() as usize % (b.len() + 1)
        };
        match rng.next_u32() % 6 {
            0 if !b.is_empty() => {
                let i = at.min(b.len() - 1);
                b[i] ^= 1 << (rng.next_u32() % 8);
            }
            1 | 2 => {
                let bit = BITS[rng.next_u32() as usize % BITS.len()];
                b.splice(at..at, bit.iter().copied());
            }
            3 => b.truncate(at),
            4 if !b.is_empty() => {
                let end = (at + 1 + rng.next_u32() as usize % 40).min(b.len());
                let start = at.min(end);
                b.drain(start..end);
            }
            _ => {
                let end = (at + 1 + rng.next_u32() as usize % 60).min(b.len());
                let start = at.min(end);
                let chunk: Vec<u8> = b[start..end].to_vec();
                b.splice(start..start, chunk);
            }
        }
    }
    b
}

#[test]
fn fuzzed_order_files_never_panic_and_answer_in_time() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(18);
    let corpus = corpus();
    for c in &corpus {
        assert!(OrderFile::parse("c", c).is_ok(), "the corpus is valid: {c}");
    }
    // Bound: a generous fixed cost plus a cost per byte far above the
    // linear parser's (a few MB/s even on a busy machine), far below what
    // a quadratic step costs at 64 KiB.
    let bound = |len: usize| Duration::from_millis(250) + Duration::from_micros(20) * len as u32;
    let mut slowest = (Duration::ZERO, 0usize);
    let mut refused = 0;
    let mut cases = 0;
    for round in 0..4000 {
        let base = &corpus[round % corpus.len()];
        // Now and then a large file: the base repeated, up to the limit.
        let base = if round % 100 == 99 {
            let body = base.repeat(1 + (MAX_BYTES / base.len().max(1)).min(200));
            body.chars().take(MAX_BYTES - 100).collect::<String>()
        } else {
            base.clone()
        };
        let bytes = mutate(&mut rng, &base);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let start = Instant::now();
        let r = std::panic::catch_unwind(|| OrderFile::parse("fuzz.toml", &text));
        let took = start.elapsed();
        let r = r.unwrap_or_else(|_| panic!("OrderFile::parse panicked on {text:?}"));
        assert!(
            took <= bound(text.len()),
            "{took:?} for {} bytes: {text:?}",
            text.len()
        );
        if took > slowest.0 {
            slowest = (took, text.len());
        }
        if let Err(problems) = r {
            refused += 1;
            for p in &problems {
                assert!(
                    p.to_string().starts_with("fuzz.toml"),
                    "every problem names the file: {p}"
                );
            }
        }
        // The mail side on the same text: unflowing and splitting a reply.
        let _ = herald::mail::extract::unflow(&text, round % 2 == 0);
        cases += 1;
    }
    assert!(
        refused > cases / 4,
        "the mutations break files: {refused} of {cases} refused"
    );
    eprintln!(
        "fuzz: {cases} files, {refused} refused, slowest {:?} for {} bytes",
        slowest.0, slowest.1
    );
}

#[test]
fn durations_without_a_unit_are_refused_and_nothing_is_written() {
    let dir = scratch("durations");
    let g = dir.join("game");
    let new = |every: &str| {
        herald(&[
            "new",
            "hexwar",
            "--players",
            "red,blue",
            "--out",
            g.to_str().unwrap(),
            "--deadline-every",
            every,
            "--now",
            "2026-11-22T12:00:00Z",
        ])
    };
    let (code, out, err) = new("72");
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("72 has no unit: write 72h"), "{err}");
    assert!(!g.exists(), "nothing is written");
    let (code, out, err) = new("1h30m");
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("first deadline: 2026-11-22 13:30 UTC"),
        "{out}"
    );
    let before = std::fs::read(g.join("game.jsonl")).unwrap();
    let (code, _, err) = herald(&[
        "deadline",
        g.to_str().unwrap(),
        "+48",
        "--now",
        "2026-11-22T12:00:00Z",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("+48 has no unit: write +48h"), "{err}");
    let (code, _, err) = herald(&[
        "deadline",
        g.to_str().unwrap(),
        "2026-12-01T18:00:00",
        "--now",
        "2026-11-22T12:00:00Z",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("has no offset"), "{err}");
    assert_eq!(
        before,
        std::fs::read(g.join("game.jsonl")).unwrap(),
        "a refused deadline changes nothing"
    );
    for (when, want) in [
        ("+48h", "deadline 2026-11-24 12:00 UTC"),
        ("2d", "deadline 2026-11-24 12:00 UTC"),
        ("90m", "deadline 2026-11-22 13:30 UTC"),
        (
            "2026-12-01T19:00:00+01:00",
            "deadline 2026-12-01 19:00 +01:00",
        ),
        (
            "2026-12-01T19:00:30+01:00",
            "deadline 2026-12-01 19:00:30 +01:00",
        ),
        ("none", "no deadline"),
    ] {
        let (code, out, err) = herald(&[
            "deadline",
            g.to_str().unwrap(),
            when,
            "--now",
            "2026-11-22T12:00:00Z",
        ]);
        assert_eq!(code, 0, "{when}: {err}");
        assert!(out.contains(want), "{when}: {out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
