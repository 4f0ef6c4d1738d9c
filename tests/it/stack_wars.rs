//! Stack Wars through the public CLI and the typed API:
//!
//! - rule cases as plain files (`tests/cases/stack-wars/*.toml`): a
//!   PRESTATE (a `--setup` position), ORDERS (one `herald resolve` each),
//!   a POSTSTATE (every stack, reserves, points), the events the report
//!   tells, the result, or the refusal (which must name the order file, the
//!   line and the order);
//! - a whole scripted game replayed through `herald resolve` turn by turn;
//! - random playouts on the typed state and through the engine, each game
//!   accepted by `herald::engine::verify`;
//! - `herald demo stack-wars`.
//!
//! Counts can be raised with SW_PLAYOUTS and SW_ENGINE_GAMES.

use crate::common::{check_text, count, herald, run_cases, scratch, EngineGame};
use herald::games::stack_wars::play::{Action, Event};
use herald::games::stack_wars::ruleset::Ruleset;
use herald::games::stack_wars::state::{Side, State};
use herald::games::stack_wars::{playout, StackWars};
use herald::rng;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------- helpers

fn rules() -> Ruleset {
    Ruleset::parse(StackWars::RULESET_TEXT).unwrap()
}

/// A game started with `herald new` in `dir`, and its passwords.
struct CliGame {
    dir: PathBuf,
    path: PathBuf,
    passwords: toml::Value,
    files: usize,
}

impl CliGame {
    fn new(dir: PathBuf, extra: &[&str]) -> Result<CliGame, String> {
        let path = dir.join("game");
        let gs = path.to_str().unwrap().to_string();
        let mut args = vec![
            "new",
            "stack-wars",
            "--players",
            "black,white",
            "--seed",
            "1",
            "--out",
            &gs,
            "--now",
            "2026-11-22T12:00:00Z",
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = herald(&args);
        if code != 0 {
            return Err(err);
        }
        let passwords =
            toml::from_str(&std::fs::read_to_string(dir.join("game/secrets.toml")).unwrap())
                .unwrap();
        Ok(CliGame {
            dir,
            path,
            passwords,
            files: 0,
        })
    }

    fn gs(&self) -> &str {
        self.path.to_str().unwrap()
    }

    fn file(&self) -> Value {
        crate::common::game_json(&self.path)
    }

    /// Write an order file (one order per line, from line 6) and resolve it.
    /// Returns the file's name, the exit code and stderr.
    fn send(&mut self, player: &str, orders: &[&str]) -> (String, i32, String) {
        let f = self.file();
        let id = f["id"].as_str().unwrap();
        let turn = f["turn"].as_u64().unwrap();
        let pw = self.passwords["passwords"][player].as_str().unwrap_or("x");
        let mut text = format!(
            "game = {id:?}\nplayer = {player:?}\nturn = {turn}\npassword = {pw:?}\norders = [\n"
        );
        for o in orders {
            text.push_str(&format!("  {o:?},\n"));
        }
        text.push_str("]\n");
        self.files += 1;
        let of = self.dir.join(format!("orders-{}.toml", self.files));
        std::fs::write(&of, text).unwrap();
        let (code, _, err) = herald(&[
            "resolve",
            self.gs(),
            of.to_str().unwrap(),
            "--now",
            "2026-11-22T13:00:00Z",
        ]);
        (of.to_str().unwrap().to_string(), code, err)
    }

    fn view(&self, player: &str) -> Value {
        let (code, out, err) =
            herald(&["report", self.gs(), "--player", player, "--format", "json"]);
        assert_eq!(code, 0, "report failed: {err}");
        serde_json::from_str::<Value>(&out).unwrap()["view"].clone()
    }

    fn report(&self, player: &str) -> String {
        herald(&["report", self.gs(), "--player", player]).1
    }

    fn status(&self) -> String {
        herald(&["status", self.gs()]).1
    }

    fn verify(&self) -> Result<(), String> {
        let (code, out, err) = herald(&["verify", self.gs()]);
        if code == 0 {
            Ok(())
        } else {
            Err(format!("verify refused the game: {out}{err}"))
        }
    }
}

/// Stacks by side as the cases write them: `"3,2"`, `"3,2 x4"`.
fn stacks_of(view: &Value) -> BTreeMap<String, Vec<String>> {
    let mut got: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for s in view["stacks"].as_array().unwrap() {
        let n = s["armies"].as_u64().unwrap();
        let at = s["at"].as_str().unwrap();
        got.entry(s["side"].as_str().unwrap().to_ascii_lowercase())
            .or_default()
            .push(if n == 1 {
                at.to_string()
            } else {
                format!("{at} x{n}")
            });
    }
    got
}

fn per_side(view: &Value, field: &str) -> BTreeMap<String, u64> {
    view["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["side"].as_str().unwrap().to_ascii_lowercase(),
                p[field].as_u64().unwrap(),
            )
        })
        .collect()
}

