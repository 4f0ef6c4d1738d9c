//! The web under load (issue 51; docs/performance.md, "The web"): N
//! signed-in players (default 500, two to a HEXWAR game, real Argon2id
//! passwords) load their game page at once and keep its live events
//! open; then S of them (default 200, one in each of S games) send their
//! orders at once. Every order must be answered ACCEPTED and stored
//! exactly once. Printed: the pages' and the orders' latency (p50, p99,
//! max, as the clients saw it), the server's CPU time in each phase and
//! its peak memory (VmHWM); then the same S orders sent by mail, one
//! `herald host` pass over a Maildir with SMTP to a sink on loopback:
//! its wall and CPU time and peak memory (the pass also resolves the
//! turns the orders complete and mails the reports, as a host does).
//!
//! The load generator is this file: plain threads and blocking sockets
//! from the standard library, one thread a player (no new dependency;
//! the clients share the machine's cores with the server, as a load
//! generator on the same box does). No criterion: one run, its figures.
//!
//! ```text
//! cargo bench --profile dev --bench web_load
//! HERALD_WEB_PLAYERS=500 HERALD_WEB_SENDERS=200 HERALD_BENCH_BIN=/path/to/herald \
//!   cargo bench --profile dev --bench web_load
//! ```
//!
//! `--profile dev` is the build the tests use (herald's code optimised,
//! the web stack as in the release build: see Cargo.toml's profiles);
//! `HERALD_BENCH_BIN` serves with another herald binary (an older build,
//! for a before/after).

use herald::chain::canon::sha256_hex;
use rayon::prelude::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

const T0: &str = "2026-11-24T12:00:00Z";
const DEADLINE: &str = "2026-12-01T12:00:00Z";
const NOW: &str = "2026-11-25T12:00:00Z";

fn env_count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn exe() -> String {
    std::env::var("HERALD_BENCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_herald").to_string())
}

fn id(k: usize) -> String {
    format!("w{k:04}")
}

/// An SMTP server on loopback that takes every mail and discards it.
fn sink() -> (u16, Arc<AtomicUsize>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let mails = Arc::new(AtomicUsize::new(0));
    let m = mails.clone();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let m = m.clone();
            std::thread::spawn(move || {
                let _ = smtp(s, &m);
            });
        }
    });
    (port, mails)
}

fn smtp(s: TcpStream, mails: &AtomicUsize) -> std::io::Result<()> {
    let mut w = s.try_clone()?;
    let mut r = BufReader::new(s);
    w.write_all(b"220 sink ESMTP\r\n")?;
    let mut line = Vec::new();
    loop {
        line.clear();
        if r.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let up = String::from_utf8_lossy(&line).to_ascii_uppercase();
        let cmd = up.trim_end();
        if cmd.starts_with("EHLO") || cmd.starts_with("HELO") {
            w.write_all(b"250-sink\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 AUTH PLAIN LOGIN\r\n")?;
        } else if cmd.starts_with("AUTH") {
            w.write_all(b"235 ok\r\n")?;
        } else if cmd == "DATA" {
            w.write_all(b"354 go on\r\n")?;
            loop {
                line.clear();
                if r.read_until(b'\n', &mut line)? == 0 {
                    return Ok(());
                }
                if line == b".\r\n" || line == b".\n" {
                    break;
                }
            }
            mails.fetch_add(1, Ordering::Relaxed);
            w.write_all(b"250 2.0.0 taken\r\n")?;
        } else if cmd == "QUIT" {
            w.write_all(b"221 bye\r\n")?;
            return Ok(());
        } else {
            w.write_all(b"250 ok\r\n")?;
        }
    }
}

/// One player: their game, seat, address, session id, and (for a
/// sender) the order file with and without its password.
#[derive(Clone)]
struct Player {
    game: String,
    seat: String,
    address: String,
    session: String,
    orders: Option<(String, String)>,
}

