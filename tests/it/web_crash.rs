//! kill -9 of `herald serve` at any instant while orders are being sent
//! from the pages (docs/web.md, "Orders through the door"): no order
//! whose POST got its answer is lost, and no answer mail is queued
//! twice or for orders that were not kept.

use crate::common::herald;
use crate::host_mail::Host;
use crate::mailservers::servers;
use crate::web::{csrf_in, enc, Server};
use crate::web_events::{seed_sessions, seeded_id};
use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

const GAMES: usize = 4;
const SIDES: [&str; 2] = ["white", "black"];

fn address(g: usize, side: &str) -> String {
    format!("p{g}{side}@web.test")
}

/// The game outbox's mails: file name and text.
fn outbox(game: &Path) -> Vec<(String, String)> {
    std::fs::read_dir(game.join("outbox"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                crate::host_mail::text(&std::fs::read(e.path()).unwrap()),
            )
        })
        .collect()
}

fn stored(game: &Path, turn: u32, side: &str) -> Option<serde_json::Value> {
    let p = game.join(format!("orders/turn-{turn:04}/{side}.json"));
    std::fs::read_to_string(p)
        .ok()
        .map(|t| serde_json::from_str(&t).unwrap())
}

/// One POST of `side`'s orders in game `g`, marked with the run; the
/// answer's words if the server answered.
fn post(srv: &Server, g: usize, side: &str, run: usize) -> Option<String> {
    let game = srv.dir.join(format!("k{g}"));
    let (_, loaded) = herald::pipeline::open(&game).ok()?;
    let seat = loaded.head().player_index(side)?;
    let legal = loaded.rules.legal_orders(&loaded.state, seat);
    let o = &legal[run % legal.len().max(1)];
    let mut file = herald::report::order_file(&format!("k{g}"), side, loaded.head().turn, "", o);
    file.push_str(&format!("\n# run {run}\n"));
    let id = seeded_id(&address(g, side), 0);
    let page = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        srv.get(&format!("/games/k{g}"), Some(&id))
    }))
    .ok()?;
    if page.0 != 200 {
        return None;
    }
    let csrf = csrf_in(&page.2);
    let (code, _, body) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        srv.post(
            &format!("/games/k{g}/orders"),
            Some(&id),
            &format!("csrf={csrf}&mail=1&file={}", enc(&file)),
        )
    }))
    .ok()?;
    (code == 200 && body.contains("ACCEPTED")).then_some(body)
}

