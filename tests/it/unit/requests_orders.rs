//! `requests::orders`: orders through the door, with no mail: an order
//! file from a requester (the password in the file, or a signed-in
//! session), the door's budget of password checks and its bound on
//! replies, a typed outcome, and the orders kept only when asked.

use crate::common::scratch;
use herald::pipeline::inbox::{Fate, Submission};
use herald::pipeline::{self, MailSettings, NewGame, Writing};
use herald::requests::bound::Bound;
use herald::requests::guard::{Budget, Counts};
use herald::requests::orders::{self, Orders};
use herald::requests::{Answer, Carrier, Claim, Door, Held, Requester};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

const NOW: &str = "2026-03-01T12:00:00Z";
const T: i64 = 1_772_366_400;

/// A two-player game in a host folder, red and blue with addresses, and
/// their passwords.
fn game(tag: &str) -> (PathBuf, PathBuf, BTreeMap<String, String>) {
    let dir = scratch(tag);
    let out = dir.join("g1");
    let c = pipeline::create(NewGame {
        game: "hexwar".into(),
        rules: None,
        players: vec!["red".into(), "blue".into()],
        seed: Some("seed-door".into()),
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
            ..MailSettings::default()
        },
    })
    .unwrap();
    (dir, out, c.passwords.into_iter().collect())
}

/// `player`'s legal orders for the turn with `password`, as submitted.
fn file(w: &Writing, player: &str, password: &str, n: u32) -> Submission {
    let h = w.game.head();
    let seat = h.player_index(player).unwrap();
    let (_, lines) = pipeline::nmr::stand_in(&w.game, seat, "test orders");
    Submission {
        text: herald::report::order_file(&h.id, player, h.turn, password, &lines),
        label: format!("page request {n}"),
        place: "the composer".into(),
        outside: Vec::new(),
        sent: NOW.into(),
        from: format!("{player}@players.test"),
        message_id: format!("req-{n}"),
        digest: format!("{n:064x}"),
    }
}

fn orders(sub: Submission, by: Requester) -> Orders {
    let carrier = Carrier {
        id: sub.message_id.clone(),
        digest: sub.digest.clone(),
    };
    Orders {
        file: Ok(sub),
        by,
        carrier,
    }
}

fn stored(game: &Path, player: &str) -> bool {
    game.join(format!("orders/turn-0000/{player}.json"))
        .exists()
        || std::fs::read_dir(game.join("orders"))
            .into_iter()
            .flatten()
            .flatten()
            .any(|d| {
                std::fs::read_dir(d.path())
                    .into_iter()
                    .flatten()
                    .flatten()
                    .any(|f| f.file_name().to_string_lossy().starts_with(player))
            })
}

#[test]
fn orders_with_the_right_password_are_accepted_and_kept_only_when_asked() {
    let (dir, g, pw) = game("door-orders");
    let mut w = pipeline::open_to_write(&g, Duration::from_secs(5), NOW).unwrap();
    let (mut counts, mut refusals) = (Counts::default(), BTreeMap::new());
    let budget = Budget::new(5, T, &w.game.head().players, &mut counts, &mut refusals);
    let bound = Bound::open(&dir.join("state/reply-bound"), 10, T);
    let door = Door {
        budget: &budget,
        bound: &bound,
    };
    // From another address than red's own: the password is what counts.
    let by = Requester::Anyone(Claim::claimed("someone@else.test"));
    let mut out =
        orders::submit(&w, &door, &orders(file(&w, "red", &pw["red"], 1), by), NOW).unwrap();
    assert!(
        matches!(&out.ruling.fate, Fate::Accepted { player, replaced: None } if player == "red"),
        "{:?}",
        out.ruling.fate
    );
    assert!(out.ruling.receipt.is_some() && !out.ruling.echo.is_empty());
    assert_eq!((out.turn, out.answer), (w.game.head().turn, Answer::Tell));
    assert!(!stored(&g, "red"), "nothing is stored before the answer is");
    out.keep(&mut w).unwrap();
    assert!(stored(&g, "red"));
    // The check was counted against red's budget for other addresses.
    let (counts, _) = budget.into_counts();
    assert_eq!(counts.checks["red"].len(), 1);
    assert!(counts.own_checks.is_empty());
}

