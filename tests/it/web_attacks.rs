//! Attacks on `herald serve` that tests/it/web.rs does not already make
//! (issue 51's list; that file has the CSRF forms, a link used twice,
//! session fixation, script in press and order files, a body too large
//! for the orders, one slow client): a link after its life, a flood of
//! wrong passwords and of sign-in requests counted in the records the
//! mail path counts in, path traversal and oversized bodies in every
//! route, headers too large, a crowd of slow clients. Each refused,
//! nothing written, the server still serving others.

use crate::host_mail::Host;
use crate::mailservers::servers;
use crate::web::{csrf_in, enc, outbox_mails, Server};
use crate::web_events::{seed_sessions, seeded_id};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

/// Every file under `dir` but the log, with its bytes' digest: what an
/// attack must leave as it was.
fn files(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.file_name().is_some_and(|n| n != "host.log") {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                let bytes = std::fs::read(&p).unwrap_or_default();
                out.insert(rel, herald::chain::canon::sha256_hex(&bytes));
            }
        }
    }
    out
}

fn unchanged(before: &BTreeMap<String, String>, dir: &Path, what: &str) {
    let after = files(dir);
    let changed: Vec<&String> = after
        .keys()
        .chain(before.keys())
        .filter(|k| before.get(*k) != after.get(*k))
        .collect();
    assert!(changed.is_empty(), "{what} wrote {changed:?}");
}

/// A host with one HEXWAR game whose budgets are small: three password
/// checks a player an hour, two replies to an address an hour.
fn small_host() -> (Host, Vec<(String, String)>) {
    let h = Host::new(
        servers(),
        "password_checks_per_hour = 3\nreplies_per_hour = 2",
    );
    let pw = h.game(
        "hexwar",
        "g1",
        &[("white", "ann@web.test"), ("black", "bob@web.test")],
        &["--press", "grey"],
    );
    (h, pw)
}

