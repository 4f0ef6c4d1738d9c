//! The order-file envelope (DESIGN.md, "Order file"): which game, which
//! player, which turn, the password, and the order lines with the line
//! numbers they stand on in the file, so errors can point at them.
//!
//! An order file comes from a player's hands through a mail program, so
//! reading it is forgiving where the meaning is plain and precise where it
//! is not (README, "Order files: what herald forgives and what it refuses"):
//!
//! - Accepted silently: a byte-order mark, Windows (CR LF) or old Mac (CR)
//!   line ends, non-breaking and other Unicode spaces (mail programs put
//!   them in HTML mail), tabs, and `orders = "…"` written as one string (one
//!   order, or one order a line in a multi-line string).
//! - Refused with one line per slip that names the line and says what to
//!   type ([`slips`]): curly quotes, a missing `orders = [`, an order
//!   without quotes, a missing comma or `]`, an unclosed string, an order
//!   split over two lines by a mail program, a misspelt key, a quoted turn,
//!   a key given twice, `:` for `=`.
//!
//! Parsing is linear in the input: the size is checked before anything
//! else ([`MAX_BYTES`]), the number of orders is capped ([`MAX_ORDERS`]),
//! and line numbers come from one index of line starts.

pub mod slips;

use std::ops::Range;

#[derive(Debug, Clone)]
pub struct OrderLine {
    /// 1-based line in the file.
    pub line: usize,
    pub text: String,
}

#[derive(Debug, Clone)]
pub struct OrderFile {
    /// How errors name the file (its path as given).
    pub name: String,
    pub text: String,
    pub game: String,
    pub player: String,
    pub turn: u32,
    pub password: String,
    pub orders: Vec<OrderLine>,
    /// Line numbers of the header keys, for errors about them.
    pub lines: HeaderLines,
    /// Where the password's value stands in `text` (quotes included).
    pub password_span: Range<usize>,
}

#[derive(Debug, Clone, Default)]
pub struct HeaderLines {
    pub game: usize,
    pub player: usize,
    pub turn: usize,
    pub password: usize,
}

/// The marker line every report prints above its order form.
pub const FORM_MARKER: &str = "----- ORDERS";

/// The largest order file herald reads, in bytes (64 KiB). The longest real
/// one, a War of the Dukes deployment, is about 500 bytes; a whole report
/// pasted or quoted back above the form is at most about 15 KB (a War of the
/// Dukes report with its map). Anything larger is refused before it is
/// parsed, so a hostile file costs no more than a small one.
pub const MAX_BYTES: usize = 64 * 1024;

/// The most orders one file may hold. The longest real list, a War of the
/// Dukes deployment, has 31; a turn of moves and attacks fewer.
pub const MAX_ORDERS: usize = 500;

/// The keys of an order file, in the order the form prints them.
pub const KEYS: [&str; 5] = ["game", "player", "turn", "password", "orders"];

/// What an order file looks like, for errors that cannot say more.
pub const SHAPE: &str = "an order file looks like:\n  game = \"<game id>\"\n  player = \"<your id>\"\n  turn = <the turn in your report>\n  password = \"<your password>\"\n  orders = [\n    \"<order>\",\n    \"<order>\",\n  ]";

/// Where each line starts, to turn byte offsets into line numbers in
/// O(log n) each (counting newlines from the start for every order was the
/// quadratic step that made a 1 MB file take minutes).
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// The 1-based line holding byte `offset`.
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset)
    }
}

