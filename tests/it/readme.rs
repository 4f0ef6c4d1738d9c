//! Every example in the README is checked (issue 18), so the README cannot
//! drift from the program. The test knows no command: it runs whatever the
//! README's blocks say, by these rules (the README states them too, under
//! "Tests and benchmarks"):
//!
//! - ` ```sh ` blocks run in README order, each with `bash -e -o pipefail`,
//!   all in one scratch folder, with the herald just built first on PATH.
//!   They must exit 0; ` ```sh exit=N ` ones must exit N; ` ```sh skip `
//!   ones are only shown (building, installing, placeholders).
//! - A ` ```text ` block right after another block (only blank lines
//!   between) is what that block prints: each of its paragraphs (lines
//!   apart from blank ones; runs of spaces and line ends count as one
//!   space) must appear in the output, stdout and stderr together.
//! - ` ```toml GAME ` (e.g. ` ```toml norse-wars players=red,blue `) is an
//!   order file for a new game of GAME (players `red,blue` unless given;
//!   `option=key=value` for options), played forward with the first legal
//!   orders to the file's turn, then checked as `herald check` does but for
//!   the password. A block with only `orders = [ … ]` is completed with the
//!   header (game, player, turn, password) of GAME's last complete example.
//!   Accepted, unless a ` ```text ` block follows: then it must be refused
//!   with that message.
//! - ` ```toml GAME setup ` is a position file: a game of GAME starts from it.
//! - Any other ` ```toml ` must parse as TOML, and as an order file if it
//!   has `orders`.
//!
//! Every game herald knows must have a checked order file in the README.

use crate::common::scratch;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Debug, Clone)]
pub(crate) struct Block {
    /// The info string after the opening fence.
    pub(crate) info: Vec<String>,
    pub(crate) body: String,
    /// 1-based line of the opening fence.
    pub(crate) line: usize,
    /// The ```text block right after it, if any.
    pub(crate) output: Option<String>,
}

impl Block {
    pub(crate) fn lang(&self) -> &str {
        self.info.first().map(String::as_str).unwrap_or("")
    }

    fn arg(&self, key: &str) -> Option<&str> {
        self.info
            .iter()
            .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
    }

    pub(crate) fn flag(&self, word: &str) -> bool {
        self.info.iter().any(|w| w == word)
    }
}

/// The fenced blocks of a Markdown text (fences may be indented, as in a
/// list item; the indent is taken off the body), each `text` block that
/// follows another joined to it as its output.
pub(crate) fn blocks(md: &str) -> Vec<Block> {
    let lines: Vec<&str> = md.lines().collect();
    let mut out: Vec<Block> = Vec::new();
    let mut last_close: Option<usize> = None;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let t = l.trim_start();
        let Some(info) = t.strip_prefix("```") else {
            i += 1;
            continue;
        };
        let indent = l.len() - t.len();
        let open = i;
        let mut body = String::new();
        i += 1;
        while i < lines.len() && !lines[i].trim_start().starts_with("```") {
            let b = lines[i];
            body.push_str(
                b.get(indent.min(b.len() - b.trim_start().len())..)
                    .unwrap_or(""),
            );
            body.push('\n');
            i += 1;
        }
        let close = i;
        i += 1;
        let block = Block {
            info: info.split_whitespace().map(str::to_string).collect(),
            body,
            line: open + 1,
            output: None,
        };
        let adjacent =
            last_close.is_some_and(|c| lines[c + 1..open].iter().all(|l| l.trim().is_empty()));
        last_close = Some(close);
        if block.lang() == "text" && adjacent && !out.is_empty() {
            let prev = out.last_mut().expect("a block before");
            if prev.output.is_none() {
                prev.output = Some(block.body);
                continue;
            }
        }
        out.push(block);
    }
    out
}

/// Whitespace runs as one space.
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Each paragraph of `want` appears in `got`; the missing ones.
pub(crate) fn missing(want: &str, got: &str) -> Vec<String> {
    let got = squash(got);
    want.split("\n\n")
        .map(squash)
        .filter(|p| !p.is_empty() && !got.contains(p.as_str()))
        .collect()
}

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

