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

mod common;

use common::{check_text, count, herald, run_cases, scratch, CaseGame, EngineGame};
use herald::games::war_of_the_dukes::events::Event;
use herald::games::war_of_the_dukes::rules::{Res, Rules};
use herald::games::war_of_the_dukes::state::{Phase, State};
use herald::games::war_of_the_dukes::units::Side;
use herald::games::war_of_the_dukes::{orders, phase, playout, WarOfTheDukes};
use herald::games::Game;
use herald::rng;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

const GAME: &str = "war-of-the-dukes";

fn rules() -> Rules {
    Rules::parse(WarOfTheDukes::RULESET_TEXT).unwrap()
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

#[derive(Deserialize)]
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
    let state: Value = serde_json::from_str(&std::fs::read_to_string(&g.path).unwrap()).unwrap();
    let (id, turn) = (
        state["id"].as_str().unwrap().to_string(),
        state["turn"].as_u64().unwrap(),
    );
    let secrets: toml::Value =
        toml::from_str(&std::fs::read_to_string(g.dir.join("game.secrets.toml")).unwrap()).unwrap();
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
                common::check_verify(&g.path)?;
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
    run_cases(GAME, |c: &Case| &c.name, run_case);
}

/// The first die of the first phase of a case game started with `seed`
/// (for writing cases): `cargo test --release --test war_of_the_dukes
/// dice -- --ignored --nocapture`.
#[test]
#[ignore]
fn dice() {
    use sha2::{Digest, Sha256};
    for seed in 1..60 {
        let s = seed.to_string();
        let c = Sha256::digest(s.as_bytes());
        let hexd: String = c.iter().map(|b| format!("{b:02x}")).collect();
        let id = format!("wotd-2026-11-22-{}", &hexd[..6]);
        let mut line = format!("seed {seed:>2}:");
        for ph in ["orfburg", "wulfenburg"] {
            let mut r = rng::phase_rng(&s, &id, 0, ph);
            let d: Vec<u32> = (0..4).map(|_| rng::die(&mut r, 6)).collect();
            line.push_str(&format!(" {ph} {d:?}"));
        }
        println!("{line}");
    }
}
