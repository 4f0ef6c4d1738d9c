//! The lobby (issue 32, docs/host.md "The lobby"): tables opened by the
//! moderator, joined by mail with a confirmation round trip through the
//! real Postfix and Dovecot, started as `herald new` starts a game; a
//! forged join, the race for the last seat, kill -9 during a start.

use crate::common::herald;
use crate::host_mail::{at, bot_files, mail, send, text, Host};
use crate::host_safety::{delivered, maildir_host, put, settled, spawn_host};
use crate::mailservers::{servers, Account, MailServers};
use herald::host::lobby::{commands, start};
use std::path::Path;
use std::time::Duration;

fn d(p: &Path) -> String {
    p.display().to_string()
}

pub(crate) fn open(dir: &Path, table: &str, extra: &[&str]) -> String {
    let dd = d(dir);
    let mut args = vec!["host", "open", &dd, table];
    args.extend_from_slice(extra);
    args.extend(["--now", "2026-11-24T09:00:00Z"]);
    let (code, o, e) = herald(&args);
    assert_eq!(code, 0, "{o}{e}");
    o
}

/// The joins of table `table` waiting for their codes (the lobby's store
/// of requests).
pub(crate) fn waiting_joins(dir: &Path, table: &str) -> usize {
    let Ok(b) = std::fs::read(dir.join("lobby/confirm/requests.json")) else {
        return 0;
    };
    let v: serde_json::Value = serde_json::from_slice(&b).unwrap();
    v["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["state"]["state"] == "waiting"
                && r["action"]["do"] == "join"
                && r["action"]["table"] == table
        })
        .count()
}

pub(crate) fn table_json(dir: &Path, table: &str) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("lobby").join(format!("{table}.json"))).unwrap())
        .unwrap()
}

/// Mail from account `from` to `to` through the real Postfix: the Subject
/// `subject`, the Message-ID `mid`, sent `minute` minutes into the test's
/// hour, the text `body`.
pub(crate) fn send_from(
    s: &MailServers,
    from: &Account,
    to: &str,
    subject: &str,
    mid: &str,
    minute: i64,
    body: &str,
) {
    send(
        s,
        &from.address,
        to,
        &mail(&from.address, to, subject, mid, minute, body),
    );
}

/// The code in a lobby mail: the word after `confirm `.
pub(crate) fn code_in(m: &str) -> Option<String> {
    m.lines()
        .find_map(|l| l.trim().strip_prefix("confirm "))
        .map(|c| c.trim().to_string())
        .filter(|c| c.len() == 14)
}

/// The newest mail in `of`'s box holding `what`, as text.
fn last_with(s: &MailServers, of: &Account, what: &str) -> Option<String> {
    s.mails(of)
        .iter()
        .map(|m| text(m))
        .filter(|t| t.contains(what))
        .last()
}

