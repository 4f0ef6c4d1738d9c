//! Running games by mail (issue 7): passwords, deadlines and missed orders,
//! drop-outs, the mailbox, report mails, undo and export. Every test drives
//! the herald binary as a moderator would.

use crate::common::{herald, scratch};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const NEW: &str = "2026-11-22T12:00:00Z";

/// A game in its own folder, run through the binary.
struct Table {
    dir: PathBuf,
    game: PathBuf,
    passwords: BTreeMap<String, String>,
}

impl Table {
    fn new(tag: &str, game: &str, players: &str, extra: &[&str]) -> Table {
        let dir = scratch(tag);
        let path = dir.join("game");
        let mut args = vec![
            "new",
            game,
            "--players",
            players,
            "--seed",
            "mail-seed",
            "--out",
            path.to_str().unwrap(),
            "--now",
            NEW,
        ];
        args.extend(extra);
        let (code, out, err) = herald(&args);
        assert_eq!(code, 0, "new failed: {out}{err}");
        let secrets: toml::Table =
            toml::from_str(&std::fs::read_to_string(path.join("secrets.toml")).unwrap()).unwrap();
        let passwords = secrets["passwords"]
            .as_table()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect();
        Table {
            dir,
            game: path,
            passwords,
        }
    }

    fn g(&self) -> &str {
        self.game.to_str().unwrap()
    }

    fn json(&self) -> Value {
        crate::common::game_json(&self.game)
    }

    /// The game file's bytes.
    fn file(&self) -> Vec<u8> {
        read(&self.game.join("game.jsonl"))
    }

    fn id(&self) -> String {
        self.json()["id"].as_str().unwrap().to_string()
    }

    fn turn(&self) -> u64 {
        self.json()["turn"].as_u64().unwrap()
    }

