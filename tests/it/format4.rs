//! Format 4 → 5 (issue 47, "Addresses are secrets"): a lobby game the
//! herald of format 4 played by mail (`tests/fixtures/format4`, see its
//! make.py: grey press, a mute, a vacation, a seat taken over) loads and
//! plays on as format 4; `herald convert GAME` brings it to format 5 with
//! no address left in its game file and nothing of the running game lost
//! (the mails its players kept still verify, its press, mutes, vacations
//! and seat change are all there); `herald convert GAME --out FILE` makes
//! a copy without addresses of a published file of format 4.

use crate::common::{herald, lines};
use crate::format3::{converted_to_5, file_lines, verify_ok};
use crate::store::{copy_dir, ok, s, snapshot, Spot};
use std::path::{Path, PathBuf};

fn fixtures4() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format4")
}

/// The kept mails of the fixture.
fn kept() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(fixtures4().join("kept"))
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    v.sort();
    v
}

/// The fixture's players' addresses now (player id → address).
fn addresses() -> Vec<(String, String)> {
    std::fs::read_to_string(fixtures4().join("addresses.txt"))
        .unwrap()
        .lines()
        .map(|l| {
            let (p, a) = l.split_once(' ').unwrap();
            (p.to_string(), a.to_string())
        })
        .collect()
}

fn verify_witnesses(g: &Path) -> String {
    let mut args = vec!["verify".to_string(), s(g).to_string(), "--witness".into()];
    args.extend(kept());
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = herald(&a);
    assert_eq!(code, 0, "{out}{err}");
    out
}

/// Every file of a folder but the game file, the secrets, the reports
/// (made again on the new chain head) and the archive (the old file).
fn kept_files(g: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    snapshot(g)
        .into_iter()
        .filter(|(p, _)| {
            let p = p.strip_prefix(g).unwrap_or(p).display().to_string();
            ![
                "game.jsonl",
                "secrets.toml",
                "reports",
                "archive",
                "lock",
                "outbox",
            ]
            .iter()
            .any(|x| p.starts_with(x))
        })
        .collect()
}

/// The lobby fixture: verifies with its kept mails, plays on as format 4
/// (named press relayed; anonymous press refused with the line to run),
/// converts to format 5 with its addresses in secrets.toml and none in the
/// game file, nothing else lost; verifies with the folder's secrets and the
/// mails kept from before; plays on as format 5, anonymous press included.
#[test]
fn the_format_4_lobby_game_plays_on_and_converts_to_5_losing_nothing() {
    let spot = Spot::new("format4");
    let before = snapshot(&fixtures4());
    let g = spot.join("lobby");
    copy_dir(&fixtures4().join("lobby"), &g);
    assert_eq!(lines(&g)[0]["head"]["format"], 4);
    verify_ok(&g);
    let out = verify_witnesses(&g);
    assert!(
        out.contains("press #2") && out.contains("receipts and reports"),
        "{out}"
    );
    let text = std::fs::read_to_string(g.join("game.jsonl")).unwrap();
    for (_, a) in addresses() {
        assert!(text.contains(&a), "the format-4 file holds {a}");
    }
    // Anonymous press in a game of format 4 would not be anonymous.
    let (_, gl) = herald::pipeline::open(&g).unwrap();
    let rules = herald::pipeline::press::rules_of(
        &herald::store::Store::reader(herald::store::GameDir::at(&g)),
        &gl,
    )
    .unwrap();
    let why = herald::pipeline::press::allowed(
        &gl,
        &rules,
        "player1",
        &herald::pipeline::press::To::Players(vec!["player2".into()]),
        true,
        "2026-11-26T00:30:00Z",
    )
    .unwrap_err();
    assert!(
        why.contains("format 4") && why.contains("herald convert"),
        "{why}"
    );
    // Played on as format 4: a deadline entry, the head stays 4.
    ok(&[
        "deadline",
        s(&g),
        "2026-11-27T00:00:00+00:00",
        "--now",
        "2026-11-26T00:30:00Z",
    ]);
    assert_eq!(lines(&g)[0]["head"]["format"], 4);
    let files_before = kept_files(&g);
    let secrets_before = std::fs::read_to_string(g.join("secrets.toml")).unwrap();
    let old = file_lines(&g);
    let out = ok(&["convert", s(&g), "--now", "2026-11-26T01:00:00Z"]);
    assert!(
        out.contains(&format!("format 4 -> {}", herald::chain::FORMAT)),
        "{out}"
    );
    assert!(
        out.contains("1 anonymous press entries relayed before format 5"),
        "{out}"
    );
    let new = file_lines(&g);
    converted_to_5("lobby", &old, &new);
    // Nothing lost: every other file as it was; the passwords and seed as
    // they were, the addresses added.
    assert_eq!(files_before, kept_files(&g), "a file of the game changed");
    let secrets = std::fs::read_to_string(g.join("secrets.toml")).unwrap();
    for l in secrets_before.lines().filter(|l| !l.starts_with('#')) {
        assert!(secrets.contains(l), "secrets.toml lost `{l}`");
    }
    let text = std::fs::read_to_string(g.join("game.jsonl")).unwrap();
    let (_, gl) = herald::pipeline::open(&g).unwrap();
    for (p, a) in addresses() {
        assert!(!text.contains(&a), "the game file still holds {a}");
        assert!(secrets.contains(&a), "secrets.toml lacks {a}");
        assert_eq!(gl.address(&p), Some(a.as_str()), "{p}'s address");
    }
    let out = ok(&["verify", s(&g)]);
    assert!(out.contains("hashes to `redacted.genesis`"), "{out}");
    assert!(
        out.contains("mail addresses the game file binds open"),
        "{out}"
    );
    assert!(out.contains("1 anonymous"), "{out}");
    // The mails kept from before still prove what they proved.
    let out = verify_witnesses(&g);
    assert!(
        out.contains("press #1") && out.contains("press #2"),
        "{out}"
    );
    assert!(out.contains("receipts and reports name"), "{out}");
    // An address changed in secrets.toml is found, naming the player.
    let changed = spot.join("changed");
    copy_dir(&g, &changed);
    let (p, a) = addresses()[1].clone();
    std::fs::write(
        changed.join("secrets.toml"),
        secrets.replace(&a, "mallory@elsewhere.test"),
    )
    .unwrap();
    let (code, o, err) = herald(&["verify", s(&changed)]);
    assert_eq!(code, 1, "{o}{err}");
    assert!(
        err.contains(&format!("{p}")) && err.contains("secrets.toml"),
        "{err}"
    );
    // A second convert has nothing to do.
    let again = ok(&["convert", s(&g)]);
    assert!(
        again.contains(&format!("format {} already", herald::chain::FORMAT)),
        "{again}"
    );
    assert_eq!(new, file_lines(&g));
    // Plays on as format 5: a phase resolved, anonymous press allowed.
    ok(&["resolve", s(&g), "--now", "2026-11-27T00:05:00Z"]);
    assert_eq!(lines(&g)[0]["head"]["format"], herald::chain::FORMAT);
    let (_, gl) = herald::pipeline::open(&g).unwrap();
    assert!(herald::pipeline::press::allowed(
        &gl,
        &rules,
        "player1",
        &herald::pipeline::press::To::Players(vec!["player2".into()]),
        true,
        "2026-11-27T00:06:00Z",
    )
    .is_ok());
    verify_ok(&g);
    assert_eq!(before, snapshot(&fixtures4()), "the fixtures were changed");
}

