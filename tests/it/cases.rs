//! Rule cases as plain files, run through the public CLI (godip-style):
//! `tests/cases/<game>/*.toml`, each holding `[[case]]` tables with a
//! PRESTATE (a `--setup` position), ORDERS (one resolve per entry) and a
//! POSTSTATE (every piece on the board afterwards), plus the events the
//! reports must tell and the result.

use crate::common::{herald, run_cases, CaseGame};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[serde(default = "default_players")]
    players: Vec<String>,
    #[serde(default)]
    options: Vec<String>,
    /// A `--setup` position; without it the standard setup with `seed`.
    prestate: Option<String>,
    #[serde(default = "default_seed")]
    seed: String,
    /// `"red: W1 N 2; starve W2"`: one resolve per entry.
    #[serde(default)]
    orders: Vec<String>,
    /// Player → pieces (`"W1 c4"`); players not named have no pieces left.
    poststate: Option<BTreeMap<String, Vec<String>>>,
    /// Shields after the orders, if the case says.
    shields: Option<Vec<String>>,
    /// Text each of these must appear in the report of `reporter`.
    #[serde(default)]
    events: Vec<String>,
    /// Text that must not appear in that report.
    #[serde(default)]
    absent: Vec<String>,
    reporter: Option<String>,
    /// Substring of `herald status` after the last orders.
    status: Option<String>,
    /// The last orders are refused with this text in the message.
    error: Option<String>,
}

fn default_players() -> Vec<String> {
    vec!["red".into(), "blue".into()]
}
fn default_seed() -> String {
    "1".into()
}

// Long: one whole fixture or table of cases, set up in one place.
fn run_case(game: &str, file: &Path, n: usize, c: &Case) -> Result<(), String> {
    let tag = format!("{}-{n}", file.file_stem().unwrap().to_string_lossy());
    let game = match CaseGame::new(
        game,
        &tag,
        &c.players,
        &c.seed,
        &c.options,
        c.prestate.as_deref(),
    ) {
        Ok(g) => g,
        Err(err) => {
            return match (&c.error, c.orders.is_empty()) {
                (Some(want), true) if err.contains(want.as_str()) => Ok(()),
                _ => Err(format!("new failed: {err}")),
            };
        }
    };
    let gs = game.path.as_str();
    for (k, line) in c.orders.iter().enumerate() {
        let (code, err) = game.send(k, line)?;
        let last = k + 1 == c.orders.len();
        match (&c.error, last) {
            (Some(want), true) => {
                if code != 1 {
                    return Err(format!(
                        "expected the orders `{line}` to be refused, exit {code}"
                    ));
                }
                if !err.contains(want.as_str()) {
                    return Err(format!("refusal message lacks `{want}`:\n{err}"));
                }
            }
            _ => {
                if code != 0 {
                    return Err(format!("orders `{line}` refused:\n{err}"));
                }
            }
        }
    }
    let reporter = c.reporter.clone().unwrap_or_else(|| c.players[0].clone());
    if let Some(post) = &c.poststate {
        let (code, out, err) = herald(&["report", gs, "--player", &reporter, "--format", "json"]);
        if code != 0 {
            return Err(format!("report failed: {err}"));
        }
        let v: Value = serde_json::from_str(&out).unwrap();
        let mut got: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for p in v["view"]["pieces"].as_array().unwrap() {
            got.entry(p["owner"].as_str().unwrap().to_string())
                .or_default()
                .push(format!(
                    "{} {}",
                    p["piece"].as_str().unwrap(),
                    p["hex"].as_str().unwrap()
                ));
        }
        let mut want: BTreeMap<String, Vec<String>> = post.clone();
        want.retain(|_, v| !v.is_empty());
        for v in want.values_mut().chain(got.values_mut()) {
            v.sort();
        }
        if got != want {
            return Err(format!(
                "poststate differs:\n  want {want:?}\n  got  {got:?}"
            ));
        }
        if let Some(sh) = &c.shields {
            let mut got: Vec<String> = v["view"]["shields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            let mut want = sh.clone();
            got.sort();
            want.sort();
            if got != want {
                return Err(format!("shields differ: want {want:?} got {got:?}"));
            }
        }
    }
    game.finish(&reporter, &c.events, &c.absent, c.status.as_ref())
}

#[test]
fn norse_wars_cases() {
    run_cases(
        "norse-wars",
        |c: &Case| &c.name,
        |f, n, c| run_case("norse-wars", f, n, c),
    );
}
