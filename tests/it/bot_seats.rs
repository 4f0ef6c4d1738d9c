//! Bot seats in real games (issue 53, item 4): `herald new --bot
//! SEAT=SPEC` and tables with `--bot-seats`. The bot's orders are made
//! from its seat's view through the stand-in's own path, from the game's
//! seed, recorded like anyone's (labelled `bot`), and made again by
//! `verify`; a bot seat has no password, gets no mail and never misses a
//! turn. A lone player plays a whole game by mail against one, through
//! the real Postfix and Dovecot. (The bot seat's view-only path is also
//! in tests/it/playtest.rs's fog tests: `all_orders`.)

use crate::common::{herald, lines, rehash, reseal, scratch, write_lines};
use crate::host_mail::{at, mail, send, status, text, Host, T0};
use crate::mailservers::servers;
use crate::store::{ok, s};
use serde_json::Value;
use std::path::Path;

/// `herald new hexwar` with white a person and black the bot `bot`.
fn new_hexwar(g: &Path, bot: &str, key: &Path) -> String {
    ok(&[
        "new",
        "hexwar",
        "--players",
        "white,black",
        "--bot",
        &format!("black={bot}"),
        "--seed",
        "bot-seat-9",
        "--now",
        T0,
        "--deadline-every",
        "1h",
        "--nmr",
        "bot",
        "--drop-after",
        "0",
        "--key",
        s(key),
        "--light-passwords",
        "--out",
        s(g),
    ])
}

/// Resolve `g` phase by phase, an hour and a minute apart (white's
/// missed orders stood in for), `phases` times or until it ends.
fn resolve_on(g: &Path, phases: usize) -> usize {
    let mut n = 0;
    while n < phases && !ok(&["status", s(g), "--now", T0]).contains("game over") {
        ok(&["resolve", s(g), "--now", &at(61 * (n as i64 + 1))]);
        n += 1;
    }
    n
}

fn phases(g: &Path) -> Vec<Value> {
    lines(g)
        .into_iter()
        .skip(1)
        .map(|l| l["body"].clone())
        .filter(|b| b["kind"] == "phase")
        .collect()
}

#[test]
fn new_refuses_a_bot_seat_it_cannot_play_and_writes_nothing() {
    let d = scratch("bot-seat-refusals");
    let g = d.join("g");
    let new = |game: &str, args: &[&str]| {
        let mut a = vec!["new", game, "--players", "red,blue", "--out", s(&g)];
        a.extend_from_slice(args);
        herald(&a)
    };
    for (game, args, says) in [
        (
            "stack-wars",
            &["--bot", "blue=deep-thought"][..],
            "no bot called",
        ),
        (
            "stack-wars",
            &["--bot", "blue=mcts:1000:prior"],
            "no learned weights",
        ),
        (
            "stack-wars",
            &["--bot", "green=greedy"],
            "not one of the players",
        ),
        ("stack-wars", &["--bot", "blue"], "write it as seat=bot"),
        ("stack-wars", &["--bot", "blue=mcts:50000"], "at most 20000"),
        (
            "stack-wars",
            &["--bot", "red=greedy", "--bot", "blue=random"],
            "every seat is a bot's",
        ),
        (
            "stack-wars",
            &["--bot", "blue=greedy", "--email", "blue=b@example.org"],
            "gets no mail",
        ),
    ] {
        let (code, o, e) = new(game, args);
        assert_eq!(code, 2, "{args:?}: {o}{e}");
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(
            !g.exists(),
            "{args:?}: a refused `new` wrote {}",
            g.display()
        );
    }
    // A refused spec is told with the specs the game takes: HEXWAR's
    // include its learned prior, Stack Wars' do not.
    let (_, _, e) = new("stack-wars", &["--bot", "blue=mcts:0"]);
    assert!(
        e.contains("`random`, `greedy`") && !e.contains(":prior"),
        "{e}"
    );
    let (_, _, e) = new("hexwar", &["--bot", "blue=deep-thought"]);
    assert!(e.contains("mcts:1000:prior"), "{e}");
    // HEXWAR has weights: its prior is a bot a seat may have.
    let out = ok(&[
        "new",
        "hexwar",
        "--players",
        "white,black",
        "--bot",
        "black=MCTS:300:prior",
        "--out",
        s(&g),
        "--light-passwords",
    ]);
    assert!(
        out.contains("bot seat: black, played by the bot `mcts:300:prior`"),
        "{out}"
    );
    assert!(
        !out.contains("  black: "),
        "a bot seat was given a password: {out}"
    );
}

