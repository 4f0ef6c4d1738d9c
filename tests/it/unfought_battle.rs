//! The Unfought Battle through the public CLI and the typed API:
//!
//! - rule cases as plain files (`tests/cases/unfought-battle/*.toml`): a
//!   PRESTATE (a `--setup` position), TURNS (both players' order files,
//!   resolved together by one `herald resolve`), the living forces after,
//!   Shih, the events the report tells and must not tell, the status, or
//!   the refusal;
//! - the result of a turn does not depend on the order of the order files
//!   on the command line nor on the order of the lines in them;
//! - random playouts on the typed state, with invariants after every turn;
//! - the hidden-information scan: random games through the engine, every
//!   report and view.json of every turn checked against what the rules
//!   allow each player to know, worked out here from the logged events;
//! - `herald demo unfought-battle`.
//!
//! Counts can be raised with UB_PLAYOUTS, UB_SCAN_GAMES and UB_ORDER_TURNS.

use crate::common::{check_report, check_status, check_verify, count, herald, run_cases, scratch};
use herald::board::Hex;
use herald::games::unfought_battle::orders::Order;
use herald::games::unfought_battle::ruleset::Ruleset;
use herald::games::unfought_battle::state::{Phase, State};
use herald::games::unfought_battle::{playout, UnfoughtBattle};
use herald::rng;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn rules() -> Ruleset {
    Ruleset::parse(UnfoughtBattle::RULESET_TEXT).unwrap()
}

const PLAYERS: [&str; 2] = ["north", "south"];

// ---------------------------------------------------------------- cases

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[serde(default = "seed_one")]
    seed: String,
    /// The ±variance of combat (0 makes dice-free cases); default: the ruleset's.
    variance: Option<i32>,
    prestate: Option<String>,
    /// Each turn: both players' orders, `;`-separated ("" = all hold).
    turns: Vec<BTreeMap<String, String>>,
    /// Living forces after the last turn, per player: "f2 3,3".
    after: Option<BTreeMap<String, Vec<String>>>,
    shih: Option<BTreeMap<String, u32>>,
    #[serde(default = "north")]
    reporter: String,
    #[serde(default)]
    events: Vec<String>,
    #[serde(default)]
    absent: Vec<String>,
    status: Option<String>,
    /// The last turn is refused with this in the message.
    error: Option<String>,
}

fn seed_one() -> String {
    "1".into()
}
fn north() -> String {
    "north".into()
}

struct CliGame {
    dir: std::path::PathBuf,
    path: String,
    passwords: toml::Value,
    n: usize,
}

