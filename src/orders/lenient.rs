//! An order file that was refused for its envelope (a slip in its TOML: a
//! curly quote, a missing comma, a misspelt key, a quoted turn), read
//! again as plainly as it was meant, line by line, so that its orders can
//! be checked too and one answer names every slip (issue 48). The file
//! stays refused: nothing read here is ever stored or resolved.
//!
//! What is read: each header key on a line of its own (`key = value`,
//! `key: value` or `key value`, a key misspelt as [`super::meant_key`]
//! knows it), its value with whatever quotes it has; the orders between
//! `orders = [` and `]`, or, where there is no such list, the lines after
//! the header that are not keys. An order is the text between the first
//! and the last quote of its line (any quotes, curly ones too), or the
//! whole line without quotes. A line holding a single quote is an order
//! broken across two lines or never closed: it is left out, the slip
//! already told says so. One pass over the lines, linear in the text.

use super::{
    meant_key, normalise, order_form, HeaderLines, OrderFile, OrderLine, Zone, MAX_BYTES,
    MAX_ORDERS,
};
use crate::error::Problem;

/// Any quote a player or a mail program may put around a value.
fn is_quote(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | '“'
            | '”'
            | '„'
            | '‟'
            | '″'
            | '〝'
            | '〞'
            | '＂'
            | '«'
            | '»'
            | '‘'
            | '’'
            | '‚'
            | '‛'
            | '′'
    )
}

/// The key a line starts with (an order file's, or a misspelling of one),
/// and what follows it: after `=` or `:`, or a value written straight
/// after the key (a quote, `[`, a digit). `strict`: only with `=`.
fn key_line(t: &str, strict: bool) -> Option<(&'static str, &str)> {
    let end = t
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '-'))
        .map(|(i, _)| i)
        .unwrap_or(t.len());
    let word = &t[..end];
    let key = super::KEYS
        .into_iter()
        .find(|k| k.eq_ignore_ascii_case(word))
        .or_else(|| meant_key(word))?;
    let rest = t[end..].trim_start();
    let first = rest.chars().next()?;
    let rest = match first {
        '=' => &rest[1..],
        ':' if !strict => &rest[1..],
        c if !strict && (is_quote(c) || c == '[' || c.is_ascii_digit()) => rest,
        _ => return None,
    };
    Some((key, rest.trim()))
}

/// A value as meant: the text between its quotes (any quotes), or its
/// first word; a `#` comment after it left out.
fn value(v: &str) -> String {
    let v = v.trim();
    match v.chars().next() {
        Some(q) if is_quote(q) => {
            let inner = &v[q.len_utf8()..];
            match inner.find(is_quote) {
                Some(p) => inner[..p].trim().to_string(),
                None => inner.split(" #").next().unwrap_or("").trim().to_string(),
            }
        }
        _ => v.split_whitespace().next().unwrap_or("").to_string(),
    }
}

/// The orders written on one line of a list (`"a", "b",` or one order
/// without quotes): each with the line. A line with an odd number of
/// quotes is left out.
fn orders_on(line: usize, t: &str, out: &mut Vec<OrderLine>) {
    let t = t.trim().trim_end_matches(']').trim_end();
    let quotes: Vec<(usize, char)> = t.char_indices().filter(|(_, c)| is_quote(*c)).collect();
    if quotes.is_empty() {
        let text = super::tidy(t.trim_end_matches(','));
        if !text.is_empty() && !text.starts_with('#') {
            out.push(OrderLine { line, text });
        }
        return;
    }
    // An odd number of quotes: an order broken across lines, or an
    // apostrophe inside single quotes; the slip told says so.
    if quotes.len() % 2 == 1 {
        return;
    }
    // Pairs of quotes, in order: each pair one order.
    for pair in quotes.chunks(2) {
        let [(a, qa), (b, _)] = pair else {
            return;
        };
        let text = super::tidy(&t[a + qa.len_utf8()..*b]);
        if !text.is_empty() {
            out.push(OrderLine { line, text });
        }
    }
}

