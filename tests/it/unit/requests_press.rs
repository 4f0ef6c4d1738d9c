//! `requests::press`: press and mutes through the door, with no mail: a
//! seat shown by its password (or its own address, or a session), press
//! relayed and recorded with the relayed mails queued, mutes changed, and
//! each refusal typed.

use crate::common::scratch;
use herald::pipeline::press::{Settings, To};
use herald::pipeline::{self, MailSettings, NewGame, Writing};
use herald::requests::bound::Bound;
use herald::requests::guard::{Budget, Counts};
use herald::requests::press::{self, Asked, Limits, Mute, Outcome, Press, Refusal, Request, Shown};
use herald::requests::{Carrier, Claim, Door, Requester};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

const NOW: &str = "2026-03-01T12:00:00Z";
const T: i64 = 1_772_366_400;
const LIMITS: Limits = Limits {
    per_day: 2,
    max_bytes: 100,
};

/// A two-player game with private press, red and blue with addresses.
fn game(tag: &str) -> (PathBuf, Writing, BTreeMap<String, String>) {
    let dir = scratch(tag);
    let out = dir.join("g1");
    let c = pipeline::create(NewGame {
        game: "hexwar".into(),
        rules: None,
        players: vec!["red".into(), "blue".into()],
        seed: Some("seed-press".into()),
        options: Vec::new(),
        setup: None,
        id: Some("g1".into()),
        out: out.clone(),
        key: None,
        now: chrono::DateTime::parse_from_rfc3339("2026-03-01T00:00:00Z").unwrap(),
        secrets_from_seed: false,
        light_passwords: true,
        mail: MailSettings {
            moderator: Some("herald+g1@host.test".into()),
            emails: vec![
                "red=red@players.test".into(),
                "blue=blue@players.test".into(),
            ],
            press: Settings {
                kind: Some("private".into()),
                ..Settings::default()
            },
            ..MailSettings::default()
        },
    })
    .unwrap();
    let w = pipeline::open_to_write(&out, Duration::from_secs(5), NOW).unwrap();
    (dir, w, c.passwords.into_iter().collect())
}

fn to_blue(text: &str) -> Asked {
    Asked::Press(Press {
        to: Some(To::Players(vec!["blue".into()])),
        anonymous: false,
        text: text.into(),
        refs: Vec::new(),
        subject_n: None,
    })
}

/// Run each request through one door; each carrier's digest is made
/// from `tag` and its place (a press is known by its digest: the same
/// digest again is the same press handled again).
fn run(
    dir: &PathBuf,
    w: &mut Writing,
    tag: &str,
    reqs: Vec<(Asked, Requester, Shown)>,
) -> Vec<Outcome> {
    let (mut counts, mut refusals) = (Counts::default(), BTreeMap::new());
    let budget = Budget::new(10, T, &w.game.head().players, &mut counts, &mut refusals);
    let bound = Bound::open(&dir.join("state/reply-bound"), 50, T);
    let door = Door {
        budget: &budget,
        bound: &bound,
    };
    reqs.into_iter()
        .enumerate()
        .map(|(i, (asked, by, shown))| {
            let req = Request {
                asked,
                by,
                shown,
                carrier: Carrier {
                    id: format!("req-{i}"),
                    digest: herald::chain::canon::sha256_hex(format!("{tag}-{i}").as_bytes()),
                },
            };
            press::run(w, &door, &req, NOW, LIMITS, "herald+g1@host.test").1
        })
        .collect()
}

fn shown(player: Option<&str>, password: Option<&str>) -> Shown {
    Shown {
        player: player.map(str::to_string),
        password: password.map(str::to_string),
    }
}