/// The order form part of what was sent, and how many lines came before it.
fn order_form(sent: &str) -> (String, usize) {
    let lines: Vec<&str> = sent.split_inclusive('\n').collect();
    let unquote = |l: &str| -> String {
        let t = l.trim_start();
        match t.strip_prefix('>') {
            Some(rest) => rest.strip_prefix(' ').unwrap_or(rest).to_string(),
            None => l.to_string(),
        }
    };
    let Some(at) = lines
        .iter()
        .rposition(|l| unquote(l).starts_with(FORM_MARKER))
        .or_else(|| {
            // No form marker: a mail may still open with a greeting. The
            // file starts at its first `game =` line; a file that starts
            // with it (or has none) is taken whole.
            let first = lines.iter().position(|l| {
                let t = unquote(l);
                let t = t.trim_start_matches(['\u{feff}', ' ', '\t']);
                t.strip_prefix("game")
                    .is_some_and(|r| r.trim_start().starts_with('='))
            })?;
            let prose = lines[..first]
                .iter()
                .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
            (first > 0 && prose).then(|| first - 1)
        })
    else {
        return (sent.to_string(), 0);
    };
    let rest = &lines[at + 1..];
    // A report's signed witness block follows its order form: the form
    // ends there.
    let end = rest
        .iter()
        .position(|l| unquote(l).starts_with("----- HERALD "))
        .unwrap_or(rest.len());
    let rest = &rest[..end];
    let quoted = rest
        .iter()
        .filter(|l| !l.trim().is_empty())
        .all(|l| l.trim_start().starts_with('>'));
    let body: String = if quoted {
        rest.iter().map(|l| unquote(l)).collect()
    } else {
        rest.concat()
    };
    (body, at + 1)
}

/// A copy of `text` of exactly the same length in bytes (so every offset
/// means the same in both) with what mail programs put in that TOML does
/// not take turned into plain whitespace: a byte-order mark, carriage
/// returns (a lone one, an old Mac line end, becomes a newline),
/// non-breaking, narrow and other Unicode spaces, zero-width spaces.
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => out.push(' '),
            '\r' => out.push('\n'),
            '\u{feff}'
            | '\u{a0}'
            | '\u{2000}'..='\u{200d}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{2060}'
            | '\u{3000}' => {
                for _ in 0..c.len_utf8() {
                    out.push(' ');
                }
            }
            c => out.push(c),
        }
    }
    debug_assert_eq!(out.len(), text.len());
    out
}

/// `key` written nearly right: the key meant, if it is plain which.
pub fn meant_key(key: &str) -> Option<&'static str> {
    let k = key.trim().to_ascii_lowercase();
    let k = k.trim_matches(['"', '\'']);
    let synonym = match k {
        "order" | "moves" | "move" | "orders[]" => Some("orders"),
        "pass" | "pwd" | "passwd" | "pw" | "passcode" | "passphrase" => Some("password"),
        "game_id" | "gameid" | "id" => Some("game"),
        "round" | "phase" | "turn_number" => Some("turn"),
        "name" | "me" | "side" | "player_id" => Some("player"),
        _ => None,
    };
    synonym.or_else(|| KEYS.into_iter().find(|want| distance(k, want) <= 2))
}

/// Edit distance (insertions, deletions, substitutions, swaps of
/// neighbours) between two short words; large words are never near.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() > 20 || b.len() > 20 {
        return usize::MAX;
    }
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// How errors call the value of a key.
pub fn what(key: &str) -> &'static str {
    match key {
        "game" => "game id",
        "player" => "player id",
        "turn" => "turn",
        "password" => "password",
        "orders" => "order",
        _ => "value",
    }
}

