//! Game file formats 3, 4 and 5 (docs/trust.md, "Formats"; docs/store.md):
//! new games are written as format 5; game folders of formats 2 and 3, as
//! earlier heralds wrote them (`tests/fixtures/format2`, `format3`, see
//! their make.sh), load and play on unchanged, and `herald convert GAME`
//! brings one to format 5: only the head's `format` rewritten and sealed
//! again where the genesis holds no address, else the genesis written
//! again without the addresses and every later entry's body carried over
//! unchanged (`converted_to_5`). Format 4's own fixtures are tested in
//! `format4.rs`.

use crate::common::{herald, lines, reseal, write_lines};
use crate::store::{copy_dir, ok, s, snapshot, Spot};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format2")
}

pub(crate) fn verify_ok(game: &Path) {
    let (code, out, err) = herald(&["verify", s(game)]);
    assert_eq!(code, 0, "verify {}: {out}{err}", game.display());
    assert!(out.contains("every phase replays"), "{out}");
}

pub(crate) fn file_lines(game: &Path) -> Vec<String> {
    std::fs::read_to_string(game.join("game.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// What `convert` must have made of the game file `old` (its lines): the
/// same game as format 5, no address in it, nothing else changed. Where
/// the genesis held addresses it is written again with each replaced by
/// `address_sha256` and `redacted` naming the genesis before, and every
/// later entry keeps its body byte for byte; else only the head changed.
pub(crate) fn converted_to_5(name: &str, old: &[String], new: &[String]) {
    let v = |l: &str| -> Value { serde_json::from_str(l).unwrap() };
    assert_eq!(old.len(), new.len(), "{name}: entries added or lost");
    assert!(
        !new.iter().any(|l| l.contains("\"email\"")),
        "{name}: an address is still in the game file"
    );
    let (a, b) = (v(&old[0]), v(&new[0]));
    assert_eq!(b["head"]["format"], herald::chain::FORMAT, "{name}");
    // The head: the format, and each address replaced by its commitment.
    let mut want = a["head"].clone();
    want["format"] = herald::chain::FORMAT.into();
    for (i, p) in want["players"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        let had = p.as_object_mut().unwrap().remove("email").is_some();
        let c = &b["head"]["players"][i]["address_sha256"];
        assert_eq!(had, c.is_string(), "{name}: player {i}'s address_sha256");
        if had {
            p["address_sha256"] = c.clone();
        }
    }
    want["log"] = b["head"]["log"].clone();
    assert_eq!(
        want, b["head"],
        "{name}: the head changed beyond its addresses"
    );
    let g0 = v(&old[1])["body"].clone();
    let held = g0["players"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p.get("email").is_some());
    if !held {
        assert_eq!(old[1..], new[1..], "{name}: an entry line changed");
        return;
    }
    let mut g = g0.clone();
    g["format"] = herald::chain::FORMAT.into();
    g["redacted"] = serde_json::json!({
        "from_format": g0["format"],
        "genesis": v(&old[1])["hash"],
        "entries": old.len() - 1,
    });
    for (i, p) in g["players"].as_array_mut().unwrap().iter_mut().enumerate() {
        if p.as_object_mut().unwrap().remove("email").is_some() {
            p["address_sha256"] = v(&new[1])["body"]["players"][i]["address_sha256"].clone();
        }
    }
    assert_eq!(
        g,
        v(&new[1])["body"],
        "{name}: the genesis changed beyond its addresses"
    );
    for i in 2..old.len() {
        assert_eq!(
            v(&old[i])["body"],
            v(&new[i])["body"],
            "{name}: the body of entry {} changed",
            i - 1
        );
        // Byte for byte: the body's text between `{"body":` and its hash.
        let body = |l: &str| l[8..l.len() - 286].to_string();
        assert_eq!(
            body(&old[i]),
            body(&new[i]),
            "{name}: entry {} re-serialised",
            i - 1
        );
    }
}

/// Each format-2 fixture: verifies, plays on as format 2 (a changing
/// command keeps its head at 2), converts in place to format 5 with its
/// addresses taken out and nothing else changed (`converted_to_5`),
/// verifies and plays on as format 5; a second convert has nothing to do.
#[test]
fn format_2_fixtures_play_on_and_convert_to_5() {
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
        assert!(
            out.contains(&format!("format 2 -> {}", herald::chain::FORMAT)),
            "{name}: {out}"
        );
        let new = file_lines(&g);
        converted_to_5(name, &old, &new);
        assert_ne!(
            old[0][old[0].len() - 130..],
            new[0][new[0].len() - 130..],
            "{name}: the head was not sealed again"
        );
        verify_ok(&g);
        let st = ok(&["status", s(&g)]);
        assert!(st.contains("turn"), "{st}");
        let again = ok(&["convert", s(&g)]);
        assert!(
            again.contains(&format!("format {} already", herald::chain::FORMAT)),
            "{again}"
        );
        assert_eq!(new, file_lines(&g), "a second convert wrote");
        // Plays on as format 5.
        ok(&[
            "deadline",
            s(&g),
            "2027-01-10T00:00:00+00:00",
            "--now",
            "2026-12-22T00:00:00Z",
        ]);
        assert_eq!(lines(&g)[0]["head"]["format"], herald::chain::FORMAT);
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

/// New games are format 5, head and genesis.
#[test]
fn new_games_are_format_5() {
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
    assert_eq!(l[0]["head"]["format"], herald::chain::FORMAT);
    assert_eq!(l[1]["body"]["format"], herald::chain::FORMAT);
    verify_ok(&g);
}

/// What convert refuses: `--key` without `--out` for a game folder (usage,
/// with the line to run), a format-1 file without `--out`; a head of a
/// format this herald does not know, and a genesis newer than its head
/// even when sealed with the game's own key.
#[test]
fn convert_and_open_refuse_what_format_3_does_not_allow() {
    let spot = Spot::new("format3-refuse");
    let g = spot.join("mail");
    copy_dir(&fixtures().join("mail"), &g);
    let before = snapshot(&g);
    let (code, _, err) = herald(&["convert", s(&g), "--key", s(&g.join("moderator.key"))]);
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

    // A head of a format after this herald's.
    let mut l = lines(&g);
    l[1]["body"]["format"] = 2.into();
    crate::common::rehash(&mut l);
    l[0]["head"]["format"] = (herald::chain::FORMAT + 1).into();
    reseal(&g, &mut l);
    write_lines(&g, &l);
    let (code, _, err) = herald(&["status", s(&g)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "format {} is not one this herald reads",
            herald::chain::FORMAT + 1
        )),
        "{err}"
    );
}

fn fixtures3() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format3")
}

/// Each format-3 fixture (written by the herald before format 4):
/// verifies, plays on as format 3 (a resolve keeps its head at 3),
/// converts in place to format 5 with its addresses taken out and nothing
/// else changed, and plays on as format 5.
#[test]
fn format_3_fixtures_play_on_and_convert_to_5() {
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
        assert!(
            out.contains(&format!("format 3 -> {}", herald::chain::FORMAT)),
            "{name}: {out}"
        );
        converted_to_5(name, &old, &file_lines(&g));
        verify_ok(&g);
        ok(&["deadline", s(&g), "none", "--now", "2027-01-03T00:00:00Z"]);
        assert_eq!(
            lines(&g)[0]["head"]["format"],
            herald::chain::FORMAT,
            "{name}"
        );
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
