//! The moderator's workflows: new, check, resolve, verify, status, reports,
//! demo. Every command of the CLI is a thin call into this module.

use crate::auth;
use crate::error::{Error, Result};
use crate::file::{self, GameFile, LogEntry, OrderRecord, Outcome, Player, Ruleset};
use crate::games::{self, AnyOrder, AnyState, Entry, Options, Seat, Session};
use crate::mail;
use crate::nmr;
use crate::orders::OrderFile;
use crate::report;
use crate::rng;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A game file with its ruleset loaded and its state decoded.
pub struct Loaded {
    pub file: GameFile,
    pub entry: &'static Entry,
    pub session: Box<dyn Session>,
    pub state: AnyState,
}

impl Loaded {
    pub fn open(path: &Path) -> Result<Loaded> {
        let file = GameFile::load(path)?;
        Loaded::from_file(file, &path.display().to_string())
    }

    pub fn from_file(file: GameFile, name: &str) -> Result<Loaded> {
        let entry = games::find(&file.game).ok_or_else(|| {
            Error::refused(format!(
                "{name}: game `{}` is not one this herald knows ({})",
                file.game,
                games::names().join(", ")
            ))
        })?;
        let session = entry
            .load(&file.ruleset.text)
            .map_err(|e| Error::refused(format!("{name}: {e}")))?;
        let state = session
            .decode(&file.state)
            .map_err(|e| Error::refused(format!("{name}: {e}")))?;
        let loaded = Loaded {
            file,
            entry,
            session,
            state,
        };
        // The header's summary fields must agree with the state.
        let (phase, awaiting, outcome) = loaded.summary();
        if phase != loaded.file.phase
            || awaiting != loaded.file.awaiting
            || outcome != loaded.file.outcome
        {
            return Err(Error::refused(format!("{name}: the header (phase, awaiting, outcome) does not match the game state (hand-edited?)")));
        }
        Ok(loaded)
    }

    pub fn players(&self) -> Vec<String> {
        self.file.player_ids()
    }

    pub fn summary(&self) -> (String, Vec<String>, Option<Outcome>) {
        summary(self.session.as_ref(), &self.state, &self.players())
    }

    /// Events a player's report tells: those since the player's last orders
    /// (the result of their own last orders included).
    /// At most one entry per player back, so a player who sends no orders
    /// (eliminated, or never asked) gets the last round, not the whole game.
    pub fn events_for(&self, seat: Seat) -> Vec<(u32, Value)> {
        let id = &self.file.players[seat].id;
        let log = &self.file.log;
        let own = log
            .iter()
            .rposition(|e| e.orders.iter().any(|o| &o.player == id))
            .unwrap_or(0);
        let from = own.max(log.len().saturating_sub(self.file.players.len()));
        log[from..]
            .iter()
            .flat_map(|e| e.events.iter().map(move |v| (e.turn, v.clone())))
            .collect()
    }
}

fn summary(
    session: &dyn Session,
    state: &AnyState,
    players: &[String],
) -> (String, Vec<String>, Option<Outcome>) {
    let outcome = session.outcome(state, players);
    let awaiting = if outcome.is_some() {
        Vec::new()
    } else {
        session
            .awaiting(state)
            .into_iter()
            .map(|s| players[s].clone())
            .collect()
    };
    (session.phase(state), awaiting, outcome)
}

/// Does `password` match a player's stored hash? (Argon2id, or the sha256
/// hashes of herald 0.1 files; both in constant time.)
pub fn password_matches(password: &str, stored: &str) -> bool {
    auth::matches(password, stored)
}

pub struct NewGame {
    pub game: String,
    pub rules: Option<PathBuf>,
    pub players: Vec<String>,
    pub seed: Option<String>,
    pub options: Vec<String>,
    pub setup: Option<PathBuf>,
    pub id: Option<String>,
    pub out: PathBuf,
    pub reports: Option<PathBuf>,
    pub now: chrono::DateTime<chrono::FixedOffset>,
    /// Demos only: derive passwords and salts from the seed, so the whole
    /// demo is reproducible. Never for real games: the seed is revealed.
    pub secrets_from_seed: bool,
    /// Hash passwords with [`auth::Cost::Light`] (demos and tests that play
    /// thousands of games); real games use the standard cost.
    pub light_passwords: bool,
    /// Deadlines, missed orders, addresses: how the game runs by mail.
    pub mail: MailSettings,
}

/// `new`'s settings for running a game by mail (issue 7).
#[derive(Debug, Clone, Default)]
pub struct MailSettings {
    /// `--deadline-every`, e.g. "72h", "3d", "90m".
    pub deadline_every: Option<String>,
    /// `--deadline`: the first phase's deadline (RFC 3339).
    pub deadline: Option<String>,
    /// `--nmr`: hold, repeat or bot (default: the game's first policy).
    pub nmr: Option<String>,
    /// `--drop-after`: missed phases in a row before a player drops out
    /// (0: never; default 3).
    pub drop_after: Option<u32>,
    /// `--moderator`: the From address of replies and report mails.
    pub moderator: Option<String>,
    /// `--email player=address`.
    pub emails: Vec<String>,
}

