//! `herald host`'s game-time work and status page over many games.
//!
//! Run with `cargo bench --features bench --bench host --profile test` (no fat LTO).
//!
//! Groups:
//! - `due/idle_pass_1000_games`: `host::due::run` on 1,000 HEXWAR game
//!   folders in one host folder, one after another, when nothing changed
//!   and nothing is due (issue 19: an idle pass over 1,000 games < 1 s).
//!   Each game was run once before, so its host state holds the summary
//!   and fingerprint; the games are not opened.
//! - `status_page/1000_games`: every game's host state read and
//!   `host::status_page::write` (index.html and index.json); and the write
//!   alone, the states already in memory.
//! - `pass/idle_1000_games`: a whole `herald host` pass (`host::pass::run`)
//!   over the same 1,000 games with nothing new: an empty Maildir, empty
//!   outboxes (no SMTP connection), every game's time checked, the status
//!   page written.
//! - `due/resolve_20_games`: `host::due::run` at the deadline on 20 fresh
//!   copies of games waiting for orders: each resolved with a stand-in,
//!   reports written and report mails (with the board as PNG) queued.
//! - `surge/pass_N_games_M_mails` (issue 37): one whole `herald host DIR`
//!   pass, the binary run as a child process, over N HEXWAR games created
//!   with the real Argon2id password cost, with M order mails waiting in
//!   a Maildir (one from each game's awaited player, then a corrected
//!   order file a minute later from the same player for the first M - N
//!   games), SMTP to an in-process sink on loopback that takes every mail
//!   and discards it. Every turn resolves early; the pass sends the
//!   games' turn-0 reports, one acknowledgement per mail and the turn-1
//!   reports (PNG boards on). Each sample runs on a fresh copy of the
//!   host folder (the copy not timed). Besides criterion's wall time, the
//!   child's own wall time, CPU time (user + system, `wait4`'s rusage)
//!   and peak memory (its `ru_maxrss`) are printed for every pass.
//!
//!   Size: `HERALD_SURGE_GAMES` (default 10) and `HERALD_SURGE_MAILS`
//!   (default twice the games). The issue's full surge, 1,000 mails
//!   across 500 games, is one pass, not ten samples:
//!
//!   ```text
//!   HERALD_SURGE_GAMES=500 HERALD_SURGE_ONCE=1 \
//!     cargo bench --features bench --profile profiling --bench host -- surge
//!   ```
//!
//!   `HERALD_SURGE_ONCE=1` times a single pass and prints its figures
//!   without criterion's samples; `HERALD_SURGE_THREADS` is passed to the
//!   child as `RAYON_NUM_THREADS` (default: the cores).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use herald::host::config::{
    HostAddress, HostConfig, Secret, Security, ServerConfig, SourceConfig, DEFAULT_REMINDERS,
};
use herald::host::due;
use herald::host::log::Log;
use herald::host::pass;
use herald::host::state::GameState;
use herald::host::status_page;
use herald::names::Name;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

const GAMES: usize = 1000;
const T0: &str = "2026-11-24T12:00:00Z";
const DEADLINE: &str = "2026-11-27T12:00:00Z";
/// An instant when nothing is due: after creation, before any reminder.
const IDLE: &str = "2026-11-25T00:00:00Z";

fn config(dir: &Path) -> HostConfig {
    HostConfig {
        dir: dir.to_path_buf(),
        address: HostAddress::parse("herald@host.test").unwrap(),
        source: SourceConfig::Maildir(dir.join("Maildir")),
        smtp: ServerConfig {
            server: "127.0.0.1".into(),
            port: 2525,
            security: Security::Plain,
            user: "herald@host.test".into(),
            password: Secret::new("not used"),
            ca_file: None,
            timeout: 5,
        },
        poll: 300,
        reminders: DEFAULT_REMINDERS.to_vec(),
        max_mail_bytes: 1 << 20,
        attach_png: true,
        log_file: None,
        log_stderr: false,
        password_checks_per_hour: herald::host::config::DEFAULT_PASSWORD_CHECKS,
        moderator: None,
        press_per_day: herald::host::config::DEFAULT_PRESS_PER_DAY,
        press_max_bytes: herald::host::config::DEFAULT_PRESS_MAX_BYTES,
        trust: Default::default(),
    }
}

fn id(k: usize) -> String {
    format!("g{k:04}")
}

