//! The boards a report mail carries (issue 30): for every game, a game
//! played by the bots to mid-game, then
//!
//! - `board/<game>/mail_png`: the PNG board a report mail carries, drawn
//!   from the player's view (one core; budget 50 ms);
//! - `board/<game>/full_png`: beside it, the whole board (`report --format
//!   png --full`, the picture mails carried before);
//! - printed beside it, and held to the budget of 300 KB: the report
//!   mail's size with that PNG for every player.
//!
//! ```sh
//! cargo bench --features bench --bench boards -- --warm-up-time 1 --measurement-time 3
//! ```

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use herald::pipeline::{self, render, Loaded};
use std::path::PathBuf;
use std::time::Duration;

const GAMES: [(&str, u32); 5] = [
    ("norse-wars", 6),
    ("hexwar", 6),
    ("stack-wars", 12),
    ("unfought-battle", 3),
    ("war-of-the-dukes", 6),
];

/// A game played by the bots for `turns` turns, every player given an
/// address so that report mails can be made.
fn midgame(game: &str, turns: u32) -> (PathBuf, Loaded) {
    let dir =
        std::env::temp_dir().join(format!("herald-bench-boards-{game}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let entry = herald::games::find(game).unwrap();
    let players: Vec<String> = entry.demo_players.iter().map(|s| s.to_string()).collect();
    let now = chrono::DateTime::parse_from_rfc3339("2026-11-22T12:00:00Z").unwrap();
    let demo = pipeline::demo::demo(game, &dir, players, "boards", Vec::new(), now, turns).unwrap();
    let (_, mut g) = pipeline::open(&demo.game).unwrap();
    for p in g.record.head.players.iter_mut() {
        p.email = Some(format!("{}@players.test", p.id));
    }
    (dir, g)
}

/// The CPU time this thread has used: beside the wall time, what a
/// drawing costs one core whatever else the machine runs (a shared
/// machine stretches the wall time, not this).
fn cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given, nothing else
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The budget of a report mail with its PNG board.
const MAIL_BUDGET: usize = 300 * 1024;
/// The budget of drawing the PNG a report mail carries, on one core.
const PNG_BUDGET: Duration = Duration::from_millis(50);

/// The report mail for `seat` with its PNG board, as the host sends it,
/// and the PNG's size.
fn mail_size(g: &Loaded, seat: usize) -> (usize, usize) {
    let r = render::all(g, seat, None).unwrap();
    let (_, mail) = pipeline::derived::report_mail_with_png(g, seat, &r, "2026-11-22T12:00:00Z")
        .unwrap()
        .unwrap();
    let png = render::png(g, seat).unwrap();
    (mail.len(), png.len())
}

fn boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("board");
    group.sample_size(10);
    for (game, turns) in GAMES {
        let (dir, g) = midgame(game, turns);
        for seat in 0..g.head().players.len() {
            let (mail, png) = mail_size(&g, seat);
            eprintln!(
                "{game} turn {} {}: report mail {} KB, PNG {} KB",
                g.head().turn,
                g.head().players[seat].id,
                mail / 1024,
                png / 1024
            );
            assert!(
                mail <= MAIL_BUDGET,
                "{game}: a report mail of {} KB, over the budget of 300 KB",
                mail / 1024
            );
        }
        let seat = g.rules.awaiting(&g.state).first().copied().unwrap_or(0);
        // the time budget, said beside criterion's figures: the median of
        // 11 drawings (a size is exact, so it is held above; a time on a
        // shared machine is reported, and read against criterion's)
        let mut times: Vec<(Duration, Duration)> = (0..11)
            .map(|_| {
                let (t, c) = (std::time::Instant::now(), cpu());
                black_box(render::png(&g, seat).unwrap());
                (t.elapsed(), cpu() - c)
            })
            .collect();
        times.sort();
        let median = times[5].0;
        let mut cpus: Vec<Duration> = times.iter().map(|t| t.1).collect();
        cpus.sort();
        eprintln!(
            "{game}: the mail's PNG drawn in {:.1} ms (median of 11), {:.1} ms of the thread's CPU (median; least {:.1}){}",
            median.as_secs_f64() * 1000.0,
            cpus[5].as_secs_f64() * 1000.0,
            cpus[0].as_secs_f64() * 1000.0,
            if median > PNG_BUDGET {
                ", over the budget of 50 ms"
            } else {
                ""
            }
        );
        group.bench_function(format!("{game}/mail_png"), |b| {
            b.iter(|| black_box(render::png(&g, seat).unwrap()))
        });
        // beside it, the whole board as the mail carried it before issue
        // 30 (`report --format png --full`): the ratio of the two
        group.bench_function(format!("{game}/full_png"), |b| {
            b.iter(|| black_box(render::png_full(&g, seat).unwrap()))
        });
        let _ = std::fs::remove_dir_all(&dir);
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3));
    targets = boards
}
criterion_main!(benches);
