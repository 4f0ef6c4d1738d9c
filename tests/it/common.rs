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

/// `f` on every item, on a few threads side by side, the answers in the
/// items' order. For the tests that run many independent herald processes
/// one after another (rule cases, field edits): each process mostly waits
/// on its synced writes and its start, so a few at once keep the cores
/// busy. HERALD_TEST_JOBS sets how many (1: one after another, as before).
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let jobs = count("HERALD_TEST_JOBS", 4).clamp(1, items.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        mine.push((i, f(i, item)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

/// Whether `text` names `what` as a word of its own: `e8` inside a hex digest
/// (a signature, a chain head) names no hex.
pub fn mentions(text: &str, what: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    text.match_indices(what).any(|(i, _)| {
        let starts = what
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric());
        let ends = what
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric());
        (!starts || !word(text[..i].chars().last()))
            && (!ends || !word(text[i + what.len()..].chars().next()))
    })
}

/// A case's text checks on a report: each of `events` appears, none of `absent`.
pub fn check_text(text: &str, events: &[String], absent: &[String]) -> Result<(), String> {
    for e in events {
        if !text.contains(e.as_str()) {
            return Err(format!("the report does not tell `{e}`:\n{text}"));
        }
    }
    for e in absent {
        if mentions(text, e) {
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
pub fn run_cases<C: DeserializeOwned + Sync>(
    game: &str,
    name: fn(&C) -> &str,
    run: impl Fn(&Path, usize, &C) -> Result<(), String> + Sync,
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
    let mut cases = Vec::new();
    for f in &files {
        let cf: CaseFile<C> = toml::from_str(&std::fs::read_to_string(f).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        cases.extend(cf.case.into_iter().enumerate().map(|(n, c)| (f, n, c)));
    }
    let count = cases.len();
    // Each case is its own game in its own folder: they run side by side.
    let failures: Vec<String> = par_map(&cases, |_, (f, n, c)| {
        run(f, *n, c).err().map(|e| {
            format!(
                "{} — {}: {e}",
                f.file_name().unwrap().to_string_lossy(),
                name(c)
            )
        })
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(count > 0, "no cases under {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("{count} {game} cases passed");
}

/// The head record (line 1) of a game folder's file, as JSON.
pub fn head(game: &Path) -> serde_json::Value {
    let dir = if game.is_dir() {
        game.to_path_buf()
    } else {
        game.parent().unwrap().to_path_buf()
    };
    let text = std::fs::read_to_string(dir.join("game.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    first["head"].clone()
}

/// A game folder's file as one JSON value shaped for tests: the head
/// record's fields, and `log` holding the bodies of the resolved phases in
/// order (other entries left out).
pub fn game_json(game: &Path) -> serde_json::Value {
    let dir = if game.is_dir() {
        game.to_path_buf()
    } else {
        game.parent().unwrap().to_path_buf()
    };
    let text = std::fs::read_to_string(dir.join("game.jsonl")).unwrap();
    let mut lines = text.lines();
    let first: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let mut j = first["head"].clone();
    let phases: Vec<serde_json::Value> = lines
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["body"].clone())
        .filter(|b| b["kind"] == "phase")
        .collect();
    j["log"] = serde_json::Value::Array(phases);
    j
}

/// The game file's lines as JSON: the head line, then one per entry.
pub fn lines(game: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(game.join("game.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Write the lines back as herald writes them (compact JSON, keys sorted).
pub fn write_lines(game: &Path, lines: &[serde_json::Value]) {
    let mut text = String::new();
    for l in lines {
        text.push_str(&serde_json::to_string(l).unwrap());
        text.push('\n');
    }
    std::fs::write(game.join("game.jsonl"), text).unwrap();
}

/// Hash the chain again the way herald does (docs/trust.md): each entry's
/// hash from the previous one and its body's bytes, and the head record's
/// log reference. Without the game's key: the signatures stay as they were.
pub fn rehash(lines: &mut [serde_json::Value]) {
    let mut prev = herald::chain::record::ZERO.to_string();
    for l in lines.iter_mut().skip(1) {
        let body = serde_json::to_string(&l["body"]).unwrap();
        let hash = herald::chain::record::entry_hash(&prev, &body);
        l["prev"] = prev.clone().into();
        l["hash"] = hash.clone().into();
        prev = hash;
    }
    let n = lines.len() - 1;
    lines[0]["head"]["log"]["head"] = prev.into();
    lines[0]["head"]["log"]["entries"] = n.into();
}

/// Sign again with the game's own key: what only the moderator can do.
pub fn reseal(game: &Path, lines: &mut [serde_json::Value]) {
    let key = herald::chain::Signer::from_file(
        &std::fs::read_to_string(game.join("moderator.key")).unwrap(),
    )
    .unwrap();
    for l in lines.iter_mut().skip(1) {
        let hash = l["hash"].as_str().unwrap().to_string();
        l["sig"] = key
            .sign(herald::chain::keys::Domain::Entry, hash.as_bytes())
            .into();
    }
    let head = serde_json::to_string(&lines[0]["head"]).unwrap();
    let digest = herald::chain::canon::sha256_hex(head.as_bytes());
    lines[0]["seal"] = key
        .sign(herald::chain::keys::Domain::Head, digest.as_bytes())
        .into();
}

/// A game played in memory through the whole engine: order files, checks,
/// resolve, the hash chain and its signatures, as `herald resolve` does,
/// minus the disk.
pub struct EngineGame {
    pub loaded: herald::pipeline::Loaded,
    pub dir: PathBuf,
    pub seed: String,
    pub signer: herald::chain::Signer,
    passwords: Vec<(String, String)>,
}

pub fn engine_request(
    game: &str,
    players: &[&str],
    seed: &str,
    options: Vec<String>,
    out: PathBuf,
) -> herald::pipeline::NewGame {
    herald::pipeline::NewGame {
        game: game.into(),
        rules: None,
        players: players.iter().map(|s| s.to_string()).collect(),
        seed: Some(seed.into()),
        options,
        setup: None,
        id: None,
        out,
        key: None,
        now: chrono::DateTime::parse_from_rfc3339("2026-11-22T12:00:00Z").unwrap(),
        secrets_from_seed: true,
        light_passwords: true,
        mail: Default::default(),
    }
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
        let begun = herald::pipeline::create::begin(&engine_request(
            game,
            players,
            seed,
            options,
            dir.join("game"),
        ))
        .unwrap();
        EngineGame {
            loaded: begun.loaded,
            dir,
            seed: begun.seed,
            signer: begun.signer,
            passwords: begun.passwords,
        }
    }

    pub fn over(&self) -> bool {
        self.loaded.head().outcome.is_some()
    }

    pub fn password(&self, id: &str) -> &str {
        &self.passwords.iter().find(|p| p.0 == id).unwrap().1
    }

    /// The order files `choose` picks for every awaited player, with their
    /// passwords, as a player would send them.
    pub fn files(
        &self,
        mut choose: impl FnMut(&herald::pipeline::Loaded, usize) -> Vec<String>,
    ) -> Vec<herald::pipeline::Submitted> {
        let g = &self.loaded;
        let h = g.head();
        g.rules
            .awaiting(&g.state)
            .into_iter()
            .map(|seat| {
                let id = &h.players[seat].id;
                let orders = choose(g, seat);
                herald::pipeline::Submitted::file(
                    format!("{id}.toml"),
                    herald::report::order_file(&h.id, id, h.turn, self.password(id), &orders),
                )
            })
            .collect()
    }

    /// One phase: every awaited player sends the orders `choose` picks for
    /// them, as an order file with their password; the phase resolves.
    pub fn turn(&mut self, choose: impl FnMut(&herald::pipeline::Loaded, usize) -> Vec<String>) {
        let files = self.files(choose);
        self.resolve(&files, "2026-11-22T13:00:00Z");
    }

    /// Resolve the phase with these order files at `now`.
    pub fn resolve(&mut self, files: &[herald::pipeline::Submitted], now: &str) {
        self.loaded
            .resolve_files(files, now, &self.seed, &self.signer)
            .unwrap();
    }

    /// Check the archive with `herald verify`'s code (the chain, every
    /// signature, the replay); the problems found (none for a sound game).
    /// The folder goes if sound.
    pub fn verify(&self) -> Vec<String> {
        let text = self.loaded.record.to_text();
        let g = herald::pipeline::Loaded::from_text(&text, "game").unwrap();
        let (problems, replayed) = herald::pipeline::replay::verify(&g, Some(&self.seed)).unwrap();
        assert!(replayed || !problems.is_empty());
        if problems.is_empty() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
        problems
    }
}

impl EngineGame {
    /// Write the game as a game folder (`<dir>/game`), as `herald new` and
    /// `resolve` leave one (less the reports, which the next command that
    /// changes the game writes); its path.
    pub fn save(&self) -> PathBuf {
        let folder = self.dir.join("game");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("game.jsonl"), self.loaded.record.to_text()).unwrap();
        std::fs::write(folder.join("moderator.key"), self.signer.to_file()).unwrap();
        let mut secrets = format!("seed = {:?}\n[passwords]\n", self.seed);
        for (p, pw) in &self.passwords {
            secrets.push_str(&format!("{p} = {pw:?}\n"));
        }
        std::fs::write(folder.join("secrets.toml"), secrets).unwrap();
        folder
    }
}

/// One form of a player's report, as `herald report` renders it (text
/// without its signed witness block).
pub fn report(g: &herald::pipeline::Loaded, seat: usize, format: &str) -> String {
    String::from_utf8(herald::pipeline::render::one(g, seat, format, None).unwrap()).unwrap()
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
        let path = dir.join("game").to_str().unwrap().to_string();
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
            // rule cases test rules, not password hashing: each order file
            // is checked in a moment instead of an Argon2id of the standard cost
            "--light-passwords",
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
            toml::from_str(&std::fs::read_to_string(dir.join("game/secrets.toml")).unwrap())
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
        let state = head(Path::new(&self.path));
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
    // Value's own FromStr: serde_json's parser as built optimised, not
    // one compiled into the unoptimised test binary.
    html[a..b].parse().expect("the page data is JSON")
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

/// Whether `hay` holds `needle`, found by memchr's searcher. The test
/// binary is built unoptimised (Cargo.toml, `[profile.test]`), and
/// `str::contains` is compiled into it, where it scans a long report
/// several times slower; memchr is built optimised with the dependencies.
/// For the scans that read every report of whole games.
pub fn holds(hay: &str, needle: &str) -> bool {
    memchr::memmem::find(hay.as_bytes(), needle.as_bytes()).is_some()
}

/// How often `needle` stands in `hay` (not overlapping), found as
/// [`holds`] finds it.
pub fn count_in(hay: &str, needle: &str) -> usize {
    memchr::memmem::find_iter(hay.as_bytes(), needle.as_bytes()).count()
}

/// The cells (`data-hex`) a board picture draws in groups whose class
/// starts with `class` (`hex fog`: every fogged hex, whatever lies under
/// the fog). Works on a whole SVG or the part of a page that holds one.
pub fn cells_drawn_as(svg: &str, class: &str) -> Vec<String> {
    let mut out = Vec::new();
    let open = format!(r#"<g class="{class}"#);
    let mut rest = svg;
    while let Some(i) = rest.find(&open) {
        let group = &rest[i..];
        let end = group.find("</g>").unwrap_or(group.len());
        for part in group[..end].split(r#"data-hex=""#).skip(1) {
            if let Some((cell, _)) = part.split_once('"') {
                out.push(cell.to_string());
            }
        }
        rest = &group[end..];
    }
    out
}