/// Missed phases in a row after which a player drops out, unless `new` says.
pub const DEFAULT_DROP_AFTER: u32 = 3;

/// `secs` after `t`, as RFC 3339 in `t`'s offset.
pub fn after(t: &chrono::DateTime<chrono::FixedOffset>, secs: u64) -> String {
    (*t + chrono::Duration::seconds(secs as i64)).to_rfc3339()
}

/// "72h", "3d", "90m", "45s" or a bare number of hours: seconds.
pub fn parse_interval(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => (&s[..i], s[i..].trim()),
        None => (s, "h"),
    };
    let n: u64 = num.parse().ok().filter(|n| *n > 0)?;
    let mult = match unit {
        "s" => 1,
        "m" | "min" => 60,
        "h" => 3600,
        "d" => 86400,
        "w" => 7 * 86400,
        _ => return None,
    };
    n.checked_mul(mult)
}

/// Seconds as hours, minutes or seconds: 259200 → "72h".
pub fn interval_text(secs: u64) -> String {
    if secs % 3600 == 0 {
        format!("{}h", secs / 3600)
    } else if secs % 60 == 0 {
        format!("{}m", secs / 60)
    } else {
        format!("{secs}s")
    }
}

pub struct Created {
    pub file: GameFile,
    pub passwords: Vec<(String, String)>,
    pub notes: Vec<String>,
    pub secrets: PathBuf,
    pub reports: Vec<PathBuf>,
}

pub fn secrets_path(game: &Path) -> PathBuf {
    let stem = game
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into());
    game.with_file_name(format!("{stem}.secrets.toml"))
}

pub fn default_reports(game: &Path) -> PathBuf {
    match game.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join("reports"),
        _ => PathBuf::from("reports"),
    }
}

fn valid_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 32
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

