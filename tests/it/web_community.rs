//! Resign and draw from a game's web page (issue 52, item 5), and the
//! player's own reliability and ratings on "my games".
//!
//! By mail each of `resign`, `offer draw`, `accept draw` and `decline
//! draw` is a command to the game's address (docs/host.md, "Resign and
//! draw"). On the page they are a form of their own
//! (`POST /games/{game}/ending`, docs/web.md, "Resign and draw") that goes
//! through the same door: the first test holds that the order box still
//! takes order files only (the mail's lines refused there, the game's own
//! `resign` order taken as any order); the second that the page's form
//! ends a game as the mail does, refuses in the page's words, and writes
//! nothing without its CSRF token or, for a resignation, its box ticked;
//! and that "my games" shows the signed-in address its own figures, those
//! `me` and `herald host ratings` give.

use crate::host_mail::{at, Host};
use crate::mailservers::servers;
use crate::web::{csrf_in, enc, outbox_mails, Server};

/// The kinds of the game's log entries.
fn entries(game: &std::path::Path) -> Vec<String> {
    let (_, g) = herald::pipeline::open(game).unwrap();
    g.record
        .entries
        .iter()
        .map(|e| e.decode().unwrap().kind().to_string())
        .collect()
}

#[test]
fn the_web_order_box_takes_the_games_resign_order_and_writes_nothing_for_the_mail_commands() {
    let h = Host::new(servers(), "attach_png = false");
    let pw = h.game(
        "stack-wars",
        "g1",
        &[("black", "ann@web.test"), ("white", "bob@web.test")],
        &[],
    );
    let game = h.dir.join("g1");
    let srv = Server::start(&h.dir);
    let ann = srv.sign_in("ann@web.test");
    let csrf = csrf_in(&srv.get("/games/g1", Some(&ann)).2);
    let file = game.join("game.jsonl");
    let before = std::fs::read(&file).unwrap();
    for line in [
        format!("offer draw black {}", pw[0].1),
        format!("accept draw black {}", pw[0].1),
        format!("decline draw black {}", pw[0].1),
        format!("resign black {}", pw[0].1),
        format!("concede black {}", pw[0].1),
    ] {
        let (code, _, body) = srv.post(
            "/games/g1/orders",
            Some(&ann),
            &format!("csrf={csrf}&file={}", enc(&line)),
        );
        assert_eq!(code, 200, "{line}");
        assert!(body.contains("Orders not accepted"), "{line}: {body}");
        assert!(body.contains("not a valid order file"), "{line}: {body}");
        assert!(!body.contains(&pw[0].1), "{line}: the password echoed");
    }
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the game file changed"
    );
    assert_eq!(entries(&game), ["genesis"]);
    // Stack Wars' own `resign`, an order, in an order file from the page:
    // taken as by mail, and the pass that resolves the turn ends the game.
    let order = herald::report::order_file("g1", "black", 0, "", &["resign".to_string()]);
    let (code, _, body) = srv.post(
        "/games/g1/orders",
        Some(&ann),
        &format!("csrf={csrf}&file={}", enc(&order)),
    );
    assert_eq!(code, 200);
    assert!(body.contains("Orders accepted"), "{body}");
    drop(srv);
    let out = h.pass_ok(&at(5));
    assert!(out.contains("resolved turn 0"), "{out}");
    let (_, g) = herald::pipeline::open(&game).unwrap();
    let o = g.head().outcome.clone().expect("the game is over");
    assert_eq!(o.winners, ["white"], "{o:?}");
    assert!(o.summary.contains("Black resigned"), "{}", o.summary);
    let (code, o, e) = crate::common::herald(&["verify", &game.display().to_string()]);
    assert_eq!(code, 0, "{o}{e}");
}

