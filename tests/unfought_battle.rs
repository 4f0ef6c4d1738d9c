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

mod common;

use common::{
    check_report, check_status, check_verify, count, herald, run_cases, scratch, EngineGame,
};
use herald::board::Hex;
use herald::games::unfought_battle::orders::Order;
use herald::games::unfought_battle::rules::Rules;
use herald::games::unfought_battle::state::{Phase, State};
use herald::games::unfought_battle::{playout, UnfoughtBattle};
use herald::rng;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn rules() -> Rules {
    Rules::parse(UnfoughtBattle::RULESET_TEXT).unwrap()
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
        let path = dir.join("game.json").to_str().unwrap().to_string();
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
            toml::from_str(&std::fs::read_to_string(dir.join("game.secrets.toml")).unwrap())
                .unwrap();
        Ok(CliGame {
            dir,
            path,
            passwords,
            n: 0,
        })
    }

    fn file(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(&self.path).unwrap()).unwrap()
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
