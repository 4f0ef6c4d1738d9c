//! The surge (issue 37): one `herald host` pass over many games with many
//! order mails waiting. See the top of benches/host.rs.

use criterion::Criterion;
use rayon::prelude::*;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const T0: &str = "2026-11-24T12:00:00Z";
const DEADLINE: &str = "2026-12-01T12:00:00Z";
/// The pass: a day after the games began, before any reminder is due.
const NOW: &str = "2026-11-25T12:00:00Z";

fn env_count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn id(k: usize) -> String {
    format!("s{k:04}")
}

/// An SMTP server on loopback that takes every mail and throws it away:
/// EHLO (PIPELINING, 8BITMIME, SMTPUTF8, AUTH PLAIN LOGIN), AUTH, MAIL,
/// RCPT, DATA, RSET, NOOP, QUIT. Counts the mails it took.
pub struct Sink {
    pub port: u16,
    pub mails: Arc<AtomicUsize>,
    pub connections: Arc<AtomicUsize>,
}

impl Sink {
    pub fn start() -> Sink {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let mails = Arc::new(AtomicUsize::new(0));
        let connections = Arc::new(AtomicUsize::new(0));
        let (m, c) = (mails.clone(), connections.clone());
        std::thread::spawn(move || {
            for s in l.incoming().flatten() {
                c.fetch_add(1, Ordering::Relaxed);
                let m = m.clone();
                std::thread::spawn(move || {
                    let _ = serve(s, &m);
                });
            }
        });
        Sink {
            port,
            mails,
            connections,
        }
    }
}

fn serve(s: TcpStream, mails: &AtomicUsize) -> std::io::Result<()> {
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
            w.write_all(
                b"250-sink\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 AUTH PLAIN LOGIN\r\n",
            )?;
        } else if cmd.starts_with("AUTH PLAIN") {
            if cmd == "AUTH PLAIN" {
                w.write_all(b"334 \r\n")?;
                line.clear();
                r.read_until(b'\n', &mut line)?;
            }
            w.write_all(b"235 ok\r\n")?;
        } else if cmd.starts_with("AUTH LOGIN") {
            w.write_all(b"334 VXNlcm5hbWU6\r\n")?;
            line.clear();
            r.read_until(b'\n', &mut line)?;
            w.write_all(b"334 UGFzc3dvcmQ6\r\n")?;
            line.clear();
            r.read_until(b'\n', &mut line)?;
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
            // MAIL, RCPT, RSET, NOOP
            w.write_all(b"250 ok\r\n")?;
        }
    }
}

