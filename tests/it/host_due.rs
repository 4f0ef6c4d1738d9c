//! `herald host`'s game time (`host::due`) and status page
//! (`host::status_page`), driven through the library at chosen instants on
//! game folders made by `new` in a host folder: early resolution,
//! resolution at the deadline with stand-ins, reminders, the end, re-runs
//! and runs cut short, the idle check, the page. No mail server is needed:
//! what the host would send is in each game's `outbox/`. (The kill -9 loop
//! of the whole host is in host-mail's tests, which run the `herald host`
//! binary; here runs cut short are made by removing what a run had written
//! after its commit point, and running again.)

use crate::common::scratch;
use herald::host::config::{
    HostAddress, HostConfig, Secret, Security, ServerConfig, SourceConfig, DEFAULT_REMINDERS,
};
use herald::host::due::{self, Done};
use herald::host::log::Log;
use herald::host::state::{GameState, MailNote};
use herald::host::status_page;
use herald::names::Name;
use herald::pipeline::{self, MailSettings, NewGame};
use mail_parser::MimeHeaders;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);

struct Host {
    dir: PathBuf,
    cfg: HostConfig,
    log: Log,
}

fn host(tag: &str) -> Host {
    let dir = scratch(&format!("due-{tag}"));
    let cfg = HostConfig {
        dir: dir.clone(),
        address: HostAddress::parse("herald@host.test").unwrap(),
        source: SourceConfig::Maildir(dir.join("Maildir")),
        smtp: ServerConfig {
            server: "127.0.0.1".into(),
            port: 2525,
            security: Security::Plain,
            user: "herald@host.test".into(),
            password: Secret::new("not used"),
            ca_file: None,
            timeout: 5,
        },
        poll: 300,
        reminders: DEFAULT_REMINDERS.to_vec(),
        max_mail_bytes: 1 << 20,
        attach_png: true,
        log_file: Some(dir.join("host.log")),
        log_stderr: false,
        password_checks_per_hour: herald::host::config::DEFAULT_PASSWORD_CHECKS,
        moderator: None,
        press_per_day: herald::host::config::DEFAULT_PRESS_PER_DAY,
        press_max_bytes: herald::host::config::DEFAULT_PRESS_MAX_BYTES,
        trust: Default::default(),
        public_mode: Default::default(),
        web_url: None,
    };
    let log = Log::open(cfg.log_file.as_deref(), false).unwrap();
    Host { dir, cfg, log }
}

fn t(s: &str) -> chrono::DateTime<chrono::FixedOffset> {
    chrono::DateTime::parse_from_rfc3339(s).unwrap()
}

