//! The order-file envelope (docs/design.md, "Errors and order files"): which game, which
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

pub mod lenient;
pub mod slips;

use crate::error::Problem;
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
    /// The `tz` line's ask, where the file has one: the player's time
    /// zone, which the file's password vouches for (README, "Time zones").
    pub tz: Option<Zone>,
    /// Where the `tz` line stands in `text` (the whole line but its end),
    /// to be left out of the logged text like the password.
    pub tz_span: Option<Range<usize>>,
}

/// What a `tz = "…"` line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Zone {
    /// This zone, by its IANA name as the built-in database spells it.
    Set(String),
    /// `tz = ""` or `tz = "UTC"`: no zone of one's own; reports show the
    /// deadline in UTC only, as they do for everyone.
    Clear,
}

impl Zone {
    /// The zone a `tz` value asks for, or why it is none.
    pub fn read(value: &str) -> Result<Zone, String> {
        let v = value.trim();
        if v.is_empty() || v.eq_ignore_ascii_case("UTC") {
            return Ok(Zone::Clear);
        }
        crate::time::zone(v).map(|tz| Zone::Set(tz.name().to_string()))
    }
}

#[derive(Debug, Clone, Default)]
pub struct HeaderLines {
    pub game: usize,
    pub player: usize,
    pub turn: usize,
    pub password: usize,
    pub tz: usize,
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

/// The keys of an order file, in the order the form prints them; `tz`,
/// the player's time zone, is the one a file may leave out.
pub const KEYS: [&str; 6] = ["game", "player", "turn", "password", "tz", "orders"];

/// What an order file looks like, for errors that cannot say more.
pub const SHAPE: &str = "an order file looks like:\n  game = \"<game id>\"\n  player = \"<your id>\"\n  turn = <the turn in your report>\n  password = \"<your password>\"\n  orders = [\n    \"<order>\",\n    \"<order>\",\n  ]";

/// Where each line starts, to turn byte offsets into line numbers in
/// O(log n) each (counting newlines from the start for every order was the
/// quadratic step that made a 1 MB file take minutes).
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
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
    fn line(&self, offset: usize) -> usize {
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
        "timezone" | "time_zone" | "time-zone" | "zone" | "tzname" | "tz_name" => Some("tz"),
        _ => None,
    };
    // `tz` is too short to be near: every two-letter word is.
    synonym.or_else(|| {
        KEYS.into_iter()
            .filter(|k| *k != "tz")
            .find(|want| distance(k, want) <= 2)
    })
}

/// Edit distance (insertions, deletions, substitutions, swaps of
/// neighbours) between two short words; large words are never near.
pub fn distance(a: &str, b: &str) -> usize {
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
fn what(key: &str) -> &'static str {
    match key {
        "game" => "game id",
        "player" => "player id",
        "turn" => "turn",
        "password" => "password",
        "orders" => "order",
        "tz" => "time zone",
        _ => "value",
    }
}

impl OrderFile {
    /// Parse an order file. Every problem with the envelope is listed, one
    /// each, naming the line and what to write instead.
    ///
    /// A whole report pasted back (or quoted in a mail reply) works too:
    /// everything up to the report's `----- ORDERS` line is ignored, and a
    /// form quoted with `>` is unquoted. Without that line, words before the
    /// first `game =` line (a greeting in a mail) are ignored. Line numbers
    /// still count from the top of what was sent.
    pub fn parse(name: &str, sent: &str) -> Result<OrderFile, Vec<Problem>> {
        if sent.len() > MAX_BYTES {
            return Err(vec![Problem::in_file(
                name,
                format!(
                    "this is {} bytes; an order file may be at most {MAX_BYTES} bytes (64 KiB): send only the order form",
                    sent.len()
                ),
            )]);
        }
        let (body, skipped) = order_form(sent);
        let norm = normalise(&body);
        let mut r = Reader {
            name,
            norm: &norm,
            index: LineIndex::new(&norm),
            skipped,
            problems: Vec::new(),
        };
        let doc = r.document()?;
        let header = r.header(&doc);
        let mut lines = HeaderLines::default();
        let game = r.string(&header.game, "game", &mut lines.game);
        let player = r.string(&header.player, "player", &mut lines.player);
        let password = r.string(&header.password, "password", &mut lines.password);
        let turn = r.turn(&header.turn, &mut lines.turn);
        let tz = r.zone(&header.tz, &mut lines.tz);
        let orders = header.orders.as_ref().and_then(|k| r.orders(k));
        r.missing(&header);
        match (game, player, turn, password, orders) {
            (
                Some((game, _)),
                Some((player, _)),
                Some(turn),
                Some((password, span)),
                Some(orders),
            ) if r.problems.is_empty() => Ok(OrderFile {
                name: name.to_string(),
                text: body,
                game,
                // Player ids are lowercase (`names::RULE`): `Red` is red.
                player: player.to_ascii_lowercase(),
                turn,
                password,
                orders,
                lines,
                password_span: span,
                tz: tz.as_ref().map(|(z, _)| z.clone()),
                tz_span: tz.map(|(_, at)| at),
            }),
            _ => Err(r.problems),
        }
    }