/// A host folder with `games` HEXWAR games (real password cost) and
/// `mails` order mails waiting in its Maildir; host.toml sends to `port`.
/// Returns the folder and the number of mails a pass must send.
fn template(games: usize, mails: usize, port: u16) -> (PathBuf, usize) {
    let dir = std::env::temp_dir().join(format!("herald-bench-surge-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let maildir = dir.join("Maildir");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(maildir.join(d)).unwrap();
    }
    let t0 = chrono::DateTime::parse_from_rfc3339(T0).unwrap();
    let made: Vec<usize> = (0..games)
        .into_par_iter()
        .map(|k| {
            // Each built in a folder of its own, then moved beside the
            // others: `new` clears stale build folders beside its
            // destination, which would be the other threads' builds.
            let build = dir.join(format!(".build-{k}"));
            std::fs::create_dir_all(&build).unwrap();
            let out = build.join(id(k));
            let created = herald::pipeline::create(herald::pipeline::NewGame {
                game: "hexwar".into(),
                rules: None,
                players: vec!["red".into(), "blue".into()],
                seed: Some(format!("surge-{k}")),
                options: Vec::new(),
                setup: None,
                id: Some(id(k)),
                out: out.clone(),
                key: None,
                now: t0,
                secrets_from_seed: false,
                // the real Argon2id cost: each order mail pays its check
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
            let out = dir.join(id(k));
            let (_, g) = herald::pipeline::open(&out).unwrap();
            let head = g.head();
            let seats = g.rules.awaiting(&g.state);
            let seat = seats[0];
            let player = &head.players[seat].id;
            let mut r =
                herald::rng::phase_rng("bots", &head.id, head.turn, &format!("bot {player}"));
            let lines = herald::bots::scripted_orders(g.rules.as_ref(), &g.state, seat, &mut r);
            let pw = &created
                .passwords
                .iter()
                .find(|(p, _)| p == player)
                .unwrap()
                .1;
            let file = herald::report::order_file(&head.id, player, head.turn, pw, &lines);
            let from = format!("{player}-{k}@players.test");
            let to = format!("herald+{}@host.test", id(k));
            let copies = if k < mails.saturating_sub(games) { 2 } else { 1 };
            for c in 0..copies {
                let date = t0 + chrono::Duration::minutes(60 + c as i64);
                let bytes = format!(
                    "From: {from}\r\nTo: {to}\r\nSubject: orders\r\nMessage-ID: <{k}-{c}@players.test>\r\nDate: {}\r\n\
                     MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
                    date.to_rfc2822(),
                    file.replace('\n', "\r\n")
                );
                let name = format!("{k:05}-{c}.surge");
                let tmp = maildir.join("tmp").join(&name);
                std::fs::write(&tmp, bytes).unwrap();
                std::fs::rename(&tmp, maildir.join("new").join(&name)).unwrap();
            }
            // the turn-0 reports (2), an acknowledgement per mail, the
            // turn-1 reports (2)
            2 + copies + 2
        })
        .collect();
    let a = "herald@host.test";
    std::fs::write(
        dir.join("host.toml"),
        format!(
            "address = \"{a}\"\n[maildir]\npath = \"{m}\"\n[smtp]\nserver = \"127.0.0.1\"\nport = {port}\nsecurity = \"plain\"\nuser = \"{a}\"\ntimeout = 30\n",
            m = maildir.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(dir.join("host.secrets.toml"))
        .unwrap();
    f.write_all(b"smtp_password = \"sink\"\n").unwrap();
    (dir, made.iter().sum())
}

/// What one pass cost the child that ran it.
pub struct Cost {
    pub wall: Duration,
    pub cpu: Duration,
    pub max_rss_kib: i64,
}

/// Run `herald host DIR --now NOW` as a child; its own rusage.
fn pass(dir: &Path, threads: Option<usize>) -> (Cost, String) {
    // The binary built with this bench, or another build's named by
    // HERALD_BENCH_BIN (benches/engine.rs, `bin`).
    let exe = std::env::var("HERALD_BENCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_herald").to_string());
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["host", &dir.display().to_string(), "--now", NOW])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    if let Some(t) = threads {
        cmd.env("RAYON_NUM_THREADS", t.to_string());
    }
    let start = Instant::now();
    let child = cmd.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    // Read the output on threads so the child never blocks on a full pipe.
    let mut out = child.stdout.unwrap();
    let mut err = child.stderr.unwrap();
    let o = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let e = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own child, not yet waited for; the pointers are
    // to live locals.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    let wall = start.elapsed();
    assert_eq!(got, pid);
    let text = format!("{}{}", o.join().unwrap(), e.join().unwrap());
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "herald host failed: {text}"
    );
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    (
        Cost {
            wall,
            cpu: tv(ru.ru_utime) + tv(ru.ru_stime),
            max_rss_kib: ru.ru_maxrss,
        },
        text,
    )
}

fn fresh_copy(template: &Path) -> PathBuf {
    use std::sync::atomic::AtomicUsize;
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = template.with_extension(format!("run-{}", N.fetch_add(1, Ordering::Relaxed)));
    let _ = std::fs::remove_dir_all(&d);
    let ok = std::process::Command::new("cp")
        .arg("-a")
        .arg(template)
        .arg(&d)
        .status()
        .unwrap()
        .success();
    assert!(ok);
    // host.toml names the template's Maildir
    let toml = std::fs::read_to_string(d.join("host.toml")).unwrap();
    std::fs::write(
        d.join("host.toml"),
        toml.replace(
            &template.join("Maildir").display().to_string(),
            &d.join("Maildir").display().to_string(),
        ),
    )
    .unwrap();
    d
}

/// One pass on a fresh copy, checked: every mail handled, every mail sent.
fn one(template: &Path, sink: &Sink, want_sent: usize, threads: Option<usize>) -> Cost {
    let d = fresh_copy(template);
    let before = sink.mails.load(Ordering::Relaxed);
    let (cost, text) = pass(&d, threads);
    let sent = sink.mails.load(Ordering::Relaxed) - before;
    assert_eq!(sent, want_sent, "{text}");
    let left = std::fs::read_dir(d.join("Maildir/new")).unwrap().count();
    assert_eq!(left, 0, "{text}");
    let _ = std::fs::remove_dir_all(&d);
    cost
}

fn print(games: usize, mails: usize, sent: usize, c: &Cost) {
    println!(
        "surge: {games} games, {mails} order mails, {sent} mails sent: wall {:.1} s, CPU {:.1} s ({:.0}% of wall), peak memory {} MB",
        c.wall.as_secs_f64(),
        c.cpu.as_secs_f64(),
        100.0 * c.cpu.as_secs_f64() / c.wall.as_secs_f64(),
        c.max_rss_kib / 1024
    );
}

pub fn benches(c: &mut Criterion) {
    if !super::wanted("surge") {
        return;
    }
    let games = env_count("HERALD_SURGE_GAMES", 10).max(1);
    let mails = env_count("HERALD_SURGE_MAILS", 2 * games).clamp(games, 2 * games);
    let threads = std::env::var("HERALD_SURGE_THREADS")
        .ok()
        .and_then(|v| v.parse().ok());
    let sink = Sink::start();
    let made = Instant::now();
    let (template, want_sent) = template(games, mails, sink.port);
    eprintln!(
        "surge: {games} games and {mails} mails made in {:.1} s",
        made.elapsed().as_secs_f64()
    );
    if std::env::var_os("HERALD_SURGE_ONCE").is_some() {
        let cost = one(&template, &sink, want_sent, threads);
        print(games, mails, want_sent, &cost);
        println!(
            "surge: {} SMTP connections",
            sink.connections.load(Ordering::Relaxed)
        );
    } else {
        let mut g = c.benchmark_group("surge");
        g.sample_size(10);
        g.measurement_time(Duration::from_secs(10));
        g.bench_function(format!("pass_{games}_games_{mails}_mails"), |b| {
            b.iter_custom(|iters| {
                let mut wall = Duration::ZERO;
                for _ in 0..iters {
                    let cost = one(&template, &sink, want_sent, threads);
                    print(games, mails, want_sent, &cost);
                    wall += cost.wall;
                }
                wall
            })
        });
        g.finish();
    }
    let _ = std::fs::remove_dir_all(&template);
}
