//! `requests::lobby` and `requests::seats`: the lobby's requests through
//! the door with no mail (a claimed address gets a code, the code
//! confirms, a session is seated at once, a request handled again changes
//! nothing twice), the budget of codes tried per address, and the seats
//! a proven address holds across a host folder's games.

use crate::common::{herald, scratch};
use herald::pipeline::{self, MailSettings, NewGame};
use herald::requests::guard::{Tries, TryCounts};
use herald::requests::lobby::{self, Command, Done, Lobby, Outcome, Refusal, Request};
use herald::requests::seats::{held_by, seats_in, Held};
use herald::requests::{Carrier, Claim, Requester};
use herald::store::host_dir::HostDir;
use std::path::{Path, PathBuf};

const NOW: &str = "2026-03-01T12:00:00Z";
const T: i64 = 1_772_366_400;

/// A host folder with one open table `t1` of hexwar (two seats).
fn host(tag: &str) -> PathBuf {
    let dir = scratch(tag);
    let d = dir.display().to_string();
    let (code, o, e) = herald(&[
        "host",
        "open",
        &d,
        "t1",
        "--ruleset",
        "hexwar",
        "--now",
        NOW,
    ]);
    assert_eq!(code, 0, "{o}{e}");
    dir
}

fn claimed(address: &str) -> Claim {
    Claim::claimed(address)
}

fn req(command: Command, by: Requester, n: u32) -> Request {
    Request {
        command,
        by,
        carrier: Carrier {
            id: format!("<{n}@test>"),
            digest: format!("{n:064x}"),
        },
    }
}

fn join() -> Command {
    Command::Join {
        table: "t1".into(),
        name: Some("Ann".into()),
        public: false,
        prefer: None,
    }
}

fn seats(dir: &Path) -> usize {
    let t: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("lobby/t1.json")).unwrap()).unwrap();
    t["seats"].as_array().unwrap().len()
}

fn run_with(dir: &Path, tries: Option<&Tries>, r: &Request) -> Outcome {
    let lobby = Lobby {
        host: HostDir::at(dir),
        now: NOW.into(),
        seats_per_address: 1,
        may_mail_code: &|_, _| Ok(true),
        tries,
    };
    lobby::run(&lobby, r).unwrap()
}

#[test]
fn a_claim_gets_a_code_the_code_seats_and_a_session_is_seated_at_once() {
    let dir = host("door-lobby-join");
    let ann = claimed("ann@players.test");
    let asked = run_with(&dir, None, &req(join(), Requester::Anyone(ann.clone()), 1));
    let Outcome::CodeMailed { code, again, .. } = asked else {
        panic!("a code for a claimed address: {asked:?}");
    };
    assert!(!again);
    assert_eq!(seats(&dir), 0, "nothing changes before the code comes back");
    // The code from another address does nothing.
    let other = Requester::Code {
        code: code.clone(),
        claim: claimed("mallory@else.test"),
    };
    let o = run_with(&dir, None, &req(Command::Confirm, other, 2));
    assert!(
        matches!(o, Outcome::Refused(Refusal::OtherAddress { .. })),
        "{o:?}"
    );
    // From the address it was mailed to, it seats.
    let by = Requester::Code {
        code: code.clone(),
        claim: ann.clone(),
    };
    let o = run_with(&dir, None, &req(Command::Confirm, by.clone(), 3));
    assert!(
        matches!(
            o,
            Outcome::Done {
                done: Done::Seated { seat: 1, .. },
                again: false
            }
        ),
        "{o:?}"
    );
    // The same confirmation handled again: the same outcome, no second seat.
    let o = run_with(&dir, None, &req(Command::Confirm, by, 3));
    assert!(matches!(o, Outcome::Done { again: true, .. }), "{o:?}");
    assert_eq!(seats(&dir), 1);
    // A session proved its address: seated at once, no code.
    let bob = Requester::Session {
        address: "bob@players.test".into(),
    };
    let o = run_with(&dir, None, &req(join(), bob.clone(), 4));
    assert!(
        matches!(
            o,
            Outcome::Done {
                done: Done::Seated { seat: 2, .. },
                again: false
            }
        ),
        "{o:?}"
    );
    let o = run_with(&dir, None, &req(join(), bob.clone(), 4));
    assert!(matches!(o, Outcome::Done { again: true, .. }), "{o:?}");
    assert_eq!(seats(&dir), 2, "the same request again seats nobody twice");
    // A confirmation needs a code: a session's `confirm` is no code.
    let o = run_with(&dir, None, &req(Command::Confirm, bob, 5));
    assert!(matches!(o, Outcome::Refused(Refusal::UnknownCode)), "{o:?}");
    // No address, no request.
    let o = run_with(
        &dir,
        None,
        &req(Command::Tables, Requester::Anyone(claimed("")), 6),
    );
    assert!(matches!(o, Outcome::Refused(Refusal::NoSender)), "{o:?}");
}