/// `herald host ratings DIR`'s words for `address` in each pool it has a
/// rating in: `pool: rating ± RD (N game)`, as `me` says them.
fn listed_ratings(dir: &std::path::Path, address: &str) -> Vec<String> {
    let (code, out, err) = crate::common::herald(&["host", "ratings", &dir.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    let mut pool = String::new();
    let mut found = Vec::new();
    for line in out.lines() {
        if line.is_empty() || line.starts_with("ratings from") {
            continue;
        } else if !line.starts_with(' ') {
            pool = line.to_string();
        } else if let Some(words) = line.trim().strip_suffix(address) {
            let words = words.trim();
            let words = words.split_once(". ").map_or(words, |(_, w)| w);
            found.push(format!("{pool}: {}", words.trim()));
        }
    }
    found
}

#[test]
fn resign_and_a_draw_from_the_pages_end_the_games_as_by_mail_and_my_games_shows_the_own_figures() {
    let h = Host::new(servers(), "attach_png = false");
    let pw1 = h.game(
        "stack-wars",
        "g1",
        &[("black", "ann@web.test"), ("white", "bob@web.test")],
        &[],
    );
    h.game(
        "hexwar",
        "g2",
        &[("white", "ann@web.test"), ("black", "bob@web.test")],
        &[],
    );
    let (g1, g2) = (h.dir.join("g1"), h.dir.join("g2"));
    let srv = Server::start(&h.dir);
    let ann = srv.sign_in("ann@web.test");
    let bob = srv.sign_in("bob@web.test");
    let page = srv.get("/games/g1", Some(&ann)).2;
    assert!(page.contains("id=\"web-resign-form\""), "{page}");
    assert!(page.contains("No draw is offered."), "{page}");
    assert!(page.contains("id=\"web-draw-offer\""), "{page}");
    assert!(!page.contains("id=\"web-draw-accept\""), "{page}");
    let csrf = csrf_in(&page);
    let file = g1.join("game.jsonl");
    let before = std::fs::read(&file).unwrap();

    // Without the CSRF token, or with a wrong one: 403, nothing written.
    for form in ["act=resign&confirm=yes", "csrf=0000&act=resign&confirm=yes"] {
        let (code, _, _) = srv.post("/games/g1/ending", Some(&ann), form);
        assert_eq!(code, 403, "{form}");
    }
    // A resignation without its box ticked: refused, nothing written.
    let (code, _, body) = srv.post(
        "/games/g1/ending",
        Some(&ann),
        &format!("csrf={csrf}&act=resign"),
    );
    assert_eq!(code, 200);
    assert!(body.contains("Not done") && body.contains("tick"), "{body}");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the game file changed"
    );
    assert_eq!(entries(&g1), ["genesis"]);

    // Ticked: black resigns, white wins, as by mail; bob is told by mail.
    let (code, _, body) = srv.post(
        "/games/g1/ending",
        Some(&ann),
        &format!("csrf={csrf}&act=resign&confirm=yes"),
    );
    assert_eq!(code, 200);
    assert!(body.contains("<h1>Done</h1>"), "{body}");
    assert!(body.contains("black resigned. The game is over"), "{body}");
    assert_eq!(entries(&g1), ["genesis", "resign", "reveal"]);
    let (_, g) = herald::pipeline::open(&g1).unwrap();
    let o = g.head().outcome.clone().expect("the game is over");
    assert_eq!(o.winners, ["white"], "{o:?}");
    assert!(o.summary.contains("Black resigned"), "{}", o.summary);
    assert!(
        outbox_mails(&g1)
            .iter()
            .any(|m| m.contains("Subject: [g1] resign black") && m.contains("black resigned")),
        "bob is told by mail, as by a mail's `resign`"
    );
    let page = srv.get("/games/g1", Some(&ann)).2;
    assert!(!page.contains("web-ending"), "no form once over: {page}");

    // g2: a draw. Accepting with none offered is refused in the page's words.
    let g2file = g2.join("game.jsonl");
    let before = std::fs::read(&g2file).unwrap();
    let (_, _, body) = srv.post(
        "/games/g2/ending",
        Some(&bob),
        &format!(
            "csrf={}&act=accept",
            csrf_in(&srv.get("/games/g2", Some(&bob)).2)
        ),
    );
    assert!(body.contains("no draw is offered now"), "{body}");
    assert!(body.contains("&quot;Offer a draw&quot;"), "{body}");
    for mail_words in ["REFUSED", "YOUR-PASSWORD", "send `"] {
        assert!(!body.contains(mail_words), "{mail_words}: {body}");
    }
    assert_eq!(std::fs::read(&g2file).unwrap(), before);
    let (_, _, body) = srv.post(
        "/games/g2/ending",
        Some(&ann),
        &format!("csrf={csrf}&act=offer"),
    );
    assert!(body.contains("<h1>Done</h1>"), "{body}");
    let page = srv.get("/games/g2", Some(&bob)).2;
    assert!(page.contains("white offered a draw"), "{page}");
    assert!(page.contains("id=\"web-draw-accept\""), "{page}");
    assert!(page.contains("Decline the draw"), "{page}");
    assert!(!page.contains("id=\"web-draw-offer\""), "{page}");
    let page = srv.get("/games/g2", Some(&ann)).2;
    assert!(page.contains("Withdraw my offer"), "{page}");
    assert!(!page.contains("id=\"web-draw-accept\""), "{page}");
    // A second offer is refused with the buttons to press.
    let (_, _, body) = srv.post(
        "/games/g2/ending",
        Some(&bob),
        &format!(
            "csrf={}&act=offer",
            csrf_in(&srv.get("/games/g2", Some(&bob)).2)
        ),
    );
    assert!(body.contains("white offered a draw already"), "{body}");
    assert!(body.contains("&quot;Accept the draw&quot;"), "{body}");
    let (_, _, body) = srv.post(
        "/games/g2/ending",
        Some(&bob),
        &format!(
            "csrf={}&act=accept",
            csrf_in(&srv.get("/games/g2", Some(&bob)).2)
        ),
    );
    assert!(body.contains("<h1>Done</h1>"), "{body}");
    assert_eq!(entries(&g2), ["genesis", "draw", "draw", "reveal"]);
    let (_, g) = herald::pipeline::open(&g2).unwrap();
    let o = g.head().outcome.clone().expect("the game is over");
    assert!(o.winners.is_empty(), "{o:?}");
    assert!(o.summary.contains("drawn by agreement"), "{}", o.summary);

    // The log says what the mail's line would, with via=web, no address.
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    for what in [
        "command: resign black",
        "command: accept draw black: refused",
        "command: offer draw white",
        "command: accept draw black",
    ] {
        assert!(
            log.lines()
                .any(|l| l.contains(what) && l.contains("via=web")),
            "{what} in {log}"
        );
    }
    assert!(!log.contains("ann@web.test") && !log.contains("bob@web.test"));

    // My games: each address its own figures, as `herald host ratings`
    // lists them and `me` says them; never the other's.
    for (who, addr, other) in [
        (&ann, "ann@web.test", "bob@web.test"),
        (&bob, "bob@web.test", "ann@web.test"),
    ] {
        let home = srv.get("/", Some(who)).2;
        let mine = listed_ratings(&h.dir, addr);
        assert_eq!(mine.len(), 2, "{mine:?}");
        for line in &mine {
            assert!(
                home.contains(&format!("<li>{line}</li>")),
                "{line} in {home}"
            );
        }
        for line in listed_ratings(&h.dir, other) {
            if !mine.contains(&line) {
                assert!(!home.contains(&line), "{other}'s {line} on {addr}'s page");
            }
        }
        assert!(
            home.contains("no phase played yet (0 excused; 0 games)"),
            "{home}"
        );
    }
    let home = srv.get("/", Some(&ann)).2;
    assert!(home.contains("stack-wars: 1338 ± 290 (1 game)"), "{home}");
    assert!(home.contains("hexwar: 1500 ± 290 (1 game)"), "{home}");
    // A session signed in by a game's password holds one seat, no address:
    // no figures.
    let (code, head, _) = srv.post(
        "/signin-password",
        None,
        &format!("game=g1&player=black&password={}", enc(&pw1[0].1)),
    );
    assert_eq!(code, 303, "{head}");
    let seat = crate::web::session_of(&head).unwrap();
    let home = srv.get("/", Some(&seat)).2;
    assert!(home.contains("sign in with a link"), "{home}");
    assert!(
        !home.contains("web-reliability") && !home.contains("1338"),
        "{home}"
    );
    drop(srv);
    for g in [&g1, &g2] {
        let (code, o, e) = crate::common::herald(&["verify", &g.display().to_string()]);
        assert_eq!(code, 0, "{o}{e}");
    }
}