pub fn create(req: NewGame) -> Result<Created> {
    let entry = games::find(&req.game).ok_or_else(|| {
        Error::usage(format!(
            "no game called `{}`; herald knows: {}",
            req.game,
            games::names().join(", ")
        ))
    })?;
    let rules_text = match &req.rules {
        Some(p) => file::read_text(p)?,
        None => entry.ruleset.to_string(),
    };
    let session = entry.load(&rules_text).map_err(Error::refused)?;
    let mut problems = Vec::new();
    for p in &req.players {
        if !valid_id(p) {
            problems.push(format!(
                "player id `{p}`: use lowercase letters, digits, - and _ (at most 32)"
            ));
        }
    }
    let mut sorted = req.players.clone();
    sorted.sort();
    sorted.dedup();
    if sorted.len() != req.players.len() {
        problems.push("a player id is given twice".into());
    }
    let specs = (entry.options)();
    let mut options = Options::new();
    for o in &req.options {
        let Some((k, v)) = o.split_once('=') else {
            problems.push(format!("--option {o}: write it as key=value"));
            continue;
        };
        let (k, v) = (k.trim(), v.trim());
        if !specs.iter().any(|s| s.name == k) {
            let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
            problems.push(format!(
                "--option {k}: {} has no such option; it has: {}",
                entry.title,
                known.join(", ")
            ));
            continue;
        }
        options.insert(k.to_string(), v.to_string());
    }
    let nmr = match &req.mail.nmr {
        None => entry.nmr[0],
        Some(n) => match games::Nmr::parse(n).filter(|p| entry.nmr.contains(p)) {
            Some(p) => p,
            None => {
                let offered: Vec<&str> = entry.nmr.iter().map(|p| p.name()).collect();
                problems.push(format!(
                    "--nmr {n}: {} offers {} (see games/{}.md)",
                    entry.title,
                    offered.join(", "),
                    entry.name
                ));
                entry.nmr[0]
            }
        },
    };
    let deadline_every = match &req.mail.deadline_every {
        None => None,
        Some(d) => match parse_interval(d) {
            Some(secs) => Some(secs),
            None => {
                problems.push(format!(
                    "--deadline-every {d}: write a number and a unit, e.g. 72h, 3d, 90m"
                ));
                None
            }
        },
    };
    let first_deadline = match (&req.mail.deadline, deadline_every) {
        (Some(d), _) => match chrono::DateTime::parse_from_rfc3339(d) {
            Ok(t) => Some(t.to_rfc3339()),
            Err(e) => {
                problems.push(format!(
                    "--deadline {d}: not an RFC 3339 time ({e}); e.g. 2026-12-01T18:00:00Z"
                ));
                None
            }
        },
        (None, Some(secs)) => Some(after(&req.now, secs)),
        (None, None) => None,
    };
    let mut emails = BTreeMap::new();
    for e in &req.mail.emails {
        match e.split_once('=') {
            Some((p, a)) if req.players.iter().any(|x| x == p.trim()) && a.contains('@') => {
                emails.insert(p.trim().to_string(), a.trim().to_string());
            }
            Some((p, _)) if !req.players.iter().any(|x| x == p.trim()) => problems.push(format!(
                "--email {e}: `{}` is not one of the players ({})",
                p.trim(),
                req.players.join(", ")
            )),
            _ => problems.push(format!(
                "--email {e}: write it as player=address, e.g. red=red@example.org"
            )),
        }
    }
    if req.out.exists() {
        problems.push(format!(
            "{} exists already; herald never overwrites a game file with `new`",
            req.out.display()
        ));
    }
    if !problems.is_empty() {
        return Err(Error::all(problems));
    }
    let setup_text = match &req.setup {
        Some(p) => Some(file::read_text(p)?),
        None => None,
    };
    let seed = req.seed.clone().unwrap_or_else(|| rng::os_hex(32));
    let commitment = file::sha256_hex(seed.as_bytes());
    let id = match &req.id {
        Some(id) if valid_id(id) => id.clone(),
        Some(id) => {
            return Err(Error::usage(format!(
                "--id {id}: use lowercase letters, digits, - and _"
            )))
        }
        None => format!(
            "{}-{}-{}",
            abbreviation(entry.name),
            req.now.format("%Y-%m-%d"),
            &commitment[..6]
        ),
    };
    let mut rng = rng::phase_rng(&seed, &id, 0, "setup");
    let (state, notes) = session
        .setup(&req.players, &options, setup_text.as_deref(), &mut rng)
        .map_err(|e| {
            Error::all(
                e.lines()
                    .map(|l| {
                        format!(
                            "{}: {l}",
                            req.setup
                                .as_ref()
                                .map(|p| p.display().to_string())
                                .unwrap_or_else(|| "setup".into())
                        )
                    })
                    .collect(),
            )
        })?;
    let value = session.encode(&state);
    let cost = if req.light_passwords || req.secrets_from_seed {
        auth::Cost::Light
    } else {
        auth::Cost::Standard
    };
    let mut passwords = Vec::new();
    let mut secret_rng = req
        .secrets_from_seed
        .then(|| rng::phase_rng(&seed, &id, 0, "demo secrets"));
    let players = req
        .players
        .iter()
        .map(|p| {
            let (pw, salt) = auth::new_secret(secret_rng.as_mut());
            passwords.push((p.clone(), pw.clone()));
            Player {
                id: p.clone(),
                name: p.clone(),
                email: emails.get(p).cloned(),
                password: auth::hash(&pw, &salt, cost),
            }
        })
        .collect();
    let (phase, awaiting, outcome) = summary(session.as_ref(), &state, &req.players);
    let initial_sha256 = GameFile::state_hash(&value);
    let file = GameFile {
        format: file::FORMAT,
        herald: env!("CARGO_PKG_VERSION").to_string(),
        game: entry.name.to_string(),
        id,
        ruleset: Ruleset {
            name: entry.name.to_string(),
            sha256: file::sha256_hex(rules_text.as_bytes()),
            text: rules_text,
        },
        players,
        options,
        setup: setup_text,
        seed_commitment: commitment,
        seed: Some(seed),
        created: req.now.to_rfc3339(),
        turn: 0,
        phase,
        awaiting,
        deadline: first_deadline,
        deadline_every,
        nmr: Some(nmr.name().to_string()),
        drop_after: Some(req.mail.drop_after.unwrap_or(DEFAULT_DROP_AFTER)),
        moderator: req.mail.moderator.clone(),
        outcome,
        initial_sha256,
        initial: value.clone(),
        state: value,
        log: Vec::new(),
    };
    let secrets = secrets_path(&req.out);
    let mut text = format!("# herald passwords for game {}.\n# Give each player their own password only; the game file keeps only salted hashes.\n[passwords]\n", file.id);
    for (p, pw) in &passwords {
        text.push_str(&format!("{p} = \"{pw}\"\n"));
    }
    file::write_atomic(&req.out, file.to_text().as_bytes())?;
    file::write_atomic(&secrets, text.as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&secrets, std::fs::Permissions::from_mode(0o600));
    }
    let loaded = Loaded {
        file,
        entry,
        session,
        state,
    };
    let dir = req
        .reports
        .clone()
        .unwrap_or_else(|| default_reports(&req.out));
    let reports = write_reports(&loaded, &dir)?;
    Ok(Created {
        file: loaded.file,
        passwords,
        notes,
        secrets,
        reports,
    })
}

fn abbreviation(name: &str) -> String {
    name.split('-').filter_map(|w| w.chars().next()).collect()
}

/// Orders that passed every check, ready to resolve.
pub struct Accepted {
    pub orders: BTreeMap<Seat, Vec<AnyOrder>>,
    pub records: Vec<OrderRecord>,
    /// For `check`'s output: each file with its parsed orders.
    pub summary: Vec<(String, String, Vec<String>)>,
}

