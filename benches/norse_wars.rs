//! Norse Wars benchmarks.
//!
//! Run with:
//!
//! ```sh
//! cargo build --release            # the `process/*` group spawns target/release/herald
//! cargo bench --bench norse_wars
//! ```
//!
//! Groups:
//! - `random_game/Np`: whole random games on the typed state (`playout::random_game`),
//!   throughput in moves per second (target: ≥ 1 M moves/s on one core for 2 players).
//! - `legal_moves/*`: `State::moves` for the player to move at the start.
//! - `resolve/6p`: one turn of a 6-player game through the object-safe engine path,
//!   in memory (`engine::resolve` writes nothing).
//! - `process/*`: whole-process timings of the release binary: `herald --version` and
//!   `herald resolve` of a 6-player turn 0 (target: resolve within 2× of --version).
//!   Skipped with a message when the binary is missing: build it first with
//!   `cargo build --release` (`cargo bench` usually builds it too, as benches get
//!   the package's binaries built alongside them). The game directories live under
//!   the system temp dir (`TMPDIR`), so `process/resolve_6p` includes that file
//!   system's fsync cost: `resolve` writes 14 files atomically, each with a file and
//!   a directory fsync.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use herald::engine::{self, Loaded, NewGame};
use herald::games::norse_wars::play::Event;
use herald::games::norse_wars::rules::Rules;
use herald::games::norse_wars::state::{Opts, State};
use herald::games::norse_wars::{playout, NorseWars};
use herald::report;
use herald::rng::{self, ChaCha20Rng};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Seeds of the random games: each timed iteration plays all of them.
const SEEDS: std::ops::Range<u64> = 0..16;
/// A safety cap; games end long before it.
const MAX_MOVES: usize = 1_000_000;
/// The time recorded as the resolution time in the process benchmark.
const NOW: &str = "2026-11-22T13:00:00Z";

fn rules() -> Rules {
    Rules::parse(NorseWars::RULESET_TEXT).expect("the built-in ruleset parses")
}

/// The rng a seed's game is set up with, and the one its moves are drawn from.
fn setup_rng(seed: u64) -> ChaCha20Rng {
    rng::from_u64(seed)
}
fn play_rng(seed: u64) -> ChaCha20Rng {
    rng::from_u64(0x5eed_0000 + seed)
}