/// A link past its life is refused: no session, nothing but its own
/// removal written. Then every route against path traversal, and every
/// POST route against a body too large, with nothing written.
// Long: one server, the routes one after another.
#[test]
fn expired_links_traversal_and_large_bodies_in_every_route() {
    let (h, _) = small_host();
    let now = chrono::Utc::now().timestamp();
    let old = seeded_id("old-link", 0);
    let ann = seeded_id("ann", 0);
    seed_sessions(
        &h.dir,
        &[(ann.clone(), "ann@web.test".into())],
        &[(old.clone(), "ann@web.test".into(), now - 1)],
    );
    let srv = Server::start(&h.dir);
    let (code, _, _) = srv.get(&format!("/signin/{old}"), None);
    assert_eq!(code, 410, "an expired link's page");
    let (code, head, _) = srv.post(&format!("/signin/{old}"), None, "");
    assert_eq!(code, 410, "an expired link followed");
    assert_eq!(crate::web::session_of(&head), None, "{head}");
    let kept = std::fs::read_to_string(h.dir.join("state/web-sessions.json")).unwrap();
    let sessions: serde_json::Value = serde_json::from_str(&kept).unwrap();
    assert_eq!(sessions["sessions"].as_array().unwrap().len(), 1, "{kept}");

    let csrf = csrf_in(&srv.get("/games/g1", Some(&ann)).2);
    let before = files(&h.dir);
    let secrets = [
        "imap_password",
        "[imap]",
        "password_sha",
        "id_sha256",
        "\"salt\"",
    ];
    let bad = [
        "..",
        "..%2f..%2fhost.secrets.toml",
        "%2e%2e%2f%2e%2e",
        "g1%2f..%2f..%2fhost.toml",
        "g1%00",
        "%2fetc%2fpasswd",
        "..%5c..%5chost.toml",
        "g1%2fsecrets.toml",
    ];
    for b in bad {
        for path in [
            format!("/games/{b}"),
            format!("/games/{b}/events"),
            format!("/signin/{b}"),
            format!("/static/{b}"),
            format!("/moderator/{b}"),
            format!("/{b}"),
        ] {
            let (code, _, body) = srv.get(&path, Some(&ann));
            assert!([404, 410, 400].contains(&code), "GET {path}: {code}");
            assert!(
                !secrets.iter().any(|s| body.contains(s)),
                "GET {path}: {body}"
            );
        }
        for path in [
            format!("/games/{b}/orders"),
            format!("/games/{b}/press"),
            format!("/games/{b}/vacation"),
            format!("/games/{b}/ending"),
            format!("/signin/{b}"),
        ] {
            let (code, _, body) = srv.post(
                &path,
                Some(&ann),
                &format!("csrf={csrf}&file=x&text=x&to=black&act=back"),
            );
            assert!([404, 410, 400].contains(&code), "POST {path}: {code}");
            assert!(
                !secrets.iter().any(|s| body.contains(s)),
                "POST {path}: {body}"
            );
        }
    }
    let (code, _, _) = srv.post(
        "/signin-password",
        None,
        &format!("game={}&player=white&password=x", enc("../g1")),
    );
    assert_eq!(code, 403, "a game named by a path");
    unchanged(&before, &h.dir, "path traversal");

    // A body too large in every POST route: 413, nothing written.
    let big = "x".repeat(100 * 1024);
    for path in [
        "/signin",
        "/signin-password",
        "/signin/".to_string().as_str(),
        "/signout",
        "/signout-everywhere",
        "/games/g1/orders",
        "/games/g1/press",
        "/games/g1/vacation",
        "/games/g1/ending",
    ] {
        let path = if path == "/signin/" {
            format!("/signin/{old}")
        } else {
            path.to_string()
        };
        let (code, _, _) = srv.post(
            &path,
            Some(&ann),
            &format!("csrf={csrf}&address=ann%40web.test&text={big}"),
        );
        assert_eq!(code, 413, "{path}");
    }
    unchanged(&before, &h.dir, "bodies too large");

    // A head too large: refused (431) or the connection closed; nothing
    // written; the server serves on.
    let mut c = TcpStream::connect(("127.0.0.1", srv.port)).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let head = format!(
        "GET /games/g1 HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: herald_session={ann}\r\nX-Big: {}\r\n\r\n",
        "y".repeat(64 * 1024)
    );
    let _ = c.write_all(head.as_bytes());
    let mut got = Vec::new();
    let _ = c.read_to_end(&mut got);
    let got = String::from_utf8_lossy(&got);
    assert!(
        got.is_empty() || got.starts_with("HTTP/1.1 431"),
        "a head too large answered: {}",
        &got[..got.len().min(200)]
    );
    let many: String = (0..2000).map(|k| format!("X-H{k}: v\r\n")).collect();
    let (code, _, _) = srv.request(&format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n{many}Connection: close\r\n\r\n"
    ));
    assert!(code == 0 || code == 431, "two thousand headers: {code}");
    unchanged(&before, &h.dir, "heads too large");
    let (code, _, page) = srv.get("/games/g1", Some(&ann));
    assert_eq!(code, 200);
    assert!(page.contains("web-status"));
}

