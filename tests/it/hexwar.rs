//! HEXWAR: Copper Pass. Rule cases as files (`tests/cases/hexwar/*.toml`)
//! run through the CLI; move-generation counts checked against an
//! independent brute-force generator written here from the rules text (not
//! the engine's tables); random playouts through the typed API and whole
//! games through the engine, each accepted by `verify`.
//!
//! Counts can be raised with HERALD_HEXWAR_PLAYOUTS and
//! HERALD_HEXWAR_ENGINE_GAMES.

use crate::common::{count, herald, run_cases, CaseGame, EngineGame};
use herald::games::hexwar::movegen::Action;
use herald::games::hexwar::play::{self, Plan};
use herald::games::hexwar::playout::{self, Scratch};
use herald::games::hexwar::ruleset::Ruleset;
use herald::games::hexwar::state::State;
use herald::games::hexwar::{self, Hexwar};
use herald::games::Options;
use herald::rng;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn rules() -> Ruleset {
    Ruleset::parse(Hexwar::RULESET_TEXT).unwrap()
}

fn options(template: &str) -> Options {
    let mut o = Options::new();
    o.insert("template".into(), template.into());
    o
}

// ---------------------------------------------------------------------------
// Rule cases through the CLI
// ---------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[serde(default = "default_players")]
    players: Vec<String>,
    #[serde(default)]
    options: Vec<String>,
    /// A `--setup` position; without it the Copper Pass setup.
    prestate: Option<String>,
    /// `"white: move d2 d5; rotate d5 NE"`: one resolve per entry.
    #[serde(default)]
    orders: Vec<String>,
    /// Player → pieces (`"Orc d5 NE"`) on the board afterwards; players
    /// not named have none.
    poststate: Option<BTreeMap<String, Vec<String>>>,
    /// Player → the pieces in their graveyard afterwards.
    graveyard: Option<BTreeMap<String, Vec<String>>>,
    /// The legal destinations of the piece on `legal_from` for the player to
    /// move afterwards, exactly (`[]`: it cannot move).
    legal_from: Option<String>,
    legal: Option<Vec<String>>,
    /// Legal single actions that must (or must not) be listed for the
    /// player to move afterwards.
    #[serde(default)]
    listed: Vec<String>,
    #[serde(default)]
    unlisted: Vec<String>,
    /// Text each of these must appear in the report of `reporter`.
    #[serde(default)]
    events: Vec<String>,
    #[serde(default)]
    absent: Vec<String>,
    reporter: Option<String>,
    /// Substring of `herald status` after the last orders.
    status: Option<String>,
    /// The last orders are refused with each of these in the message.
    #[serde(default)]
    error: Vec<String>,
}

fn default_players() -> Vec<String> {
    vec!["white".into(), "black".into()]
}