fn bench_random_games(c: &mut Criterion) {
    let rules = rules();
    let mut group = c.benchmark_group("random_game");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for players in 2..=6usize {
        // Fresh states, made once per seed.
        let starts: Vec<(State, ChaCha20Rng)> = SEEDS
            .map(|seed| {
                let st = playout::new_game(&rules, players, Opts::default(), &mut setup_rng(seed));
                (st, play_rng(seed))
            })
            .collect();
        // The games are deterministic for a seed: play them once to count the moves.
        let mut events: Vec<Event> = Vec::new();
        let total: usize = starts
            .iter()
            .map(|(st, r)| {
                let (mut st, mut r) = (st.clone(), r.clone());
                let n = playout::random_game(&rules, &mut st, &mut r, MAX_MOVES, &mut events);
                assert!(n < MAX_MOVES, "a {players}-player random game did not end");
                n
            })
            .sum();
        eprintln!(
            "random_game/{players}p: {} games, {total} moves ({:.1} per game)",
            starts.len(),
            total as f64 / starts.len() as f64
        );
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(format!("{players}p"), |b| {
            b.iter_batched_ref(
                || starts.clone(),
                |games| {
                    let mut played = 0;
                    for (st, r) in games.iter_mut() {
                        played += playout::random_game(&rules, st, r, MAX_MOVES, &mut events);
                    }
                    debug_assert_eq!(played, total);
                    black_box(played)
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

fn bench_legal_moves(c: &mut Criterion) {
    let rules = rules();
    let mut group = c.benchmark_group("legal_moves");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    for players in [2usize, 6] {
        let st = playout::new_game(&rules, players, Opts::default(), &mut setup_rng(1));
        let seat = st.to_move().expect("a seat to move at the start");
        let mut moves = Vec::with_capacity(64);
        st.moves(&rules, seat, &mut moves);
        assert!(!moves.is_empty());
        group.bench_function(format!("{players}p_start"), |b| {
            b.iter(|| {
                black_box(&st).moves(&rules, seat, &mut moves);
                black_box(moves.len())
            })
        });
    }
    group.finish();
}

/// A scratch directory under the system temp dir, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        use std::sync::atomic::{AtomicU64, Ordering};
        static N: AtomicU64 = AtomicU64::new(0);
        let p = std::env::temp_dir().join(format!(
            "herald-bench-{}-{tag}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("create a scratch dir");
        Scratch(p)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const PLAYERS_6: [&str; 6] = ["a", "b", "c", "d", "e", "f"];

fn bench_resolve(c: &mut Criterion) {
    let dir = Scratch::new("resolve");
    let path = dir.0.join("game.json");
    let now = chrono::Utc::now().fixed_offset();
    let created = engine::create(NewGame {
        game: "norse-wars".into(),
        rules: None,
        players: PLAYERS_6.iter().map(|s| s.to_string()).collect(),
        seed: Some("1".into()),
        options: Vec::new(),
        setup: None,
        id: None,
        out: path.clone(),
        reports: None,
        now,
        secrets_from_seed: true,
        light_passwords: true,
        mail: Default::default(),
    })
    .expect("create a 6-player game");
    let g = Loaded::open(&path).expect("load the new game");
    let files = vec![(
        "orders.toml".to_string(),
        first_order_file(&g, &created.passwords),
    )];
    let stamp = now.to_rfc3339();
    engine::resolve(&g, &files, &stamp).expect("the first legal order resolves");

    let mut group = c.benchmark_group("resolve");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("6p", |b| {
        b.iter(|| engine::resolve(black_box(&g), black_box(&files), &stamp).expect("resolves"))
    });
    group.finish();
}

/// The order file of the (single) player the game awaits, with its first legal order.
fn first_order_file(g: &Loaded, passwords: &[(String, String)]) -> String {
    let awaiting = g.session.awaiting(&g.state);
    assert_eq!(awaiting.len(), 1, "Norse Wars awaits one player at a time");
    let seat = awaiting[0];
    let id = &g.file.players[seat].id;
    let orders = g
        .session
        .legal_orders(&g.state, seat)
        .into_iter()
        .next()
        .expect("the player to move has a legal order");
    let password = &passwords
        .iter()
        .find(|(p, _)| p == id)
        .expect("a password for every player")
        .1;
    report::order_file(&g.file.id, id, g.file.turn, password, &orders)
}

/// target/release/herald: from CARGO_BIN_EXE_herald (runtime, then build time),
/// else beside this bench executable (target/release/deps/../herald).
fn herald_binary() -> Option<PathBuf> {
    let exe = if cfg!(windows) {
        "herald.exe"
    } else {
        "herald"
    };
    let candidates = std::env::var_os("CARGO_BIN_EXE_herald")
        .map(PathBuf::from)
        .into_iter()
        .chain(option_env!("CARGO_BIN_EXE_herald").map(PathBuf::from))
        .chain(
            std::env::current_exe()
                .ok()
                .and_then(|p| Some(p.parent()?.parent()?.join(exe))),
        );
    candidates.into_iter().find(|p| p.is_file())
}

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("spawn herald");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for e in std::fs::read_dir(from).expect("read dir") {
        let e = e.expect("dir entry");
        let target = to.join(e.file_name());
        if e.file_type().expect("file type").is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).expect("copy a file");
        }
    }
}

fn bench_process(c: &mut Criterion) {
    let Some(herald) = herald_binary() else {
        eprintln!(
            "process/*: skipped: no herald binary (set CARGO_BIN_EXE_herald or run \
             `cargo build --release` first)"
        );
        return;
    };
    eprintln!("process/*: using {}", herald.display());

    // A 6-player turn-0 game directory with an order file for the player to move.
    let root = Scratch::new("process");
    let prepared = root.0.join("prepared");
    std::fs::create_dir_all(&prepared).expect("create the game dir");
    let out = run_ok(
        Command::new(&herald)
            .current_dir(&prepared)
            .args([
                "new",
                "norse-wars",
                "--players",
                &PLAYERS_6.join(","),
                "--seed",
                "1",
            ])
            .args(["--out", "game.json", "--now", NOW]),
    );
    // `new` prints "passwords (...):" and then one "  id: password" line per player.
    let passwords: Vec<(String, String)> = out
        .lines()
        .skip_while(|l| !l.starts_with("passwords"))
        .skip(1)
        .take(PLAYERS_6.len())
        .map(|l| {
            let (p, pw) = l
                .trim()
                .split_once(": ")
                .expect("a `player: password` line");
            (p.to_string(), pw.to_string())
        })
        .collect();
    assert_eq!(passwords.len(), PLAYERS_6.len(), "passwords in:\n{out}");
    let g = Loaded::open(&prepared.join("game.json")).expect("load the new game");
    std::fs::write(
        prepared.join("orders.toml"),
        first_order_file(&g, &passwords),
    )
    .expect("write the order file");
    let resolve = |dir: &Path| {
        run_ok(Command::new(&herald).current_dir(dir).args([
            "resolve",
            "game.json",
            "orders.toml",
            "--now",
            NOW,
            "--force",
        ]))
    };
    // Check once, on a copy, that it resolves.
    {
        let d = root.0.join("check");
        copy_dir(&prepared, &d);
        resolve(&d);
    }

    let mut group = c.benchmark_group("process");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    group.bench_function("version", |b| {
        b.iter(|| run_ok(Command::new(&herald).arg("--version")))
    });
    let n = std::sync::atomic::AtomicU64::new(0);
    group.bench_function("resolve_6p", |b| {
        b.iter_batched(
            || {
                let i = n.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let d = root.0.join(format!("run-{i}"));
                copy_dir(&prepared, &d);
                d
            },
            |d| {
                resolve(&d);
                // Returned so the removal happens outside the timing.
                RemoveOnDrop(d)
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

struct RemoveOnDrop(PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

criterion_group!(
    benches,
    bench_random_games,
    bench_legal_moves,
    bench_resolve,
    bench_process
);
criterion_main!(benches);