impl OrderFile {
    /// Parse an order file. Every problem with the envelope is listed, one
    /// line each, naming the line and what to write instead.
    ///
    /// A whole report pasted back (or quoted in a mail reply) works too:
    /// everything up to the report's `----- ORDERS` line is ignored, and a
    /// form quoted with `>` is unquoted. Without that line, words before the
    /// first `game =` line (a greeting in a mail) are ignored. Line numbers
    /// still count from the top of what was sent.
    pub fn parse(name: &str, sent: &str) -> Result<OrderFile, Vec<String>> {
        if sent.len() > MAX_BYTES {
            return Err(vec![format!(
                "{name}: this is {} bytes; an order file may be at most {MAX_BYTES} bytes (64 KiB): send only the order form",
                sent.len()
            )]);
        }
        let (body, skipped) = order_form(sent);
        let norm = normalise(&body);
        let index = LineIndex::new(&norm);
        let line_of = |offset: usize| index.line(offset) + skipped;
        let doc = match toml_edit::ImDocument::parse(norm.as_str()) {
            Ok(d) => d,
            Err(e) => {
                let found = slips::diagnose(&norm);
                if !found.is_empty() {
                    return Err(found
                        .into_iter()
                        .map(|(line, msg)| format!("{name}:{}: {msg}", line + skipped))
                        .collect());
                }
                let line = e.span().map(|s| line_of(s.start)).unwrap_or(1 + skipped);
                let msg = e.message().trim().replace('\n', " ");
                return Err(vec![format!(
                    "{name}:{line}: this is not a valid order file ({msg}); {SHAPE}"
                )]);
            }
        };
        let mut problems = Vec::new();
        let mut lines = HeaderLines::default();
        let mut fields: [Option<(&toml_edit::Item, usize)>; 5] = [None; 5];
        let mut meant: Vec<&str> = Vec::new();
        for (key, item) in doc.as_table().iter() {
            let line = doc
                .as_table()
                .key(key)
                .and_then(|k| k.span())
                .or_else(|| item.span())
                .map(|s| line_of(s.start))
                .unwrap_or(1 + skipped);
            match KEYS.iter().position(|k| *k == key) {
                Some(i) => fields[i] = Some((item, line)),
                None => {
                    meant.extend(meant_key(key));
                    problems.push(format!("{name}:{line}: {}", slips::unknown_key(key)));
                }
            }
        }
        let mut string = |i: usize, line: &mut usize| -> Option<(String, Range<usize>)> {
            let key = KEYS[i];
            let (item, at) = fields[i]?;
            *line = at;
            match item.as_value() {
                Some(toml_edit::Value::String(s)) => {
                    Some((s.value().trim().to_string(), s.span().unwrap_or(0..0)))
                }
                Some(v) => {
                    let shown = raw_of(&norm, v.span());
                    let shown = if key == "password" { "…" } else { shown };
                    problems.push(format!(
                        "{name}:{at}: the {} needs double quotes: {key} = \"{shown}\"",
                        what(key)
                    ));
                    None
                }
                None => {
                    problems.push(format!(
                        "{name}:{at}: write the {} as {key} = \"…\", not as a table",
                        what(key)
                    ));
                    None
                }
            }
        };
        let game = string(0, &mut lines.game);
        let player = string(1, &mut lines.player);
        let password = string(3, &mut lines.password);
        let turn = fields[2].and_then(|(item, at)| {
            lines.turn = at;
            let bad = |problems: &mut Vec<String>, shown: &str| {
                problems.push(format!(
                    "{name}:{at}: the turn is a number, without quotes: turn = {shown}"
                ));
            };
            match item.as_value() {
                Some(toml_edit::Value::Integer(v)) => match u32::try_from(*v.value()) {
                    Ok(t) => Some(t),
                    Err(_) => {
                        problems.push(format!(
                            "{name}:{at}: turn {} is not a turn number; write the turn your report asks orders for",
                            v.value()
                        ));
                        None
                    }
                },
                Some(toml_edit::Value::String(s)) if s.value().trim().parse::<u32>().is_ok() => {
                    bad(&mut problems, s.value().trim());
                    None
                }
                _ => {
                    problems.push(format!(
                        "{name}:{at}: the turn is a number, without quotes: turn = 3 (the turn your report asks orders for)"
                    ));
                    None
                }
            }
        });
        let orders = fields[4].and_then(|(item, at)| {
            orders_of(name, &norm, item, at, &index, skipped, &mut problems)
        });
        let missing = |key: &str, what: &str| format!("{name}: `{key}` is missing: {what}");
        if fields[0].is_none() && !meant.contains(&"game") {
            problems.push(missing(
                "game",
                "write game = \"<the game id in your report>\"",
            ));
        }
        if fields[1].is_none() && !meant.contains(&"player") {
            problems.push(missing("player", "write player = \"<your player id>\""));
        }
        if fields[2].is_none() && !meant.contains(&"turn") {
            problems.push(missing(
                "turn",
                "write turn = <number> (the turn your report asks orders for)",
            ));
        }
        if fields[3].is_none() && !meant.contains(&"password") {
            problems.push(missing(
                "password",
                "write password = \"<the password the moderator sent you>\"",
            ));
        }
        if fields[4].is_none() && !meant.contains(&"orders") {
            problems.push(missing(
                "orders",
                "after the password write your orders in quotes, one a line, between orders = [ and ]",
            ));
        }
        match (game, player, turn, password, orders) {
            (Some(game), Some(player), Some(turn), Some((password, span)), Some(orders))
                if problems.is_empty() =>
            {
                Ok(OrderFile {
                    name: name.to_string(),
                    text: body,
                    game: game.0,
                    player: player.0,
                    turn,
                    password,
                    orders,
                    lines,
                    password_span: span,
                })
            }
            _ => Err(problems),
        }
    }