pub(crate) fn wait_for_text(s: &MailServers, of: &Account, what: &str) -> String {
    for _ in 0..200 {
        if let Some(t) = last_with(s, of, what) {
            return t;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("no mail with {what:?} for {}", of.address);
}

#[test]
fn lobby_lines_parse_as_players_write_them() {
    use commands::{parse_line, Command};
    assert_eq!(
        parse_line("Join T4 Ann Smith public"),
        Some(Command::Join {
            table: "t4".into(),
            name: Some("Ann Smith".into()),
            public: true,
            prefer: None
        })
    );
    assert_eq!(
        parse_line("join t4"),
        Some(Command::Join {
            table: "t4".into(),
            name: None,
            public: false,
            prefer: None
        })
    );
    assert_eq!(
        parse_line("confirm ab12-cd34-ef56"),
        Some(Command::Confirm("ab12-cd34-ef56".into()))
    );
    assert!(matches!(parse_line("join"), Some(Command::Bad(_))));
    assert!(matches!(parse_line("leave"), Some(Command::Bad(_))));
    assert_eq!(parse_line("orders follow"), None);
    assert_eq!(
        herald::host::lobby::normal_code(" AB12CD34EF56"),
        Some("ab12-cd34-ef56".into())
    );
    assert_eq!(herald::host::lobby::normal_code("ab12-cd34"), None);
}

#[test]
fn seat_order_is_drawn_from_the_seed_and_ids_from_names() {
    let ids: Vec<String> = ["dora", "ann", "bob", "carl"].map(String::from).to_vec();
    let a = start::seat_order(&ids, "seed-1", "t");
    assert_eq!(a, start::seat_order(&ids, "seed-1", "t"), "deterministic");
    let mut sorted = a.clone();
    sorted.sort();
    assert_eq!(sorted, ["ann", "bob", "carl", "dora"]);
    // Over many seeds every id takes the first seat.
    let firsts: std::collections::BTreeSet<String> = (0..64)
        .map(|i| start::seat_order(&ids, &format!("s{i}"), "t")[0].clone())
        .collect();
    assert_eq!(firsts.len(), 4, "{firsts:?}");
}

/// `herald host open` refuses what `herald new` would, with what to give.
#[test]
fn opening_a_table_refuses_bad_input_and_writes_nothing() {
    let dir = crate::common::scratch("lobby-open");
    let dd = d(&dir);
    for (args, want) in [
        (vec!["--ruleset", "chess"], "possible values"),
        (vec!["--ruleset", "hexwar", "--seats", "3"], "--seats 3"),
        (vec!["--ruleset", "norse-wars", "--seats", "5-4"], "MIN-MAX"),
        (
            vec!["--ruleset", "norse-wars", "--option", "fog=maybe"],
            "fog",
        ),
        (
            vec!["--ruleset", "norse-wars", "--starts-when", "soon"],
            "--starts-when soon",
        ),
        (
            vec!["--ruleset", "norse-wars", "--deadline-every", "often"],
            "--deadline-every often",
        ),
    ] {
        let mut a = vec!["host", "open", &dd, "t1"];
        a.extend(args);
        let (code, o, e) = herald(&a);
        assert_eq!(code, 2, "{a:?}: {o}{e}");
        assert!(e.contains(want), "{a:?}: {e}");
    }
    assert!(!dir.join("lobby").exists(), "a refused open wrote");
    let (code, _, e) = herald(&["host", "open", &dd, "Bad Name", "--ruleset", "hexwar"]);
    assert_eq!(code, 2, "{e}");
    open(&dir, "t1", &["--ruleset", "hexwar"]);
    let (code, _, e) = herald(&["host", "open", &dd, "t1", "--ruleset", "hexwar"]);
    assert_eq!(code, 1, "{e}");
    assert!(e.contains("exists already"), "{e}");
    let st = herald(&["host", "status", &dd]).1;
    assert!(st.contains("t1 (hexwar): 0 of 2 seats taken"), "{st}");
}

/// A table of 4 filled by mail through the real servers: four joins and a
/// forged one (From an address that never confirms), four confirmations,
/// the game created as `herald new` would with the seats in the order
/// drawn from its seed, each player mailed their password and turn-0
/// report, the forged address nowhere; then a turn played with the
/// mailed passwords.
#[test]
fn a_table_of_4_is_filled_by_mail_confirmed_and_started() {
    let s = servers();
    let h = Host::new(s, "");
    let players: Vec<Account> = (0..4).map(|_| s.account()).collect();
    let victim = s.account();
    let out = open(
        &h.dir,
        "t4",
        &[
            "--ruleset",
            "norse-wars",
            "--seats",
            "4",
            "--deadline-every",
            "48h",
        ],
    );
    assert!(out.contains("join t4"), "{out}");
    let names = ["Ann", "Bob Stone", "Carla", "Dev"];
    let host_addr = h.acct.address.clone();
    for (i, p) in players.iter().enumerate() {
        let body = format!(
            "join t4 {}{}",
            names[i],
            if i == 0 { " public" } else { "" }
        );
        send_from(s, p, &host_addr, "join", &format!("j{i}@p.test"), 1, &body);
    }
    // Someone signs the victim up: the code goes to the victim, who never
    // confirms.
    send_from(
        s,
        &victim,
        &host_addr,
        "join t4 Eve",
        "forged@p.test",
        1,
        "hello",
    );
    s.wait_for_mails(&h.acct, 5);
    let out = h.pass_ok(&at(2));
    assert!(out.contains("5 commands"), "{out}");
    let t = table_json(&h.dir, "t4");
    assert_eq!(waiting_joins(&h.dir, "t4"), 5);
    assert_eq!(t["seats"].as_array().unwrap().len(), 0);
    // No code is kept in clear.
    let raw = std::fs::read_to_string(h.dir.join("lobby/confirm/requests.json")).unwrap();
    let mut codes = Vec::new();
    for p in &players {
        let m = wait_for_text(s, p, "confirm ");
        let c = code_in(&m).unwrap_or_else(|| panic!("{m}"));
        assert!(!raw.contains(&c), "the code {c} is kept in clear");
        codes.push(c);
    }
    let vm = wait_for_text(s, &victim, "confirm ");
    assert!(vm.contains("If you did not ask"), "{vm}");
    assert!(vm.contains("do nothing: without the confirmation"), "{vm}");
    // One player confirms from another address with someone else's code:
    // refused, nothing written.
    send_from(
        s,
        &victim,
        &host_addr,
        "x",
        "steal@p.test",
        3,
        &format!("confirm {}", codes[0]),
    );
    for (i, p) in players.iter().enumerate() {
        send_from(
            s,
            p,
            &host_addr,
            "Re: join",
            &format!("c{i}@p.test"),
            3,
            &format!("confirm {}", codes[i]),
        );
    }
    s.wait_for_mails(&h.acct, 10);
    let out = h.pass_ok(&at(4));
    assert!(
        out.contains("t4: started as game t4 with 4 players"),
        "{out}"
    );
    let stolen = wait_for_text(s, &victim, "was mailed to another address");
    assert!(stolen.contains("Confirm from the address"), "{stolen}");
    let t = table_json(&h.dir, "t4");
    assert_eq!(t["status"], "started");
    let seated: Vec<&str> = t["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["address"].as_str().unwrap())
        .collect();
    assert_eq!(seated.len(), 4);
    assert!(!seated.contains(&victim.address.as_str()));
    // The game, as `herald new` makes one: verifies, four players with the
    // joiners' addresses, ids from their names, in the order drawn from
    // the seed.
    let folder = h.dir.join("t4");
    let (code, o, e) = herald(&["verify", &d(&folder)]);
    assert_eq!(code, 0, "{o}{e}");
    let (store, g) = herald::pipeline::open(&folder).unwrap();
    let head = g.head();
    assert_eq!(head.format, herald::chain::FORMAT);
    let ids: Vec<String> = head.players.iter().map(|p| p.id.clone()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(sorted, ["ann", "bob-stone", "carla", "dev"]);
    let seed = store.secrets().unwrap().seed;
    assert_eq!(ids, start::seat_order(&ids, &seed, "t4"));
    assert_eq!(head.deadline_every, Some(48 * 3600));
    assert_eq!(head.moderator.as_deref(), Some(h.game_addr("t4").as_str()));
    let raw_game = std::fs::read_to_string(folder.join("game.jsonl")).unwrap();
    assert!(!raw_game.contains(&victim.address));
    // Each player: the welcome mail with a password, and the turn-0 report.
    let mut passwords = Vec::new();
    for (i, p) in players.iter().enumerate() {
        let w = wait_for_text(s, p, "your seat and password");
        let pw = w
            .lines()
            .find_map(|l| l.trim().strip_prefix("Your password:"))
            .unwrap()
            .trim()
            .to_string();
        let id = w
            .lines()
            .find_map(|l| l.trim().strip_prefix("Your player id:"))
            .unwrap()
            .trim()
            .to_string();
        assert_eq!(
            head.players
                .iter()
                .find(|x| x.id == id)
                .unwrap()
                .email
                .as_deref(),
            Some(p.address.as_str()),
            "{}",
            names[i]
        );
        wait_for_text(s, p, "turn 0 report for");
        passwords.push((id, pw));
    }
    let vic: Vec<String> = s.mails(&victim).iter().map(|m| text(m)).collect();
    assert!(!vic.iter().any(|t| t.contains("your seat and password")));
    // The moderator's status page lists the table; the public tables page
    // (written beside it) shows Ann's address (she joined `public`) and no
    // other player's.
    let page = std::fs::read_to_string(h.dir.join("index.html")).unwrap();
    assert!(page.contains("table-t4"), "{page}");
    let public = std::fs::read_to_string(h.dir.join("tables.html")).unwrap();
    assert!(public.contains(&players[0].address), "{public}");
    for p in &players[1..] {
        assert!(
            !public.contains(&p.address),
            "{} on the public page",
            p.address
        );
    }
    tables_page_fits_a_phone(&h.dir.join("tables.html"), &players[0].address);
    // A turn played with the mailed passwords.
    let to = h.game_addr("t4");
    let before = s.mails(&h.acct).len();
    let files = bot_files(&folder, &passwords);
    for (id, file) in &files {
        let who = &players[passwords.iter().position(|(p, _)| p == id).unwrap()];
        send_from(s, who, &to, "orders", &format!("o-{id}@p.test"), 10, file);
    }
    s.wait_for_mails(&h.acct, before + files.len());
    let out = h.pass_ok(&at(11));
    assert!(
        out.contains(&format!("{} orders accepted", files.len())),
        "{out}"
    );
    // A join for a table that has started: refused with the open tables
    // (past the hour in which the victim was last refused: one refusal an
    // hour to an address).
    send_from(s, &victim, &host_addr, "join t4", "late@p.test", 70, "");
    s.wait_for_mails(&h.acct, before + files.len() + 1);
    h.pass_ok(&at(71));
    let late = wait_for_text(s, &victim, "takes no more players");
    assert!(late.contains("no open table"), "{late}");
}

/// The public tables page in Chromium: at phone width nothing is wider
/// than the screen and each table reads as a card (its cells one under
/// the other, labelled, the public address whole); at desktop width it is
/// a table again, a row per table.
fn tables_page_fits_a_phone(page: &Path, address: &str) {
    let b = crate::composer::browser();
    let tab = b.new_tab().unwrap();
    let js = |expr: &str| -> serde_json::Value {
        let wrapped = format!("JSON.stringify((function () {{ return ({expr}); }})())");
        let v = tab.evaluate(&wrapped, false).unwrap().value.unwrap();
        serde_json::from_str(v.as_str().unwrap()).unwrap()
    };
    for width in [375u32, 1280] {
        crate::composer::metrics(&tab, width, 800);
        tab.navigate_to(&format!("file://{}", page.display()))
            .unwrap()
            .wait_until_navigated()
            .unwrap();
        tab.wait_for_element("#table-t4").unwrap();
        let wide = js("document.documentElement.scrollWidth - window.innerWidth");
        assert!(
            wide.as_i64().unwrap() <= 0,
            "{width} px: the tables page is {wide} px wider than the screen"
        );
        let cells = js("[...document.querySelectorAll('#table-t4 td')].map(td =>              { const r = td.getBoundingClientRect();                return [r.left, r.top, r.width, td.textContent, getComputedStyle(td, '::before').content]; })");
        let cells = cells.as_array().unwrap();
        assert_eq!(cells.len(), 5, "{cells:?}");
        let f = |c: &serde_json::Value, i: usize| c[i].as_f64().unwrap();
        if width < 600 {
            for w in cells.windows(2) {
                assert!(
                    f(&w[1], 1) > f(&w[0], 1),
                    "{width} px: cells not stacked: {cells:?}"
                );
            }
            for c in cells {
                assert!(
                    f(c, 2) > 300.0,
                    "{width} px: a cell {} px wide: {c:?}",
                    f(c, 2)
                );
            }
            assert!(
                cells[1..]
                    .iter()
                    .all(|c| c[4].as_str().unwrap().contains(": ")),
                "{width} px: each cell says what it is: {cells:?}"
            );
        } else {
            for w in cells.windows(2) {
                assert!(
                    f(&w[1], 0) > f(&w[0], 0) && f(&w[1], 1) == f(&w[0], 1),
                    "{width} px: not a row: {cells:?}"
                );
            }
        }
        assert!(cells[4][3].as_str().unwrap().contains(address), "{cells:?}");
        if std::env::var_os("HERALD_BLESS").is_some_and(|v| v == "1") {
            let png = tab.screenshot(None).unwrap();
            let to = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("docs")
                .join("screenshots")
                .join(format!("tables-{width}.png"));
            std::fs::write(to, png).unwrap();
        }
    }
}

/// Three confirmations for the two seats of a table in one pass: two
/// seats, the third told the table filled; a `leave` before the start
/// frees a seat; a wrong code writes nothing.
#[test]
fn the_race_for_the_last_seat_gives_it_to_one() {
    let s = servers();
    let (h, md) = maildir_host(s, "");
    let ps: Vec<Account> = (0..3).map(|_| s.account()).collect();
    open(&h.dir, "duel", &["--ruleset", "hexwar"]);
    let host_addr = h.acct.address.clone();
    for (i, p) in ps.iter().enumerate() {
        put(
            &md,
            &format!("j{i}"),
            &mail(
                &p.address,
                &host_addr,
                "join duel",
                &format!("j{i}@p"),
                1,
                "",
            ),
        );
    }
    h.pass_ok(&at(2));
    let codes: Vec<String> = ps
        .iter()
        .map(|p| code_in(&wait_for_text(s, p, "confirm ")).unwrap())
        .collect();
    // A wrong code: refused, the table file unchanged.
    let before = std::fs::read(h.dir.join("lobby/duel.json")).unwrap();
    put(
        &md,
        "bad",
        &mail(
            &ps[0].address,
            &host_addr,
            "x",
            "bad@p",
            3,
            "confirm 0000-0000-0000",
        ),
    );
    h.pass_ok(&at(3));
    assert_eq!(
        before,
        std::fs::read(h.dir.join("lobby/duel.json")).unwrap()
    );
    wait_for_text(s, &ps[0], "not one this host is waiting for");
    // The first leaves again before confirming (a code, confirmed); then
    // all three confirm.
    put(
        &md,
        "l0",
        &mail(&ps[0].address, &host_addr, "leave duel", "l0@p", 4, ""),
    );
    h.pass_ok(&at(4));
    assert_eq!(
        waiting_joins(&h.dir, "duel"),
        3,
        "a leave waits for its code"
    );
    let lc = code_in(&wait_for_text(s, &ps[0], "to leave table `duel`")).unwrap();
    put(
        &md,
        "l0c",
        &mail(
            &ps[0].address,
            &host_addr,
            "x",
            "l0c@p",
            4,
            &format!("confirm {lc}"),
        ),
    );
    h.pass_ok(&at(4));
    assert_eq!(waiting_joins(&h.dir, "duel"), 2);
    put(
        &md,
        "j0b",
        &mail(&ps[0].address, &host_addr, "join duel", "j0b@p", 5, ""),
    );
    h.pass_ok(&at(5));
    // The newest mail holding a code (the refusal above holds "confirm "
    // too, without one): waited for until the new join's code is in.
    let mut c0 = None;
    for _ in 0..200 {
        c0 = s
            .mails(&ps[0])
            .iter()
            .find_map(|m| code_in(&text(m)).filter(|c| c != &codes[0] && c != &lc));
        if c0.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let c0 = c0.expect("a new join, a new code");
    let mine = [c0, codes[1].clone(), codes[2].clone()];
    for (i, p) in ps.iter().enumerate() {
        put(
            &md,
            &format!("c{i}"),
            &mail(
                &p.address,
                &host_addr,
                "confirm",
                &format!("c{i}@p"),
                6,
                &format!("confirm {}", mine[i]),
            ),
        );
    }
    let out = h.pass_ok(&at(7));
    assert!(
        out.contains("duel: started as game duel with 2 players"),
        "{out}"
    );
    let t = table_json(&h.dir, "duel");
    assert_eq!(t["seats"].as_array().unwrap().len(), 2);
    let told: usize = ps
        .iter()
        .filter(|p| last_with(s, p, "filled before your confirmation").is_some())
        .count();
    let welcomed: usize = ps
        .iter()
        .filter(|p| {
            std::thread::sleep(Duration::from_millis(300));
            last_with(s, p, "your seat and password").is_some()
        })
        .count();
    assert_eq!((told, welcomed), (1, 2));
}

/// A table whose start time comes with fewer than the minimum is
/// cancelled; its players and the moderator are told, no game is made.
#[test]
fn a_table_that_cannot_start_is_cancelled_and_told() {
    let s = servers();
    let modr = s.account();
    let (h, md) = maildir_host(s, &format!("moderator = \"{}\"", modr.address));
    let p = s.account();
    open(
        &h.dir,
        "t3",
        &[
            "--ruleset",
            "norse-wars",
            "--seats",
            "3-4",
            "--starts-when",
            &at(60),
        ],
    );
    let host_addr = h.acct.address.clone();
    put(
        &md,
        "j",
        &mail(&p.address, &host_addr, "join t3 Pat", "j@p", 1, ""),
    );
    h.pass_ok(&at(2));
    let c = code_in(&wait_for_text(s, &p, "confirm ")).unwrap();
    put(
        &md,
        "c",
        &mail(
            &p.address,
            &host_addr,
            "confirm",
            "c@p",
            3,
            &format!("confirm {c}"),
        ),
    );
    h.pass_ok(&at(4));
    assert_eq!(table_json(&h.dir, "t3")["status"], "open");
    let out = h.pass_ok(&at(61));
    assert!(out.contains("t3: cancelled"), "{out}");
    assert!(!h.dir.join("t3").exists());
    wait_for_text(s, &p, "cannot start");
    wait_for_text(s, &modr, "cannot start");
    assert_eq!(table_json(&h.dir, "t3")["status"], "cancelled");
}

/// kill -9 of the host at random instants while full tables start: the
/// next pass completes each start; each table's game is made once, its
/// seats are the table's, each welcome mail is delivered once.
#[test]
fn kill_9_during_a_start_makes_each_game_once() {
    let s = servers();
    let (h, _md) = maildir_host(s, "");
    let ps: Vec<Account> = (0..2).map(|_| s.account()).collect();
    let runs = crate::common::count("HERALD_LOBBY_KILL_RUNS", 8);
    let mut rng = herald::rng::from_u64(32);
    for r in 0..runs {
        let name = format!("k{r}");
        open(&h.dir, &name, &["--ruleset", "hexwar"]);
        // The table full, as two confirmations leave it.
        let p = h.dir.join("lobby").join(format!("{name}.json"));
        let mut t: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        t["seats"] = serde_json::json!(ps
            .iter()
            .enumerate()
            .map(|(i, a)| serde_json::json!({"address": a.address, "name": format!("P{i}"), "public": false, "at": at(1)}))
            .collect::<Vec<_>>());
        std::fs::write(&p, serde_json::to_vec(&t).unwrap()).unwrap();
        let mut c = spawn_host(&h.dir, &at(2), &[]);
        let ms = herald::rng::below(&mut rng, 1500) as u64;
        std::thread::sleep(Duration::from_millis(ms));
        let _ = c.kill();
        let _ = c.wait();
        let out = h.pass_ok(&at(3));
        let t = table_json(&h.dir, &name);
        assert_eq!(
            t["status"], "started",
            "run {r} (killed after {ms} ms): {out}"
        );
        let folder = h.dir.join(&name);
        let (code, o, e) = herald(&["verify", &d(&folder)]);
        assert_eq!(code, 0, "{o}{e}");
        let (_, g) = herald::pipeline::open(&folder).unwrap();
        let mut emails: Vec<String> = g
            .head()
            .players
            .iter()
            .map(|p| p.email.clone().unwrap())
            .collect();
        emails.sort();
        let mut want: Vec<String> = ps.iter().map(|a| a.address.clone()).collect();
        want.sort();
        assert_eq!(emails, want);
        // No other game folder or building folder left.
        let extra: Vec<String> = std::fs::read_dir(&h.dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".herald-new-"))
            .collect();
        assert!(extra.is_empty(), "{extra:?}");
    }
    // Every welcome mail delivered once: one per player per table.
    for a in &ps {
        let got = settled(s, a, runs * 2);
        let welcome = s
            .mails(a)
            .iter()
            .filter(|m| text(m).contains("your seat and password"))
            .count();
        assert_eq!(welcome, runs, "{}", a.address);
        assert!(got.values().all(|&n| n == 1), "{got:?}");
    }
    let _ = delivered;
}

/// The password and player id of a welcome or takeover mail.
pub(crate) fn credentials(m: &str) -> (String, String) {
    let get = |k: &str| {
        m.lines()
            .find_map(|l| l.trim().strip_prefix(k))
            .unwrap_or_else(|| panic!("{k} in {m}"))
            .trim()
            .to_string()
    };
    (get("Your player id:"), get("Your password:"))
}

/// A table of 4 filled by mail and started; one player goes on vacation
/// (the deadline moves, the others are told, not why), one misses the
/// deadline and drops out; their seat is offered to the standby list; a
/// forged takeover gives nothing; the standby player takes the seat over
/// by mail, gets its password, history and report, and plays on; the log
/// records the change of hands with no address in clear.
#[test]
fn a_dropped_seat_is_taken_over_and_a_vacation_moves_the_deadline() {
    let s = servers();
    let h = Host::new(s, "");
    let players: Vec<Account> = (0..4).map(|_| s.account()).collect();
    let standby = s.account();
    let victim = s.account();
    let host_addr = h.acct.address.clone();
    open(
        &h.dir,
        "g4",
        &[
            "--ruleset",
            "norse-wars",
            "--seats",
            "4",
            "--deadline-every",
            "1h",
            "--drop-after",
            "1",
            "--vacation-days",
            "3",
        ],
    );
    send_from(
        s,
        &standby,
        &host_addr,
        "standby",
        "sb@p.test",
        1,
        "standby",
    );
    for (i, p) in players.iter().enumerate() {
        let body = format!("join g4 Player{i}");
        send_from(s, p, &host_addr, "join", &format!("j{i}@p.test"), 1, &body);
    }
    s.wait_for_mails(&h.acct, 5);
    h.pass_ok(&at(2));
    for (i, p) in players.iter().enumerate() {
        let code = code_in(&wait_for_text(s, p, "confirm ")).unwrap();
        send_from(
            s,
            p,
            &host_addr,
            "Re: join",
            &format!("c{i}@p.test"),
            3,
            &format!("confirm {code}"),
        );
    }
    // The standby list by a code too.
    let code = code_in(&wait_for_text(s, &standby, "standby list")).unwrap();
    send_from(
        s,
        &standby,
        &host_addr,
        "Re: standby",
        "sbc@p.test",
        3,
        &format!("confirm {code}"),
    );
    s.wait_for_mails(&h.acct, 10);
    let out = h.pass_ok(&at(4));
    assert!(
        out.contains("g4: started as game g4 with 4 players"),
        "{out}"
    );
    wait_for_text(s, &standby, "is on the standby list");
    let folder = h.dir.join("g4");
    let mut creds: Vec<(String, String)> = players
        .iter()
        .map(|p| credentials(&wait_for_text(s, p, "your seat and password")))
        .collect();
    let who =
        |id: &str, creds: &[(String, String)]| creds.iter().position(|(p, _)| p == id).unwrap();
    let files = bot_files(&folder, &creds);
    // Norse Wars awaits one player at a time: the player awaited goes on
    // vacation, comes back, then misses the moved deadline and drops out.
    let away = files[0].0.clone();
    let dropper = away.clone();
    let to = h.game_addr("g4");
    // The vacation: the reason the player gives is never passed on.
    let (ai, api) = (who(&away, &creds), &creds[who(&away, &creds)].1);
    let mut sent = 10;
    send_from(
        s,
        &players[ai],
        &to,
        "vacation",
        "v@p.test",
        5,
        &format!("vacation {away} {api} until 2026-11-26\nmy sister's wedding"),
    );
    sent += 1;
    // A bad vacation line is answered with the line to send.
    send_from(
        s,
        &players[ai],
        &to,
        "vacation",
        "v2@p.test",
        5,
        &format!("vacation {away} {api} soon"),
    );
    sent += 1;
    for (id, file) in &files {
        if *id == away || *id == dropper {
            continue;
        }
        let p = &players[who(id, &creds)];
        send_from(s, p, &to, "orders", &format!("o0-{id}@p.test"), 6, file);
        sent += 1;
    }
    s.wait_for_mails(&h.acct, sent);
    h.pass_ok(&at(8));
    let granted = wait_for_text(s, &players[ai], "Vacation granted");
    assert!(granted.contains("2 days charged"), "{granted}");
    let bad = wait_for_text(s, &players[ai], "REFUSED");
    assert!(
        bad.contains("vacation PLAYER PASSWORD until YYYY-MM-DD"),
        "{bad}"
    );
    // The deadline (an hour after the start) passes with the vacationer's
    // orders missing: it moves to their return, and the others are told.
    let out = h.pass_ok(&at(70));
    assert!(!out.contains("resolved turn 0"), "{out}");
    let (_, g) = herald::pipeline::open(&folder).unwrap();
    assert_eq!(g.head().turn, 0);
    assert_eq!(
        g.head().deadline.as_deref(),
        Some("2026-11-26T00:00:00+00:00")
    );
    let other_id = creds.iter().find(|(p, _)| *p != away).unwrap().0.clone();
    let other = &players[who(&other_id, &creds)];
    let notice = wait_for_text(s, other, "has moved to");
    assert!(
        notice.contains(&format!("{away} is")) && notice.contains("on vacation"),
        "{notice}"
    );
    assert!(!notice.contains("wedding"), "{notice}");
    for m in s.mails(&players[ai]) {
        assert!(
            !text(&m).contains("has moved to"),
            "the vacationer is not told"
        );
    }
    // Back early, and no orders: the (moved) deadline comes and the
    // player misses it: dropped after 1 missed phase, the seat offered.
    send_from(
        s,
        &players[ai],
        &to,
        "back",
        "b@p.test",
        80,
        &format!("back {away} {api}"),
    );
    sent += 1;
    s.wait_for_mails(&h.acct, sent);
    h.pass_ok(&at(82));
    wait_for_text(s, &players[ai], "Welcome back");
    // 2026-11-26T00:05Z: 2285 minutes after T0.
    let out = h.pass_ok(&at(2285));
    assert!(out.contains("resolved turn 0"), "{out}");
    let (_, g) = herald::pipeline::open(&folder).unwrap();
    assert!(
        g.head()
            .missed
            .iter()
            .any(|m| m.player == dropper && m.dropped),
        "{:?}",
        g.head().missed
    );
    let out = h.pass_ok(&at(2287));
    assert!(out.contains("seats offered to 1 on standby"), "{out}");
    let offer = wait_for_text(s, &standby, &format!("takeover g4 {dropper}"));
    assert!(offer.contains("is free"), "{offer}");
    // Someone asks for the seat in the victim's name: the code goes to the
    // victim, who never confirms. The standby player asks and confirms.
    send_from(
        s,
        &victim,
        &host_addr,
        "x",
        "forged-t@p.test",
        2288,
        &format!("takeover g4 {dropper} Eve"),
    );
    send_from(
        s,
        &standby,
        &host_addr,
        "x",
        "t@p.test",
        2288,
        &format!("takeover g4 {dropper} Sam"),
    );
    send_from(
        s,
        &standby,
        &host_addr,
        "x",
        "t-bad@p.test",
        2288,
        "takeover g4",
    );
    sent += 3;
    s.wait_for_mails(&h.acct, sent);
    h.pass_ok(&at(2289));
    let bad = wait_for_text(s, &standby, "not understood");
    assert!(bad.contains("takeover GAME PLAYER [your name]"), "{bad}");
    wait_for_text(s, &victim, "confirm ");
    let code = code_in(&wait_for_text(s, &standby, "take over the seat")).unwrap();
    send_from(
        s,
        &standby,
        &host_addr,
        "Re: x",
        "tc@p.test",
        2290,
        &format!("confirm {code}"),
    );
    sent += 1;
    s.wait_for_mails(&h.acct, sent);
    let out = h.pass_ok(&at(2291));
    assert!(
        out.contains(&format!("seat {dropper} taken over from turn 1")),
        "{out}"
    );
    let took = wait_for_text(s, &standby, "you have taken over");
    let (id, pw) = credentials(&took);
    assert_eq!(id, dropper);
    let raw_mail = s
        .mails(&standby)
        .into_iter()
        .find(|m| text(m).contains("you have taken over"))
        .unwrap();
    let raw_mail = String::from_utf8_lossy(&raw_mail).into_owned();
    assert!(
        raw_mail.contains("report-turn-0000.txt"),
        "the history is attached"
    );
    wait_for_text(s, &standby, &format!("turn 1 report for {dropper}"));
    for m in s.mails(&victim) {
        assert!(!text(&m).contains("you have taken over"));
    }
    // The log: a signed seat entry, no address or password in clear; the
    // game verifies; the new holder is the seat's address, not dropped.
    let (code, o, e) = herald(&["verify", &d(&folder)]);
    assert_eq!(code, 0, "{o}{e}");
    let (_, g) = herald::pipeline::open(&folder).unwrap();
    let seat_entries: Vec<_> = g
        .record
        .entries
        .iter()
        .filter_map(|e| match e.decode() {
            Ok(herald::chain::body::Body::Seat(c)) => Some((e.body.clone(), c)),
            _ => None,
        })
        .collect();
    assert_eq!(seat_entries.len(), 1);
    let (body, c) = &seat_entries[0];
    assert!(
        !body.contains(&standby.address) && !body.contains(&pw),
        "{body}"
    );
    assert_eq!(c.turn, 1);
    assert_eq!(c.why, "dropped");
    let p = g.head().players.iter().find(|p| p.id == dropper).unwrap();
    assert_eq!(p.email.as_deref(), Some(standby.address.as_str()));
    assert!(!g.head().missed.iter().any(|m| m.dropped));
    assert!(g
        .record
        .entries
        .iter()
        .any(|e| e.body.contains("\"kind\":\"vacation\"")));
    // The new player's orders count: a turn played with the new password.
    let i = who(&dropper, &creds);
    creds[i].1 = pw.clone();
    let files = bot_files(&folder, &creds);
    let mut accounts: Vec<&Account> = players.iter().collect();
    accounts[i] = &standby;
    for (id, file) in &files {
        let a = accounts[who(id, &creds)];
        send_from(s, a, &to, "orders", &format!("o1-{id}@p.test"), 2292, file);
        sent += 1;
    }
    s.wait_for_mails(&h.acct, sent);
    let out = h.pass_ok(&at(2293));
    assert!(
        out.contains(&format!("{} orders accepted", files.len())),
        "{out}"
    );
    assert!(out.contains("resolved turn 1"), "{out}");
    // The moderator's view.
    let (code, st, e) = herald(&["host", "status", &d(&h.dir)]);
    assert_eq!(code, 0, "{e}");
    assert!(st.contains(&standby.address), "{st}");
    assert!(
        st.contains(&format!("game g4 seat {dropper}")) && st.contains("done"),
        "{st}"
    );
    // The table follows the change of hands (issue 54): the seat is the
    // new holder's, the old player is no longer listed, the new holder
    // is off the standby list, and the seats are in the game's order
    // (drawn from the seed), each id with its display name.
    let table: String = st
        .lines()
        .skip_while(|l| !l.starts_with("table g4 "))
        .take_while(|l| l.starts_with("table g4 ") || l.starts_with("  "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(!table.contains("starts when full"), "{table}");
    let seat_line = table
        .lines()
        .find(|l| l.contains(&format!(": {dropper} (")) || l.contains(&format!(": {dropper} <")))
        .unwrap_or_else(|| panic!("no seat of {dropper}: {table}"));
    assert!(
        seat_line.contains(&standby.address) && seat_line.contains("took the seat over"),
        "{seat_line}"
    );
    assert!(!table.contains(&players[i].address), "{table}");
    assert!(st.contains("standby: nobody"), "{st}");
    let (_, g) = herald::pipeline::open(&folder).unwrap();
    let order: Vec<String> = g.head().players.iter().map(|p| p.id.clone()).collect();
    let listed: Vec<String> = table
        .lines()
        .filter_map(|l| l.trim().strip_prefix("seat "))
        .map(|l| {
            l.split(": ")
                .nth(1)
                .unwrap()
                .split([' ', '<'])
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(listed, order, "{table}");
    for p in &g.head().players {
        if p.name != p.id {
            assert!(table.contains(&format!("{} ({})", p.id, p.name)), "{table}");
        }
    }
    let public = std::fs::read_to_string(h.dir.join("tables.html")).unwrap();
    let row = public
        .lines()
        .find(|l| l.contains("id=\"table-g4\""))
        .unwrap_or_else(|| panic!("{public}"));
    assert!(!row.contains("starts when full"), "{row}");
    // where id stands as a word in the players' cell
    let cell = &row[row.find("data-label=\"players\"").unwrap()..];
    let at_in_row = |id: &str| {
        cell.match_indices(id)
            .map(|(k, _)| k)
            .find(|&k| {
                let before = cell[..k].chars().last();
                let after = cell[k + id.len()..].chars().next();
                matches!(before, Some('>' | ' ')) && matches!(after, Some(' ' | ',' | '<'))
            })
            .unwrap_or_else(|| panic!("{id}: {row}"))
    };
    let positions: Vec<usize> = order.iter().map(|id| at_in_row(id)).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{row}");
    assert!(!row.contains(&players[i].address), "{row}");

    // Played on to the end by mail, each player with the password they
    // hold (the new player with theirs), a pass a few minutes after each
    // mail: every turn resolved early, none missed.
    let mut minute = 2293;
    let mut turns = 1;
    loop {
        let (_, g) = herald::pipeline::open(&folder).unwrap();
        if g.head().outcome.is_some() {
            break;
        }
        assert!(turns < 150, "the game does not end");
        let turn = g.head().turn;
        minute += 5;
        for (id, file) in bot_files(&folder, &creds) {
            let a = accounts[who(&id, &creds)];
            send_from(
                s,
                a,
                &to,
                "orders",
                &format!("o{turn}-{id}@p.test"),
                minute,
                &file,
            );
            sent += 1;
        }
        s.wait_for_mails(&h.acct, sent);
        minute += 1;
        let out = h.pass_ok(&at(minute));
        assert!(out.contains(&format!("resolved turn {turn}")), "{out}");
        turns += 1;
    }
    let (_, g) = herald::pipeline::open(&folder).unwrap();
    assert!(
        g.head().missed.iter().all(|m| !m.dropped),
        "{:?}",
        g.head().missed
    );
    // Everyone who holds a seat at the end gets the final report with the
    // seed; the player who dropped out gets none.
    for (id, _) in &creds {
        let a = accounts[who(id, &creds)];
        let last = wait_for_text(s, a, "final report");
        assert!(last.contains("The seed is revealed"), "{id}: {last}");
    }
    assert!(
        !s.mails(&players[i])
            .iter()
            .any(|m| text(m).contains("final report")),
        "the player who dropped out is not sent the end"
    );
    let (code, o, e) = herald(&["verify", &d(&folder)]);
    assert_eq!(code, 0, "{o}{e}");
    // The lobby's pages say the game is over, not that it starts.
    let (_, st, _) = herald(&["host", "status", &d(&h.dir)]);
    let line = st.lines().find(|l| l.starts_with("table g4 ")).unwrap();
    assert!(
        line.contains("game over: ") && line.ends_with("[over]") && !line.contains("starts"),
        "{line}"
    );
    let public = std::fs::read_to_string(h.dir.join("tables.html")).unwrap();
    assert!(
        public.contains("game over: ") && !public.contains("starts when full"),
        "{public}"
    );
    // The archive says who played which turns: the change of hands is in
    // the finished game's replay site, by turn, with no address.
    let gallery = std::fs::read_to_string(h.dir.join("gallery/index.html")).unwrap();
    assert!(gallery.contains("href=\"g4/index.html\""), "{gallery}");
    let site = std::fs::read_to_string(h.dir.join("gallery/g4/index.html")).unwrap();
    assert!(
        !site.contains(&standby.address),
        "an address in the archive"
    );
    // The seat's row names who played which turns.
    let row = site
        .lines()
        .find(|l| l.contains(&format!("<td>{dropper}</td>")))
        .unwrap_or_else(|| panic!("{site}"));
    assert!(
        row.contains(
            " (turn 0); Sam from turn 1, who took the seat over when its player dropped out"
        ),
        "{row}"
    );
    // A pass after the end sends nothing.
    let again = h.pass_ok(&at(minute + 1));
    assert!(again.contains("mail out: 0 sent"), "{again}");
}

/// The moderator's commands refuse bad input with what to run instead.
#[test]
fn replace_and_approve_refuse_bad_input() {
    let s = servers();
    let h = Host::new(s, "");
    let dd = d(&h.dir);
    let (code, _, e) = herald(&["host", "replace", &dd, "nosuch", "--player", "red"]);
    assert_eq!(code, 1, "{e}");
    assert!(e.contains("no game `nosuch`"), "{e}");
    let (code, _, e) = herald(&["host", "approve", &dd, "nosuch", "--player", "red"]);
    assert_eq!(code, 1, "{e}");
    assert!(!h.dir.join("lobby/games").exists());
    // A format-2 game: refused with the line that converts it.
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format2/demo-norse-wars");
    let g = h.dir.join("demo-nw");
    std::fs::create_dir(&g).unwrap();
    for f in ["game.jsonl", "moderator.key", "secrets.toml"] {
        std::fs::copy(fixture.join(f), g.join(f)).unwrap();
    }
    let (code, _, e) = herald(&["host", "replace", &dd, "demo-nw", "--player", "blue"]);
    assert_eq!(code, 1, "{e}");
    assert!(e.contains(&format!("herald convert {}", d(&g))), "{e}");
    assert!(!h.dir.join("lobby/games").exists());
    // A player the game does not have: the lines to run.
    let (code, _, e) = herald(&["convert", &d(&g)]);
    assert_eq!(code, 0, "{e}");
    let (code, _, e) = herald(&["host", "replace", &dd, "demo-nw", "--player", "nobody"]);
    assert_eq!(code, 2, "{e}");
    assert!(
        e.contains(&format!("herald host replace {dd} demo-nw --player blue")),
        "{e}"
    );
    let (code, o, e) = herald(&[
        "host",
        "replace",
        &dd,
        "demo-nw",
        "--player",
        "blue",
        "--now",
        "2026-11-30T00:00:00Z",
    ]);
    assert_eq!(code, 0, "{o}{e}");
    let st = std::fs::read_to_string(h.dir.join("lobby/games/demo-nw.json")).unwrap();
    assert!(st.contains("\"replaced\""), "{st}");
}

/// A table `name` of hexwar with the two accounts seated, started by a
/// pass at `at(minute)`; the player id and password of each account.
pub(crate) fn started_game(
    h: &Host,
    ps: &[Account],
    name: &str,
    minute: i64,
    extra: &[&str],
) -> Vec<(String, String)> {
    let mut args = vec!["--ruleset", "hexwar"];
    args.extend_from_slice(extra);
    open(&h.dir, name, &args);
    let p = h.dir.join("lobby").join(format!("{name}.json"));
    let mut t: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    t["seats"] = serde_json::json!(ps
        .iter()
        .enumerate()
        .map(|(i, a)| serde_json::json!({"address": a.address, "name": format!("P{i}"), "public": false, "at": at(minute)}))
        .collect::<Vec<_>>());
    std::fs::write(&p, serde_json::to_vec(&t).unwrap()).unwrap();
    let out = h.pass_ok(&at(minute));
    assert!(out.contains(&format!("{name}: started")), "{out}");
    let (store, g) = herald::pipeline::open(&h.dir.join(name)).unwrap();
    let secrets = store.secrets().unwrap();
    // In the accounts' order (the game's seats are in the seed's).
    ps.iter()
        .map(|a| {
            let p = g
                .head()
                .players
                .iter()
                .find(|p| p.email.as_deref() == Some(a.address.as_str()))
                .unwrap();
            (p.id.clone(), secrets.passwords[&p.id].clone())
        })
        .collect()
}

/// kill -9 of the host at random instants while a granted seat changes
/// hands: after the next pass the seat was given exactly once (one `seat`
/// entry, the game verifies), the old password no longer works and the
/// new one does, and the new holder got the takeover mail (with the
/// history) once.
#[test]
fn kill_9_during_a_takeover_gives_the_seat_once() {
    let s = servers();
    let (h, _md) = maildir_host(s, "");
    let ps: Vec<Account> = (0..2).map(|_| s.account()).collect();
    let taker = s.account();
    let runs = crate::common::count("HERALD_LOBBY_KILL_RUNS", 8);
    let mut rng = herald::rng::from_u64(3232);
    let (mut handed_after, mut completed) = (0, 0);
    for r in 0..runs {
        let name = format!("tk{r}");
        let base = r as i64 * 100;
        let creds = started_game(&h, &ps, &name, base + 1, &[]);
        let (player, old_pw) = creds[1].clone();
        // The offer as a confirmed takeover leaves it: granted to the taker.
        let rec = serde_json::json!({
            "game": name, "vacation_days": 14, "approve": false,
            "offers": [{"n": 1, "player": player, "why": "replaced", "at": at(base + 2),
                "status": "granted", "announced": true, "claims": [],
                "taker": {"address": taker.address, "name": "Tess", "public": false, "at": at(base + 2)},
                "done": null}],
            "handled": [], "away": []
        });
        let games = h.dir.join("lobby").join("games");
        std::fs::create_dir_all(&games).unwrap();
        std::fs::write(
            games.join(format!("{name}.json")),
            serde_json::to_vec(&rec).unwrap(),
        )
        .unwrap();
        let mut c = spawn_host(&h.dir, &at(base + 3), &[]);
        let ms = herald::rng::below(&mut rng, 700) as u64;
        std::thread::sleep(Duration::from_millis(ms));
        let _ = c.kill();
        let _ = c.wait();
        let out = h.pass_ok(&at(base + 4));
        if out.contains("taken over") {
            handed_after += 1;
        }
        if out.contains("completed after an interrupted pass") {
            completed += 1;
        }
        let rec: serde_json::Value =
            serde_json::from_slice(&std::fs::read(games.join(format!("{name}.json"))).unwrap())
                .unwrap();
        assert_eq!(
            rec["offers"][0]["status"], "done",
            "run {r} (killed after {ms} ms): {out}"
        );
        let folder = h.dir.join(&name);
        let (code, o, e) = herald(&["verify", &d(&folder)]);
        assert_eq!(code, 0, "run {r}: {o}{e}");
        let (store, g) = herald::pipeline::open(&folder).unwrap();
        let seats = g
            .record
            .entries
            .iter()
            .filter(|e| matches!(e.decode(), Ok(herald::chain::body::Body::Seat(_))))
            .count();
        assert_eq!(seats, 1, "run {r} (killed after {ms} ms)");
        let p = g.head().players.iter().find(|p| p.id == player).unwrap();
        assert_eq!(p.email.as_deref(), Some(taker.address.as_str()));
        assert!(
            !herald::auth::matches(&old_pw, &p.password),
            "run {r}: the old password still works"
        );
        let new_pw = store.secrets().unwrap().passwords[&player].clone();
        assert!(herald::auth::matches(&new_pw, &p.password));
        // The other seat is untouched.
        let q = g
            .head()
            .players
            .iter()
            .find(|q| q.id == creds[0].0)
            .unwrap();
        assert!(herald::auth::matches(&creds[0].1, &q.password));
    }
    eprintln!(
        "takeover kill -9: {runs} runs, {handed_after} handed over by the pass after the kill, {completed} of them completing a commit made before it"
    );
    // The taker: per game one takeover mail (history attached) and one
    // current report, each delivered once; the password in the mail is
    // the one that works.
    let got = settled(s, &taker, runs * 2);
    assert!(got.values().all(|&n| n == 1), "{got:?}");
    let took: Vec<String> = s
        .mails(&taker)
        .iter()
        .map(|m| text(m))
        .filter(|t| t.contains("you have taken over"))
        .collect();
    assert_eq!(took.len(), runs, "one takeover mail a game");
    for t in &took {
        let (id, pw) = credentials(t);
        let game = t
            .lines()
            .find_map(|l| l.split("of game ").nth(1))
            .and_then(|w| w.split_whitespace().next())
            .unwrap();
        let (_, g) = herald::pipeline::open(&h.dir.join(game)).unwrap();
        let p = g.head().players.iter().find(|p| p.id == id).unwrap();
        assert!(herald::auth::matches(&pw, &p.password), "{t}");
    }
    std::thread::sleep(Duration::from_millis(500));
    for a in &ps {
        let got = delivered(s, a);
        assert!(got.values().all(|&n| n == 1), "{got:?}");
    }
}

/// kill -9 of the host at random instants while it grants a vacation by
/// mail and, in the same pass, moves the passed deadline to its end: after
/// the next pass there is one vacation entry and one moved deadline, the
/// player was answered once and the other player told once.
#[test]
fn kill_9_during_a_vacation_grants_it_once() {
    let s = servers();
    let (h, md) = maildir_host(s, "");
    let ps: Vec<Account> = (0..2).map(|_| s.account()).collect();
    let runs = crate::common::count("HERALD_LOBBY_KILL_RUNS", 8);
    let mut rng = herald::rng::from_u64(3233);
    for r in 0..runs {
        let name = format!("vk{r}");
        let base = r as i64 * 200;
        let creds = started_game(&h, &ps, &name, base + 1, &["--deadline-every", "1h"]);
        let folder = h.dir.join(&name);
        let (_, g) = herald::pipeline::open(&folder).unwrap();
        let away = g.head().awaiting[0].clone();
        let i = creds.iter().position(|(p, _)| *p == away).unwrap();
        let until = at(base + 2 * 1440);
        let to = h.acct.plus(&name);
        put(
            &md,
            &format!("v{r}"),
            &mail(
                &ps[i].address,
                &to,
                "vacation",
                &format!("v{r}@p.test"),
                base + 70,
                &format!("vacation {away} {} until {until}\nbusy", creds[i].1),
            ),
        );
        // The mail and the deadline (an hour after the start) in one pass.
        let mut c = spawn_host(&h.dir, &at(base + 70), &[]);
        let ms = herald::rng::below(&mut rng, 2000) as u64;
        std::thread::sleep(Duration::from_millis(ms));
        let _ = c.kill();
        let _ = c.wait();
        let out = h.pass_ok(&at(base + 71));
        let (code, o, e) = herald(&["verify", &d(&folder)]);
        assert_eq!(code, 0, "run {r}: {o}{e}");
        let (_, g) = herald::pipeline::open(&folder).unwrap();
        let kinds: Vec<&str> = g
            .record
            .entries
            .iter()
            .filter_map(|e| match e.decode() {
                Ok(herald::chain::body::Body::Vacation(_)) => Some("vacation"),
                Ok(herald::chain::body::Body::Deadline(_)) => Some("deadline"),
                Ok(herald::chain::body::Body::Phase(_)) => Some("phase"),
                _ => None,
            })
            .collect();
        assert_eq!(
            kinds,
            ["vacation", "deadline"],
            "run {r} (killed after {ms} ms): {out}"
        );
        assert_eq!(g.head().turn, 0);
        assert_eq!(
            g.head()
                .deadline
                .as_deref()
                .map(|t| chrono::DateTime::parse_from_rfc3339(t).unwrap()),
            Some(chrono::DateTime::parse_from_rfc3339(&until).unwrap())
        );
    }
    // The vacationers got one grant each, the others one notice each
    // (waited for: the mail goes out through Postfix), none twice.
    let count = |what: &str| -> usize {
        ps.iter()
            .map(|a| s.mails(a).iter().filter(|m| text(m).contains(what)).count())
            .sum()
    };
    for _ in 0..300 {
        if count("Vacation granted") >= runs && count("has moved to") >= runs {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(
        (count("Vacation granted"), count("has moved to")),
        (runs, runs)
    );
    for a in &ps {
        let got = delivered(s, a);
        assert!(got.values().all(|&n| n == 1), "{got:?}");
    }
}

/// Every file under `dir`, with its bytes.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(d_rel(dir, &p), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn d_rel(dir: &Path, p: &Path) -> String {
    p.strip_prefix(dir).unwrap().display().to_string()
}

/// A lobby command for a table or game that does not exist (or takes
/// nobody) is refused with the open tables and free seats, each with the
/// exact line to send; every refusal names a line to send; nothing is
/// written for a refused command.
#[test]
fn lobby_refusals_name_the_line_to_send_and_write_nothing() {
    let dir = crate::common::scratch("lobby-refusals");
    open(&dir, "t1", &["--ruleset", "hexwar"]);
    open(&dir, "full1", &["--ruleset", "hexwar"]);
    open(&dir, "old", &["--ruleset", "hexwar"]);
    let set = |name: &str, f: &dyn Fn(&mut serde_json::Value)| {
        let p = dir.join("lobby").join(format!("{name}.json"));
        let mut t: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        f(&mut t);
        std::fs::write(&p, serde_json::to_vec(&t).unwrap()).unwrap();
    };
    let seat =
        |a: &str| serde_json::json!({"address": a, "name": null, "public": false, "at": at(0)});
    set("full1", &|t| {
        t["seats"] = serde_json::json!([seat("a@x.test"), seat("b@x.test")])
    });
    set("old", &|t| t["status"] = serde_json::json!("started"));
    set("t1", &|t| {
        t["seats"] = serde_json::json!([seat("mine@x.test")])
    });
    std::fs::create_dir_all(dir.join("lobby/games")).unwrap();
    std::fs::write(
        dir.join("lobby/games/gx.json"),
        serde_json::to_vec(&serde_json::json!({
            "game": "gx",
            "offers": [{"n": 1, "player": "p1", "why": "dropped", "at": at(0), "status": "open",
                "announced": true, "claims": [], "taker": null, "done": null}]
        }))
        .unwrap(),
    )
    .unwrap();
    let before = snapshot(&dir);
    let addr = |g: &str| format!("host+{g}@x.test");
    let cx = commands::Ctx {
        host: herald::host::layout::HostDir::at(&dir),
        from: "host@x.test".into(),
        game_address: &addr,
        now: at(5),
        seats_per_address: 1,
        may_mail_code: &|_, _| Ok(true),
    };
    let join_t1 = "join t1 [your name]";
    let take_gx = "takeover gx p1";
    let cases: Vec<(&str, &str, Vec<&str>)> = vec![
        ("join nosuch Pat", "x1@x.test", vec![join_t1, take_gx]),
        ("join full1", "x2@x.test", vec![join_t1, take_gx]),
        ("join old", "x3@x.test", vec![join_t1]),
        ("join t1", "mine@x.test", vec!["leave t1"]),
        ("leave nosuch", "mine@x.test", vec!["leave t1", join_t1]),
        ("leave t1", "x4@x.test", vec![join_t1]),
        ("leave old", "x5@x.test", vec!["moderator"]),
        (
            "confirm 0000-1111-2222",
            "x6@x.test",
            vec!["join TABLE", join_t1],
        ),
        ("takeover nosuch p1", "x7@x.test", vec![take_gx, join_t1]),
        ("takeover gx nobody", "x8@x.test", vec![take_gx]),
        (
            "takeover gx",
            "x9@x.test",
            vec!["takeover GAME PLAYER", join_t1],
        ),
        (
            "join",
            "x10@x.test",
            vec!["join TABLE [your name] [public]"],
        ),
        ("confirm", "x11@x.test", vec!["confirm CODE"]),
        ("standby on please", "x12@x.test", vec!["standby off"]),
    ];
    for (i, (line, from, want)) in cases.iter().enumerate() {
        let cmd = commands::parse_line(line).unwrap();
        let digest = format!("{:064x}", i + 1);
        let a = commands::answer(&cx, &cmd, from, &digest, "<m@x>", "Re: x").unwrap();
        assert!(a.outcome.refused(), "{line}: {}", a.what);
        let (_, bytes) = a.reply.unwrap();
        let t = text(&bytes);
        for w in want {
            assert!(t.contains(w), "{line}: the reply names `{w}`:\n{t}");
        }
        // Tables that take nobody are not offered.
        assert!(
            !t.contains("join full1") && !t.contains("join old"),
            "{line}:\n{t}"
        );
        assert!(snapshot(&dir) == before, "{line}: a refused command wrote");
    }
    // The list itself, asked for: the same lines.
    let a = commands::answer(
        &cx,
        &commands::Command::Tables,
        "y@x.test",
        &format!("{:064x}", 99),
        "",
        "x",
    )
    .unwrap();
    let t = text(&a.reply.unwrap().1);
    assert!(t.contains(join_t1) && t.contains(take_gx), "{t}");
    assert!(snapshot(&dir) == before);
}

/// A table opened with `--vacation stand-in`: a deadline that comes while
/// a player is away stands, the game's stand-in plays for them, the phase
/// records them as excused and no miss is counted (with `--drop-after 1`,
/// a counted miss would drop them); the others are told a stand-in played
/// and until when, never why. Back from vacation, a miss counts again.
#[test]
fn stand_in_vacation_mode_plays_the_phase_without_a_miss() {
    let s = servers();
    let (h, md) = maildir_host(s, "");
    let ps: Vec<Account> = (0..2).map(|_| s.account()).collect();
    let dd = d(&h.dir);
    let (code, _, e) = herald(&[
        "host",
        "open",
        &dd,
        "bad",
        "--ruleset",
        "hexwar",
        "--vacation",
        "sometimes",
    ]);
    assert_eq!(code, 2, "{e}");
    assert!(e.contains("extend or stand-in"), "{e}");
    assert!(!h.dir.join("lobby/bad.json").exists());
    let creds = started_game(
        &h,
        &ps,
        "si",
        1,
        &[
            "--deadline-every",
            "1h",
            "--vacation",
            "stand-in",
            "--drop-after",
            "1",
        ],
    );
    let folder = h.dir.join("si");
    let (_, g) = herald::pipeline::open(&folder).unwrap();
    let awaited = g.head().awaiting.clone();
    let away = awaited[0].clone();
    let i = creds.iter().position(|(p, _)| *p == away).unwrap();
    let to = h.acct.plus("si");
    put(
        &md,
        "v",
        &mail(
            &ps[i].address,
            &to,
            "vacation",
            "v@p.test",
            10,
            &format!(
                "vacation {away} {} until {}\nmy dentist",
                creds[i].1,
                at(3 * 1440)
            ),
        ),
    );
    // Everyone else awaited sends orders.
    for (id, file) in bot_files(&folder, &creds) {
        if id == away {
            continue;
        }
        let j = creds.iter().position(|(p, _)| *p == id).unwrap();
        put(
            &md,
            &format!("o-{id}"),
            &mail(
                &ps[j].address,
                &to,
                "orders",
                &format!("o-{id}@p.test"),
                11,
                &file,
            ),
        );
    }
    h.pass_ok(&at(12));
    let granted = wait_for_text(s, &ps[i], "Vacation granted");
    assert!(granted.contains("stand-in plays"), "{granted}");
    // The deadline (an hour after the start) comes: it stands.
    let out = h.pass_ok(&at(62));
    assert!(out.contains("resolved turn 0"), "{out}");
    let (code, o, e) = herald(&["verify", &d(&folder)]);
    assert_eq!(code, 0, "{o}{e}");
    let (_, g) = herald::pipeline::open(&folder).unwrap();
    let phase = g.last_phase().unwrap();
    assert_eq!(phase.excused, vec![away.clone()]);
    assert!(phase
        .orders
        .iter()
        .any(|o| o.player == away && o.nmr.is_some()));
    let m = g.head().missed.iter().find(|m| m.player == away).unwrap();
    assert_eq!((m.in_a_row, m.total, m.dropped), (0, 0, false), "{m:?}");
    assert!(!g
        .record
        .entries
        .iter()
        .any(|e| e.body.contains("\"kind\":\"deadline\"")));
    // The others are told, not why; the vacationer is not.
    for (j, a) in ps.iter().enumerate() {
        if j == i {
            continue;
        }
        let n = wait_for_text(s, a, "stand-in played");
        assert!(n.contains(&format!("{away} (away until")), "{n}");
        assert!(!n.contains("dentist"), "{n}");
    }
    std::thread::sleep(Duration::from_millis(500));
    assert!(last_with(s, &ps[i], "a stand-in played turn").is_none());
    // Back early; the next deadline comes without their orders: a miss,
    // counted, and with --drop-after 1 they drop out.
    put(
        &md,
        "b",
        &mail(
            &ps[i].address,
            &to,
            "back",
            "b@p.test",
            63,
            &format!("back {away} {}", creds[i].1),
        ),
    );
    h.pass_ok(&at(64));
    let (_, g) = herald::pipeline::open(&folder).unwrap();
    let missing: Vec<String> = g.head().awaiting.clone();
    let out = h.pass_ok(&at(130));
    assert!(out.contains("resolved turn 1"), "{out}");
    let (_, g) = herald::pipeline::open(&folder).unwrap();
    let phase = g.last_phase().unwrap();
    assert!(phase.excused.is_empty());
    for p in missing {
        let m = g.head().missed.iter().find(|m| m.player == p).unwrap();
        assert_eq!(m.total, 1, "{m:?}");
    }
}

/// The takeover's report mail follows host.toml's `attach_png = false`
/// as every other report mail does (issue 54: it carried board.png
/// whatever the host said); with the default it carries it.
#[test]
fn the_takeover_report_mail_follows_attach_png() {
    let s = servers();
    for (attach, extra) in [(false, "attach_png = false"), (true, "")] {
        let (h, _md) = maildir_host(s, extra);
        let ps: Vec<Account> = (0..2).map(|_| s.account()).collect();
        let taker = s.account();
        let name = if attach { "png1" } else { "png0" };
        let creds = started_game(&h, &ps, name, 1, &[]);
        let rec = serde_json::json!({
            "game": name, "vacation_days": 14, "approve": false,
            "offers": [{"n": 1, "player": creds[1].0, "why": "replaced", "at": at(2),
                "status": "granted", "announced": true, "claims": [],
                "taker": {"address": taker.address, "name": "Tess", "public": false, "at": at(2)},
                "done": null}],
            "handled": [], "away": []
        });
        let games = h.dir.join("lobby").join("games");
        std::fs::create_dir_all(&games).unwrap();
        std::fs::write(
            games.join(format!("{name}.json")),
            serde_json::to_vec(&rec).unwrap(),
        )
        .unwrap();
        let out = h.pass_ok(&at(3));
        assert!(out.contains("taken over"), "{out}");
        settled(s, &taker, 2);
        let mails = s.mails(&taker);
        let report = mails
            .iter()
            .find(|m| !text(m).contains("you have taken over"))
            .expect("the current report's mail");
        use mail_parser::MimeHeaders;
        let p = mail_parser::MessageParser::default().parse(report).unwrap();
        let names: Vec<String> = p
            .attachments()
            .filter_map(|a| a.attachment_name().map(str::to_string))
            .collect();
        assert!(names.iter().any(|n| n == "report.html"), "{names:?}");
        assert_eq!(
            names.iter().any(|n| n == "board.png"),
            attach,
            "attach_png {attach}: {names:?}"
        );
    }
}

/// The lobby's help (about 25 lines) ends the first reply of the day to
/// an address and every reply to `help`; the address's other replies that
/// day end with the one line that asks for it. What the host keeps of it
/// is the addresses' sha256, 0600 (docs/host.md, "The lobby's help").
#[test]
fn the_lobbys_help_comes_once_a_day_unless_asked() {
    use std::os::unix::fs::PermissionsExt;
    let s = servers();
    let (h, md) = maildir_host(s, "");
    let p = s.account();
    open(&h.dir, "t5", &["--ruleset", "norse-wars", "--seats", "3-4"]);
    let host_addr = h.acct.address.clone();
    let help_line = "standby off                  no longer";
    let ask_line = "Send `help` to this address for the lobby's commands.";
    let mut n = 0;
    let mut ask = |line: &str, minute: i64, want: &str| {
        n += 1;
        let mid = format!("h{n}@p");
        put(
            &md,
            &format!("h{n}"),
            &mail(&p.address, &host_addr, line, &mid, minute, ""),
        );
        h.pass_ok(&at(minute + 1));
        s.wait_for_mails(&p, n);
        let reply = s.mails(&p).into_iter().find(|m| {
            String::from_utf8_lossy(m)
                .lines()
                .any(|l| l.to_ascii_lowercase().starts_with("in-reply-to:") && l.contains(&mid))
        });
        let t = text(&reply.expect("the reply to this mail"));
        assert!(t.contains(want), "{line}: {t}");
        t
    };
    let first = ask("tables", 1, "Open tables");
    assert!(first.contains(help_line), "the day's first reply: {first}");
    let second = ask("join t5 Pat", 3, "confirm ");
    assert!(!second.contains(help_line), "{second}");
    assert!(second.contains(ask_line), "{second}");
    let asked = ask("help", 5, help_line);
    assert!(!asked.contains(ask_line), "{asked}");
    let again = ask("tables", 7, "Open tables");
    assert!(
        !again.contains(help_line) && again.contains(ask_line),
        "{again}"
    );
    let kept = h.dir.join("state/lobby-help");
    let mode = std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let bytes = std::fs::read_to_string(&kept).unwrap();
    assert!(!bytes.contains(&p.address), "{bytes}");
    // The next day: the help again.
    let tomorrow = ask("tables", 24 * 60 + 1, "Open tables");
    assert!(tomorrow.contains(help_line), "{tomorrow}");
}