    /// [`OrderFile::parse`], and where the file is refused for its
    /// envelope, the file as meant ([`lenient::read`]) beside the
    /// problems: its orders can be checked too, so that one answer names
    /// every slip. The file stays refused. `Err`: the problems, where not
    /// even the file as meant can be read.
    pub fn parse_as_meant(
        name: &str,
        sent: &str,
    ) -> Result<(OrderFile, Vec<Problem>), Vec<Problem>> {
        match OrderFile::parse(name, sent) {
            Ok(f) => Ok((f, Vec::new())),
            Err(mut problems) => match lenient::read(name, sent) {
                Some((f, more)) => {
                    // The lenient reader's own (a `tz` that is no zone)
                    // where the strict one stopped before it.
                    for p in more {
                        if !problems.iter().any(|q| q.line == p.line) {
                            let at = problems
                                .iter()
                                .position(|q| q.line.is_none() || q.line > p.line)
                                .unwrap_or(problems.len());
                            problems.insert(at, p);
                        }
                    }
                    Ok((f, problems))
                }
                None => Err(problems),
            },
        }
    }

    /// The file as it is kept in the game's log: verbatim but for the
    /// password's value, so a published archive gives no password away,
    /// and the `tz` line, left empty, so it gives no player's zone away
    /// either (not even that they set one).
    pub fn redacted(&self) -> String {
        let mut cuts = vec![(self.password_span.clone(), "\"\"")];
        cuts.extend(self.tz_span.clone().map(|r| (r, "")));
        cuts.sort_by_key(|(r, _)| r.start);
        let mut out = String::with_capacity(self.text.len());
        let mut at = 0;
        for (r, with) in cuts {
            if r.start < at || r.end > self.text.len() {
                continue;
            }
            out.push_str(&self.text[at..r.start]);
            out.push_str(with);
            at = r.end;
        }
        out.push_str(&self.text[at..]);
        out
    }
}

/// What to write for each key an order file leaves out, in [`KEYS`] order.
const MISSING: [(&str, &str); 5] = [
    ("game", "write game = \"<the game id in your report>\""),
    ("player", "write player = \"<your player id>\""),
    (
        "turn",
        "write turn = <number> (the turn your report asks orders for)",
    ),
    (
        "password",
        "write password = \"<the password the moderator sent you>\"",
    ),
    (
        "orders",
        "after the password write your orders in quotes, one a line, between orders = [ and ]",
    ),
];

/// A key of the header as found: its value and the line it stands on.
struct Keyed<'d> {
    item: &'d toml_edit::Item,
    line: usize,
}

/// The header's keys as found in the document, by name; `meant` holds the
/// keys that misspelt keys stand for (told already, so not "missing").
#[derive(Default)]
struct Header<'d> {
    game: Option<Keyed<'d>>,
    player: Option<Keyed<'d>>,
    turn: Option<Keyed<'d>>,
    password: Option<Keyed<'d>>,
    tz: Option<Keyed<'d>>,
    orders: Option<Keyed<'d>>,
    meant: Vec<&'static str>,
}

impl<'d> Header<'d> {
    /// The place for `key`, if it is one of [`KEYS`].
    fn slot(&mut self, key: &str) -> Option<&mut Option<Keyed<'d>>> {
        match key {
            "game" => Some(&mut self.game),
            "player" => Some(&mut self.player),
            "turn" => Some(&mut self.turn),
            "password" => Some(&mut self.password),
            "tz" => Some(&mut self.tz),
            "orders" => Some(&mut self.orders),
            _ => None,
        }
    }

    /// Whether `key` was given (or a misspelling of it, told already).
    fn has(&self, key: &str) -> bool {
        let given = match key {
            "game" => &self.game,
            "player" => &self.player,
            "turn" => &self.turn,
            "password" => &self.password,
            "tz" => &self.tz,
            _ => &self.orders,
        };
        given.is_some() || self.meant.contains(&key)
    }
}

