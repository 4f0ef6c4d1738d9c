//! What a host pays per command, as whole processes of the `herald` binary
//! built with this bench's profile, side by side so the figures read as
//! ratios on whatever machine runs them (docs/performance.md, issue 17).
//!
//! Run with `cargo bench --bench engine`.
//!
//! Groups:
//! - `command/*` on a 6-player Norse Wars game at turn 0: `floor` is
//!   `herald --version` (starting a process); `check` reads the game,
//!   checks red's password (the standard Argon2id cost every real game
//!   uses) and parses the order file; `resolve` does that and writes the
//!   new game file and every player's reports; `resolve_stored` resolves
//!   orders `inbox` accepted earlier, sealed, whose password is not hashed
//!   again.
//! - `status/*`: `herald status` of a finished 423-phase Stack Wars demo
//!   against a new game: the head line is read, the log only hashed.
//! - `picture/png`: one PNG board, made only when asked for
//!   (`report --format png`), never on the resolve path.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_herald");
const NOW: &str = "2026-11-22T12:00:00Z";

fn herald(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "herald {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
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

/// A real 6-player game (standard password hashes) and red's order file.
fn norse_game(dir: &Path) -> (PathBuf, PathBuf) {
    let game = dir.join("template");
    herald(&[
        "new",
        "norse-wars",
        "--players",
        "red,blue,green,gold,white,black",
        "--seed",
        "bench",
        "--out",
        game.to_str().unwrap(),
        "--now",
        NOW,
    ]);
    let secrets = std::fs::read_to_string(game.join("secrets.toml")).unwrap();
    let pw = secrets
        .lines()
        .find_map(|l| l.strip_prefix("red = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap()
        .to_string();
    let form = herald(&["orders", game.to_str().unwrap(), "--player", "red"]);
    let id = form
        .lines()
        .find_map(|l| l.strip_prefix("game = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap()
        .to_string();
    let legal = form
        .lines()
        .find_map(|l| l.trim().strip_prefix("#   "))
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .unwrap();
    let orders = dir.join("red.toml");
    std::fs::write(
        &orders,
        format!(
            "game = \"{id}\"\nplayer = \"red\"\nturn = 0\npassword = \"{pw}\"\norders = [\"{legal}\"]\n"
        ),
    )
    .unwrap();
    (game, orders)
}

fn commands(c: &mut Criterion) {
    let dir = scratch("commands");
    let (template, orders) = norse_game(&dir);
    let o = orders.to_str().unwrap();
    // The same order, accepted by inbox from a mail and stored sealed.
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
            std::fs::read_to_string(&orders).unwrap()
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

    let mut g = c.benchmark_group("command");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(8));
    g.bench_function("floor", |b| b.iter(|| herald(&["--version"])));
    let t = template.to_str().unwrap();
    g.bench_function("check", |b| b.iter(|| herald(&["check", t, o])));
    let mut n = 0;
    g.bench_function("resolve", |b| {
        b.iter_batched(
            || {
                n += 1;
                let d = dir.join(format!("r{n}"));
                copy_dir(&template, &d);
                d
            },
            |d| {
                herald(&["resolve", d.to_str().unwrap(), o, "--now", NOW]);
                d
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("resolve_stored", |b| {
        b.iter_batched(
            || {
                n += 1;
                let d = dir.join(format!("s{n}"));
                copy_dir(&stored, &d);
                d
            },
            |d| {
                herald(&["resolve", d.to_str().unwrap(), "--now", NOW]);
                d
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
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
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

fn picture(c: &mut Criterion) {
    let dir = scratch("picture");
    let (template, _) = norse_game(&dir);
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
