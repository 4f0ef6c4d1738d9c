//! `herald serve` (docs/web.md): a player signs in by the link the host
//! mails and sends orders by taps in real headless Chromium; and the
//! attacks a server on the open web meets, each refused with nothing
//! written and the server still serving.

use crate::browser::Tab;
use crate::common::{herald, scratch};
use crate::composer::{browser, Page};
use crate::host_mail::Host;
use crate::mailservers::servers;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `herald serve DIR --listen 127.0.0.1:0`, stopped when dropped.
pub(crate) struct Server {
    child: Child,
    pub(crate) port: u16,
    pub(crate) dir: PathBuf,
}

impl Server {
    pub(crate) fn start(dir: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
            .args([
                "serve",
                &dir.display().to_string(),
                "--listen",
                "127.0.0.1:0",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("herald serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Server {
            child,
            port,
            dir: dir.to_path_buf(),
        }
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// One HTTP/1.1 request; the status, the head and the body.
    pub(crate) fn request(&self, raw: &str) -> (u16, String, String) {
        let mut c = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(40))).unwrap();
        c.write_all(raw.as_bytes()).unwrap();
        let mut out = Vec::new();
        let _ = c.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        (status, head.to_string(), body.to_string())
    }

    pub(crate) fn get(&self, path: &str, cookie: Option<&str>) -> (u16, String, String) {
        let c = cookie.map_or(String::new(), |c| format!("Cookie: herald_session={c}\r\n"));
        self.request(&format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{c}Connection: close\r\n\r\n"
        ))
    }

