//! The pages' live events (docs/web.md, "Live"): a page's stream hears
//! orders, press and a resolve; hundreds of open streams share one
//! watcher of the game (one look a second in all, counted by the
//! watcher's line in the host's log); a session's streams are capped; a
//! stream ends when its client goes.

use crate::common::herald;
use crate::web::{csrf_in, enc, host_with_game, Server};
use herald::chain::canon::sha256_hex;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

/// Sessions written into a host folder before its server starts (the
/// server keeps digests only): `(id, address)`; links `(token, address,
/// expires)`.
pub(crate) fn seed_sessions(
    dir: &Path,
    sessions: &[(String, String)],
    links: &[(String, String, i64)],
) {
    use std::os::unix::fs::OpenOptionsExt;
    let now = chrono::Utc::now().timestamp();
    let s: Vec<serde_json::Value> = sessions
        .iter()
        .map(|(id, a)| {
            serde_json::json!({"id_sha256": sha256_hex(id.as_bytes()), "by": "address", "address": a, "made": now})
        })
        .collect();
    let l: Vec<serde_json::Value> = links
        .iter()
        .map(|(t, a, e)| {
            serde_json::json!({"token_sha256": sha256_hex(t.as_bytes()), "address": a, "expires": e})
        })
        .collect();
    std::fs::create_dir_all(dir.join("state")).unwrap();
    let path = dir.join("state/web-sessions.json");
    let _ = std::fs::remove_file(&path);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)
        .unwrap();
    f.write_all(
        serde_json::to_string(&serde_json::json!({"sessions": s, "links": l}))
            .unwrap()
            .as_bytes(),
    )
    .unwrap();
}

/// A session id for seeding: 64 hex digits from `k`.
pub(crate) fn seeded_id(tag: &str, k: usize) -> String {
    sha256_hex(format!("{tag}{k}").as_bytes())
}

/// An open event stream: its connection, what it has read.
pub(crate) struct Stream {
    c: TcpStream,
    pub(crate) got: String,
}

impl Stream {
    /// `GET path` with the session's cookie; the status line's code.
    pub(crate) fn open(srv: &Server, path: &str, cookie: &str) -> (u16, Stream) {
        let mut c = TcpStream::connect(("127.0.0.1", srv.port)).unwrap();
        c.write_all(
            format!(
                "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: herald_session={cookie}\r\nAccept: text/event-stream\r\n\r\n"
            )
            .as_bytes(),
        )
        .unwrap();
        let mut s = Stream {
            c,
            got: String::new(),
        };
        s.read_until("\r\n\r\n", Duration::from_secs(30));
        let code = s
            .got
            .split(' ')
            .nth(1)
            .and_then(|x| x.parse().ok())
            .unwrap_or(0);
        (code, s)
    }

    /// Read until `what` has come (true) or `wait` passed (false).
    pub(crate) fn read_until(&mut self, what: &str, wait: Duration) -> bool {
        let start = Instant::now();
        let mut buf = [0u8; 4096];
        while !self.got.contains(what) {
            let left = wait.saturating_sub(start.elapsed());
            if left.is_zero() {
                return false;
            }
            self.c
                .set_read_timeout(Some(left.max(Duration::from_millis(10))))
                .unwrap();
            match self.c.read(&mut buf) {
                Ok(0) => return self.got.contains(what),
                Ok(n) => self.got.push_str(&String::from_utf8_lossy(&buf[..n])),
                Err(_) => {}
            }
        }
        true
    }
}

fn log_of(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("host.log")).unwrap_or_default()
}