/// Check order files against the game: envelope, password, turn, whose
/// turn, every order line, the orders together. Every problem is listed.
pub fn check_orders(
    g: &Loaded,
    files: &[(String, String)],
    verify_passwords: bool,
) -> Result<Accepted> {
    let mut problems = Vec::new();
    let mut orders: BTreeMap<Seat, Vec<AnyOrder>> = BTreeMap::new();
    let mut records = Vec::new();
    let mut summary = Vec::new();
    let awaiting = g.session.awaiting(&g.state);
    if let Some(o) = &g.file.outcome {
        // Name every file refused, as for any other refusal.
        let why = format!(
            "game {} is over ({}); no more orders are taken",
            g.file.id, o.summary
        );
        let mut problems: Vec<String> = files
            .iter()
            .map(|(name, _)| format!("{name}: {why}"))
            .collect();
        if problems.is_empty() {
            problems.push(why);
        }
        return Err(Error::all(problems));
    }
    let ids = g.players();
    for (name, text) in files {
        let of = match OrderFile::parse(name, text) {
            Ok(o) => o,
            Err(p) => {
                problems.extend(p);
                continue;
            }
        };
        if of.game != g.file.id {
            problems.push(format!(
                "{name}:{}: these orders are for game `{}`, but this is game `{}`",
                of.lines.game, of.game, g.file.id
            ));
            continue;
        }
        let Some(seat) = ids.iter().position(|p| *p == of.player) else {
            problems.push(format!(
                "{name}:{}: `{}` is not a player of this game ({})",
                of.lines.player,
                of.player,
                ids.join(", ")
            ));
            continue;
        };
        if verify_passwords && !password_matches(&of.password, &g.file.players[seat].password) {
            problems.push(format!(
                "{name}:{}: wrong password for {}; nothing from this file is used",
                of.lines.password, of.player
            ));
            continue;
        }
        if of.turn != g.file.turn {
            let why = if of.turn < g.file.turn {
                "stale: that turn is resolved"
            } else {
                "not yet"
            };
            problems.push(format!(
                "{name}:{}: these orders are for turn {} ({why}); the game waits for turn {}",
                of.lines.turn, of.turn, g.file.turn
            ));
            continue;
        }
        if !awaiting.contains(&seat) {
            let who: Vec<&str> = awaiting.iter().map(|&s| ids[s].as_str()).collect();
            problems.push(format!(
                "{name}: {} has no orders due on turn {}; the game waits for {}",
                of.player,
                g.file.turn,
                who.join(", ")
            ));
            continue;
        }
        if orders.contains_key(&seat) {
            problems.push(format!(
                "{name}: a second order file for {} on turn {}; send one file per player",
                of.player, g.file.turn
            ));
            continue;
        }
        let mut parsed = Vec::new();
        let mut lines = Vec::new();
        let mut bad = false;
        for line in &of.orders {
            match g.session.parse_order(&g.state, seat, &line.text) {
                Ok(o) => {
                    lines.push(line.line);
                    parsed.push(o);
                }
                Err(e) => {
                    bad = true;
                    problems.push(format!("{name}:{}: \"{}\": {e}", line.line, line.text));
                }
            }
        }
        if bad {
            continue;
        }
        let found = g.session.check(&g.state, seat, &parsed);
        for p in &found {
            match p.order {
                Some(i) => problems.push(format!(
                    "{name}:{}: \"{}\": {}",
                    lines[i], of.orders[i].text, p.message
                )),
                None => problems.push(format!("{name}: {}", p.message)),
            }
        }
        if !found.is_empty() {
            continue;
        }
        summary.push((
            name.clone(),
            of.player.clone(),
            parsed.iter().map(|o| o.text.clone()).collect(),
        ));
        let text = of.redacted();
        records.push(OrderRecord {
            player: of.player.clone(),
            sha256: file::sha256_hex(text.as_bytes()),
            text,
            nmr: None,
            received: None,
        });
        orders.insert(seat, parsed);
    }
    if !problems.is_empty() {
        return Err(Error::all(problems));
    }
    records.sort_by(|a, b| {
        ids.iter()
            .position(|p| *p == a.player)
            .cmp(&ids.iter().position(|p| *p == b.player))
    });
    Ok(Accepted {
        orders,
        records,
        summary,
    })
}

/// Resolve the awaited phase: every awaited player's orders are needed,
/// until the deadline; at or after it, the missed-order policy stands in
/// for the missing. Returns the new game file; nothing is written here.
pub fn resolve(g: &Loaded, files: &[(String, String)], now: &str) -> Result<(GameFile, AnyState)> {
    resolve_received(g, files, &BTreeMap::new(), now)
}

/// As [`resolve`], with the dates the files' mails were sent, by file name.
pub fn resolve_received(
    g: &Loaded,
    files: &[(String, String)],
    received: &BTreeMap<String, String>,
    now: &str,
) -> Result<(GameFile, AnyState)> {
    let seed = seed_of(&g.file)?;
    let accepted = accept_all(g, files, received, now, seed)?;
    Ok(advance(g, seed, accepted, now))
}

/// The seed a resolve needs: only the moderator's copy has it.
fn seed_of(file: &GameFile) -> Result<&str> {
    file.seed.as_deref().ok_or_else(|| {
        Error::refused("this copy of the game file has no seed: resolve with the moderator's copy")
    })
}

/// Has the current phase's deadline passed at `now`?
pub fn deadline_passed(file: &GameFile, now: &str) -> bool {
    let due = file
        .deadline
        .as_deref()
        .and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok());
    let now = chrono::DateTime::parse_from_rfc3339(now).ok();
    matches!((due, now), (Some(d), Some(n)) if n >= d)
}