impl CliGame {
    fn new(
        tag: &str,
        seed: &str,
        variance: Option<i32>,
        prestate: Option<&str>,
    ) -> Result<CliGame, String> {
        let dir = scratch(tag);
        let path = dir.join("game").to_str().unwrap().to_string();
        let mut args: Vec<String> = [
            "new",
            "unfought-battle",
            "--players",
            "north,south",
            "--seed",
            seed,
            "--out",
            &path,
            "--now",
            "2026-11-22T12:00:00Z",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if let Some(v) = variance {
            let text =
                UnfoughtBattle::RULESET_TEXT.replace("variance = 1", &format!("variance = {v}"));
            let p = dir.join("variant.toml");
            std::fs::write(&p, text).unwrap();
            args.extend(["--rules".into(), p.to_str().unwrap().into()]);
        }
        if let Some(p) = prestate {
            let pos = dir.join("position.toml");
            std::fs::write(&pos, p).unwrap();
            args.extend(["--setup".into(), pos.to_str().unwrap().into()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = herald(&args);
        if code != 0 {
            return Err(format!("new refused: {err}"));
        }
        let passwords =
            toml::from_str(&std::fs::read_to_string(dir.join("game/secrets.toml")).unwrap())
                .unwrap();
        Ok(CliGame {
            dir,
            path,
            passwords,
            n: 0,
        })
    }

    fn file(&self) -> Value {
        crate::common::game_json(std::path::Path::new(&self.path))
    }

    /// Write one player's order file.
    fn order_file(&mut self, player: &str, orders: &[String]) -> String {
        let f = self.file();
        let text = herald::report::order_file(
            f["id"].as_str().unwrap(),
            player,
            f["turn"].as_u64().unwrap() as u32,
            self.passwords["passwords"][player].as_str().unwrap(),
            orders,
        );
        self.n += 1;
        let p = self.dir.join(format!("{player}-{}.toml", self.n));
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    }

    /// Resolve a turn with these order files, in this order.
    fn resolve(&self, files: &[String]) -> (i32, String) {
        let mut args = vec!["resolve", &self.path];
        args.extend(files.iter().map(String::as_str));
        args.extend(["--now", "2026-11-22T13:00:00Z"]);
        let (code, _, err) = herald(&args);
        (code, err)
    }
}

fn split(orders: &str) -> Vec<String> {
    orders
        .split(';')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn living(state: &Value, seat: usize) -> Vec<String> {
    let mut v: Vec<String> = state["sides"][seat]["forces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["alive"].as_bool().unwrap())
        .map(|f| format!("f{} {},{}", f["id"], f["at"]["q"], f["at"]["r"]))
        .collect();
    v.sort();
    v
}

fn run_case(file: &Path, k: usize, c: &Case) -> Result<(), String> {
    let tag = format!("ub-{}-{k}", file.file_stem().unwrap().to_string_lossy());
    let mut g = CliGame::new(&tag, &c.seed, c.variance, c.prestate.as_deref())?;
    for (i, turn) in c.turns.iter().enumerate() {
        let files: Vec<String> = turn
            .iter()
            .map(|(p, o)| {
                let lines = split(o);
                g.order_file(p, &lines)
            })
            .collect();
        let (code, err) = g.resolve(&files);
        let last = i + 1 == c.turns.len();
        match (&c.error, last) {
            (Some(want), true) => {
                if code != 1 || !err.contains(want.as_str()) {
                    return Err(format!(
                        "expected a refusal containing `{want}`, got exit {code}: {err}"
                    ));
                }
                return Ok(());
            }
            _ if code != 0 => return Err(format!("turn {} refused: {err}", i + 1)),
            _ => {}
        }
    }
    let f = g.file();
    if let Some(after) = &c.after {
        for (seat, p) in PLAYERS.iter().enumerate() {
            let mut want = after.get(*p).cloned().unwrap_or_default();
            want.sort();
            let got = living(&f["state"], seat);
            if got != want {
                return Err(format!("{p}'s living forces: want {want:?}, got {got:?}"));
            }
        }
    }
    if let Some(shih) = &c.shih {
        for (seat, p) in PLAYERS.iter().enumerate() {
            if let Some(want) = shih.get(*p) {
                let got = f["state"]["sides"][seat]["shih"].as_u64().unwrap() as u32;
                if got != *want {
                    return Err(format!("{p}'s Shih: want {want}, got {got}"));
                }
            }
        }
    }
    check_report(&g.path, &c.reporter, &c.events, &c.absent)?;
    check_status(&g.path, c.status.as_ref())?;
    check_verify(&g.path)?;
    let _ = std::fs::remove_dir_all(&g.dir);
    Ok(())
}

#[test]
fn rule_cases() {
    run_cases("unfought-battle", |c: &Case| &c.name, run_case);
}

// ------------------------------------------------- games through the engine

/// A game created through the engine in memory, with its passwords.
struct Mem {
    eg: crate::common::EngineGame,
}

impl Mem {
    fn new(seed: &str, tag: &str) -> Mem {
        Mem {
            eg: crate::common::EngineGame::new("unfought-battle", &PLAYERS, seed, Vec::new(), tag),
        }
    }

    fn loaded(&self) -> &herald::pipeline::Loaded {
        &self.eg.loaded
    }

    fn state(&self) -> State {
        serde_json::from_value(self.loaded().head().state.clone()).unwrap()
    }

    fn file(&self, seat: usize, lines: &[String]) -> herald::pipeline::Submitted {
        let id = PLAYERS[seat];
        let h = self.loaded().head();
        herald::pipeline::Submitted::file(
            format!("{id}.toml"),
            herald::report::order_file(&h.id, id, h.turn, self.eg.password(id), lines),
        )
    }

    fn resolve(&mut self, files: &[herald::pipeline::Submitted], now: &str) {
        self.eg.resolve(files, now);
    }

    /// Random orders for both seats, as lines.
    fn random_lines(&self, rng: &mut rng::ChaCha20Rng, bot: bool) -> [Vec<String>; 2] {
        let r = rules();
        let st = self.state();
        [0, 1].map(|s| {
            let orders: Vec<Order> = if bot {
                playout::bot_orders(&r, &st, s, rng)
            } else {
                playout::random_orders(&r, &st, s, rng)
            };
            orders.iter().map(|o| o.to_string()).collect()
        })
    }
}

impl Drop for Mem {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.eg.dir);
    }
}

#[test]
fn a_turn_does_not_depend_on_the_order_of_files_or_lines() {
    let games = count("UB_ORDER_GAMES", 30);
    let mut rng = rng::from_u64(61);
    let mut turns = 0;
    let mut combats = 0;
    for g in 0..games {
        let mut m = Mem::new(&format!("order-{g}"), &format!("ub-order-{g}"));
        while m.loaded().head().outcome.is_none() {
            let lines = m.random_lines(&mut rng, g % 2 == 0);
            let a = [m.file(0, &lines[0]), m.file(1, &lines[1])];
            // The other way: files swapped, every file's lines reversed.
            let rev = |s: usize| {
                let mut l = lines[s].clone();
                l.reverse();
                m.file(s, &l)
            };
            let b = [rev(1), rev(0)];
            let now = "2026-11-22T13:00:00Z";
            let seed = m.eg.seed.clone();
            let (ha, pa) = herald::pipeline::resolve::preview(m.loaded(), &a, now, &seed).unwrap();
            let (hb, pb) = herald::pipeline::resolve::preview(m.loaded(), &b, now, &seed).unwrap();
            assert_eq!(
                ha.state,
                hb.state,
                "game {g} turn {}",
                m.loaded().head().turn
            );
            assert_eq!(pa.events, pb.events);
            assert_eq!(
                pa.rolls, pb.rolls,
                "the dice depend on the orders, not their order"
            );
            combats += pa.events.iter().filter(|e| e["event"] == "combat").count();
            m.resolve(&a, now);
            turns += 1;
        }
    }
    assert!(
        combats > 0,
        "the games fought no combat: the test proves little"
    );
    eprintln!("{turns} turns resolved both ways alike ({combats} combats)");
}

#[test]
fn the_command_line_order_of_order_files_does_not_matter() {
    // Two copies of one crowded position, resolved with the files given
    // north-first and south-first (lines reversed in the second).
    let pos = r#"
contentious = ["2,4", "3,3", "4,2"]
difficult = ["3,2"]
[[side]]
forces = ["f1 0,0 1", "f2 2,3 3", "f3 3,2 4", "f4 2,4 5", "f5 2,2 2"]
[[side]]
forces = ["f1 6,6 1", "f2 4,3 4", "f3 3,3 2", "f4 4,2 5", "f5 3,4 3"]
"#;
    let north = ["f2 move SE", "f3 fortify", "f4 move N", "f5 move SE"];
    let south = ["f2 move NW", "f3 move SW", "f4 ambush", "f5 fortify"];
    let mut states = Vec::new();
    for (k, flip) in [false, true].into_iter().enumerate() {
        let mut g = CliGame::new(&format!("ub-cli-order-{k}"), "7", None, Some(pos)).unwrap();
        let mut n: Vec<String> = north.iter().map(|s| s.to_string()).collect();
        let mut s: Vec<String> = south.iter().map(|s| s.to_string()).collect();
        if flip {
            n.reverse();
            s.reverse();
        }
        let fnorth = g.order_file("north", &n);
        let fsouth = g.order_file("south", &s);
        let files = if flip {
            vec![fsouth, fnorth]
        } else {
            vec![fnorth, fsouth]
        };
        let (code, err) = g.resolve(&files);
        assert_eq!(code, 0, "{err}");
        let f = g.file();
        let events = f["log"].as_array().unwrap().last().unwrap()["events"].clone();
        assert!(events
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["event"] == "combat"));
        states.push((f["state"].clone(), events));
        let _ = std::fs::remove_dir_all(&g.dir);
    }
    assert_eq!(states[0], states[1]);
}

// ------------------------------------------------------------ playouts

fn assert_sound(r: &Ruleset, st: &State, ctx: &str) {
    let mut taken = BTreeSet::new();
    for (s, side) in st.sides.iter().enumerate() {
        let mut powers: Vec<u8> = side.forces.iter().map(|f| f.power).collect();
        powers.sort_unstable();
        if st.phase != Phase::Deploy {
            assert_eq!(powers, r.forces.powers, "{ctx}: seat {s}'s powers");
        }
        assert!(side.shih <= r.shih.max, "{ctx}: Shih over the cap");
        for f in side.living() {
            assert!(
                st.board.playable(f.at),
                "{ctx}: a force on an unplayable hex"
            );
            assert!(taken.insert(f.at), "{ctx}: two forces on {:?}", f.at);
        }
        for f in side.forces.iter().filter(|f| !f.alive) {
            assert!(
                st.sides[1 - s].knows(f.id),
                "{ctx}: a fallen force's power is not public"
            );
        }
    }
    if st.phase != Phase::Over {
        assert!(st.turn <= r.victory.turn_cap, "{ctx}: past the turn cap");
        for s in 0..2 {
            assert!(
                st.sides[s].living().any(|f| f.power == r.forces.sovereign),
                "{ctx}: a game goes on without a Sovereign"
            );
        }
    }
}

#[test]
fn random_games_finish_soundly() {
    let r = rules();
    let games = count("UB_PLAYOUTS", 400);
    let mut rng = rng::from_u64(5);
    let mut endings: BTreeMap<String, usize> = BTreeMap::new();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for g in 0..games {
        let mut st = playout::new_game(&r, &mut rng);
        let bot = g % 2 == 1;
        let mut ev = Vec::new();
        let mut phases = 0;
        while st.phase != Phase::Over {
            let orders: BTreeMap<usize, Vec<Order>> = (0..2)
                .map(|s| {
                    let o = if bot {
                        playout::bot_orders(&r, &st, s, &mut rng)
                    } else {
                        playout::random_orders(&r, &st, s, &mut rng)
                    };
                    let problems = herald::games::unfought_battle::orders::check(&r, &st, s, &o);
                    assert!(
                        problems.is_empty(),
                        "game {g}: the {} chose refused orders: {problems:?}",
                        if bot { "bot" } else { "playout" }
                    );
                    (s, o)
                })
                .collect();
            ev.clear();
            st = playout::step(
                &r,
                &st,
                &orders,
                &mut herald::rng::Dice::quiet(&mut rng),
                &mut ev,
            );
            for e in &ev {
                let v = serde_json::to_value(e).unwrap();
                let k = v["event"].as_str().unwrap().to_string();
                let k = if k == "combat" {
                    format!("combat {}", v["kind"].as_str().unwrap())
                } else {
                    k
                };
                *kinds.entry(k).or_default() += 1;
            }
            phases += 1;
            assert_sound(&r, &st, &format!("game {g} phase {phases}"));
            assert!(phases <= r.victory.turn_cap + 1);
        }
        let end = st.end.as_ref().unwrap();
        let key = match end.winner {
            Some(_) => end.how.split(':').next().unwrap().to_string(),
            None => format!("draw: {}", end.how.split(':').next().unwrap()),
        };
        *endings.entry(key).or_default() += 1;
    }
    eprintln!("{games} games: {endings:?}\nevents: {kinds:?}");
    for k in [
        "combat contest",
        "combat swap",
        "combat assault",
        "combat ambush",
        "perished",
        "shrank",
        "scouted",
        "bounced",
    ] {
        assert!(
            kinds.contains_key(k),
            "no `{k}` in {games} random games: {kinds:?}"
        );
    }
}

// ------------------------------------------------- hidden information

/// Enemy powers `seat` may know, worked out from the logged events alone:
/// combats (both powers to both), its own scouts' findings, and fallen
/// forces (public).
fn learn_from(events: &[Value], seat: usize, known: &mut BTreeSet<u64>) {
    for e in events {
        match e["event"].as_str().unwrap() {
            "combat" => {
                known.insert(e["fighters"][1 - seat]["power"].as_u64().unwrap());
            }
            "scouted" if e["seat"].as_u64() == Some(seat as u64) => {
                if let Some(p) = e["found"].as_u64() {
                    known.insert(p);
                }
            }
            "perished" if e["seat"].as_u64() != Some(seat as u64) => {
                known.insert(e["power"].as_u64().unwrap());
            }
            _ => {}
        }
    }
}

fn other_of(seat: usize) -> &'static str {
    PLAYERS[1 - seat]
}

fn label(h: Hex) -> String {
    format!("{},{}", h.q, h.r)
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn reports_reveal_nothing_beyond_the_rules() {
    let r = rules();
    let games = count("UB_SCAN_GAMES", 40);
    let mut rng = rng::from_u64(99);
    let mut checked = 0;
    let mut seen_enemies = 0;
    let mut hidden_enemies = 0;
    for g in 0..games {
        let mut m = Mem::new(&format!("scan-{g}"), &format!("ub-scan-{g}"));
        let mut known = [BTreeSet::new(), BTreeSet::new()];
        while m.loaded().head().outcome.is_none() {
            let lines = m.random_lines(&mut rng, g % 2 == 0);
            let files = [m.file(0, &lines[0]), m.file(1, &lines[1])];
            m.resolve(&files, "2026-11-22T13:00:00Z");
            let entry = m.loaded().last_phase().unwrap();
            // The game file keeps both players' order files.
            let who: Vec<&str> = entry.orders.iter().map(|o| o.player.as_str()).collect();
            assert_eq!(who, PLAYERS, "the log keeps both order files");
            for (s, o) in entry.orders.iter().enumerate() {
                for l in &lines[s] {
                    assert!(o.text.contains(l.as_str()), "order file kept verbatim");
                }
            }
            for (s, k) in known.iter_mut().enumerate() {
                learn_from(&entry.events, s, k);
            }
            let st = m.state();
            if st.phase == Phase::Over {
                break;
            }
            for seat in 0..2 {
                let text = crate::common::report(m.loaded(), seat, "text");
                let json: Value =
                    serde_json::from_str(&crate::common::report(m.loaded(), seat, "json")).unwrap();
                let v = &json["view"];
                let ctx = format!("game {g} turn {} seat {seat}", m.loaded().head().turn);
                let me = &st.sides[seat];
                let them = &st.sides[1 - seat];
                // What the rules let this seat see, worked out here.
                let sees = |h: Hex| me.living().any(|f| f.at.distance(h) <= r.sight.range);
                let mut visible: Vec<(Hex, u8)> = them
                    .living()
                    .filter(|f| sees(f.at))
                    .map(|f| (f.at, f.power))
                    .collect();
                visible.sort();
                let unknown: Vec<u64> = r
                    .forces
                    .powers
                    .iter()
                    .map(|&p| p as u64)
                    .filter(|p| !known[seat].contains(p))
                    .collect();
                let enemies = v["enemies"].as_array().unwrap();
                assert_eq!(enemies.len(), visible.len(), "{ctx}: enemies shown");
                for (i, (e, (h, p))) in enemies.iter().zip(&visible).enumerate() {
                    let keys: Vec<&String> = e.as_object().unwrap().keys().collect();
                    assert_eq!(
                        keys,
                        ["at", "mark", "power", "threat"],
                        "{ctx}: an enemy entry carries only these"
                    );
                    assert_eq!(e["mark"], format!("E{}", i + 1), "{ctx}");
                    assert_eq!(e["at"], label(*h), "{ctx}");
                    if known[seat].contains(&(*p as u64)) {
                        assert_eq!(e["power"], *p as u64, "{ctx}: a known power is shown");
                        assert_eq!(e["threat"], *p as u64, "{ctx}");
                    } else {
                        assert!(e["power"].is_null(), "{ctx}: an unknown power is shown");
                        assert_eq!(
                            e["threat"].as_u64(),
                            unknown.last().copied(),
                            "{ctx}: threat"
                        );
                    }
                }
                assert_eq!(
                    v["enemy_unknown_powers"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_u64().unwrap())
                        .collect::<Vec<_>>(),
                    unknown,
                    "{ctx}"
                );
                seen_enemies += visible.len();
                // The order composer scouts only enemies in sight, and
                // names no hidden enemy's hex as a target.
                let html = crate::common::report(m.loaded(), seat, "html");
                let data = crate::common::page_data(&html);
                for c in data["orders"]["choices"].as_array().into_iter().flatten() {
                    if c["mark"] == "scout" {
                        let at = c["to"].as_str().unwrap();
                        assert!(
                            visible.iter().any(|(h, _)| label(*h) == at),
                            "{ctx}: the composer scouts {at}, not an enemy in sight"
                        );
                    }
                }
                for f in them.living().filter(|f| !sees(f.at)) {
                    let hidden = label(f.at);
                    for c in data["orders"]["choices"].as_array().into_iter().flatten() {
                        assert!(
                            !(c["mark"] == "scout" && c["to"] == hidden.as_str()),
                            "{ctx}: the composer points at hidden {hidden}"
                        );
                    }
                }
                assert!(
                    !html.contains(m.eg.password(other_of(seat))),
                    "{ctx}: a password in the page"
                );
                // Hidden enemies: not on the board, not in any line.
                for f in them.living().filter(|f| !sees(f.at)) {
                    hidden_enemies += 1;
                    let cell = format!("[{}", label(f.at));
                    let at = text
                        .find(&cell)
                        .unwrap_or_else(|| panic!("{ctx}: no cell {cell}"));
                    assert!(
                        !text[at..at + 8].contains('E'),
                        "{ctx}: a hidden enemy drawn on {cell}"
                    );
                    assert!(
                        !text.contains(&format!("on {}: power", label(f.at))),
                        "{ctx}"
                    );
                }
                // Events: no enemy force named, no power beyond what is known.
                for ev in v["events"].as_array().unwrap() {
                    let t = ev["text"].as_str().unwrap();
                    for d in 1..=r.forces() {
                        for w in [
                            format!("enemy f{d}"),
                            format!("enemy's f{d}"),
                            format!("{} f{d}", PLAYERS[1 - seat]),
                        ] {
                            assert!(!t.contains(&w), "{ctx}: an enemy force named: {t}");
                        }
                    }
                    for pat in [
                        "the enemy's: power ",
                        "enemy force of power ",
                        "the enemy force there has power ",
                    ] {
                        for (i, _) in t.match_indices(pat) {
                            let p: u64 = t[i + pat.len()..]
                                .chars()
                                .next()
                                .unwrap()
                                .to_digit(10)
                                .unwrap() as u64;
                            assert!(known[seat].contains(&p), "{ctx}: {t}");
                        }
                    }
                    // Neither report shows the other's orders.
                    for l in &lines[1 - seat] {
                        if !lines[seat].contains(l) {
                            assert!(
                                !t.contains(l.as_str()),
                                "{ctx}: the other's order `{l}` told: {t}"
                            );
                        }
                    }
                }
                let other = PLAYERS[1 - seat];
                assert!(
                    !text.contains(m.eg.password(other))
                        && !json.to_string().contains(m.eg.password(other))
                );
                assert!(!text.contains(&format!("player = \"{other}\"")), "{ctx}");
                let sha = &entry.orders[1 - seat].sha256;
                assert!(!text.contains(sha.as_str()) && !json.to_string().contains(sha.as_str()));
                // The view has no field for the enemy's Shih or force ids.
                assert!(v.get("enemy_shih").is_none());
                checked += 1;
            }
        }
        let problems = m.eg.verify();
        assert!(problems.is_empty(), "game {g}: {problems:?}");
    }
    assert!(
        seen_enemies > 0 && hidden_enemies > 0,
        "the scan saw no fog at work"
    );
    eprintln!("{checked} reports scanned: {seen_enemies} enemies shown, {hidden_enemies} hidden");
}

#[test]
fn demo_plays_a_whole_game() {
    let dir = scratch("ub-demo");
    let out = dir.join("demo");
    let (code, stdout, err) = herald(&[
        "demo",
        "unfought-battle",
        "--out",
        out.to_str().unwrap(),
        "--now",
        "2026-11-22T12:00:00Z",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("result: "), "{stdout}");
    assert!(stdout.contains("herald verify: ok"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The per-force split the searching bot uses (issue 35): one decision a
/// living force in the orders phase, none in the deployment; every force
/// at its first option gives the demo bot's plan (one of the candidate
/// sets); any combination is made legal; and where the Shih pays for one
/// move only, every force told to move leaves just the first one moving.
#[test]
fn force_options_combine_into_legal_orders() {
    use herald::games::unfought_battle::orders::Act;
    use herald::games::{BotSupport, Game};
    let r = rules();
    let mut g = rng::from_u64(5);
    let mut checked = 0;
    for game in 0..8u32 {
        let mut st = playout::new_game(&r, &mut g);
        assert!(UnfoughtBattle::parts(&r, &st, 0, &mut g).is_none());
        let mut ev = Vec::new();
        for _ in 0..(1 + game % 4) {
            let orders: BTreeMap<usize, Vec<Order>> = (0..2)
                .map(|s| (s, playout::bot_orders(&r, &st, s, &mut g)))
                .collect();
            st = playout::step(&r, &st, &orders, &mut rng::Dice::quiet(&mut g), &mut ev);
        }
        if st.phase != Phase::Orders {
            continue;
        }
        for seat in 0..2 {
            let parts = UnfoughtBattle::parts(&r, &st, seat, &mut g).expect("orders phase");
            assert_eq!(parts.parts.len(), st.sides[seat].living().count());
            assert!(
                parts.parts.iter().all(|p| p.len() >= 2),
                "plan and hold at least"
            );
            let plan = UnfoughtBattle::combine(&r, &st, seat, &parts, &vec![0; parts.parts.len()]);
            // Orders are read into a table by force (games/unfought-battle.md,
            // "Simultaneous resolution"): a set is compared, not a list.
            let as_set = |o: &Vec<Order>| {
                let mut v: Vec<String> = o.iter().map(|x| format!("{x:?}")).collect();
                v.sort();
                v
            };
            assert!(
                UnfoughtBattle::candidate_orders(&r, &st, seat, &mut g)
                    .iter()
                    .any(|c| as_set(c) == as_set(&plan)),
                "the first options are the demo bot's plan: {plan:?}"
            );
            for k in 0..200 {
                let choice: Vec<usize> = parts
                    .parts
                    .iter()
                    .map(|p| rng::below(&mut g, p.len() as u32) as usize)
                    .collect();
                let orders = UnfoughtBattle::combine(&r, &st, seat, &parts, &choice);
                let problems = UnfoughtBattle::check(&r, &st, seat, &orders);
                assert!(
                    problems.is_empty(),
                    "game {game}, try {k}: {problems:?} in {orders:?}"
                );
            }
            // Shih for one fortification (a move costs nothing in the
            // built-in ruleset): each force that may fortify told to, the
            // first of them does and the others are left out.
            let mut poor = st.clone();
            poor.sides[seat].shih = r.orders.fortify;
            let fortifies = |o: &Vec<Order>| {
                matches!(
                    o.first(),
                    Some(Order::Act {
                        act: Act::Fortify,
                        ..
                    })
                )
            };
            let told: Vec<Option<usize>> = parts
                .parts
                .iter()
                .map(|p| p.iter().position(fortifies))
                .collect();
            if let Some(first) = told.iter().position(Option::is_some) {
                let choice: Vec<usize> = told.iter().map(|t| t.unwrap_or(1)).collect();
                let orders = UnfoughtBattle::combine(&r, &poor, seat, &parts, &choice);
                let fortified: Vec<&Order> = orders
                    .iter()
                    .filter(|o| {
                        matches!(
                            o,
                            Order::Act {
                                act: Act::Fortify,
                                ..
                            }
                        )
                    })
                    .collect();
                assert_eq!(fortified.len(), 1, "{orders:?}");
                assert_eq!(
                    Some(fortified[0]),
                    parts.parts[first][told[first].unwrap()].first()
                );
                assert!(UnfoughtBattle::check(&r, &poor, seat, &orders).is_empty());
            }
            checked += 1;
        }
    }
    assert!(checked >= 6, "orders positions checked: {checked}");
}