#[test]
fn a_wrong_password_is_refused_counted_and_past_the_budget_not_read() {
    let (dir, g, _) = game("door-wrong");
    let w = pipeline::open_to_write(&g, Duration::from_secs(5), NOW).unwrap();
    let (mut counts, mut refusals) = (Counts::default(), BTreeMap::new());
    let budget = Budget::new(2, T, &w.game.head().players, &mut counts, &mut refusals);
    let bound = Bound::open(&dir.join("state/reply-bound"), 10, T);
    let door = Door {
        budget: &budget,
        bound: &bound,
    };
    let by = || Requester::Anyone(Claim::claimed("guesser@else.test"));
    let fates: Vec<(Fate, Answer)> = (1..=4)
        .map(|n| {
            let o = orders::submit(
                &w,
                &door,
                &orders(file(&w, "red", "wrong-pw", n), by()),
                NOW,
            )
            .unwrap();
            (o.ruling.fate, o.answer)
        })
        .collect();
    assert!(
        matches!(&fates[0].0, Fate::Refused { problems } if problems.iter().any(|p| p.contains("password")))
    );
    assert_eq!(fates[0].1, Answer::Tell, "the first refusal is told");
    assert_eq!(
        fates[1].1,
        Answer::Held(Held::Hourly),
        "one refusal an hour to an address that is no player's"
    );
    assert_eq!(
        fates[2].0,
        Fate::Throttled {
            player: "red".into()
        }
    );
    assert_eq!(
        fates[3].0,
        Fate::Throttled {
            player: "red".into()
        }
    );
    assert_eq!(budget.take_floods().len(), 1, "the moderator is told once");
}

#[test]
fn a_session_acts_for_its_own_seat_without_a_password_and_for_no_other() {
    let (dir, g, _) = game("door-session");
    let mut w = pipeline::open_to_write(&g, Duration::from_secs(5), NOW).unwrap();
    let (mut counts, mut refusals) = (Counts::default(), BTreeMap::new());
    let budget = Budget::new(5, T, &w.game.head().players, &mut counts, &mut refusals);
    let bound = Bound::open(&dir.join("state/reply-bound"), 10, T);
    let door = Door {
        budget: &budget,
        bound: &bound,
    };
    let red = Requester::Session {
        address: "Red@Players.test".into(),
    };
    // The file's password is not red's: the session is the proof.
    let mut out = orders::submit(
        &w,
        &door,
        &orders(file(&w, "red", "not-the-password", 1), red.clone()),
        NOW,
    )
    .unwrap();
    assert!(matches!(&out.ruling.fate, Fate::Accepted { player, .. } if player == "red"));
    out.keep(&mut w).unwrap();
    // Red's session cannot send blue's orders.
    let mut out = orders::submit(&w, &door, &orders(file(&w, "blue", "x", 2), red), NOW).unwrap();
    assert!(
        matches!(out.ruling.fate, Fate::Refused { .. }),
        "{:?}",
        out.ruling.fate
    );
    assert!(out.take_keep().is_none());
    // No password was hashed or counted for a session.
    let (counts, _) = budget.into_counts();
    assert!(counts.checks.is_empty() && counts.own_checks.is_empty());
}

#[test]
fn a_carrier_without_an_order_file_is_refused_as_it_says() {
    let (dir, g, _) = game("door-none");
    let w = pipeline::open_to_write(&g, Duration::from_secs(5), NOW).unwrap();
    let (mut counts, mut refusals) = (Counts::default(), BTreeMap::new());
    let budget = Budget::new(5, T, &w.game.head().players, &mut counts, &mut refusals);
    let bound = Bound::open(&dir.join("state/reply-bound"), 10, T);
    let door = Door {
        budget: &budget,
        bound: &bound,
    };
    let req = Orders {
        file: Err(vec!["mail from red@players.test: no order form".into()]),
        by: Requester::Anyone(Claim::claimed("red@players.test")),
        carrier: Carrier {
            id: "m1".into(),
            digest: "d1".into(),
        },
    };
    let out = orders::submit(&w, &door, &req, NOW).unwrap();
    assert_eq!(
        out.ruling.fate,
        Fate::Refused {
            problems: vec!["mail from red@players.test: no order form".into()]
        }
    );
    // Told: a player's own address, within the bound (which counted it).
    assert_eq!(out.answer, Answer::Tell);
    assert_eq!(bound.held().len(), 0);
}
