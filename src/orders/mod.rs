//! The order-file envelope (DESIGN.md, "Order file"): which game, which
//! player, which turn, the password, and the order lines with the line
//! numbers they stand on in the file, so errors can point at them.

use serde::Deserialize;

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
    pub password_span: std::ops::Range<usize>,
}

#[derive(Debug, Clone, Default)]
pub struct HeaderLines {
    pub game: usize,
    pub player: usize,
    pub turn: usize,
    pub password: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    game: Option<toml::Spanned<String>>,
    player: Option<toml::Spanned<String>>,
    turn: Option<toml::Spanned<i64>>,
    password: Option<toml::Spanned<String>>,
    orders: Option<Vec<toml::Spanned<String>>>,
}

/// The marker line every report prints above its order form.
pub const FORM_MARKER: &str = "----- ORDERS";

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
                let t = t.trim_start();
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

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())]
        .bytes()
        .filter(|&b| b == b'\n')
        .count()
        + 1
}

impl OrderFile {
    /// Parse an order file. Every problem with the envelope is listed.
    ///
    /// A whole report pasted back (or quoted in a mail reply) works too:
    /// everything up to the report's `----- ORDERS` line is ignored, and a
    /// form quoted with `>` is unquoted. Without that line, words before the
    /// first `game =` line (a greeting in a mail) are ignored. Line numbers
    /// still count from the top of what was sent.
    pub fn parse(name: &str, sent: &str) -> Result<OrderFile, Vec<String>> {
        let (body, skipped) = order_form(sent);
        let text = body.as_str();
        let line_of = |text: &str, offset: usize| line_of(text, offset) + skipped;
        let raw: Raw = match toml::from_str(text) {
            Ok(r) => r,
            Err(e) => {
                let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(1);
                let msg = e.message().trim().to_string();
                return Err(vec![format!(
                    "{name}:{line}: this is not a valid order file ({msg}); an order file looks like:\n  game = \"<game id>\"\n  player = \"<your id>\"\n  turn = <the turn in your report>\n  password = \"<your password>\"\n  orders = [\"<order>\", …]"
                )]);
            }
        };
        let mut problems = Vec::new();
        let mut lines = HeaderLines::default();
        let password_span = raw.password.as_ref().map(|p| p.span()).unwrap_or(0..0);
        let mut need = |v: Option<toml::Spanned<String>>, key: &str, line: &mut usize| -> String {
            match v {
                Some(s) => {
                    *line = line_of(text, s.span().start);
                    s.into_inner()
                }
                None => {
                    problems.push(format!("{name}: `{key} = \"…\"` is missing"));
                    String::new()
                }
            }
        };
        let game = need(raw.game, "game", &mut lines.game);
        let player = need(raw.player, "player", &mut lines.player);
        let password = need(raw.password, "password", &mut lines.password);
        let turn = match raw.turn {
            Some(t) => {
                lines.turn = line_of(text, t.span().start);
                let v = *t.get_ref();
                if v < 0 || v > u32::MAX as i64 {
                    problems.push(format!(
                        "{name}:{}: turn {v} is not a turn number",
                        lines.turn
                    ));
                    0
                } else {
                    v as u32
                }
            }
            None => {
                problems.push(format!(
                    "{name}: `turn = <number>` is missing (the turn your report asks orders for)"
                ));
                0
            }
        };
        let orders = match raw.orders {
            Some(list) => list
                .into_iter()
                .map(|s| OrderLine {
                    line: line_of(text, s.span().start),
                    text: s.into_inner(),
                })
                .filter(|o| !o.text.trim().is_empty())
                .collect(),
            None => {
                problems.push(format!("{name}: `orders = [ … ]` is missing"));
                Vec::new()
            }
        };
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(OrderFile {
            name: name.to_string(),
            text: text.to_string(),
            game,
            player,
            turn,
            password,
            orders,
            lines,
            password_span,
        })
    }

    /// The file as it is kept in the game's log: verbatim but for the
    /// password's value, so a published archive gives no password away.
    pub fn redacted(&self) -> String {
        let r = &self.password_span;
        format!("{}\"\"{}", &self.text[..r.start], &self.text[r.end..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "game = \"g1\"\nplayer = \"red\"\nturn = 4\npassword = \"abc\"\norders = [\n  \"W3 NE 2\",\n  \"\",\n  \"J S\",\n]\n";

    #[test]
    fn parses_with_lines() {
        let f = OrderFile::parse("o.toml", GOOD).unwrap();
        assert_eq!(f.game, "g1");
        assert_eq!(f.turn, 4);
        assert_eq!(f.orders.len(), 2);
        assert_eq!(f.orders[0].line, 6);
        assert_eq!(f.orders[1].line, 8);
        assert_eq!(f.lines.password, 4);
    }

    #[test]
    fn names_what_is_missing() {
        let e = OrderFile::parse("o.toml", "game = \"g\"\norders = []\n").unwrap_err();
        assert_eq!(e.len(), 3, "{e:?}");
        let e = OrderFile::parse("o.toml", "game = \"g\nplayer=1").unwrap_err();
        assert!(e[0].starts_with("o.toml:1:"), "{e:?}");
        let e = OrderFile::parse("o.toml", "game = \"g\"\norder = []\n").unwrap_err();
        assert!(e[0].contains("o.toml:2"), "{e:?}");
    }

    #[test]
    fn redacts_only_the_password() {
        let r = OrderFile::parse("o.toml", GOOD).unwrap().redacted();
        assert!(!r.contains("abc"));
        assert!(r.contains("password = \"\"\n"));
        assert_eq!(r.lines().count(), GOOD.lines().count());
        // quoted keys and multi-line strings are blanked too
        for text in [
            "game = \"g\"\nplayer = \"r\"\nturn = 1\n\"password\" = \"abc\"\norders = []\n",
            "game = \"g\"\nplayer = \"r\"\nturn = 1\npassword = \"\"\"\nab\nc\"\"\"\norders = []\n",
        ] {
            let f = OrderFile::parse("o.toml", text).unwrap();
            let r = f.redacted();
            assert!(!r.contains("ab"), "{r}");
            assert!(OrderFile::parse("o.toml", &r).is_ok());
        }
    }
}