    fn awaiting(&self) -> Vec<String> {
        self.json()["awaiting"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    }

    /// The first legal set of orders for `player` now.
    fn legal(&self, player: &str) -> Vec<String> {
        let (_, g) = herald::pipeline::open(&self.game).unwrap();
        let seat = g.head().player_index(player).unwrap();
        g.rules.legal_orders(&g.state, seat).swap_remove(0)
    }

    fn order_text(&self, player: &str, password: &str, orders: &[String]) -> String {
        herald::report::order_file(&self.id(), player, self.turn() as u32, password, orders)
    }

    /// Write `player`'s orders (their own password) to a file; its path.
    fn orders(&self, player: &str, orders: &[String]) -> String {
        let text = self.order_text(player, &self.passwords[player], orders);
        let p = self.dir.join(format!("t{}-{player}.toml", self.turn()));
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        herald(args)
    }

    fn ok(&self, args: &[&str]) -> String {
        let (code, out, err) = herald(args);
        assert_eq!(code, 0, "herald {args:?} failed:\n{out}{err}");
        out
    }

    /// `herald inbox` on a Maildir, dated `now`.
    fn inbox(&self, maildir: &Path, now: &str) -> String {
        self.ok(&["inbox", self.g(), maildir.to_str().unwrap(), "--now", now])
    }

    fn report(&self, player: &str) -> String {
        self.ok(&["report", self.g(), "--player", player])
    }

    fn verify(&self) {
        let out = self.ok(&["verify", self.g()]);
        assert!(out.contains("ok"), "{out}");
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn passwords_are_argon2_hashes_and_passwd_replaces_one() {
    let t = Table::new("passwd", "hexwar", "red,blue", &[]);
    let file = String::from_utf8(t.file()).unwrap();
    for (p, pw) in &t.passwords {
        assert!(
            !file.contains(pw.as_str()),
            "the game file holds {p}'s password"
        );
    }
    let stored = t.json()["players"][0]["password"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(stored.starts_with("$argon2id$v=19$m=19456,t=2"), "{stored}");
    let old = t.passwords["red"].clone();
    let out = t.ok(&["passwd", t.g(), "--player", "red"]);
    let secrets: toml::Table =
        toml::from_str(&std::fs::read_to_string(t.game.join("secrets.toml")).unwrap()).unwrap();
    let new = secrets["passwords"]["red"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    assert!(out.contains(&new), "{out}");
    assert_eq!(
        secrets["passwords"]["blue"].as_str().unwrap(),
        t.passwords["blue"]
    );
    let orders = t.legal("red");
    let stale = t.dir.join("old.toml");
    std::fs::write(&stale, t.order_text("red", &old, &orders)).unwrap();
    let (code, _, err) = t.run(&["check", t.g(), stale.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("wrong password for red"), "{err}");
    let fresh = t.dir.join("new.toml");
    std::fs::write(&fresh, t.order_text("red", &new, &orders)).unwrap();
    t.ok(&["check", t.g(), fresh.to_str().unwrap()]);
    t.verify();
}

#[test]
fn orders_for_the_other_sides_pieces_reveal_nothing() {
    // HEXWAR: e7 holds a black Skeleton; d4 is empty. Both answers read alike.
    let t = Table::new("foreign-hexwar", "hexwar", "red,blue", &[]);
    let mut answers = Vec::new();
    for o in ["move e7 e6", "move d4 d5", "rotate e7 N", "rotate d4 N"] {
        let f = t.orders("red", &[o.to_string()]);
        let (code, _, err) = t.run(&["check", t.g(), &f]);
        assert_eq!(code, 1, "{o} accepted");
        assert!(
            !err.contains("Skeleton"),
            "{o}: the refusal names the piece: {err}"
        );
        assert!(err.contains("you have no piece on"), "{o}: {err}");
        answers.push(
            err.replace("e7", "XX")
                .replace("d4", "XX")
                .replace("e6", "YY")
                .replace("d5", "YY"),
        );
    }
    assert_eq!(
        answers[0], answers[1],
        "an enemy piece is answered unlike an empty hex"
    );
    assert_eq!(answers[2], answers[3]);
    // Stack Wars: White's armies on 0,4 and an empty 4,4 answered alike.
    let s = Table::new("foreign-stack", "stack-wars", "red,blue", &[]);
    let a = s.orders("red", &["fortify 8,4".to_string()]);
    s.ok(&["resolve", s.g(), &a, "--now", NEW]);
    let b = s.orders("blue", &["fortify 0,4".to_string()]);
    s.ok(&["resolve", s.g(), &b, "--now", NEW]);
    let mut answers = Vec::new();
    for o in ["move 0,4 1,4", "move 4,4 5,4"] {
        let f = s.orders("red", &[o.to_string()]);
        let (code, _, err) = s.run(&["check", s.g(), &f]);
        assert_eq!(code, 1, "{o} accepted");
        assert!(
            !err.contains("White") && !err.contains("armies,"),
            "{o}: {err}"
        );
        answers.push(
            err.replace("0,4 1,4", "A")
                .replace("4,4 5,4", "A")
                .replace("0,4", "B")
                .replace("4,4", "B"),
        );
    }
    assert_eq!(answers[0], answers[1]);
}

#[test]
fn before_the_deadline_every_file_is_needed_after_it_the_policy_stands_in() {
    let t = Table::new(
        "deadline-hold",
        "hexwar",
        "red,blue",
        &["--deadline-every", "72h"],
    );
    assert_eq!(t.json()["deadline"], "2026-11-25T12:00:00+00:00");
    let st = t.ok(&["status", t.g(), "--now", "2026-11-24T10:30:00Z"]);
    assert!(st.contains("awaiting orders from: red"), "{st}");
    assert!(st.contains("time left: 1d 1h"), "{st}");
    let before = t.file();
    let (code, _, err) = t.run(&["resolve", t.g(), "--now", "2026-11-25T11:59:59Z"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("still needs orders from red") && err.contains("2026-11-25T12:00:00"),
        "{err}"
    );
    assert_eq!(t.file(), before, "a refused resolve changed the game file");
    // At the deadline: HEXWAR's default policy is hold, a pass.
    let out = t.ok(&["resolve", t.g(), "--now", "2026-11-25T12:00:00Z"]);
    assert!(
        out.contains("no orders from red by the deadline: herald stood in (hold)"),
        "{out}"
    );
    let j = t.json();
    let rec = &j["log"][0]["orders"][0];
    assert_eq!(rec["player"], "red");
    assert_eq!(rec["nmr"], "hold");
    assert!(rec["text"].as_str().unwrap().contains("\"pass\""), "{rec}");
    assert_eq!(j["log"][0]["deadline"], "2026-11-25T12:00:00+00:00");
    assert_eq!(
        j["deadline"], "2026-11-28T12:00:00+00:00",
        "the next deadline runs from the resolve"
    );
    for p in ["red", "blue"] {
        let r = t.report(p);
        assert!(
            r.contains("No orders from red for turn 0 by the deadline"),
            "{r}"
        );
        assert!(r.contains("Missed orders: red 1, blue 0"), "{r}");
    }
    t.verify();
}

#[test]
fn the_bot_policy_plays_a_legal_move_from_the_seed() {
    let play = |tag: &str| {
        let t = Table::new(
            tag,
            "stack-wars",
            "red,blue",
            &["--deadline", "2026-11-23T00:00:00Z"],
        );
        let out = t.ok(&["resolve", t.g(), "--now", "2026-11-23T00:00:00Z"]);
        assert!(out.contains("herald stood in (bot)"), "{out}");
        t.verify();
        let j = t.json();
        let text = j["log"][0]["orders"][0]["text"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(j["log"][0]["orders"][0]["nmr"], "bot");
        assert_eq!(j["log"][0]["events"].as_array().unwrap().len(), 1, "{j}");
        (text, j["state"].clone())
    };
    let (a, sa) = play("bot-a");
    let (b, sb) = play("bot-b");
    assert_eq!(a, b, "the bot's choice depends only on the seed");
    assert_eq!(sa, sb);
    // A policy the game does not offer is refused by name.
    let dir = scratch("bot-bad");
    let p = dir.join("g");
    let (code, _, err) = herald(&[
        "new",
        "stack-wars",
        "--players",
        "a,b",
        "--out",
        p.to_str().unwrap(),
        "--nmr",
        "hold",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--nmr hold") && err.contains("offers bot"),
        "{err}"
    );
    assert!(!p.exists());
}

#[test]
fn a_player_who_keeps_missing_drops_out_as_the_game_says() {
    // Norse Wars, three players, drop-out after two missed phases: green's
    // pieces leave the board and the others play on.
    let t = Table::new(
        "dropout",
        "norse-wars",
        "red,blue,green",
        &["--deadline-every", "1h", "--drop-after", "2"],
    );
    let mut now = chrono::DateTime::parse_from_rfc3339(NEW).unwrap();
    let mut misses = 0;
    while misses < 2 {
        now += chrono::Duration::hours(2);
        let stamp = now.to_rfc3339();
        let who = t.awaiting();
        let mut files = Vec::new();
        for p in &who {
            if p != "green" {
                let o = t.legal(p);
                files.push(t.orders(p, &o));
            } else {
                misses += 1;
            }
        }
        let mut args = vec!["resolve", t.g()];
        args.extend(files.iter().map(String::as_str));
        args.extend(["--now", stamp.as_str()]);
        t.ok(&args);
    }
    let j = t.json();
    let last = j["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["dropped"], serde_json::json!(["green"]), "{last}");
    assert!(j["outcome"].is_null(), "two players are left to play");
    assert!(!t.awaiting().contains(&"green".to_string()));
    let seat = j["state"]["seats"][2].clone();
    assert_eq!(seat["alive"], false, "{seat}");
    for p in j["state"]["pieces"].as_array().unwrap() {
        if p["seat"] == 2 {
            assert!(p["at"].is_null(), "a piece of green's stays: {p}");
        }
    }
    let r = t.report("red");
    assert!(
        r.contains("green missed too many turns in a row and has dropped out"),
        "{r}"
    );
    assert!(r.contains("green 2 (dropped out)"), "{r}");
    t.verify();
    // In a two-player game, dropping out loses: HEXWAR counts it a surrender.
    let h = Table::new(
        "dropout-2p",
        "hexwar",
        "red,blue",
        &["--deadline-every", "1h", "--drop-after", "1"],
    );
    h.ok(&["resolve", h.g(), "--now", "2026-11-22T13:00:00Z"]);
    let j = h.json();
    assert_eq!(
        j["outcome"]["winners"],
        serde_json::json!(["blue"]),
        "{}",
        j["outcome"]
    );
    h.verify();
}

/// A Maildir message file.
fn mail(dir: &Path, name: &str, headers: &[(&str, &str)], body: &str) {
    let mut s = String::new();
    for (k, v) in headers {
        s.push_str(&format!("{k}: {v}\r\n"));
    }
    s.push_str("\r\n");
    s.push_str(&body.replace('\n', "\r\n"));
    std::fs::write(dir.join("new").join(name), s).unwrap();
}

fn parse_eml(bytes: &[u8]) -> mail_parser::Message<'_> {
    mail_parser::MessageParser::default()
        .parse(bytes)
        .expect("an .eml herald wrote parses as mail")
}

/// The mails in a game's outbox: (is a reply, parsed bytes), by file name.
fn outbox(game: &Path) -> Vec<(bool, Vec<u8>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(game.join("outbox"))
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = read(&p);
            (parse_eml(&bytes).in_reply_to().as_text().is_some(), bytes)
        })
        .collect()
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn the_inbox_takes_good_mail_refuses_bad_and_skips_what_it_read() {
    let t = Table::new(
        "inbox",
        "hexwar",
        "red,blue",
        &[
            "--deadline",
            "2026-11-25T12:00:00Z",
            "--email",
            "red=red@example.org",
            "--moderator",
            "gm@example.org",
        ],
    );
    let md = t.dir.join("Maildir");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    let pw = t.passwords["red"].clone();
    let file = |orders: &[&str]| {
        t.order_text(
            "red",
            &pw,
            &orders.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    };
    // 1: good, with a greeting above and a signature below.
    mail(
        &md,
        "1000.a",
        &[
            ("From", "Red <red@example.org>"),
            ("To", "gm@example.org"),
            ("Subject", "turn 0"),
            ("Date", "Mon, 23 Nov 2026 10:00:00 +0000"),
            ("Message-ID", "<one@example.org>"),
        ],
        &format!("Hello GM,\n\n{}\n-- \nRed\n", file(&["pass"])),
    );
    // 2: the same mail delivered twice: the same bytes.
    std::fs::copy(md.join("new/1000.a"), md.join("new/1001.b")).unwrap();
    // 3: blue, whose turn it is not, with a wrong password too.
    mail(
        &md,
        "1002.c",
        &[
            ("From", "blue@example.org"),
            ("Subject", "orders"),
            ("Date", "Mon, 23 Nov 2026 10:30:00 +0000"),
            ("Message-ID", "<two@example.org>"),
        ],
        &t.order_text("blue", "not-it", &["pass".to_string()]),
    );
    // A stranger reuses the Message-ID of red's next mail, and sends it
    // first: herald knows mails by their bytes, so red's mail still counts.
    mail(
        &md,
        "1002.x",
        &[
            ("From", "mallory@example.org"),
            ("Subject", "hello"),
            ("Date", "Mon, 23 Nov 2026 10:45:00 +0000"),
            ("Message-ID", "<three@example.org>"),
        ],
        "nothing to see\n",
    );
    // 4: HTML only, later: replaces mail 1.
    let html = file(&["move d2 d5", "rotate d5 NE"]).replace('\n', "<br>\n");
    mail(
        &md,
        "1003.d",
        &[
            ("From", "red@example.org"),
            ("Subject", "better orders"),
            ("Date", "Mon, 23 Nov 2026 11:00:00 +0000"),
            ("Message-ID", "<three@example.org>"),
            ("MIME-Version", "1.0"),
            ("Content-Type", "text/html; charset=utf-8"),
        ],
        &format!("<html><body><p>{html}</p></body></html>"),
    );
    // 6: no order file at all.
    mail(
        &md,
        "1005.f",
        &[
            ("From", "red@example.org"),
            ("Subject", "question"),
            ("Date", "Mon, 23 Nov 2026 12:00:00 +0000"),
            ("Message-ID", "<five@example.org>"),
        ],
        "When is the deadline?\n",
    );
    let out = t.inbox(&md, "2026-11-23T13:00:00Z");
    assert!(
        out.contains("6 mails: 2 accepted, 3 refused, 1 already read"),
        "{out}"
    );
    let lines: Vec<&str> = out.lines().collect();
    let said =
        |place: &str, what: &str| lines.iter().any(|l| l.contains(place) && l.contains(what));
    assert!(said("1001.b", "already read"), "{out}");
    assert!(said("1002.c", "wrong password for blue"), "{out}");
    assert!(said("1002.x", "no order form found"), "{out}");
    assert!(said("1003.d", "replacing 2026-11-23T10:00:00Z"), "{out}");
    assert!(said("1005.f", "no order form found"), "{out}");
    // The stored orders keep no password: it was checked once, on arrival.
    let stored = std::fs::read_to_string(t.game.join("orders/turn-0000/red.json")).unwrap();
    assert!(
        !stored.contains(&pw),
        "a stored order file keeps the password"
    );
    // One reply per mail read, each a mail to its sender (the outbox also
    // holds red's turn-0 report mail, queued by `new`).
    let replies: Vec<Vec<u8>> = outbox(&t.game)
        .into_iter()
        .filter(|r| r.0)
        .map(|r| r.1)
        .collect();
    assert_eq!(replies.len(), 5);
    let mut bodies = Vec::new();
    for bytes in &replies {
        let m = parse_eml(bytes);
        assert_eq!(
            m.from().unwrap().first().unwrap().address(),
            Some("gm@example.org")
        );
        bodies.push(m.body_text(0).unwrap().to_string());
    }
    assert!(
        bodies.iter().any(|b| b.contains("ACCEPTED")
            && b.contains("move d2 d5")
            && b.contains("replace")
            && b.contains("HERALD RECEIPT")),
        "{bodies:?}"
    );
    assert!(
        bodies
            .iter()
            .any(|b| b.contains("REFUSED") && b.contains("wrong password for blue")),
        "{bodies:?}"
    );
    // 5: sent earlier than 4 but read in a later run, as an attachment: valid, not used.
    mail(&md, "1004.e", &[
        ("From", "red@example.org"), ("Subject", "old"),
        ("Date", "Mon, 23 Nov 2026 09:00:00 +0000"), ("Message-ID", "<four@example.org>"),
        ("MIME-Version", "1.0"), ("Content-Type", "multipart/mixed; boundary=XX"),
    ], &format!("--XX\nContent-Type: text/plain\n\nsee attached\n--XX\nContent-Type: text/plain; name=orders.toml\nContent-Disposition: attachment; filename=orders.toml\n\n{}--XX--\n", file(&["pass"])));
    let again = t.inbox(&md, "2026-11-23T14:00:00Z");
    assert!(
        again.contains("7 mails: 0 accepted, 0 refused, 6 already read"),
        "{again}"
    );
    assert!(
        again
            .lines()
            .any(|l| l.contains("1004.e") && l.contains("older than")),
        "{again}"
    );
    let once_more = t.inbox(&md, "2026-11-23T14:00:00Z");
    assert!(
        once_more.contains("0 accepted, 0 refused, 7 already read"),
        "{once_more}"
    );
    let replies: Vec<String> = outbox(&t.game)
        .into_iter()
        .filter(|r| r.0)
        .map(|r| parse_eml(&r.1).body_text(0).unwrap().to_string())
        .collect();
    assert_eq!(
        replies.len(),
        6,
        "one reply per distinct mail; none for the duplicate"
    );
    assert!(
        replies.iter().any(|b| b.contains("NOT USED")),
        "{replies:?}"
    );
    // resolve with no files named uses the stored ones: the HTML mail's.
    let st = t.ok(&["status", t.g(), "--now", "2026-11-23T14:00:00Z"]);
    assert!(st.contains("still missing: nobody"), "{st}");
    t.ok(&["resolve", t.g(), "--now", "2026-11-23T15:00:00Z"]);
    let j = t.json();
    assert_eq!(j["log"][0]["orders"][0]["received"], "2026-11-23T11:00:00Z");
    assert!(j["log"][0]["orders"][0]["nmr"].is_null());
    assert!(
        !t.game.join("orders/turn-0000").exists(),
        "resolved orders stay in the log only"
    );
    let r = t.report("blue");
    assert!(r.contains("white Wyvern d2 → d5"), "{r}");
    assert!(!r.contains("Late orders"), "{r}");
    // The turn's report mail for red (who has an address), none for blue.
    let turn = t.game.join("reports/turn-0001");
    let reports: Vec<Vec<u8>> = outbox(&t.game)
        .into_iter()
        .filter(|r| !r.0)
        .map(|r| r.1)
        .filter(|b| {
            parse_eml(b)
                .subject()
                .unwrap_or("")
                .contains("turn 1 report")
        })
        .collect();
    assert_eq!(reports.len(), 1);
    let m = parse_eml(&reports[0]);
    assert_eq!(
        m.to().unwrap().first().unwrap().address(),
        Some("red@example.org")
    );
    assert_eq!(
        m.body_text(0).unwrap().replace("\r\n", "\n"),
        std::fs::read_to_string(turn.join("red.txt")).unwrap()
    );
    let att: Vec<_> = m.attachments().collect();
    // view.json, the board as PNG (every report mail, whoever queues it:
    // issue 49), then the HTML page with the board in it, once (no
    // board.svg beside it, issue 30)
    assert_eq!(att.len(), 3);
    assert_eq!(
        mail_parser::MimeHeaders::attachment_name(att[1]),
        Some("board.png")
    );
    assert_eq!(
        mail_parser::MimeHeaders::attachment_name(att[2]),
        Some("report.html")
    );
    // packed: unpacked by its own script, it is the report page itself
    let packed = String::from_utf8_lossy(att[2].contents()).into_owned();
    let (page, same) = ::herald::report::pack::unpack(&packed).unwrap();
    assert!(same);
    assert_eq!(
        page,
        String::from_utf8_lossy(&read(&turn.join("red.html"))).into_owned()
    );
    let svg = String::from_utf8_lossy(&read(&turn.join("red.svg"))).into_owned();
    assert_eq!(page.matches(svg.trim_end()).count(), 1);
    assert!(!packed.contains("<svg"), "the board travels packed, once");
    let view: Value = serde_json::from_slice(att[0].contents()).unwrap();
    assert_eq!(
        view,
        serde_json::from_str::<Value>(&std::fs::read_to_string(turn.join("red.json")).unwrap())
            .unwrap()
    );
    t.verify();
}

#[test]
fn a_pasted_report_mailed_back_is_an_order_file_and_late_mail_is_named() {
    let t = Table::new(
        "pasted",
        "norse-wars",
        "red,blue",
        &["--deadline", "2026-11-23T00:00:00Z"],
    );
    let md = t.dir.join("Maildir");
    for d in ["new", "cur"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    // The report, quoted as a mail client quotes a reply, the form filled in.
    let report = t.report("red");
    let order = t.legal("red").join("\", \"");
    let filled = report
        .replace(
            "password = \"\"",
            &format!("password = \"{}\"", t.passwords["red"]),
        )
        .replace("orders = [\n  \"\",\n]", &format!("orders = [\"{order}\"]"));
    assert_ne!(filled, report, "the form was not filled in");
    let quoted: String = filled.lines().map(|l| format!("> {l}\n")).collect();
    mail(
        &md,
        "1.a",
        &[
            ("From", "red@example.org"),
            ("Subject", "Re: your report"),
            ("Date", "Mon, 23 Nov 2026 06:00:00 +0000"),
            ("Message-ID", "<late@example.org>"),
        ],
        &format!("Here you go.\n\n{quoted}"),
    );
    let out = t.inbox(&md, "2026-11-23T07:00:00Z");
    assert!(out.contains("accepted, orders of red"), "{out}");
    let res = t.ok(&["resolve", t.g(), "--now", "2026-11-23T08:00:00Z"]);
    assert!(res.contains("late orders from red"), "{res}");
    for p in ["red", "blue"] {
        let r = t.report(p);
        assert!(
            r.contains("Late orders (sent after the deadline, still used): red"),
            "{r}"
        );
    }
    t.verify();
}

#[test]
fn undo_then_redo_gives_identical_files() {
    let t = Table::new("undo", "stack-wars", "red,blue", &[]);
    let (code, _, err) = t.run(&["undo", t.g()]);
    assert_eq!(code, 1);
    assert!(err.contains("nothing to undo"), "{err}");
    let mut last_orders = String::new();
    let mut before_last = Vec::new();
    for k in 0..4 {
        let p = t.awaiting()[0].clone();
        let o = t.legal(&p);
        last_orders = t.orders(&p, &o);
        before_last = t.file();
        t.ok(&[
            "resolve",
            t.g(),
            &last_orders,
            "--now",
            &format!("2026-11-2{}T10:00:00Z", 3 + k),
        ]);
    }
    let done = t.file();
    let red_report = read(&t.game.join("reports/turn-0004/red.txt"));
    let out = t.ok(&["undo", t.g(), "--now", "2026-11-28T10:00:00Z"]);
    assert!(out.contains("rolled back turn 3"), "{out}");
    assert_eq!(
        t.file(),
        before_last,
        "undo does not give the file before turn 3"
    );
    assert!(
        !t.game.join("reports/turn-0004").exists(),
        "the undone turn's reports stay out"
    );
    assert_eq!(read(&t.game.join("archive/undone-turn-0003.jsonl")), done);
    let log = std::fs::read_to_string(t.game.join("archive/undo.log")).unwrap();
    assert!(log.contains("turn 3 ("), "{log}");
    t.verify();
    t.ok(&[
        "resolve",
        t.g(),
        &last_orders,
        "--now",
        "2026-11-26T10:00:00Z",
    ]);
    assert_eq!(t.file(), done, "redo gives another file");
    assert_eq!(read(&t.game.join("reports/turn-0004/red.txt")), red_report);
    // A second undo of the same turn keeps both undone files.
    t.ok(&["undo", t.g()]);
    assert!(t.game.join("archive/undone-turn-0003-2.jsonl").exists());
}

/// A password reset after the phase survives its undo: the secrets file
/// holds only the new password, so the new one must still be accepted.
#[test]
fn undo_keeps_a_password_reset_made_after_the_phase() {
    let t = Table::new("undo-passwd", "hexwar", "red,blue", &[]);
    let p = t.awaiting()[0].clone();
    let o = t.legal(&p);
    let orders = t.orders(&p, &o);
    t.ok(&["resolve", t.g(), &orders, "--now", "2026-11-23T10:00:00Z"]);
    t.ok(&[
        "passwd",
        t.g(),
        "--player",
        "red",
        "--now",
        "2026-11-23T11:00:00Z",
    ]);
    let secrets: toml::Table =
        toml::from_str(&std::fs::read_to_string(t.game.join("secrets.toml")).unwrap()).unwrap();
    let new = secrets["passwords"]["red"].as_str().unwrap().to_string();
    t.ok(&["undo", t.g(), "--now", "2026-11-23T12:00:00Z"]);
    assert_eq!(t.turn(), 0, "the phase is undone");
    let f = t.dir.join("red-new.toml");
    std::fs::write(&f, t.order_text("red", &new, &t.legal("red"))).unwrap();
    t.ok(&["check", t.g(), f.to_str().unwrap()]);
    let stale = t.dir.join("red-old.toml");
    std::fs::write(
        &stale,
        t.order_text("red", &t.passwords["red"], &t.legal("red")),
    )
    .unwrap();
    let (code, _, err) = t.run(&["check", t.g(), stale.to_str().unwrap()]);
    assert_eq!(code, 1, "the old password is gone: {err}");
    t.verify();
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn an_export_holds_the_players_own_reports_and_orders_and_nothing_else() {
    // A fogged four-player Norse Wars game played to turn 24 through the
    // library, recording every report red was sent.
    let mut eg = crate::common::EngineGame::new(
        "norse-wars",
        &["red", "blue", "green", "gold"],
        "export-seed",
        vec!["fog=true".into()],
        "export",
    );
    let mut sent = vec![crate::common::report(&eg.loaded, 0, "text")];
    let mut rng = herald::rng::from_u64(5);
    for _ in 0..24 {
        if eg.over() {
            break;
        }
        eg.turn(|g, seat| {
            let all = g.rules.legal_orders(&g.state, seat);
            herald::rng::pick(&mut rng, &all).unwrap().clone()
        });
        sent.push(crate::common::report(&eg.loaded, 0, "text"));
    }
    let game = eg.save();
    let out = eg.dir.join("red-export");
    let (code, o, e) = herald(&[
        "export",
        game.to_str().unwrap(),
        "--player",
        "red",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{o}{e}");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let reports: Vec<String> = names
        .iter()
        .filter(|n| n.starts_with("report-"))
        .map(|n| std::fs::read_to_string(out.join(n)).unwrap())
        .collect();
    // Each report as sent, its witness block below it.
    assert_eq!(reports.len(), sent.len());
    for (r, s) in reports.iter().zip(&sent) {
        assert!(
            r.starts_with(s.as_str()),
            "an exported report is not the one red was sent"
        );
        assert!(
            r[s.len()..].starts_with("----- HERALD WITNESS -----"),
            "{r}"
        );
    }
    let j = crate::common::game_json(&game);
    let own: Vec<String> = j["log"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["orders"].as_array().unwrap().clone())
        .filter(|o| o["player"] == "red")
        .map(|o| o["text"].as_str().unwrap().to_string())
        .collect();
    let orders: Vec<String> = names
        .iter()
        .filter(|n| n.starts_with("orders-"))
        .map(|n| std::fs::read_to_string(out.join(n)).unwrap())
        .collect();
    assert_eq!(orders.len(), own.len());
    for (o, text) in orders.iter().zip(&own) {
        assert!(o.starts_with(text.as_str()), "{o}");
        assert!(o.contains("----- HERALD RECEIPT -----"), "{o}");
    }
    // Nothing else: no other player's order file, no seed before the end,
    // no state, no password hash.
    let all: String = reports.iter().chain(&orders).cloned().collect();
    for p in j["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["id"] != "red")
    {
        let header = format!("player = \"{}\"", p["id"].as_str().unwrap());
        assert!(
            !all.contains(&header),
            "{}'s order file is in red's export",
            p["id"]
        );
        assert!(
            !all.contains(p["password"].as_str().unwrap()),
            "a password hash leaks"
        );
    }
    for e in j["log"].as_array().unwrap() {
        for o in e["orders"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["player"] != "red")
        {
            assert!(
                !all.contains(o["sha256"].as_str().unwrap()),
                "another player's order file hash leaks"
            );
        }
    }
    if j["outcome"].is_null() {
        assert!(!all.contains(&eg.seed), "the seed leaks before the end");
    }
    // The folder verifies on its own against the game file.
    let mut args = vec![
        "verify".to_string(),
        game.join("game.jsonl").to_str().unwrap().to_string(),
        "--seed".into(),
        eg.seed.clone(),
        "--witness".into(),
    ];
    args.extend(
        names
            .iter()
            .map(|n| out.join(n).to_str().unwrap().to_string()),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, o, e) = herald(&args);
    assert_eq!(code, 0, "{o}{e}");
    assert!(
        o.contains(&format!("the {} receipts and reports", names.len())),
        "{o}"
    );
    let _ = std::fs::remove_dir_all(&eg.dir);
}

#[test]
fn the_readme_walkthrough_runs_as_written() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/walkthrough.sh");
    let dir = scratch("walkthrough");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_herald"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("bash")
        .arg(&script)
        .current_dir(&dir)
        .env("PATH", path)
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("no orders from blue by the deadline: herald stood in (hold)"),
        "{stdout}"
    );
    assert!(stdout.contains("game over: red"), "{stdout}");
    assert!(
        stdout.lines().filter(|l| l.starts_with("ok: ")).count() >= 3,
        "verify did not pass:\n{stdout}"
    );
    assert!(stdout.contains("receipts and reports name"), "{stdout}");
    // Every mail herald queued is a mail, sent once (`herald send`, the
    // walkthrough's last step, to its stand-in sendmail); the final
    // reports reveal the seed.
    let final_red = std::fs::read_to_string(dir.join("game/reports/turn-0003/red.txt")).unwrap();
    assert!(final_red.contains("The seed is revealed: "), "{final_red}");
    assert!(
        herald::host::outbox::queued(&dir.join("game/outbox"))
            .unwrap()
            .is_empty(),
        "mail left unsent"
    );
    let mut sent: Vec<Vec<u8>> = std::fs::read_dir(dir.join("sent"))
        .unwrap()
        .map(|e| read(&e.unwrap().path()))
        .collect();
    let replies = sent
        .iter()
        .filter(|m| parse_eml(m).in_reply_to().as_text().is_some())
        .count();
    assert_eq!(replies, 2, "a reply to each of red's mails");
    assert_eq!(
        sent.len() - replies,
        8,
        "a report mail for each player each turn"
    );
    let ids = sent.len();
    sent.sort();
    sent.dedup();
    assert_eq!(sent.len(), ids, "a mail sent twice");
    assert!(stdout.contains("no mail to send"), "{stdout}");
    // The README shows the same commands.
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let script = std::fs::read_to_string(&script).unwrap();
    for line in script.lines().filter(|l| l.starts_with("herald ")) {
        assert!(readme.contains(line), "the README lacks `{line}`");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_repeat_policy_sends_last_turns_orders_where_they_still_stand() {
    // The Unfought Battle offers hold, repeat and bot. North fortifies four
    // forces on turn 1 (4 Shih of 5), then goes silent: on turn 2 the same
    // orders cost 4 with 2 Shih left, so repeat falls back to hold; south
    // repeats a fortify it can afford.
    let t = Table::new(
        "repeat",
        "unfought-battle",
        "north,south",
        &["--nmr", "repeat", "--deadline-every", "24h"],
    );
    let deploy: Vec<String> = (1..=5).map(|f| format!("f{f} power {f}")).collect();
    let a = t.orders("north", &deploy);
    let b = t.orders("south", &deploy);
    t.ok(&["resolve", t.g(), &a, &b, "--now", "2026-11-22T13:00:00Z"]);
    let four: Vec<String> = (2..=5).map(|f| format!("f{f} fortify")).collect();
    let a = t.orders("north", &four);
    let b = t.orders("south", &["f2 fortify".to_string()]);
    t.ok(&["resolve", t.g(), &a, &b, "--now", "2026-11-22T14:00:00Z"]);
    // Both silent past the deadline.
    let out = t.ok(&["resolve", t.g(), "--now", "2026-11-23T14:00:00Z"]);
    assert!(
        out.contains("no orders from north by the deadline: herald stood in (hold)"),
        "{out}"
    );
    assert!(
        out.contains("no orders from south by the deadline: herald stood in (repeat)"),
        "{out}"
    );
    let j = t.json();
    let recs = &j["log"][2]["orders"];
    assert_eq!(recs[0]["nmr"], "hold");
    assert_eq!(recs[1]["nmr"], "repeat");
    assert!(
        recs[1]["text"].as_str().unwrap().contains("\"f2 fortify\""),
        "{recs}"
    );
    assert!(
        !recs[0]["text"].as_str().unwrap().contains("fortify"),
        "{recs}"
    );
    t.verify();
    // A missed deployment cannot hold: the bot deploys.
    let d = Table::new(
        "repeat-deploy",
        "unfought-battle",
        "north,south",
        &["--nmr", "repeat", "--deadline-every", "1h"],
    );
    let b = d.orders("south", &deploy);
    let out = d.ok(&["resolve", d.g(), &b, "--now", "2026-11-22T13:00:00Z"]);
    assert!(
        out.contains("no orders from north by the deadline: herald stood in (bot)"),
        "{out}"
    );
    d.verify();
}

#[test]
fn war_of_the_dukes_holds_for_a_silent_side() {
    // Deployment missed by Wulfenburg: the bot deploys (hold cannot); then
    // Orfburg's phase missed: nothing moves.
    let t = Table::new(
        "dukes-hold",
        "war-of-the-dukes",
        "orfburg,wulfenburg",
        &["--deadline-every", "48h", "--drop-after", "2"],
    );
    let mine = t.legal("orfburg");
    let a = t.orders("orfburg", &mine);
    let out = t.ok(&["resolve", t.g(), &a, "--now", "2026-11-24T12:00:00Z"]);
    assert!(
        out.contains("no orders from wulfenburg by the deadline: herald stood in (bot)"),
        "{out}"
    );
    let before = t.json()["state"]["units"].clone();
    let out = t.ok(&["resolve", t.g(), "--now", "2026-11-26T12:00:00Z"]);
    assert!(
        out.contains("no orders from orfburg by the deadline: herald stood in (hold)"),
        "{out}"
    );
    let j = t.json();
    assert_eq!(j["state"]["units"], before, "a holding side moved");
    assert!(
        j["log"][1]["dropped"].is_null(),
        "one missed phase is not two"
    );
    t.verify();
}
