//! The slips players make in order files, recognised when TOML refuses a
//! file, each told in the player's words: the line, what is wrong, what to
//! type. One pass over the lines, linear in the text.
//!
//! Found by trying: writing order files by hand and through mail programs
//! and reading what `herald check` answered. What is recognised:
//!
//! - curly quotes (“ ” ‘ ’), which mail programs and word processors put in
//!   place of straight ones;
//! - a string whose closing quote is missing, or is a different quote;
//! - an order split over two lines, as a mail program wraps a long line;
//! - a single-quoted string holding an apostrophe (`'Jarl's'`);
//! - orders without quotes, inside or outside the list;
//! - orders written with no `orders = [` around them, or after its `]`;
//! - a missing comma between two orders, a missing `]`;
//! - a misspelt key, a key given twice, `:` or nothing for `=`, a key with
//!   no value, text after a value (`password = "" abcd-efgh`);
//! - a table header (`[orders]`) for a key.

use super::{meant_key, what, KEYS};

/// Problems found in `text` (already normalised, see `super::normalise`):
/// the 1-based line and the message, at most one per line, in line order.
/// Empty if no known slip explains why TOML refused the file.
pub fn diagnose(text: &str) -> Vec<(usize, String)> {
    let mut d = Diagnosis::default();
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        d.line(i + 1, line, lines.get(i + 1).copied());
    }
    if let Some(a) = d.array.take() {
        d.push(a.line, not_closed(&a.key));
    }
    if let Some((line, delim)) = d.ml.take() {
        d.push(
            line,
            format!("the string opened here with {delim} is never closed: end it with {delim}"),
        );
    }
    d.out.sort_by_key(|(l, _)| *l);
    d.out.dedup_by_key(|(l, _)| *l);
    d.out
}

/// What to say about a key that is not one.
pub fn unknown_key(key: &str) -> String {
    match meant_key(key) {
        Some(k) => format!("`{key}` is not a key of an order file; did you mean `{k}`?"),
        None => format!(
            "`{key}` is not a key of an order file, which has only game, player, turn, password, orders and (if you like) tz"
        ),
    }
}

fn not_closed(key: &str) -> String {
    format!("the {key} list opened here is not closed: end it with ] on its own line after the last order")
}

/// How a key's value is written, for messages.
fn example(key: &str) -> String {
    match key {
        "game" => "game = \"<the game id in your report>\"".into(),
        "player" => "player = \"<your player id>\"".into(),
        "turn" => "turn = <the turn your report asks orders for>".into(),
        "password" => "password = \"<your password>\"".into(),
        "orders" => "orders = [\"<order>\", \"<order>\"]".into(),
        "tz" => "tz = \"<your time zone, e.g. Europe/Berlin>\"".into(),
        k => format!("{k} = \"…\""),
    }
}

/// The value written right: `key = "value"`, or `"order",` in the list.
/// A password is never repeated back: the reply to a mail is kept.
fn fixed(key: Option<&str>, value: &str) -> String {
    let v = value.trim().trim_matches(is_quote).trim();
    match key {
        Some("password") => "password = \"…\"".into(),
        Some("turn") => format!("turn = {v}"),
        Some(k) if k != "orders" => format!("{k} = \"{v}\""),
        _ => format!("\"{v}\","),
    }
}

fn is_quote(c: char) -> bool {
    matches!(c, '"' | '\'') || curly(c).is_some()
}

/// Curly and other typographic quotes: the pair to name in the message.
fn curly(c: char) -> Option<&'static str> {
    match c {
        '“' | '”' | '„' | '‟' | '″' | '〝' | '〞' | '＂' | '«' | '»' => {
            Some("(“ ”)")
        }
        '‘' | '’' | '‚' | '‛' | '′' => Some("(‘ ’)"),
        _ => None,
    }
}

struct Array {
    key: String,
    line: usize,
    depth: usize,
    /// A string ended on this line and no comma followed yet.
    need_comma: Option<(usize, String)>,
}

