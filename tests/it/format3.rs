//! Game file formats 3 and 4 (docs/trust.md, "Formats"; docs/store.md):
//! new games are written as format 4; game folders of format 2 and 3, as
//! earlier heralds wrote them (`tests/fixtures/format2`, `format3`, see
//! their make.sh), load and play on unchanged, and `herald convert GAME`
//! brings one to format 4 by rewriting only the head's `format` and
//! sealing it again.

use crate::common::{herald, lines, reseal, write_lines};
use crate::store::{copy_dir, ok, s, snapshot, Spot};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format2")
}

fn verify_ok(game: &Path) {
    let (code, out, err) = herald(&["verify", s(game)]);
    assert_eq!(code, 0, "verify {}: {out}{err}", game.display());
    assert!(out.contains("every phase replays"), "{out}");
}

fn file_lines(game: &Path) -> Vec<String> {
    std::fs::read_to_string(game.join("game.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Each format-2 fixture: verifies, plays on as format 2 (a changing
/// command keeps its head at 2), converts in place with only line 1
/// changed and only its `format` field, verifies and plays on as format
/// 4; a second convert has nothing to do.
#[test]
fn format_2_fixtures_play_on_and_convert_to_4() {
    let spot = Spot::new("format2");
    let before = snapshot(&fixtures());
    for name in ["mail", "demo-norse-wars"] {
        let g = spot.join(name);
        copy_dir(&fixtures().join(name), &g);
        verify_ok(&g);
        assert_eq!(lines(&g)[0]["head"]["format"], 2, "{name}");
        // Played on as format 2: a deadline entry appended, the head stays 2.
        ok(&["deadline", s(&g), "none", "--now", "2026-12-20T00:00:00Z"]);
        assert_eq!(lines(&g)[0]["head"]["format"], 2, "{name}");
        verify_ok(&g);
        let old = file_lines(&g);
        let out = ok(&["convert", s(&g), "--now", "2026-12-21T00:00:00Z"]);
        assert!(out.contains("format 2 -> 4"), "{name}: {out}");
        let new = file_lines(&g);
        assert_eq!(old.len(), new.len());
        assert_eq!(old[1..], new[1..], "{name}: an entry line changed");
        let mut a: Value = serde_json::from_str(&old[0]).unwrap();
        let b: Value = serde_json::from_str(&new[0]).unwrap();
        assert_eq!(b["head"]["format"], 4);
        assert_eq!(lines(&g)[1]["body"]["format"], 2, "the genesis stays");
        a["head"]["format"] = 4.into();
        assert_eq!(a["head"], b["head"], "{name}: more than the format changed");
        assert_ne!(
            a["seal"], b["seal"],
            "{name}: the head was not sealed again"
        );
        verify_ok(&g);
        let st = ok(&["status", s(&g)]);
        assert!(st.contains("turn"), "{st}");
        let again = ok(&["convert", s(&g)]);
        assert!(again.contains("format 4 already"), "{again}");
        assert_eq!(new, file_lines(&g), "a second convert wrote");
        // Plays on as format 4.
        ok(&[
            "deadline",
            s(&g),
            "2027-01-10T00:00:00+00:00",
            "--now",
            "2026-12-22T00:00:00Z",
        ]);
        assert_eq!(lines(&g)[0]["head"]["format"], 4);
        verify_ok(&g);
    }
    assert_eq!(before, snapshot(&fixtures()), "the fixtures were changed");
}

/// A format-2 game resolves on as format 2, through the whole engine.
#[test]
fn format_2_fixture_resolves_as_format_2() {
    let spot = Spot::new("format2-resolve");
    let g = spot.join("mail");
    copy_dir(&fixtures().join("mail"), &g);
    // The fixture awaits blue at turn 1, past its deadline: the stand-in
    // resolves it.
    let out = ok(&["resolve", s(&g), "--now", "2026-12-20T00:00:00Z"]);
    assert!(!out.is_empty());
    assert_eq!(lines(&g)[0]["head"]["format"], 2);
    verify_ok(&g);
}

/// New games are format 4, head and genesis.
#[test]
fn new_games_are_format_4() {
    let spot = Spot::new("format3-new");
    let g = spot.join("g");
    ok(&[
        "new",
        "hexwar",
        "--players",
        "red,blue",
        "--out",
        s(&g),
        "--light-passwords",
        "--now",
        "2026-12-01T00:00:00Z",
    ]);
    let l = lines(&g);
    assert_eq!(l[0]["head"]["format"], 4);
    assert_eq!(l[1]["body"]["format"], 4);
    verify_ok(&g);
}

/// What convert refuses: `--out` or `--key` with a game folder (usage,
/// with the line to run), a format-1 file without `--out`; a head of a
/// format this herald does not know, and a genesis newer than its head
/// even when sealed with the game's own key.
#[test]
fn convert_and_open_refuse_what_format_3_does_not_allow() {
    let spot = Spot::new("format3-refuse");
    let g = spot.join("mail");
    copy_dir(&fixtures().join("mail"), &g);
    let before = snapshot(&g);
    let (code, _, err) = herald(&["convert", s(&g), "--out", s(&spot.join("x"))]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("herald convert {}", s(&g))), "{err}");
    let old = crate::store::fixtures().join("mail/game.json");
    let (code, _, err) = herald(&["convert", s(&old)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--out <new folder>"), "{err}");
    assert_eq!(before, snapshot(&g));

    // A genesis of format 3 under a head of 2, re-signed by the key holder.
    let mut l = lines(&g);
    l[1]["body"]["format"] = 3.into();
    crate::common::rehash(&mut l);
    reseal(&g, &mut l);
    write_lines(&g, &l);
    let (code, _, err) = herald(&["status", s(&g)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("entry 0 (genesis): format 3"), "{err}");

    // A head of format 5.
    let mut l = lines(&g);
    l[1]["body"]["format"] = 2.into();
    crate::common::rehash(&mut l);
    l[0]["head"]["format"] = 5.into();
    reseal(&g, &mut l);
    write_lines(&g, &l);
    let (code, _, err) = herald(&["status", s(&g)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("format 5 is not one this herald reads"),
        "{err}"
    );
}

fn fixtures3() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format3")
}

/// Each format-3 fixture (written by the herald before format 4):
/// verifies, plays on as format 3 (a resolve keeps its head at 3),
/// converts in place with only the head's `format` changed, and plays on
/// as format 4.
#[test]
fn format_3_fixtures_play_on_and_convert_to_4() {
    let spot = Spot::new("format3-fixtures");
    let before = snapshot(&fixtures3());
    for name in ["press", "demo-stack-wars"] {
        let g = spot.join(name);
        copy_dir(&fixtures3().join(name), &g);
        verify_ok(&g);
        assert_eq!(lines(&g)[0]["head"]["format"], 3, "{name}");
        // Played on as format 3: a deadline entry appended (and the press
        // game's turn resolved past its deadline, the stand-in playing
        // whoever sent nothing); the head stays 3.
        ok(&[
            "deadline",
            s(&g),
            "2027-01-01T00:00:00+00:00",
            "--now",
            "2026-12-20T00:00:00Z",
        ]);
        if name == "press" {
            ok(&["resolve", s(&g), "--now", "2027-01-01T12:00:00Z"]);
        }
        assert_eq!(lines(&g)[0]["head"]["format"], 3, "{name}");
        verify_ok(&g);
        let old = file_lines(&g);
        let out = ok(&["convert", s(&g), "--now", "2027-01-02T00:00:00Z"]);
        assert!(out.contains("format 3 -> 4"), "{name}: {out}");
        let new = file_lines(&g);
        assert_eq!(old[1..], new[1..], "{name}: an entry line changed");
        let mut a: Value = serde_json::from_str(&old[0]).unwrap();
        let b: Value = serde_json::from_str(&new[0]).unwrap();
        a["head"]["format"] = 4.into();
        assert_eq!(a["head"], b["head"], "{name}: more than the format changed");
        assert_eq!(lines(&g)[1]["body"]["format"], 3, "the genesis stays");
        verify_ok(&g);
        ok(&["deadline", s(&g), "none", "--now", "2027-01-03T00:00:00Z"]);
        assert_eq!(lines(&g)[0]["head"]["format"], 4, "{name}");
        verify_ok(&g);
    }
    assert_eq!(before, snapshot(&fixtures3()), "the fixtures were changed");
}

/// A phase entry naming players a stand-in played for (`excused`, format
/// 4) in a game file of format 3 is refused, even signed by the game's own
/// key; the same entry under a head of 4 is a phase like any other to
/// `open` (replay then finds that the game never excused anyone).
#[test]
fn an_excused_phase_needs_format_4() {
    let spot = Spot::new("format3-excused");
    let g = spot.join("press");
    copy_dir(&fixtures3().join("press"), &g);
    let mut l = lines(&g);
    let k = (1..l.len())
        .rev()
        .find(|&k| l[k]["body"]["kind"] == "phase")
        .expect("the fixture holds a phase");
    l[k]["body"]["excused"] = serde_json::json!(["blue"]);
    crate::common::rehash(&mut l);
    reseal(&g, &mut l);
    write_lines(&g, &l);
    let (code, _, err) = herald(&["status", s(&g)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "entry {} is a phase entry naming players a stand-in played for",
            k - 1
        )),
        "{err}"
    );
    assert!(err.contains("format 3 do not hold"), "{err}");
}