    /// The file as it is kept in the game's log: verbatim but for the
    /// password's value, so a published archive gives no password away.
    pub fn redacted(&self) -> String {
        let r = &self.password_span;
        format!("{}\"\"{}", &self.text[..r.start], &self.text[r.end..])
    }
}

/// The text a value was written as (one line of it, at most 60 bytes).
fn raw_of(text: &str, span: Option<Range<usize>>) -> &str {
    let Some(r) = span.filter(|r| r.end <= text.len()) else {
        return "";
    };
    let s = text.get(r).unwrap_or("").trim();
    let s = s.lines().next().unwrap_or("");
    match s.char_indices().nth(60) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// The orders: a list of strings (the form's way), or one string (one
/// order, or one order a line).
fn orders_of(
    name: &str,
    norm: &str,
    item: &toml_edit::Item,
    at: usize,
    index: &LineIndex,
    skipped: usize,
    problems: &mut Vec<String>,
) -> Option<Vec<OrderLine>> {
    let line_of = |offset: usize| index.line(offset) + skipped;
    let tidy = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    match item.as_value() {
        Some(toml_edit::Value::Array(list)) => {
            if list.len() > MAX_ORDERS {
                problems.push(format!(
                    "{name}:{at}: {} orders; an order file may hold at most {MAX_ORDERS}",
                    list.len()
                ));
                return None;
            }
            let before = problems.len();
            for v in list.iter() {
                let line = v.span().map(|s| line_of(s.start)).unwrap_or(at);
                match v {
                    toml_edit::Value::String(s) => out.push(OrderLine {
                        line,
                        text: tidy(s.value()),
                    }),
                    other => {
                        let shown = raw_of(norm, other.span());
                        problems.push(format!(
                            "{name}:{line}: each order goes in double quotes: \"{}\"",
                            shown.trim_matches(['[', ']', '{', '}']).trim()
                        ));
                    }
                }
            }
            if problems.len() > before {
                return None;
            }
        }
        Some(toml_edit::Value::String(s)) => {
            // One string: each of its lines an order. A multi-line string
            // starts on the line after its opening quotes.
            let start = s.span().map(|r| line_of(r.start)).unwrap_or(at);
            let raw = s.span().and_then(|r| norm.get(r)).unwrap_or("");
            let first =
                start + usize::from(raw.starts_with("\"\"\"\n") || raw.starts_with("'''\n"));
            for (k, l) in s.value().split('\n').enumerate() {
                out.push(OrderLine {
                    line: first + k,
                    text: tidy(l),
                });
            }
            if out.len() > MAX_ORDERS {
                problems.push(format!(
                    "{name}:{at}: {} orders; an order file may hold at most {MAX_ORDERS}",
                    out.len()
                ));
                return None;
            }
        }
        _ => {
            problems.push(format!(
                "{name}:{at}: the orders are a list, each in double quotes: orders = [\"<order>\", \"<order>\"]"
            ));
            return None;
        }
    }
    out.retain(|o| !o.text.is_empty());
    Some(out)
}