#[derive(Default)]
struct Diagnosis {
    out: Vec<(usize, String)>,
    /// Inside a multi-line string: where it opened and its delimiter.
    ml: Option<(usize, &'static str)>,
    array: Option<Array>,
    keys: Vec<(String, usize)>,
    /// The line the orders list closed on.
    orders_closed: Option<usize>,
    /// The previous line ended inside a string this quote closes: the
    /// next line is read from just after it.
    resume: Option<char>,
    /// The last line told to be split (one message for a run of them).
    split: Option<usize>,
}

enum KeyLine<'a> {
    /// key, the separator written (`=` or `:`), the value text.
    Key(&'a str, char, &'a str),
    /// A key of an order file followed by neither `=` nor `:`.
    NoEquals(&'a str),
    NotKey,
}

fn split_key(t: &str) -> KeyLine<'_> {
    let end = t
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        .map(|(i, _)| i)
        .unwrap_or(t.len());
    let (key, rest) = if t.starts_with('"') || t.starts_with('\'') {
        let q = t.as_bytes()[0] as char;
        match t[1..].find(q) {
            Some(p) => (&t[1..1 + p], &t[p + 2..]),
            None => return KeyLine::NotKey,
        }
    } else {
        (&t[..end], &t[end..])
    };
    if key.is_empty() {
        return KeyLine::NotKey;
    }
    let r = rest.trim_start();
    match r.chars().next() {
        Some(c @ ('=' | ':')) => KeyLine::Key(key, c, &r[1..]),
        Some(c) if KEYS.contains(&key) && (matches!(c, '"' | '\'' | '[') || c.is_ascii_digit()) => {
            KeyLine::NoEquals(key)
        }
        _ => KeyLine::NotKey,
    }
}

/// `key =` at the start of a line.
fn looks_like_key_line(t: &str) -> bool {
    matches!(split_key(t), KeyLine::Key(_, '=', _))
        && t.starts_with(|c: char| c.is_ascii_alphabetic())
}

/// A bare word or order as written, without the list's punctuation.
fn bare(t: &str) -> String {
    let t = t.split(" #").next().unwrap_or(t);
    t.trim()
        .trim_end_matches(',')
        .trim()
        .trim_matches(|c: char| is_quote(c))
        .trim()
        .to_string()
}

impl Diagnosis {
    fn push(&mut self, line: usize, msg: String) {
        self.out.push((line, msg));
    }

    fn seen(&self, key: &str) -> bool {
        self.keys.iter().any(|(k, _)| k == key)
    }

    /// Look at line `n` (`next` is the line after it).
    ///
    /// Long (about 100 lines): one branch a kind of line, sharing the
    /// scanner's state as [`Self::value`] does.
    fn line(&mut self, n: usize, line: &str, next: Option<&str>) {
        let mut rest = line;
        let mut resumed = false;
        if let Some(q) = self.resume.take() {
            // The second half of a split order: read on after its quote.
            if let Some(p) = line.find(q) {
                rest = &line[p + q.len_utf8()..];
                resumed = true;
            }
        }
        if let Some((_, delim)) = self.ml {
            match line.find(delim) {
                Some(p) => {
                    self.ml = None;
                    resumed = true;
                    rest = &line[p + delim.len()..];
                }
                None => return,
            }
        }
        let t = rest.trim();
        if t.is_empty() || t.starts_with('#') {
            return;
        }
        if self.array.is_some() && looks_like_key_line(t) {
            let a = self.array.take().expect("checked");
            self.push(a.line, not_closed(&a.key));
        }
        if self.array.is_some() || resumed {
            let key = self.array.as_ref().map(|a| a.key.clone());
            self.value(n, rest, key.as_deref(), next);
            return;
        }
        if t.starts_with('[') {
            let name = t.trim_matches(['[', ']', ' ']);
            if let Some(k) = KEYS
                .iter()
                .find(|k| **k == name)
                .copied()
                .or_else(|| meant_key(name))
            {
                self.push(
                    n,
                    format!("`{t}` starts a table; write {} instead", example(k)),
                );
            }
            return;
        }
        match split_key(t) {
            KeyLine::Key(k, sep, v) => {
                let k = k.to_string();
                if sep == ':' {
                    self.push(n, format!("write `{k} = …` with =, not with :"));
                } else if !KEYS.contains(&k.as_str()) {
                    self.push(n, unknown_key(&k));
                } else if let Some((_, m)) = self.keys.iter().find(|(s, _)| *s == k) {
                    let m = *m;
                    self.push(
                        n,
                        format!("`{k}` is given twice (also on line {m}); keep one"),
                    );
                }
                self.keys.push((k.clone(), n));
                let known = meant_key(&k).unwrap_or("value");
                let key = if KEYS.contains(&k.as_str()) {
                    k.as_str()
                } else {
                    known
                };
                if v.trim().is_empty() || v.trim().starts_with('#') {
                    self.push(n, format!("`{k} =` has no value: write {}", example(key)));
                    return;
                }
                let key = key.to_string();
                self.value(n, v, Some(&key), next);
            }
            KeyLine::NoEquals(k) => {
                self.keys.push((k.to_string(), n));
                self.push(
                    n,
                    format!("the = is missing after `{k}`: write {}", example(k)),
                );
            }
            KeyLine::NotKey => {
                let shown = bare(t);
                if let Some(m) = self.orders_closed {
                    self.push(
                        n,
                        format!("`{shown}` is outside the orders list, which ends with ] on line {m}: put each order inside it, in double quotes: \"{shown}\","),
                    );
                } else if !self.keys.is_empty() && !self.seen("orders") {
                    self.push(
                        n,
                        format!("`{shown}` is not in an orders list: put orders = [ on a line above your orders and ] on a line below them, each order in double quotes: \"{shown}\","),
                    );
                }
            }
        }
    }