/// Check the files; every awaited player must have sent one, or, once the
/// deadline has passed, gets the missed-order policy's orders.
fn accept_all(
    g: &Loaded,
    files: &[(String, String)],
    received: &BTreeMap<String, String>,
    now: &str,
    seed: &str,
) -> Result<Accepted> {
    let mut accepted = check_orders(g, files, true)?;
    for (name, player, _) in &accepted.summary {
        if let Some(t) = received.get(name) {
            if let Some(r) = accepted.records.iter_mut().find(|r| &r.player == player) {
                r.received = Some(t.clone());
            }
        }
    }
    let awaiting = g.session.awaiting(&g.state);
    let ids = g.players();
    let missing: Vec<Seat> = awaiting
        .iter()
        .copied()
        .filter(|s| !accepted.orders.contains_key(s))
        .collect();
    if missing.is_empty() {
        return Ok(accepted);
    }
    if !deadline_passed(&g.file, now) {
        let names: Vec<&str> = missing.iter().map(|&s| ids[s].as_str()).collect();
        let policy = nmr::policy(&g.file, g.entry).name();
        let when = match &g.file.deadline {
            Some(d) => format!(
                "the deadline is {d}; at or after it `herald resolve` stands in for them with the missed-order policy `{policy}`"
            ),
            None => "this phase has no deadline; `herald deadline <game> <time>` sets one".into(),
        };
        return Err(Error::refused(format!(
            "turn {} still needs orders from {} ({when})",
            g.file.turn,
            names.join(", ")
        )));
    }
    for seat in missing {
        let (policy, lines) = nmr::stand_in(g, seat, seed);
        let id = &ids[seat];
        let text = format!(
            "# herald: no orders from {id} for turn {} by the deadline {}; missed-order policy `{}`.\n{}",
            g.file.turn,
            g.file.deadline.as_deref().unwrap_or("-"),
            policy.name(),
            report::order_file(&g.file.id, id, g.file.turn, "", &lines)
        );
        let name = format!("missed orders of {id}");
        let mut stand = check_orders(g, &[(name, text)], false)?;
        for r in &mut stand.records {
            r.nmr = Some(policy.name().to_string());
        }
        accepted.records.extend(stand.records);
        accepted.orders.extend(stand.orders);
        accepted.summary.extend(stand.summary);
    }
    accepted
        .records
        .sort_by_key(|r| ids.iter().position(|p| *p == r.player));
    Ok(accepted)
}

fn advance(g: &Loaded, seed: &str, accepted: Accepted, now: &str) -> (GameFile, AnyState) {
    let mut file = g.file.clone();
    let state = step(g.session.as_ref(), &mut file, &g.state, seed, accepted, now);
    (file, state)
}

/// Resolve one phase: the new state, and the file's log, turn and summary
/// brought up to date in place.
fn step(
    session: &dyn Session,
    file: &mut GameFile,
    state: &AnyState,
    seed: &str,
    accepted: Accepted,
    now: &str,
) -> AnyState {
    let phase = session.phase(state);
    let mut rng = rng::phase_rng(seed, &file.id, file.turn, &phase);
    let (mut next, mut events) = session.resolve(state, &accepted.orders, &mut rng);
    // Players at their limit of missed phases in a row drop out.
    let mut dropped = Vec::new();
    let limit = file.drop_after.unwrap_or(0);
    for r in accepted.records.iter().filter(|r| r.nmr.is_some()) {
        if limit == 0 || nmr::streak(&file.log, &r.player) + 1 < limit {
            continue;
        }
        let Some(seat) = file.player_index(&r.player) else {
            continue;
        };
        if let Some((after, more)) = session.drop_out(&next, seat) {
            next = after;
            events.extend(more);
            dropped.push(r.player.clone());
        }
    }
    let value = session.encode(&next);
    let mut entry = LogEntry {
        turn: file.turn,
        phase,
        orders: accepted.records,
        events,
        prev: file.chain_head(),
        state_sha256: GameFile::state_hash(&value),
        resolved_at: now.to_string(),
        deadline: file.deadline.clone(),
        dropped,
        hash: String::new(),
    };
    entry.hash = entry.compute_hash();
    file.log.push(entry);
    file.turn += 1;
    file.state = value;
    let (phase, awaiting, outcome) = summary(session, &next, &file.player_ids());
    file.phase = phase;
    file.awaiting = awaiting;
    // The next phase's deadline runs from this resolution.
    file.deadline = match (file.deadline_every, &outcome) {
        (Some(secs), None) => chrono::DateTime::parse_from_rfc3339(now)
            .ok()
            .map(|t| after(&t, secs)),
        _ => None,
    };
    file.outcome = outcome;
    next
}

/// As [`resolve`], but brings `g` itself to the next turn (no copy of the
/// file): for demos, playouts and replays. On an error `g` is unchanged.
pub fn resolve_in_place(g: &mut Loaded, files: &[(String, String)], now: &str) -> Result<()> {
    let seed = seed_of(&g.file)?.to_string();
    let accepted = accept_all(g, files, &BTreeMap::new(), now, &seed)?;
    g.state = step(
        g.session.as_ref(),
        &mut g.file,
        &g.state,
        &seed,
        accepted,
        now,
    );
    Ok(())
}

