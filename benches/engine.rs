//! What a host pays per command, as whole processes of the `herald` binary
//! built with this bench's profile, side by side so the figures read as
//! ratios on whatever machine runs them (docs/performance.md, issue 17).
//!
//! Run with `cargo bench --features bench --bench engine`.
//!
//! Groups:
//! - `command/floor`: `herald --version` (starting a process).
//! - `command/<game>/*` at each game's turn 0 (Norse Wars with 6 players),
//!   with the first legal orders of every awaited player: `check` reads the
//!   game, checks each password (the standard Argon2id cost every real game
//!   uses) and parses the order files; `resolve` does that and writes the
//!   new game file and every player's reports; `resolve_stored` (Norse
//!   Wars) resolves orders `inbox` accepted earlier, sealed, whose password
//!   is not hashed again.
//! - `command/norse-wars/resolve_mailed`: `resolve` of the same orders in
//!   the same game with every player's mail address, so six report mails
//!   are built and queued too (what a host's games pay).
//! - `status/*`: `herald status` of a finished 423-phase Stack Wars demo
//!   against a new game: the head line is read, the log only hashed. The
//!   demo's folder size per phase is printed (storage, linear in phases).
//! - `status/site_423_phases`: `herald site` of that demo (issue 34): the
//!   replay, a board per phase and the pages; the site's size is printed,
//!   and what its boards would weigh without the lines they share.
//! - `picture/png`: one PNG board, made only when asked for
//!   (`report --format png`), never on the resolve path.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The `herald` binary run: the one built with this bench, or the one
/// `HERALD_BENCH_BIN` names, so two builds (two profiles, two commits)
/// are measured by the same harness side by side (docs/performance.md,
/// "The first command").
fn bin() -> String {
    std::env::var("HERALD_BENCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_herald").to_string())
}
const NOW: &str = "2026-11-22T12:00:00Z";

fn herald(args: &[&str]) -> String {
    let out = Command::new(bin()).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "herald {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("herald-bench-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

/// A real game of `game` (standard password hashes, as every real game
/// has) in `dir/template`, and one order file per awaited player: the first
/// legal set of orders.
fn game_files(dir: &Path, game: &str, players: &[&str]) -> (PathBuf, Vec<PathBuf>) {
    game_files_mailed(dir, "template", game, players, false)
}

/// [`game_files`] into `dir/name`; with `mailed`, every player has a mail
/// address, so each resolve queues a report mail per player (as a host's
/// games do).
fn game_files_mailed(
    dir: &Path,
    name: &str,
    game: &str,
    players: &[&str],
    mailed: bool,
) -> (PathBuf, Vec<PathBuf>) {
    let folder = dir.join(name);
    let mail = if mailed {
        herald::pipeline::MailSettings {
            moderator: Some("gm@example.org".into()),
            emails: players
                .iter()
                .map(|p| format!("{p}={p}@example.org"))
                .collect(),
            ..Default::default()
        }
    } else {
        Default::default()
    };
    let created = herald::pipeline::create(herald::pipeline::NewGame {
        game: game.into(),
        rules: None,
        players: players.iter().map(|p| p.to_string()).collect(),
        seed: Some("bench".into()),
        options: Vec::new(),
        setup: None,
        id: None,
        out: folder.clone(),
        key: None,
        now: chrono::DateTime::parse_from_rfc3339(NOW).unwrap(),
        secrets_from_seed: false,
        light_passwords: false,
        mail,
    })
    .unwrap();
    let (_, g) = herald::pipeline::open(&folder).unwrap();
    let h = g.head();
    let mut files = Vec::new();
    for seat in g.rules.awaiting(&g.state) {
        let id = &h.players[seat].id;
        let pw = &created.passwords.iter().find(|p| &p.0 == id).unwrap().1;
        let orders = g.rules.legal_orders(&g.state, seat).swap_remove(0);
        let f = dir.join(format!("{name}-{id}.toml"));
        std::fs::write(
            &f,
            herald::report::order_file(&h.id, id, h.turn, pw, &orders),
        )
        .unwrap();
        files.push(f);
    }
    (folder, files)
}

fn commands(c: &mut Criterion) {
    let mut g = c.benchmark_group("command");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(8));
    g.bench_function("floor", |b| b.iter(|| herald(&["--version"])));
    for (game, players) in [
        (
            "norse-wars",
            &["red", "blue", "green", "gold", "white", "black"][..],
        ),
        ("hexwar", &["white", "black"][..]),
        ("stack-wars", &["black", "white"][..]),
        ("war-of-the-dukes", &["orfburg", "wulfenburg"][..]),
        ("unfought-battle", &["north", "south"][..]),
    ] {
        let dir = scratch(game);
        let (template, files) = game_files(&dir, game, players);
        let names: Vec<String> = files
            .iter()
            .map(|f| f.to_str().unwrap().to_string())
            .collect();
        let t = template.to_str().unwrap().to_string();
        let mut check = vec!["check", t.as_str()];
        check.extend(names.iter().map(String::as_str));
        g.bench_function(format!("{game}/check"), |b| b.iter(|| herald(&check)));
        let mut n = 0;
        let mut resolve = |name: &str, from: &Path, orders: &[String]| {
            g.bench_function(format!("{game}/{name}"), |b| {
                b.iter_batched(
                    || {
                        n += 1;
                        let d = dir.join(format!("{name}-{n}"));
                        copy_dir(from, &d);
                        d
                    },
                    |d| {
                        let d_s = d.to_str().unwrap().to_string();
                        let mut args = vec!["resolve", d_s.as_str()];
                        args.extend(orders.iter().map(String::as_str));
                        args.extend(["--now", NOW]);
                        herald(&args);
                        d
                    },
                    BatchSize::PerIteration,
                )
            });
        };
        resolve("resolve", &template, &names);
        if game == "norse-wars" {
            // The same game with every player's mail address: the resolve
            // also queues six report mails (text, view.json, board.svg and
            // report.html each), as a host's games do.
            let (mailed, mailed_files) = game_files_mailed(&dir, "mailed", game, players, true);
            let mailed_names: Vec<String> = mailed_files
                .iter()
                .map(|f| f.to_str().unwrap().to_string())
                .collect();
            resolve("resolve_mailed", &mailed, &mailed_names);
            // The same orders, accepted by inbox from a mail and stored
            // sealed: resolve does not hash the password again.
            let stored = dir.join("stored");
            copy_dir(&template, &stored);
            let md = dir.join("Maildir");
            for d in ["new", "cur", "tmp"] {
                std::fs::create_dir_all(md.join(d)).unwrap();
            }
            std::fs::write(
                md.join("new/1.red"),
                format!(
                    "From: red@example.org\nTo: gm@example.org\nSubject: orders\nDate: Sun, 22 Nov 2026 12:30:00 +0000\nMessage-ID: <1@example.org>\n\n{}",
                    std::fs::read_to_string(&files[0]).unwrap()
                ),
            )
            .unwrap();
            herald(&[
                "inbox",
                stored.to_str().unwrap(),
                md.to_str().unwrap(),
                "--now",
                NOW,
            ]);
            resolve("resolve_stored", &stored, &[]);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    g.finish();
}

fn folder_bytes(d: &Path) -> u64 {
    std::fs::read_dir(d)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let m = e.metadata().unwrap();
            if m.is_dir() {
                folder_bytes(&e.path())
            } else {
                m.len()
            }
        })
        .sum()
}

