//! War of the Dukes through the public CLI and the typed API:
//!
//! - rule cases as plain files (`tests/cases/war-of-the-dukes/*.toml`): a
//!   PRESTATE (a `--setup` position), ORDERS (one `herald resolve` each),
//!   where pieces stand afterwards, the events the report tells (every
//!   combat with its odds, die, modifier and result), the result, or the
//!   refusal (naming the order file, the line and the order);
//! - the combat results table and the odds rounding against the printed
//!   insert, cell by cell;
//! - the simultaneous deployment: neither report shows the other side's
//!   pieces before both are in, one file alone is refused;
//! - a whole scripted game replayed through `herald resolve`;
//! - random playouts on the typed state (every random order set passes
//!   `check`) and bot games through the engine, each accepted by `verify`;
//! - `herald demo war-of-the-dukes`.
//!
//! Counts can be raised with WOTD_PLAYOUTS and WOTD_ENGINE_GAMES.

use crate::common::{check_text, count, herald, run_cases, scratch, CaseGame, EngineGame};
use herald::games::war_of_the_dukes::events::Event;
use herald::games::war_of_the_dukes::ruleset::{Res, Ruleset};
use herald::games::war_of_the_dukes::state::{Phase, State};
use herald::games::war_of_the_dukes::units::{Kind, Side};
use herald::games::war_of_the_dukes::{orders, phase, playout, WarOfTheDukes};
use herald::games::Game;
use herald::rng;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

const GAME: &str = "war-of-the-dukes";

fn rules() -> Ruleset {
    Ruleset::parse(WarOfTheDukes::RULESET_TEXT).unwrap()
}

fn players() -> Vec<String> {
    vec!["orfburg".into(), "wulfenburg".into()]
}

fn view(path: &str, player: &str) -> Value {
    let (code, out, err) = herald(&["report", path, "--player", player, "--format", "json"]);
    assert_eq!(code, 0, "report failed: {err}");
    serde_json::from_str::<Value>(&out).unwrap()["view"].clone()
}

/// "orfburg I3" → "0712" for every piece on the map.
fn positions(view: &Value) -> BTreeMap<String, String> {
    view["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                format!(
                    "{} {}",
                    u["side"].as_str().unwrap().to_ascii_lowercase(),
                    u["unit"].as_str().unwrap()
                ),
                u["at"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

// ---------------------------------------------------------------- rule cases

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[serde(default = "seed_one")]
    seed: String,
    /// A `--setup` position; without it the standard start (deployment).
    prestate: Option<String>,
    /// `"orfburg: I3 0712; attack 0915 with I3"`: one resolve per entry
    /// (a deployment needs both sides: `"orfburg: …"` then `"wulfenburg: …"`
    /// in one entry joined by ` | `).
    #[serde(default)]
    orders: Vec<String>,
    /// "orfburg I3" = "0712", or "eliminated".
    #[serde(default)]
    at: BTreeMap<String, String>,
    /// Text that must appear in the report of `reporter` (default orfburg).
    #[serde(default)]
    events: Vec<String>,
    #[serde(default)]
    absent: Vec<String>,
    reporter: Option<String>,
    /// Substring of `herald status` afterwards.
    status: Option<String>,
    /// The last orders (or `new`, with no orders) are refused with this.
    error: Option<String>,
}

fn seed_one() -> String {
    "1".into()
}

/// Send an entry that may hold several players' files (` | `), resolved
/// together.
fn send_all(g: &CaseGame, k: usize, entry: &str) -> Result<(i32, String, Vec<String>), String> {
    let parts: Vec<&str> = entry.split(" | ").collect();
    if parts.len() == 1 {
        let (code, err) = g.send(k, entry)?;
        return Ok((code, err, vec![format!("orders-{k}.toml")]));
    }
    // Several files at once: write each, resolve them together.
    let state: Value = crate::common::head(std::path::Path::new(&g.path));
    let (id, turn) = (
        state["id"].as_str().unwrap().to_string(),
        state["turn"].as_u64().unwrap(),
    );
    let secrets: toml::Value =
        toml::from_str(&std::fs::read_to_string(g.dir.join("game/secrets.toml")).unwrap()).unwrap();
    let mut files = Vec::new();
    let mut names = Vec::new();
    for (j, part) in parts.iter().enumerate() {
        let (player, orders) = part.split_once(':').ok_or("entry needs `player: orders`")?;
        let player = player.trim();
        let list: Vec<String> = orders
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| format!("  {s:?},"))
            .collect();
        let pw = secrets["passwords"][player]
            .as_str()
            .ok_or("no such player")?;
        let text = format!(
            "game = {id:?}\nplayer = {player:?}\nturn = {turn}\npassword = {pw:?}\norders = [\n{}\n]\n",
            list.join("\n")
        );
        let name = format!("orders-{k}-{j}.toml");
        let f = g.dir.join(&name);
        std::fs::write(&f, text).unwrap();
        files.push(f.to_str().unwrap().to_string());
        names.push(name);
    }
    let mut args = vec!["resolve", g.path.as_str()];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--now", "2026-11-22T13:00:00Z"]);
    let (code, _, err) = herald(&args);
    Ok((code, err, names))
}