/// `herald resolve`: check, resolve, keep the old file, write the new one
/// and every player's report.
/// With no order files named, the ones `herald inbox` stored for this turn
/// in `<stem>.orders/turn-NNNN/` are used. With `eml`, each report is also
/// written as a ready-to-send mail (`<player>.eml`) for players with an
/// address.
pub fn resolve_files(
    path: &Path,
    order_paths: &[PathBuf],
    now: &str,
    reports: Option<&Path>,
    force: bool,
    eml: bool,
) -> Result<(Loaded, Vec<PathBuf>)> {
    let g = Loaded::open(path)?;
    let (files, received) = if order_paths.is_empty() {
        let mut files = Vec::new();
        let mut received = BTreeMap::new();
        for w in mail::waiting(path, g.file.turn)? {
            let name = w.path.display().to_string();
            if let Some(a) = w.arrival {
                received.insert(name.clone(), a.received);
            }
            files.push((name, w.text));
        }
        (files, received)
    } else {
        (read_order_files(order_paths)?, BTreeMap::new())
    };
    let (file, state) = resolve_received(&g, &files, &received, now)?;
    let backup = archive_path(path, g.file.turn);
    if backup.exists() && file::read_text(&backup)? != file::read_text(path)? {
        if !force {
            return Err(Error::refused(format!(
                "{} exists and differs from the file being replaced; move it away or pass --force",
                backup.display()
            )));
        }
        std::fs::remove_file(&backup).map_err(|e| Error::io(&backup, e))?;
    }
    let loaded = Loaded {
        file,
        entry: g.entry,
        session: g.session,
        state,
    };
    // The new game file goes to disk (and waits for it) while the reports
    // are rendered; the reports are written once the game file is safe.
    let text = loaded.file.to_text();
    let (saved, rendered) = std::thread::scope(|s| {
        // This thread only waits on the disk; it allocates next to nothing.
        let save = s.spawn(|| -> Result<()> {
            if !backup.exists() {
                file::keep_copy(path, &backup)?;
            }
            file::write_atomic(path, text.as_bytes())
        });
        let rendered = render_reports(&loaded);
        (
            save.join().expect("the writer thread does not panic"),
            rendered,
        )
    });
    saved?;
    let dir = reports
        .map(Path::to_path_buf)
        .unwrap_or_else(|| default_reports(path));
    let rendered = rendered?;
    let mut mails = Vec::new();
    if eml {
        for (seat, r) in rendered.iter().enumerate() {
            if let Some(m) = mail::report_mail(&loaded, seat, r, now) {
                mails.push((seat, m));
            }
        }
    }
    let mut written = store_reports(&loaded, &dir, rendered)?;
    let turn_dir = dir.join(format!("turn-{:04}", loaded.file.turn));
    for (seat, m) in mails {
        let p = turn_dir.join(format!("{}.eml", loaded.file.players[seat].id));
        file::write_replace(&p, &m)?;
        written.push(p);
    }
    Ok((loaded, written))
}

/// Where `resolve` keeps the file it replaces: `<stem>.archive/turn-NNNN.json`
/// beside the game file.
pub fn archive_path(game: &Path, turn: u32) -> PathBuf {
    let stem = game
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into());
    game.with_file_name(format!("{stem}.archive"))
        .join(format!("turn-{turn:04}.json"))
}

pub fn read_order_files(paths: &[PathBuf]) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for p in paths {
        match std::fs::read_to_string(p) {
            Ok(t) => out.push((p.display().to_string(), t)),
            Err(e) => problems.push(format!("{}: {e}", p.display())),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(Error::all(problems))
    }
}

/// Render one player's report in a format: "text", "json", "svg" or "html"
/// (`report_png` for the PNG).
pub fn report(g: &Loaded, seat: Seat, format: &str) -> Result<String> {
    let svg = || {
        g.session
            .svg(&g.state, &g.players(), seat, &g.events_for(seat))
            .map_err(Error::refused)
    };
    if format == "svg" {
        return svg();
    }
    let (view, board) = g
        .session
        .view(&g.state, &g.players(), seat, &g.events_for(seat))
        .map_err(Error::refused)?;
    match format {
        "text" => report::text(g, seat, &view, &board),
        "json" => Ok(report::json(g, seat, view)),
        "html" => {
            let text = report::text(g, seat, &view, &board)?;
            report::html(g, seat, &text, &svg()?, &view)
        }
        other => Err(Error::usage(format!(
            "--format {other}: use text, json, svg, png, html or eml"
        ))),
    }
}

/// One player's board as a PNG (`board::svg::PNG_WIDTH` pixels wide, or
/// as wide as the picture asks: `board::svg::png_width_of`).
pub fn report_png(g: &Loaded, seat: Seat) -> Result<Vec<u8>> {
    crate::board::svg::png_sized(&report(g, seat, "svg")?).map_err(Error::refused)
}

/// Write every player's reports for the current turn: text, view.json, the
/// board as SVG and PNG.
pub fn write_reports(g: &Loaded, dir: &Path) -> Result<Vec<PathBuf>> {
    let rendered = render_reports(g)?;
    store_reports(g, dir, rendered)
}

