//! The playtest lab's speed (issue 20), for every game: whole random games
//! through the generic `Game` and `BotSupport` traits the lab uses (setup, random orders
//! for every awaited seat, resolve, until the end), and MCTS iterations
//! from the opening view of the first seat (random playouts cut off after
//! the default 20 phases). Throughput is reported per game and per
//! iteration; docs/performance.md has the figures.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use herald::bots::{self, BotSpec};
use herald::games::hexwar::Hexwar;
use herald::games::norse_wars::NorseWars;
use herald::games::stack_wars::StackWars;
use herald::games::unfought_battle::UnfoughtBattle;
use herald::games::war_of_the_dukes::WarOfTheDukes;
use herald::games::{BotSupport, Options};
use herald::rng;
use std::collections::BTreeMap;
use std::hint::black_box;

fn players(n: usize) -> Vec<String> {
    bots::seat_ids(n)
}

/// One whole random game; the number of phases.
fn random_game<G: BotSupport>(rules: &G::Ruleset, start: &G::State, seed: u64) -> u32 {
    let mut r = rng::from_u64(seed);
    let mut st = start.clone();
    let mut n = 0;
    while n < 5000 {
        let awaiting = G::awaiting(rules, &st);
        if awaiting.is_empty() {
            break;
        }
        let orders: BTreeMap<usize, Vec<G::Order>> = awaiting
            .into_iter()
            .map(|s| (s, G::random_orders(rules, &st, s, &mut r)))
            .collect();
        st = G::resolve(rules, &st, &orders, &mut herald::rng::Dice::quiet(&mut r)).0;
        n += 1;
    }
    n
}

/// A state a few random phases in, so that the search's first seat is to
/// order on a real position (and past simultaneous deployments).
fn midgame<G: BotSupport>(
    rules: &G::Ruleset,
    options: &Options,
    seats: usize,
    phases: u32,
) -> G::State {
    let ids = players(seats);
    let mut r = rng::from_u64(1);
    let mut st = G::setup(rules, &ids, options, None, &mut r).unwrap().state;
    for _ in 0..phases {
        let awaiting = G::awaiting(rules, &st);
        if awaiting.is_empty() {
            break;
        }
        let orders: BTreeMap<usize, Vec<G::Order>> = awaiting
            .into_iter()
            .map(|s| (s, G::random_orders(rules, &st, s, &mut r)))
            .collect();
        st = G::resolve(rules, &st, &orders, &mut herald::rng::Dice::quiet(&mut r)).0;
    }
    st
}

fn bench_game<G: BotSupport>(
    c: &mut Criterion,
    label: &str,
    options: &[(&str, &str)],
    seats: usize,
    bot: &str,
    its: u32,
) {
    let rules = G::load_ruleset(G::RULESET).unwrap();
    let mut opts = Options::new();
    for (k, v) in options {
        opts.insert(k.to_string(), v.to_string());
    }
    let ids = players(seats);
    let start = G::setup(&rules, &ids, &opts, None, &mut rng::from_u64(1))
        .unwrap()
        .state;
    let mut g = c.benchmark_group(format!("playtest/{label}"));
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(4));
    g.warm_up_time(std::time::Duration::from_secs(1));
    g.throughput(Throughput::Elements(1));
    let mut seed = 0;
    g.bench_function("random game", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_game::<G>(&rules, &start, seed))
        })
    });
    let st = midgame::<G>(&rules, &opts, seats, 2);
    let seat = G::awaiting(&rules, &st)[0];
    let view = G::view(&rules, &st, &ids, seat, &[]);
    let spec = BotSpec::parse(&format!("{bot}:{its}")).unwrap();
    g.throughput(Throughput::Elements(its as u64));
    g.bench_function(format!("{bot} iterations"), |b| {
        b.iter_batched(
            || rng::from_u64(9),
            |mut r| {
                black_box(bots::choose::<G>(&rules, &view, seat, seats, &spec, &mut r).unwrap())
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    bench_game::<NorseWars>(c, "norse-wars", &[], 2, "mcts", 200);
    bench_game::<NorseWars>(c, "norse-wars-fog-3p", &[("fog", "true")], 3, "ismcts", 200);
    bench_game::<Hexwar>(c, "hexwar", &[], 2, "mcts", 200);
    bench_game::<StackWars>(c, "stack-wars", &[], 2, "mcts", 200);
    bench_game::<UnfoughtBattle>(c, "unfought-battle", &[], 2, "ismcts", 200);
    bench_game::<WarOfTheDukes>(c, "war-of-the-dukes", &[], 2, "mcts", 10);
}

criterion_group!(playtest, benches);
criterion_main!(playtest);