/// A flood of wrong passwords at the sign-in form spends the seat's
/// budget of password checks, the record the mail path counts in
/// (the game's host state): past it even the right password is refused
/// without being hashed, and quickly. A flood of sign-in requests for an
/// address mails it no more than the host's bound on replies (the
/// record the mail path counts its replies in). Other players are
/// served throughout.
#[test]
fn floods_of_passwords_and_sign_in_requests_meet_the_mail_paths_budgets() {
    let (h, pw) = small_host();
    let srv = Server::start(&h.dir);
    let right = &pw[0].1;
    for k in 0..3 {
        let (code, head, _) = srv.post(
            "/signin-password",
            None,
            &format!("game=g1&player=white&password=wrong{k}"),
        );
        assert_eq!(code, 403, "{head}");
    }
    let st = herald::host::state::GameState::load(
        &h.dir,
        &herald::names::Name::new("game", "g1").unwrap(),
    )
    .unwrap();
    let counted = st.guard.checks.get("white").map_or(0, |v| v.len());
    assert_eq!(counted, 3, "the web's tries are not in the game's budget");
    // past the budget: the right password too is refused, unhashed
    let t = Instant::now();
    for _ in 0..20 {
        let (code, head, _) = srv.post(
            "/signin-password",
            None,
            &format!("game=g1&player=white&password={}", enc(right)),
        );
        assert_eq!(code, 403, "signed in past the budget: {head}");
    }
    let took = t.elapsed();
    assert!(
        took < Duration::from_secs(10),
        "twenty refusals took {took:?}"
    );
    let st = herald::host::state::GameState::load(
        &h.dir,
        &herald::names::Name::new("game", "g1").unwrap(),
    )
    .unwrap();
    assert_eq!(st.guard.checks.get("white").map_or(0, |v| v.len()), 3);
    // the other seat's budget is its own
    let (code, head, _) = srv.post(
        "/signin-password",
        None,
        &format!("game=g1&player=black&password={}", enc(&pw[1].1)),
    );
    assert_eq!(code, 303, "black could not sign in: {head}");

    // Sign-in requests: the bound on replies to one address an hour.
    let before = outbox_mails(&h.dir).len();
    for _ in 0..12 {
        let (code, _, _) = srv.post("/signin", None, "address=ann%40web.test");
        assert_eq!(code, 200);
    }
    let mailed = outbox_mails(&h.dir).len() - before;
    assert_eq!(mailed, 2, "sign-in mails past the bound");
    assert!(
        h.dir.join("state/reply-bound").exists(),
        "not counted in the host's bound"
    );
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap();
    assert!(log.contains("outcome=\"held"), "{log}");
    assert!(!log.contains("ann@web.test"), "an address in the log");
    // bob is served meanwhile
    let bob = srv.sign_in("bob@web.test");
    assert_eq!(srv.get("/games/g1", Some(&bob)).0, 200);
}

/// A crowd of slow clients: 150 connections each sending half a head,
/// and one sending its body a byte at a time. Others are served beside
/// them at once; each slow head is cut within the head's time limit.
#[test]
fn a_crowd_of_slow_clients_holds_nothing() {
    let (h, _) = small_host();
    let ann = seeded_id("ann", 0);
    seed_sessions(&h.dir, &[(ann.clone(), "ann@web.test".into())], &[]);
    let srv = Server::start(&h.dir);
    let before = files(&h.dir);
    let start = Instant::now();
    let mut slow: Vec<TcpStream> = (0..150)
        .map(|_| {
            let mut c = TcpStream::connect(("127.0.0.1", srv.port)).unwrap();
            c.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                .unwrap();
            c
        })
        .collect();
    let csrf = csrf_in(&srv.get("/games/g1", Some(&ann)).2);
    let mut body = TcpStream::connect(("127.0.0.1", srv.port)).unwrap();
    body.write_all(
        format!(
            "POST /games/g1/press HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: herald_session={ann}\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\ncsrf={csrf}&to=black&text="
        )
        .as_bytes(),
    )
    .unwrap();
    for _ in 0..5 {
        let t = Instant::now();
        let (code, _, _) = srv.get("/games/g1", Some(&ann));
        assert_eq!(code, 200);
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "a page beside the slow clients took {:?}",
            t.elapsed()
        );
    }
    // each slow head is cut within the head's time limit (10 s)
    for c in slow.iter_mut() {
        c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut buf = Vec::new();
        let _ = c.read_to_end(&mut buf);
    }
    let held = start.elapsed();
    assert!(held < Duration::from_secs(25), "slow heads held {held:?}");
    // the slow body: a byte a second, cut within the request's limit
    body.set_write_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let t = Instant::now();
    let mut sent = 0;
    while t.elapsed() < Duration::from_secs(45) {
        if body.write_all(b"a").is_err() {
            break;
        }
        sent += 1;
        std::thread::sleep(Duration::from_secs(1));
    }
    assert!(
        t.elapsed() < Duration::from_secs(45),
        "a body a byte a second was never cut ({sent} bytes)"
    );
    unchanged(&before, &h.dir, "slow clients");
    assert_eq!(srv.get("/games/g1", Some(&ann)).0, 200);
}
