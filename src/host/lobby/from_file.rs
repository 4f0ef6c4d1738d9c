//! Tables from files (docs/host.md, "Tables from a file"): the moderator
//! writes `DIR/lobby/open/<table>.toml` with the keys of `herald host
//! open`'s options (`game = "norse-wars"`, `seats = "3-6"`, `option =
//! ["fog=on"]`, `press = "grey"` …), and the next pass opens the table
//! exactly as `herald host open DIR <table> --game … ` would: the same
//! [`super::open`] checks it and writes it. The file is then moved to
//! `lobby/open/opened/<table>.toml`, kept as written.
//!
//! A file that does not check is left in place, and each pass tells the
//! moderator (in the host log and the pass's output) what is wrong, as
//! `FILE:LINE: key …` with what would be accepted, until it is fixed or
//! removed.
//!
//! Crash safety: the table records the file's sha256 (`from_file`); a
//! pass cut short between opening the table and moving the file finds its
//! table already open from these very bytes, and only moves the file.

use super::{HostDir, OpenTable};
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Problem, Result};
use crate::names::Name;
use crate::pipeline::press::Settings;
use crate::store::write;
use toml_edit::{ImDocument, Item, Value};

/// The keys a table file may hold: `herald host open`'s options, without
/// their `--` (an `_` may stand for a `-`).
pub const KEYS: [&str; 19] = [
    "game",
    "seats",
    "option",
    "deadline-every",
    "nmr",
    "starts-when",
    "vacation-days",
    "vacation",
    "approve-takeovers",
    "drop-after",
    "seats-per-address",
    "min-reliability",
    "min-rating",
    "max-rating",
    "press",
    "press-while-resolving",
    "press-after-end",
    "press-reveal",
    "bot-seats",
];

/// No table file is longer than this (bytes).
pub const MAX_FILE: u64 = 64 * 1024;

/// The line (from 1) of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// A table file read: its keys, each with its line.
struct Read {
    open: OpenTable,
    /// (key as `herald host open` spells it, line).
    lines: Vec<(&'static str, usize)>,
}

impl Read {
    fn line(&self, key: &str) -> Option<usize> {
        self.lines.iter().find(|(k, _)| *k == key).map(|(_, l)| *l)
    }
}

/// What a value must be, for the message that says it is not.
fn want(key: &str) -> &'static str {
    match key {
        "seats" => "a number or \"MIN-MAX\" (seats = \"3-6\")",
        "option" => "a list of \"key=value\" (option = [\"fog=on\"])",
        "bot-seats" => "a list of \"seat=bot\" (bot-seats = [\"bot=mcts:1000\"])",
        "vacation-days" | "drop-after" | "seats-per-address" => {
            "a whole number (vacation-days = 14)"
        }
        "approve-takeovers" => "true or false",
        "press-while-resolving" | "press-after-end" => "\"yes\" or \"no\" (or true, false)",
        _ => "a quoted word (game = \"norse-wars\")",
    }
}

/// Read the text of `<table>.toml` into what `herald host open` takes;
/// every problem as `FILE:LINE: …`.
///
/// Long (about 90 lines): one loop over the file's keys, each checked and its
/// line kept for the problems found later; the values are taken by `take`.
fn read(
    file: &str,
    table: &Name,
    text: &str,
    now: &str,
) -> std::result::Result<Read, Vec<Problem>> {
    let doc = ImDocument::parse(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(1);
        vec![Problem::at(
            file,
            line,
            format!(
                "not valid TOML ({}); a table file holds lines such as `game = \"norse-wars\"`",
                e.message().trim().replace('\n', ": ")
            ),
        )]
    })?;
    let mut problems = Vec::new();
    let mut o = OpenTable {
        table: table.as_str().to_string(),
        game: String::new(),
        seats: None,
        options: Vec::new(),
        deadline_every: None,
        nmr: None,
        starts_when: "full".into(),
        now: now.to_string(),
        vacation_days: super::seats::VACATION_DAYS,
        vacation: None,
        approve_takeovers: false,
        drop_after: None,
        seats_per_address: None,
        min_reliability: None,
        min_rating: None,
        max_rating: None,
        press: Settings::default(),
        from_file: Some(sha256_hex(text.as_bytes())),
        bot_seats: Vec::new(),
    };
    let mut lines = Vec::new();
    let mut game = None;
    for (written, item) in doc.as_table().iter() {
        let line = doc
            .as_table()
            .key(written)
            .and_then(|k| k.span())
            .or_else(|| item.span())
            .map(|s| line_of(text, s.start))
            .unwrap_or(1);
        let mut normal = written.replace('_', "-").to_ascii_lowercase();
        // `herald host open --ruleset`: the files written before say `game`.
        if normal == "ruleset" {
            normal = "game".to_string();
        }
        let Some(key) = KEYS.iter().copied().find(|k| *k == normal) else {
            problems.push(Problem::at(
                file,
                line,
                format!(
                    "`{}` is not a key of a table file; the keys are those of `herald host open`: ruleset (or game), {}",
                    written.chars().take(40).collect::<String>(),
                    KEYS[1..].join(", ")
                ),
            ));
            continue;
        };
        lines.push((key, line));
        let Item::Value(v) = item else {
            problems.push(Problem::at(
                file,
                line,
                format!("{key}: give {} on one line", want(key)),
            ));
            continue;
        };
        for _ in 0..take(&mut o, &mut game, key, v) {
            problems.push(Problem::at(
                file,
                line,
                format!("{key}: give {}", want(key)),
            ));
        }
    }
    match game {
        Some(g) => o.game = g,
        None if problems.is_empty() => problems.push(Problem::in_file(
            file,
            format!(
                "`game = \"GAME\"` is missing: the game the table plays, one of {}",
                crate::games::names().join(", ")
            ),
        )),
        None => {}
    }
    if problems.is_empty() {
        Ok(Read { open: o, lines })
    } else {
        Err(problems)
    }
}

