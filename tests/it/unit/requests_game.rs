//! `requests::game` and `requests::vacation`: a player's requests of a
//! game besides orders, through the door with no mail: each command's
//! typed outcome, the seat shown by a password or a session, the budget
//! of password checks, and vacations written to the game's log.

use crate::common::scratch;
use herald::pipeline::{self, MailSettings, NewGame, Writing};
use herald::requests::bound::Bound;
use herald::requests::game::{self, Command, Done, Outcome, Refusal, Request};
use herald::requests::guard::{Budget, Counts};
use herald::requests::vacation::{self, VacationMode};
use herald::requests::{Answer, Carrier, Claim, Door, Requester};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

const NOW: &str = "2026-03-01T12:00:00Z";
const T: i64 = 1_772_366_400;

/// A two-player game with a deadline a day on, red and blue with
/// addresses, and their passwords.
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
            deadline: Some("2026-03-02T00:00:00Z".into()),
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

struct Fixture {
    dir: PathBuf,
    w: Writing,
    pw: BTreeMap<String, String>,
    counts: Counts,
    refusals: BTreeMap<String, i64>,
}

fn fixture(tag: &str) -> Fixture {
    let (dir, g, pw) = game(tag);
    let w = pipeline::open_to_write(&g, Duration::from_secs(5), NOW).unwrap();
    Fixture {
        dir,
        w,
        pw,
        counts: Counts::default(),
        refusals: BTreeMap::new(),
    }
}

impl Fixture {
    /// Run each of `reqs` through one door (budget `per_hour`) at `now`.
    fn run(&mut self, per_hour: u32, now: &str, reqs: &[(Command, Requester)]) -> Vec<Outcome> {
        let budget = Budget::new(
            per_hour,
            T,
            &self.w.game.head().players,
            &mut self.counts,
            &mut self.refusals,
        );
        let bound = Bound::open(&self.dir.join("state/reply-bound"), 50, T);
        let door = Door {
            budget: &budget,
            bound: &bound,
        };
        let out = reqs
            .iter()
            .enumerate()
            .map(|(i, (command, by))| {
                let req = Request {
                    command: command.clone(),
                    by: by.clone(),
                    carrier: Carrier {
                        id: format!("req-{i}"),
                        digest: format!("{i:064x}-{now}"),
                    },
                };
                game::run(&mut self.w, &door, &req, now).unwrap()
            })
            .collect();
        (self.counts, self.refusals) = budget.into_counts();
        out
    }

    fn red(&self) -> Requester {
        Requester::Password {
            player: "red".into(),
            password: self.pw["red"].clone(),
            claim: Claim::claimed("red@players.test"),
        }
    }
}

#[test]
fn help_and_status_need_no_seat_and_a_seats_commands_need_one() {
    let mut f = fixture("door-game-open");
    let anyone = Requester::Anyone(Claim::claimed("stranger@else.test"));
    let out = f.run(
        5,
        NOW,
        &[
            (Command::Help, anyone.clone()),
            (Command::Status, anyone.clone()),
            (Command::Form, anyone),
        ],
    );
    assert!(matches!(out[0].result, Ok(Done::Help { .. })));
    assert!(matches!(&out[1].result, Ok(Done::Status(t)) if t.contains("g1")));
    assert!(matches!(&out[2].result, Err(Refusal::NoSeat { players }) if players.len() == 2));
    assert_eq!(out[0].player, None);
}

