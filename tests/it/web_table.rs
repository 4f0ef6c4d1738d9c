//! The lobby on the web (docs/web.md, "The tables"): a table filled half
//! by the page, half by mail, each through the one door; the sign-in link
//! and the codes through the real Postfix and Dovecot.

use crate::common::{herald, scratch};
use crate::composer::{browser, metrics};
use crate::host_mail::{at, mail};
use crate::host_safety::{maildir_host, put};
use crate::lobby::{code_in, open, table_json, wait_for_text};
use crate::mailservers::servers;
use crate::web::{csrf_in, enc, link_in, session_of, Server};
use std::time::Duration;

/// The time now: the server's clock, which the passes after the game's
/// start follow (a game's log goes forward in time).
fn clock() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A newcomer signs in by a link delivered to their mailbox, sees the
/// open tables, joins one on the page (done at once: no code), is refused
/// as a mail would be (the same words, the line to send); a second player
/// joins the same table by mail with a code; the table starts, and the
/// game is on the web player's page. Nothing is written by a form without
/// its CSRF token, and the log names no address.
// Long: one scenario from the sign-in to the started game.
#[test]
fn a_table_fills_half_by_web_half_by_mail_through_the_one_door() {
    let s = servers();
    let (h, md) = maildir_host(s, "");
    let (ann, bob) = (s.account(), s.account());
    open(
        &h.dir,
        "duel",
        &["--ruleset", "hexwar", "--press", "public"],
    );
    let srv = Server::start(&h.dir);

    // The tables, to anyone; the forms only to a signed-in address.
    let (code, _, page) = srv.get("/tables", None);
    assert_eq!(code, 200);
    assert!(page.contains("duel (hexwar): 0 of 2 seats taken"), "{page}");
    assert!(!page.contains("/tables/join"), "{page}");

    // A newcomer (no seat anywhere) gets a link while a table is open:
    // queued in the outbox, sent by the pass through Postfix, read from
    // Dovecot.
    let (code, _, _) = srv.post("/signin", None, &format!("address={}", enc(&ann.address)));
    assert_eq!(code, 200);
    h.pass_ok(&at(1));
    let link = link_in(&wait_for_text(s, &ann, "/signin/")).expect("a sign-in link");
    let (code, head, _) = srv.post(&link, None, "");
    assert_eq!(code, 303, "{head}");
    let id = session_of(&head).unwrap();
    let (_, _, page) = srv.get("/tables", Some(&id));
    assert!(page.contains("action=\"/tables/join\""), "{page}");
    let csrf = csrf_in(&page);

    // Without the token: refused, nothing written.
    let before = std::fs::read(h.dir.join("lobby/duel.json")).unwrap();
    let (code, _, _) = srv.post("/tables/join", Some(&id), "table=duel&name=Ann");
    assert_eq!(code, 403);
    // A side the game has not: the mail's refusal with the line to send.
    let (code, _, body) = srv.post(
        "/tables/join",
        Some(&id),
        &format!("csrf={csrf}&table=duel&name=Ann&prefer=purple"),
    );
    assert_eq!(code, 200);
    assert!(
        body.contains("Refused") && body.contains("cannot be read") && body.contains("join duel"),
        "{body}"
    );
    assert_eq!(
        before,
        std::fs::read(h.dir.join("lobby/duel.json")).unwrap()
    );

    // Joined at once: the session proved the address, no code is mailed.
    let (_, _, body) = srv.post(
        "/tables/join",
        Some(&id),
        &format!(
            "csrf={csrf}&table=DUEL&name={}&public=yes",
            enc("<b>Ann</b>")
        ),
    );
    assert!(
        body.contains("Confirmed: you have seat 1 at table `duel`"),
        "{body}"
    );
    let t = table_json(&h.dir, "duel");
    assert_eq!(t["seats"][0]["address"], ann.address.as_str());
    assert_eq!(t["seats"][0]["name"], "<b>Ann</b>");
    assert_eq!(t["seats"][0]["public"], true);
    let (_, _, body) = srv.post(
        "/tables/join",
        Some(&id),
        &format!("csrf={csrf}&table=duel"),
    );
    assert!(body.contains("You have a seat at `duel` already"), "{body}");
    // The other forms, each the mail's answer.
    for (route, form, want) in [
        ("standby", "on=on", "is on the standby list"),
        ("standby", "on=on", "on the standby list already"),
        ("standby", "on=off", "not on the standby list any more"),
        (
            "takeover",
            "game=nope&player=x",
            "No seat of a game `nope` is free to take over here.",
        ),
        (
            "confirm",
            "code=0000-0000-0000",
            "not one this host is waiting for",
        ),
        ("leave", "table=duel", "you have left table `duel`"),
    ] {
        let (code, _, body) = srv.post(
            &format!("/tables/{route}"),
            Some(&id),
            &format!("csrf={csrf}&{form}"),
        );
        assert_eq!(code, 200);
        assert!(body.contains(want), "{route} {form}: {body}");
    }
    let (_, _, body) = srv.post(
        "/tables/join",
        Some(&id),
        &format!("csrf={csrf}&table=duel&name=Ann"),
    );
    assert!(body.contains("Confirmed: you have seat 1"), "{body}");
    let after_web = table_json(&h.dir, "duel");

    // Pictures of the page, signed in, at a phone's and a desktop's width.
    let b = browser();
    let tab = b.new_tab().unwrap();
    tab.set_default_timeout(Duration::from_secs(30));
    tab.call(
        "Network.setCookie",
        serde_json::json!({"name": "herald_session", "value": id, "url": srv.url("/")}),
    )
    .unwrap();
    for (w, name) in [(375, "phone"), (1280, "desktop")] {
        metrics(&tab, w, 900);
        tab.navigate_to(&srv.url("/tables"))
            .unwrap()
            .wait_until_navigated()
            .unwrap();
        tab.wait_for_element("#web-tables").unwrap();
        let wide = tab
            .evaluate("document.documentElement.scrollWidth", false)
            .unwrap()
            .value
            .unwrap()
            .as_u64()
            .unwrap();
        assert!(wide <= u64::from(w), "{wide} px wide at {w}");
        let png = tab.screenshot(None).unwrap();
        std::fs::write(scratch("web-shots").join(format!("tables-{name}.png")), png).unwrap();
    }

    // Bob joins by mail: a code, confirmed by mail; the table is full and
    // starts.
    let host = h.acct.address.clone();
    put(
        &md,
        "jb",
        &mail(&bob.address, &host, "join duel Bob", "jb@p", 2, ""),
    );
    h.pass_ok(&at(2));
    let code = code_in(&wait_for_text(s, &bob, "confirm ")).unwrap();
    put(
        &md,
        "cb",
        &mail(
            &bob.address,
            &host,
            "x",
            "cb@p",
            3,
            &format!("confirm {code}"),
        ),
    );
    h.pass_ok(&at(3));
    h.pass_ok(&at(4));
    let t = table_json(&h.dir, "duel");
    assert_eq!(t["seats"][0], after_web["seats"][0], "the web seat kept");
    assert_eq!(t["seats"][1]["address"], bob.address.as_str());
    assert_eq!(t["status"], "started", "{t}");
    let (_, _, home) = srv.get("/", Some(&id));
    assert!(home.contains("/games/duel"), "{home}");

    // Played to its end: Ann on the page, Bob by mail. Press from the
    // page reaches Bob's mailbox, and Bob's by mail Ann's page.
    let gdir = h.dir.join("duel");
    let gaddr = h.game_addr("duel");
    let (bid, bpw) = crate::lobby::credentials(&wait_for_text(s, &bob, "Your password:"));
    assert_eq!(bid, "bob");
    let (_, _, gpage) = srv.get("/games/duel", Some(&id));
    let gcsrf = csrf_in(&gpage);
    let (code, _, body) = srv.post(
        "/games/duel/press",
        Some(&id),
        &format!("csrf={gcsrf}&to=all&text={}", enc("Hello from the page")),
    );
    assert_eq!(code, 200);
    assert!(body.contains("Press sent"), "{body}");
    h.pass_ok(&clock());
    wait_for_text(s, &bob, "Hello from the page");
    put(
        &md,
        "pb",
        &mail(
            &bob.address,
            &gaddr,
            "press",
            "pb@p",
            6,
            &format!("press to all\nplayer = \"bob\"\npassword = \"{bpw}\"\n\nHello from the mail"),
        ),
    );
    h.pass_ok(&clock());
    let (_, _, gpage) = srv.get("/games/duel", Some(&id));
    assert!(
        gpage.contains("Hello from the mail"),
        "{}\n{:?}",
        std::fs::read_to_string(h.dir.join("host.log")).unwrap_or_default(),
        s.mails(&bob)
            .iter()
            .map(|m| crate::host_mail::text(m))
            .collect::<Vec<_>>()
            .last()
    );

    // Ann's page stays open; each turn's orders come by the page (Ann's)
    // and by mail (Bob's), and the open page shows the resolved turn
    // without a reload.
    tab.navigate_to(&srv.url("/games/duel"))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    tab.wait_for_element("#web-status").unwrap();
    tab.evaluate("window.heraldMark = 'still here'; true", false)
        .unwrap();
    let (_, g) = herald::pipeline::open(&gdir).unwrap();
    let turn = g.head().turn;
    for seat in g.rules.awaiting(&g.state) {
        let player = g.head().players[seat].id.clone();
        let orders = g.rules.legal_orders(&g.state, seat).remove(0);
        if player == "ann" {
            let file = herald::report::order_file("duel", "ann", turn, "", &orders);
            let (_, _, body) = srv.post(
                "/games/duel/orders",
                Some(&id),
                &format!("csrf={gcsrf}&file={}", enc(&file)),
            );
            assert!(body.contains("ACCEPTED"), "{body}");
        } else {
            let file = herald::report::order_file("duel", &player, turn, &bpw, &orders);
            put(
                &md,
                "ob",
                &mail(&bob.address, &gaddr, "orders", "ob@p", 7, &file),
            );
        }
    }
    h.pass_ok(&clock());
    let start = std::time::Instant::now();
    loop {
        let v = tab
            .evaluate(
                &format!("(document.querySelector('#web-status') || {{getAttribute: () => ''}}).getAttribute('data-turn') === '{}'", turn + 1),
                false,
            )
            .unwrap()
            .value;
        if v == Some(serde_json::json!(true)) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the resolved turn never on the open page"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let mark = tab.evaluate("window.heraldMark", false).unwrap().value;
    assert_eq!(
        mark,
        Some(serde_json::json!("still here")),
        "the page was reloaded"
    );
    // Bob gives up by mail: the game is over.
    put(
        &md,
        "rb",
        &mail(
            &bob.address,
            &gaddr,
            &format!("resign bob {bpw}"),
            "rb@p",
            8,
            "",
        ),
    );
    h.pass_ok(&clock());
    h.pass_ok(&clock());
    let (_, g) = herald::pipeline::open(&gdir).unwrap();
    assert!(g.head().outcome.is_some(), "the game is not over");
    let (code, out, err) = herald(&["verify", &gdir.display().to_string()]);
    assert_eq!(code, 0, "{out}{err}");
    // The archive holds each player's orders in one shape, whichever way
    // they came: no field says web or mail (a mail's Date, `received`,
    // is the record's own word where it has one).
    let j = crate::common::game_json(&gdir);
    let text = j.to_string();
    assert!(
        !text.contains("\"via\"") && !text.contains("web:"),
        "{text}"
    );
    let shapes: Vec<Vec<String>> = j["log"][0]["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            o.as_object()
                .unwrap()
                .keys()
                .filter(|k| *k != "received")
                .cloned()
                .collect()
        })
        .collect();
    assert!(shapes.windows(2).all(|w| w[0] == w[1]), "{shapes:?}");

    // The log: each web request as a lobby line, with no address.
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap_or_default();
    let web: Vec<&str> = log.lines().filter(|l| l.contains("via=web")).collect();
    assert!(
        web.iter()
            .any(|l| l.contains(" in lobby ") && l.contains("seat 1 at duel")),
        "{log}"
    );
    assert!(web.iter().all(|l| !l.contains(&ann.address)), "{log}");
}