/// Take value `v` of `key` into `o` (or `game`); the number of values
/// that are not what the key takes (an `option` list may hold several).
fn take(o: &mut OpenTable, game: &mut Option<String>, key: &str, v: &Value) -> usize {
    let mut bad = 0;
    let string = |v: &Value| v.as_str().map(str::to_string);
    match key {
        "option" | "bot-seats" => {
            let list = if key == "option" {
                &mut o.options
            } else {
                &mut o.bot_seats
            };
            match v {
                Value::String(s) => list.push(s.value().clone()),
                Value::Array(a) => {
                    for x in a.iter() {
                        match x.as_str() {
                            Some(s) => list.push(s.to_string()),
                            None => bad += 1,
                        }
                    }
                }
                _ => bad += 1,
            }
        }
        "seats" => match v {
            Value::Integer(n) => o.seats = Some(n.value().to_string()),
            Value::String(s) => o.seats = Some(s.value().clone()),
            _ => bad += 1,
        },
        "vacation-days" | "drop-after" | "seats-per-address" | "min-reliability" | "min-rating"
        | "max-rating" => match v.as_integer().and_then(|n| u32::try_from(n).ok()) {
            Some(n) if key == "vacation-days" => o.vacation_days = n,
            Some(n) if key == "min-reliability" => o.min_reliability = Some(n),
            Some(n) if key == "min-rating" => o.min_rating = Some(n),
            Some(n) if key == "max-rating" => o.max_rating = Some(n),
            Some(n) if key == "seats-per-address" => o.seats_per_address = Some(n),
            Some(n) => o.drop_after = Some(n),
            None => bad += 1,
        },
        "approve-takeovers" => match v.as_bool() {
            Some(b) => o.approve_takeovers = b,
            None => bad += 1,
        },
        "press-while-resolving" | "press-after-end" => {
            let yes_no = match v {
                Value::Boolean(b) => Some(if *b.value() { "yes" } else { "no" }.to_string()),
                Value::String(s) => Some(s.value().clone()),
                _ => None,
            };
            match yes_no {
                None => bad += 1,
                Some(y) if key == "press-after-end" => o.press.after_end = Some(y),
                Some(y) => o.press.while_resolving = Some(y),
            }
        }
        _ => match string(v) {
            None => bad += 1,
            Some(s) => match key {
                "game" => *game = Some(s),
                "deadline-every" => o.deadline_every = Some(s),
                "nmr" => o.nmr = Some(s),
                "starts-when" => o.starts_when = s,
                "vacation" => o.vacation = Some(s),
                "press" => o.press.kind = Some(s),
                _ => o.press.reveal = Some(s),
            },
        },
    }
    bad
}

