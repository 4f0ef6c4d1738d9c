//! The Unfought Battle benchmarks.
//!
//! ```sh
//! cargo bench --features bench --bench unfought_battle -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! - `board/generate`: drawing a fair board (Contentious and Difficult
//!   hexes, rejection until both corners' paths are fair).
//! - `adjudicate/turn`: one orders phase (both sides' orders, swaps,
//!   contests, chains, ambushes, upkeep) on the typed state, from a
//!   crowded midgame position, with random orders.
//! - `random_game/whole`: whole random games on the typed state (new
//!   board, deployment, random orders to the end), throughput in games.
//! - `view/report`: one player's view (fog, threat, events) of that position.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use herald::games::unfought_battle::events::Event;
use herald::games::unfought_battle::orders::Order;
use herald::games::unfought_battle::ruleset::Ruleset;
use herald::games::unfought_battle::state::{Phase, State};
use herald::games::unfought_battle::{playout, setup, view, UnfoughtBattle};
use herald::games::Seen;
use herald::rng;
use std::collections::BTreeMap;

fn rules() -> Ruleset {
    Ruleset::parse(UnfoughtBattle::RULESET_TEXT).expect("the built-in ruleset parses")
}

/// A position after deployment and a few random turns, with forces close.
fn midgame(r: &Ruleset) -> State {
    let mut g = rng::from_u64(11);
    loop {
        let mut st = playout::new_game(r, &mut g);
        let mut ev = Vec::new();
        for _ in 0..6 {
            let orders: BTreeMap<usize, Vec<Order>> = (0..2)
                .map(|s| (s, playout::bot_orders(r, &st, s, &mut g)))
                .collect();
            st = playout::step(
                r,
                &st,
                &orders,
                &mut herald::rng::Dice::quiet(&mut g),
                &mut ev,
            );
        }
        if st.phase == Phase::Orders && st.sides.iter().all(|s| s.living().count() >= 4) {
            return st;
        }
    }
}

fn benches(c: &mut Criterion) {
    let r = rules();
    c.bench_function("board/generate", |b| {
        let mut g = rng::from_u64(1);
        b.iter(|| black_box(setup::generate(&r, &mut g).unwrap()))
    });
    let mid = midgame(&r);
    c.bench_function("adjudicate/turn", |b| {
        let mut g = rng::from_u64(2);
        let mut ev: Vec<Event> = Vec::new();
        b.iter(|| {
            let orders: BTreeMap<usize, Vec<Order>> = (0..2)
                .map(|s| (s, playout::random_orders(&r, &mid, s, &mut g)))
                .collect();
            ev.clear();
            black_box(playout::step(
                &r,
                &mid,
                &orders,
                &mut herald::rng::Dice::quiet(&mut g),
                &mut ev,
            ))
        })
    });
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    group.bench_function("whole", |b| {
        let mut g = rng::from_u64(3);
        let mut ev = Vec::new();
        b.iter(|| {
            let st = playout::new_game(&r, &mut g);
            black_box(playout::play(
                &r,
                st,
                &mut g,
                playout::random_orders,
                &mut ev,
            ))
        })
    });
    group.finish();
    let players = vec!["north".to_string(), "south".to_string()];
    let seen: Vec<Seen<Event>> = Vec::new();
    c.bench_function("view/report", |b| {
        b.iter(|| black_box(view::view(&r, &mid, &players, 0, &seen)))
    });
}

#[path = "common/decision.rs"]
mod decision;

/// One decision of `greedy` and of MCTS-1000 (3 phases of the scripted
/// player in): `common/decision.rs`.
fn bench_bot(c: &mut Criterion) {
    decision::bench::<UnfoughtBattle>(c, &[], 2, 3, &["greedy", "ismcts:1000", "ismcts:1000:d3"]);
}

criterion_group!(unfought_battle, benches, bench_bot);
criterion_main!(unfought_battle);