/// A published game file of format 4 holds its players' addresses:
/// `herald convert game.jsonl --out FILE --key KEY` writes the same game
/// without them (verifying as format 5, byte for byte what `convert` of
/// the folder writes), leaving the copy as it was; without the key it is
/// refused with the line to run.
#[test]
fn a_published_format_4_file_is_stripped_of_its_addresses() {
    let spot = Spot::new("format4-strip");
    let published = spot.join("published");
    std::fs::create_dir_all(&published).unwrap();
    std::fs::copy(
        fixtures4().join("lobby/game.jsonl"),
        published.join("game.jsonl"),
    )
    .unwrap();
    let before = snapshot(&published);
    let clean = spot.join("clean");
    std::fs::create_dir_all(&clean).unwrap();
    let out_file = clean.join("game.jsonl");
    let (code, _, err) = herald(&["convert", s(&published), "--out", s(&out_file)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--key"), "{err}");
    assert!(!out_file.exists());
    let key = fixtures4().join("lobby/moderator.key");
    let out = ok(&[
        "convert",
        s(&published),
        "--out",
        s(&out_file),
        "--key",
        s(&key),
    ]);
    assert!(out.contains("without the players' addresses"), "{out}");
    assert_eq!(
        before,
        snapshot(&published),
        "the published copy was changed"
    );
    let text = std::fs::read_to_string(&out_file).unwrap();
    for (_, a) in addresses() {
        assert!(!text.contains(&a), "the copy still holds {a}");
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&out_file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644, "a copy to publish is world-readable");
    let (code, o, e) = herald(&["verify", s(&clean)]);
    assert_eq!(code, 0, "{o}{e}");
    assert!(o.contains("not checked: the game file binds"), "{o}");
    // The folder converted gives the same bytes.
    let g = spot.join("lobby");
    copy_dir(&fixtures4().join("lobby"), &g);
    ok(&["convert", s(&g), "--now", "2026-11-26T01:00:00Z"]);
    assert_eq!(
        text,
        std::fs::read_to_string(g.join("game.jsonl")).unwrap(),
        "the stripped copy is not what convert writes"
    );
    // Another key is refused; so is a file of format 5, which holds none.
    let other = spot.join("other.key");
    ok(&["keygen", "--out", s(&other)]);
    let (code, _, err) = herald(&[
        "convert",
        s(&published),
        "--out",
        s(&spot.join("x.jsonl")),
        "--key",
        s(&other),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not the key"), "{err}");
    let (code, _, err) = herald(&["convert", s(&g), "--out", s(&spot.join("y.jsonl"))]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("holds no address"), "{err}");
}