    pub(crate) fn post(
        &self,
        path: &str,
        cookie: Option<&str>,
        form: &str,
    ) -> (u16, String, String) {
        let c = cookie.map_or(String::new(), |c| format!("Cookie: herald_session={c}\r\n"));
        self.request(&format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{c}Content-Type: application/x-www-form-urlencoded\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{form}",
            form.len()
        ))
    }

    /// Sign in as `address` by the mailed link, without a browser: the
    /// session id.
    pub(crate) fn sign_in(&self, address: &str) -> String {
        let link = self.ask_link(address).expect("a sign-in link mailed");
        let (code, head, _) = self.post(&link, None, "");
        assert_eq!(code, 303, "{head}");
        session_of(&head).expect("a session cookie")
    }

    /// Ask for a link for `address`: the path of the link mailed, if one was.
    pub(crate) fn ask_link(&self, address: &str) -> Option<String> {
        let before = outbox_mails(&self.dir).len();
        let (code, _, _) = self.post("/signin", None, &format!("address={}", enc(address)));
        assert_eq!(code, 200);
        let mails = outbox_mails(&self.dir);
        (mails.len() > before).then(|| link_in(&mails[mails.len() - 1]).expect("a link"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A form value, percent-encoded.
pub(crate) fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The session id a response's Set-Cookie gives.
pub(crate) fn session_of(head: &str) -> Option<String> {
    head.lines()
        .find(|l| {
            l.to_ascii_lowercase()
                .starts_with("set-cookie: herald_session=")
        })
        .and_then(|l| l.split_once('=').map(|(_, v)| v))
        .and_then(|v| v.split(';').next())
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

/// The host's outbox mails, oldest first (by name is by digest: sorted by
/// modification time instead).
pub(crate) fn outbox_mails(dir: &Path) -> Vec<String> {
    let mut v: Vec<(std::time::SystemTime, String)> = std::fs::read_dir(dir.join("outbox"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .map(|e| {
            (
                e.metadata().unwrap().modified().unwrap(),
                crate::host_mail::text(&std::fs::read(e.path()).unwrap()),
            )
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v.into_iter().map(|(_, t)| t).collect()
}

/// The path of the sign-in link in a mail's text.
pub(crate) fn link_in(text: &str) -> Option<String> {
    let at = text.find("/signin/")?;
    let token: String = text[at + 8..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    (token.len() == 64).then(|| format!("/signin/{token}"))
}

/// The CSRF token in a page's forms.
pub(crate) fn csrf_in(html: &str) -> String {
    let at = html.find("name=\"csrf\" value=\"").expect("a CSRF field");
    html[at + 19..].split('"').next().unwrap().to_string()
}

/// A host folder with one HEXWAR game of two players with addresses.
pub(crate) fn host_with_game() -> (Host, String) {
    let h = Host::new(servers(), "");
    let pw = h.game(
        "hexwar",
        "g1",
        &[("white", "ann@web.test"), ("black", "bob@web.test")],
        &["--press", "grey"],
    );
    (h, pw[0].1.clone())
}

fn stored_orders(game: &Path) -> usize {
    std::fs::read_dir(game.join("orders"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|d| std::fs::read_dir(d.path()).map_or(0, |r| r.count()))
        .sum()
}

fn wait_for(tab: &Tab, expr: &str, what: &str) {
    let start = Instant::now();
    loop {
        let v = tab.evaluate(expr, false).unwrap();
        if v.value.as_ref().and_then(|v| v.as_bool()) == Some(true) {
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "{what}: never");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Sign in by the mailed link in the browser, open the game, compose
/// orders by tapping the board, send them: the page shows the mail's
/// answer with the receipt the stored orders hold, the same words are
/// queued as a mail when asked, `herald verify` passes; then the other
/// player's page, left open, shows the resolved turn without a reload.
// Long: one whole scenario, signing in to the resolved turn.
#[test]
fn a_player_signs_in_by_link_and_sends_orders_by_taps() {
    let (h, _) = host_with_game();
    let srv = Server::start(&h.dir);
    let game = h.dir.join("g1");
    let b = browser();
    let tab = b.new_tab().unwrap();
    tab.set_default_timeout(Duration::from_secs(30));
    tab.navigate_to(&srv.url("/"))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    tab.wait_for_element("input[name=address]").unwrap();
    tab.evaluate(
        "document.querySelector('input[name=address]').value = 'Ann@Web.test'; \
         document.querySelector('form[action=\"/signin\"]').submit(); true",
        false,
    )
    .unwrap();
    let start = Instant::now();
    let link = loop {
        if let Some(l) = outbox_mails(&h.dir).iter().find_map(|m| link_in(m)) {
            break l;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no sign-in mail");
        std::thread::sleep(Duration::from_millis(100));
    };
    let raw: Vec<String> = std::fs::read_dir(h.dir.join("outbox"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .map(|e| String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned())
        .collect();
    assert_eq!(raw.len(), 1, "one sign-in mail");
    assert!(raw[0].contains("To: <ann@web.test>"), "{}", raw[0]);
    tab.navigate_to(&srv.url(&link))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    tab.wait_for_element("#web-signin")
        .unwrap()
        .click()
        .unwrap();
    tab.wait_for_element("#web-games a[href=\"/games/g1\"]")
        .unwrap()
        .click()
        .unwrap();
    tab.wait_for_element("#composer.live, #composer.idle")
        .unwrap();
    let html = tab
        .evaluate("document.documentElement.outerHTML", false)
        .unwrap()
        .value
        .unwrap()
        .as_str()
        .unwrap()
        .to_string();
    let (_, g) = herald::pipeline::open(&game).unwrap();
    let seat = g.head().player_index("white").unwrap();
    assert!(g.rules.awaiting(&g.state).contains(&seat));
    let orders = g.rules.legal_orders(&g.state, seat).remove(0);
    let page = Page::on_tab(tab.clone(), &html, srv.url("/games/g1"));
    page.compose(&orders);
    tab.evaluate(
        "document.querySelector('input[name=mail]').checked = true; true",
        false,
    )
    .unwrap();
    for (w, name) in [(375, "phone"), (1280, "desktop")] {
        crate::composer::metrics(&tab, w, 900);
        let png = tab.screenshot(None).unwrap();
        std::fs::write(scratch("web-shots").join(format!("game-{name}.png")), png).unwrap();
    }
    tab.wait_for_element("#web-send-button")
        .unwrap()
        .click()
        .unwrap();
    let answer = tab.wait_for_element("#web-answer").unwrap();
    let _ = answer;
    let words = tab
        .evaluate("document.getElementById('web-answer').textContent", false)
        .unwrap()
        .value
        .unwrap()
        .as_str()
        .unwrap()
        .to_string();
    assert!(words.contains("are ACCEPTED"), "{words}");
    for o in &orders {
        assert!(words.contains(o.as_str()), "{o} not echoed: {words}");
    }
    let turn = g.head().turn;
    let stored: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(game.join(format!("orders/turn-{turn:04}/white.json"))).unwrap(),
    )
    .unwrap();
    assert!(
        words.contains(stored["signature"].as_str().unwrap()),
        "{words}"
    );
    assert_eq!(stored["from"], "ann@web.test");
    // the same words, mailed to the player as asked
    let queued: Vec<String> = std::fs::read_dir(game.join("outbox"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .map(|e| crate::host_mail::text(&std::fs::read(e.path()).unwrap()))
        .collect();
    assert!(
        queued
            .iter()
            .any(|m| m.contains(stored["signature"].as_str().unwrap())
                && m.contains(&format!(
                    "Your orders as white for turn {turn} are ACCEPTED"
                ))),
        "no answer mail: {queued:?}"
    );
    let (code, out, err) = herald(&["verify", &game.display().to_string()]);
    assert_eq!(code, 0, "{out}{err}");

    // Bob's page, open, is told when the turn resolves: no reload.
    let bob = srv.sign_in("bob@web.test");
    let tab2 = b.new_tab().unwrap();
    tab2.set_default_timeout(Duration::from_secs(30));
    tab2.call(
        "Network.setCookie",
        serde_json::json!({"name": "herald_session", "value": bob, "url": srv.url("/")}),
    )
    .unwrap();
    tab2.navigate_to(&srv.url("/games/g1"))
        .unwrap()
        .wait_until_navigated()
        .unwrap();
    tab2.wait_for_element("#web-status").unwrap();
    tab2.evaluate("window.heraldMark = 'still here'; true", false)
        .unwrap();
    let g = herald::pipeline::open(&game).unwrap().1;
    let bseat = g.head().player_index("black").unwrap();
    if g.rules.awaiting(&g.state).contains(&bseat) {
        let bo = g.rules.legal_orders(&g.state, bseat).remove(0);
        let csrf = csrf_in(&srv.get("/games/g1", Some(&bob)).2);
        let file = herald::report::order_file("g1", "black", g.head().turn, "", &bo);
        let (code, _, body) = srv.post(
            "/games/g1/orders",
            Some(&bob),
            &format!("csrf={csrf}&file={}", enc(&file)),
        );
        assert_eq!(code, 200);
        assert!(body.contains("ACCEPTED"), "{body}");
    }
    let (code, out, err) = herald(&["resolve", &game.display().to_string()]);
    assert_eq!(code, 0, "{out}{err}");
    wait_for(
        &tab2,
        &format!("document.querySelector('#web-status') && document.querySelector('#web-status').getAttribute('data-turn') === '{}'", turn + 1),
        "the resolved turn on the open page",
    );
    let mark = tab2.evaluate("window.heraldMark", false).unwrap().value;
    assert_eq!(
        mark,
        Some(serde_json::json!("still here")),
        "the page was reloaded"
    );
    let (code, out, err) = herald(&["verify", &game.display().to_string()]);
    assert_eq!(code, 0, "{out}{err}");
    let _: Arc<Tab> = tab2;
}

/// Attacks on the server: each refused, nothing written, and the server
/// still serving.
// Long: one server, every attack in turn against it.
#[test]
fn attacks_are_refused_and_the_server_keeps_serving() {
    let (h, _) = host_with_game();
    let srv = Server::start(&h.dir);
    let game = h.dir.join("g1");

    // Security headers on every response, a page or a refusal.
    for (code, head, _) in [srv.get("/", None), srv.get("/nowhere", None)] {
        assert!(code == 200 || code == 404);
        let lower = head.to_ascii_lowercase();
        for want in [
            "content-security-policy: default-src 'none'",
            "referrer-policy: no-referrer",
            "x-frame-options: deny",
            "frame-ancestors 'none'",
        ] {
            assert!(lower.contains(want), "{want} missing: {head}");
        }
        assert!(!lower.contains("unsafe-eval"));
    }

    // No address oracle: the same answer for a player and a stranger;
    // only the player is mailed.
    let before = outbox_mails(&h.dir).len();
    let (_, _, stranger) = srv.post("/signin", None, "address=eve%40else.test");
    assert_eq!(outbox_mails(&h.dir).len(), before, "a stranger was mailed");
    let (_, _, player) = srv.post("/signin", None, "address=ann%40web.test");
    assert_eq!(stranger, player, "the answer tells who plays");
    assert_eq!(outbox_mails(&h.dir).len(), before + 1);

    // A link works once.
    let link = link_in(&outbox_mails(&h.dir).pop().unwrap()).unwrap();
    // session fixation: a session id the browser brings is never kept
    let planted = "ab".repeat(32);
    let (code, head, _) = srv.post(&link, Some(&planted), "");
    assert_eq!(code, 303, "{head}");
    let ann = session_of(&head).unwrap();
    assert_ne!(ann, planted);
    let (_, _, home) = srv.get("/", Some(&planted));
    assert!(
        home.contains("Mail me a sign-in link"),
        "the planted id signs in"
    );
    let (code, _, _) = srv.post(&link, None, "");
    assert_eq!(code, 410, "a link used twice");
    let (code, _, _) = srv.get(&link, None);
    assert_eq!(code, 410);

    // CSRF: no token, another session's token: refused, nothing stored.
    let bob = srv.sign_in("bob@web.test");
    let (_, _, page) = srv.get("/games/g1", Some(&ann));
    let ann_csrf = csrf_in(&page);
    let bob_csrf = csrf_in(&srv.get("/games/g1", Some(&bob)).2);
    assert_ne!(ann_csrf, bob_csrf);
    let (_, g) = herald::pipeline::open(&game).unwrap();
    let seat = g.head().player_index("white").unwrap();
    let orders = g.rules.legal_orders(&g.state, seat).remove(0);
    let file = enc(&herald::report::order_file(
        "g1",
        "white",
        g.head().turn,
        "",
        &orders,
    ));
    for form in [
        format!("file={file}"),
        format!("csrf={bob_csrf}&file={file}"),
    ] {
        let (code, _, _) = srv.post("/games/g1/orders", Some(&ann), &form);
        assert_eq!(code, 403, "{form}");
    }
    let (code, _, _) = srv.post(
        "/games/g1/orders",
        None,
        &format!("csrf={ann_csrf}&file={file}"),
    );
    assert_eq!(code, 403, "no session");
    assert_eq!(stored_orders(&game), 0, "orders stored by a forged form");
    let (code, _, _) = srv.post("/signout", Some(&ann), "csrf=");
    assert_eq!(code, 403);
    assert!(
        srv.get("/", Some(&ann)).2.contains("My games"),
        "signed out by a forged form"
    );

    // Path traversal in every route: nothing outside the routes served.
    for path in [
        "/games/..%2fhost.secrets.toml",
        "/games/../host.secrets.toml",
        "/games/g1%2f..%2f..%2fhost.toml",
        "/games/g1/../../host.toml",
        "/static/..%2f..%2fhost.toml",
        "/static/web.js/../../host.toml",
        "/signin/..%2f..%2fstate%2fweb-sessions.json",
        "/games/%2e%2e/events",
        "/games/g1/events/..%2f..",
    ] {
        let (code, _, body) = srv.get(path, Some(&ann));
        assert!(code == 404 || code == 410 || code == 303, "{path}: {code}");
        assert!(
            !body.contains("imap_password") && !body.contains("[imap]"),
            "{path}: {body}"
        );
    }

    // A body too large: refused before it is read whole.
    let big = format!("csrf={ann_csrf}&file={}", "x".repeat(200 * 1024));
    let (code, _, _) = srv.post("/games/g1/orders", Some(&ann), &big);
    assert_eq!(code, 413);
    assert_eq!(stored_orders(&game), 0);

    // Script in what a player writes: shown as text. An order file with
    // a script in it is refused, its words escaped on the page.
    let (code, _, body) = srv.post(
        "/games/g1/orders",
        Some(&ann),
        &format!("csrf={ann_csrf}&file={}", enc("<script>alert(1)</script>")),
    );
    assert_eq!(code, 200);
    assert!(body.contains("not accepted"), "{body}");
    assert!(!body.contains("<script>alert"), "{body}");
    assert_eq!(stored_orders(&game), 0);

    // Press from the page: relayed through the door (mailed to bob by
    // the game's outbox), and on bob's page as text, never as markup.
    let hostile = "<script>alert('press')</script><img src=x onerror=alert(1)> hello bob";
    let (code, _, body) = srv.post(
        "/games/g1/press",
        Some(&ann),
        &format!("csrf={ann_csrf}&to=black&text={}", enc(hostile)),
    );
    assert_eq!(code, 200);
    assert!(body.contains("Press sent"), "{body}");
    let relayed = std::fs::read_dir(game.join("outbox"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read(e.path()).unwrap())
        .any(|m| {
            String::from_utf8_lossy(&m).contains("To: <bob@web.test>")
                && crate::host_mail::text(&m).contains("hello bob")
        });
    assert!(relayed, "no press mail to bob");
    let (_, head, bob_page) = srv.get("/games/g1", Some(&bob));
    assert!(bob_page.contains("hello bob"), "bob does not see the press");
    assert!(
        !bob_page.contains("<script>alert") && !bob_page.contains("<img src=x"),
        "press as markup on the page"
    );
    let csp = head
        .lines()
        .find(|l| {
            l.to_ascii_lowercase()
                .starts_with("content-security-policy:")
        })
        .unwrap()
        .to_string();
    assert!(csp.contains("script-src 'self' 'sha256-"), "{csp}");
    assert!(
        !csp.contains("unsafe-inline') ") && !csp.contains("script-src 'self' 'unsafe-inline'")
    );
    // press with another session's token: refused, nothing relayed
    let before = std::fs::read_dir(game.join("outbox")).unwrap().count();
    let (code, _, _) = srv.post(
        "/games/g1/press",
        Some(&ann),
        &format!("csrf={bob_csrf}&to=black&text=forged"),
    );
    assert_eq!(code, 403);
    assert_eq!(
        std::fs::read_dir(game.join("outbox")).unwrap().count(),
        before
    );

    // Vacation and back from the page, through the door.
    let until = (chrono::Utc::now() + chrono::Duration::days(3))
        .format("%Y-%m-%d")
        .to_string();
    let (code, _, body) = srv.post(
        "/games/g1/vacation",
        Some(&ann),
        &format!("csrf={ann_csrf}&act=vacation&until={until}"),
    );
    assert_eq!(code, 200);
    assert!(body.contains("Vacation granted for white"), "{body}");
    let (code, _, body) = srv.post(
        "/games/g1/vacation",
        Some(&ann),
        &format!("csrf={ann_csrf}&act=back"),
    );
    assert_eq!(code, 200);
    assert!(body.contains("Welcome back, white"), "{body}");
    let (code, _, _) = srv.post(
        "/games/g1/vacation",
        Some(&ann),
        &format!("csrf={bob_csrf}&act=vacation&until={until}"),
    );
    assert_eq!(code, 403, "a vacation by another session's token");

    // A slow client holding a connection open with half a request is
    // cut off, and others are served meanwhile.
    let mut slow = TcpStream::connect(("127.0.0.1", srv.port)).unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .unwrap();
    let start = Instant::now();
    let (code, _, _) = srv.get("/", None);
    assert_eq!(code, 200, "served beside the slow client");
    slow.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut buf = Vec::new();
    let _ = slow.read_to_end(&mut buf);
    let held = start.elapsed();
    assert!(
        held < Duration::from_secs(20),
        "a slow client held its connection {held:?}"
    );

    // The right form still works: the server serves on.
    let (code, _, body) = srv.post(
        "/games/g1/orders",
        Some(&ann),
        &format!("csrf={ann_csrf}&file={file}"),
    );
    assert_eq!(code, 200);
    assert!(body.contains("ACCEPTED"), "{body}");
    assert_eq!(stored_orders(&game), 1);

    // Sign out everywhere ends every session of the address.
    let ann2 = srv.sign_in("ann@web.test");
    let (code, _, _) = srv.post(
        "/signout-everywhere",
        Some(&ann),
        &format!("csrf={ann_csrf}"),
    );
    assert_eq!(code, 303);
    for s in [&ann, &ann2] {
        assert!(srv.get("/", Some(s)).2.contains("Mail me a sign-in link"));
    }
    assert!(
        srv.get("/", Some(&bob)).2.contains("My games"),
        "bob signed out too"
    );

    // The sessions file: 0600, digests only; the log: no address, no token.
    use std::os::unix::fs::PermissionsExt;
    let sessions = h.dir.join("state/web-sessions.json");
    let mode = std::fs::metadata(&sessions).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let text = std::fs::read_to_string(&sessions).unwrap();
    assert!(!text.contains(&bob) && !text.contains(&link[8..]));
    let log = std::fs::read_to_string(h.dir.join("host.log")).unwrap_or_default();
    for secret in [
        bob.as_str(),
        ann.as_str(),
        &link[8..],
        "@web.test",
        "eve@else.test",
    ] {
        assert!(!log.contains(secret), "{secret} in the log");
    }
    assert!(log.contains("web request"), "requests not logged: {log}");
}

/// `herald host DIR --watch --serve ADDR`: the server beside the passes
/// in one process; the sign-in link goes out through the real Postfix
/// and is read from the player's Dovecot mailbox, and following it signs
/// in; SIGTERM stops both.
#[test]
fn host_watch_serve_mails_the_link_through_the_real_servers() {
    let s = servers();
    let h = Host::new(s, "");
    let player = s.account();
    h.game(
        "hexwar",
        "w1",
        &[("white", &player.address), ("black", "bob@web.test")],
        &[],
    );
    let mut c = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args([
            "host",
            &h.dir.display().to_string(),
            "--watch",
            "--serve",
            "127.0.0.1:0",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(c.stdout.take().unwrap());
    let port: u16 = loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "no serving line");
        if let Some(rest) = line.split("on http://127.0.0.1:").nth(1) {
            break rest
                .split(|ch: char| !ch.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap();
        }
    };
    // keep reading the passes' lines so the pipe never fills
    std::thread::spawn(move || for _ in out.lines() {});
    let srv = Server {
        child: Command::new("true").spawn().unwrap(),
        port,
        dir: h.dir.clone(),
    };
    let (code, _, _) = srv.post(
        "/signin",
        None,
        &format!("address={}", enc(&player.address)),
    );
    assert_eq!(code, 200);
    let start = Instant::now();
    let link = loop {
        let found = s
            .mails(&player)
            .iter()
            .find_map(|m| link_in(&crate::host_mail::text(m)));
        if let Some(l) = found {
            break l;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no sign-in mail delivered"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    let (code, head, _) = srv.post(&link, None, "");
    assert_eq!(code, 303, "{head}");
    let id = session_of(&head).unwrap();
    let (_, _, home) = srv.get("/", Some(&id));
    assert!(home.contains("/games/w1"), "{home}");
    unsafe {
        libc::kill(c.id() as i32, libc::SIGTERM);
    }
    let t = Instant::now();
    loop {
        if let Some(st) = c.try_wait().unwrap() {
            assert!(st.success(), "{st:?}");
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(30), "did not stop");
        std::thread::sleep(Duration::from_millis(50));
    }
}
