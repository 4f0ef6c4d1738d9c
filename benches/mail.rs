//! Running by mail: what a password check costs, and reading a mailbox.
//!
//! Run with `cargo bench --features bench --bench mail`.
//!
//! Groups:
//! - `password/*`: checking a password against its stored hash, with the
//!   standard Argon2id parameters every real game uses and with the light
//!   ones of demos and in-process test games. Every order file checked
//!   (`check`, `resolve`, `inbox`) pays one of these.
//! - `inbox/20_mails`: `herald inbox`'s work on a Maildir of 20 order mails
//!   from a light-hashed game (parse, find, check, store, reply), in-process.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use herald::auth::{self, Cost};
use std::path::PathBuf;
use std::time::Duration;

fn passwords(c: &mut Criterion) {
    let mut g = c.benchmark_group("password");
    g.measurement_time(Duration::from_secs(5));
    for (name, cost) in [("standard", Cost::Standard), ("light", Cost::Light)] {
        let stored = auth::hash("abcd-efgh-jkmn", &[9; 16], cost);
        g.bench_function(name, |b| {
            b.iter(|| assert!(auth::matches("abcd-efgh-jkmn", &stored)))
        });
    }
    g.finish();
}

/// A game and a Maildir of `n` mails, each a valid order file of red's.
fn setup(n: usize) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("herald-bench-inbox-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("game");
    let created = herald::pipeline::create(herald::pipeline::NewGame {
        game: "hexwar".into(),
        rules: None,
        players: vec!["red".into(), "blue".into()],
        seed: Some("bench".into()),
        options: Vec::new(),
        setup: None,
        id: Some("bench".into()),
        out: game.clone(),
        key: None,
        now: chrono::DateTime::parse_from_rfc3339("2026-11-22T12:00:00Z").unwrap(),
        secrets_from_seed: false,
        light_passwords: true,
        mail: Default::default(),
    })
    .unwrap();
    let pw = &created.passwords[0].1;
    let md = dir.join("Maildir");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    for k in 0..n {
        let body = herald::report::order_file("bench", "red", 0, pw, &["pass".into()]);
        let mail = format!(
            "From: red@example.org\r\nSubject: orders {k}\r\nDate: Mon, 23 Nov 2026 10:{:02}:00 +0000\r\nMessage-ID: <{k}@example.org>\r\n\r\n{}",
            k % 60,
            body.replace('\n', "\r\n")
        );
        std::fs::write(md.join("new").join(format!("{k:04}.mail")), mail).unwrap();
    }
    (game, md)
}

fn inbox(c: &mut Criterion) {
    let (game, md) = setup(20);
    let dir = game.parent().unwrap().to_path_buf();
    let mut g = c.benchmark_group("inbox");
    g.sample_size(20);
    g.bench_function("20_mails", |b| {
        b.iter_batched(
            || {
                for d in ["orders", "outbox", "inbox"] {
                    let _ = std::fs::remove_dir_all(game.join(d));
                }
            },
            |_| {
                let read = herald::pipeline::inbox::run(
                    &game,
                    &md,
                    "2026-11-23T12:00:00Z",
                    Duration::from_secs(5),
                )
                .unwrap();
                assert_eq!(read.len(), 20);
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, passwords, inbox);
criterion_main!(benches);
