//! Unit tests of `herald::orders::slips` (src/orders/slips.rs).

use herald::orders::{normalise, OrderFile};

/// The problems as the user reads them.
trait Told {
    fn told(&self) -> Vec<String>;
}

impl Told for Vec<herald::error::Problem> {
    fn told(&self) -> Vec<String> {
        self.iter().map(ToString::to_string).collect()
    }
}

/// The one message the file gets.
fn one(text: &str) -> String {
    let e = OrderFile::parse("o.toml", text)
        .expect_err("refused")
        .told();
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(!e[0].contains('\n'), "one line: {}", e[0]);
    e[0].clone()
}

const HEAD: &str = "game = \"g1\"\nplayer = \"red\"\nturn = 4\n";

#[test]
fn curly_quotes_are_named_and_the_password_not_repeated() {
    let m = one(&format!(
        "{HEAD}password = “secret”\norders = [\"W3 NE 2\"]\n"
    ));
    assert_eq!(m, "o.toml:4: the password is in curly quotes (“ ”), which mail programs insert; use straight quotes: password = \"…\"");
    let m = one(&format!(
        "{HEAD}password = \"s\"\norders = [\n  “W3 NE 2”,\n]\n"
    ));
    assert_eq!(m, "o.toml:6: an order is in curly quotes (“ ”), which mail programs insert; use straight quotes: \"W3 NE 2\",");
    let m = one("game = ‘g1’\nplayer = \"red\"\nturn = 4\npassword = \"s\"\norders = []\n");
    assert!(
        m.starts_with("o.toml:1: the game id is in curly quotes (‘ ’)"),
        "{m}"
    );
    assert!(m.ends_with("game = \"g1\""), "{m}");
}

#[test]
fn orders_outside_a_list() {
    let m = one(&format!("{HEAD}password = \"s\"\nW3 NE 2\n"));
    assert!(
        m.starts_with("o.toml:5: `W3 NE 2` is not in an orders list: put orders = ["),
        "{m}"
    );
    let m = one(&format!(
        "{HEAD}password = \"s\"\norders = [\"W3 NE 2\"]\nJ S\n"
    ));
    assert!(
        m.starts_with("o.toml:6: `J S` is outside the orders list, which ends with ] on line 5"),
        "{m}"
    );
    let m = one(&format!(
        "{HEAD}password = \"s\"\norders = [\n  W3 NE 2,\n]\n"
    ));
    assert_eq!(
        m,
        "o.toml:6: each order goes in double quotes: \"W3 NE 2\","
    );
}

#[test]
fn commas_brackets_and_closing_quotes() {
    let m = one(&format!(
        "{HEAD}password = \"s\"\norders = [\n  \"W3 NE 2\"\n  \"J S\",\n]\n"
    ));
    assert_eq!(
        m,
        "o.toml:6: a comma is missing after \"W3 NE 2\": end each order but the last with a comma"
    );
    let m = one(&format!(
        "{HEAD}password = \"s\"\norders = [\n  \"W3 NE 2\",\n"
    ));
    assert!(
        m.starts_with("o.toml:5: the orders list opened here is not closed"),
        "{m}"
    );
    let m = one(
        "game = \"g1\"\norders = [\n  \"W3 NE 2\",\nplayer = \"red\"\nturn = 4\npassword = \"s\"\n",
    );
    assert!(
        m.starts_with("o.toml:2: the orders list opened here is not closed"),
        "{m}"
    );
    let m = one(&format!("{HEAD}password = \"secret\norders = []\n"));
    assert_eq!(
        m,
        "o.toml:4: the password has no closing quote: password = \"…\""
    );
    let m = one("game = \"g1\nplayer = \"red\"\nturn = 4\npassword = \"s\"\norders = []\n");
    assert_eq!(
        m,
        "o.toml:1: the game id has no closing quote: game = \"g1\""
    );
    let m = one(&format!("{HEAD}password = \"s'\norders = []\n"));
    assert!(
        m.starts_with("o.toml:4: the password opens with \" but closes with '"),
        "{m}"
    );
}

#[test]
fn a_wrapped_order_is_named() {
    let m = one(&format!(
        "{HEAD}password = \"s\"\norders = [\n  \"attack 0915 with I3 I4\nA2 advance I3\",\n  \"J S\",\n]\n"
    ));
    assert_eq!(m, "o.toml:6: an order is split across two lines, probably by your mail program: keep each order on its own line");
    // one line list
    let m = one(&format!(
        "{HEAD}password = \"s\"\norders = [\"I1 2207\", \"I2\n2211\"]\n"
    ));
    assert!(
        m.starts_with("o.toml:5: an order is split across two lines"),
        "{m}"
    );
}

#[test]
fn single_quotes_where_they_break() {
    let m = one(&format!(
        "{HEAD}password = \"s\"\norders = ['Jarl's move']\n"
    ));
    assert!(
        m.starts_with("o.toml:5: a string in single quotes cannot hold an apostrophe"),
        "{m}"
    );
    assert!(m.ends_with("\"Jarl's move\","), "{m}");
    // single quotes that do not break are fine
    assert!(OrderFile::parse(
        "o",
        &format!("{HEAD}password = 's'\norders = ['W3 NE 2']\n")
    )
    .is_ok());
}

