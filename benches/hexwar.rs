//! HEXWAR benchmarks.
//!
//! Run with `cargo bench --features bench --bench hexwar`.
//!
//! Groups:
//! - `random_game/<template>`: whole random games on the typed state
//!   (`playout::random_game`), throughput in turns (player moves) per
//!   second. Target: 2 M random-playout moves per second on one core.
//! - `legal_moves/*`: `State::moves` (every Move action) and
//!   `State::rotations` for White at the start, and perft(2) under the
//!   single-action template.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use herald::games::hexwar::playout::{self, Scratch};
use herald::games::hexwar::ruleset::Ruleset;
use herald::games::hexwar::state::State;
use herald::games::hexwar::{self, Hexwar};
use herald::games::Options;
use herald::rng::{self, ChaCha20Rng};
use std::time::Duration;

const SEEDS: std::ops::Range<u64> = 0..64;

fn rules() -> Ruleset {
    Ruleset::parse(Hexwar::RULESET_TEXT).expect("the built-in ruleset parses")
}

fn start(rules: &Ruleset, template: &str) -> State {
    let mut o = Options::new();
    o.insert("template".into(), template.into());
    hexwar::new_game(rules, &o).expect("the built-in setup")
}

fn bench_random_games(c: &mut Criterion) {
    let rules = rules();
    let mut group = c.benchmark_group("random_game");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for template in ["single", "E"] {
        let st = start(&rules, template);
        let starts: Vec<(State, ChaCha20Rng)> = SEEDS
            .map(|seed| (st.clone(), rng::from_u64(0x5eed_0000 + seed)))
            .collect();
        let mut s = Scratch::new();
        let mut actions = 0;
        let total: usize = starts
            .iter()
            .map(|(st, r)| {
                let (mut st, mut r) = (st.clone(), r.clone());
                let mut turns = 0;
                while !st.is_over() {
                    actions += playout::random_turn(&rules, &mut st, &mut r, &mut s);
                    turns += 1;
                }
                turns
            })
            .sum();
        eprintln!(
            "random_game/{template}: {} games, {total} turns ({:.1} per game), {actions} actions",
            starts.len(),
            total as f64 / starts.len() as f64
        );
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function(template, |b| {
            b.iter_batched_ref(
                || starts.clone(),
                |games| {
                    let mut played = 0;
                    for (st, r) in games.iter_mut() {
                        played += playout::random_game(&rules, st, r, usize::MAX, &mut s);
                    }
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
    let st = start(&rules, "E");
    let mut moves = Vec::with_capacity(128);
    group.bench_function("moves_start", |b| {
        b.iter(|| {
            black_box(&st).moves(&rules, &mut moves);
            black_box(moves.len())
        })
    });
    group.bench_function("rotations_start", |b| {
        b.iter(|| {
            black_box(&st).rotations(&mut moves);
            black_box(moves.len())
        })
    });
    let single = start(&rules, "single");
    group.bench_function("perft2_single", |b| {
        b.iter(|| black_box(playout::perft_single(&rules, black_box(&single), 2)))
    });
    group.finish();
}

#[path = "common/decision.rs"]
mod decision;

/// One decision of `greedy` and of MCTS-1000 (10 phases of the scripted
/// player in): `common/decision.rs`.
fn bench_bot(c: &mut Criterion) {
    decision::bench::<Hexwar>(c, &[], 2, 10, &["greedy", "mcts:1000"]);
}

criterion_group!(benches, bench_random_games, bench_legal_moves, bench_bot);
criterion_main!(benches);