    /// Scan a value (after `key =`, or a line inside a list).
    ///
    /// Long (about 170 lines): one branch a slip, each reading and changing
    /// the scanner's state; split, every piece would take the whole state.
    fn value(&mut self, n: usize, seg: &str, key: Option<&str>, next: Option<&str>) {
        let cs: Vec<(usize, char)> = seg.char_indices().collect();
        let mut j = 0;
        while j < cs.len() {
            let c = cs[j].1;
            match c {
                ' ' | '\t' => j += 1,
                '#' => break,
                ',' => {
                    if let Some(a) = &mut self.array {
                        a.need_comma = None;
                    }
                    j += 1;
                }
                '[' => {
                    match &mut self.array {
                        Some(a) => a.depth += 1,
                        None => {
                            self.array = Some(Array {
                                key: key.unwrap_or("orders").to_string(),
                                line: n,
                                depth: 1,
                                need_comma: None,
                            })
                        }
                    }
                    j += 1;
                }
                ']' => {
                    if let Some(a) = &mut self.array {
                        a.need_comma = None;
                        a.depth -= 1;
                        if a.depth == 0 {
                            if a.key == "orders" {
                                self.orders_closed = Some(n);
                            }
                            self.array = None;
                        }
                    }
                    j += 1;
                }
                '"' | '\'' => {
                    self.comma_before();
                    let triple = cs.get(j + 1).map(|x| x.1) == Some(c)
                        && cs.get(j + 2).map(|x| x.1) == Some(c);
                    if triple {
                        let delim = if c == '"' { "\"\"\"" } else { "'''" };
                        let from = cs[j].0 + 3;
                        match seg[from..].find(delim) {
                            Some(p) => {
                                let end = from + p + 3;
                                j = cs.partition_point(|x| x.0 < end);
                            }
                            None => {
                                self.ml = Some((n, delim));
                                return;
                            }
                        }
                        continue;
                    }
                    let mut k = j + 1;
                    let close = loop {
                        match cs.get(k) {
                            None => break None,
                            Some((_, '\\')) if c == '"' => k += 2,
                            Some((_, x)) if *x == c => break Some(k),
                            Some(_) => k += 1,
                        }
                    };
                    let from = cs.get(j + 1).map(|x| x.0).unwrap_or(seg.len());
                    match close {
                        Some(k) => {
                            let content = &seg[from..cs[k].0];
                            j = k + 1;
                            if c == '\'' && cs.get(j).is_some_and(|x| x.1.is_alphanumeric()) {
                                let upto = seg.rfind('\'').unwrap_or(seg.len());
                                self.push(n, format!(
                                    "a string in single quotes cannot hold an apostrophe ('): use double quotes: {}",
                                    fixed(key, &seg[from..upto.max(from)])
                                ));
                                return;
                            }
                            if let Some(a) = &mut self.array {
                                a.need_comma = Some((n, content.to_string()));
                            } else if let Some(k) = key {
                                let after =
                                    seg[cs.get(j).map(|x| x.0).unwrap_or(seg.len())..].trim();
                                if !after.is_empty() && !after.starts_with('#') {
                                    let shown = if k == "password" {
                                        "…".to_string()
                                    } else {
                                        bare(after)
                                    };
                                    self.push(n, format!(
                                        "`{shown}` after the {} is not understood: the {} goes between the quotes: {}",
                                        what(k), what(k), fixed(Some(k), if k == "password" { "" } else { content })
                                    ));
                                    return;
                                }
                            }
                        }
                        None => return self.unclosed(n, c, &seg[from..], key, next),
                    }
                }
                q if curly(q).is_some() => {
                    self.comma_before();
                    let from = cs.get(j + 1).map(|x| x.0).unwrap_or(seg.len());
                    let end = seg[from..]
                        .find(is_quote)
                        .map(|p| from + p)
                        .unwrap_or(seg.len());
                    let whose = match key {
                        Some(k) if k != "orders" && self.array.is_none() => {
                            format!("the {}", what(k))
                        }
                        _ => "an order".into(),
                    };
                    self.push(n, format!(
                        "{whose} is in curly quotes {}, which mail programs insert; use straight quotes: {}",
                        curly(q).expect("a curly quote"),
                        fixed(key, &seg[from..end])
                    ));
                    return;
                }
                _ => {
                    self.comma_before();
                    let from = cs[j].0;
                    let end = seg[from..]
                        .find([',', ']', '#'])
                        .map(|p| from + p)
                        .unwrap_or(seg.len());
                    let token = seg[from..end].trim();
                    j = cs.partition_point(|x| x.0 < end);
                    let number = token.parse::<i64>().is_ok();
                    match (&mut self.array, key) {
                        (Some(a), _) => {
                            a.need_comma = Some((n, token.to_string()));
                            self.push(
                                n,
                                format!("each order goes in double quotes: \"{}\",", bare(token)),
                            );
                            return;
                        }
                        (None, Some("turn")) if number => {}
                        (None, _) if token == "true" || token == "false" || number => {}
                        (None, Some("turn")) => {
                            self.push(n, format!(
                                "the turn is a number, without quotes: turn = 3 (the turn your report asks orders for), not `{token}`"
                            ));
                            return;
                        }
                        (None, k) => {
                            self.push(
                                n,
                                format!(
                                    "the {} needs double quotes: {}",
                                    what(k.unwrap_or("")),
                                    fixed(k, token)
                                ),
                            );
                            return;
                        }
                    }
                }
            }
        }
    }

