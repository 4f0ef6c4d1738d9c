//! The playtest lab and the view-only bots (issue 20): results do not depend
//! on the number of threads or the sharding; every bot plays every game to
//! its end; the bots never read what the view hides (two states that
//! differ only in hidden pieces give the same orders, through the same
//! entry point the missed-orders policy uses); the summary, its JSON and
//! its plot.

use crate::common::{herald, scratch};
use herald::bots::BotSpec;
use herald::games::{self, AnyState, Game, Options, Rules};
use herald::pipeline::nmr;
use herald::playtest::{self, summary, Run};
use herald::rng;

fn run(game: &str, games: u64, bots: &[&str], jobs: usize, shard: (u64, u64)) -> Run {
    Run {
        game: game.to_string(),
        rules: None,
        weights: None,
        games,
        bots: bots.iter().map(|b| BotSpec::parse(b).unwrap()).collect(),
        options: Options::new(),
        seed: "lab".to_string(),
        jobs,
        shard,
        evals: true,
        choices: true,
        coverage: true,
        max_phases: 5000,
    }
}

#[test]
fn results_are_the_same_whatever_the_threads_and_shards() {
    let entry = games::find("norse-wars").unwrap();
    let bots = ["mcts:30:d4", "greedy", "random"];
    let one = playtest::run(entry, &run("norse-wars", 6, &bots, 1, (1, 1))).unwrap();
    let two = playtest::run(entry, &run("norse-wars", 6, &bots, 2, (1, 1))).unwrap();
    assert_eq!(one.len(), 6);
    assert_eq!(one, two, "--jobs 2 gave other results than --jobs 1");
    let mut shards = Vec::new();
    for i in 1..=4 {
        shards.extend(playtest::run(entry, &run("norse-wars", 6, &bots, 2, (i, 4))).unwrap());
    }
    shards.sort_by_key(|r| r.index);
    assert_eq!(one, shards, "shards 1/4 … 4/4 are not the whole run");
    // Counting the choices and keeping the evaluations leaves the games as
    // they are.
    let plain = playtest::run(entry, &{
        let mut r = run("norse-wars", 6, &bots, 2, (1, 1));
        r.evals = false;
        r.choices = false;
        r.coverage = false;
        r
    })
    .unwrap();
    for (a, b) in one.iter().zip(&plain) {
        assert!(a
            .choices
            .as_ref()
            .is_some_and(|c| c.len() == a.length as usize));
        let mut a = a.clone();
        let c = a.coverage.expect("--coverage recorded");
        // Three players: radius 5, 91 hexes; 3 Jarls, 15 Warriors and 3
        // Shields at the start.
        assert!(
            c.sites == 91 && c.covered >= 21 && c.covered <= c.sites,
            "{c:?}"
        );
        a.evals = None;
        a.choices = None;
        a.coverage = None;
        assert_eq!(&a, b);
    }
    // Seats rotate: each bot sits in each seat twice in six games.
    for b in bots {
        for s in 0..3 {
            let n = one.iter().filter(|r| r.bots[s] == b).count();
            assert_eq!(n, 2, "{b} in seat {s}");
        }
    }
    // A game of a round shares the setup; other seeds give other games.
    let other = playtest::run(entry, &{
        let mut r = run("norse-wars", 6, &bots, 1, (1, 1));
        r.seed = "other".into();
        r
    })
    .unwrap();
    assert_ne!(one, other);
}

/// War of the Dukes' search (per-piece bandits, the enemy's reply played
/// with the search's dice) gives the same games whatever the threads and
/// shards, and another seed other games (issue 53).
#[test]
fn war_of_the_dukes_search_gives_the_same_games_for_any_jobs_and_shards() {
    let entry = games::find("war-of-the-dukes").unwrap();
    let bots = ["mcts:40", "greedy"];
    let go = |jobs: usize, shard: (u64, u64), seed: &str| {
        let mut r = run("war-of-the-dukes", 4, &bots, jobs, shard);
        r.seed = seed.into();
        playtest::run(entry, &r).unwrap()
    };
    let one = go(1, (1, 1), "lab");
    assert_eq!(one.len(), 4);
    assert!(one.iter().all(|r| r.finished), "{one:?}");
    assert_eq!(go(2, (1, 1), "lab"), one, "--jobs 2 gave other games");
    let mut shards = go(2, (1, 2), "lab");
    shards.extend(go(1, (2, 2), "lab"));
    shards.sort_by_key(|r| r.index);
    assert_eq!(shards, one, "shards 1/2 and 2/2 are not the whole run");
    assert_ne!(go(1, (1, 1), "other"), one);
}

