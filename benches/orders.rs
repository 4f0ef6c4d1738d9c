//! Reading an order file: parse time against input size (issue 15, "hostile
//! input refused in linear time").
//!
//! Run with `cargo bench --features bench --bench orders` (or, without the release profile's
//! fat LTO, `cargo bench --features bench --profile dev --bench orders`).
//!
//! Groups:
//! - `orders/valid/<bytes>`: a valid order file of real-looking orders
//!   (`"I1 2207",` one a line, as a War of the Dukes deployment) grown to
//!   about 1, 4, 16 and 60 KB. Time per byte should stay flat: linear growth.
//! - `orders/hostile/<bytes>`: a file of empty orders (`"",` one a line)
//!   and a wrong password, as a stranger might send, at about 1, 4, 16 and
//!   60 KB (parsed) and at 100 KB and 1 MB (over the size limit: refused
//!   before any parsing, so in about the time of a small file).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use herald::orders::OrderFile;
use std::time::Duration;

const HEAD: &str =
    "game = \"g1\"\nplayer = \"red\"\nturn = 0\npassword = \"abcd-efgh-jkmn\"\norders = [\n";

/// An order file of about `size` bytes whose orders are `order` (one a line).
fn file(size: usize, order: &str) -> String {
    let mut s = String::with_capacity(size + 64);
    s.push_str(HEAD);
    let mut k = 0usize;
    while s.len() + 2 < size {
        s.push_str("  \"");
        s.push_str(&order.replace('#', &(k % 100).to_string()));
        s.push_str("\",\n");
        k += 1;
    }
    s.push_str("]\n");
    s
}

fn sizes(c: &mut Criterion, group: &str, order: &str, sizes: &[usize]) {
    let mut g = c.benchmark_group(format!("orders/{group}"));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(3));
    g.warm_up_time(Duration::from_millis(500));
    for &size in sizes {
        let text = file(size, order);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(size), &text, |b, t| {
            b.iter(|| {
                let r = OrderFile::parse("o.toml", t);
                std::hint::black_box(r.is_ok())
            })
        });
    }
    g.finish();
}

fn orders(c: &mut Criterion) {
    sizes(c, "valid", "I# 2207", &[1_000, 4_000, 16_000, 60_000]);
    sizes(
        c,
        "hostile",
        "",
        &[1_000, 4_000, 16_000, 60_000, 100_000, 1_000_000],
    );
}

criterion_group!(benches, orders);
criterion_main!(benches);