#[test]
fn blocks_are_found_as_written() {
    let md = "a\n```sh\nherald x\n```\n\n```text\nout\n\nmore\n```\n  ```toml norse-wars players=a,b\n  orders = []\n  ```\n```text\nalone? no: adjacent\n```\n";
    let b = blocks(md);
    assert_eq!(b.len(), 2, "{b:#?}");
    assert_eq!(b[0].lang(), "sh");
    assert_eq!(b[0].output.as_deref(), Some("out\n\nmore\n"));
    assert_eq!(b[1].info, ["toml", "norse-wars", "players=a,b"]);
    assert_eq!(b[1].body, "orders = []\n");
    assert_eq!(b[1].arg("players"), Some("a,b"));
    assert_eq!(b[1].output.as_deref(), Some("alone? no: adjacent\n"));
    assert_eq!(
        missing("out\n\nmore  text", "x out y more\ntext"),
        Vec::<String>::new()
    );
    assert_eq!(missing("gone", "here"), vec!["gone".to_string()]);
}

/// A new game of `game` for checking examples, in process (light password
/// hashes), played forward to `turn` with the first legal orders.
struct Table {
    begun: herald::pipeline::create::Begun,
    dir: PathBuf,
}

impl Table {
    fn new(b: &Block, game: &str, id: &str, setup: Option<&Path>) -> Result<Table, String> {
        let dir = scratch(&format!("readme-{game}"));
        let path = dir.join("game");
        let players = b.arg("players").unwrap_or("red,blue");
        let options: Vec<String> = b
            .info
            .iter()
            .filter_map(|w| w.strip_prefix("option="))
            .map(str::to_string)
            .collect();
        let begun = herald::pipeline::create::begin(&herald::pipeline::NewGame {
            game: game.into(),
            rules: None,
            players: players.split(',').map(str::to_string).collect(),
            seed: Some("readme".into()),
            options,
            setup: setup.map(Path::to_path_buf),
            id: Some(id.into()),
            out: path,
            key: None,
            now: chrono::DateTime::parse_from_rfc3339("2026-11-22T12:00:00Z").unwrap(),
            secrets_from_seed: false,
            light_passwords: true,
            mail: Default::default(),
        })
        .map_err(|e| e.to_string())?;
        Ok(Table { begun, dir })
    }