#[test]
fn form_report_and_withdraw_act_for_the_seat_whose_password_is_right() {
    let mut f = fixture("door-game-seat");
    let red = f.red();
    let wrong = Requester::Password {
        player: "red".into(),
        password: "nope".into(),
        claim: Claim::claimed("red@players.test"),
    };
    let nobody = Requester::Password {
        player: "green".into(),
        password: "x".into(),
        claim: Claim::claimed("red@players.test"),
    };
    let out = f.run(
        5,
        NOW,
        &[
            (Command::Form, red.clone()),
            (Command::Report, red.clone()),
            (Command::Withdraw, red.clone()),
            (Command::Form, wrong),
            (Command::Form, nobody),
        ],
    );
    let turn = f.w.game.head().turn;
    assert!(
        matches!(&out[0].result, Ok(Done::Form { player, turn: t, form }) if player == "red" && *t == turn && form.contains("password")),
        "{:?}",
        out[0].result
    );
    assert!(matches!(&out[1].result, Ok(Done::Report { player, .. }) if player == "red"));
    assert_eq!(
        out[2].result,
        Err(Refusal::NoneStored {
            player: "red".into(),
            turn
        })
    );
    assert_eq!(
        out[3].result,
        Err(Refusal::WrongPassword {
            player: "red".into()
        })
    );
    assert!(matches!(&out[4].result, Err(Refusal::NotAPlayer { named, .. }) if named == "green"));
    // Red's own address, not vouched for: each check counts on that budget.
    assert_eq!(f.counts.own_checks["red"].len(), 4);
    assert!(out.iter().all(|o| o.answer == Answer::Tell));
    // Past the deadline, withdrawing is refused with the deadline.
    let out = f.run(50, "2026-03-02T00:00:01Z", &[(Command::Withdraw, f.red())]);
    let Err(Refusal::DeadlinePassed { turn: t, deadline }) = &out[0].result else {
        panic!("{:?}", out[0].result)
    };
    assert_eq!(*t, turn);
    assert_eq!(
        herald::time::parse_time(deadline).unwrap(),
        herald::time::parse_time("2026-03-02T00:00:00Z").unwrap()
    );
}

#[test]
fn past_the_budget_a_seats_command_is_not_checked() {
    let mut f = fixture("door-game-budget");
    let guess = |pw: &str| Requester::Password {
        player: "blue".into(),
        password: pw.into(),
        claim: Claim::claimed("guesser@else.test"),
    };
    let out = f.run(
        2,
        NOW,
        &[
            (Command::Report, guess("a")),
            (Command::Report, guess("b")),
            (Command::Report, guess("c")),
        ],
    );
    assert!(matches!(out[1].result, Err(Refusal::WrongPassword { .. })));
    assert_eq!(
        out[2].result,
        Err(Refusal::Throttled {
            player: "blue".into()
        })
    );
    assert_eq!(f.counts.checks["blue"].len(), 2, "the third is not hashed");
}

#[test]
fn a_session_acts_for_the_seat_its_address_holds() {
    let mut f = fixture("door-game-session");
    let red = Requester::Session {
        address: "red@players.test".into(),
    };
    let stranger = Requester::Session {
        address: "who@else.test".into(),
    };
    let out = f.run(5, NOW, &[(Command::Form, red), (Command::Form, stranger)]);
    assert!(matches!(&out[0].result, Ok(Done::Form { player, .. }) if player == "red"));
    assert_eq!(out[0].player.as_deref(), Some("red"));
    assert!(matches!(out[1].result, Err(Refusal::NoSeat { .. })));
    assert!(f.counts.checks.is_empty() && f.counts.own_checks.is_empty());
}

#[test]
fn a_vacation_is_granted_within_the_allowance_and_back_gives_days_back() {
    let mut f = fixture("door-game-vacation");
    let go = |until: &str| Command::Vacation {
        until: until.into(),
        allowance: 5,
        mode: VacationMode::StandIn,
    };
    let out = f.run(
        20,
        NOW,
        &[
            (go("2026-03-20"), f.red()),
            (go("yesterday"), f.red()),
            (go("2026-02-01"), f.red()),
            (go("2026-03-04"), f.red()),
            (go("2026-03-05"), f.red()),
        ],
    );
    assert!(matches!(
        &out[0].result,
        Err(Refusal::Vacation(vacation::Refusal::TooLong { asked, left, allowance: 5, latest }))
            if *asked == days(19) && *left == days(5) && latest == "2026-03-06"
    ));
    assert_eq!(
        out[1].result,
        Err(Refusal::Vacation(vacation::Refusal::NotADate(
            "yesterday".into()
        )))
    );
    assert!(matches!(
        out[2].result,
        Err(Refusal::Vacation(vacation::Refusal::NotFuture(_)))
    ));
    let Ok(Done::Vacation(g)) = &out[3].result else {
        panic!("{:?}", out[3].result)
    };
    assert_eq!(
        (g.charged, g.left, g.mode),
        (days(3), days(2), VacationMode::StandIn)
    );
    assert!(matches!(
        &out[4].result,
        Err(Refusal::Vacation(vacation::Refusal::AwayAlready(u))) if u == &g.until
    ));
    let t = chrono::DateTime::parse_from_rfc3339(NOW).unwrap();
    assert_eq!(
        vacation::away_until(&f.w.game, "red", &t).as_deref(),
        Some(g.until.as_str())
    );
    // Back a day later: the two whole days not used are given back.
    let out = f.run(
        20,
        "2026-03-02T12:00:00Z",
        &[(Command::Back, f.red()), (Command::Back, f.red())],
    );
    let Ok(Done::Back(r)) = &out[0].result else {
        panic!("{:?}", out[0].result)
    };
    assert_eq!((r.player.as_str(), r.given), ("red", days(1)));
    assert_eq!(
        out[1].result,
        Err(Refusal::Vacation(vacation::Refusal::NotAway))
    );
    assert_eq!(vacation::used(&f.w.game, "red"), 2 * 1440);
}