/// The addresses of the requests waiting for their codes.
fn waiting(dir: &Path) -> String {
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("lobby/confirm/requests.json")).unwrap())
            .unwrap();
    v["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["state"]["state"] == "waiting")
        .map(|r| r["address"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_session_leaves_and_goes_on_standby_without_a_code() {
    let dir = host("door-lobby-session");
    let cy = Requester::Session {
        address: "cy@players.test".into(),
    };
    // A join of the same address waiting for its code: withdrawn once
    // the session has all the seats it may hold.
    let asked = run_with(
        &dir,
        None,
        &req(join(), Requester::Anyone(claimed("cy@players.test")), 1),
    );
    assert!(matches!(asked, Outcome::CodeMailed { .. }), "{asked:?}");
    assert!(waiting(&dir).contains("cy@players.test"));
    let o = run_with(&dir, None, &req(join(), cy.clone(), 2));
    assert!(matches!(o, Outcome::Done { .. }), "{o:?}");
    assert!(
        !waiting(&dir).contains("cy@players.test"),
        "{}",
        waiting(&dir)
    );
    let o = run_with(
        &dir,
        None,
        &req(Command::Leave { table: "t1".into() }, cy.clone(), 3),
    );
    assert!(
        matches!(
            o,
            Outcome::Done {
                done: Done::Left { seats: 1, .. },
                ..
            }
        ),
        "{o:?}"
    );
    assert_eq!(seats(&dir), 0);
    let o = run_with(
        &dir,
        None,
        &req(Command::Standby { on: true }, cy.clone(), 4),
    );
    assert!(
        matches!(
            o,
            Outcome::Done {
                done: Done::Standby { on: true },
                ..
            }
        ),
        "{o:?}"
    );
    let list = std::fs::read_to_string(dir.join("lobby/standby/list.json")).unwrap();
    assert!(list.contains("cy@players.test"), "{list}");
    let o = run_with(&dir, None, &req(Command::Standby { on: true }, cy, 5));
    assert!(matches!(o, Outcome::Already(_)), "{o:?}");
}

#[test]
fn codes_tried_past_the_budget_are_not_looked_up() {
    let dir = host("door-lobby-tries");
    let ann = claimed("ann@players.test");
    let Outcome::CodeMailed { code, .. } =
        run_with(&dir, None, &req(join(), Requester::Anyone(ann.clone()), 1))
    else {
        panic!("a code");
    };
    let tries = Tries::new(2, T, TryCounts::default());
    let guess = |c: &str, claim: &Claim, n: u32| {
        let by = Requester::Code {
            code: c.into(),
            claim: claim.clone(),
        };
        run_with(&dir, Some(&tries), &req(Command::Confirm, by, n))
    };
    // A guesser forging ann's address spends ann's claimed budget.
    for n in 2..4 {
        let o = guess("0000-1111-2222", &ann, n);
        assert!(matches!(o, Outcome::Refused(Refusal::UnknownCode)), "{o:?}");
    }
    let o = guess(&code, &ann, 4);
    assert!(matches!(o, Outcome::Refused(Refusal::Throttled)), "{o:?}");
    assert!(
        o.refused() && !o.proven(),
        "a refusal no code earned: within the hourly limit and the bound"
    );
    assert_eq!(seats(&dir), 0, "a code past the budget is not looked up");
    // Another address's budget is its own.
    let o = guess("0000-1111-2222", &claimed("bob@players.test"), 5);
    assert!(matches!(o, Outcome::Refused(Refusal::UnknownCode)), "{o:?}");
    // Ann's own mail, vouched for by the host's server, spends nothing.
    let vouched = Claim {
        address: "ann@players.test".into(),
        vouched: true,
    };
    let o = guess(&code, &vouched, 6);
    assert!(matches!(o, Outcome::Done { .. }), "{o:?}");
    assert_eq!(seats(&dir), 1);
    // What is kept names no address; an hour on, the budget is back.
    let counts = tries.counts();
    let json = serde_json::to_string(&counts).unwrap();
    assert!(!json.contains("players.test"), "{json}");
    assert_eq!(counts.tries.values().map(Vec::len).sum::<usize>(), 3);
    let later = Tries::new(2, T + 3600, counts);
    assert!(later.spend("ann@players.test") && later.spend("ann@players.test"));
    assert!(
        !later.spend("ANN@players.test"),
        "case aside, the same address"
    );
}

/// A game `id` in `host` with these players and addresses.
fn game(host: &Path, id: &str, players: &[(&str, &str)]) {
    pipeline::create(NewGame {
        game: "hexwar".into(),
        rules: None,
        players: players.iter().map(|(p, _)| p.to_string()).collect(),
        seed: Some(format!("seed-{id}")),
        options: Vec::new(),
        setup: None,
        id: Some(id.into()),
        out: host.join(id),
        key: None,
        now: chrono::DateTime::parse_from_rfc3339("2026-03-01T00:00:00Z").unwrap(),
        secrets_from_seed: false,
        light_passwords: true,
        mail: MailSettings {
            moderator: Some(format!("herald+{id}@host.test")),
            emails: players.iter().map(|(p, a)| format!("{p}={a}")).collect(),
            ..MailSettings::default()
        },
    })
    .unwrap();
}

#[test]
fn a_proven_address_holds_its_seats_across_the_hosts_games() {
    let dir = scratch("door-seats-held");
    game(
        &dir,
        "g1",
        &[("red", "ann@players.test"), ("blue", "bob@players.test")],
    );
    game(
        &dir,
        "g2",
        &[("white", "cy@players.test"), ("black", "Ann@Players.test")],
    );
    // The addresses live beside the passwords, not in the game file.
    let file = std::fs::read_to_string(dir.join("g1/game.jsonl")).unwrap();
    assert!(!file.contains("ann@players.test"), "{file}");
    let host = HostDir::at(&dir);
    let held = |g: &str, p: &str| Held {
        game: herald::names::Name::new("game", g).unwrap(),
        player: p.into(),
    };
    assert_eq!(
        held_by(&host, "ann@players.test"),
        vec![held("g1", "red"), held("g2", "black")]
    );
    assert_eq!(
        held_by(&host, " ANN@players.test "),
        held_by(&host, "ann@players.test")
    );
    assert_eq!(held_by(&host, "bob@players.test"), vec![held("g1", "blue")]);
    assert!(
        held_by(&host, "ann+x@players.test").is_empty(),
        "exactly the address proven"
    );
    assert!(held_by(&host, "").is_empty());
    assert_eq!(seats_in(&dir.join("g2"), "cy@players.test"), vec!["white"]);
    // A game whose secrets file is gone holds no seat for anyone.
    std::fs::remove_file(dir.join("g2/secrets.toml")).unwrap();
    assert_eq!(held_by(&host, "ann@players.test"), vec![held("g1", "red")]);
}