/// `s` moved by `secs` seconds, as RFC 3339 UTC.
fn at(s: &str, secs: i64) -> String {
    (t(s) + chrono::Duration::seconds(secs))
        .with_timezone(&chrono::Utc)
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// A two-player game `id` (red, blue, both with an address) in the host
/// folder; its folder and the passwords.
fn game(
    h: &Host,
    id: &str,
    kind: &str,
    created: &str,
    deadline: Option<&str>,
    drop_after: Option<u32>,
) -> (PathBuf, BTreeMap<String, String>) {
    let out = h.dir.join(id);
    let c = pipeline::create(NewGame {
        game: kind.into(),
        rules: None,
        players: vec!["red".into(), "blue".into()],
        seed: Some(format!("seed-{id}")),
        options: Vec::new(),
        setup: None,
        id: Some(id.into()),
        out: out.clone(),
        key: None,
        now: t(created),
        secrets_from_seed: false,
        light_passwords: true,
        mail: MailSettings {
            deadline: deadline.map(str::to_string),
            drop_after,
            moderator: Some(format!("herald+{id}@host.test")),
            emails: vec![
                "red=red@players.test".into(),
                "blue=blue@players.test".into(),
            ],
            ..MailSettings::default()
        },
    })
    .unwrap();
    (out, c.passwords.into_iter().collect())
}

/// `player`'s orders for the current turn (the stand-in bot's, which are
/// legal), mailed and read by `herald inbox` at `now`: stored sealed in
/// `orders/turn-NNNN/` as the host's mail side stores them.
fn send_orders(game: &Path, player: &str, password: &str, now: &str) {
    let (_, g) = pipeline::open(game).unwrap();
    let h = g.head();
    let seat = h.player_index(player).unwrap();
    let (_, lines) = pipeline::nmr::stand_in(&g, seat, "test orders");
    let text = herald::report::order_file(&h.id, player, h.turn, password, &lines);
    let mail = format!(
        "From: {player}@players.test\r\nTo: herald+{id}@host.test\r\nSubject: [{id}] orders\r\nDate: {date}\r\nMessage-ID: <{player}-{turn}@players.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{text}",
        id = h.id,
        turn = h.turn,
        date = t(now).to_rfc2822(),
    );
    let md = game
        .parent()
        .unwrap()
        .join(format!("mail-{}-{player}", h.id));
    let _ = std::fs::remove_dir_all(&md);
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    std::fs::write(md.join("new").join(format!("1.{player}.{}", h.turn)), mail).unwrap();
    let read = pipeline::inbox::run(game, &md, now, WAIT).unwrap();
    assert!(
        matches!(read[0].fate, pipeline::inbox::Fate::Accepted { .. }),
        "{player}'s orders were not accepted: {:?}",
        read[0].fate
    );
}

fn run(h: &Host, game: &Path, now: &str) -> Vec<Done> {
    due::run(&h.dir, game, now, &h.cfg, &h.log, WAIT).unwrap()
}

fn head(game: &Path) -> serde_json::Value {
    crate::common::head(game)
}

/// Every file of the outbox: name → bytes.
fn outbox(game: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    if let Ok(list) = std::fs::read_dir(game.join("outbox")) {
        for e in list.flatten() {
            if e.path().is_file() {
                out.insert(
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                );
            }
        }
    }
    out
}

struct Parsed {
    to: String,
    subject: String,
    text: String,
    attachments: Vec<String>,
}

fn parse(bytes: &[u8]) -> Parsed {
    let m = mail_parser::MessageParser::default().parse(bytes).unwrap();
    Parsed {
        to: m
            .to()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or("")
            .to_string(),
        subject: m.subject().unwrap_or("").to_string(),
        text: m.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
        attachments: m
            .attachments()
            .filter_map(|a| a.attachment_name().map(str::to_string))
            .collect(),
    }
}

/// The mails of the outbox whose subject contains `what`.
fn mails(game: &Path, what: &str) -> Vec<Parsed> {
    outbox(game)
        .into_values()
        .map(|b| parse(&b))
        .filter(|m| m.subject.contains(what))
        .collect()
}

fn state(h: &Host, id: &str) -> GameState {
    GameState::load(&h.dir, &Name::new("game", id).unwrap()).unwrap()
}

fn state_bytes(h: &Host, id: &str) -> Vec<u8> {
    std::fs::read(h.dir.join("state").join(format!("{id}.json"))).unwrap()
}

const T0: &str = "2026-11-24T12:00:00Z";
const DEADLINE: &str = "2026-11-27T12:00:00Z";

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn every_order_in_resolves_at_once_and_not_before_with_the_board_as_png() {
    let h = host("early");
    let (g, pw) = game(&h, "e1", "war-of-the-dukes", T0, Some(DEADLINE), None);
    let now = at(T0, 600);
    assert_eq!(run(&h, &g, &now), vec![]);
    assert_eq!(head(&g)["turn"], 0);
    send_orders(&g, "red", &pw["red"], &at(T0, 700));
    assert_eq!(
        run(&h, &g, &at(T0, 800)),
        vec![],
        "blue's orders are missing"
    );
    assert_eq!(head(&g)["turn"], 0);
    let st = state(&h, "e1");
    assert_eq!(st.summary.as_ref().unwrap().missing, vec!["blue"]);
    let before = outbox(&g);
    send_orders(&g, "blue", &pw["blue"], &at(T0, 900));
    let done = run(&h, &g, &at(T0, 1000));
    assert_eq!(
        done,
        vec![Done::Resolved {
            turn: 0,
            early: true,
            missing: vec![]
        }]
    );
    assert_eq!(head(&g)["turn"], 1);
    // The turn-1 report mails, one per player, with the board as PNG.
    let after = outbox(&g);
    let new: Vec<Parsed> = after
        .iter()
        .filter(|(k, _)| !before.contains_key(*k))
        .map(|(_, b)| parse(b))
        .collect();
    let reports: Vec<&Parsed> = new
        .iter()
        .filter(|m| m.subject.contains("turn 1 report"))
        .collect();
    assert_eq!(
        reports.len(),
        2,
        "{:?}",
        new.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    for r in reports {
        assert!(
            r.attachments.iter().any(|a| a == "board.png")
                && r.attachments.iter().any(|a| a == "report.html")
                && !r.attachments.iter().any(|a| a == "board.svg"),
            "{}: {:?}",
            r.to,
            r.attachments
        );
    }
    let png = after
        .values()
        .find(|b| parse(b).attachments.contains(&"board.png".to_string()))
        .unwrap();
    let m = mail_parser::MessageParser::default().parse(png).unwrap();
    let part = m
        .attachments()
        .find(|a| a.attachment_name() == Some("board.png"))
        .unwrap();
    assert!(part.contents().starts_with(b"\x89PNG\r\n\x1a\n"));
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert!(
        log.contains(" due resolved game=e1 turn=0 early=yes"),
        "{log}"
    );
    // `herald resolve` by hand attaches the PNG too (issue 49: every
    // report mail has its picture, whoever wrote it): the next turn's
    // mails, resolved at the deadline by the command.
    let (code, out, err) = crate::common::herald(&[
        "deadline",
        g.to_str().unwrap(),
        &at(T0, 9 * 86400),
        "--now",
        &at(T0, 8 * 86400),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) =
        crate::common::herald(&["resolve", g.to_str().unwrap(), "--now", &at(T0, 10 * 86400)]);
    assert_eq!(code, 0, "{out}{err}");
    let turn2 = mails(&g, "turn 2 report");
    assert_eq!(turn2.len(), 2);
    assert!(turn2
        .iter()
        .all(|m| m.attachments.contains(&"board.png".to_string())
            && !m.attachments.contains(&"board.svg".to_string())
            && m.attachments.contains(&"report.html".to_string())));
}

/// A host with a web address (host.toml's `web_url`): each report mail
/// carries the link to the player's game page, as its first line and on
/// its page's short page, and the packed page is still the report page
/// byte for byte; without one, no link.
#[test]
fn report_mails_carry_the_game_link_when_the_host_has_a_web_url() {
    for web in [Some("https://play.example.org"), None] {
        let mut h = host(if web.is_some() { "weblink" } else { "nolink" });
        h.cfg.web_url = web.map(str::to_string);
        h.cfg.attach_png = false;
        let (g, pw) = game(&h, "w1", "war-of-the-dukes", T0, Some(DEADLINE), None);
        send_orders(&g, "red", &pw["red"], &at(T0, 60));
        send_orders(&g, "blue", &pw["blue"], &at(T0, 70));
        assert_eq!(run(&h, &g, &at(T0, 100)).len(), 1);
        let reports: Vec<Vec<u8>> = outbox(&g)
            .into_values()
            .filter(|b| parse(b).subject.contains("turn 1 report"))
            .collect();
        assert_eq!(reports.len(), 2);
        for b in reports {
            let m = parse(&b);
            let link = "https://play.example.org/games/w1";
            let whole = mail_parser::MessageParser::default().parse(&b).unwrap();
            let page = whole
                .attachments()
                .find(|a| a.attachment_name() == Some("report.html"))
                .map(|a| String::from_utf8_lossy(a.contents()).into_owned())
                .unwrap();
            let (inner, same) = herald::report::pack::unpack(&page).unwrap();
            assert!(same, "the short page is not the one packing makes");
            assert!(!inner.contains(link), "the report page itself changed");
            if web.is_some() {
                assert!(
                    m.text
                        .replace("\r\n", "\n")
                        .starts_with(&format!("Your game on the web: {link}\n")),
                    "{}",
                    m.text
                );
                assert!(page.contains(&format!("<a href=\"{link}\">")), "{page}");
            } else {
                assert!(!m.text.contains("on the web") && !page.contains("herald-web"));
            }
        }
    }
}

#[test]
fn the_deadline_resolves_with_stand_ins_for_missing_orders() {
    let h = host("deadline");
    let (g, pw) = game(&h, "d1", "war-of-the-dukes", T0, Some(DEADLINE), None);
    send_orders(&g, "red", &pw["red"], &at(T0, 60));
    let done = run(&h, &g, &at(DEADLINE, -1));
    assert!(
        done.iter().all(|d| !matches!(d, Done::Resolved { .. })),
        "{done:?}"
    );
    assert_eq!(head(&g)["turn"], 0);
    let done = run(&h, &g, DEADLINE);
    assert_eq!(
        done,
        vec![Done::Resolved {
            turn: 0,
            early: false,
            missing: vec!["blue".into()]
        }]
    );
    let j = crate::common::game_json(&g);
    let orders = j["log"][0]["orders"].as_array().unwrap();
    let nmr: Vec<(&str, bool)> = orders
        .iter()
        .map(|o| (o["player"].as_str().unwrap(), o["nmr"].is_string()))
        .collect();
    assert!(
        nmr.contains(&("blue", true)) && nmr.contains(&("red", false)),
        "{nmr:?}"
    );
    // The same `now` again: nothing more.
    assert_eq!(run(&h, &g, DEADLINE), vec![]);
    assert_eq!(head(&g)["turn"], 1);
}

#[test]
fn a_game_without_a_deadline_waits_for_every_order() {
    let h = host("nodeadline");
    let (g, _) = game(&h, "n1", "war-of-the-dukes", T0, None, None);
    assert_eq!(run(&h, &g, &at(T0, 365 * 86400)), vec![]);
    assert_eq!(head(&g)["turn"], 0);
    assert_eq!(state(&h, "n1").wake, None);
}

fn reminders_to(g: &Path) -> Vec<String> {
    let mut v: Vec<String> = mails(g, "reminder").into_iter().map(|m| m.to).collect();
    v.sort();
    v
}

#[test]
fn reminders_go_once_at_each_offset_only_to_players_whose_orders_are_missing() {
    let h = host("remind");
    let (g, pw) = game(&h, "r1", "war-of-the-dukes", T0, Some(DEADLINE), None);
    send_orders(&g, "red", &pw["red"], &at(T0, 60));
    assert_eq!(run(&h, &g, &at(DEADLINE, -24 * 3600 - 1)), vec![]);
    assert!(reminders_to(&g).is_empty());
    let done = run(&h, &g, &at(DEADLINE, -24 * 3600));
    assert_eq!(
        done,
        vec![Done::Reminded {
            player: "blue".into(),
            turn: 0
        }]
    );
    assert_eq!(reminders_to(&g), vec!["blue@players.test"]);
    let m = &mails(&g, "reminder")[0];
    for want in [
        "r1",
        "turn 0",
        "The deadline is 2026-11-27 12:00 UTC (in 1d).",
        "(blue)",
        "herald+r1@host.test",
        "BLANK ORDER FORM",
    ] {
        assert!(
            m.text.contains(want),
            "the reminder lacks `{want}`:\n{}",
            m.text
        );
    }
    assert!(!m.text.contains(&pw["blue"]), "a password in a reminder");
    // Later, before the 2 h mark: nothing.
    assert_eq!(run(&h, &g, &at(DEADLINE, -10 * 3600)), vec![]);
    assert_eq!(run(&h, &g, &at(DEADLINE, -2 * 3600)).len(), 1);
    assert_eq!(run(&h, &g, &at(DEADLINE, -2 * 3600)), vec![]);
    assert_eq!(run(&h, &g, &at(DEADLINE, -3600)), vec![]);
    assert_eq!(
        reminders_to(&g),
        vec!["blue@players.test", "blue@players.test"]
    );
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert_eq!(
        log.matches(" due reminder game=r1 player=blue").count(),
        2,
        "{log}"
    );
    assert!(!log.contains("player=red"), "{log}");
}

#[test]
fn reminders_due_before_the_turn_began_are_not_sent_and_late_ones_go_once() {
    let h = host("remind-short");
    // A 3-hour turn: the 24 h mark is before the game began.
    let short = at(T0, 3 * 3600);
    let (g, _) = game(&h, "s1", "war-of-the-dukes", T0, Some(&short), None);
    assert_eq!(run(&h, &g, T0), vec![]);
    assert!(reminders_to(&g).is_empty());
    assert_eq!(state(&h, "s1").wake, Some(t(&short).timestamp() - 2 * 3600));
    assert_eq!(run(&h, &g, &at(&short, -2 * 3600)).len(), 2);
    assert_eq!(reminders_to(&g).len(), 2, "one each, at 2 h");
    // A host that was down through both marks sends one reminder, not two.
    let (g2, _) = game(&h, "s2", "war-of-the-dukes", T0, Some(DEADLINE), None);
    assert_eq!(run(&h, &g2, &at(DEADLINE, -3600)).len(), 2);
    assert_eq!(run(&h, &g2, &at(DEADLINE, -1800)), vec![]);
    assert_eq!(
        reminders_to(&g2),
        vec!["blue@players.test", "red@players.test"]
    );
    let st = state(&h, "s2");
    assert_eq!(st.reminders.len(), 4, "both marks recorded for each player");
}

#[test]
fn a_second_run_at_the_same_instant_changes_nothing() {
    let h = host("twice");
    let (g, pw) = game(&h, "t1", "war-of-the-dukes", T0, Some(DEADLINE), None);
    send_orders(&g, "red", &pw["red"], &at(T0, 60));
    let now = at(DEADLINE, -2 * 3600);
    assert_eq!(run(&h, &g, &now).len(), 1);
    let (ob, st) = (outbox(&g), state_bytes(&h, "t1"));
    assert_eq!(run(&h, &g, &now), vec![]);
    assert_eq!(outbox(&g), ob);
    assert_eq!(state_bytes(&h, "t1"), st);
    // The same at the deadline, after a resolve.
    assert_eq!(run(&h, &g, DEADLINE).len(), 1);
    let (ob, st, gf) = (
        outbox(&g),
        state_bytes(&h, "t1"),
        std::fs::read(g.join("game.jsonl")).unwrap(),
    );
    assert_eq!(run(&h, &g, DEADLINE), vec![]);
    assert_eq!(outbox(&g), ob);
    assert_eq!(state_bytes(&h, "t1"), st);
    assert_eq!(std::fs::read(g.join("game.jsonl")).unwrap(), gf);
}

#[test]
fn a_run_cut_short_is_completed_without_doubling() {
    let h = host("cut");
    let (g, pw) = game(&h, "c1", "war-of-the-dukes", T0, Some(DEADLINE), None);
    send_orders(&g, "red", &pw["red"], &at(T0, 60));
    // Cut after the reminder was queued, before the state recorded it:
    // the state as it was before the run.
    let now = at(DEADLINE, -2 * 3600);
    run(&h, &g, &at(T0, 120));
    let st_before = state_bytes(&h, "c1");
    assert_eq!(run(&h, &g, &now).len(), 1);
    let ob = outbox(&g);
    std::fs::write(h.dir.join("state/c1.json"), &st_before).unwrap();
    let again = run(&h, &g, &at(&now, 60));
    assert_eq!(again.len(), 1, "recorded again: {again:?}");
    assert_eq!(
        outbox(&g).keys().collect::<Vec<_>>(),
        ob.keys().collect::<Vec<_>>()
    );
    assert_eq!(reminders_to(&g).len(), 1, "not doubled");
    assert_eq!(run(&h, &g, &at(&now, 120)), vec![]);
    // Cut after the resolve's commit, before its reports, mails and the
    // host's state: the game file is committed, the rest is not there.
    send_orders(&g, "blue", &pw["blue"], &at(&now, 200));
    let st_before = state_bytes(&h, "c1");
    let before = outbox(&g);
    assert_eq!(run(&h, &g, &at(&now, 300)).len(), 1);
    let reports: Vec<String> = outbox(&g)
        .keys()
        .filter(|k| !before.contains_key(*k))
        .cloned()
        .collect();
    assert_eq!(reports.len(), 2);
    for r in &reports {
        std::fs::remove_file(g.join("outbox").join(r)).unwrap();
    }
    std::fs::remove_file(g.join("reports/turn-0001/done")).unwrap();
    std::fs::write(h.dir.join("state/c1.json"), &st_before).unwrap();
    let again = run(&h, &g, &at(&now, 300));
    assert!(
        again.iter().all(|d| !matches!(d, Done::Resolved { .. })),
        "resolved twice: {again:?}"
    );
    assert_eq!(head(&g)["turn"], 1);
    let after = outbox(&g);
    for r in &reports {
        let m = parse(&after[r]);
        assert!(
            m.attachments.contains(&"board.png".to_string()),
            "{:?}",
            m.attachments
        );
    }
    assert_eq!(after.len(), before.len() + 2);
}

/// Overwrite a file in place (same inode, same size) and give it back its
/// modification time: the idle check cannot see the change, so a run that
/// opened the file would find it damaged.
fn damage_in_place(p: &Path) {
    let meta = std::fs::metadata(p).unwrap();
    let len = meta.len() as usize;
    let mtime = meta.modified().unwrap();
    let f = std::fs::OpenOptions::new().write(true).open(p).unwrap();
    use std::io::Write;
    (&f).write_all(&vec![b'x'; len]).unwrap();
    f.set_modified(mtime).unwrap();
    f.sync_all().unwrap();
}

#[test]
fn an_idle_run_does_not_open_the_game_and_a_changed_one_does() {
    let h = host("idle");
    let (g, _) = game(&h, "i1", "war-of-the-dukes", T0, Some(DEADLINE), None);
    assert_eq!(run(&h, &g, T0), vec![]);
    let st = state_bytes(&h, "i1");
    damage_in_place(&g.join("game.jsonl"));
    // Nothing changed that the host can see, nothing is due: not opened.
    assert_eq!(run(&h, &g, &at(T0, 3600)), vec![]);
    assert_eq!(state_bytes(&h, "i1"), st);
    // At the 24 h mark something is due: the game is opened, and refused.
    let e = due::run(&h.dir, &g, &at(DEADLINE, -24 * 3600), &h.cfg, &h.log, WAIT).unwrap_err();
    assert!(e.to_string().contains("game.jsonl"), "{e}");
    let st = state(&h, "i1");
    assert!(st
        .due_problem
        .as_deref()
        .unwrap_or("")
        .contains("game.jsonl"));
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert!(log.contains(" due failure game=i1 "), "{log}");
    // Tried again only after the retry time, or when the folder changes.
    assert!(due::run(
        &h.dir,
        &g,
        &at(DEADLINE, -24 * 3600 + 60),
        &h.cfg,
        &h.log,
        WAIT
    )
    .is_ok());
    // An order stored (the folder changes) makes the next run look.
    let (g2, pw) = game(&h, "i2", "war-of-the-dukes", T0, Some(DEADLINE), None);
    assert_eq!(run(&h, &g2, T0), vec![]);
    send_orders(&g2, "red", &pw["red"], &at(T0, 60));
    damage_in_place(&g2.join("game.jsonl"));
    assert!(due::run(&h.dir, &g2, &at(T0, 120), &h.cfg, &h.log, WAIT).is_err());
}

#[test]
fn the_end_is_noted_once_and_the_final_mail_carries_the_outcome_and_the_seed() {
    let h = host("end");
    // HEXWAR, a player out after one missed turn: red misses turn 0 and
    // surrenders.
    let (g, _) = game(&h, "f1", "hexwar", T0, Some(DEADLINE), Some(1));
    let done = run(&h, &g, DEADLINE);
    assert_eq!(done.len(), 2, "{done:?}");
    assert!(
        matches!(&done[0], Done::Resolved { turn: 0, early: false, missing } if missing == &vec!["red".to_string()])
    );
    let Done::Finished { outcome } = &done[1] else {
        panic!("{done:?}")
    };
    let finals = mails(&g, "final report");
    assert_eq!(finals.len(), 2);
    for m in &finals {
        assert!(m.text.contains("GAME OVER"), "{}", m.text);
        assert!(m.text.contains(outcome.as_str()), "{}", m.text);
        assert!(
            m.text.contains("The seed is revealed: seed-f1"),
            "{}",
            m.text
        );
        assert!(m.attachments.contains(&"board.png".to_string()));
    }
    let st = state(&h, "f1");
    assert!(st.finished);
    assert_eq!(st.wake, None);
    assert_eq!(run(&h, &g, &at(DEADLINE, 86400)), vec![]);
    let n = outbox(&g).len();
    let _ = std::fs::remove_file(h.dir.join("state/f1.json"));
    // A lost state notes the end again, but sends nothing new.
    assert_eq!(run(&h, &g, &at(DEADLINE, 2 * 86400)).len(), 1);
    assert_eq!(outbox(&g).len(), n);
}

#[test]
fn a_folder_whose_game_has_another_id_gets_no_mail_and_is_a_problem() {
    let h = host("misplaced");
    let (g, _) = game(&h, "m1", "war-of-the-dukes", T0, Some(DEADLINE), None);
    let moved = h.dir.join("m2");
    std::fs::rename(&g, &moved).unwrap();
    let before = outbox(&moved);
    let e = due::run(&h.dir, &moved, &at(DEADLINE, -3600), &h.cfg, &h.log, WAIT).unwrap_err();
    assert!(e.to_string().contains("not m2"), "{e}");
    assert_eq!(outbox(&moved), before, "no reminder");
    assert!(state(&h, "m2").due_problem.is_some());
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn the_status_page_lists_every_game_escaped_and_its_json_twin_parses() {
    let h = host("page");
    let (g, pw) = game(&h, "p1", "war-of-the-dukes", T0, Some(DEADLINE), None);
    let (_g2, _) = game(&h, "p2", "war-of-the-dukes", T0, None, None);
    send_orders(&g, "red", &pw["red"], &at(T0, 60));
    run(&h, &g, &at(T0, 120));
    let p1 = Name::new("game", "p1").unwrap();
    let mut st = state(&h, "p1");
    let evil = "<script>alert('x')</script>@evil.test";
    st.last_in = Some(MailNote {
        at: at(T0, 100),
        who: evil.into(),
        message_id: "<a\"b@c>".into(),
        what: "orders accepted for red".into(),
    });
    st.problems = vec!["a <b>bold</b> problem".into()];
    st.due_problem = Some("resolve <x> refused".into());
    st.save(&h.dir, &p1).unwrap();
    // A refused mail, as the outbox records it.
    let refused = g.join("outbox/refused");
    std::fs::create_dir_all(&refused).unwrap();
    std::fs::write(
        refused.join("x.json"),
        serde_json::json!({
            "file": "x.eml",
            "message_id": "<x@y>",
            "subject": "<img src=x onerror=alert(1)>",
            "sent": [],
            "refused": [{"to": "nobody@players.test", "error": "550 <no such user>", "at": 1}],
            "attempts": 1
        })
        .to_string(),
    )
    .unwrap();
    let games = vec![
        (Name::new("game", "p2").unwrap(), state(&h, "p2")),
        (p1, state(&h, "p1")),
    ];
    status_page::write(
        &h.dir,
        "host@example.org",
        &games,
        &["IMAP <login> refused".to_string()],
        &at(T0, 130),
    )
    .unwrap();
    let html = std::fs::read_to_string(h.dir.join("index.html")).unwrap();
    for bad in ["<script", "<img", "<b>", "<login>", "<no such"] {
        assert!(
            !html.contains(bad),
            "`{bad}` unescaped in the page:\n{html}"
        );
    }
    for good in [
        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;@evil.test",
        "&lt;img src=x onerror=alert(1)&gt;",
        "IMAP &lt;login&gt; refused",
        "resolve &lt;x&gt; refused",
        "a &lt;b&gt;bold&lt;/b&gt; problem",
        "War of the Dukes",
        "missing: blue",
        "2026-11-27 12:00 UTC",
    ] {
        assert!(html.contains(good), "the page lacks `{good}`:\n{html}");
    }
    assert!(
        html.find("game-p1") < html.find("game-p2"),
        "games in id order"
    );
    let j: serde_json::Value =
        serde_json::from_slice(&std::fs::read(h.dir.join("index.json")).unwrap()).unwrap();
    let games = j["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["id"], "p1");
    assert_eq!(games[0]["last_in"]["who"], evil);
    assert_eq!(games[0]["missing"], serde_json::json!(["blue"]));
    assert_eq!(
        games[0]["problems"],
        serde_json::json!(["a <b>bold</b> problem", "resolve <x> refused"])
    );
    assert_eq!(
        games[0]["refused"][0]["refused"][0]["to"],
        "nobody@players.test"
    );
    assert_eq!(games[1]["id"], "p2");
    assert_eq!(
        games[1]["turn"],
        serde_json::Value::Null,
        "p2 was never run"
    );
    assert_eq!(j["host_problems"][0], "IMAP <login> refused");
}