fn run_case(file: &Path, n: usize, c: &Case) -> Result<(), String> {
    let tag = format!("wotd-{}-{n}", file.file_stem().unwrap().to_string_lossy());
    let g = match CaseGame::new(GAME, &tag, &players(), &c.seed, &[], c.prestate.as_deref()) {
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
    for (k, entry) in c.orders.iter().enumerate() {
        let (code, err, names) = send_all(&g, k, entry)?;
        let last = k + 1 == c.orders.len();
        match (&c.error, last) {
            (Some(want), true) => {
                if code != 1 {
                    return Err(format!(
                        "expected `{entry}` to be refused, exit {code}: {err}"
                    ));
                }
                if !err.contains(want.as_str()) {
                    return Err(format!("refusal message lacks `{want}`:\n{err}"));
                }
                if !names.iter().any(|nm| err.contains(nm.as_str())) && !err.contains("still needs")
                {
                    return Err(format!("refusal does not name the order file:\n{err}"));
                }
                crate::common::check_verify(&g.path)?;
            }
            _ => {
                if code != 0 {
                    return Err(format!("orders `{entry}` refused:\n{err}"));
                }
            }
        }
    }
    let reporter = c.reporter.clone().unwrap_or_else(|| "orfburg".into());
    let got = positions(&view(&g.path, &reporter));
    for (piece, want) in &c.at {
        let have = got.get(piece).map(String::as_str).unwrap_or("eliminated");
        if have != want {
            return Err(format!("{piece}: want {want}, got {have}"));
        }
    }
    g.finish(&reporter, &c.events, &c.absent, c.status.as_ref())
}

#[test]
fn rule_cases() {
    run_cases(
        GAME,
        |c: &Case| &c.name,
        |f: &Path, n: usize, c: &Case| {
            let r = run_case(f, n, c);
            if r.is_err() && std::env::var_os("HERALD_FIND_SEED").is_some() {
                // For the case's author: the die depends on the seed and on the
                // orders (docs/trust.md), so a case picks its seed by trying.
                for s in 1..=300 {
                    let mut c2 = Case {
                        seed: s.to_string(),
                        ..c.clone()
                    };
                    c2.name = c.name.clone();
                    if run_case(f, n, &c2).is_ok() {
                        eprintln!(
                            "{}: case {n} `{}` passes with seed = \"{s}\"",
                            f.display(),
                            c.name
                        );
                        break;
                    }
                }
            }
            r
        },
    );
}

// ---------------------------------------------------------------- the printed tables

/// The combat results table of the printed insert, as the issue gives it:
/// the ruleset must say the same, cell by cell.
#[test]
fn the_results_table_is_the_printed_one() {
    let printed = [
        "AR AR DR DR DR DR DR DE DE DE",
        "AE AR AR DR DR DR DR DR DE DE",
        "AE AE AR AR DR DR DR DR DE DE",
        "AE AE AR AR AR DR DR DR DR DE",
        "AE AE AE AR AR AR DR DR DR EX",
        "AE AE AE AR AR AR AR EX EX EX",
    ];
    let r = rules();
    assert_eq!(
        r.crt_columns.join(" "),
        "1-5 1-4 1-3 1-2 1-1 2-1 3-1 4-1 5-1 6-1"
    );
    for (die, row) in printed.iter().enumerate() {
        let want: Vec<Res> = row.split(' ').map(|s| Res::parse(s).unwrap()).collect();
        assert_eq!(r.crt[die], want, "die {}", die + 1);
    }
}

/// Odds rounded in the defender's favour, clamped to the table's ends.
#[test]
fn odds_round_for_the_defender_and_clamp() {
    let r = rules();
    let cases = [
        (4, 10, "1-3"), // the example: 2.5 against rounds to 3
        (5, 3, "1-1"),
        (3, 3, "1-1"),
        (2, 3, "1-2"),
        (1, 5, "1-5"),
        (2, 9, "1-5"),
        (1, 6, "1-5"), // clamped
        (2, 18, "1-5"),
        (3, 10, "1-4"),
        (6, 3, "2-1"),
        (8, 3, "2-1"),
        (9, 3, "3-1"),
        (11, 3, "3-1"),
        (12, 3, "4-1"),
        (15, 3, "5-1"),
        (17, 3, "5-1"),
        (18, 3, "6-1"),
        (30, 1, "6-1"), // clamped
        (7, 6, "1-1"),
        (6, 7, "1-2"),
    ];
    for (a, d, want) in cases {
        let (col, name) = r.odds(a, d);
        assert_eq!(name, want, "{a} against {d}");
        assert_eq!(r.crt_columns[col], want, "{a} against {d}: column");
    }
}

// ---------------------------------------------------------------- strengths and old rulesets

/// One number per counter (issue 14): the rules text's "on the left, a
/// number representing the offensive and defensive power". Each kind
/// defends with what it attacks with; the Duke defends with 1 and never
/// attacks.
#[test]
fn one_strength_per_counter() {
    let r = rules();
    assert_eq!(r.version, "2");
    for (kind, s) in [
        (Kind::Infantry, 5),
        (Kind::Cavalry, 2),
        (Kind::Artillery, 3),
    ] {
        let st = r.stats(kind);
        assert_eq!((st.attack, st.defence), (s, s), "{kind:?}");
    }
    let duke = r.stats(Kind::Duke);
    assert_eq!((duke.attack, duke.defence, duke.range), (0, 1, 0));
    assert!(r.attacked_once);
}

/// A War of the Dukes game written by herald 0.1.0, before issue 14: its
/// game file embeds ruleset version 1 (a separate defence of 3 for every
/// unit, no causeways). It still reads with the numbers it was played
/// with: `herald verify` replays it as it is, `herald convert` makes a game
/// folder of it that `status` and `report` read, and none of them changes a
/// byte of the old file. Small and self-contained on
/// purpose: the lead carries it over when the file format changes.
#[test]
fn a_game_of_ruleset_version_1_still_verifies() {
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format1/demo-war-of-the-dukes");
    let dir = scratch("wotd-v1");
    for f in ["game.json", "game.secrets.toml"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let game = dir.join("game.json");
    let path = game.to_str().unwrap();
    let before = std::fs::read(&game).unwrap();
    let file: Value = serde_json::from_slice(&before).unwrap();
    let old = Ruleset::parse(file["ruleset"]["text"].as_str().unwrap()).unwrap();
    assert_eq!(old.version, "1");
    for (kind, a, d) in [
        (Kind::Infantry, 5, 3),
        (Kind::Cavalry, 2, 3),
        (Kind::Artillery, 3, 3),
        (Kind::Duke, 0, 1),
    ] {
        let st = old.stats(kind);
        assert_eq!((st.attack, st.defence), (a, d), "{kind:?}");
    }
    assert!(!old.attacked_once);
    let (code, out, err) = herald(&["verify", path]);
    assert_eq!(code, 0, "verify: {out}{err}");
    assert!(out.contains("ok"), "{out}");
    // Other commands send the old file to `herald convert` ...
    let (code, _, err) = herald(&["status", path]);
    assert_eq!(code, 1, "status of a format-1 file: {err}");
    assert!(err.contains("herald convert"), "{err}");
    // ... which makes a game folder that plays on with the old numbers.
    let folder = dir.join("converted");
    let (code, out, err) = herald(&["convert", path, "--out", folder.to_str().unwrap()]);
    assert_eq!(code, 0, "convert: {out}{err}");
    let (code, out, err) = herald(&["status", folder.to_str().unwrap()]);
    assert_eq!(code, 0, "status: {out}{err}");
    assert!(out.contains("War of the Dukes"), "{out}");
    assert!(out.contains("awaiting orders from: orfburg"), "{out}");
    let (code, out, err) = herald(&["report", folder.to_str().unwrap(), "--player", "orfburg"]);
    assert_eq!(code, 0, "report: {err}");
    assert!(out.contains("infantry  attack 5, defence 3, 3 MP"), "{out}");
    let (code, out, err) = herald(&["verify", folder.to_str().unwrap()]);
    assert_eq!(code, 0, "verify of the converted folder: {out}{err}");
    assert_eq!(
        std::fs::read(&game).unwrap(),
        before,
        "the game file changed"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- deployment is hidden

/// The default deployment of a side, as the turn-0 order form offers it.
fn form_deployment(path: &str, player: &str) -> Vec<String> {
    view(path, player)["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn order_file(g: &CaseGame, player: &str, turn: u64, orders: &[String]) -> String {
    let secrets: toml::Value =
        toml::from_str(&std::fs::read_to_string(g.dir.join("game/secrets.toml")).unwrap()).unwrap();
    let state: Value = crate::common::head(std::path::Path::new(&g.path));
    let f = g.dir.join(format!("{player}-{turn}.toml"));
    let text = format!(
        "game = {:?}\nplayer = {player:?}\nturn = {turn}\npassword = {:?}\norders = [\n{}]\n",
        state["id"].as_str().unwrap(),
        secrets["passwords"][player].as_str().unwrap(),
        orders
            .iter()
            .map(|o| format!("  {o:?},\n"))
            .collect::<String>()
    );
    std::fs::write(&f, text).unwrap();
    f.to_str().unwrap().to_string()
}

/// Neither side's report shows the other's deployment before both are
/// in: one file alone is refused and changes nothing; the reports of
/// turn 0 show no piece; after the joint resolve both see both.
#[test]
fn deployments_stay_hidden_until_both_are_in() {
    let g = CaseGame::new(GAME, "hidden", &players(), "3", &[], None).unwrap();
    let orf = form_deployment(&g.path, "orfburg");
    let wulf = form_deployment(&g.path, "wulfenburg");
    // A deployment the form does not offer: I1 and I2 change places.
    let mut orf2 = orf.clone();
    let (a, b) = (
        orf2[0].split_once(' ').unwrap().1.to_string(),
        orf2[1].split_once(' ').unwrap().1.to_string(),
    );
    orf2[0] = format!("I1 {b}");
    orf2[1] = format!("I2 {a}");
    let fo = order_file(&g, "orfburg", 0, &orf2);
    let before = std::fs::read_to_string(std::path::Path::new(&g.path).join("game.jsonl")).unwrap();
    let (code, _, err) = herald(&["resolve", &g.path, &fo, "--now", "2026-11-22T13:00:00Z"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("turn 0 still needs orders from wulfenburg"),
        "{err}"
    );
    assert_eq!(
        before,
        std::fs::read_to_string(std::path::Path::new(&g.path).join("game.jsonl")).unwrap()
    );
    let (code, out, err) = herald(&["check", &g.path, &fo]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ok"), "{out}");
    for p in ["orfburg", "wulfenburg"] {
        let v = view(&g.path, p);
        assert!(
            v["units"].as_array().unwrap().is_empty(),
            "{p} sees pieces at turn 0"
        );
        let text = herald(&["report", &g.path, "--player", p]).1;
        assert!(!text.contains("deployed:"), "{text}");
    }
    // Wulfenburg's report never shows Orfburg's actual (non-default) line.
    let wtext = herald(&["report", &g.path, "--player", "wulfenburg"]).1;
    assert!(!wtext.contains(&format!("I1 {b}")), "{wtext}");
    let fw = order_file(&g, "wulfenburg", 0, &wulf);
    let (code, _, err) = herald(&[
        "resolve",
        &g.path,
        &fo,
        &fw,
        "--now",
        "2026-11-22T13:00:00Z",
    ]);
    assert_eq!(code, 0, "{err}");
    for p in ["orfburg", "wulfenburg"] {
        let text = herald(&["report", &g.path, "--player", p]).1;
        assert!(text.contains("Orfburg deployed: D "), "{text}");
        assert!(text.contains(&format!("I1 {b}, I2 {a}")), "{text}");
        assert!(text.contains("Wulfenburg deployed: D "), "{text}");
        let pos = positions(&view(&g.path, p));
        assert_eq!(pos["orfburg I1"], b);
        assert_eq!(pos.len(), 62);
    }
    g.finish(
        "orfburg",
        &[],
        &[],
        Some(&"awaiting orders from: orfburg".to_string()),
    )
    .unwrap();
}

// ---------------------------------------------------------------- a whole game by resolve

/// The result code of the combat the report tells for `target`.
fn combat_result(text: &str, target: &str) -> Option<String> {
    let line = text
        .lines()
        .find(|l| l.contains(&format!("attacks {target}: ")))?;
    let after = line.split("): ").next()?; // up to the result's meaning
    let code = after.rsplit(": ").next()?.split(' ').next()?;
    Some(code.to_string())
}

/// A whole game, every phase through `herald resolve`: both deployments
/// (the form's), scripted moves and an attack checked against the rules,
/// then empty phases to the end of turn 15: Wulfenburg's marginal victory.
#[test]
fn scripted_game_through_resolve() {
    let g = CaseGame::new(GAME, "scripted", &players(), "5", &[], None).unwrap();
    let orf = form_deployment(&g.path, "orfburg");
    let wulf = form_deployment(&g.path, "wulfenburg");
    let fo = order_file(&g, "orfburg", 0, &orf);
    let fw = order_file(&g, "wulfenburg", 0, &wulf);
    let (code, _, err) = herald(&[
        "resolve",
        &g.path,
        &fo,
        &fw,
        "--now",
        "2026-11-22T13:00:00Z",
    ]);
    assert_eq!(code, 0, "{err}");
    let send = |player: &str, turn: u64, orders: &[&str]| {
        let list: Vec<String> = orders.iter().map(|s| s.to_string()).collect();
        let f = order_file(&g, player, turn, &list);
        let (code, _, err) = herald(&["resolve", &g.path, &f, "--now", "2026-11-22T13:00:00Z"]);
        assert_eq!(code, 0, "turn {turn} {player} {orders:?}: {err}");
    };
    let pos = |p: &str| positions(&view(&g.path, p));
    let start = pos("orfburg");
    assert_eq!(start["orfburg I10"], "2919");
    assert_eq!(start["wulfenburg C2"], "0101");
    // Turn 1: Orfburg sends C1 west out of the capital (herald finds the
    // path) and A7 one step along a path; Wulfenburg answers with A1.
    send("orfburg", 1, &["C1 2418", "A7 3120 3020 2920 2819"]);
    let p = pos("wulfenburg");
    assert_eq!(p["orfburg C1"], "2418");
    assert_eq!(p["orfburg A7"], "2819");
    send("wulfenburg", 2, &["A1 0808"]);
    assert_eq!(pos("orfburg")["wulfenburg A1"], "0808");
    // Turn 2: Orfburg's C7 attacks the garrison of 2007 (I5, in a city
    // of Kaiserburg, across the bridge with a road from 2008): 2 ×2 Duke
    // against 5 ×2 city ×2 Duke, 4 : 20, the 1-5 column (AR on a 1, AE
    // on anything else).
    send("orfburg", 3, &["attack 2007 with C7"]);
    let text = herald(&["report", &g.path, "--player", "wulfenburg"]).1;
    assert!(
        text.contains("Orfburg attacks 2007: C7 2008 (2 ×2 Duke = 4) against Wulfenburg I5 2007 (5 ×2 city ×2 Duke = 20); attack 4 : defence 20, odds 1-5; die "),
        "{text}"
    );
    let res = combat_result(&text, "2007").expect("a result");
    let after = pos("orfburg");
    match res.as_str() {
        "AE" => assert!(!after.contains_key("orfburg C7")),
        "AR" => assert_ne!(after.get("orfburg C7").map(String::as_str), Some("2008")),
        other => panic!("1-5 cannot give {other}"),
    }
    // The rest of the game: nobody moves.
    let mut turn = 4;
    loop {
        let f: Value = crate::common::game_json(std::path::Path::new(&g.path));
        if f["outcome"].is_object() {
            break;
        }
        let who = f["awaiting"][0].as_str().unwrap().to_string();
        assert_eq!(f["turn"].as_u64().unwrap(), turn);
        send(&who, turn, &[]);
        turn += 1;
        assert!(turn <= 31, "the game runs past turn 15");
    }
    assert_eq!(turn, 31, "15 turns of two phases after the deployment");
    let status = herald(&["status", &g.path]).1;
    assert!(
        status.contains("wulfenburg (Wulfenburg) won a marginal victory: after turn 15 Orfburg does not hold Kaiserburg"),
        "{status}"
    );
    let last = herald(&["report", &g.path, "--player", "orfburg"]).1;
    assert!(
        last.contains("GAME OVER") && last.contains("The seed is revealed: 5"),
        "{last}"
    );
    g.finish("wulfenburg", &[], &[], None).unwrap();
}

// ---------------------------------------------------------------- playouts

/// Everything a resolved phase must respect.
fn assert_sound(r: &Ruleset, st: &State, before: &State, events: &[Event], ctx: &str) {
    st.validate(r).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    let on = |s: &State| s.units.iter().filter(|u| u.at.is_some()).count();
    if before.phase != Phase::Deployment {
        assert!(on(st) <= on(before), "{ctx}: pieces appeared");
    }
    let back: State = serde_json::from_value(serde_json::to_value(st).unwrap()).unwrap();
    assert_eq!(&back, st, "{ctx}: the state does not survive JSON");
    for e in events {
        match e {
            Event::Combat {
                attack,
                defence,
                odds,
                die,
                modifier,
                roll,
                result,
                attackers,
                defenders,
                ..
            } => {
                let (col, name) = r.odds(*attack, *defence);
                assert_eq!(&name, odds, "{ctx}");
                assert!((1..=6).contains(die), "{ctx}");
                assert_eq!(*roll, (die + modifier).min(6), "{ctx}");
                assert_eq!(r.crt[*roll as usize - 1][col], *result, "{ctx}");
                assert_eq!(attackers.iter().map(|f| f.value).sum::<u32>(), *attack);
                assert_eq!(defenders.iter().map(|f| f.value).sum::<u32>(), *defence);
            }
            Event::Moved {
                unit, cost, path, ..
            } => {
                assert!(*cost <= r.mp(unit.kind), "{ctx}: {unit} overspent");
                assert!(!path.is_empty());
            }
            _ => {}
        }
    }
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn random_games_finish_soundly() {
    let r = rules();
    let games = count("WOTD_PLAYOUTS", 24);
    let mut endings: BTreeMap<String, usize> = BTreeMap::new();
    let mut combats = 0;
    for g in 0..games {
        let mut rr = rng::from_u64(1000 + g as u64);
        let bot = g % 3 == 2;
        let mut st = State::new(&r);
        let mut phases = 0;
        while !st.is_over() {
            let before = st.clone();
            let mut orders: BTreeMap<usize, Vec<orders::Order>> = BTreeMap::new();
            for seat in WarOfTheDukes::awaiting(&r, &st) {
                let side = Side::of_seat(seat);
                let o = if bot {
                    playout::bot_orders(&r, &st, side, &mut rr)
                } else {
                    playout::random_orders(&r, &st, side, &mut rr)
                };
                let problems = WarOfTheDukes::check(&r, &st, seat, &o);
                assert!(
                    problems.is_empty(),
                    "game {g} phase {phases}: {problems:?} for {o:?}"
                );
                orders.insert(seat, o);
            }
            let (next, events) =
                WarOfTheDukes::resolve(&r, &st, &orders, &mut herald::rng::Dice::quiet(&mut rr));
            combats += events
                .iter()
                .filter(|e| matches!(e, Event::Combat { .. }))
                .count();
            assert_sound(
                &r,
                &next,
                &before,
                &events,
                &format!("game {g} phase {phases}"),
            );
            st = next;
            phases += 1;
            assert!(phases <= 31, "game {g}: more than 31 phases");
        }
        let end = st.result.clone().unwrap();
        let dukes_alive = Side::BOTH.map(|s| st.units[st.duke(s)].at.is_some());
        if end.how.contains("Duke") {
            assert!(
                !dukes_alive[end.winner.other().seat()],
                "game {g}: {}",
                end.how
            );
        } else {
            assert!(dukes_alive[0] && dukes_alive[1]);
        }
        if end.victory == "marginal" {
            assert_eq!(
                st.turn, r.turns,
                "game {g}: a marginal victory before the last turn"
            );
            let orf = st.holds(&r, Side::Orfburg, r.kaiserburg) && st.orfburg_controls_between(&r);
            assert_eq!(end.winner == Side::Orfburg, orf, "game {g}");
        }
        let key = format!(
            "{} {} {}",
            end.winner,
            end.victory,
            if end.how.contains("Duke") {
                "duke"
            } else if end.how.contains("took") {
                "capital"
            } else {
                "end"
            }
        );
        *endings.entry(key).or_default() += 1;
    }
    assert!(
        combats > games,
        "random games should fight: {combats} combats"
    );
    eprintln!("{games} war-of-the-dukes playouts, {combats} combats, endings {endings:?}");
}

/// Games through the whole engine (order files, checks, resolve, the hash
/// chain): bots, and players picking from `legal_orders`; `verify`
/// accepts every one.
#[test]
fn engine_games_verify() {
    let games = count("WOTD_ENGINE_GAMES", 3);
    for g in 0..games {
        for legal in [false, true] {
            let mut game = EngineGame::new(
                GAME,
                &["orfburg", "wulfenburg"],
                &g.to_string(),
                Vec::new(),
                &format!("wotd-engine-{g}-{legal}"),
            );
            let mut r = rng::from_u64(g as u64 + 7);
            while !game.over() {
                game.turn(|loaded, seat| {
                    if legal {
                        let all = loaded.rules.legal_orders(&loaded.state, seat);
                        assert!(!all.is_empty());
                        rng::pick(&mut r, &all).unwrap().clone()
                    } else {
                        herald::bots::scripted_orders(
                            loaded.rules.as_ref(),
                            &loaded.state,
                            seat,
                            &mut r,
                        )
                    }
                });
            }
            let problems = game.verify();
            assert!(
                problems.is_empty(),
                "game {g} (legal {legal}): {problems:?}"
            );
        }
    }
}

#[test]
fn demo_plays_a_whole_game_and_verifies() {
    let dir = scratch("wotd-demo");
    let out = dir.join("demo");
    let (code, stdout, err) = herald(&[
        "demo",
        GAME,
        "--out",
        out.to_str().unwrap(),
        "--now",
        "2026-11-22T12:00:00Z",
    ]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(stdout.contains("result: "), "{stdout}");
    assert!(stdout.contains("herald verify: ok"), "{stdout}");
    // The deployment's reports offer a legal deployment; turn 1's shows
    // the map with pieces, and both deployments.
    let r0 = std::fs::read_to_string(out.join("game/reports/turn-0000/wulfenburg.txt")).unwrap();
    assert!(r0.contains("----- ORDERS for turn 0"), "{r0}");
    assert!(r0.contains("DEPLOYMENT"), "{r0}");
    let r1 = std::fs::read_to_string(out.join("game/reports/turn-0001/orfburg.txt")).unwrap();
    check_text(
        &r1,
        &[
            "Orfburg deployed: D ".into(),
            "Wulfenburg deployed: D ".into(),
            "YOUR PHASE".into(),
            "#I".into(),
        ],
        &[],
    )
    .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn deployment_defaults_are_legal_for_both_sides() {
    let r = rules();
    let st = State::new(&r);
    for side in Side::BOTH {
        let o = WarOfTheDukes::legal_orders(&r, &st, side.seat());
        assert_eq!(o.len(), 1);
        assert!(orders::check_deployment(&r, &st, side, &o[0]).is_empty());
    }
    let mut s2 = st.clone();
    let mut ev = Vec::new();
    let a = WarOfTheDukes::legal_orders(&r, &st, 0).remove(0);
    let b = WarOfTheDukes::legal_orders(&r, &st, 1).remove(0);
    phase::deploy(&r, &mut s2, [&a, &b], &mut ev);
    assert_eq!(s2.phase, Phase::Play(Side::Orfburg));
    assert_eq!(ev.len(), 2);
    s2.validate(&r).unwrap();
}

/// The odds a player is shown before an attack (issue 30) are the
/// resolver's: in random games, at each phase, every attack the order
/// form lists with its odds is resolved alone on a copy of the position,
/// and the combat's attack, defence and odds equal the form's, and the
/// result of the die rolled is the form's for that face. The composer's
/// data gives the same: each member's strength (doubled where the Duke
/// stands near), summed, reads the same column of the same table.
#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn odds_shown_are_the_resolvers() {
    use herald::games::war_of_the_dukes::{compose, view};
    let r = rules();
    let mut checked = 0;
    for g in 0..4u64 {
        let mut rr = rng::from_u64(7000 + g);
        let mut st = State::new(&r);
        while !st.is_over() && st.turn < 8 {
            let mut orders: BTreeMap<usize, Vec<orders::Order>> = BTreeMap::new();
            for seat in WarOfTheDukes::awaiting(&r, &st) {
                let side = Side::of_seat(seat);
                let data = serde_json::to_value(compose::compose(&r, &st, seat)).unwrap();
                for (k, o) in view::odds(&r, &st, side).iter().enumerate() {
                    let ctx = format!("game {g} turn {} {}", st.turn, o.order);
                    let order = WarOfTheDukes::parse_order(&r, &st, seat, &o.order).unwrap();
                    let alone = BTreeMap::from([(seat, vec![order])]);
                    let mut dr = rng::from_u64(k as u64 + 31 * g);
                    let (_, events) = WarOfTheDukes::resolve(
                        &r,
                        &st,
                        &alone,
                        &mut herald::rng::Dice::quiet(&mut dr),
                    );
                    let Some(Event::Combat {
                        attack,
                        defence,
                        odds,
                        die,
                        result,
                        ..
                    }) = events.iter().find(|e| matches!(e, Event::Combat { .. }))
                    else {
                        panic!("{ctx}: no combat: {events:?}");
                    };
                    assert_eq!(
                        o.summary,
                        format!("{attack} against {defence}, odds {odds}"),
                        "{ctx}"
                    );
                    assert_eq!(
                        o.dice[*die as usize - 1],
                        format!("{die} {result}"),
                        "{ctx}"
                    );
                    // the composer's data, added up as the page adds it
                    let gather = data["gathers"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|x| x["target"] == o.target.as_str())
                        .unwrap_or_else(|| panic!("{ctx}: no gather"));
                    let c = &data["combat"];
                    let with: Vec<&str> =
                        o.order.split(" with ").nth(1).unwrap().split(' ').collect();
                    let duke = c["boost"]["leader"].as_str().unwrap();
                    let at = |id: &str| {
                        data["pieces"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .find(|p| p["id"] == id)
                            .unwrap()["at"]
                            .as_str()
                            .map(str::to_string)
                    };
                    let near: Vec<Value> = at(duke)
                        .and_then(|d| c["boost"]["reach"][d].as_array().cloned())
                        .unwrap_or_default();
                    let sum: u64 = with
                        .iter()
                        .map(|m| {
                            let boosted = near.contains(&Value::from(at(m).unwrap()));
                            c["strength"][*m][boosted as usize]["value"]
                                .as_u64()
                                .unwrap()
                        })
                        .sum();
                    assert_eq!(sum, *attack as u64, "{ctx}: the page's sum");
                    let od = &gather["odds"];
                    assert_eq!(od["defence"], *defence, "{ctx}");
                    let col = od["columns"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|e| e[0].as_u64().unwrap() <= sum)
                        .last()
                        .unwrap()[1]
                        .as_u64()
                        .unwrap() as usize;
                    assert_eq!(c["columns"][col], odds.as_str(), "{ctx}: the page's column");
                    let row = od["rows"][*die as usize - 1].as_u64().unwrap() as usize;
                    assert_eq!(
                        c["table"][row][col],
                        format!("{result:?}"),
                        "{ctx}: the page's result"
                    );
                    checked += 1;
                }
                orders.insert(seat, playout::bot_orders(&r, &st, side, &mut rr));
            }
            st = WarOfTheDukes::resolve(&r, &st, &orders, &mut herald::rng::Dice::quiet(&mut rr)).0;
        }
    }
    assert!(checked >= 20, "only {checked} attacks checked");
}
