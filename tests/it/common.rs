//! What the rule-case runners and playout tests of every game share: running
//! the binary, scratch folders, the loop over `tests/cases/<game>/*.toml`
//! and the checks every case ends with (report text, status, verify).

#![allow(dead_code)]

use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Run the herald binary: exit code, stdout, stderr.
pub fn herald(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(args)
        .output()
        .expect("herald runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh, empty folder under the system's temp folder.
/// All test modules share one process: a counter keeps equal tags apart.
pub fn scratch(tag: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("herald-{}-{n}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A count from the environment (to run more games), or the default.
pub fn count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A case's text checks on a report: each of `events` appears, none of `absent`.
pub fn check_text(text: &str, events: &[String], absent: &[String]) -> Result<(), String> {
    for e in events {
        if !text.contains(e.as_str()) {
            return Err(format!("the report does not tell `{e}`:\n{text}"));
        }
    }
    for e in absent {
        if text.contains(e.as_str()) {
            return Err(format!(
                "the report tells `{e}`, which it must not:\n{text}"
            ));
        }
    }
    Ok(())
}

/// The report of `player` on `game` passes [`check_text`].
pub fn check_report(
    game: &str,
    player: &str,
    events: &[String],
    absent: &[String],
) -> Result<(), String> {
    if events.is_empty() && absent.is_empty() {
        return Ok(());
    }
    let (_, text, _) = herald(&["report", game, "--player", player]);
    check_text(&text, events, absent)
}

/// `herald status` says `want`, if the case says anything.
pub fn check_status(game: &str, want: Option<&String>) -> Result<(), String> {
    let Some(want) = want else { return Ok(()) };
    let (_, out, _) = herald(&["status", game]);
    if out.contains(want.as_str()) {
        Ok(())
    } else {
        Err(format!("status lacks `{want}`:\n{out}"))
    }
}

/// `herald verify` accepts the game.
pub fn check_verify(game: &str) -> Result<(), String> {
    let (code, out, err) = herald(&["verify", game]);
    if code == 0 {
        Ok(())
    } else {
        Err(format!("verify refused the case's game: {out}{err}"))
    }
}

#[derive(Deserialize)]
struct CaseFile<C> {
    case: Vec<C>,
}

/// Run every `[[case]]` of every file under `tests/cases/<game>/`, and fail
/// once with all the failures listed. `name` gives a case's name, `run`
/// runs one (the file, the case's index in it, the case).
pub fn run_cases<C: DeserializeOwned>(
    game: &str,
    name: fn(&C) -> &str,
    run: impl Fn(&Path, usize, &C) -> Result<(), String>,
) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases")
        .join(game);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for f in &files {
        let cf: CaseFile<C> = toml::from_str(&std::fs::read_to_string(f).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (n, c) in cf.case.iter().enumerate() {
            count += 1;
            if let Err(e) = run(f, n, c) {
                failures.push(format!(
                    "{} — {}: {e}",
                    f.file_name().unwrap().to_string_lossy(),
                    name(c)
                ));
            }
        }
    }
    assert!(count > 0, "no cases under {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("{count} {game} cases passed");
}

/// A game played in memory through the whole engine: order files, checks,
/// resolve and the hash chain, as `herald resolve` does, minus the disk.
pub struct EngineGame {
    pub loaded: herald::engine::Loaded,
    pub dir: PathBuf,
    pub path: PathBuf,
    passwords: Vec<(String, String)>,
}

impl EngineGame {
    pub fn new(
        game: &str,
        players: &[&str],
        seed: &str,
        options: Vec<String>,
        tag: &str,
    ) -> EngineGame {
        let dir = scratch(tag);
        let path = dir.join("game.json");
        let created = herald::engine::create(herald::engine::NewGame {
            game: game.into(),
            rules: None,
            players: players.iter().map(|s| s.to_string()).collect(),
            seed: Some(seed.into()),
            options,
            setup: None,
            id: None,
            out: path.clone(),
            reports: None,
            now: chrono::DateTime::parse_from_rfc3339("2026-11-22T12:00:00Z").unwrap(),
            secrets_from_seed: false,
            light_passwords: true,
            mail: Default::default(),
        })
        .unwrap();
        let loaded = herald::engine::Loaded::open(&path).unwrap();
        EngineGame {
            loaded,
            dir,
            path,
            passwords: created.passwords,
        }
    }

    pub fn over(&self) -> bool {
        self.loaded.file.outcome.is_some()
    }

    /// A player's password.
    pub fn password(&self, player: &str) -> String {
        self.passwords
            .iter()
            .find(|p| p.0 == player)
            .map(|p| p.1.clone())
            .unwrap()
    }

    /// One phase: every awaited player sends the orders `choose` picks for
    /// them, as an order file with their password; the phase resolves.
    pub fn turn(&mut self, mut choose: impl FnMut(&herald::engine::Loaded, usize) -> Vec<String>) {
        let g = &self.loaded;
        let files: Vec<(String, String)> = g
            .session
            .awaiting(&g.state)
            .into_iter()
            .map(|seat| {
                let id = &g.file.players[seat].id;
                let pw = &self.passwords.iter().find(|p| &p.0 == id).unwrap().1;
                let orders = choose(g, seat);
                (
                    format!("{id}.toml"),
                    herald::report::order_file(&g.file.id, id, g.file.turn, pw, &orders),
                )
            })
            .collect();
        herald::engine::resolve_in_place(&mut self.loaded, &files, "2026-11-22T13:00:00Z").unwrap();
    }

    /// Write the archive and replay it with `herald verify`'s code; the
    /// problems found (none for a sound game). The folder goes if sound.
    pub fn verify(&self) -> Vec<String> {
        std::fs::write(&self.path, self.loaded.file.to_text()).unwrap();
        let problems = herald::engine::verify(&self.path, None).unwrap();
        if problems.is_empty() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
        problems
    }
}

/// A rule case's game, started through `herald new` in its own folder.
pub struct CaseGame {
    pub dir: PathBuf,
    pub path: String,
    secrets: toml::Value,
}

impl CaseGame {
    /// `herald new <game>` with the case's players, seed, options and
    /// PRESTATE (a `--setup` position). `Err` holds `new`'s refusal.
    pub fn new(
        game: &str,
        tag: &str,
        players: &[String],
        seed: &str,
        options: &[String],
        prestate: Option<&str>,
    ) -> Result<CaseGame, String> {
        let dir = scratch(tag);
        let path = dir.join("game.json").to_str().unwrap().to_string();
        let players = players.join(",");
        let mut args: Vec<String> = [
            "new",
            game,
            "--players",
            &players,
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
        if let Some(p) = prestate {
            let pos = dir.join("position.toml");
            std::fs::write(&pos, p).unwrap();
            args.extend(["--setup".to_string(), pos.to_str().unwrap().to_string()]);
        }
        for o in options {
            args.extend(["--option".to_string(), o.clone()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = herald(&args);
        if code != 0 {
            return Err(err);
        }
        let secrets =
            toml::from_str(&std::fs::read_to_string(dir.join("game.secrets.toml")).unwrap())
                .unwrap();
        Ok(CaseGame { dir, path, secrets })
    }

    /// Send ORDERS entry `k`, `"player: order; order"`, as that player's
    /// order file for the current turn (one order a line, from line 6) and
    /// resolve: the exit code and stderr.
    pub fn send(&self, k: usize, entry: &str) -> Result<(i32, String), String> {
        let (player, orders) = entry
            .split_once(':')
            .ok_or(format!("order entry `{entry}` needs `player: orders`"))?;
        let player = player.trim();
        let state: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&self.path).unwrap()).unwrap();
        let (id, turn) = (
            state["id"].as_str().unwrap(),
            state["turn"].as_u64().unwrap(),
        );
        let list: Vec<String> = orders
            .split(';')
            .map(|s| format!("  {:?},", s.trim()))
            .filter(|s| s != "  \"\",")
            .collect();
        let pw = self.secrets["passwords"][player]
            .as_str()
            .ok_or(format!("no player {player}"))?;
        let text = format!("game = {id:?}\nplayer = {player:?}\nturn = {turn}\npassword = {pw:?}\norders = [\n{}\n]\n", list.join("\n"));
        let of = self.dir.join(format!("orders-{k}.toml"));
        std::fs::write(&of, text).unwrap();
        let (code, _, err) = herald(&[
            "resolve",
            &self.path,
            of.to_str().unwrap(),
            "--now",
            "2026-11-22T13:00:00Z",
        ]);
        Ok((code, err))
    }
}

impl CaseGame {
    /// The checks every case ends with: the reporter's report tells
    /// `events` and not `absent`, status says `status`, verify accepts the
    /// game. The folder goes once all hold.
    pub fn finish(
        &self,
        reporter: &str,
        events: &[String],
        absent: &[String],
        status: Option<&String>,
    ) -> Result<(), String> {
        check_report(&self.path, reporter, events, absent)?;
        check_status(&self.path, status)?;
        check_verify(&self.path)?;
        let _ = std::fs::remove_dir_all(&self.dir);
        Ok(())
    }
}

/// The data an HTML report embeds for its order composer (issue 21).
pub fn page_data(html: &str) -> serde_json::Value {
    let start = r#"<script type="application/json" id="herald-data">"#;
    let a = html.find(start).expect("the page embeds its data") + start.len();
    let b = a + html[a..].find("</script>").unwrap();
    serde_json::from_str(&html[a..b]).expect("the page data is JSON")
}

/// Every board cell the composer's data names (pieces' cells, orders'
/// targets, cell lists, attack targets and reaches).
pub fn composer_cells(data: &serde_json::Value) -> Vec<String> {
    let o = &data["orders"];
    let mut out = Vec::new();
    let mut push = |v: &serde_json::Value| {
        if let Some(s) = v.as_str() {
            out.push(s.to_string());
        }
    };
    for p in o["pieces"].as_array().into_iter().flatten() {
        push(&p["at"]);
    }
    for c in o["choices"].as_array().into_iter().flatten() {
        push(&c["to"]);
        push(&c["from"]);
    }
    for l in o["lists"].as_object().into_iter().flat_map(|m| m.values()) {
        l.as_array().into_iter().flatten().for_each(&mut push);
    }
    for g in o["gathers"].as_array().into_iter().flatten() {
        push(&g["target"]);
    }
    out
}