fn days(n: u32) -> vacation::Length {
    vacation::Length {
        n,
        unit: vacation::Unit::Day,
    }
}

fn minutes(n: u32) -> vacation::Length {
    vacation::Length {
        n,
        unit: vacation::Unit::Minute,
    }
}

/// The game's log's last entry's body.
fn last_body(f: &Fixture) -> serde_json::Value {
    let e = f.w.game.record.entries.last().unwrap();
    serde_json::from_str(&e.body).unwrap()
}

/// A one-minute vacation is charged a minute, not a day (issue 54): an
/// RFC 3339 time asks minutes, `for N UNIT` its unit, a date days; the
/// entry (format 7) records the length in that unit, what is left is told
/// in it, and `back` gives back in it.
#[test]
fn a_vacation_is_charged_in_the_unit_asked() {
    let mut f = fixture("door-game-vacation-unit");
    let go = |until: &str| Command::Vacation {
        until: until.into(),
        allowance: 2,
        mode: VacationMode::Extend,
    };
    let out = f.run(20, NOW, &[(go("2026-03-01T12:01:00Z"), f.red())]);
    let Ok(Done::Vacation(g)) = &out[0].result else {
        panic!("{:?}", out[0].result)
    };
    assert_eq!((g.charged, g.left), (minutes(1), minutes(2 * 1440 - 1)));
    let b = last_body(&f);
    assert_eq!(
        (&b["length"], &b["unit"], b.get("days")),
        (&serde_json::json!(1), &serde_json::json!("minute"), None)
    );
    assert_eq!(vacation::used(&f.w.game, "red"), 1);
    // Back 30 s later: no whole minute unused, none given back.
    let out = f.run(20, "2026-03-01T12:00:30Z", &[(Command::Back, f.red())]);
    let Ok(Done::Back(r)) = &out[0].result else {
        panic!("{:?}", out[0].result)
    };
    assert_eq!(r.given, minutes(0));
    // Three hours, by length: charged 3 hours; back after one, two given
    // back.
    let out = f.run(20, "2026-03-01T13:00:00Z", &[(go("for 3 hours"), f.red())]);
    let Ok(Done::Vacation(g)) = &out[0].result else {
        panic!("{:?}", out[0].result)
    };
    let hours = |n| vacation::Length {
        n,
        unit: vacation::Unit::Hour,
    };
    assert_eq!(g.until, "2026-03-01T16:00:00+00:00");
    // 2 days less a minute less 3 hours: 44 whole hours and 59 minutes.
    assert_eq!((g.charged, g.left), (hours(3), hours(44)));
    let out = f.run(20, "2026-03-01T14:00:00Z", &[(Command::Back, f.red())]);
    let Ok(Done::Back(r)) = &out[0].result else {
        panic!("{:?}", out[0].result)
    };
    assert_eq!(r.given, hours(2));
    assert_eq!(vacation::used(&f.w.game, "red"), 1 + 60);
    // More minutes than are left: refused in minutes, the latest time
    // the allowance reaches.
    let out = f.run(
        20,
        "2026-03-01T15:00:00Z",
        &[(go("for 3000 minutes"), f.red())],
    );
    assert_eq!(
        out[0].result,
        Err(Refusal::Vacation(vacation::Refusal::TooLong {
            asked: minutes(3000),
            left: minutes(2 * 1440 - 61),
            allowance: 2,
            latest: "2026-03-03T13:59:00+00:00".into(),
        }))
    );
    // The log verifies: each entry's length is the span in its unit.
    let (_, loaded) = herald::pipeline::open(&f.w.store.dir.root().to_path_buf()).unwrap();
    let problems = herald::chain::rules::problems(&loaded.record, &loaded.genesis, None, Some(2));
    assert!(problems.is_empty(), "{problems:?}");
}