/// kill -9 of the server at random instants while every seat of four
/// games sends orders from its page (the answer mailed too): after each
/// kill, every seat whose POST was answered ACCEPTED holds exactly those
/// orders (its receipt's signature); each answer mail queued in the run
/// is the only one of its seat and is for the orders kept. Then
/// `herald verify` passes on every game. `HERALD_WEB_KILL_RUNS` (default
/// 12) sets the runs.
// Long: the runs, then the checks of each against the folder.
#[test]
fn kill_9_of_the_server_loses_no_accepted_order_and_doubles_no_mail() {
    let runs = crate::common::count("HERALD_WEB_KILL_RUNS", 12);
    let h = Host::new(servers(), "");
    let mut sessions = Vec::new();
    for g in 0..GAMES {
        let players: Vec<(&str, String)> = SIDES.iter().map(|s| (*s, address(g, s))).collect();
        let refs: Vec<(&str, &str)> = players.iter().map(|(s, a)| (*s, a.as_str())).collect();
        h.game("hexwar", &format!("k{g}"), &refs, &[]);
        for s in SIDES {
            sessions.push((seeded_id(&address(g, s), 0), address(g, s)));
        }
    }
    seed_sessions(&h.dir, &sessions, &[]);
    // One run unkilled: how long the burst of POSTs takes.
    let t = Instant::now();
    let srv = Server::start(&h.dir);
    // The seats whose orders are awaited (no turn resolves in the test).
    let due: Vec<(usize, &'static str)> = (0..GAMES)
        .flat_map(|g| SIDES.iter().map(move |s| (g, *s)))
        .filter(|(g, s)| {
            let (_, l) = herald::pipeline::open(&h.dir.join(format!("k{g}"))).unwrap();
            let seat = l.head().player_index(s).unwrap();
            l.rules.awaiting(&l.state).contains(&seat)
        })
        .collect();
    assert!(due.len() >= GAMES, "{due:?}");
    let burst = |srv: &Server, run: usize| -> Vec<(usize, &'static str, Option<String>)> {
        std::thread::scope(|sc| {
            let hs: Vec<_> = due
                .iter()
                .copied()
                .map(|(g, s)| sc.spawn(move || (g, s, post(srv, g, s, run))))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        })
    };
    let first = burst(&srv, 0);
    assert!(
        first.iter().all(|(_, _, a)| a.is_some()),
        "unkilled: {first:?}"
    );
    let took = t.elapsed();
    drop(srv);
    let mut seed: u64 = 0x2545F4914F6CDD1D;
    let (mut answered, mut lost_answers, mut mails) = (0, 0, 0);
    for run in 1..=runs {
        let before: Vec<BTreeSet<String>> = (0..GAMES)
            .map(|g| {
                outbox(&h.dir.join(format!("k{g}")))
                    .into_iter()
                    .map(|(n, _)| n)
                    .collect()
            })
            .collect();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let srv = Server::start(&h.dir);
        let wait = Duration::from_micros(seed % (took.as_micros() as u64 * 12 / 10).max(1));
        let done = std::thread::scope(|sc| {
            let posting = sc.spawn(|| burst(&srv, run));
            std::thread::sleep(wait);
            // kill -9, wherever it is
            unsafe {
                libc::kill(srv_pid(&srv), libc::SIGKILL);
            }
            posting.join().unwrap()
        });
        drop(srv);
        for (g, side, answer) in done {
            let game = h.dir.join(format!("k{g}"));
            let (_, loaded) = herald::pipeline::open(&game).unwrap();
            let turn = loaded.head().turn;
            let kept = stored(&game, turn, side);
            let marked = kept.as_ref().is_some_and(|k| {
                k["text"]
                    .as_str()
                    .unwrap()
                    .contains(&format!("# run {run}\n"))
            });
            let new: Vec<String> = outbox(&game)
                .into_iter()
                .filter(|(n, t)| {
                    !before[g].contains(n)
                        && t.contains(&format!(
                            "Your orders as {side} for turn {turn} are ACCEPTED"
                        ))
                })
                .map(|(_, t)| t)
                .collect();
            if let Some(words) = &answer {
                answered += 1;
                let k = kept.as_ref().expect("answered ACCEPTED, nothing stored");
                assert!(
                    marked,
                    "k{g} {side}, run {run}: answered, but an older file is kept"
                );
                assert!(
                    words.contains(k["signature"].as_str().unwrap()),
                    "k{g} {side}, run {run}: the kept orders are not the answered ones"
                );
            } else if marked {
                lost_answers += 1;
            }
            assert!(
                new.len() <= 1,
                "k{g} {side}, run {run}: {} answer mails",
                new.len()
            );
            if let Some(m) = new.first() {
                mails += 1;
                assert!(
                    marked && m.contains(kept.as_ref().unwrap()["signature"].as_str().unwrap()),
                    "k{g} {side}, run {run}: an answer mail for orders not kept"
                );
            }
            if answer.is_some() {
                assert_eq!(new.len(), 1, "k{g} {side}, run {run}: answered, not mailed");
            }
        }
    }
    for g in 0..GAMES {
        let game = h.dir.join(format!("k{g}"));
        let (code, out, err) = herald(&["verify", &game.display().to_string()]);
        assert_eq!(code, 0, "k{g}: {out}{err}");
    }
    eprintln!(
        "web kill -9: {runs} runs of {} POSTs, {answered} answered, {lost_answers} kept but unanswered, {mails} answer mails",
        due.len()
    );
}

fn srv_pid(srv: &Server) -> i32 {
    srv.pid() as i32
}