/// The host folder: `games` HEXWAR games, their players; host.toml reads
/// `Maildir/` and sends to `port`.
fn template(games: usize, senders: usize, port: u16) -> (PathBuf, Vec<Player>) {
    let dir = std::env::temp_dir().join(format!("herald-bench-web-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.join("Maildir").join(d)).unwrap();
    }
    let t0 = chrono::DateTime::parse_from_rfc3339(T0).unwrap();
    let players: Vec<Vec<Player>> = (0..games)
        .into_par_iter()
        .map(|k| {
            let build = dir.join(format!(".build-{k}"));
            std::fs::create_dir_all(&build).unwrap();
            let out = build.join(id(k));
            let created = herald::pipeline::create(herald::pipeline::NewGame {
                game: "hexwar".into(),
                rules: None,
                players: vec!["red".into(), "blue".into()],
                seed: Some(format!("web-{k}")),
                options: Vec::new(),
                setup: None,
                id: Some(id(k)),
                out: out.clone(),
                key: None,
                now: t0,
                secrets_from_seed: false,
                light_passwords: false,
                mail: herald::pipeline::MailSettings {
                    deadline: Some(DEADLINE.into()),
                    emails: vec![
                        format!("red=red-{k}@players.test"),
                        format!("blue=blue-{k}@players.test"),
                    ],
                    ..Default::default()
                },
            })
            .unwrap();
            std::fs::rename(&out, dir.join(id(k))).unwrap();
            std::fs::remove_dir(&build).unwrap();
            let (_, g) = herald::pipeline::open(&dir.join(id(k))).unwrap();
            let head = g.head();
            let awaited = g.rules.awaiting(&g.state)[0];
            head.players
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let address = format!("{}-{k}@players.test", p.id);
                    let orders = (i == awaited && k < senders).then(|| {
                        let mut r = herald::rng::phase_rng(
                            "bots",
                            &head.id,
                            head.turn,
                            &format!("bot {}", p.id),
                        );
                        let lines =
                            herald::bots::scripted_orders(g.rules.as_ref(), &g.state, i, &mut r);
                        let pw = &created
                            .passwords
                            .iter()
                            .find(|(q, _)| *q == p.id)
                            .unwrap()
                            .1;
                        (
                            herald::report::order_file(&head.id, &p.id, head.turn, "", &lines),
                            herald::report::order_file(&head.id, &p.id, head.turn, pw, &lines),
                        )
                    });
                    Player {
                        game: id(k),
                        seat: p.id.clone(),
                        session: sha256_hex(format!("bench-session-{address}").as_bytes()),
                        address,
                        orders,
                    }
                })
                .collect()
        })
        .collect();
    let a = "herald@host.test";
    std::fs::write(
        dir.join("host.toml"),
        format!(
            "address = \"{a}\"\n[maildir]\npath = \"Maildir\"\n[smtp]\nserver = \"127.0.0.1\"\nport = {port}\nsecurity = \"plain\"\nuser = \"{a}\"\ntimeout = 30\n"
        ),
    )
    .unwrap();
    secret_file(
        &dir.join("host.secrets.toml"),
        b"smtp_password = \"sink\"\n",
    );
    (dir, players.into_iter().flatten().collect())
}

fn secret_file(p: &Path, bytes: &[u8]) {
    use std::os::unix::fs::OpenOptionsExt;
    let _ = std::fs::remove_file(p);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(p)
        .unwrap();
    f.write_all(bytes).unwrap();
}

fn fresh_copy(template: &Path, name: &str) -> PathBuf {
    let d = template.with_extension(name);
    let _ = std::fs::remove_dir_all(&d);
    let ok = std::process::Command::new("cp")
        .arg("-a")
        .arg(template)
        .arg(&d)
        .status()
        .unwrap()
        .success();
    assert!(ok);
    d
}