/// By mail: `vacation PLAYER PASSWORD for 90 minutes` (or `for 90m`)
/// asks a length, read by the door in its unit.
#[test]
fn a_vacation_by_mail_may_ask_a_length() {
    use herald::host::commands::{parse_line, Asked, Command as Mail};
    for (line, until) in [
        ("vacation Red pw for 90 minutes", "90 minutes"),
        ("vacation red pw for 90m", "90m"),
        ("vacation red pw until 2026-03-04", "2026-03-04"),
    ] {
        let Some(Asked::Command(Mail::Vacation {
            player, until: u, ..
        })) = parse_line(line)
        else {
            panic!("{line}: {:?}", parse_line(line))
        };
        assert_eq!((player.as_str(), u.as_str()), ("red", until), "{line}");
    }
    let now = chrono::DateTime::parse_from_rfc3339(NOW).unwrap();
    let read = |s: &str| vacation::parse_asked(s, &now).map(|(t, u)| (t.to_rfc3339(), u));
    assert_eq!(
        read("90 minutes"),
        Some(("2026-03-01T13:30:00+00:00".into(), vacation::Unit::Minute))
    );
    assert_eq!(
        read("for 2 days"),
        Some(("2026-03-03T12:00:00+00:00".into(), vacation::Unit::Day))
    );
    assert_eq!(read("6h").map(|x| x.1), Some(vacation::Unit::Hour));
    assert_eq!(read("0 days"), None);
    assert_eq!(read("99999999999 minutes"), None);
    assert_eq!(read("3 fortnights"), None);
}

/// The words: "1 minute charged", "2 days", never "1 whole days".
#[test]
fn the_vacation_words_say_the_unit_and_its_plural() {
    use herald::host::vacation::{granted_text, refusal_text, returned_text};
    let g = vacation::Granted {
        player: "red".into(),
        until: "2026-03-01T12:01:00+00:00".into(),
        charged: minutes(1),
        left: minutes(20159),
        allowance: 14,
        mode: VacationMode::Extend,
    };
    let text = granted_text(&g);
    assert!(
        text.contains("(1 minute charged); 20159 minutes left of your allowance (14 days)"),
        "{text}"
    );
    let r = vacation::Returned {
        player: "red".into(),
        given: days(1),
    };
    let text = returned_text(&r);
    assert!(text.contains("1 day given back"), "{text}");
    assert!(!text.contains("whole days"), "{text}");
    let text = refusal_text(
        &vacation::Refusal::TooLong {
            asked: days(3),
            left: days(1),
            allowance: 1,
            latest: "2026-03-02".into(),
        },
        "red",
    );
    assert!(
        text.contains("3 days asked, 1 day left of the 1 day this game allows"),
        "{text}"
    );
}

/// A game of format 5 or 6 (written before format 7) records whole
/// `days`, so there a vacation is still charged whole days, and the reply
/// says so; its entry verifies as that format's.
#[test]
fn a_game_of_an_older_format_charges_whole_days() {
    let dir = scratch("door-vacation-format5");
    let g = dir.join("stack");
    crate::store::copy_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format5/stack"),
        &g,
    );
    let now = "2026-11-28T10:00:00+00:00";
    let mut w = herald::pipeline::open_to_write(&g, Duration::from_secs(5), now).unwrap();
    assert_eq!(w.game.head().format, 5);
    let granted = vacation::request(
        &mut w,
        "black",
        "2026-11-28T10:01:00Z",
        now,
        14,
        VacationMode::Extend,
    )
    .unwrap()
    .unwrap();
    assert_eq!((granted.charged, granted.left), (days(1), days(13)));
    let e = w.game.record.entries.last().unwrap();
    let b: serde_json::Value = serde_json::from_str(&e.body).unwrap();
    assert_eq!(
        (&b["days"], b.get("length"), b.get("unit")),
        (&serde_json::json!(1), None, None)
    );
    drop(w);
    crate::format3::verify_ok(&g);
}
