//! One bot decision, as `herald playtest` plays it (`bots::choose` on the
//! seat's view), for the per-game benchmarks: the position is the game's
//! start played on by its scripted player for a number of phases. Flat
//! sampling, ten decisions: `--measurement-time 5` is enough. The MCTS
//! figures are given in search iterations per second (criterion's
//! `elem/s`); a decision's time is the `time:` line.

use criterion::{black_box, Criterion, SamplingMode, Throughput};
use herald::bots::{self, BotSpec};
use herald::games::{BotSupport, Options};
use herald::rng;
use std::collections::BTreeMap;

/// `bots` (e.g. `greedy`, `mcts:1000`) deciding for the seat to order
/// after `phases` phases of the scripted player from the start.
pub fn bench<G: BotSupport>(
    c: &mut Criterion,
    options: &[(&str, &str)],
    seats: usize,
    phases: u32,
    specs: &[&str],
) {
    let rules = G::load_ruleset(G::RULESET).unwrap();
    let mut opts = Options::new();
    for (k, v) in options {
        opts.insert(k.to_string(), v.to_string());
    }
    let ids = bots::seat_ids(seats);
    let mut r = rng::from_u64(11);
    let mut st = G::setup(&rules, &ids, &opts, None, &mut r).unwrap().state;
    for _ in 0..phases {
        let orders: BTreeMap<usize, Vec<G::Order>> = G::awaiting(&rules, &st)
            .into_iter()
            .map(|s| (s, G::scripted_orders(&rules, &st, s, &mut r)))
            .collect();
        st = G::resolve(&rules, &st, &orders, &mut rng::Dice::quiet(&mut r)).0;
    }
    let seat = *G::awaiting(&rules, &st)
        .first()
        .expect("the game goes on after the scripted phases");
    let view = G::view(&rules, &st, &ids, seat, &[]);
    let mut group = c.benchmark_group(format!("bot/{}", G::NAME));
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    for name in specs {
        let spec = BotSpec::parse(name).unwrap();
        let its = match &spec {
            BotSpec::Mcts(s) => s.iterations as u64,
            _ => 1,
        };
        group.throughput(Throughput::Elements(its));
        group.bench_function(*name, |b| {
            b.iter(|| {
                black_box(
                    bots::choose::<G>(&rules, &view, seat, seats, &spec, &mut rng::from_u64(9))
                        .unwrap(),
                )
            })
        });
    }
    group.finish();
}