#[test]
fn keys_written_wrong() {
    let m = one(&format!("{HEAD}pasword = \"s\"\norders = []\n"));
    assert!(
        m.contains("o.toml:4: `pasword` is not a key of an order file; did you mean `password`?"),
        "{m}"
    );
    let e = OrderFile::parse("o", &format!("{HEAD}password: \"s\"\norders = []\n"))
        .unwrap_err()
        .told();
    assert!(
        e[0].contains("o:4: write `password = …` with =, not with :"),
        "{e:?}"
    );
    let m = one(&format!(
        "{HEAD}password = \"s\"\norders = []\norders = [\"J S\"]\n"
    ));
    assert_eq!(
        m,
        "o.toml:6: `orders` is given twice (also on line 5); keep one"
    );
    let m = one(&format!("{HEAD}password = \"s\"\norders [\"J S\"]\n"));
    assert!(
        m.starts_with("o.toml:5: the = is missing after `orders`"),
        "{m}"
    );
    let m = one("game = \"g1\"\nplayer = \"red\"\nturn = \"4\"\npassword = \"s\"\norders = []\n");
    assert_eq!(
        m,
        "o.toml:3: the turn is a number, without quotes: turn = 4"
    );
    let m = one("game = \"g1\"\nplayer = red\nturn = 4\npassword = \"s\"\norders = []\n");
    assert_eq!(
        m,
        "o.toml:2: the player id needs double quotes: player = \"red\""
    );
    let m = one(&format!("{HEAD}password = \"\" abcd-efgh\norders = []\n"));
    assert!(m.starts_with("o.toml:4: `…` after the password is not understood: the password goes between the quotes"), "{m}");
    assert!(!m.contains("abcd-efgh"), "{m}");
    let m = one(&format!("{HEAD}password =\norders = []\n"));
    assert!(m.starts_with("o.toml:4: `password =` has no value"), "{m}");
    let m = one(&format!("{HEAD}password = \"s\"\n[orders]\n"));
    assert!(m.starts_with("o.toml:5: the orders are a list"), "{m}");
}

#[test]
fn what_mail_programs_do_is_accepted() {
    // BOM, Windows line ends, tabs, non-breaking spaces.
    let t = "\u{feff}game = \"g1\"\r\nplayer\t= \"red\"\r\nturn = 4\r\npassword = \"s\u{a0}\"\r\norders = [\r\n\t\"W3\u{a0}NE\t2\",\r\n]\r\n";
    let f = OrderFile::parse("o", t).unwrap();
    assert_eq!(f.password, "s");
    assert_eq!(f.orders[0].text, "W3 NE 2");
    assert_eq!(f.orders[0].line, 6);
    assert_eq!(f.text, t, "kept as sent");
    // old Mac line ends
    let f = OrderFile::parse("o", &t.replace("\r\n", "\r")).unwrap();
    assert_eq!(f.orders[0].line, 6);
    // orders as one string: one order, or one a line
    let f = OrderFile::parse(
        "o",
        &format!("{HEAD}password = \"s\"\norders = \"W3 NE 2\"\n"),
    )
    .unwrap();
    assert_eq!(f.orders.len(), 1);
    assert_eq!(f.orders[0].line, 5);
    let f = OrderFile::parse(
        "o",
        &format!("{HEAD}password = \"s\"\norders = \"\"\"\nW3 NE 2\n\nJ S\n\"\"\"\n"),
    )
    .unwrap();
    let got: Vec<(usize, &str)> = f.orders.iter().map(|o| (o.line, o.text.as_str())).collect();
    assert_eq!(got, vec![(6, "W3 NE 2"), (8, "J S")]);
}

#[test]
fn limits_are_named() {
    let big = format!(
        "{HEAD}password = \"s\"\norders = [\n{}]\n",
        "  \"J S\",\n".repeat(8000)
    );
    let e = OrderFile::parse("o", &big).unwrap_err().told();
    assert!(e[0].contains("at most 65536 bytes"), "{e:?}");
    let many = format!(
        "{HEAD}password = \"s\"\norders = [\n{}]\n",
        "\"J S\",".repeat(501)
    );
    let e = OrderFile::parse("o", &many).unwrap_err().told();
    assert!(
        e[0].contains("501 orders; an order file may hold at most 500"),
        "{e:?}"
    );
}

#[test]
fn diagnosing_never_panics_on_odd_text() {
    for t in [
        "\"",
        "'",
        "[",
        "]",
        "= \"",
        "a = '''",
        "a = \"\"\"\n",
        "orders = [\"\\",
        "“",
        "x = [[[",
        "orders = ['",
        "]]]",
        "game = \"é",
        "p = \"a\\\"",
    ] {
        let _ = herald::orders::slips::diagnose(&normalise(t));
        let _ = OrderFile::parse("o", t);
    }
}
