//! Stack Wars benchmarks.
//!
//! ```sh
//! cargo bench --features bench --bench stack_wars
//! ```
//!
//! - `random_game/NxN`: whole random games on the typed state
//!   (`playout::random_game`, uniform legal actions, never resigning),
//!   throughput in actions per second; games per second is that divided by
//!   the average game length printed before the group runs.
//! - `actions/9x9 midgame`: `State::actions` for the player to move in a
//!   position reached by 80 random actions.
//! - `resolve/9x9`: one turn through the object-safe engine path in memory
//!   (order file checked, resolved, hashed; nothing written).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use herald::games::stack_wars::play::Event;
use herald::games::stack_wars::ruleset::Ruleset;
use herald::games::stack_wars::state::State;
use herald::games::stack_wars::{playout, StackWars};
use herald::rng::{self, ChaCha20Rng};
use std::time::Duration;

/// Seeds of the random games: each timed iteration plays all of them.
const SEEDS: std::ops::Range<u64> = 0..16;
const MAX_MOVES: usize = 1_000_000;

fn rules() -> Ruleset {
    Ruleset::parse(StackWars::RULESET_TEXT).expect("the built-in ruleset parses")
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
    for size in [9u8, 13] {
        let start = playout::new_game(&rules, size, false);
        let mut events: Vec<Event> = Vec::new();
        let total: usize = SEEDS
            .map(|seed| {
                let mut st = start.clone();
                let n = playout::random_game(&mut st, &mut play_rng(seed), MAX_MOVES, &mut events);
                assert!(st.is_over(), "a {size}×{size} random game did not end");
                n
            })
            .sum();
        eprintln!(
            "random_game/{size}x{size}: {} games, {total} actions, {:.0} actions per game",
            SEEDS.end,
            total as f64 / SEEDS.end as f64
        );
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(format!("{size}x{size}"), |b| {
            b.iter(|| {
                let mut n = 0;
                for seed in SEEDS {
                    let mut st = start.clone();
                    n += playout::random_game(&mut st, &mut play_rng(seed), MAX_MOVES, &mut events);
                }
                black_box(n)
            })
        });
    }
    group.finish();
}

fn bench_actions(c: &mut Criterion) {
    let rules = rules();
    let mut st: State = playout::new_game(&rules, 9, false);
    let mut events = Vec::new();
    playout::random_game(&mut st, &mut play_rng(1), 80, &mut events);
    let side = st.mover().expect("the game goes on after 80 actions");
    let mut out = Vec::new();
    c.bench_function("actions/9x9 midgame", |b| {
        b.iter(|| {
            st.actions(side, &mut out);
            black_box(out.len())
        })
    });
}

criterion_group!(benches, bench_random_games, bench_actions);
criterion_main!(benches);
