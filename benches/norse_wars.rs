//! Norse Wars benchmarks.
//!
//! Run with:
//!
//! ```sh
//! cargo bench --features bench --bench norse_wars
//! ```
//!
//! Groups:
//! - `random_game/Np`: whole random games on the typed state (`playout::random_game`),
//!   throughput in moves per second (target: ≥ 1 M moves/s on one core for 2 players).
//! - `legal_moves/*`: `State::moves` for the player to move at the start.
//!
//! The engine and whole-process timings of every game are in `benches/engine.rs`.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use herald::games::norse_wars::play::Event;
use herald::games::norse_wars::ruleset::Ruleset;
use herald::games::norse_wars::state::{Opts, State};
use herald::games::norse_wars::{playout, NorseWars};
use herald::rng::{self, ChaCha20Rng};
use std::time::Duration;

/// Seeds of the random games: each timed iteration plays all of them.
const SEEDS: std::ops::Range<u64> = 0..16;
/// A safety cap; games end long before it.
const MAX_MOVES: usize = 1_000_000;

fn rules() -> Ruleset {
    Ruleset::parse(NorseWars::RULESET_TEXT).expect("the built-in ruleset parses")
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

criterion_group!(benches, bench_random_games, bench_legal_moves);
criterion_main!(benches);
