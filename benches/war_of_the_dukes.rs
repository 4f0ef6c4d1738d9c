//! War of the Dukes benchmarks.
//!
//! ```sh
//! cargo bench --features bench --bench war_of_the_dukes
//! ```
//!
//! - `phase/typed`: one phase resolved on the typed state: a midgame
//!   position (both deployments and six bot phases in), a busy order file
//!   for the side to move (`playout::random_orders`: about half the pieces
//!   move, about half the enemy pieces in reach are attacked), checked and
//!   resolved (`Game::check` + `Game::resolve`).
//! - `phase/bot orders`: the bot choosing those orders.
//! - `bot/…`: one bot decision on that position's view, as `herald
//!   playtest` plays it (`bots::choose`): `greedy`, and MCTS-1000
//!   (`mcts:1000`, per-piece bandits cut off by the evaluation after the
//!   bot's phase; throughput in search iterations): `common/decision.rs`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use herald::games::war_of_the_dukes::ruleset::Ruleset;
use herald::games::war_of_the_dukes::state::State;
use herald::games::war_of_the_dukes::units::Side;
use herald::games::war_of_the_dukes::{playout, WarOfTheDukes};
use herald::games::Game;
use herald::rng;
use std::collections::BTreeMap;

fn rules() -> Ruleset {
    Ruleset::parse(WarOfTheDukes::RULESET_TEXT).expect("the built-in ruleset parses")
}

/// Deployment and six phases by the bot.
fn midgame(r: &Ruleset) -> State {
    let mut st = State::new(r);
    let mut rr = rng::from_u64(11);
    for _ in 0..7 {
        let mut orders = BTreeMap::new();
        for seat in WarOfTheDukes::awaiting(r, &st) {
            orders.insert(
                seat,
                playout::bot_orders(r, &st, Side::of_seat(seat), &mut rr),
            );
        }
        st = WarOfTheDukes::resolve(r, &st, &orders, &mut rng::Dice::quiet(&mut rr)).0;
    }
    assert!(st.mover().is_some(), "the game goes on");
    st
}

fn bench_phase(c: &mut Criterion) {
    let r = rules();
    let st = midgame(&r);
    let side = st.mover().unwrap();
    let seat = side.seat();
    // A busy order file: random legal orders move about half the pieces
    // and attack about half the enemy pieces in reach.
    let orders = playout::random_orders(&r, &st, side, &mut rng::from_u64(3));
    eprintln!(
        "phase: {} to move on turn {}, {} orders",
        side,
        st.turn,
        orders.len()
    );
    let mut group = c.benchmark_group("phase");
    group.bench_function("typed", |b| {
        b.iter(|| {
            let problems = WarOfTheDukes::check(&r, &st, seat, &orders);
            assert!(problems.is_empty());
            let mut map = BTreeMap::new();
            map.insert(seat, orders.clone());
            black_box(WarOfTheDukes::resolve(
                &r,
                &st,
                &map,
                &mut rng::Dice::quiet(&mut rng::from_u64(5)),
            ))
        })
    });
    group.bench_function("bot orders", |b| {
        b.iter(|| black_box(playout::bot_orders(&r, &st, side, &mut rng::from_u64(3))))
    });
    group.finish();
}

#[path = "common/decision.rs"]
mod decision;

fn bench_bot(c: &mut Criterion) {
    // Deployment and six phases of the scripted player.
    decision::bench::<WarOfTheDukes>(c, &[], 2, 7, &["greedy", "mcts:1000"]);
}

criterion_group!(benches, bench_phase, bench_bot);
criterion_main!(benches);