/// One player's report in every form the reports directory keeps.
pub fn render_report(g: &Loaded, seat: Seat) -> Result<report::Rendered> {
    let players = g.players();
    let events = g.events_for(seat);
    let (view, board) = g
        .session
        .view(&g.state, &players, seat, &events)
        .map_err(Error::refused)?;
    let svg = g
        .session
        .svg(&g.state, &players, seat, &events)
        .map_err(Error::refused)?;
    let text = report::text(g, seat, &view, &board)?;
    let png = crate::board::svg::png_sized(&svg).map_err(Error::refused)?;
    Ok(report::Rendered {
        text,
        json: report::json(g, seat, view),
        svg,
        png,
    })
}

/// Every player's report, in seat order; the pictures are rasterised on
/// both cores.
pub fn render_reports(g: &Loaded) -> Result<Vec<report::Rendered>> {
    let n = g.file.players.len();
    let half = n.div_ceil(2);
    let (a, b) = std::thread::scope(|s| {
        let first = s.spawn(|| {
            (0..half)
                .map(|seat| render_report(g, seat))
                .collect::<Vec<_>>()
        });
        let second: Vec<_> = (half..n).map(|seat| render_report(g, seat)).collect();
        (
            first.join().expect("a report thread does not panic"),
            second,
        )
    });
    a.into_iter().chain(b).collect()
}

fn store_reports(g: &Loaded, dir: &Path, rendered: Vec<report::Rendered>) -> Result<Vec<PathBuf>> {
    let turn_dir = dir.join(format!("turn-{:04}", g.file.turn));
    std::fs::create_dir_all(&turn_dir).map_err(|e| Error::io(&turn_dir, e))?;
    let mut written = Vec::new();
    for (p, r) in g.file.players.iter().zip(rendered) {
        for (ext, bytes) in [
            ("txt", r.text.as_bytes()),
            ("json", r.json.as_bytes()),
            ("svg", r.svg.as_bytes()),
            ("png", &r.png[..]),
        ] {
            let f = turn_dir.join(format!("{}.{ext}", p.id));
            file::write_replace(&f, bytes)?;
            written.push(f);
        }
    }
    Ok(written)
}

/// `herald verify`: replay the whole game from its setup and check every
/// hash. Returns a list of findings; empty means the archive is sound.
pub fn verify(path: &Path, seed: Option<&str>) -> Result<Vec<String>> {
    let text = file::read_text(path)?;
    let file: GameFile = serde_json::from_str(&text)
        .map_err(|e| Error::refused(format!("{}: not a herald game file: {e}", path.display())))?;
    let mut problems = file.integrity_problems();
    if !problems.is_empty() {
        return Ok(problems);
    }
    let seed = match (seed, &file.seed) {
        (Some(s), _) => s.to_string(),
        (None, Some(s)) => s.clone(),
        (None, None) => {
            return Ok(vec![
                "no seed: give --seed (revealed in the final reports) to replay the game".into(),
            ])
        }
    };
    if file::sha256_hex(seed.as_bytes()) != file.seed_commitment {
        return Ok(vec![
            "the seed does not match the commitment printed in every report".into(),
        ]);
    }
    let g = match replay(&file, &seed, file.log.len(), |_| Ok(()))? {
        Ok(g) => g,
        Err(found) => return Ok(found),
    };
    if file::canonical(&g.file.state) != file::canonical(&file.state) {
        problems.push("the final state differs from the replayed one".into());
    }
    Ok(problems)
}

/// Replay `file` from its setup through its first `upto` log entries with
/// `seed`, checking each replayed entry against the recorded one. `visit`
/// sees the game after setup and after each entry. `Ok(Err(findings))`
/// when the replay departs from the record.
pub fn replay(
    file: &GameFile,
    seed: &str,
    upto: usize,
    mut visit: impl FnMut(&Loaded) -> Result<()>,
) -> Result<std::result::Result<Loaded, Vec<String>>> {
    let mut problems = Vec::new();
    let entry = games::find(&file.game)
        .ok_or_else(|| Error::refused(format!("unknown game `{}`", file.game)))?;
    let session = entry.load(&file.ruleset.text).map_err(Error::refused)?;
    let players = file.player_ids();
    let mut rng = rng::phase_rng(seed, &file.id, 0, "setup");
    let (state, _) = match session.setup(&players, &file.options, file.setup.as_deref(), &mut rng) {
        Ok(s) => s,
        Err(e) => return Ok(Err(vec![format!("setup does not replay: {e}")])),
    };
    if GameFile::state_hash(&session.encode(&state)) != file.initial_sha256 {
        return Ok(Err(vec![
            "setup: the seed and options do not give the recorded initial state".into(),
        ]));
    }
    let mut replay = file.clone();
    replay.log.clear();
    replay.turn = 0;
    replay.state = file.initial.clone();
    let (phase, awaiting, outcome) = summary(session.as_ref(), &state, &players);
    replay.phase = phase;
    replay.awaiting = awaiting;
    replay.outcome = outcome;
    let mut g = Loaded {
        file: replay,
        entry,
        session,
        state,
    };
    visit(&g)?;
    for e in &file.log[..upto.min(file.log.len())] {
        let files: Vec<(String, String)> = e
            .orders
            .iter()
            .map(|o| {
                (
                    format!("turn {} orders of {}", e.turn, o.player),
                    o.text.clone(),
                )
            })
            .collect();
        let mut accepted = match check_orders(&g, &files, false) {
            Ok(a) => a,
            Err(err) => {
                problems.push(format!(
                    "turn {}: the recorded orders are refused on replay: {err}",
                    e.turn
                ));
                return Ok(Err(problems));
            }
        };
        // What herald recorded beside each file: stand-in policy, mail date.
        for r in &mut accepted.records {
            if let Some(o) = e.orders.iter().find(|o| o.player == r.player) {
                r.nmr = o.nmr.clone();
                r.received = o.received.clone();
            }
        }
        g.file.deadline = e.deadline.clone();
        g.state = step(
            g.session.as_ref(),
            &mut g.file,
            &g.state,
            seed,
            accepted,
            &e.resolved_at,
        );
        let last = g.file.log.last().expect("an entry");
        if last.dropped != e.dropped {
            problems.push(format!(
                "turn {}: replay drops {:?}, the log says {:?}",
                e.turn, last.dropped, e.dropped
            ));
        }
        if last.phase != e.phase {
            problems.push(format!(
                "turn {}: replay is in phase {}, the log says {}",
                e.turn, last.phase, e.phase
            ));
        }
        if file::canonical(&last.events) != file::canonical(&e.events) {
            problems.push(format!(
                "turn {}: the replayed events differ from the recorded ones",
                e.turn
            ));
        }
        if last.state_sha256 != e.state_sha256 {
            problems.push(format!(
                "turn {}: the replayed state differs from the recorded one",
                e.turn
            ));
        }
        if !problems.is_empty() {
            return Ok(Err(problems));
        }
        visit(&g)?;
    }
    Ok(Ok(g))
}