/// Long: one game played to its end, then its records, its reports, its
/// status, its replay and two forgeries looked at in turn.
#[test]
fn a_bot_seat_plays_from_its_view_and_verify_makes_its_orders_again() {
    let d = scratch("bot-seat-game");
    let key = d.join("moderator.key");
    ok(&["keygen", "--out", s(&key)]);
    let g = d.join("g");
    let out = new_hexwar(&g, "mcts:100", &key);
    assert!(out.contains("bot seat: black"), "{out}");
    let n = resolve_on(&g, 200);
    let st = ok(&["status", s(&g), "--now", T0]);
    assert!(st.contains("game over"), "not over after {n} phases: {st}");
    assert!(st.contains("bot seats: black (bot mcts:100)"), "{st}");

    // The genesis names the bot seat; it has no password, no address and
    // nothing in secrets.toml.
    let l = lines(&g);
    assert_eq!(l[0]["head"]["format"], herald::chain::FORMAT);
    assert_eq!(l[1]["body"]["bots"]["black"], "mcts:100");
    let black = l[0]["head"]["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "black")
        .unwrap()
        .clone();
    assert_eq!(black["password"], "");
    assert!(black.get("address_sha256").is_none());
    let secrets = std::fs::read_to_string(g.join("secrets.toml")).unwrap();
    assert!(!secrets.contains("black"), "{secrets}");
    // Every order record of black's is the bot's, made by herald, never a
    // miss; white's are the stand-in's.
    let ph = phases(&g);
    let blacks: Vec<&Value> = ph
        .iter()
        .flat_map(|p| p["orders"].as_array().unwrap())
        .filter(|o| o["player"] == "black")
        .collect();
    assert!(blacks.len() > 2, "{blacks:?}");
    for o in &blacks {
        assert_eq!(o["bot"], "mcts:100", "{o}");
        assert!(o.get("nmr").is_none() && o.get("received").is_none(), "{o}");
        assert!(
            o["text"]
                .as_str()
                .unwrap()
                .starts_with("# herald: orders of the bot seat black (bot `mcts:100`)"),
            "{o}"
        );
    }
    let missed = &l[0]["head"]["missed"];
    let of = |p: &str| {
        missed
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["player"] == p)
            .unwrap()["total"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(of("black"), 0);
    assert!(of("white") > 0, "white sent nothing: its misses count");
    // The reports say which seat is a bot and how strong.
    let turn = l[0]["head"]["turn"].as_u64().unwrap();
    let report =
        std::fs::read_to_string(g.join(format!("reports/turn-{turn:04}/white.txt"))).unwrap();
    assert!(
        report.contains(
            "Bot seats (herald's bots play them, each from its own view): black (bot mcts:100)."
        ),
        "{report}"
    );
    // The replay with the revealed seed makes every bot order again.
    let v = ok(&["verify", s(&g)]);
    assert!(v.contains("ok"), "{v}");

    // Same seed, same orders: a second game from the same arguments.
    let g2 = d.join("g2");
    new_hexwar(&g2, "mcts:100", &key);
    resolve_on(&g2, 200);
    let orders =
        |g: &Path| -> Vec<Value> { phases(g).iter().map(|p| p["orders"].clone()).collect() };
    assert_eq!(orders(&g), orders(&g2), "the same seed gave other orders");

    // A forgery: the first phases of a game whose bot seat was played by
    // `random`, relabelled `mcts:100` (the genesis, the records, their
    // text), signed again with the game's own key: verify names black.
    let f = d.join("forged");
    new_hexwar(&f, "random", &key);
    resolve_on(&f, 4);
    let mut fl = lines(&f);
    fl[1]["body"]["bots"]["black"] = "mcts:100".into();
    for l in fl.iter_mut().skip(2) {
        let Some(list) = l["body"]["orders"].as_array_mut() else {
            continue;
        };
        for o in list.iter_mut().filter(|o| o["player"] == "black") {
            let t = o["text"]
                .as_str()
                .unwrap()
                .replace("`random`", "`mcts:100`");
            o["sha256"] = herald::chain::canon::sha256_hex(t.as_bytes()).into();
            o["text"] = t.into();
            o["bot"] = "mcts:100".into();
        }
    }
    rehash(&mut fl);
    reseal(&f, &mut fl);
    write_lines(&f, &fl);
    let (code, o, e) = herald(&["verify", s(&f)]);
    assert_eq!(code, 1, "{o}{e}");
    assert!(
        e.contains("the orders of black are labelled the bot's (`mcts:100`) but are not what the seat's bot makes"),
        "{e}"
    );
    // Orders for the bot seat recorded as a person's (the label taken
    // off) are refused as sent for a bot seat.
    let mut fl = lines(&g);
    let at = fl
        .iter()
        .position(|l| {
            l["body"]["orders"]
                .as_array()
                .is_some_and(|a| a.iter().any(|o| o["player"] == "black"))
        })
        .unwrap();
    for o in fl[at]["body"]["orders"].as_array_mut().unwrap() {
        if o["player"] == "black" {
            o.as_object_mut().unwrap().remove("bot");
        }
    }
    let u = d.join("unlabelled");
    crate::store::copy_dir(&g, &u);
    rehash(&mut fl);
    reseal(&u, &mut fl);
    write_lines(&u, &fl);
    let (code, o, e) = herald(&["verify", s(&u)]);
    assert_eq!(code, 1, "{o}{e}");
    assert!(
        e.contains("the orders of black, a bot seat (`mcts:100`), are not labelled as the bot's"),
        "{e}"
    );
}

/// A file sent for a bot seat is refused, whoever sends it: the bot's
/// orders are herald's.
#[test]
fn orders_sent_for_a_bot_seat_are_refused() {
    let d = scratch("bot-seat-refused");
    let key = d.join("moderator.key");
    ok(&["keygen", "--out", s(&key)]);
    let g = d.join("g");
    new_hexwar(&g, "greedy", &key);
    let file = d.join("black.txt");
    let id = crate::common::head(&g)["id"].as_str().unwrap().to_string();
    std::fs::write(
        &file,
        herald::report::order_file(&id, "black", 0, "x", &["pass".to_string()]),
    )
    .unwrap();
    let before = std::fs::read(g.join("game.jsonl")).unwrap();
    let (code, o, e) = herald(&["resolve", s(&g), s(&file), "--now", T0]);
    assert_eq!(code, 1, "{o}{e}");
    assert!(e.contains("black is a bot seat (bot `greedy`)"), "{e}");
    assert_eq!(before, std::fs::read(g.join("game.jsonl")).unwrap());
}

/// A table with a bot seat: full when its one person's seat is taken;
/// its game gets the bot seat under the table's name for it.
#[test]
fn a_table_with_a_bot_seat_opens_with_the_people_s_seats_to_take() {
    let d = scratch("bot-seat-table");
    std::fs::write(d.join("host.toml"), "address = \"host@bots.test\"\n").unwrap();
    let out = ok(&[
        "host",
        "open",
        s(&d),
        "duel",
        "--ruleset",
        "hexwar",
        "--bot-seats",
        "hal=mcts:300",
        "--now",
        T0,
    ]);
    assert!(
        out.contains("0 of 1 seats taken, and bot seats hal (bot mcts:300)"),
        "{out}"
    );
    // A bot the game does not take, and more bots than the game has seats.
    for (args, says) in [
        (
            &["--bot-seats", "hal=mcts:1000:prior"][..],
            "no learned weights",
        ),
        (
            &["--bot-seats", "a=greedy,b=greedy"],
            "leave none to a person",
        ),
        (&["--bot-seats", "hal=chess"], "no bot called"),
    ] {
        let mut a = vec![
            "host",
            "open",
            s(&d),
            "t2",
            "--ruleset",
            "stack-wars",
            "--now",
            T0,
        ];
        a.extend_from_slice(args);
        let (code, o, e) = herald(&a);
        assert_eq!(code, 2, "{args:?}: {o}{e}");
        assert!(e.contains(says), "{args:?}: {e}");
    }
    assert!(!d.join("lobby/t2.json").exists());
}

/// A lone player plays a whole game of HEXWAR by mail against a bot of
/// the strength they chose (`mcts:300`), through the real Postfix and
/// Dovecot: their orders by SMTP, a pass after each, which resolves
/// their phase and the bot's after it. The bot seat gets no mail; the
/// player gets every report and the final one; the game verifies.
///
/// Long: one whole game by mail, then what every mailbox and file holds.
#[test]
fn a_lone_player_plays_a_whole_game_by_mail_against_a_bot_seat() {
    let s_ = servers();
    let h = Host::new(s_, "attach_png = false");
    let player = s_.account();
    let id = "wbot";
    let folder = h.dir.join(id);
    let to = h.game_addr(id);
    let email = format!("white={}", player.address);
    let o = ok(&[
        "new",
        "hexwar",
        "--players",
        "white,black",
        "--bot",
        "black=mcts:300",
        "--id",
        id,
        "--out",
        s(&folder),
        "--seed",
        "host-seed-7",
        "--now",
        T0,
        "--moderator",
        &to,
        "--email",
        &email,
        "--deadline-every",
        "48h",
    ]);
    let pw = o
        .lines()
        .find_map(|l| l.trim().strip_prefix("white: "))
        .unwrap()
        .to_string();
    // The first pass sends the turn-0 reports (and plays the bot's phase
    // if the game opens with it).
    h.pass_ok(&at(1));
    let (mut sent, mut minute, mut turns) = (0, 1, 0);
    while !status(&folder).contains("game over") {
        assert!(turns < 120, "the game does not end");
        let (_, g) = herald::pipeline::open(&folder).unwrap();
        let head = g.head();
        let awaited = g.rules.awaiting(&g.state);
        assert_eq!(
            awaited,
            vec![0],
            "a pass leaves the game waiting for white only"
        );
        let mut r = herald::rng::phase_rng("lone", &head.id, head.turn, "white");
        let lines = herald::bots::scripted_orders(g.rules.as_ref(), &g.state, 0, &mut r);
        let file = herald::report::order_file(&head.id, "white", head.turn, &pw, &lines);
        minute += 60;
        let mid = format!("t{turns}@player.test");
        send(
            s_,
            &player.address,
            &to,
            &mail(&player.address, &to, "orders", &mid, minute, &file),
        );
        sent += 1;
        s_.wait_for_mails(&h.acct, sent);
        minute += 1;
        let out = h.pass_ok(&at(minute));
        assert!(out.contains("early"), "turn {turns}: {out}");
        turns += 1;
    }
    let st = status(&folder);
    assert!(st.contains("bot seats: black (bot mcts:300)"), "{st}");
    // The player got an acknowledgement per file, the reports and the
    // final report; the bot seat is named in them.
    let got: Vec<String> = s_
        .wait_for_mails(&player, 2 * sent)
        .iter()
        .map(|m| text(m))
        .collect();
    let count = |what: &str| got.iter().filter(|t| t.contains(what)).count();
    assert_eq!(count("are ACCEPTED"), sent);
    assert!(
        count("Bot seats (herald's bots play them, each from its own view): black (bot mcts:300).")
            >= sent
    );
    assert!(got
        .iter()
        .any(|t| t.contains("final report") && t.contains("The seed is revealed: host-seed-7")));
    // No mail was ever made for the bot seat, and it missed nothing.
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert!(!log.contains("reminded black"), "{log}");
    let l = lines(&folder);
    assert!(l[0]["head"]["missed"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["total"] == 0));
    for e in std::fs::read_dir(folder.join("outbox"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let t = std::fs::read_to_string(e.path()).unwrap_or_default();
        assert!(!t.contains("report for black"), "{t}");
    }
    let v = ok(&["verify", s(&folder)]);
    assert!(v.contains("ok"), "{v}");
    // The finished game's replay site names the bot and its strength.
    let site = std::fs::read_to_string(h.dir.join("gallery").join(id).join("index.html")).unwrap();
    assert!(
        site.contains("bot mcts:300, which played from this seat"),
        "{site}"
    );
}