/// The order file as meant, if its header (game, player, turn, password)
/// can be read, and the problems only this reading finds (a `tz` that is
/// no zone, which the strict reading may have stopped short of); `None`
/// where it cannot, or the file is too large.
///
/// Long (about 80 lines): one pass over the lines, one branch a kind of
/// line (a key, the orders list opening, a line inside it, its end, a
/// line after the header), sharing where the list stands.
pub fn read(name: &str, sent: &str) -> Option<(OrderFile, Vec<Problem>)> {
    if sent.len() > MAX_BYTES {
        return None;
    }
    let (body, skipped) = order_form(sent);
    let norm = normalise(&body);
    let mut lines = HeaderLines::default();
    let (mut game, mut player, mut turn, mut password) = (None, None, None, None);
    let (mut tz, mut problems) = (None, Vec::new());
    let mut orders: Vec<OrderLine> = Vec::new();
    let mut in_list = false;
    let mut list_seen = false;
    let mut second_list = false;
    for (i, raw) in norm.split('\n').enumerate() {
        let n = i + 1 + skipped;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if in_list {
            if t.starts_with(']') {
                in_list = false;
                continue;
            }
            if key_line(t, true).is_some() {
                // A key after an unclosed list: the list ended above.
                in_list = false;
            } else {
                if !second_list {
                    orders_on(n, t, &mut orders);
                }
                in_list = !t.trim_end().ends_with(']');
                continue;
            }
        }
        if t.starts_with(is_quote) && list_seen && !second_list {
            // An order after the list's `]`.
            orders_on(n, t, &mut orders);
            continue;
        }
        match key_line(t, false) {
            Some(("orders", rest)) => {
                let rest = rest.trim_start_matches('[');
                // A second list is a slip told already ("given twice"):
                // only the first is read.
                let mut found = Vec::new();
                orders_on(n, rest, &mut found);
                if !list_seen {
                    orders.extend(found);
                }
                in_list = !rest.trim_end().ends_with(']');
                second_list = list_seen;
                list_seen = true;
            }
            Some((key, rest)) => {
                let v = value(rest);
                match key {
                    "game" => (game, lines.game) = (Some(v), n),
                    "player" => (player, lines.player) = (Some(v), n),
                    "password" => (password, lines.password) = (Some(v), n),
                    "tz" => {
                        lines.tz = n;
                        match Zone::read(&v) {
                            Ok(z) => tz = Some(z),
                            Err(why) => problems.push(Problem::at(name, n, why)),
                        }
                    }
                    _ => {
                        turn = v.trim_matches(is_quote).parse::<u32>().ok();
                        lines.turn = n;
                    }
                }
            }
            None if game.is_some() && player.is_some() => {
                // An order written with no `orders = [` around it.
                orders_on(n, t, &mut orders);
            }
            None => {}
        }
        if orders.len() > MAX_ORDERS {
            return None;
        }
    }
    let file = OrderFile {
        name: name.to_string(),
        text: body,
        game: game?,
        player: player?,
        turn: turn?,
        password: password?,
        orders,
        lines,
        password_span: 0..0,
        tz,
        tz_span: None,
    };
    Some((file, problems))
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn slips_of_the_envelope_leave_the_orders_readable() {
        let f = read(
            "f",
            "game = “g”\nPlayer: \"red\"\nturn = \"3\"\npasword = \"pw\"\norders = [\n  \"J NE\"\n  ‘W1 N’,\n  W2 S,\n  \"W3\n  N\",\n]\n",
        )
        .expect("the header reads")
        .0;
        assert_eq!((f.game.as_str(), f.player.as_str()), ("g", "red"));
        assert_eq!((f.turn, f.password.as_str()), (3, "pw"));
        let got: Vec<(usize, &str)> = f.orders.iter().map(|o| (o.line, o.text.as_str())).collect();
        assert_eq!(got, vec![(6, "J NE"), (7, "W1 N"), (8, "W2 S")]);
    }

    #[test]
    fn orders_without_a_list_and_a_list_on_one_line() {
        let f = read(
            "f",
            "game = \"g\"\nplayer = \"red\"\nturn = 0\npassword = \"p\"\nJ NE\n",
        )
        .unwrap()
        .0;
        assert_eq!(f.orders.len(), 1);
        assert_eq!(f.orders[0].line, 5);
        let f = read(
            "f",
            "game = \"g\"\nplayer = \"red\"\nturn = 0\npassword = \"p\"\norders = [\"a b\", \"c d\"]\n",
        )
        .unwrap()
        .0;
        let got: Vec<&str> = f.orders.iter().map(|o| o.text.as_str()).collect();
        assert_eq!(got, vec!["a b", "c d"]);
    }

    #[test]
    fn no_header_no_file() {
        assert!(read("f", "orders = [\"J NE\"]\n").is_none());
        assert!(read("f", "game = \"g\"\nplayer = \"r\"\npassword = \"p\"\n").is_none());
    }
}