/// One request on a fresh connection: the status, the body, the time to
/// the last byte.
fn request(port: u16, raw: &str) -> (u16, String, Duration) {
    let t = Instant::now();
    let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    c.write_all(raw.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = c.read_to_end(&mut out);
    let took = t.elapsed();
    let text = String::from_utf8_lossy(&out).into_owned();
    let code = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (code, body, took)
}

/// The server's CPU time so far (user + system) and peak memory (KiB).
fn usage(pid: u32) -> (Duration, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = after.split(' ').collect();
    // SAFETY: sysconf reads a constant of the system.
    let tick = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
    let ticks: u64 = f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap();
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let hwm = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    (Duration::from_millis(ticks * 1000 / tick), hwm)
}

fn pct(v: &mut [Duration], p: f64) -> f64 {
    v.sort();
    let i = ((v.len() as f64 * p).ceil() as usize).clamp(1, v.len()) - 1;
    v[i].as_secs_f64() * 1000.0
}

fn report(what: &str, v: &mut [Duration]) {
    println!(
        "{what}: {} requests, p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        v.len(),
        pct(v, 0.50),
        pct(v, 0.99),
        pct(v, 1.0)
    );
}

fn seed_sessions(dir: &Path, players: &[Player]) {
    let now = chrono::Utc::now().timestamp();
    let s: Vec<serde_json::Value> = players
        .iter()
        .map(|p| {
            serde_json::json!({"id_sha256": sha256_hex(p.session.as_bytes()), "by": "address", "address": p.address, "made": now})
        })
        .collect();
    std::fs::create_dir_all(dir.join("state")).unwrap();
    secret_file(
        &dir.join("state/web-sessions.json"),
        serde_json::to_string(&serde_json::json!({"sessions": s, "links": []}))
            .unwrap()
            .as_bytes(),
    );
}

/// The web run: pages at once (each then holding its live events), then
/// the orders at once; checked; figures printed.
// Long: one whole run, start to checks, each phase a step.
fn web(template: &Path, players: &[Player]) {
    let dir = fresh_copy(template, "web");
    seed_sessions(&dir, players);
    let mut child = std::process::Command::new(exe())
        .args([
            "serve",
            &dir.display().to_string(),
            "--listen",
            "127.0.0.1:0",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    let pid = child.id();
    let (cpu0, _) = usage(pid);

    // The pages, all at once; each player then keeps its events open.
    let go = Arc::new(Barrier::new(players.len()));
    let t = Instant::now();
    let done: Vec<(Duration, TcpStream)> = std::thread::scope(|sc| {
        let hs: Vec<_> = players
            .iter()
            .map(|p| {
                let go = go.clone();
                sc.spawn(move || {
                    go.wait();
                    let (code, body, took) = request(
                        port,
                        &format!(
                            "GET /games/{} HTTP/1.1\r\nHost: b\r\nCookie: herald_session={}\r\nConnection: close\r\n\r\n",
                            p.game, p.session
                        ),
                    );
                    assert_eq!(code, 200, "{body}");
                    assert!(body.contains("web-status"), "{body}");
                    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
                    s.write_all(
                        format!(
                            "GET /games/{}/events HTTP/1.1\r\nHost: b\r\nCookie: herald_session={}\r\n\r\n",
                            p.game, p.session
                        )
                        .as_bytes(),
                    )
                    .unwrap();
                    (took, s)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let pages_wall = t.elapsed();
    let (mut pages, streams): (Vec<Duration>, Vec<TcpStream>) = done.into_iter().unzip();
    std::thread::sleep(Duration::from_secs(2));
    let (cpu1, _) = usage(pid);

    // The orders, all at once.
    let senders: Vec<&Player> = players.iter().filter(|p| p.orders.is_some()).collect();
    let go = Arc::new(Barrier::new(senders.len()));
    let t = Instant::now();
    let mut orders: Vec<Duration> = std::thread::scope(|sc| {
        let hs: Vec<_> = senders
            .iter()
            .map(|p| {
                let go = go.clone();
                sc.spawn(move || {
                    let csrf = sha256_hex(format!("herald/csrf\0{}", p.session).as_bytes());
                    let file = &p.orders.as_ref().unwrap().0;
                    let form = format!("csrf={csrf}&file={}", enc(file));
                    go.wait();
                    let (code, body, took) = request(
                        port,
                        &format!(
                            "POST /games/{}/orders HTTP/1.1\r\nHost: b\r\nCookie: herald_session={}\r\n\
                             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
                            p.game, p.session, form.len()
                        ),
                    );
                    assert_eq!(code, 200, "{body}");
                    assert!(body.contains("are ACCEPTED"), "{body}");
                    took
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let orders_wall = t.elapsed();
    let (cpu2, hwm) = usage(pid);
    drop(streams);
    let _ = child.kill();
    let _ = child.wait();

    // Every order stored once, from the web.
    let log = std::fs::read_to_string(dir.join("host.log")).unwrap_or_default();
    let accepted: std::collections::BTreeSet<(String, String)> = log
        .lines()
        .filter(|l| l.contains(" in accepted ") && l.contains("via=web"))
        .map(|l| {
            let f = |k: &str| {
                l.split(&format!(" {k}="))
                    .nth(1)
                    .and_then(|r| r.split(' ').next())
                    .unwrap_or("")
                    .to_string()
            };
            (f("game"), f("player"))
        })
        .collect();
    let lines = log
        .lines()
        .filter(|l| l.contains(" in accepted ") && l.contains("via=web"))
        .count();
    assert_eq!(lines, senders.len(), "accepted lines");
    assert_eq!(accepted.len(), senders.len(), "accepted once each");
    for p in &senders {
        assert!(
            accepted.contains(&(p.game.clone(), p.seat.clone())),
            "{} {}: no accepted line",
            p.game,
            p.seat
        );
        let stored: Vec<PathBuf> = std::fs::read_dir(dir.join(&p.game).join("orders"))
            .unwrap()
            .flatten()
            .flat_map(|t| std::fs::read_dir(t.path()).unwrap().flatten())
            .map(|e| e.path())
            .collect();
        assert_eq!(stored.len(), 1, "{}: {stored:?}", p.game);
    }
    println!(
        "web: {} players, {} senders; server pid {pid}",
        players.len(),
        senders.len()
    );
    report("web pages (at once)", &mut pages);
    report("web orders (at once)", &mut orders);
    println!(
        "web: pages phase {:.1} s wall, server CPU {:.2} s; orders phase {:.1} s wall, server CPU {:.2} s; server peak memory {} MB",
        pages_wall.as_secs_f64(),
        (cpu1 - cpu0).as_secs_f64(),
        orders_wall.as_secs_f64(),
        (cpu2 - cpu1).as_secs_f64(),
        hwm / 1024
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The same orders by mail: one `herald host` pass; its own rusage.
fn mail(template: &Path, players: &[Player], sent: &AtomicUsize) {
    let dir = fresh_copy(template, "mail");
    let t0 = chrono::DateTime::parse_from_rfc3339(T0).unwrap();
    let mut n = 0;
    for p in players.iter().filter(|p| p.orders.is_some()) {
        let file = &p.orders.as_ref().unwrap().1;
        let date = t0 + chrono::Duration::minutes(60);
        let bytes = format!(
            "From: {}\r\nTo: herald+{}@host.test\r\nSubject: orders\r\nMessage-ID: <{}@players.test>\r\nDate: {}\r\n\
             MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            p.address,
            p.game,
            p.game,
            date.to_rfc2822(),
            file.replace('\n', "\r\n")
        );
        let name = format!("{}.web", p.game);
        std::fs::write(dir.join("Maildir/tmp").join(&name), bytes).unwrap();
        std::fs::rename(
            dir.join("Maildir/tmp").join(&name),
            dir.join("Maildir/new").join(&name),
        )
        .unwrap();
        n += 1;
    }
    let before = sent.load(Ordering::Relaxed);
    let start = Instant::now();
    let child = std::process::Command::new(exe())
        .args(["host", &dir.display().to_string(), "--now", NOW])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own child, not yet waited for.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    let wall = start.elapsed();
    assert_eq!(got, pid);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    let left = std::fs::read_dir(dir.join("Maildir/new")).unwrap().count();
    assert_eq!(left, 0);
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    println!(
        "mail: {n} order mails in one pass ({} mails sent): wall {:.1} s, CPU {:.1} s, peak memory {} MB",
        sent.load(Ordering::Relaxed) - before,
        wall.as_secs_f64(),
        tv(ru.ru_utime) + tv(ru.ru_stime),
        ru.ru_maxrss / 1024
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that is not ours skips.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if !args.is_empty() && !args.iter().any(|a| "web_load".contains(a.as_str())) {
        return;
    }
    let players = env_count("HERALD_WEB_PLAYERS", 500).max(2) / 2 * 2;
    let games = players / 2;
    let senders = env_count("HERALD_WEB_SENDERS", 200).min(games);
    let (port, sent) = sink();
    let t = Instant::now();
    let (template, all) = template(games, senders, port);
    eprintln!(
        "web_load: {games} games made in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    web(&template, &all);
    mail(&template, &all, &sent);
    let _ = std::fs::remove_dir_all(&template);
}