    fn play_to(&mut self, turn: u32) -> Result<(), String> {
        let b = &mut self.begun;
        while b.loaded.head().turn < turn {
            if b.loaded.head().outcome.is_some() {
                return Err(format!("the game ended before turn {turn}"));
            }
            let g = &b.loaded;
            let h = g.head();
            let files: Vec<herald::pipeline::Submitted> = g
                .rules
                .awaiting(&g.state)
                .into_iter()
                .map(|seat| {
                    let id = &h.players[seat].id;
                    let pw = &b.passwords.iter().find(|p| &p.0 == id).unwrap().1;
                    let orders = g.rules.legal_orders(&g.state, seat).swap_remove(0);
                    herald::pipeline::Submitted::file(
                        format!("{id}.toml"),
                        herald::report::order_file(&h.id, id, h.turn, pw, &orders),
                    )
                })
                .collect();
            b.loaded
                .resolve_files(&files, "2026-11-22T13:00:00Z", &b.seed, &b.signer)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Check one `toml GAME` block against a game of GAME at the file's turn
/// (made once per kind, in `tables`); what went wrong, if anything.
fn order_example(
    b: &Block,
    game: &str,
    headers: &mut BTreeMap<String, String>,
    tables: &mut BTreeMap<String, Table>,
) -> Result<(), String> {
    let complete = b.body.lines().any(|l| l.trim_start().starts_with("game"));
    let text = if complete {
        let head: String = b
            .body
            .lines()
            .take_while(|l| !l.trim_start().starts_with("orders"))
            .map(|l| format!("{l}\n"))
            .collect();
        headers.insert(game.to_string(), head);
        b.body.clone()
    } else {
        let head = headers
            .get(game)
            .ok_or(format!("no complete {game} order file above this one to take game, player, turn and password from"))?;
        format!("{head}{}", b.body)
    };
    // The game and turn the file is for; a file too broken to say is
    // checked against turn 0 of a game called "readme".
    let envelope = herald::orders::OrderFile::parse("x", &text).ok();
    let (id, turn) = envelope
        .as_ref()
        .map(|f| (f.game.clone(), f.turn))
        .unwrap_or(("readme".into(), 0));
    let key = format!("{game} {id} {turn} {}", b.info[2..].join(" "));
    if !tables.contains_key(&key) {
        let mut t = Table::new(b, game, &id, None)?;
        t.play_to(turn)?;
        tables.insert(key.clone(), t);
    }
    let t = &tables[&key];
    // The README cannot know the table's password: put it in.
    let text = match envelope.as_ref().and_then(|f| {
        t.begun
            .passwords
            .iter()
            .find(|p| p.0 == f.player)
            .map(|p| (f, p))
    }) {
        Some((f, (_, pw))) if !f.password.is_empty() => text.replacen(
            &format!("password = {:?}", f.password),
            &format!("password = {pw:?}"),
            1,
        ),
        _ => text,
    };
    let got = herald::pipeline::check_orders(
        &t.begun.loaded,
        &[herald::pipeline::Submitted::file("orders.toml", text)],
    );
    match (&b.output, got) {
        (None, Ok(_)) => Ok(()),
        (None, Err(e)) => Err(format!("refused: {e}")),
        (Some(want), Err(e)) => {
            let m = missing(want, &e.to_string());
            if m.is_empty() {
                Ok(())
            } else {
                Err(format!("herald says\n  {e}\nwhich lacks {m:?}"))
            }
        }
        (Some(want), Ok(_)) => Err(format!(
            "accepted, but the README says it is refused with {want:?}"
        )),
    }
}

fn setup_example(b: &Block, game: &str) -> Result<(), String> {
    let dir = scratch("readme-setup");
    let p = dir.join("position.toml");
    std::fs::write(&p, &b.body).unwrap();
    let r = Table::new(b, game, "readme", Some(&p)).map(|_| ());
    let _ = std::fs::remove_dir_all(&dir);
    r
}

pub(crate) fn shell(b: &Block, dir: &Path, path: &str) -> Result<(), String> {
    let out = Command::new("bash")
        .args(["-e", "-o", "pipefail", "-c", &b.body])
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .map_err(|e| format!("bash: {e}"))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let want: i32 = b.arg("exit").map(|s| s.parse().unwrap()).unwrap_or(0);
    let code = out.status.code().unwrap_or(-1);
    if code != want {
        return Err(format!("exit {code}, the text expects {want}:\n{text}"));
    }
    if let Some(w) = &b.output {
        let m = missing(w, &text);
        if !m.is_empty() {
            return Err(format!("the output lacks {m:?}:\n{text}"));
        }
    }
    Ok(())
}

#[test]
// Long: one scenario told step by step, each check beside the step it checks.
fn every_readme_example_runs_as_written() {
    let md = readme();
    let all = blocks(&md);
    let dir = scratch("readme-sh");
    let bin = Path::new(env!("CARGO_BIN_EXE_herald"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let games = herald::games::names();
    let mut headers = BTreeMap::new();
    // One game per game, players, options, id and turn, shared by the blocks.
    let mut tables = BTreeMap::new();
    let mut failures = Vec::new();
    let mut ran = BTreeMap::<&str, usize>::new();
    let mut checked_games = Vec::new();
    for b in &all {
        let what = match b.lang() {
            "sh" if b.flag("skip") => continue,
            "sh" => {
                *ran.entry("sh").or_default() += 1;
                shell(b, &dir, &path)
            }
            "toml" => match b.info.get(1).map(String::as_str) {
                Some(game) if games.contains(&game) => {
                    *ran.entry("toml").or_default() += 1;
                    if b.flag("setup") {
                        setup_example(b, game)
                    } else {
                        if b.output.is_none() {
                            checked_games.push(game);
                        }
                        order_example(b, game, &mut headers, &mut tables)
                    }
                }
                Some(other) => Err(format!("`{other}` is not a game herald knows ({games:?})")),
                None => {
                    *ran.entry("toml").or_default() += 1;
                    match toml::from_str::<toml::Table>(&b.body) {
                        Err(e) => Err(format!("not TOML: {e}")),
                        Ok(t) if t.contains_key("orders") => {
                            herald::orders::OrderFile::parse("README", &b.body)
                                .map(|_| ())
                                .map_err(|e| herald::error::Error::from(e).to_string())
                        }
                        Ok(_) => Ok(()),
                    }
                }
            },
            _ => continue,
        };
        if let Err(e) = what {
            failures.push(format!(
                "README.md:{} (```{}):\n{}\n--- the block ---\n{}",
                b.line,
                b.info.join(" "),
                e,
                b.body
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} README examples fail:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    for g in &games {
        assert!(
            checked_games.contains(g),
            "the README has no checked order file for {g} (a ```toml {g} block)"
        );
    }
    assert!(
        ran.get("sh").copied().unwrap_or(0) >= 5,
        "too few shell examples ran: {ran:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