#[test]
fn press_is_relayed_recorded_and_mailed_and_each_refusal_is_typed() {
    let (dir, mut w, pw) = game("door-press");
    let from_red = || Requester::Anyone(Claim::claimed("red@players.test"));
    let stranger = || Requester::Anyone(Claim::claimed("who@else.test"));
    let red = pw["red"].as_str();
    let out = run(
        &dir,
        &mut w,
        "first",
        vec![
            // From red's own address, no seat named: red's.
            (
                to_blue("The ford at dawn."),
                from_red(),
                shown(None, Some(red)),
            ),
            (to_blue("again"), stranger(), shown(None, Some(red))),
            (
                to_blue("again"),
                stranger(),
                shown(Some("green"), Some("x")),
            ),
            (to_blue("again"), from_red(), shown(Some("red"), None)),
            (
                to_blue("again"),
                from_red(),
                shown(Some("red"), Some("wrong")),
            ),
            (to_blue(""), from_red(), shown(None, Some(red))),
            (
                to_blue(&"x".repeat(101)),
                from_red(),
                shown(None, Some(red)),
            ),
        ],
    );
    let Outcome::Relayed(r) = &out[0] else {
        panic!("{:?}", out[0])
    };
    assert_eq!((r.player.as_str(), r.kept.entry.n), ("red", 1));
    assert_eq!(r.mailed, ["blue"]);
    assert!(r.not_mailed.is_empty());
    assert!(
        matches!(&out[1], Outcome::Refused(Refusal::WhoAreYou { players }) if players.len() == 2)
    );
    assert!(
        matches!(&out[2], Outcome::Refused(Refusal::NotAPlayer { named, .. }) if named == "green")
    );
    assert!(
        matches!(&out[3], Outcome::Refused(Refusal::PasswordMissing { player }) if player == "red")
    );
    assert!(
        matches!(&out[4], Outcome::Refused(Refusal::WrongPassword { player }) if player == "red")
    );
    assert!(
        matches!(&out[5], Outcome::Refused(Refusal::NoText { .. })),
        "{:?}",
        out[5]
    );
    assert!(matches!(
        &out[6],
        Outcome::Refused(Refusal::TooLong {
            bytes: 101,
            max: 100,
            ..
        })
    ));
    // The relayed mail to blue is queued in the game's outbox.
    let queued = std::fs::read_dir(w.store.dir.root().join("outbox"))
        .unwrap()
        .count();
    assert!(queued >= 1);
    // A second press today is within the limit of two, a third is not.
    let out = run(
        &dir,
        &mut w,
        "second",
        vec![
            (to_blue("two"), from_red(), shown(None, Some(red))),
            (to_blue("three"), from_red(), shown(None, Some(red))),
        ],
    );
    assert!(matches!(out[0], Outcome::Relayed(_)), "{:?}", out[0]);
    assert!(matches!(
        &out[1],
        Outcome::Refused(Refusal::PerDay {
            sent: 2,
            per_day: 2,
            ..
        })
    ));
}

#[test]
fn a_mute_withholds_press_and_a_session_needs_no_password() {
    let (dir, mut w, _) = game("door-mute");
    let blue = Requester::Session {
        address: "blue@players.test".into(),
    };
    let red = Requester::Session {
        address: "red@players.test".into(),
    };
    let mute = |others: &[&str]| {
        Asked::Mute(Mute {
            on: true,
            others: others.iter().map(|s| s.to_string()).collect(),
            all: false,
        })
    };
    let out = run(
        &dir,
        &mut w,
        "mutes",
        vec![
            (mute(&["blue"]), blue.clone(), Shown::default()),
            (mute(&["nobody"]), blue.clone(), Shown::default()),
            (mute(&["red"]), blue, Shown::default()),
            (to_blue("hello"), red, Shown::default()),
        ],
    );
    assert!(
        matches!(&out[0], Outcome::Refused(Refusal::BadNames { player, .. }) if player == "blue")
    );
    assert!(matches!(
        &out[1],
        Outcome::Refused(Refusal::BadNames { .. })
    ));
    let Outcome::Muted(m) = &out[2] else {
        panic!("{:?}", out[2])
    };
    assert_eq!(
        (m.player.as_str(), m.muted.clone()),
        ("blue", vec!["red".to_string()])
    );
    assert!(
        matches!(&out[3], Outcome::Refused(Refusal::MutedBy { player, by }) if player == "red" && by == &["blue"])
    );
}