/// One order file being read: its name, its normalised text, where its
/// lines start, and the problems found so far.
struct Reader<'a> {
    name: &'a str,
    norm: &'a str,
    index: LineIndex,
    /// Lines of what was sent above the order form.
    skipped: usize,
    problems: Vec<Problem>,
}

impl<'a> Reader<'a> {
    /// The line, counted from the top of what was sent, of a byte offset.
    fn line_of(&self, offset: usize) -> usize {
        self.index.line(offset) + self.skipped
    }

    fn problem(&mut self, line: usize, reason: String) {
        self.problems.push(Problem::at(self.name, line, reason));
    }

    /// The text as a TOML document, or the slips that keep it from being
    /// one (or TOML's own word when no slip is recognised).
    fn document(&self) -> Result<toml_edit::ImDocument<&'a str>, Vec<Problem>> {
        toml_edit::ImDocument::parse(self.norm).map_err(|e| {
            let found = slips::diagnose(self.norm);
            if !found.is_empty() {
                return found
                    .into_iter()
                    .map(|(line, msg)| Problem::at(self.name, line + self.skipped, msg))
                    .collect();
            }
            let line = e
                .span()
                .map(|s| self.line_of(s.start))
                .unwrap_or(1 + self.skipped);
            let msg = e.message().trim().replace('\n', " ");
            vec![Problem::at(
                self.name,
                line,
                format!("this is not a valid order file ({msg}); {SHAPE}"),
            )]
        })
    }

    /// The document's keys: each of [`KEYS`] with its line; any other key
    /// told as a problem, and the key it was meant to be remembered.
    fn header<'d>(&mut self, doc: &'d toml_edit::ImDocument<&'a str>) -> Header<'d> {
        let mut header = Header::default();
        for (key, item) in doc.as_table().iter() {
            let line = doc
                .as_table()
                .key(key)
                .and_then(|k| k.span())
                .or_else(|| item.span())
                .map(|s| self.line_of(s.start))
                .unwrap_or(1 + self.skipped);
            match header.slot(key) {
                Some(slot) => *slot = Some(Keyed { item, line }),
                None => {
                    header.meant.extend(meant_key(key));
                    self.problem(line, slips::unknown_key(key));
                }
            }
        }
        header
    }

    /// A string key's value (trimmed) and where it stands in the text;
    /// `line` is set to the key's line when the key is there.
    fn string(
        &mut self,
        found: &Option<Keyed>,
        key: &str,
        line: &mut usize,
    ) -> Option<(String, Range<usize>)> {
        let Keyed { item, line: at } = found.as_ref()?;
        *line = *at;
        let what = what(key);
        let reason = match item.as_value() {
            Some(toml_edit::Value::String(s)) => {
                return Some((s.value().trim().to_string(), s.span().unwrap_or(0..0)))
            }
            Some(v) => {
                let shown = raw_of(self.norm, v.span());
                let shown = if key == "password" { "…" } else { shown };
                format!("the {what} needs double quotes: {key} = \"{shown}\"")
            }
            None => format!("write the {what} as {key} = \"…\", not as a table"),
        };
        self.problem(*at, reason);
        None
    }

    /// The `tz` line, if there is one: the zone it asks for and where the
    /// line stands (its end left out); a value that is no zone is told,
    /// with the names nearest to it. `line` is set to the key's line.
    fn zone(&mut self, found: &Option<Keyed>, line: &mut usize) -> Option<(Zone, Range<usize>)> {
        let (value, span) = self.string(found, "tz", line)?;
        match Zone::read(&value) {
            Ok(z) => {
                let start = self.index.starts[*line - self.skipped - 1];
                let from = span.end.max(start);
                let end = self.norm[from..]
                    .find('\n')
                    .map_or(self.norm.len(), |i| from + i);
                Some((z, start..end))
            }
            Err(why) => {
                self.problem(*line, why);
                None
            }
        }
    }

    /// The turn: a whole number without quotes; `line` is set to the
    /// key's line when the key is there.
    fn turn(&mut self, found: &Option<Keyed>, line: &mut usize) -> Option<u32> {
        let Keyed { item, line: at } = found.as_ref()?;
        *line = *at;
        let reason = match item.as_value() {
            Some(toml_edit::Value::Integer(v)) => match u32::try_from(*v.value()) {
                Ok(t) => return Some(t),
                Err(_) => format!(
                    "turn {} is not a turn number; write the turn your report asks orders for",
                    v.value()
                ),
            },
            Some(toml_edit::Value::String(s)) if s.value().trim().parse::<u32>().is_ok() => {
                format!(
                    "the turn is a number, without quotes: turn = {}",
                    s.value().trim()
                )
            }
            _ => "the turn is a number, without quotes: turn = 3 (the turn your report asks orders for)".to_string(),
        };
        self.problem(*at, reason);
        None
    }

    /// The orders: a list of strings (the form's way), or one string (one
    /// order, or one order a line); empty orders left out.
    fn orders(&mut self, found: &Keyed) -> Option<Vec<OrderLine>> {
        let at = found.line;
        let mut out = match found.item.as_value() {
            Some(toml_edit::Value::Array(list)) => self.order_list(list, at)?,
            Some(toml_edit::Value::String(s)) => self.order_lines(s, at),
            _ => {
                self.problem(
                    at,
                    "the orders are a list, each in double quotes: orders = [\"<order>\", \"<order>\"]".into(),
                );
                return None;
            }
        };
        if !self.within_limit(out.len(), at) {
            return None;
        }
        out.retain(|o| !o.text.is_empty());
        Some(out)
    }

    /// Whether `n` orders are few enough for one file ([`MAX_ORDERS`]).
    fn within_limit(&mut self, n: usize, at: usize) -> bool {
        if n > MAX_ORDERS {
            self.problem(
                at,
                format!("{n} orders; an order file may hold at most {MAX_ORDERS}"),
            );
        }
        n <= MAX_ORDERS
    }

    /// `orders = ["…", "…"]`: each string an order on its own line.
    fn order_list(&mut self, list: &toml_edit::Array, at: usize) -> Option<Vec<OrderLine>> {
        if !self.within_limit(list.len(), at) {
            return None;
        }
        let before = self.problems.len();
        let mut out = Vec::new();
        for v in list.iter() {
            let line = v.span().map(|s| self.line_of(s.start)).unwrap_or(at);
            match v {
                toml_edit::Value::String(s) => out.push(OrderLine {
                    line,
                    text: tidy(s.value()),
                }),
                other => {
                    let shown = raw_of(self.norm, other.span());
                    let shown = shown.trim_matches(['[', ']', '{', '}']).trim();
                    self.problem(
                        line,
                        format!("each order goes in double quotes: \"{shown}\""),
                    );
                }
            }
        }
        (self.problems.len() == before).then_some(out)
    }

    /// `orders = "…"`: each line of the string an order. A multi-line
    /// string starts on the line after its opening quotes.
    fn order_lines(&self, s: &toml_edit::Formatted<String>, at: usize) -> Vec<OrderLine> {
        let start = s.span().map(|r| self.line_of(r.start)).unwrap_or(at);
        let raw = s.span().and_then(|r| self.norm.get(r)).unwrap_or("");
        let first = start + usize::from(raw.starts_with("\"\"\"\n") || raw.starts_with("'''\n"));
        s.value()
            .split('\n')
            .enumerate()
            .map(|(k, l)| OrderLine {
                line: first + k,
                text: tidy(l),
            })
            .collect()
    }

    /// Each key left out (and not misspelt: that was told already), with
    /// what to write.
    fn missing(&mut self, header: &Header) {
        for (key, what) in MISSING {
            if !header.has(key) {
                self.problems.push(Problem::in_file(
                    self.name,
                    format!("`{key}` is missing: {what}"),
                ));
            }
        }
    }
}

/// An order with its runs of white space made single spaces.
fn tidy(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
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

#[cfg(test)]
mod tests {
    use crate::orders::LineIndex;

    #[test]
    fn line_index_counts_like_counting_newlines() {
        let t = "a\nbb\n\nccc\n";
        let idx = LineIndex::new(t);
        for off in 0..=t.len() {
            let slow = t[..off].bytes().filter(|&b| b == b'\n').count() + 1;
            assert_eq!(idx.line(off), slow, "offset {off}");
        }
    }
}