    /// A string was opened in the list and not followed by a comma.
    fn comma_before(&mut self) {
        if let Some(a) = &mut self.array {
            if let Some((l, s)) = a.need_comma.take() {
                self.out.push((
                    l,
                    format!(
                    "a comma is missing after \"{s}\": end each order but the last with a comma"
                ),
                ));
            }
        }
    }

    /// A string opened with `q` is still open at the end of the line.
    fn unclosed(
        &mut self,
        n: usize,
        q: char,
        content: &str,
        key: Option<&str>,
        next: Option<&str>,
    ) {
        let c = content.trim_end();
        if let Some(last) = c.chars().last().filter(|l| is_quote(*l) && *l != q) {
            let inner = &c[..c.len() - last.len_utf8()];
            self.push(n, format!(
                "the {} opens with {q} but closes with {last}: use straight double quotes at both ends: {}",
                what(key.unwrap_or("orders")),
                fixed(key, inner)
            ));
            if let Some(a) = &mut self.array {
                a.need_comma = Some((n, inner.to_string()));
            }
            return;
        }
        let in_orders = self.array.is_some() || key == Some("orders");
        let closes_next = next.is_some_and(|l| l.contains(q));
        if in_orders && closes_next {
            if self.split != Some(n.wrapping_sub(1)) {
                self.push(n, "an order is split across two lines, probably by your mail program: keep each order on its own line".into());
            }
            self.split = Some(n);
            self.resume = Some(q);
            if let Some(a) = &mut self.array {
                a.need_comma = None;
            }
            return;
        }
        self.push(
            n,
            format!(
                "the {} has no closing quote: {}",
                what(key.unwrap_or("orders")),
                fixed(key, content.trim_end_matches(',').trim_end_matches(']'))
            ),
        );
    }
}