/// A page's stream hears the other player's orders, press sent to the
/// player, and the turn resolved.
#[test]
fn a_pages_stream_hears_orders_press_and_a_resolve() {
    let (h, _) = host_with_game();
    let srv = Server::start(&h.dir);
    let ann = srv.sign_in("ann@web.test");
    let bob = srv.sign_in("bob@web.test");
    let (code, mut s) = Stream::open(&srv, "/games/g1/events", &bob);
    assert_eq!(code, 200, "{}", s.got);
    assert!(
        s.got
            .to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{}",
        s.got
    );
    let ann_csrf = csrf_in(&srv.get("/games/g1", Some(&ann)).2);
    let game = h.dir.join("g1");
    let (_, g) = herald::pipeline::open(&game).unwrap();
    for (p, who) in [("white", &ann), ("black", &bob)] {
        let seat = g.head().player_index(p).unwrap();
        if !g.rules.awaiting(&g.state).contains(&seat) {
            continue;
        }
        let o = g.rules.legal_orders(&g.state, seat).remove(0);
        let file = herald::report::order_file("g1", p, g.head().turn, "", &o);
        let csrf = csrf_in(&srv.get("/games/g1", Some(who)).2);
        let (code, _, body) = srv.post(
            "/games/g1/orders",
            Some(who),
            &format!("csrf={csrf}&file={}", enc(&file)),
        );
        assert_eq!(code, 200);
        assert!(body.contains("ACCEPTED"), "{body}");
    }
    assert!(
        s.read_until("event: orders", Duration::from_secs(20)),
        "no orders event: {}",
        s.got
    );
    let (code, _, body) = srv.post(
        "/games/g1/press",
        Some(&ann),
        &format!("csrf={ann_csrf}&to=black&text=hello"),
    );
    assert_eq!(code, 200, "{body}");
    assert!(
        s.read_until("event: press", Duration::from_secs(20)),
        "no press event: {}",
        s.got
    );
    let (code, out, err) = herald(&["resolve", &game.display().to_string()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        s.read_until("event: turn", Duration::from_secs(20)),
        "no turn event: {}",
        s.got
    );
}

/// 600 open pages of one game (150 sessions, four tabs each) share one
/// watcher: one press reaches every stream; while they are open the
/// watcher looks once a second, not once per stream; a fifth stream of
/// a session is refused (429); when the clients go the streams end and
/// the watcher with them, its log line counting its looks.
#[test]
fn six_hundred_idle_streams_cost_one_look_a_second() {
    let (h, _) = host_with_game();
    let ids: Vec<(String, String)> = (0..150)
        .map(|k| (seeded_id("events", k), "bob@web.test".to_string()))
        .collect();
    let mut all = ids.clone();
    all.push((seeded_id("ann", 0), "ann@web.test".into()));
    seed_sessions(&h.dir, &all, &[]);
    let srv = Server::start(&h.dir);
    let start = Instant::now();
    let mut streams = Vec::new();
    for (id, _) in &ids {
        for _ in 0..4 {
            let (code, s) = Stream::open(&srv, "/games/g1/events", id);
            assert_eq!(code, 200, "{}", s.got);
            streams.push(s);
        }
    }
    let (code, refused) = Stream::open(&srv, "/games/g1/events", &ids[0].0);
    assert_eq!(code, 429, "a fifth stream of a session: {}", refused.got);
    drop(refused);
    // pages are served beside them
    let (code, _, _) = srv.get("/games/g1", Some(&ids[1].0));
    assert_eq!(code, 200);
    std::thread::sleep(Duration::from_secs(3));
    let ann = seeded_id("ann", 0);
    let csrf = csrf_in(&srv.get("/games/g1", Some(&ann)).2);
    let (code, _, body) = srv.post(
        "/games/g1/press",
        Some(&ann),
        &format!("csrf={csrf}&to=black&text=to+all+tabs"),
    );
    assert_eq!(code, 200, "{body}");
    for s in streams.iter_mut() {
        assert!(
            s.read_until("event: press", Duration::from_secs(20)),
            "a stream missed the press: {}",
            s.got
        );
    }
    drop(streams);
    let t = Instant::now();
    let line = loop {
        if let Some(l) = log_of(&h.dir)
            .lines()
            .find(|l| l.contains("web watch-ended") && l.contains("watched=g1"))
        {
            break l.to_string();
        }
        assert!(
            t.elapsed() < Duration::from_secs(40),
            "the watcher did not end when the clients went"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    let open_for = start.elapsed().as_secs();
    let looks: u64 = line
        .split("looks=")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no looks in {line}"));
    assert!(
        looks <= open_for + 2,
        "{looks} looks in {open_for} s with 600 streams: {line}"
    );
    assert!(line.contains("streams=600"), "{line}");
    // a session's streams are its again once its clients went
    let (code, _) = Stream::open(&srv, "/games/g1/events", &ids[0].0);
    assert_eq!(code, 200);
}