/// A problem `herald host open` found, said of the file: one that names
/// a flag (`--seats 9: …`) is put on the line of that key.
fn of_file(file: &str, r: &Read, problem: &str) -> String {
    let mut keys: Vec<&str> = KEYS.to_vec();
    keys.sort_by_key(|k| std::cmp::Reverse(k.len()));
    for k in keys {
        let Some(rest) = problem.strip_prefix("--").and_then(|p| p.strip_prefix(k)) else {
            continue;
        };
        if !(rest.is_empty() || rest.starts_with([' ', ':'])) {
            continue;
        }
        // Options are checked with each number of players: "with 3
        // players: …" is caught below.
        let said = as_key(k, rest);
        return match r.line(k) {
            Some(l) => Problem::at(file, l, said).to_string(),
            None => Problem::in_file(file, said).to_string(),
        };
    }
    if problem.starts_with("with ") {
        if let Some(l) = r.line("option") {
            return Problem::at(file, l, format!("option: {problem}")).to_string();
        }
    }
    Problem::in_file(file, problem).to_string()
}

/// A flag's problem said of the file's key: `--seats 9: … e.g. --seats
/// 3-6` becomes `seats 9: … e.g. seats = "3-6"`, the line to write in
/// the file rather than the flag to type.
fn as_key(k: &str, rest: &str) -> String {
    let flag = format!("e.g. --{k} ");
    match rest.find(&flag) {
        Some(i) => {
            let after = &rest[i + flag.len()..];
            let end = after.find([';', ',']).unwrap_or(after.len());
            let value = after[..end].trim();
            format!(
                "{k}{}e.g. {k} = {}{}",
                &rest[..i],
                toml::Value::String(value.to_string()),
                &after[end..]
            )
        }
        None => format!("{k}{rest}"),
    }
}

/// Open the table of one file, or say why not. Returns the line for the
/// pass's output.
fn open_one(host: &HostDir, table: &Name, now: &str) -> Result<String> {
    let path = host.table_file(table);
    let file = path.display().to_string();
    let meta = std::fs::metadata(&path).map_err(|e| Error::io(&path, e))?;
    if meta.len() > MAX_FILE {
        return Err(Error::refused(format!(
            "{file}: {} bytes; a table file is at most {MAX_FILE}",
            meta.len()
        )));
    }
    let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::refused(format!("{file}: not UTF-8 text; a table file is TOML")))?;
    let hash = sha256_hex(text.as_bytes());
    // A pass cut short after opening this very file's table: only the
    // move is left to do.
    if let Some(t) = super::load(host, table)? {
        if t.from_file.as_deref() == Some(hash.as_str()) {
            put_away(host, table)?;
            return Ok(format!(
                "opened from {file} (completed after an interrupted pass): {}",
                t.describe()
            ));
        }
    }
    let r = read(&file, table, &text, now).map_err(Error::from_problems)?;
    let t = super::open(host.root(), &r.open)
        .map_err(|e| Error::all(e.problems.iter().map(|p| of_file(&file, &r, p)).collect()))?;
    put_away(host, table)?;
    Ok(format!(
        "opened from {file}: {}; press: {}",
        t.describe(),
        t.press_words()
    ))
}

/// Move an opened table's file to `lobby/open/opened/`.
fn put_away(host: &HostDir, table: &Name) -> Result<()> {
    let to = host.opened_table_file(table);
    write::create_dir(&host.lobby_opened())?;
    std::fs::rename(host.table_file(table), &to).map_err(|e| Error::io(&to, e))?;
    write::sync_dir(&host.lobby_open())?;
    write::sync_dir(&host.lobby_opened())
}

/// Every table file in `lobby/open/`, opened (in the order of their
/// names) or refused: the lines of what was opened, and the problems (each
/// naming its file; the file left in place).
pub fn pick_up(host: &HostDir, now: &str) -> (Vec<String>, Vec<String>) {
    let mut lines = Vec::new();
    let mut problems = Vec::new();
    let Ok(dir) = std::fs::read_dir(host.lobby_open()) else {
        return (lines, problems);
    };
    let mut names: Vec<String> = dir
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.strip_suffix(".toml").map(str::to_string)
        })
        .collect();
    names.sort();
    for n in names {
        let table = match Name::new("table", &n) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!(
                    "{}/{}.toml: the file's name is the table's: {e}; rename the file (left in place)",
                    host.lobby_open().display(),
                    n.chars().take(40).collect::<String>()
                ));
                continue;
            }
        };
        match open_one(host, &table, now) {
            Ok(l) => lines.push(format!("{table}: {l}")),
            Err(e) => problems.push(format!(
                "table {table} not opened: {} (the file is left in place: fix it, and the next pass opens the table)",
                e.problems.join("; ")
            )),
        }
    }
    (lines, problems)
}