// ---------------------------------------------------------------- rule cases

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[serde(default)]
    options: Vec<String>,
    /// A `--setup` position; without it the standard empty board.
    prestate: Option<String>,
    /// `"black: move 8,4 7,4"`, several orders split by `;`: one resolve per
    /// entry.
    #[serde(default)]
    orders: Vec<String>,
    /// Side → stacks (`"3,2"`, `"3,2 x2"`); sides not named have none.
    poststate: Option<BTreeMap<String, Vec<String>>>,
    reserves: Option<BTreeMap<String, u64>>,
    points: Option<BTreeMap<String, u64>>,
    /// Text that must appear in the report of `reporter` (default black).
    #[serde(default)]
    events: Vec<String>,
    #[serde(default)]
    absent: Vec<String>,
    reporter: Option<String>,
    /// Substring of `herald status` afterwards (the result, whose turn).
    status: Option<String>,
    /// The last orders (or `new`, with no orders) are refused with this text.
    error: Option<String>,
}

// Long: one whole fixture or table of cases, set up in one place.
fn run_case(file: &Path, n: usize, c: &Case) -> Result<(), String> {
    let dir = scratch(&format!(
        "{}-{n}",
        file.file_stem().unwrap().to_string_lossy()
    ));
    let pos = dir.join("position.toml");
    let pos_s = pos.to_str().unwrap().to_string();
    let mut extra: Vec<&str> = Vec::new();
    if let Some(p) = &c.prestate {
        std::fs::write(&pos, p).unwrap();
        extra.extend(["--setup", &pos_s]);
    }
    for o in &c.options {
        extra.extend(["--option", o]);
    }
    let mut g = match CliGame::new(dir.clone(), &extra) {
        Ok(g) => g,
        Err(err) => {
            return match (&c.error, c.orders.is_empty()) {
                (Some(want), true) if err.contains(want.as_str()) => Ok(()),
                _ => Err(format!("new failed: {err}")),
            }
        }
    };
    if c.orders.is_empty() && c.error.is_some() {
        return Err("expected `new` to be refused".into());
    }
    for (k, line) in c.orders.iter().enumerate() {
        let (player, orders) = line
            .split_once(':')
            .ok_or(format!("order entry `{line}` needs `player: orders`"))?;
        let list: Vec<&str> = orders
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        let (name, code, err) = g.send(player.trim(), &list);
        let last = k + 1 == c.orders.len();
        match (&c.error, last) {
            (Some(want), true) => {
                if code != 1 {
                    return Err(format!(
                        "expected `{line}` to be refused, exit {code}: {err}"
                    ));
                }
                if !err.contains(want.as_str()) {
                    return Err(format!("refusal message lacks `{want}`:\n{err}"));
                }
                if !err.contains(&name) {
                    return Err(format!("refusal does not name the file {name}:\n{err}"));
                }
                // An order at fault is named with its line and text.
                let named = list
                    .iter()
                    .enumerate()
                    .any(|(i, o)| err.contains(&format!("{name}:{}: \"{o}\"", 6 + i)));
                if !list.is_empty()
                    && !named
                    && !want.contains("no orders due")
                    && !want.contains("is over")
                {
                    return Err(format!("refusal names no order line:\n{err}"));
                }
                // A refused resolve leaves the game as it was.
                g.verify()?;
            }
            _ => {
                if code != 0 {
                    return Err(format!("orders `{line}` refused:\n{err}"));
                }
            }
        }
    }
    let reporter = c.reporter.clone().unwrap_or_else(|| "black".into());
    let view = g.view(&reporter);
    if let Some(post) = &c.poststate {
        let mut want = post.clone();
        want.retain(|_, v| !v.is_empty());
        let mut got = stacks_of(&view);
        for v in want.values_mut().chain(got.values_mut()) {
            v.sort();
        }
        if got != want {
            return Err(format!(
                "poststate differs:\n  want {want:?}\n  got  {got:?}"
            ));
        }
    }
    for (field, want) in [("reserves", &c.reserves), ("points", &c.points)] {
        if let Some(want) = want {
            let got = per_side(&view, field);
            for (side, n) in want {
                if got.get(side) != Some(n) {
                    return Err(format!("{field}: want {want:?}, got {got:?}"));
                }
            }
        }
    }
    if !c.events.is_empty() || !c.absent.is_empty() {
        check_text(&g.report(&reporter), &c.events, &c.absent)?;
    }
    if let Some(s) = &c.status {
        let out = g.status();
        if !out.contains(s.as_str()) {
            return Err(format!("status lacks `{s}`:\n{out}"));
        }
    }
    g.verify()?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[test]
fn rule_cases() {
    run_cases("stack-wars", |c: &Case| &c.name, run_case);
}

// ---------------------------------------------------------------- a whole game

/// A whole game on a 3×3 board with a moderator's variant ruleset (one army
/// per column in reserve: three each), every turn through `herald resolve`,
/// checked after each turn, ending Black 2 – White 1.
#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn scripted_game_through_resolve() {
    let dir = scratch("scripted");
    let variant = dir.join("three-each.toml");
    std::fs::write(
        &variant,
        StackWars::RULESET_TEXT.replace("reserves_per_column = 3", "reserves_per_column = 1"),
    )
    .unwrap();
    let v = variant.to_str().unwrap().to_string();
    let mut g = CliGame::new(dir.clone(), &["--rules", &v, "--option", "size=3"]).unwrap();
    // (player, order, Black's stacks, White's stacks, [B res, W res], [B pts, W pts])
    type Step = (
        &'static str,
        &'static str,
        &'static [&'static str],
        &'static [&'static str],
        [u64; 2],
        [u64; 2],
    );
    let script: &[Step] = &[
        ("black", "fortify 2,0", &["2,0"], &[], [2, 3], [0, 0]),
        ("white", "fortify 0,2", &["2,0"], &["0,2"], [2, 2], [0, 0]),
        ("black", "move 2,0 1,0", &["1,0"], &["0,2"], [2, 2], [0, 0]),
        ("white", "move 0,2 1,2", &["1,0"], &["1,2"], [2, 2], [0, 0]),
        // invasion by move: the army leaves play, one point
        ("black", "move 1,0 0,0", &[], &["1,2"], [2, 2], [1, 0]),
        ("white", "move 1,2 2,2", &[], &[], [2, 2], [1, 1]),
        ("black", "fortify 2,1", &["2,1"], &[], [1, 2], [1, 1]),
        ("white", "fortify 0,1", &["2,1"], &["0,1"], [1, 1], [1, 1]),
        (
            "black",
            "fortify 2,1",
            &["2,1 x2"],
            &["0,1"],
            [0, 1],
            [1, 1],
        ),
        // Black's stack can neither attack nor move (its neighbours are a
        // White army and its own baseline): Black passes, White moves again.
        (
            "white",
            "move 0,1 1,1",
            &["2,1 x2"],
            &["1,1"],
            [0, 1],
            [1, 1],
        ),
        // the stack loses exactly one army; the attacker loses nothing
        (
            "white",
            "attack 1,1 2,1",
            &["2,1"],
            &["1,1"],
            [0, 1],
            [1, 1],
        ),
        // the attack empties 1,1: the attacking army moves in at once
        ("black", "attack 2,1 1,1", &["1,1"], &[], [0, 1], [1, 1]),
        ("white", "fortify 0,1", &["1,1"], &["0,1"], [0, 0], [1, 1]),
        // invasion by attack: both sides are left with nothing; 2–1
        ("black", "attack 1,1 0,1", &[], &[], [0, 0], [2, 1]),
    ];
    for (i, (player, order, black, white, res, pts)) in script.iter().enumerate() {
        let (name, code, err) = g.send(player, &[order]);
        assert_eq!(
            code, 0,
            "step {i} `{player}: {order}` ({name}) refused: {err}"
        );
        let view = g.view(player);
        let stacks = stacks_of(&view);
        let empty = Vec::new();
        let mut want_b: Vec<String> = black.iter().map(|s| s.to_string()).collect();
        let mut want_w: Vec<String> = white.iter().map(|s| s.to_string()).collect();
        let mut got_b = stacks.get("black").unwrap_or(&empty).clone();
        let mut got_w = stacks.get("white").unwrap_or(&empty).clone();
        for v in [&mut want_b, &mut want_w, &mut got_b, &mut got_w] {
            v.sort();
        }
        assert_eq!(
            (got_b, got_w),
            (want_b, want_w),
            "step {i} `{player}: {order}`"
        );
        let r = per_side(&view, "reserves");
        let p = per_side(&view, "points");
        assert_eq!([r["black"], r["white"]], *res, "reserves after step {i}");
        assert_eq!([p["black"], p["white"]], *pts, "points after step {i}");
    }
    let f = g.file();
    assert_eq!(f["turn"], 14);
    assert_eq!(f["outcome"]["winners"][0], "black");
    let status = g.status();
    assert!(status.contains("black (Black) won, points Black–White 2–1: Black and White have no armies in play and none in reserve"), "{status}");
    let text = g.report("white");
    assert!(text.contains("GAME OVER"), "{text}");
    assert!(
        text.split("----- HERALD WITNESS")
            .next()
            .unwrap()
            .trim_end()
            .ends_with("The game is over; no more orders."),
        "{text}"
    );
    g.verify().unwrap();
    // The passing turn is one resolve: White's second move is turn 10.
    let turn10 = std::fs::read_to_string(dir.join("game/reports/turn-0010/white.txt")).unwrap();
    assert!(turn10.contains("YOUR TURN"), "{turn10}");
    assert!(
        turn10.contains("[turn 9] black (Black) has no legal action and passes"),
        "{turn10}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- playouts

/// Armies are neither made nor lost: for each side, the starting reserve
/// equals reserve + in play + points scored + armies lost to attacks.
fn assert_sound(st: &State, start: u16, lost: [u16; 2], ctx: &str) {
    let rebuilt = State::from_core(st.core()).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    assert_eq!(
        &rebuilt, st,
        "{ctx}: the state does not survive its stored form"
    );
    for side in Side::BOTH {
        let total = st.reserve(side) + st.in_play(side) + st.score(side) + lost[side.seat()];
        assert_eq!(total, start, "{ctx}: {side}'s armies do not add up");
    }
    for (sq, s) in st.stacks() {
        assert!(s.armies > 0);
        assert_ne!(
            sq.row,
            s.side.other().baseline(st.size),
            "{ctx}: an army stays on the enemy baseline"
        );
    }
}

#[test]
fn random_games_finish_soundly() {
    let rules = rules();
    let games = count("SW_PLAYOUTS", 100);
    let mut total = 0;
    let mut endings: BTreeMap<&str, usize> = BTreeMap::new();
    for size in [3u8, 4, 5, 9, 13] {
        for onto_own in [false, true] {
            let mut r = rng::from_u64(size as u64 * 10 + onto_own as u64);
            for g in 0..games {
                let ctx = format!("size {size}, move_onto_own {onto_own}, game {g}");
                let mut st = playout::new_game(&rules, size, onto_own);
                let start = rules.reserves(size);
                let mut lost = [0u16; 2];
                let mut acts = Vec::new();
                let mut ev: Vec<Event> = Vec::new();
                let mut played = 0;
                while let Some(side) = st.mover() {
                    assert!(played < 200_000, "{ctx}: no end");
                    st.actions(side, &mut acts);
                    assert!(
                        !acts.is_empty(),
                        "{ctx}: {side} to move without a legal action"
                    );
                    assert!(st.can_act(side));
                    let mut theirs = Vec::new();
                    st.actions(side.other(), &mut theirs);
                    assert_eq!(
                        st.can_act(side.other()),
                        !theirs.is_empty(),
                        "{ctx}: can_act"
                    );
                    for a in &acts {
                        assert_eq!(st.check_action(side, *a), Ok(()), "{ctx}: {a}");
                    }
                    let a = acts[rng::below(&mut r, acts.len() as u32) as usize];
                    ev.clear();
                    st.play(a, &mut ev);
                    for e in &ev {
                        if let Event::Attacked { side, .. } = e {
                            lost[side.other().seat()] += 1;
                        }
                    }
                    played += 1;
                    assert_sound(&st, start, lost, &ctx);
                }
                total += played;
                let end = st.result.clone().expect("a result");
                let exhausted = Side::BOTH
                    .iter()
                    .any(|&s| st.reserve(s) == 0 && st.in_play(s) == 0);
                if exhausted {
                    assert_eq!(end.winner, st.leader(), "{ctx}: more points wins");
                    *endings.entry("exhausted").or_default() += 1;
                } else if end.how.contains("turns in a row") {
                    assert_eq!(end.winner, None, "{ctx}: the quiet cap draws");
                    *endings.entry("quiet").or_default() += 1;
                } else {
                    assert!(end.how.contains("neither side"), "{ctx}: {}", end.how);
                    *endings.entry("deadlock").or_default() += 1;
                }
            }
        }
    }
    // Random play must reach the real end condition, not only the cap.
    assert!(
        endings.get("exhausted").copied().unwrap_or(0) > games,
        "{endings:?}"
    );
    eprintln!(
        "{} random games, {total} actions, endings {endings:?}",
        games * 10
    );
}

#[test]
fn bot_games_end_by_the_rules() {
    let rules = rules();
    let mut exhausted = 0;
    for seed in 0..40u64 {
        let mut st = playout::new_game(&rules, 9, seed % 2 == 1);
        let mut r = rng::from_u64(seed);
        let mut ev = Vec::new();
        while st.mover().is_some() {
            let a = playout::bot_action(&st, &mut r).unwrap();
            assert_ne!(a, Action::Resign);
            st.play(a, &mut ev);
        }
        if !st.result.as_ref().unwrap().how.contains("turns in a row") {
            exhausted += 1;
        }
    }
    assert!(
        exhausted >= 30,
        "bot games should mostly end by the end condition: {exhausted}/40"
    );
}

#[test]
fn engine_games_verify() {
    let games = count("SW_ENGINE_GAMES", 4);
    let mut verified = 0;
    for (size, onto_own) in [(3u8, false), (5, true), (9, false), (9, true)] {
        for g in 0..games {
            let mut game = EngineGame::new(
                "stack-wars",
                &["black", "white"],
                &g.to_string(),
                vec![format!("size={size}"), format!("move_onto_own={onto_own}")],
                &format!("engine-{size}-{onto_own}-{g}"),
            );
            let mut bot = rng::from_u64(g as u64 + 99);
            while !game.over() {
                game.turn(|loaded, seat| {
                    let mut legal = loaded.rules.legal_orders(&loaded.state, seat);
                    assert_eq!(legal.last().unwrap(), &vec!["resign".to_string()]);
                    // Resign now and then, not every thirtieth turn.
                    if legal.len() > 1 && rng::below(&mut bot, 200) != 0 {
                        legal.pop();
                    }
                    rng::pick(&mut bot, &legal).unwrap().clone()
                });
            }
            let problems = game.verify();
            assert!(problems.is_empty(), "size {size} game {g}: {problems:?}");
            verified += 1;
        }
    }
    eprintln!("{verified} stack-wars engine games verified");
}

#[test]
fn demo_plays_a_whole_game_and_verifies() {
    let dir = scratch("demo");
    let out = dir.join("demo");
    let (code, stdout, err) = herald(&[
        "demo",
        "stack-wars",
        "--out",
        out.to_str().unwrap(),
        "--players",
        "black,white",
        "--now",
        "2026-11-22T12:00:00Z",
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(stdout.contains("result: "), "{stdout}");
    assert!(stdout.contains("herald verify: ok"), "{stdout}");
    assert!(
        !stdout.contains("turns in a row"),
        "the demo bots should finish by the rules: {stdout}"
    );
    // A mid-game report ends with a filled order form for the player to move.
    let r1 = std::fs::read_to_string(out.join("game/reports/turn-0001/white.txt")).unwrap();
    assert!(r1.contains("----- ORDERS for turn 1"), "{r1}");
    assert!(r1.contains("#   fortify 0,0 | 0,1 | "), "{r1}");
    assert!(
        r1.contains("  8  (") || r1.contains(" 8  ("),
        "the board is drawn: {r1}"
    );
    let body = r1.split("----- HERALD WITNESS").next().unwrap();
    assert!(body.trim_end().ends_with(']'), "{r1}");
    let _ = std::fs::remove_dir_all(&dir);
}