/// War of the Dukes' search works its expected reply out once for each
/// position it reaches (`BotSupport::playout_key`, the search's memo) and
/// makes each combination it tries legal once: the same orders, so a game
/// of the published run is played again to the same line (issue 53: the
/// 0.07 s budget without other games).
#[test]
fn war_of_the_dukes_search_plays_the_published_games_again() {
    let entry = games::find("war-of-the-dukes").unwrap();
    let file = "docs/playtest/war-of-the-dukes/mcts-greedy-reply.jsonl";
    let text = std::fs::read_to_string(file).unwrap();
    let mut r = run(
        "war-of-the-dukes",
        400,
        &["mcts:1000", "greedy"],
        1,
        (1, 400),
    );
    r.seed = "31".into();
    (r.evals, r.choices, r.coverage) = (false, false, false);
    let got = playtest::jsonl(&playtest::run(entry, &r).unwrap());
    // The result's words name the seat as the reports now do ("seat 1
    // (Orfburg)" where the file says "0 (Orfburg)"); the game is the rest:
    // winners, length, scores, margin, lead changes.
    let game = |line: &str| {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        v.as_object_mut().unwrap().remove("result");
        v
    };
    let want = text.lines().next().unwrap();
    assert_eq!(
        game(got.trim_end()),
        game(want),
        "game 0 of seed 31 ({file}) played otherwise"
    );
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn the_command_line_writes_the_same_bytes_for_any_jobs_and_shards() {
    let dir = scratch("playtest-cli");
    let out = |name: &str| dir.join(name).display().to_string();
    let base = [
        "playtest",
        "unfought-battle",
        "--games",
        "4",
        "--bots",
        "ismcts:20:d3,random",
        "--seed",
        "7",
        "--evals",
        "--choices",
        "--coverage",
    ];
    let go = |extra: &[&str], file: &str| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        let f = out(file);
        a.extend_from_slice(&["--out", &f]);
        let (code, stdout, stderr) = herald(&a);
        assert_eq!(code, 0, "{stdout}{stderr}");
        std::fs::read_to_string(&f).unwrap()
    };
    let whole = go(&["--jobs", "1"], "whole.jsonl");
    assert_eq!(whole.lines().count(), 4);
    // The records carry the evaluations, choice counts and coverage (the
    // ten forces' start hexes at least, of the 7 × 7 board), and no time.
    for l in whole.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let len = v["length"].as_u64().unwrap() as usize;
        assert_eq!(v["evals"].as_array().unwrap().len(), len, "{l}");
        assert_eq!(v["choices"].as_array().unwrap().len(), len, "{l}");
        assert_eq!(v["coverage"]["sites"], 49, "{l}");
        let covered = v["coverage"]["covered"].as_u64().unwrap();
        assert!((10..=49).contains(&covered), "{l}");
        assert!(!l.contains("cpu") && !l.contains("time"), "{l}");
    }
    // Without --coverage the lines are the same bytes, the count left out.
    let without: Vec<&str> = base
        .iter()
        .copied()
        .filter(|a| *a != "--coverage")
        .collect();
    let plain = {
        let f = out("plain.jsonl");
        let mut a = without.clone();
        a.extend_from_slice(&["--out", &f]);
        let (code, stdout, stderr) = herald(&a);
        assert_eq!(code, 0, "{stdout}{stderr}");
        std::fs::read_to_string(&f).unwrap()
    };
    let stripped: String = whole
        .lines()
        .map(|l| {
            l.split_once(",\"coverage\":")
                .expect("coverage last")
                .0
                .to_string()
                + "}\n"
        })
        .collect();
    assert_eq!(plain, stripped);
    assert_eq!(go(&["--jobs", "2"], "j2.jsonl"), whole);
    let mut lines: Vec<String> = Vec::new();
    for i in 1..=3 {
        let s = format!("{i}/3");
        lines.extend(
            go(&["--shard", &s], &format!("s{i}.jsonl"))
                .lines()
                .map(String::from),
        );
    }
    let index = |l: &String| {
        serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
            .as_u64()
            .unwrap()
    };
    lines.sort_by_key(index);
    assert_eq!(lines.join("\n") + "\n", whole);
    // The summary reads shards together, refuses a shard given twice.
    let (code, text, err) = herald(&[
        "playtest",
        "summarize",
        &out("s1.jsonl"),
        &out("s2.jsonl"),
        &out("s3.jsonl"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("unfought-battle (default options), 2 seats: 4 games"),
        "{text}"
    );
    assert!(
        text.contains("seat 1") && text.contains("ismcts:20:d3"),
        "{text}"
    );
    assert!(
        text.contains("board coverage (Ludii Board Coverage Default: the share of the board's 49 sites that held a piece at some point, the start included; 4 games):"),
        "{text}"
    );
    // Beside --against: the same games, no difference.
    let (code, text, err) = herald(&[
        "playtest",
        "summarize",
        &out("whole.jsonl"),
        "--against",
        &out("j2.jsonl"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("board coverage (Ludii)"), "{text}");
    assert!(
        text.contains("board coverage, A - B: +0.0 points [")
            && text.contains("(95%): no difference shown"),
        "{text}"
    );
    // A file without the count prints none.
    let (code, text, err) = herald(&["playtest", "summarize", &out("plain.jsonl")]);
    assert_eq!(code, 0, "{err}");
    assert!(!text.contains("board coverage"), "{text}");
    let (code, _, err) = herald(&["playtest", "summarize", &out("s1.jsonl"), &out("s1.jsonl")]);
    assert_eq!(code, 1);
    assert!(err.contains("given twice"), "{err}");
    // Usage errors.
    let (code, _, err) = herald(&["playtest", "hexwar", "--shard", "4/3"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = herald(&["playtest", "hexwar", "--bots", "alphazero,random"]);
    assert_eq!(code, 2);
    assert!(err.contains("no bot called `alphazero`"), "{err}");
    let (code, _, err) = herald(&["playtest", "hexwar", "--option", "fog=true"]);
    assert_eq!(code, 2);
    assert!(err.contains("no such option"), "{err}");
    let (code, _, err) = herald(&[
        "playtest",
        "unfought-battle",
        "--games",
        "1",
        "--bots",
        "mcts:5,random",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("use `ismcts`"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_bot_plays_every_game_to_its_end() {
    type Case<'a> = (&'a str, &'a [&'a str], &'a [(&'a str, &'a str)]);
    let cases: &[Case] = &[
        ("norse-wars", &["mcts:20:d4", "greedy"], &[]),
        ("norse-wars", &["random", "greedy", "mcts:10:d3"], &[]),
        (
            "norse-wars",
            &["ismcts:10:d3", "random"],
            &[("fog", "true")],
        ),
        ("hexwar", &["mcts:10:d3", "greedy"], &[]),
        ("hexwar", &["random", "random"], &[]),
        ("stack-wars", &["greedy", "random"], &[("size", "5")]),
        ("stack-wars", &["mcts:10:d3", "greedy"], &[("size", "4")]),
        ("unfought-battle", &["ismcts:20:d3", "greedy"], &[]),
        ("unfought-battle", &["random", "random"], &[]),
        ("war-of-the-dukes", &["greedy", "random"], &[]),
        ("war-of-the-dukes", &["mcts:3:d1", "random"], &[]),
    ];
    for (game, bots, opts) in cases {
        let entry = games::find(game).unwrap();
        let mut r = run(game, 2, bots, 2, (1, 1));
        r.games = bots.len() as u64;
        r.evals = false;
        r.choices = false;
        for (k, v) in *opts {
            r.options.insert(k.to_string(), v.to_string());
        }
        let records = playtest::run(entry, &r).unwrap_or_else(|e| panic!("{game} {bots:?}: {e}"));
        for rec in &records {
            assert!(
                rec.finished,
                "{game} {:?} did not finish within the length limit: {rec:?}",
                rec.bots
            );
            assert!(rec.length > 0);
        }
    }
}

#[test]
fn mcts_beats_random_and_greedy_in_a_small_match() {
    // Deterministic (seeded): a small version of the tournaments in
    // docs/playtest/, to catch a search that stopped searching.
    let entry = games::find("norse-wars").unwrap();
    let recs = playtest::run(
        entry,
        &run("norse-wars", 4, &["mcts:200", "random"], 2, (1, 1)),
    )
    .unwrap();
    let won = recs.iter().filter(|r| {
        let s = r.bots.iter().position(|b| b == "mcts:200").unwrap();
        r.winners == vec![s]
    });
    assert_eq!(won.count(), 4, "{recs:?}");
    let entry = games::find("hexwar").unwrap();
    let recs = playtest::run(
        entry,
        &run("hexwar", 2, &["mcts:100:d6", "random"], 2, (1, 1)),
    )
    .unwrap();
    for r in &recs {
        let s = r.bots.iter().position(|b| b == "mcts:100:d6").unwrap();
        assert_eq!(r.winners, vec![s], "{r:?}");
    }
}

fn rules_of(game: &str) -> Box<dyn Rules> {
    let e = games::find(game).unwrap();
    e.load(e.ruleset).unwrap()
}

/// Orders from every bot on the seat's view, and from the missed-orders
/// and bot-seat entry point (which is handed the whole state and must
/// build the view).
fn all_orders(s: &dyn Rules, st: &AnyState, players: &[String], seat: usize) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let view = s.view(st, players, seat, &[]).unwrap();
    for b in ["random", "greedy", "ismcts:40:d4"] {
        let spec = BotSpec::parse(b).unwrap();
        out.push(
            herald::bots::choose_on_view(
                s,
                &view,
                seat,
                players.len(),
                &spec,
                &mut rng::from_u64(11),
            )
            .unwrap(),
        );
    }
    out.push(nmr::bot_orders(
        s,
        st,
        players,
        seat,
        &[],
        &herald::bots::STAND_IN,
        &mut rng::from_u64(12),
    ));
    // A bot seat's path (`nmr::bot_seat`): its own spec through the same
    // view-only call; `mcts` on a view that hides searches as `ismcts`.
    out.push(nmr::bot_orders(
        s,
        st,
        players,
        seat,
        &[],
        &BotSpec::parse("mcts:40:d4").unwrap(),
        &mut rng::from_u64(13),
    ));
    out
}

#[test]
fn norse_wars_bots_under_fog_do_not_see_hidden_pieces() {
    use herald::games::norse_wars::{state::State, NorseWars};
    let r = NorseWars::load_ruleset(NorseWars::RULESET).unwrap();
    let players: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let mut opts = Options::new();
    opts.insert("fog".into(), "true".into());
    let st = NorseWars::setup(&r, &players, &opts, None, &mut rng::from_u64(3))
        .unwrap()
        .state;
    let seat = st.to_move().unwrap();
    let view =
        |st: &State| serde_json::to_value(NorseWars::view(&r, st, &players, seat, &[])).unwrap();
    let v0 = view(&st);
    let labels = st.labels();
    let seen: Vec<String> = v0["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["hex"].as_str().unwrap().to_string())
        .collect();
    let fogged: Vec<herald::board::Hex> = v0["fogged"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| labels.parse(l.as_str().unwrap()).unwrap())
        .collect();
    // A hidden piece, and a free fogged hex to move it to.
    let (k, _) = st
        .pieces
        .iter()
        .enumerate()
        .find(|(_, p)| p.at.is_some_and(|h| !seen.contains(&st.label(h))))
        .expect("a piece out of sight");
    let to = *fogged
        .iter()
        .find(|h| {
            **h != herald::board::Hex::ORIGIN && st.piece_at(**h).is_none() && !st.is_shield(**h)
        })
        .expect("a free fogged hex");
    let mut other = st.clone();
    other.put(k, Some(to));
    // A second hidden difference: that player's Warriors' starvation order.
    let owner = other.pieces[k].seat as usize;
    other.seats[owner].starve_preference = vec![3, 1];
    assert_ne!(
        serde_json::to_value(&st).unwrap(),
        serde_json::to_value(&other).unwrap()
    );
    assert_eq!(
        view(&st),
        view(&other),
        "the two states must look the same to the seat"
    );
    let s = rules_of("norse-wars");
    let a: AnyState = Box::new(st);
    let b: AnyState = Box::new(other);
    assert_eq!(
        all_orders(s.as_ref(), &a, &players, seat),
        all_orders(s.as_ref(), &b, &players, seat)
    );
}

#[test]
fn unfought_battle_bots_do_not_see_hidden_forces_powers_or_shih() {
    use herald::games::unfought_battle::{playout, state::State, UnfoughtBattle};
    let r = UnfoughtBattle::load_ruleset(UnfoughtBattle::RULESET).unwrap();
    let players: Vec<String> = ["north", "south"].iter().map(|s| s.to_string()).collect();
    let mut g = rng::from_u64(5);
    let mut st = playout::new_game(&r, &mut g);
    let mut ev = Vec::new();
    // Deploy, then a turn of random orders: the forces are spread but far apart.
    for _ in 0..2 {
        let orders = (0..2)
            .map(|s| (s, playout::random_orders(&r, &st, s, &mut g)))
            .collect();
        st = playout::step(
            &r,
            &st,
            &orders,
            &mut herald::rng::Dice::quiet(&mut g),
            &mut ev,
        );
    }
    let seat = 0;
    let sight = r.sight.range;
    let hidden = |st: &State| -> Vec<usize> {
        (0..st.sides[1].forces.len())
            .filter(|&i| {
                let f = &st.sides[1].forces[i];
                f.alive
                    && !st.sides[0].knows(f.id)
                    && st.sides[0].living().all(|m| m.at.distance(f.at) > sight)
            })
            .collect()
    };
    let h = hidden(&st);
    assert!(h.len() >= 2, "need two enemy forces out of sight: {h:?}");
    let mut other = st.clone();
    // Swap the powers of two hidden forces, move one to a free hex out of
    // sight, and change the enemy's Shih.
    let (i, j) = (h[0], h[1]);
    let pi = other.sides[1].forces[i].power;
    other.sides[1].forces[i].power = other.sides[1].forces[j].power;
    other.sides[1].forces[j].power = pi;
    let free = other
        .board
        .hexes()
        .find(|x| {
            other.board.playable(*x)
                && other.occupant(*x).is_none()
                && other.sides[0].living().all(|m| m.at.distance(*x) > sight)
                && *x != other.sides[1].forces[i].at
        })
        .expect("a free hex out of sight");
    other.sides[1].forces[i].at = free;
    other.sides[1].shih = if st.sides[1].shih == 0 { 7 } else { 0 };
    let view = |st: &State| {
        serde_json::to_value(UnfoughtBattle::view(&r, st, &players, seat, &[])).unwrap()
    };
    assert_eq!(
        view(&st),
        view(&other),
        "the two states must look the same to north"
    );
    let s = rules_of("unfought-battle");
    let a: AnyState = Box::new(st);
    let b: AnyState = Box::new(other);
    assert_eq!(
        all_orders(s.as_ref(), &a, &players, seat),
        all_orders(s.as_ref(), &b, &players, seat)
    );
}

#[test]
fn war_of_the_dukes_deployment_bots_see_no_deployment() {
    // The deployment is simultaneous: until both files are in, the state
    // holds no position for either side, so there is nothing to leak; the
    // bot's deployment is the same whichever side it plays against and
    // whatever that side will deploy (it is not in the state to read).
    let s = rules_of("war-of-the-dukes");
    let players: Vec<String> = ["orfburg", "wulfenburg"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (st, _) = s
        .setup(&players, &Options::new(), None, &mut rng::from_u64(1))
        .unwrap();
    let v = s.view_json(&s.view(&st, &players, 0, &[]).unwrap());
    assert!(v["units"].as_array().unwrap().is_empty());
    let a = nmr::bot_orders(
        s.as_ref(),
        &st,
        &players,
        0,
        &[],
        &herald::bots::STAND_IN,
        &mut rng::from_u64(2),
    );
    let b = nmr::bot_orders(
        s.as_ref(),
        &st,
        &players,
        0,
        &[],
        &herald::bots::STAND_IN,
        &mut rng::from_u64(2),
    );
    assert_eq!(a, b);
    assert_eq!(a.len(), 31, "a whole deployment: {a:?}");
}

#[test]
fn the_summary_reports_intervals_and_plots_them() {
    let entry = games::find("hexwar").unwrap();
    let recs = playtest::run(entry, &run("hexwar", 6, &["greedy", "random"], 2, (1, 1))).unwrap();
    let text = playtest::jsonl(&recs);
    let back = summary::read("x", &text).unwrap();
    assert_eq!(back, recs, "result lines read back as written");
    let tables = summary::tables(&back).unwrap();
    assert_eq!(tables.len(), 1);
    let t = &tables[0];
    assert_eq!(t.games, 6);
    assert_eq!(t.by_seat.len(), 2);
    for r in &t.by_seat {
        assert!(r.low <= r.rate && r.rate <= r.high);
    }
    let out = summary::text(&tables);
    assert!(
        out.contains("by seat:") && out.contains("95% Wilson"),
        "{out}"
    );
    assert_eq!(
        out,
        summary::text(&summary::tables(&back).unwrap()),
        "same bytes"
    );
    let json: serde_json::Value = serde_json::from_str(&summary::json(&tables)).unwrap();
    assert_eq!(json[0]["games"], 6);
    let svg = summary::plot(t);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let bars: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("bar"))
        .collect();
    assert_eq!(bars.len(), 4, "two bots in two seats");
    for b in bars {
        let rate: f64 = b.attribute("data-rate").unwrap().parse().unwrap();
        let low: f64 = b.attribute("data-low").unwrap().parse().unwrap();
        assert!(low <= rate);
    }
    // Bad lines name the file and line.
    let err = summary::read("r.jsonl", "{\"game\":1}\n").unwrap_err();
    assert!(err.starts_with("r.jsonl:1:"), "{err}");
}

/// A `herald playtest summarize` command of docs/playtest/'s pages: its
/// result files (those after `--against` apart) and the .txt its output is
/// kept in (as docs/playtest/regenerate.sh names it).
struct Documented {
    files: Vec<std::path::PathBuf>,
    against: Vec<std::path::PathBuf>,
    txt: std::path::PathBuf,
}

fn documented_summaries() -> Vec<Documented> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<_> = std::fs::read_dir(root.join("docs/playtest"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md") && !p.ends_with("README.md"))
        .collect();
    pages.sort();
    let mut out = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        let mut in_sh = false;
        for line in text.lines() {
            if line.starts_with("```") {
                in_sh = line == "```sh";
                continue;
            }
            let Some(rest) = line
                .strip_prefix("herald playtest summarize ")
                .filter(|_| in_sh)
            else {
                continue;
            };
            let (mut files, mut against) = (Vec::new(), Vec::new());
            let mut mode = 0;
            for a in rest.split_whitespace() {
                match a {
                    "--against" => mode = 1,
                    _ if a.starts_with("--") => mode = 2,
                    _ if mode == 0 => files.push(root.join(a)),
                    _ if mode == 1 => against.push(root.join(a)),
                    _ => {}
                }
            }
            let mut name = files[0].with_extension("").display().to_string();
            for f in files[1..].iter().chain(&against) {
                name.push_str(&format!("-vs-{}", f.file_stem().unwrap().to_string_lossy()));
            }
            out.push(Documented {
                files,
                against,
                txt: std::path::PathBuf::from(name + ".txt"),
            });
        }
    }
    out
}

/// The first line of a result file whose figures do not describe today's
/// herald, said: played under another ruleset text than today's (the
/// built-in one, or the variant file beside it), or, where a bot of the
/// line searches with the learned prior (`:prior`), with another weight
/// file than today's (the game's own, or the `--weights` file named).
/// Lines of bots without a prior do not depend on the weights.
fn stale_line(file: &str, recs: &[playtest::Record]) -> Option<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (i, r) in recs.iter().enumerate() {
        let e = games::find(&r.game).unwrap();
        let want = match &r.rules {
            None => herald::chain::canon::sha256_hex(e.ruleset.as_bytes()),
            Some(v) => herald::chain::canon::sha256_hex(&std::fs::read(root.join(v)).unwrap()),
        };
        if r.ruleset_sha256.as_deref() != Some(want.as_str()) {
            return Some(format!(
                "{file} line {}: played with {:?}, today's ruleset is {want}",
                i + 1,
                r.ruleset_sha256
            ));
        }
        if !r.bots.iter().any(|b| b.ends_with(":prior")) {
            continue;
        }
        let want = match &r.weights {
            None => playtest::builtin_weights_sha256(e),
            Some(w) => std::fs::read(root.join(w))
                .ok()
                .map(|t| herald::chain::canon::sha256_hex(&t)),
        };
        if want.is_none() || r.weights_sha256 != want {
            return Some(format!(
                "{file} line {}: played with the weights {:?}, today's are {want:?}",
                i + 1,
                r.weights_sha256
            ));
        }
    }
    None
}

/// Figures that cannot go stale: every game of every result file in
/// docs/playtest/ records the ruleset it was played with, which is today's
/// built-in one (or the variant file beside it), and every kept summary is
/// what `summarize` prints from those files today. A change to a game's
/// rules fails this until docs/playtest/regenerate.sh has been run.
#[test]
fn documented_figures_are_of_todays_rules() {
    let docs = documented_summaries();
    assert!(
        docs.len() >= 25,
        "the pages' commands were found: {}",
        docs.len()
    );
    let mut stale = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for Documented {
        files,
        against,
        txt,
    } in &docs
    {
        let mut records = Vec::new();
        let mut others = Vec::new();
        for f in files.iter().chain(against) {
            let text = std::fs::read_to_string(f).unwrap();
            let recs = summary::read(&f.display().to_string(), &text).unwrap();
            if seen.insert(f.clone()) {
                stale.extend(stale_line(&f.display().to_string(), &recs));
            }
            if against.contains(f) {
                others.extend(recs);
            } else {
                records.extend(recs);
            }
        }
        let tables = summary::tables(&records).unwrap();
        let printed = if against.is_empty() {
            summary::text(&tables)
        } else {
            let b = summary::tables(&others).unwrap();
            summary::compare_text(&summary::compare(&tables[0], &b[0]).unwrap())
        }
        .trim_end()
        .to_string()
            + "\n";
        let kept = std::fs::read_to_string(txt).unwrap_or_default();
        if kept != printed {
            stale.push(format!(
                "{} is not what summarize prints from {} files today",
                txt.display(),
                files.len() + against.len()
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "figures in docs/playtest/ do not describe today's rules; run docs/playtest/regenerate.sh:\n{}",
        stale.join("\n")
    );
}

/// Every result file in docs/playtest/ is read by a `summarize` command
/// written out on a page, so the staleness check above and
/// regenerate.sh see it; and each is written by a `herald playtest`
/// command on a page (no "the same with size=7": each size its own
/// command, issue 53).
#[test]
fn every_documented_result_file_has_its_commands_written_out() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read: std::collections::BTreeSet<std::path::PathBuf> = documented_summaries()
        .into_iter()
        .flat_map(|d| d.files.into_iter().chain(d.against))
        .collect();
    let pages: String = std::fs::read_dir(root.join("docs/playtest"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let written: Vec<&str> = pages
        .lines()
        .filter(|l| {
            l.starts_with("herald playtest ") && !l.starts_with("herald playtest summarize")
        })
        .collect();
    let mut missing = Vec::new();
    let mut stack = vec![root.join("docs/playtest")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "jsonl") {
                let rel = p.strip_prefix(root).unwrap().display().to_string();
                if !read.contains(&p) {
                    missing.push(format!("{rel}: no `herald playtest summarize` reads it"));
                }
                let out = format!("--out {rel}");
                let shard = format!("--out {}", rel.trim_end_matches(".jsonl"));
                if !written
                    .iter()
                    .any(|l| l.contains(&out) || l.contains(&shard))
                {
                    missing.push(format!("{rel}: no `herald playtest` command writes it"));
                }
            }
        }
    }
    missing.sort();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The verdict lines say only what the intervals back: a clear seat
/// advantage is named, an even split over few games is not called
/// balanced, and a stale file is told.
#[test]
fn summaries_give_verdicts_the_statistics_back() {
    let rec = |index: u64, winner: usize, sha: Option<&str>| playtest::Record {
        game: "hexwar".into(),
        rules: None,
        ruleset_sha256: sha.map(str::to_string),
        weights: None,
        weights_sha256: None,
        herald: None,
        options: Default::default(),
        seed: "v".into(),
        index,
        round: index / 2,
        seats: 2,
        bots: vec!["greedy".into(), "greedy".into()],
        winners: vec![winner],
        draw: false,
        finished: true,
        length: 10,
        scores: vec![0, 0],
        margin: 0,
        lead_changes: 0,
        result: format!("{winner} won"),
        evals: None,
        choices: None,
        coverage: None,
    };
    let today = {
        let e = games::find("hexwar").unwrap();
        herald::chain::canon::sha256_hex(e.ruleset.as_bytes())
    };
    // 300 of 400 to seat 1: favoured, p far below 0.05.
    let lopsided: Vec<_> = (0..400)
        .map(|i| rec(i, usize::from(i % 4 == 3), Some(&today)))
        .collect();
    let t = summary::text(&summary::tables(&lopsided).unwrap());
    assert!(t.contains("rules: today's built-in ruleset"), "{t}");
    assert!(
        t.contains("exact binomial test, p < 0.0001: the seats' shares differ"),
        "{t}"
    );
    assert!(t.contains("seat 1   75.0% [ 70.5,  79.0]  favoured"), "{t}");
    assert!(t.contains("disfavoured"), "{t}");
    // 11 of 20: not called balanced, more games asked for.
    let few: Vec<_> = (0..20)
        .map(|i| rec(i, usize::from(i >= 11), Some("0000")))
        .collect();
    let t = summary::text(&summary::tables(&few).unwrap());
    assert!(t.contains("no difference between the seats shown"), "{t}");
    assert!(t.contains("not shown either way"), "{t}");
    assert!(!t.contains("balanced:"), "{t}");
    assert!(
        t.contains("STALE: 20 games were played with ruleset sha256 0000…"),
        "{t}"
    );
    // 2,000 games split evenly: balanced within the margin.
    let even: Vec<_> = (0..2000).map(|i| rec(i, (i % 2) as usize, None)).collect();
    let t = summary::text(&summary::tables(&even).unwrap());
    assert!(
        t.contains("balanced: [47.8, 52.2] lies within 50.0% ± 5 points"),
        "{t}"
    );
    assert!(t.contains("not recorded in 2000 games"), "{t}");
}

/// The run prints its bots' CPU time per decision, beside the result
/// lines, never in them (on standard error, when that is a terminal, when
/// the lines go to standard output).
#[test]
fn the_run_prints_time_per_move_outside_the_result_lines() {
    let dir = scratch("playtest-time");
    let f = dir.join("t.jsonl").display().to_string();
    let args = [
        "playtest",
        "hexwar",
        "--games",
        "2",
        "--bots",
        "greedy,random",
        "--seed",
        "3",
    ];
    let mut with_out = args.to_vec();
    with_out.extend_from_slice(&["--out", &f]);
    let (code, out, err) = herald(&with_out);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("2 games of hexwar written to"), "{out}");
    let line = |bot: &str, text: &str| -> (f64, u64) {
        let l = text
            .lines()
            .find(|l| l.trim_start().starts_with(bot))
            .unwrap_or_else(|| panic!("no line for {bot}: {text}"));
        let w: Vec<&str> = l.split_whitespace().collect();
        (w[1].parse().unwrap(), w[w.len() - 2].parse().unwrap())
    };
    assert!(out.contains("CPU time per decision"), "{out}");
    // Decisions: every phase the bot's seat moved, from the lines.
    let lines = std::fs::read_to_string(&f).unwrap();
    let phases: u64 = lines
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["length"]
                .as_u64()
                .unwrap()
        })
        .sum();
    let (g_ms, g_n) = line("greedy", &out);
    let (_, r_n) = line("random", &out);
    assert_eq!(g_n + r_n, phases, "{out}");
    assert!(g_ms >= 0.0);
    let (code, out, err) = herald(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, lines, "standard output holds the result lines alone");
    // Standard error is a pipe here, not a person's terminal: the times
    // are not written into it (`herald playtest … | head` says nothing
    // there); `--out` prints them, above.
    assert!(!err.contains("CPU time per decision"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `summarize A --against B`: a variant against the standard rules side
/// by side, its plots; a plot of two kinds of game says what tells them
/// apart and points to --against.
#[test]
// Long: one designer's session, each check beside the step it checks.
fn summarize_compares_a_variant_against_the_standard_rules() {
    let dir = scratch("playtest-against");
    let f = |n: &str| dir.join(n).display().to_string();
    let variant = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/playtest/norse-wars/shields3.toml")
        .display()
        .to_string();
    let play = |extra: &[&str], out: &str| {
        let mut a = vec![
            "playtest",
            "norse-wars",
            "--games",
            "4",
            "--bots",
            "greedy,random",
            "--seed",
            "2",
            "--evals",
            "--choices",
            "--out",
        ];
        let o = f(out);
        a.push(&o);
        a.extend_from_slice(extra);
        let (code, stdout, err) = herald(&a);
        assert_eq!(code, 0, "{stdout}{err}");
    };
    play(&[], "std.jsonl");
    play(&["--rules", &variant], "var.jsonl");
    // Both files in one plot: refused, with the cause and the way.
    let (code, _, err) = herald(&[
        "playtest",
        "summarize",
        &f("var.jsonl"),
        &f("std.jsonl"),
        "--plot",
        &f("p.svg"),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("they differ in their rules"), "{err}");
    assert!(err.contains("--against"), "{err}");
    assert!(!dir.join("p.svg").exists());
    // Side by side.
    let (code, text, err) = herald(&[
        "playtest",
        "summarize",
        &f("var.jsonl"),
        "--against",
        &f("std.jsonl"),
        "--plot",
        &f("p.svg"),
        "--plot-length",
        &f("len.svg"),
        "--plot-evals",
        &f("ev.svg"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.starts_with("A: norse-wars, rules "), "{text}");
    assert!(
        text.contains("\nB: norse-wars (default options), 2 seats: 4 games"),
        "{text}"
    );
    for row in [
        "seat 1 wins",
        "the seats' shares of the games with one winner, A against B: chi-square test of homogeneity",
        "balance index (Ludii)",
        "completion (Ludii)",
        "length, A - B:",
        "decisiveness (Ludii, share)",
        "branching factor (Ludii)",
        "greedy win rate",
    ] {
        assert!(text.contains(row), "{row}: {text}");
    }
    let svg = std::fs::read_to_string(dir.join("p.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let sides: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("bar"))
        .map(|n| n.attribute("data-side").unwrap())
        .collect();
    assert_eq!(sides, ["A", "A", "B", "B"]);
    // The length plot holds every game of each side once.
    let svg = std::fs::read_to_string(dir.join("len.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    for side in ["0", "1"] {
        let n: u64 = doc
            .descendants()
            .filter(|n| {
                n.attribute("class") == Some("bin") && n.attribute("data-table") == Some(side)
            })
            .map(|n| n.attribute("data-games").unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(n, 4, "side {side}");
    }
    let svg = std::fs::read_to_string(dir.join("ev.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let lines = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("mean"))
        .count();
    assert_eq!(lines, 4, "two seats on each side");
    // Another game is no comparison; files without evaluations have no
    // evaluation plot.
    play(&["--max-phases", "3"], "short.jsonl");
    let (code, _, err) = herald(&[
        "playtest",
        "hexwar",
        "--games",
        "2",
        "--out",
        &f("hex.jsonl"),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = herald(&[
        "playtest",
        "summarize",
        &f("std.jsonl"),
        "--against",
        &f("hex.jsonl"),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("they differ in their game"), "{err}");
    let (code, _, err) = herald(&[
        "playtest",
        "summarize",
        &f("hex.jsonl"),
        "--plot-evals",
        &f("x.svg"),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("play them with `--evals`"), "{err}");
    // Games stopped at --max-phases are told apart from those that ended.
    let (code, text, err) = herald(&["playtest", "summarize", &f("short.jsonl")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("unfinished at --max-phases      100.0% [ 51.0, 100.0]     4 of 4"),
        "{text}"
    );
    assert!(
        text.contains("completion (Ludii: games with a winner):   0.0%"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Beyond one machine: a tournament run as shards through GNU parallel,
/// and through the Slurm array job file of docs/playtest/ (its tasks run
/// here one after another, as Slurm would run them side by side), sums up
/// to the one-run file's summary; the Kubernetes Indexed Job's command
/// turns completion index k into shard k+1. GNU parallel missing fails the
/// test (./test installs Debian's `parallel`).
#[test]
// Long: the three engines one after another, each checked as it runs.
fn shards_through_gnu_parallel_and_job_files_sum_to_the_whole_run() {
    let version = std::process::Command::new("parallel")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    assert!(
        version.starts_with("GNU parallel"),
        "GNU parallel is missing (or another `parallel` is first on PATH): install Debian's \
         `parallel` package, as ./test does; `parallel --version` said: {version:?}"
    );
    let dir = scratch("playtest-parallel");
    let bin = env!("CARGO_BIN_EXE_herald");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let f = |n: &str| dir.join(n).display().to_string();
    let tournament = [
        "playtest",
        "hexwar",
        "--games",
        "6",
        "--bots",
        "greedy,random",
        "--seed",
        "5",
    ];
    let mut whole_args = tournament.to_vec();
    let whole_file = f("whole.jsonl");
    whole_args.extend_from_slice(&["--out", &whole_file]);
    let (code, _, err) = herald(&whole_args);
    assert_eq!(code, 0, "{err}");
    let whole = std::fs::read_to_string(&whole_file).unwrap();
    let summary_of = |files: &[String]| {
        let mut a = vec!["playtest", "summarize"];
        a.extend(files.iter().map(String::as_str));
        let (code, text, err) = herald(&a);
        assert_eq!(code, 0, "{err}");
        text
    };
    let want = summary_of(std::slice::from_ref(&whole_file));
    let pieces = |prefix: &str| -> Vec<String> {
        (1..=3)
            .map(|i| {
                dir.join(format!("{prefix}-{i}.jsonl"))
                    .display()
                    .to_string()
            })
            .collect()
    };
    let lines_of = |files: &[String]| {
        let mut lines: Vec<String> = files
            .iter()
            .flat_map(|p| {
                std::fs::read_to_string(p)
                    .unwrap()
                    .lines()
                    .map(String::from)
                    .collect::<Vec<_>>()
            })
            .collect();
        lines.sort_by_key(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                .as_u64()
                .unwrap()
        });
        lines.join("\n") + "\n"
    };
    // GNU parallel: three shards, two at a time.
    let out = std::process::Command::new("parallel")
        .args(["--will-cite", "--halt", "now,fail=1", "-j", "2", bin])
        .args(tournament)
        .args(["--shard", "{}/3", "--out"])
        .arg(dir.join("par-{}.jsonl"))
        .args([":::", "1", "2", "3"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "parallel: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let par = pieces("par");
    assert_eq!(
        lines_of(&par),
        whole,
        "the shards' lines are the whole run's"
    );
    assert_eq!(summary_of(&par), want);
    // The Slurm array job file, as tasks 1..3 of an array of 3.
    for i in 1..=3 {
        let out = std::process::Command::new("bash")
            .arg(root.join("docs/playtest/slurm-array.sh"))
            .env("HERALD", bin)
            .env("GAME", "hexwar")
            .env("GAMES", "6")
            .env("BOTS", "greedy,random")
            .env("SEED", "5")
            .env("OUT", &dir)
            .env("SLURM_ARRAY_TASK_ID", i.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "slurm task {i}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let slurm = pieces("part");
    assert_eq!(lines_of(&slurm), whole);
    assert_eq!(summary_of(&slurm), want);
    // The Indexed Job's command, with a stand-in herald that prints its
    // arguments: completion index 2 of 8 is shard 3/8 into part-3.
    let yaml = std::fs::read_to_string(root.join("docs/playtest/k8s-indexed-job.yaml")).unwrap();
    assert!(yaml.contains("completionMode: Indexed") && yaml.contains("completions: 8"));
    let args: Vec<&str> = yaml
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("args:"))
        .skip(2)
        .take_while(|l| !l.trim_start().starts_with("volumeMounts:"))
        .map(str::trim)
        .collect();
    let script = args.join(" ");
    let stand_in = dir.join("bin");
    std::fs::create_dir_all(&stand_in).unwrap();
    std::fs::write(stand_in.join("herald"), "#!/bin/sh\necho \"$@\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(
        stand_in.join("herald"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let out = std::process::Command::new("/bin/sh")
        .args(["-c", &script])
        .env(
            "PATH",
            format!("{}:{}", stand_in.display(), std::env::var("PATH").unwrap()),
        )
        .env("JOB_COMPLETION_INDEX", "2")
        .env("SHARDS", "8")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("--shard 3/8 --out /results/part-3.jsonl"),
        "{script}: {said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The learned prior (issue 53): `herald playtest train` writes the same
/// weight file from the same seed whatever `--jobs`; a run of `:prior`
/// bots records the hash of the weights it played with in every line (the
/// game's own, or a `--weights` file's, named); and the staleness check
/// of the documented figures tells a file played with other weights.
#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn the_prior_is_trained_from_its_seed_and_its_weights_are_recorded() {
    let dir = scratch("playtest-train");
    let path = |n: &str| dir.join(n).display().to_string();
    let train = |jobs: &str, out: &str| {
        let (code, stdout, stderr) = herald(&[
            "playtest",
            "train",
            "hexwar",
            "--bot",
            "mcts:30",
            "--games",
            "3",
            "--generations",
            "2",
            "--seed",
            "5",
            "--max-phases",
            "30",
            "--jobs",
            jobs,
            "--out",
            out,
        ]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        assert!(stdout.contains("generation 2:"), "{stdout}");
        std::fs::read_to_string(out).unwrap()
    };
    let one = train("1", &path("one.weights"));
    let two = train("2", &path("two.weights"));
    let body = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("# Written by:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&one), body(&two), "--jobs changed the weights");
    assert!(one.contains("# Written by: herald playtest train hexwar --bot mcts:30 --games 3 --generations 2 --seed 5 --max-phases 30"), "{one}");
    let w =
        herald::bots::prior::Weights::parse(&one, "hexwar", herald::games::hexwar::bot::FEATURES)
            .unwrap();
    assert_eq!(w.prior.len(), herald::games::hexwar::bot::FEATURES.len());

    // A run with the file given: its name and hash on every line.
    let run = |extra: &[&str], out: &str| {
        let mut a = vec![
            "playtest",
            "hexwar",
            "--games",
            "2",
            "--bots",
            "mcts:30:prior,greedy",
            "--seed",
            "3",
            "--max-phases",
            "30",
            "--out",
            out,
        ];
        a.extend_from_slice(extra);
        let (code, stdout, stderr) = herald(&a);
        assert_eq!(code, 0, "{stdout}{stderr}");
        let text = std::fs::read_to_string(out).unwrap();
        summary::read(out, &text).unwrap()
    };
    let given = path("one.weights");
    let recs = run(&["--weights", &given], &path("given.jsonl"));
    let sha = herald::chain::canon::sha256_hex(one.as_bytes());
    for r in &recs {
        assert_eq!(r.weights.as_deref(), Some(given.as_str()));
        assert_eq!(r.weights_sha256.as_deref(), Some(sha.as_str()));
    }
    assert_eq!(stale_line("given.jsonl", &recs), None);
    // The game's own weights: no file named, the built-in hash.
    let own = run(&[], &path("own.jsonl"));
    let builtin = playtest::builtin_weights_sha256(games::find("hexwar").unwrap());
    assert!(builtin.is_some());
    for r in &own {
        assert_eq!(r.weights, None);
        assert_eq!(r.weights_sha256, builtin);
    }
    assert_eq!(stale_line("own.jsonl", &own), None);
    // The weights changed since: both files are told stale.
    std::fs::write(&given, one.replace("format = 1", "format = 1\n# retrained")).unwrap();
    let said = stale_line("given.jsonl", &recs).expect("a changed weight file is stale");
    assert!(
        said.contains("given.jsonl line 1: played with the weights"),
        "{said}"
    );
    let mut other = own.clone();
    other[1].weights_sha256 = Some("0000".into());
    let said = stale_line("own.jsonl", &other).expect("other weights are stale");
    assert!(said.starts_with("own.jsonl line 2:"), "{said}");
    // A line of bots without a prior does not depend on the weights.
    for r in &mut other {
        r.bots = vec!["mcts:30".into(), "greedy".into()];
    }
    assert_eq!(stale_line("own.jsonl", &other), None);
    // A weight file for another game is refused, naming the file.
    let (code, _, err) = herald(&[
        "playtest",
        "norse-wars",
        "--games",
        "1",
        "--bots",
        "greedy,greedy",
        "--weights",
        &given,
    ]);
    assert_ne!(code, 0);
    assert!(err.contains(&given), "{err}");
}

/// War of the Dukes' searches look past the enemy's reply (issue 53): the
/// reply a search plays out for the enemy (`playout::reply_orders`) is
/// legal wherever it is asked; where the enemy can reach a Duke at the
/// scripted player's odds it assaults his hex, and with its dice the
/// assault kills him in some draws; and where the scripted player's own
/// phase would leave its Duke to such an assault, the search (whose
/// horizon now holds the reply) leaves him to it less often than the same
/// search cut off after its own phase (`:d0`, the horizon before).
#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn war_of_the_dukes_searches_see_the_enemy_reply_to_a_duke() {
    use herald::games::war_of_the_dukes::orders::Order;
    use herald::games::war_of_the_dukes::ruleset::Ruleset;
    use herald::games::war_of_the_dukes::state::State;
    use herald::games::war_of_the_dukes::units::Side;
    use herald::games::war_of_the_dukes::{playout, WarOfTheDukes};
    use std::collections::BTreeMap;
    let r = Ruleset::parse(WarOfTheDukes::RULESET_TEXT).unwrap();
    let players = vec!["orfburg".to_string(), "wulfenburg".to_string()];
    // Whether `side`'s reply on `st` (its phase) assaults the other Duke.
    let assaults = |st: &State, side: Side| {
        let duke = st.units[st.duke(side.other())].at;
        playout::reply_orders(&r, st, side)
            .iter()
            .any(|o| matches!(o, Order::Attack { target, .. } if Some(*target) == duke))
    };
    let resolve = |st: &State, seat: usize, o: Vec<Order>, seed: u64| {
        let mut orders = BTreeMap::new();
        orders.insert(seat, o);
        let mut rr = rng::from_u64(seed);
        WarOfTheDukes::resolve(&r, st, &orders, &mut rng::Dice::quiet(&mut rr)).0
    };
    // Scripted games: every reply checked; the positions before a phase
    // of the scripted player after which its Duke is assaulted kept.
    let (mut replies, mut danger, mut killed) = (0, Vec::new(), 0);
    for g in 0..8u64 {
        let mut rr = rng::from_u64(700 + g);
        let mut st = State::new(&r);
        while !st.is_over() {
            let mut orders = BTreeMap::new();
            for seat in WarOfTheDukes::awaiting(&r, &st) {
                let side = Side::of_seat(seat);
                if st.mover() == Some(side) {
                    let reply = playout::reply_orders(&r, &st, side);
                    let problems = WarOfTheDukes::check(&r, &st, seat, &reply);
                    assert!(problems.is_empty(), "game {g}: {problems:?} for {reply:?}");
                    replies += 1;
                }
                orders.insert(seat, playout::bot_orders(&r, &st, side, &mut rr));
            }
            let before = st.clone();
            st = WarOfTheDukes::resolve(&r, &st, &orders, &mut rng::Dice::quiet(&mut rr)).0;
            let Some(side) = before.mover() else { continue };
            if st.mover() == Some(side.other()) && assaults(&st, side.other()) {
                // The assault's dice: the Duke dies in some draws.
                let reply = playout::reply_orders(&r, &st, side.other());
                killed += (0..20)
                    .filter(|&d| {
                        let after = resolve(&st, side.other().seat(), reply.clone(), d);
                        after.units[after.duke(side)].at.is_none()
                    })
                    .count();
                danger.push((before, side));
            }
        }
    }
    assert!(replies > 100, "{replies} replies");
    assert!(
        danger.len() >= 4,
        "{} positions with a Duke assaulted",
        danger.len()
    );
    assert!(killed > 0, "no assault of {} killed a Duke", danger.len());
    // The search with the reply in its horizon against the one without.
    let left = |spec: &str| {
        let bot = BotSpec::parse(spec).unwrap();
        danger
            .iter()
            .enumerate()
            .filter(|(i, (st, side))| {
                let seat = side.seat();
                let view = WarOfTheDukes::view(&r, st, &players, seat, &[]);
                let mut rr = rng::from_u64(900 + *i as u64);
                let o = herald::bots::choose::<WarOfTheDukes>(&r, &view, seat, 2, &bot, &mut rr)
                    .unwrap();
                let after = resolve(st, seat, o, 1);
                after.units[after.duke(*side)].at.is_none()
                    || (after.mover() == Some(side.other()) && assaults(&after, side.other()))
            })
            .count()
    };
    let (now, before) = (left("mcts:300"), left("mcts:300:d0"));
    eprintln!(
        "{} positions where the scripted player left its Duke to an assault ({killed} deaths in 20 draws each); left to it by mcts:300 {now}, by mcts:300:d0 {before}",
        danger.len()
    );
    assert!(now < before, "left by the search {now}, before {before}");
}