/// The status lines for `herald status`.
pub fn status(g: &Loaded) -> String {
    let f = &g.file;
    let mut s = format!(
        "{} — {} ({} {})\n",
        f.id,
        g.entry.title,
        f.ruleset.name,
        &f.ruleset.sha256[..12]
    );
    s.push_str(&format!("players: {}\n", f.player_ids().join(", ")));
    s.push_str(&format!("turn {}, phase {}\n", f.turn, f.phase));
    match &f.outcome {
        Some(o) => s.push_str(&format!("game over: {}\n", o.summary)),
        None => s.push_str(&format!(
            "awaiting orders from: {}\n",
            f.awaiting.join(", ")
        )),
    }
    if let Some(d) = &f.deadline {
        s.push_str(&format!("deadline: {d}\n"));
    }
    let missed: Vec<String> = nmr::missed(f)
        .iter()
        .map(|m| {
            let mut t = format!("{} {}", m.player, m.total);
            if m.dropped {
                t.push_str(" (dropped out)");
            }
            t
        })
        .collect();
    s.push_str(&format!(
        "missed orders: {} (policy {}{})\n",
        missed.join(", "),
        nmr::policy(f, g.entry).name(),
        match f.drop_after {
            Some(n) if n > 0 => format!("; drop-out after {n} in a row"),
            _ => String::new(),
        }
    ));
    s
}

/// `herald demo`: a whole game played by bots through order files and the
/// same resolve as `herald resolve`, then verified.
pub struct Demo {
    pub dir: PathBuf,
    pub game: PathBuf,
    pub turns: u32,
    pub outcome: Option<Outcome>,
    pub verified: Vec<String>,
}

pub fn demo(
    game: &str,
    dir: &Path,
    players: Vec<String>,
    seed: &str,
    options: Vec<String>,
    now: chrono::DateTime<chrono::FixedOffset>,
    max_turns: u32,
) -> Result<Demo> {
    let path = dir.join("game.json");
    if path.exists() {
        return Err(Error::usage(format!(
            "{} exists already; give an empty --out folder",
            path.display()
        )));
    }
    let created = create(NewGame {
        game: game.to_string(),
        rules: None,
        players,
        seed: Some(seed.to_string()),
        options,
        setup: None,
        id: Some(format!("demo-{}", abbreviation(game))),
        out: path.clone(),
        reports: None,
        now,
        secrets_from_seed: true,
        light_passwords: true,
        mail: MailSettings::default(),
    })?;
    let passwords: BTreeMap<String, String> = created.passwords.into_iter().collect();
    let orders_dir = dir.join("orders");
    let stamp = now.to_rfc3339();
    loop {
        let g = Loaded::open(&path)?;
        if g.file.outcome.is_some() || g.file.turn >= max_turns {
            break;
        }
        let mut paths = Vec::new();
        for seat in g.session.awaiting(&g.state) {
            let id = &g.file.players[seat].id;
            let mut rng = rng::phase_rng(seed, &g.file.id, g.file.turn, &format!("bot {id}"));
            let lines = g.session.bot_orders(&g.state, seat, &mut rng);
            let text = report::order_file(&g.file.id, id, g.file.turn, &passwords[id], &lines);
            let p = orders_dir.join(format!("turn-{:04}-{id}.toml", g.file.turn));
            file::write_atomic(&p, text.as_bytes())?;
            paths.push(p);
        }
        resolve_files(&path, &paths, &stamp, None, false, false)?;
    }
    let g = Loaded::open(&path)?;
    let verified = verify(&path, None)?;
    Ok(Demo {
        dir: dir.to_path_buf(),
        game: path,
        turns: g.file.turn,
        outcome: g.file.outcome,
        verified,
    })
}