// Long: one whole fixture or table of cases, set up in one place.
fn run_case(file: &Path, n: usize, c: &Case) -> Result<(), String> {
    let tag = format!("{}-{n}", file.file_stem().unwrap().to_string_lossy());
    let players: Vec<String> = c.players.clone();
    let game = match CaseGame::new(
        "hexwar",
        &tag,
        &players,
        "1",
        &c.options,
        c.prestate.as_deref(),
    ) {
        Ok(g) => g,
        Err(err) => {
            if !c.error.is_empty()
                && c.orders.is_empty()
                && c.error.iter().all(|e| err.contains(e.as_str()))
            {
                return Ok(());
            }
            return Err(format!("new failed: {err}"));
        }
    };
    let gs = game.path.as_str();
    for (k, line) in c.orders.iter().enumerate() {
        let (code, err) = game.send(k, line)?;
        let last = k + 1 == c.orders.len();
        if !c.error.is_empty() && last {
            if code != 1 {
                return Err(format!(
                    "expected the orders `{line}` to be refused, exit {code}"
                ));
            }
            for want in &c.error {
                if !err.contains(want.as_str()) {
                    return Err(format!("refusal message lacks `{want}`:\n{err}"));
                }
            }
        } else if code != 0 {
            return Err(format!("orders `{line}` refused:\n{err}"));
        }
    }
    let reporter = c.reporter.clone().unwrap_or_else(|| c.players[0].clone());
    let (code, out, err) = herald(&["report", gs, "--player", &reporter, "--format", "json"]);
    if code != 0 {
        return Err(format!("report failed: {err}"));
    }
    let v: Value = serde_json::from_str(&out).unwrap();
    if let Some(post) = &c.poststate {
        let mut got: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for p in v["view"]["pieces"].as_array().unwrap() {
            got.entry(p["owner"].as_str().unwrap().to_string())
                .or_default()
                .push(format!(
                    "{} {} {}",
                    p["piece"].as_str().unwrap(),
                    p["hex"].as_str().unwrap(),
                    p["facing"].as_str().unwrap()
                ));
        }
        let mut want = post.clone();
        want.retain(|_, v| !v.is_empty());
        for v in want.values_mut().chain(got.values_mut()) {
            v.sort();
        }
        if got != want {
            return Err(format!(
                "poststate differs:\n  want {want:?}\n  got  {got:?}"
            ));
        }
    }
    if let Some(gy) = &c.graveyard {
        for s in v["view"]["sides"].as_array().unwrap() {
            let player = s["player"].as_str().unwrap();
            let mut got: Vec<String> = s["graveyard"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect();
            let mut want = gy.get(player).cloned().unwrap_or_default();
            got.sort();
            want.sort();
            if got != want {
                return Err(format!("{player}'s graveyard: want {want:?} got {got:?}"));
            }
        }
    }
    if c.legal.is_some() || !c.listed.is_empty() || !c.unlisted.is_empty() {
        // the legal list is shown to the player to move
        let st: Value = crate::common::head(std::path::Path::new(&game.path));
        let awaiting = st["awaiting"].as_array().cloned().unwrap_or_default();
        let mover = awaiting
            .first()
            .and_then(|a| a.as_str())
            .ok_or("nobody to move")?
            .to_string();
        let (_, out, _) = herald(&["report", gs, "--player", &mover, "--format", "json"]);
        let mv: Value = serde_json::from_str(&out).unwrap();
        let legal: Vec<String> = mv["view"]["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect();
        if let (Some(from), Some(want)) = (&c.legal_from, &c.legal) {
            let prefix = format!("move {from} ");
            let got: BTreeSet<String> = legal
                .iter()
                .filter_map(|l| l.strip_prefix(&prefix).map(|s| s.to_string()))
                .collect();
            let want: BTreeSet<String> = want.iter().cloned().collect();
            if got != want {
                return Err(format!(
                    "moves from {from} differ:\n  want {want:?}\n  got  {got:?}\n  missing {:?}\n  extra {:?}",
                    want.difference(&got).collect::<Vec<_>>(),
                    got.difference(&want).collect::<Vec<_>>()
                ));
            }
        }
        for l in &c.listed {
            if !legal.contains(l) {
                return Err(format!("`{l}` is not listed as legal: {legal:?}"));
            }
        }
        for l in &c.unlisted {
            if legal.contains(l) {
                return Err(format!("`{l}` is listed as legal, which it must not be"));
            }
        }
    }
    game.finish(&reporter, &c.events, &c.absent, c.status.as_ref())
}

#[test]
fn hexwar_cases() {
    run_cases("hexwar", |c: &Case| &c.name, run_case);
}

// ---------------------------------------------------------------------------
// An independent brute-force move generator, from the rules text
// ---------------------------------------------------------------------------

const DIRS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct BPiece {
    kind: &'static str,
    side: u8,
    facing: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct BPos {
    board: BTreeMap<(i32, i32), BPiece>,
    side: u8,
    /// Skeletons in each side's graveyard.
    skeletons: [u32; 2],
    over: bool,
}

/// (kind, movement: 'S' step / 'L' slide / 'J' jump, range, relative directions)
fn spec(kind: &str) -> (char, i32, Vec<usize>) {
    let all = vec![0, 1, 2, 3, 4, 5];
    let arc = vec![5, 0, 1];
    match kind {
        "King" => ('S', 1, arc),
        "Wyvern" => ('J', 3, all),
        "Warboar" => ('L', 0, all),
        "Troll" => ('L', 0, vec![0, 3]),
        "Orc" => ('S', 3, vec![0]),
        "Goblin" => ('S', 1, vec![5, 1]),
        "Necromancer" => ('S', 1, all),
        "Ghast" => ('S', 2, all),
        "Nightmare" => ('L', 0, vec![0]),
        "Skeleton" => ('S', 1, arc),
        "Specter" => ('S', 1, all),
        other => panic!("unknown piece {other}"),
    }
}

fn on_board(q: i32, r: i32) -> bool {
    q.abs().max(r.abs()).max((q + r).abs()) <= 4
}

fn royal(kind: &str) -> bool {
    kind == "King" || kind == "Necromancer"
}

fn can_land(b: &BPos, mover: &BPiece, at: (i32, i32)) -> bool {
    match b.board.get(&at) {
        None => true,
        Some(t) => t.side != mover.side && mover.kind != "Specter" && t.kind != "Specter",
    }
}

fn after_move(b: &BPos, from: (i32, i32), to: (i32, i32)) -> BPos {
    let mut n = b.clone();
    let p = n.board.remove(&from).unwrap();
    if let Some(t) = n.board.insert(to, p) {
        if t.kind == "Skeleton" {
            n.skeletons[t.side as usize] += 1;
        }
        if royal(t.kind) {
            // the game is over: nobody is to move (the engine leaves the
            // side as it was)
            n.over = true;
            return n;
        }
    }
    n.side ^= 1;
    n
}

/// Every position one single-action turn (move, rebirth, rotation or pass)
/// leads to.
fn brute_turns(b: &BPos) -> Vec<BPos> {
    let mut out = Vec::new();
    if b.over {
        return out;
    }
    for (&(q, r), p) in b.board.iter().filter(|(_, p)| p.side == b.side) {
        let (mode, n, rel) = spec(p.kind);
        if mode == 'J' {
            assert_eq!(rel.len(), 6, "only omnidirectional jumps here");
            for dq in -n..=n {
                for dr in -n..=n {
                    let d = dq.abs().max(dr.abs()).max((dq + dr).abs());
                    let to = (q + dq, r + dr);
                    if d == n && on_board(to.0, to.1) && can_land(b, p, to) {
                        out.push(after_move(b, (q, r), to));
                    }
                }
            }
        } else {
            let max = if mode == 'S' { n } else { 99 };
            for k in rel {
                let (dq, dr) = DIRS[(p.facing + k) % 6];
                for s in 1..=max {
                    let to = (q + dq * s, r + dr * s);
                    if !on_board(to.0, to.1) {
                        break;
                    }
                    let occupied = b.board.contains_key(&to);
                    if can_land(b, p, to) {
                        out.push(after_move(b, (q, r), to));
                    }
                    if occupied {
                        break;
                    }
                }
            }
        }
        for f in 0..6 {
            if f != p.facing {
                let mut n = b.clone();
                n.board.get_mut(&(q, r)).unwrap().facing = f;
                n.side ^= 1;
                out.push(n);
            }
        }
    }
    // rebirth: a Skeleton from the graveyard next to the Necromancer, facing it
    if b.skeletons[b.side as usize] > 0 {
        let necro = b
            .board
            .iter()
            .find(|(_, p)| p.side == b.side && p.kind == "Necromancer")
            .map(|(h, _)| *h);
        if let Some((nq, nr)) = necro {
            for (i, (dq, dr)) in DIRS.iter().enumerate() {
                let at = (nq + dq, nr + dr);
                if on_board(at.0, at.1) && !b.board.contains_key(&at) {
                    let mut n = b.clone();
                    n.skeletons[b.side as usize] -= 1;
                    n.board.insert(
                        at,
                        BPiece {
                            kind: "Skeleton",
                            side: b.side,
                            facing: (i + 3) % 6,
                        },
                    );
                    n.side ^= 1;
                    out.push(n);
                }
            }
        }
    }
    let mut pass = b.clone();
    pass.side ^= 1;
    out.push(pass);
    out
}

/// What changed between two positions (for failure messages).
fn diff(a: &BPos, b: &BPos) -> String {
    let mut out = Vec::new();
    for (h, p) in &a.board {
        if b.board.get(h) != Some(p) {
            out.push(format!("-{h:?} {p:?}"));
        }
    }
    for (h, p) in &b.board {
        if a.board.get(h) != Some(p) {
            out.push(format!("+{h:?} {p:?}"));
        }
    }
    out.join(" ")
}

fn brute_perft(b: &BPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    brute_turns(b)
        .iter()
        .map(|n| brute_perft(n, depth - 1))
        .sum()
}

/// The Copper Pass start, typed in from the issue's table.
fn brute_start() -> BPos {
    let f = |s: &str| {
        ["N", "NE", "SE", "S", "SW", "NW"]
            .iter()
            .position(|d| *d == s)
            .unwrap()
    };
    let table: [(u8, &'static str, i32, i32, &str); 22] = [
        (0, "King", -2, 4, "N"),
        (0, "Goblin", 0, 2, "NE"),
        (0, "Troll", -4, 4, "N"),
        (0, "Goblin", 0, 3, "N"),
        (0, "Troll", 0, 4, "NE"),
        (0, "Orc", -1, 2, "N"),
        (0, "Orc", -2, 2, "NE"),
        (0, "Orc", -3, 3, "NE"),
        (0, "Warboar", -1, 4, "N"),
        (0, "Wyvern", -1, 3, "N"),
        (0, "Wyvern", -2, 3, "N"),
        (0, "Orc", -3, 4, "N"),
        (1, "Necromancer", 2, -4, "S"),
        (1, "Specter", 1, -2, "SW"),
        (1, "Skeleton", 2, -2, "S"),
        (1, "Skeleton", 0, -2, "SW"),
        (1, "Nightmare", 3, -3, "SE"),
        (1, "Nightmare", 0, -3, "SW"),
        (1, "Ghast", 2, -3, "S"),
        (1, "Ghast", 1, -3, "SW"),
        (1, "Ghast", 3, -4, "SE"),
        (1, "Ghast", 1, -4, "SW"),
    ];
    let mut board = BTreeMap::new();
    for (side, kind, q, r, facing) in table {
        board.insert(
            (q, r),
            BPiece {
                kind,
                side,
                facing: f(facing),
            },
        );
    }
    BPos {
        board,
        side: 0,
        skeletons: [0, 0],
        over: false,
    }
}

/// The engine's state read through its public API into the brute-force form.
fn from_engine(rules: &Ruleset, st: &State) -> BPos {
    let names: Vec<&'static str> = [
        "King",
        "Wyvern",
        "Warboar",
        "Troll",
        "Orc",
        "Goblin",
        "Necromancer",
        "Ghast",
        "Nightmare",
        "Skeleton",
        "Specter",
    ]
    .to_vec();
    let intern = |s: &str| *names.iter().find(|n| **n == s).unwrap();
    let mut board = BTreeMap::new();
    for (c, p) in st.pieces() {
        let h = rules.geo.hex[c];
        board.insert(
            (h.q, h.r),
            BPiece {
                kind: intern(&rules.kinds[p.kind() as usize].name),
                side: p.side(),
                facing: p.facing_index(),
            },
        );
    }
    let skel = rules.find_kind(1, "skeleton").unwrap() as usize;
    BPos {
        board,
        side: st.side,
        skeletons: [0, st.graveyard[1][skel] as u32],
        over: st.is_over(),
    }
}

#[test]
fn start_position_matches_the_issue() {
    let rules = rules();
    let st = hexwar::new_game(&rules, &Options::new()).unwrap();
    assert_eq!(from_engine(&rules, &st), brute_start());
}

#[test]
fn white_has_35_moves_at_the_start() {
    let rules = rules();
    let st = hexwar::new_game(&rules, &Options::new()).unwrap();
    let mut moves = Vec::new();
    st.moves(&rules, &mut moves);
    // brute force: successors that moved a piece (not rotations, not the pass)
    let b = brute_start();
    let brute_moves = brute_turns(&b)
        .iter()
        .filter(|n| n.board.keys().collect::<Vec<_>>() != b.board.keys().collect::<Vec<_>>())
        .count();
    assert_eq!(brute_moves, 35);
    assert_eq!(moves.len(), 35);
    // and 12 pieces × 5 rotations
    let mut rot = Vec::new();
    st.rotations(&mut rot);
    assert_eq!(rot.len(), 60);
}

#[test]
fn perft_under_the_single_template() {
    let rules = rules();
    let st = hexwar::new_game(&rules, &options("single")).unwrap();
    let b = brute_start();
    let expected = [1u64, 96, 6335, 605_378];
    for depth in 0..=3u32 {
        let brute = brute_perft(&b, depth);
        let engine = playout::perft_single(&rules, &st, depth);
        eprintln!("perft({depth}) = {engine} (brute force {brute})");
        assert_eq!(engine, brute, "perft({depth})");
        if (depth as usize) < expected.len() {
            assert_eq!(engine, expected[depth as usize], "perft({depth})");
        }
    }
}

#[test]
fn movegen_matches_brute_force_on_random_positions() {
    let rules = rules();
    let mut rng = rng::from_u64(99);
    let mut s = Scratch::new();
    let mut checked = 0;
    let mut with_rebirth = 0;
    for g in 0..count("HERALD_HEXWAR_POSITIONS", 60) {
        let template = if g % 2 == 0 { "E" } else { "single" };
        let mut st = hexwar::new_game(&rules, &options(template)).unwrap();
        while !st.is_over() && st.turn <= 45 {
            if rng::below(&mut rng, 4) == 0 {
                let b = from_engine(&rules, &st);
                let mut turns = Vec::new();
                playout::single_turns(&rules, &st, &mut turns);
                let mut engine_next: Vec<BPos> = turns
                    .iter()
                    .map(|a| {
                        let mut n = st.clone();
                        n.apply(&rules, *a);
                        n.end_turn(&rules);
                        from_engine(&rules, &n)
                    })
                    .collect();
                let mut pass = st.clone();
                pass.end_turn(&rules);
                engine_next.push(from_engine(&rules, &pass));
                let mut brute_next = brute_turns(&b);
                engine_next.sort();
                brute_next.sort();
                if engine_next != brute_next {
                    let only_engine: Vec<_> = engine_next
                        .iter()
                        .filter(|n| !brute_next.contains(n))
                        .map(|n| diff(&b, n))
                        .collect();
                    let only_brute: Vec<_> = brute_next
                        .iter()
                        .filter(|n| !engine_next.contains(n))
                        .map(|n| diff(&b, n))
                        .collect();
                    panic!(
                        "game {g}, turn {}: {} engine turns, {} brute-force turns\n  only the engine: {only_engine:?}\n  only the brute force: {only_brute:?}\n  position: {:?}",
                        st.turn,
                        engine_next.len(),
                        brute_next.len(),
                        b.board
                    );
                }
                if turns.iter().any(|a| matches!(a, Action::Rebirth { .. })) {
                    with_rebirth += 1;
                }
                checked += 1;
            }
            playout::random_turn(&rules, &mut st, &mut rng, &mut s);
        }
    }
    eprintln!(
        "{checked} random positions agree with the brute force ({with_rebirth} with a rebirth)"
    );
    assert!(checked > 100);
    assert!(with_rebirth > 0, "no position with a rebirth was checked");
}

// ---------------------------------------------------------------------------
// Random playouts through the typed API
// ---------------------------------------------------------------------------

fn start_counts(st: &State) -> [usize; 2] {
    [st.count(0), st.count(1)]
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn random_games_finish_soundly() {
    let rules = rules();
    let games = count("HERALD_HEXWAR_PLAYOUTS", 500);
    let mut total = 0usize;
    let mut king_wins = 0;
    let mut limit_wins = 0;
    for template in ["E", "single"] {
        let mut rng = rng::from_u64(template.len() as u64);
        let mut s = Scratch::new();
        for g in 0..games {
            let mut st = hexwar::new_game(&rules, &options(template)).unwrap();
            let start = start_counts(&st);
            let mut turns = 0;
            while !st.is_over() {
                assert!(
                    turns < 2 * rules.turn_limit as usize,
                    "no end after the turn limit"
                );
                // every generated action is legal, and a random whole turn
                // written as orders is accepted as exactly that turn
                let mut moves = Vec::new();
                st.moves(&rules, &mut moves);
                for a in &moves {
                    assert!(st.is_legal(&rules, *a), "{template} game {g}: {a:?}");
                }
                let before = st.clone();
                let mut actions = Vec::new();
                playout::random_turn_with(&rules, &mut st, &mut rng, &mut s, |a| actions.push(a));
                let mut sim = before.clone();
                let mut orders = Vec::new();
                for a in &actions {
                    orders.push(play::order_of(&rules, &sim, *a));
                    sim.apply(&rules, *a);
                }
                let expect = if actions.is_empty() {
                    Plan::Pass
                } else {
                    Plan::Actions(actions.clone())
                };
                if orders.is_empty() {
                    orders.push(play::Order::Pass);
                }
                // the orders as a player would write them read back the same
                let reparsed: Vec<play::Order> = orders
                    .iter()
                    .map(|o| play::parse(&rules, &before, &o.to_string()).unwrap())
                    .collect();
                assert_eq!(reparsed, orders);
                let plan = play::plan(&rules, &before, &orders);
                assert_eq!(
                    plan.map_err(|p| format!("{p:?}")),
                    Ok(expect.clone()),
                    "{template} game {g}"
                );
                let mut replay = before.clone();
                replay.play_turn(&rules, &expect, &mut Vec::new());
                assert_eq!(
                    replay, st,
                    "{template} game {g}: play_turn agrees with the playout"
                );
                turns += 1;
                // serialisation round trip and conservation of pieces
                let json = serde_json::to_value(&st).unwrap();
                let back: State = serde_json::from_value(json).unwrap();
                assert_eq!(back, st);
                for (side, &at_start) in start.iter().enumerate() {
                    let graves: usize = st.graveyard[side].iter().map(|&n| n as usize).sum();
                    assert_eq!(
                        st.count(side as u8) + graves,
                        at_start,
                        "pieces are conserved"
                    );
                }
            }
            total += turns;
            match st.finish.unwrap().how {
                herald::games::hexwar::state::How::KingCaptured => king_wins += 1,
                _ => limit_wins += 1,
            }
        }
    }
    eprintln!(
        "{} random games, {total} turns, {king_wins} by capture, {limit_wins} at the turn limit",
        2 * games
    );
    assert!(king_wins > 0 && limit_wins > 0);
}

// ---------------------------------------------------------------------------
// Whole games through the engine
// ---------------------------------------------------------------------------

#[test]
fn engine_games_verify() {
    let games = count("HERALD_HEXWAR_ENGINE_GAMES", 12);
    let mut verified = 0;
    for template in ["E", "single"] {
        for g in 0..games {
            let mut game = EngineGame::new(
                "hexwar",
                &["white", "black"],
                &g.to_string(),
                vec![format!("template={template}")],
                &format!("engine-{template}-{g}"),
            );
            let mut bot = rng::from_u64(g as u64 + 5);
            let mut turns = 0;
            while !game.over() {
                assert!(turns <= 100, "a game past the turn limit");
                game.turn(|loaded, seat| {
                    let text = crate::common::report(loaded, seat, "text");
                    assert!(text.contains("GRAVEYARDS") && text.contains("ORDERS for turn"));
                    // half the games: the demo bot (whole multi-action turns);
                    // the other half: a random legal order set
                    if g % 2 == 0 {
                        herald::bots::scripted_orders(
                            loaded.rules.as_ref(),
                            &loaded.state,
                            seat,
                            &mut bot,
                        )
                    } else {
                        let legal = loaded.rules.legal_orders(&loaded.state, seat);
                        rng::pick(&mut bot, &legal).unwrap().clone()
                    }
                });
                turns += 1;
            }
            let problems = game.verify();
            assert!(
                problems.is_empty(),
                "{template} game {g}: verify: {problems:?}"
            );
            verified += 1;
        }
    }
    assert_eq!(verified, 2 * games);
    eprintln!("{verified} hexwar engine games verified");
}

#[test]
fn the_demo_bot_prefers_captures() {
    let rules = rules();
    let pos = r#"
to_move = "white"
[pieces]
white = ["king a1 N", "orc e3 N", "warboar c1 N"]
black = ["necromancer i5 S", "ghast e5 S", "skeleton c4 S"]
"#;
    let st = herald::games::hexwar::state::from_position(&rules, pos, 0).unwrap();
    let mut rng = rng::from_u64(1);
    for _ in 0..20 {
        match playout::bot_turn(&rules, &st, &mut rng) {
            Plan::Actions(a) => {
                let Action::Move { to, .. } = a[0] else {
                    panic!("a move first: {a:?}")
                };
                let l = herald::games::hexwar::state::label(rules.geo.hex[to as usize]);
                assert!(l == "e5" || l == "c4", "the bot captures: {l}");
            }
            other => panic!("{other:?}"),
        }
    }
}

// ---------------------------------------------------------------------------
// The catalogue is data: variants through a modified ruleset
// ---------------------------------------------------------------------------

fn variant(edit: impl Fn(String) -> String) -> Ruleset {
    Ruleset::parse(&edit(Hexwar::RULESET_TEXT.to_string())).unwrap()
}

#[test]
fn a_directional_jump_reaches_its_wedge_only() {
    // Wyverns that jump forward only: the three ring hexes nearest the
    // forward corner.
    let rules = variant(|t| {
        t.replace(
            "movement = \"JUMP-3\"\ndirections = [\"all\"]",
            "movement = \"JUMP-3\"\ndirections = [\"forward\"]",
        )
    });
    let pos = r#"
[pieces]
white = ["wyvern e5 N", "king b1 N"]
black = ["necromancer h6 S"]
"#;
    let st = herald::games::hexwar::state::from_position(&rules, pos, 0).unwrap();
    let mut v = Vec::new();
    st.moves(&rules, &mut v);
    let mut to: Vec<String> = v
        .iter()
        .filter_map(|a| match a {
            Action::Move { from, to }
                if rules.geo.hex[*from as usize] == herald::board::Hex::ORIGIN =>
            {
                Some(herald::games::hexwar::state::label(
                    rules.geo.hex[*to as usize],
                ))
            }
            _ => None,
        })
        .collect();
    to.sort();
    assert_eq!(to, ["d7", "e8", "f7"]);
}

#[test]
fn several_rebirth_types_are_named_in_the_order() {
    let rules = variant(|t| {
        t.replace(
            "movement = \"STEP-2\"\ndirections = [\"all\"]",
            "movement = \"STEP-2\"\ndirections = [\"all\"]\nabilities = [\"rebirth\"]",
        )
    });
    let pos = r#"
to_move = "black"
[pieces]
white = ["king b1 N"]
black = ["necromancer e8 S"]
[graveyard]
black = ["skeleton", "ghast"]
"#;
    let st = herald::games::hexwar::state::from_position(&rules, pos, 0).unwrap();
    let bare = play::parse(&rules, &st, "rebirth e7").unwrap();
    let err = play::plan(&rules, &st, &[bare]).unwrap_err();
    assert!(
        err[0]
            .why
            .to_string()
            .contains("say which piece comes back: `rebirth e7 <ghast|skeleton>`"),
        "{err:?}"
    );
    let named = play::parse(&rules, &st, "rebirth e7 ghast").unwrap();
    assert_eq!(named.to_string(), "rebirth e7 ghast");
    let plan = play::plan(&rules, &st, &[named]).unwrap();
    let mut next = st.clone();
    next.play_turn(&rules, &plan, &mut Vec::new());
    let ghast = rules.find_kind(1, "ghast").unwrap();
    let (_, p) = next.pieces().find(|(_, p)| p.kind() == ghast).unwrap();
    assert_eq!(
        p.facing(),
        herald::board::Dir::N,
        "reborn facing the Necromancer"
    );
    assert_eq!(next.graveyard[1][ghast as usize], 0);
    // the legal list names the type when several could come back
    let legal = herald::games::hexwar::view::legal_actions(&rules, &st);
    assert!(
        legal.contains(&"rebirth e7 skeleton".to_string()),
        "{legal:?}"
    );
}

#[test]
fn another_scenario_is_a_data_block() {
    let rules = variant(|t| {
        t + r#"
[[setup]]
name = "duel"
title = "Duel"
pieces = [
  { piece = "king", at = [0, 4], facing = "N" },
  { piece = "necromancer", at = [0, -4], facing = "S" },
  { piece = "specter", at = [0, 0], facing = "S" },
]
"#
    });
    let mut o = Options::new();
    o.insert("setup".into(), "duel".into());
    let st = hexwar::new_game(&rules, &o).unwrap();
    assert_eq!(st.pieces().count(), 3);
    o.insert("setup".into(), "nowhere".into());
    let err = hexwar::new_game(&rules, &o).unwrap_err();
    assert!(
        err.to_string()
            .contains("the ruleset's setups are copper-pass, duel"),
        "{err}"
    );
}

#[test]
fn legal_orders_are_the_one_action_turns_and_the_pass() {
    use herald::games::Game;
    let rules = rules();
    for template in ["E", "single"] {
        let st = hexwar::new_game(&rules, &options(template)).unwrap();
        let sets = Hexwar::legal_orders(&rules, &st, 0);
        assert_eq!(sets.len(), 35 + 60 + 1, "{template}");
        assert!(sets.iter().all(|s| s.len() == 1));
        assert!(!sets.iter().any(|s| s[0] == play::Order::Surrender));
        for s in &sets {
            assert!(
                Hexwar::check(&rules, &st, 0, s).is_empty(),
                "{template}: {}",
                s[0]
            );
        }
        assert!(
            Hexwar::legal_orders(&rules, &st, 1).is_empty(),
            "not Black's turn"
        );
    }
}