/// A host folder with `n` HEXWAR games (addresses, a deadline), each run
/// once by the host at T0.
fn host(n: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("herald-bench-host-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = config(&dir);
    (0..n).into_par_iter().for_each(|k| {
        let out = dir.join(id(k));
        herald::pipeline::create(herald::pipeline::NewGame {
            game: "hexwar".into(),
            rules: None,
            players: vec!["red".into(), "blue".into()],
            seed: Some(format!("bench-{k}")),
            options: Vec::new(),
            setup: None,
            id: Some(id(k)),
            out: out.clone(),
            key: None,
            now: chrono::DateTime::parse_from_rfc3339(T0).unwrap(),
            secrets_from_seed: false,
            light_passwords: true,
            mail: herald::pipeline::MailSettings {
                deadline: Some(DEADLINE.into()),
                emails: vec![
                    "red=red@players.test".into(),
                    "blue=blue@players.test".into(),
                ],
                ..Default::default()
            },
        })
        .unwrap();
        due::run(&dir, &out, T0, &cfg, &Log::none(), Duration::from_secs(5)).unwrap();
    });
    dir
}

/// Whether a group named `group` is asked for by the command line's
/// filter (criterion's first free argument), so that `-- surge` does not
/// build the 1,000 idle games first.
pub fn wanted(group: &str) -> bool {
    // criterion's options that take a value
    const VALUED: &[&str] = &[
        "--measurement-time",
        "--warm-up-time",
        "--sample-size",
        "--save-baseline",
        "--baseline",
        "--baseline-lenient",
        "--load-baseline",
        "--profile-time",
        "--output-format",
        "--color",
        "--plotting-backend",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--nresamples",
        "--format",
    ];
    let mut args = std::env::args().skip(1);
    let mut filter = None;
    while let Some(a) = args.next() {
        if VALUED.contains(&a.as_str()) {
            args.next();
        } else if !a.starts_with('-') {
            filter = Some(a);
            break;
        }
    }
    match filter {
        Some(f) => group.contains(&f) || f.contains(group) || f.starts_with(&format!("{group}/")),
        None => true,
    }
}

fn benches(c: &mut Criterion) {
    if !["due", "pass", "status_page"].iter().any(|g| wanted(g)) {
        return;
    }
    let dir = host(GAMES);
    let cfg = config(&dir);
    let log = Log::none();
    let folders: Vec<PathBuf> = (0..GAMES).map(|k| dir.join(id(k))).collect();

    let mut g = c.benchmark_group("due");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.bench_function("idle_pass_1000_games", |b| {
        b.iter(|| {
            for f in &folders {
                let done = due::run(&dir, f, IDLE, &cfg, &log, Duration::from_secs(5)).unwrap();
                assert!(done.is_empty());
            }
        })
    });
    // 20 fresh copies of the first games per sample, resolved at the deadline.
    let n = 20;
    g.bench_function("resolve_20_games", |b| {
        b.iter_batched(
            || {
                let d = dir.with_extension(format!("copy-{}", rand_tag()));
                std::fs::create_dir_all(d.join("state")).unwrap();
                for k in 0..n {
                    let ok = std::process::Command::new("cp")
                        .arg("-a")
                        .arg(dir.join(id(k)))
                        .arg(d.join(id(k)))
                        .status()
                        .unwrap()
                        .success();
                    assert!(ok);
                    std::fs::copy(
                        dir.join("state").join(format!("{}.json", id(k))),
                        d.join("state").join(format!("{}.json", id(k))),
                    )
                    .unwrap();
                }
                d
            },
            |d| {
                for k in 0..n {
                    let done = due::run(
                        &d,
                        &d.join(id(k)),
                        DEADLINE,
                        &cfg,
                        &log,
                        Duration::from_secs(5),
                    )
                    .unwrap();
                    assert!(matches!(done[0], due::Done::Resolved { .. }), "{done:?}");
                }
                let _ = std::fs::remove_dir_all(&d);
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();

    // The whole pass: the turn-0 report mails `new` queued are taken out
    // of the outboxes (as if sent), the Maildir is empty.
    for f in &folders {
        for e in std::fs::read_dir(f.join("outbox"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.join("Maildir").join(sub)).unwrap();
    }
    let stop = std::sync::atomic::AtomicBool::new(false);
    let idle_secs = chrono::DateTime::parse_from_rfc3339(IDLE)
        .unwrap()
        .timestamp();
    let mut g = c.benchmark_group("pass");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.bench_function("idle_1000_games", |b| {
        b.iter(|| {
            let r = pass::run(&pass::Pass {
                cfg: &cfg,
                log: &log,
                now: IDLE.into(),
                now_secs: idle_secs,
                wait: Duration::from_secs(5),
                stop: &stop,
            });
            assert_eq!(r.games, GAMES);
            assert!(r.mails == 0 && r.sent == 0 && r.game_time.is_empty());
            assert!(r.host_problems.is_empty(), "{:?}", r.host_problems);
        })
    });
    g.finish();

    let mut g = c.benchmark_group("status_page");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    let join = cfg.address.plain();
    let load = || -> Vec<(Name, GameState)> {
        (0..GAMES)
            .map(|k| {
                let name = Name::new("game", &id(k)).unwrap();
                let st = GameState::load(&dir, &name).unwrap();
                (name, st)
            })
            .collect()
    };
    g.bench_function("1000_games", |b| {
        b.iter(|| status_page::write(&dir, &join, &load(), &[], IDLE).unwrap())
    });
    let states = load();
    g.bench_function("1000_games_write_only", |b| {
        b.iter(|| status_page::write(&dir, &join, &states, &[], IDLE).unwrap())
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fresh tag for a scratch folder.
fn rand_tag() -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    N.fetch_add(1, Ordering::Relaxed).to_string()
}

#[path = "host/surge.rs"]
mod surge;

criterion_group!(host_benches, benches, surge::benches);
criterion_main!(host_benches);
