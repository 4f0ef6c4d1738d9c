//! End-to-end tests of the `herald` command line: the real binary, driven
//! through `std::process::Command`, each test in its own scratch folder.
//!
//! What they hold the CLI to (docs/design.md, "Errors and order files"):
//! refused input exits 1, names the file and line, and writes nothing; bad
//! usage exits 2; a hand-edited game file is refused everywhere; the same
//! inputs give the same bytes; resolve keeps the file it replaces; verify
//! replays the game with the seed.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

const NOW: &str = "2026-11-22T12:00:00Z";
const LATER: &str = "2026-11-22T13:00:00Z";
const SEED: &str = "7";
const DIRECTIONS: [&str; 6] = ["N", "NE", "SE", "S", "SW", "NW"];

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// A fresh folder under the system temp dir, removed when the test passes
/// (kept when it fails, to look at).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let path =
            std::env::temp_dir().join(format!("herald-cli-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create scratch dir");
        Scratch(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// The outcome of one run of the binary.
struct Run {
    args: Vec<String>,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn describe(&self) -> String {
        format!(
            "herald {}\nexit: {:?}\n--- stdout\n{}--- stderr\n{}",
            self.args.join(" "),
            self.code,
            self.stdout,
            self.stderr
        )
    }

    /// Assert the exit status and return self for more checks.
    fn expect_code(&self, code: i32) -> &Run {
        assert_eq!(self.code, Some(code), "{}", self.describe());
        self
    }

    fn expect_ok(&self) -> &Run {
        self.expect_code(0)
    }

    fn expect_stderr(&self, needle: &str) -> &Run {
        assert!(
            self.stderr.contains(needle),
            "stderr should contain {needle:?}\n{}",
            self.describe()
        );
        self
    }

    fn expect_stdout(&self, needle: &str) -> &Run {
        assert!(
            self.stdout.contains(needle),
            "stdout should contain {needle:?}\n{}",
            self.describe()
        );
        self
    }
}

/// Run herald with `dir` as the working directory.
fn herald(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run herald");
    Run {
        args: args.iter().map(|s| s.to_string()).collect(),
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Every file (with its bytes) and every folder under `dir`, by relative path.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Option<Vec<u8>>>) {
        for entry in std::fs::read_dir(dir).expect("read dir") {
            let path = entry.expect("dir entry").path();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            if path.is_dir() {
                out.insert(rel, None);
                walk(root, &path, out);
            } else {
                out.insert(rel, Some(std::fs::read(&path).expect("read file")));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Assert two snapshots are equal, naming the first path that differs.
fn assert_same_tree(
    a: &BTreeMap<PathBuf, Option<Vec<u8>>>,
    b: &BTreeMap<PathBuf, Option<Vec<u8>>>,
    context: &str,
) {
    let keys_a: Vec<_> = a.keys().collect();
    let keys_b: Vec<_> = b.keys().collect();
    assert_eq!(keys_a, keys_b, "{context}: the set of files differs");
    for (path, bytes) in a {
        assert!(b[path] == *bytes, "{context}: {} differs", path.display());
    }
}

/// The text of an order file; orders one per line, so the first order
/// stands on line 6, the second on line 7, and so on.
fn order_text(game: &str, player: &str, turn: u32, password: &str, orders: &[&str]) -> String {
    let mut s = format!(
        "game = \"{game}\"\nplayer = \"{player}\"\nturn = {turn}\npassword = \"{password}\"\norders = [\n"
    );
    for o in orders {
        s.push_str(&format!("  \"{o}\",\n"));
    }
    s.push_str("]\n");
    s
}

/// A two-player Norse Wars game (red, blue; seed 7) in its own folder.
struct Game {
    dir: Scratch,
    id: String,
    passwords: BTreeMap<String, String>,
}

impl Game {
    fn new(name: &str) -> Game {
        let dir = Scratch::new(name);
        herald(
            dir.path(),
            &[
                "new",
                "norse-wars",
                "--players",
                "red,blue",
                "--seed",
                SEED,
                "--out",
                "game",
                "--now",
                NOW,
            ],
        )
        .expect_ok();
        let secrets: toml::Table =
            toml::from_str(&std::fs::read_to_string(dir.path().join("game/secrets.toml")).unwrap())
                .expect("secrets file is TOML");
        let passwords = secrets["passwords"]
            .as_table()
            .expect("[passwords]")
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect();
        let mut g = Game {
            dir,
            id: String::new(),
            passwords,
        };
        g.id = g.json()["id"].as_str().unwrap().to_string();
        g
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn run(&self, args: &[&str]) -> Run {
        herald(self.path(), args)
    }

    fn password(&self, player: &str) -> &str {
        &self.passwords[player]
    }

    fn json(&self) -> Value {
        crate::common::game_json(&self.path().join("game"))
    }

    fn game(&self) -> PathBuf {
        self.path().join("game")
    }

    /// The game file's bytes.
    fn file(&self) -> Vec<u8> {
        std::fs::read(self.game().join("game.jsonl")).unwrap()
    }

    fn turn(&self) -> u32 {
        self.json()["turn"].as_u64().unwrap() as u32
    }

    fn to_move(&self) -> String {
        self.json()["awaiting"][0].as_str().unwrap().to_string()
    }

    /// Write an order file with every field given; returns its name.
    fn write_raw(&self, file: &str, text: &str) -> String {
        std::fs::write(self.path().join(file), text).unwrap();
        file.to_string()
    }

    fn write_orders(
        &self,
        file: &str,
        game: &str,
        player: &str,
        turn: u32,
        password: &str,
        orders: &[&str],
    ) -> String {
        self.write_raw(file, &order_text(game, player, turn, password, orders))
    }

    /// Orders from `player` for the current turn, with the right id and password.
    fn write_own_orders(&self, file: &str, player: &str, orders: &[&str]) -> String {
        let (id, turn, pw) = (
            self.id.clone(),
            self.turn(),
            self.password(player).to_string(),
        );
        self.write_orders(file, &id, player, turn, &pw, orders)
    }

    /// A player's report as JSON.
    fn report(&self, player: &str) -> Value {
        let run = self.run(&["report", "game", "--player", player, "--format", "json"]);
        run.expect_ok();
        serde_json::from_str(&run.stdout).expect("report --format json is JSON")
    }

    fn legal(&self, player: &str) -> Vec<String> {
        self.report(player)["view"]["legal"]
            .as_array()
            .expect("view.legal")
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    }

    /// Play the current turn with the first legal move of the player to move.
    fn play_turn(&self) {
        let player = self.to_move();
        let legal = self.legal(&player);
        let file = format!("turn-{}-{player}.toml", self.turn());
        self.write_own_orders(&file, &player, &[legal[0].as_str()]);
        self.run(&["resolve", "game", &file, "--now", LATER])
            .expect_ok();
    }

    /// Both `resolve` and `check` refuse the order file with exit 1; stderr
    /// names the file (at `line`, if given) and says each of `needles`; and
    /// not a byte in the folder changes. Returns resolve's stderr.
    fn assert_refused(&self, file: &str, line: Option<usize>, needles: &[&str]) -> String {
        let before = snapshot(self.path());
        let at = match line {
            Some(l) => format!("{file}:{l}:"),
            None => format!("{file}:"),
        };
        let resolve = self.run(&["resolve", "game", file, "--now", LATER]);
        let check = self.run(&["check", "game", file]);
        for run in [&resolve, &check] {
            run.expect_code(1).expect_stderr(&at);
            for n in needles {
                run.expect_stderr(n);
            }
        }
        assert_same_tree(&before, &snapshot(self.path()), "after a refused resolve");
        resolve.stderr.clone()
    }

    /// A damaged game file is refused by resolve, status and check (exit 1,
    /// changing nothing), and `verify` reports it; every message says `keyword`.
    fn assert_game_file_refused(&self, orders: &str, keyword: &str) {
        let before = snapshot(self.path());
        for args in [
            &["resolve", "game", orders, "--now", LATER][..],
            &["status", "game"][..],
            &["check", "game", orders][..],
        ] {
            self.run(args)
                .expect_code(1)
                .expect_stderr("game")
                .expect_stderr(keyword);
        }
        let verify = self.run(&["verify", "game"]);
        assert_ne!(verify.code, Some(0), "{}", verify.describe());
        verify.expect_stderr(keyword);
        assert_same_tree(
            &before,
            &snapshot(self.path()),
            "after refusing a damaged file",
        );
    }
}

// ---------------------------------------------------------------------------
// 1. Bad input is refused, precisely, and nothing is written
// ---------------------------------------------------------------------------

#[test]
fn malformed_order_file_is_refused_at_its_line() {
    let g = Game::new("malformed");
    let f = g.write_raw(
        "orders.toml",
        &format!(
            "game = \"{}\"\nplayer = \"red\"\nturn = zero\npassword = \"x\"\norders = []\n",
            g.id
        ),
    );
    g.assert_refused(&f, Some(3), &["the turn is a number, without quotes"]);
}

#[test]
fn wrong_game_id_is_refused() {
    let g = Game::new("wrong-id");
    let f = g.write_orders(
        "orders.toml",
        "nw-some-other-game",
        "red",
        0,
        g.password("red"),
        &["W3 NE 2"],
    );
    g.assert_refused(&f, Some(1), &["nw-some-other-game", &g.id]);
}

#[test]
fn stale_turn_is_refused() {
    let g = Game::new("stale");
    let f = g.write_own_orders("turn-0-red.toml", "red", &["W3 NE 2"]);
    g.run(&["resolve", "game", &f, "--now", LATER]).expect_ok();
    assert_eq!(g.turn(), 1);
    // The same file again is the same resolve run twice: nothing to do.
    let before = snapshot(g.path());
    g.run(&["resolve", "game", &f, "--now", LATER])
        .expect_ok()
        .expect_stdout("resolved already with these orders; nothing to do");
    assert_same_tree(&before, &snapshot(g.path()), "after a resolve run twice");
    // Other orders for the resolved turn are stale.
    let late = g.write_orders(
        "late.toml",
        &g.id,
        "red",
        0,
        g.password("red"),
        &["W1 NE 2"],
    );
    g.assert_refused(&late, Some(3), &["stale", "turn 0", "waits for turn 1"]);
}

#[test]
fn future_turn_is_refused() {
    let g = Game::new("future");
    let f = g.write_orders(
        "orders.toml",
        &g.id,
        "red",
        5,
        g.password("red"),
        &["W3 NE 2"],
    );
    g.assert_refused(&f, Some(3), &["turn 5", "not yet", "waits for turn 0"]);
}

#[test]
fn wrong_password_is_refused() {
    let g = Game::new("wrong-password");
    let f = g.write_orders(
        "orders.toml",
        &g.id,
        "red",
        0,
        "not-my-password",
        &["W3 NE 2"],
    );
    g.assert_refused(&f, Some(4), &["wrong password for red"]);
}

#[test]
fn other_players_password_is_refused() {
    let g = Game::new("other-password");
    let f = g.write_orders(
        "orders.toml",
        &g.id,
        "red",
        0,
        g.password("blue"),
        &["W3 NE 2"],
    );
    g.assert_refused(&f, Some(4), &["wrong password for red"]);
}

#[test]
fn player_not_in_the_game_is_refused() {
    let g = Game::new("stranger");
    let f = g.write_orders(
        "orders.toml",
        &g.id,
        "green",
        0,
        g.password("red"),
        &["W3 NE 2"],
    );
    g.assert_refused(&f, Some(2), &["`green` is not a player", "red, blue"]);
}

#[test]
fn orders_from_the_player_not_to_move_are_refused() {
    let g = Game::new("not-to-move");
    assert_eq!(g.to_move(), "red");
    let blue_move = g.legal("red")[0].clone(); // any well-formed order
    let f = g.write_own_orders("orders.toml", "blue", &[&blue_move]);
    g.assert_refused(&f, None, &["blue has no orders due", "waits for red"]);
}

#[test]
fn a_good_file_beside_a_refused_one_is_not_resolved_either() {
    let g = Game::new("mixed");
    let good = g.write_own_orders("red.toml", "red", &["W3 NE 2"]);
    let bad = g.write_own_orders("blue.toml", "blue", &["J S"]);
    let before = snapshot(g.path());
    g.run(&["resolve", "game", &good, &bad, "--now", LATER])
        .expect_code(1)
        .expect_stderr("blue.toml:");
    assert_same_tree(&before, &snapshot(g.path()), "after a refused resolve");
}

#[test]
fn nonexistent_piece_is_refused() {
    let g = Game::new("no-piece");
    let f = g.write_own_orders("orders.toml", "red", &["W9 N"]);
    g.assert_refused(&f, Some(6), &["\"W9 N\"", "no W9", "yours: J, W1"]);
}

#[test]
fn illegal_move_is_refused_with_what_the_piece_can_do() {
    let g = Game::new("illegal");
    let legal = g.legal("red");
    // A piece with some legal moves, and a direction it cannot go.
    let (piece, dir) = ["J", "W1", "W2", "W3", "W4", "W5"]
        .iter()
        .filter(|p| legal.iter().any(|m| m.split(' ').next() == Some(**p)))
        .flat_map(|p| DIRECTIONS.iter().map(move |d| (*p, *d)))
        .find(|(p, d)| !legal.iter().any(|m| m == &format!("{p} {d}")))
        .expect("some piece has a direction it cannot go");
    let order = format!("{piece} {dir}");
    let f = g.write_own_orders("orders.toml", "red", &[&order]);
    let stderr = g.assert_refused(
        &f,
        Some(6),
        &[&format!("\"{order}\""), &format!("{piece} cannot go {dir}")],
    );
    // Every legal move of that piece is offered instead, and nothing else.
    let alternatives: Vec<String> = legal
        .iter()
        .filter(|m| m.split(' ').next() == Some(piece))
        .cloned()
        .collect();
    let listed = stderr
        .split(&format!("{piece} can: "))
        .nth(1)
        .unwrap_or_else(|| panic!("no `{piece} can:` list in {stderr}"))
        .lines()
        .next()
        .unwrap();
    // Written either as whole orders ("W3 NE 2") or after the piece ("NE 2").
    let listed: Vec<String> = listed
        .split(", ")
        .map(|m| {
            if m.starts_with(&format!("{piece} ")) {
                m.to_string()
            } else {
                format!("{piece} {m}")
            }
        })
        .collect();
    assert_eq!(listed, alternatives, "{stderr}");
}

#[test]
fn two_moves_in_one_file_are_refused_at_the_second() {
    let g = Game::new("two-moves");
    let legal = g.legal("red");
    let first = legal[0].split(' ').next().unwrap().to_string();
    let other = legal
        .iter()
        .find(|m| m.split(' ').next() != Some(first.as_str()))
        .expect("two pieces can move");
    let f = g.write_own_orders("orders.toml", "red", &[&legal[0], other]);
    g.assert_refused(&f, Some(7), &["second move", &format!("\"{other}\"")]);
}

#[test]
fn a_file_with_no_move_is_refused_with_the_legal_moves() {
    let g = Game::new("no-move");
    let legal = g.legal("red");
    let f = g.write_own_orders("orders.toml", "red", &[]);
    g.assert_refused(&f, None, &["must move one piece", &legal.join(", ")]);
}

#[test]
fn unknown_option_to_new_names_it_and_the_valid_ones() {
    let dir = Scratch::new("bad-option");
    let run = herald(
        dir.path(),
        &[
            "new",
            "norse-wars",
            "--players",
            "red,blue",
            "--option",
            "nonsense=1",
            "--out",
            "game",
            "--now",
            NOW,
        ],
    );
    assert_eq!(run.code, Some(2), "{}", run.describe());
    run.expect_stderr("nonsense");
    for known in ["fog", "draft_shields", "sudden_death", "teams"] {
        run.expect_stderr(known);
    }
    assert!(
        snapshot(dir.path()).is_empty(),
        "new wrote files it refused"
    );
}

#[test]
fn usage_errors_exit_2_and_write_nothing() {
    let dir = Scratch::new("usage");
    herald(dir.path(), &["new", "norse-wars", "--out", "game"])
        .expect_code(2)
        .expect_stderr("--players");
    herald(
        dir.path(),
        &[
            "new",
            "norse-wars",
            "--players",
            "red,blue",
            "--out",
            "game",
            "--now",
            "yesterday",
        ],
    )
    .expect_code(2)
    .expect_stderr("--now yesterday");
    herald(dir.path(), &["frobnicate"]).expect_code(2);
    assert!(snapshot(dir.path()).is_empty(), "a usage error wrote files");
}

// ---------------------------------------------------------------------------
// 2. check accepts good orders and writes nothing
// ---------------------------------------------------------------------------

#[test]
fn check_accepts_valid_orders_and_writes_nothing() {
    let g = Game::new("check-ok");
    let f = g.write_own_orders("orders.toml", "red", &["W3 NE 2"]);
    let before = snapshot(g.path());
    g.run(&["check", "game", &f])
        .expect_ok()
        .expect_stdout("orders.toml: ok")
        .expect_stdout("W3 NE 2");
    assert_same_tree(&before, &snapshot(g.path()), "after check");
}

// ---------------------------------------------------------------------------
// 3. A hand-edited game file is refused
// ---------------------------------------------------------------------------

#[test]
fn edited_state_is_refused() {
    let g = Game::new("edit-state");
    let f = g.write_own_orders("orders.toml", "red", &["W3 NE 2"]);
    let mut lines = crate::common::lines(&g.game());
    let q = &mut lines[0]["head"]["state"]["pieces"][1]["at"]["q"];
    *q = Value::from(q.as_i64().unwrap() + 1);
    crate::common::write_lines(&g.game(), &lines);
    g.assert_game_file_refused(&f, "not sealed by the game's key");
    g.run(&["status", "game"])
        .expect_stderr("`state` is not the state the log ends in");
}

#[test]
fn edited_log_event_is_refused() {
    let g = Game::new("edit-log");
    g.play_turn();
    g.play_turn();
    let f = g.write_own_orders("orders.toml", &g.to_move(), &[&g.legal(&g.to_move())[0]]);
    let mut lines = crate::common::lines(&g.game());
    // Move the piece of turn 0's first event somewhere else.
    let q = &mut lines[2]["body"]["events"][0]["to"]["q"];
    let moved = q.as_i64().expect("turn 0 logged a move with a destination");
    *q = Value::from(moved - 1);
    crate::common::write_lines(&g.game(), &lines);
    g.assert_game_file_refused(&f, "entry 1 (phase, turn 0) does not match its hash");
    // Hashed again consistently: the entry's signature no longer holds.
    crate::common::rehash(&mut lines);
    crate::common::write_lines(&g.game(), &lines);
    g.assert_game_file_refused(
        &f,
        "entry 1 (phase, turn 0) is not signed by the game's key",
    );
}

#[test]
fn truncated_game_file_is_refused() {
    let g = Game::new("truncated");
    g.play_turn();
    let f = g.write_own_orders("orders.toml", "blue", &[&g.legal("blue")[0]]);
    let bytes = g.file();
    std::fs::write(g.game().join("game.jsonl"), &bytes[..bytes.len() / 2]).unwrap();
    g.assert_game_file_refused(&f, "not a log entry line");
}

#[test]
fn a_damaged_game_file_names_the_copy_to_restore() {
    let g = Game::new("truncated-hint");
    let before = g.file();
    g.play_turn();
    let previous = g.game().join("archive/previous.jsonl");
    assert_eq!(
        std::fs::read(&previous).unwrap(),
        before,
        "the file before the last change"
    );
    let bytes = g.file();
    std::fs::write(g.game().join("game.jsonl"), &bytes[..bytes.len() / 2]).unwrap();
    g.run(&["status", "game"])
        .expect_code(1)
        .expect_stderr("archive/previous.jsonl");
}

#[test]
fn deleted_last_log_entry_is_refused() {
    let g = Game::new("delete-log");
    g.play_turn();
    g.play_turn();
    let f = g.write_own_orders("orders.toml", &g.to_move(), &[&g.legal(&g.to_move())[0]]);
    let mut lines = crate::common::lines(&g.game());
    assert_eq!(lines.len(), 4, "head, genesis, two phases");
    lines.pop();
    crate::common::write_lines(&g.game(), &lines);
    g.assert_game_file_refused(&f, "the log holds 2 entries but the head record says 3");
}

// ---------------------------------------------------------------------------
// 4. Determinism
// ---------------------------------------------------------------------------

#[test]
fn same_game_file_and_orders_resolve_to_the_same_bytes() {
    let g = Game::new("determinism");
    g.play_turn();
    let player = g.to_move();
    let legal = g.legal(&player);
    let f = g.write_own_orders("orders.toml", &player, &[&legal[legal.len() / 2]]);
    let copies = [Scratch::new("determinism-a"), Scratch::new("determinism-b")];
    for c in &copies {
        let st = std::process::Command::new("cp")
            .args(["-a", g.game().to_str().unwrap(), c.path().to_str().unwrap()])
            .status()
            .unwrap();
        assert!(st.success());
        std::fs::copy(g.path().join(&f), c.path().join(&f)).unwrap();
        herald(c.path(), &["resolve", "game", &f, "--now", LATER]).expect_ok();
    }
    let (a, b) = (snapshot(copies[0].path()), snapshot(copies[1].path()));
    assert!(
        a.contains_key(Path::new("game/reports/turn-0002/red.txt")),
        "{:?}",
        a.keys()
    );
    assert!(a.contains_key(Path::new("game/reports/turn-0002/blue.json")));
    assert_same_tree(&a, &b, "two resolves of the same inputs");
}

/// Every file of a demo folder.
fn demo_snapshot(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    snapshot(dir)
}

fn run_demo(dir: &Path) {
    herald(dir, &["demo", "--out", "d", "--seed", "5", "--now", NOW])
        .expect_ok()
        .expect_stdout("herald verify: ok");
}

#[test]
fn demo_with_the_same_seed_gives_the_same_game_and_reports() {
    let (a, b) = (Scratch::new("demo-a"), Scratch::new("demo-b"));
    run_demo(a.path());
    run_demo(b.path());
    let (sa, sb) = (
        demo_snapshot(&a.path().join("d")),
        demo_snapshot(&b.path().join("d")),
    );
    assert!(sa.keys().any(|p| p.starts_with("game/reports")));
    assert_same_tree(&sa, &sb, "two demos with seed 5");
}

#[test]
fn demo_game_file_is_byte_identical() {
    let (a, b) = (Scratch::new("demo-bytes-a"), Scratch::new("demo-bytes-b"));
    run_demo(a.path());
    run_demo(b.path());
    let (da, db) = (a.path().join("d"), b.path().join("d"));
    assert!(
        std::fs::read(da.join("game/game.jsonl")).unwrap()
            == std::fs::read(db.join("game/game.jsonl")).unwrap(),
        "game.jsonl differs between two demos with seed 5"
    );
    let reports = |d: &Path| {
        snapshot(d)
            .into_iter()
            .filter(|(p, _)| p.starts_with("game/reports"))
            .collect::<BTreeMap<_, _>>()
    };
    assert_same_tree(&reports(&da), &reports(&db), "demo reports");
}

// ---------------------------------------------------------------------------
// 5. resolve keeps the previous file
// ---------------------------------------------------------------------------

#[test]
fn resolve_keeps_the_previous_file_and_the_result_verifies() {
    let g = Game::new("archive");
    let before = g.file();
    let f = g.write_own_orders("orders.toml", "red", &["W3 NE 2"]);
    g.run(&["resolve", "game", &f, "--now", LATER]).expect_ok();
    let kept = std::fs::read(g.game().join("archive/previous.jsonl")).unwrap();
    assert!(
        kept == before,
        "the archive is not the file resolve replaced"
    );
    assert!(g.file() != before);
    g.run(&["verify", "game"])
        .expect_ok()
        .expect_stdout("every phase replays");
    g.run(&["status", "game"])
        .expect_ok()
        .expect_stdout("turn 1")
        .expect_stdout("awaiting orders from: blue");
}

// ---------------------------------------------------------------------------
// 6. verify and the seed
// ---------------------------------------------------------------------------

#[test]
fn verify_needs_the_right_seed() {
    let g = Game::new("seed");
    g.play_turn();
    g.play_turn();
    let wrong = g.run(&["verify", "game", "--seed", "8"]);
    assert_ne!(wrong.code, Some(0), "{}", wrong.describe());
    wrong.expect_stderr("seed");
    // The moderator's folder holds the seed; a published copy does not,
    // and is replayed once the seed is known.
    g.run(&["verify", "game"])
        .expect_ok()
        .expect_stdout("every phase replays");
    std::fs::create_dir(g.path().join("published")).unwrap();
    std::fs::copy(
        g.game().join("game.jsonl"),
        g.path().join("published/game.jsonl"),
    )
    .unwrap();
    assert!(!String::from_utf8(g.file())
        .unwrap()
        .contains("\"seed\":\"7\""));
    g.run(&["status", "published"]).expect_ok();
    g.run(&["verify", "published/game.jsonl"])
        .expect_ok()
        .expect_stdout("not replayed: the seed is secret");
    let wrong = g.run(&["verify", "published/game.jsonl", "--seed", "8"]);
    assert_ne!(wrong.code, Some(0), "{}", wrong.describe());
    wrong.expect_stderr("commitment");
    g.run(&["verify", "published/game.jsonl", "--seed", SEED])
        .expect_ok()
        .expect_stdout("every phase replays");
}

// ---------------------------------------------------------------------------
// Passwords stay out of the archive
// ---------------------------------------------------------------------------

#[test]
fn resolve_never_copies_a_password_into_the_game_file() {
    let g = Game::new("redact");
    let pw = g.password("red").to_string();
    let text =
        order_text(&g.id, "red", 0, &pw, &["W3 NE 2"]).replace("password =", "\"password\" =");
    let f = g.write_raw("orders.toml", &text);
    g.run(&["resolve", "game", &f, "--now", LATER]).expect_ok();
    let game = String::from_utf8(g.file()).unwrap();
    assert!(!game.contains(&pw), "red's password is in the game file");
}

#[test]
fn resolve_keeps_no_password_in_the_game_file() {
    let g = Game::new("redact-plain");
    let f = g.write_own_orders("orders.toml", "red", &["W3 NE 2"]);
    g.run(&["resolve", "game", &f, "--now", LATER]).expect_ok();
    let game = String::from_utf8(g.file()).unwrap();
    for pw in g.passwords.values() {
        assert!(
            !game.contains(pw.as_str()),
            "a password is in the game file"
        );
    }
    g.run(&["verify", "game"]).expect_ok();
}

// ---------------------------------------------------------------------------
// 7. Commit and reveal
// ---------------------------------------------------------------------------

#[test]
fn the_seed_stays_hidden_until_the_end_and_then_every_report_reveals_it() {
    let s = Scratch::new("seed-reveal");
    let seed = "a-long-secret-seed-7f3e";
    herald(
        s.path(),
        &["demo", "--out", "d", "--seed", seed, "--now", NOW],
    )
    .expect_ok();
    let game = crate::common::game_json(&s.path().join("d/game"));
    let commitment = game["seed_commitment"].as_str().unwrap().to_string();
    let last = game["turn"].as_u64().unwrap();
    let reports = s.path().join("d/game/reports");
    let mut turns: Vec<PathBuf> = std::fs::read_dir(&reports)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    turns.sort();
    assert_eq!(turns.len() as u64, last + 1, "one report folder per turn");
    for dir in &turns {
        let final_turn = dir.ends_with(format!("turn-{last:04}"));
        for f in std::fs::read_dir(dir).unwrap() {
            let f = f.unwrap().path();
            // the text, JSON and HTML reports carry the header; the board
            // pictures beside them do not
            if f.extension().is_none_or(|e| e == "svg") {
                continue;
            }
            let text = std::fs::read_to_string(&f).unwrap();
            assert!(
                text.contains(&commitment),
                "{} lacks the seed commitment",
                f.display()
            );
            assert_eq!(
                text.contains(seed),
                final_turn,
                "{}: seed shown {} the end",
                f.display(),
                if final_turn { "only before" } else { "before" }
            );
        }
    }
    // The game file holds the seed once it is revealed at the end; anyone
    // holding the published file replays it.
    assert_eq!(game["seed"], seed);
    std::fs::create_dir(s.path().join("published")).unwrap();
    std::fs::copy(
        s.path().join("d/game/game.jsonl"),
        s.path().join("published/game.jsonl"),
    )
    .unwrap();
    herald(s.path(), &["verify", "published/game.jsonl"])
        .expect_ok()
        .expect_stdout("every phase replays");
    herald(
        s.path(),
        &["verify", "published/game.jsonl", "--seed", "a-guess"],
    )
    .expect_code(1)
    .expect_stderr("commitment");
}

// ---------------------------------------------------------------------------
// 8. A report sent back as an order file
// ---------------------------------------------------------------------------

/// Red's turn-0 report with its order form filled in.
fn filled_report(g: &Game, quote: bool) -> String {
    let report = g
        .run(&["report", "game", "--player", "red"])
        .expect_ok()
        .stdout
        .clone();
    let filled = report
        .replacen(
            "password = \"\"",
            &format!("password = \"{}\"", g.password("red")),
            1,
        )
        .replacen("  \"\",", "  \"W3 NE 2\",", 1);
    if quote {
        filled.lines().map(|l| format!("> {l}\n")).collect()
    } else {
        filled
    }
}

#[test]
fn a_whole_report_sent_back_is_read_from_its_order_form() {
    let g = Game::new("pasted-report");
    for quote in [false, true] {
        std::fs::write(g.path().join("reply.txt"), filled_report(&g, quote)).unwrap();
        g.run(&["check", "game", "reply.txt"])
            .expect_ok()
            .expect_stdout("red's orders for turn 0: W3 NE 2");
    }
    // An error in the pasted form names the line in the file as sent.
    let text = filled_report(&g, false).replacen("\"W3 NE 2\"", "\"W3 NE 7\"", 1);
    let line = text.lines().position(|l| l.contains("W3 NE 7")).unwrap() + 1;
    std::fs::write(g.path().join("reply.txt"), &text).unwrap();
    g.run(&["check", "game", "reply.txt"])
        .expect_code(1)
        .expect_stderr(&format!("reply.txt:{line}: \"W3 NE 7\""));
    // The stored copy is the order form alone, without the password.
    std::fs::write(g.path().join("reply.txt"), filled_report(&g, true)).unwrap();
    g.run(&["resolve", "game", "reply.txt", "--now", NOW])
        .expect_ok();
    let stored = g.json()["log"][0]["orders"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        stored.starts_with("# Copy orders")
            || stored.starts_with("# Legal now:")
            || stored.starts_with("game ="),
        "{stored}"
    );
    assert!(!stored.contains(g.password("red")) && !stored.contains("WHAT HAPPENED"));
}