fn status(c: &mut Criterion) {
    let dir = scratch("status");
    let long = dir.join("long");
    herald(&[
        "demo",
        "stack-wars",
        "--out",
        long.to_str().unwrap(),
        "--now",
        NOW,
    ]);
    let new = dir.join("new");
    herald(&[
        "new",
        "stack-wars",
        "--players",
        "black,white",
        "--seed",
        "1",
        "--out",
        new.to_str().unwrap(),
        "--now",
        NOW,
    ]);
    let (l, s) = (long.join("game"), new);
    // Storage per phase: what a finished game keeps on disk.
    let phases = std::fs::read_to_string(l.join("game.jsonl"))
        .unwrap()
        .lines()
        .filter(|line| line.contains(r#""kind":"phase""#))
        .count();
    let bytes = folder_bytes(&l);
    eprintln!(
        "storage: {bytes} bytes for {phases} phases ({} bytes a phase) in {}",
        bytes / phases.max(1) as u64,
        l.display()
    );
    let mut g = c.benchmark_group("status");
    g.sample_size(20);
    g.bench_function("new_game", |b| {
        b.iter(|| herald(&["status", s.to_str().unwrap()]))
    });
    g.bench_function("423_phases", |b| {
        b.iter(|| herald(&["status", l.to_str().unwrap()]))
    });
    g.bench_function("verify_423_phases", |b| {
        b.iter(|| herald(&["verify", l.to_str().unwrap()]))
    });
    let site = dir.join("site");
    herald(&["site", l.to_str().unwrap(), "--out", site.to_str().unwrap()]);
    site_sizes(&site);
    g.bench_function("site_423_phases", |b| {
        b.iter(|| herald(&["site", l.to_str().unwrap(), "--out", site.to_str().unwrap()]))
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A site's files, and its boards' bytes with and without sharing lines.
fn site_sizes(site: &Path) {
    let mut total = 0;
    for e in std::fs::read_dir(site).unwrap() {
        let e = e.unwrap();
        let n = e.metadata().unwrap().len();
        total += n;
        eprintln!("site: {} {n} bytes", e.file_name().to_string_lossy());
    }
    let js = std::fs::read_to_string(site.join("frames.js")).unwrap();
    let data: serde_json::Value =
        serde_json::from_str(&js[js.find("herald_site(").unwrap() + 12..js.rfind(");").unwrap()])
            .unwrap();
    let lines: Vec<usize> = data["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().len() + 1)
        .collect();
    let mut unshared = 0;
    for f in data["frames"].as_array().unwrap() {
        for r in f["board"].as_str().unwrap_or("").split(',') {
            let (a, b) = r.split_once('-').unwrap_or((r, r));
            let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
            unshared += lines[a..=b].iter().sum::<usize>();
        }
    }
    eprintln!(
        "site: {total} bytes in all; the boards alone would be {unshared} bytes unshared, {} shared lines",
        lines.len()
    );
}

fn picture(c: &mut Criterion) {
    let dir = scratch("picture");
    let (template, _) = game_files(
        &dir,
        "norse-wars",
        &["red", "blue", "green", "gold", "white", "black"],
    );
    let t = template.to_str().unwrap();
    let mut g = c.benchmark_group("picture");
    g.sample_size(20);
    g.bench_function("svg", |b| {
        b.iter(|| herald(&["report", t, "--player", "red", "--format", "svg"]))
    });
    g.bench_function("png", |b| {
        b.iter(|| herald(&["report", t, "--player", "red", "--format", "png"]))
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, commands, status, picture);
criterion_main!(benches);
