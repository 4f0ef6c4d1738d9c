//! Unit tests of `herald::orders` (src/orders/mod.rs).

use herald::orders::*;

/// The problems as the user reads them.
trait Told {
    fn told(&self) -> Vec<String>;
}

impl Told for Vec<herald::error::Problem> {
    fn told(&self) -> Vec<String> {
        self.iter().map(ToString::to_string).collect()
    }
}

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
    let e = OrderFile::parse("o.toml", "game = \"g\"\norders = []\n")
        .unwrap_err()
        .told();
    assert_eq!(e.len(), 3, "{e:?}");
    let e = OrderFile::parse("o.toml", "game = \"g\nplayer=1")
        .unwrap_err()
        .told();
    assert!(e[0].starts_with("o.toml:1:"), "{e:?}");
    let e = OrderFile::parse("o.toml", "game = \"g\"\norder = []\n")
        .unwrap_err()
        .told();
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
        "\u{feff}game = \"g\"\r\nplayer = \"r\"\r\nturn = 1\r\npassword = 'abc'\r\norders = []\r\n",
    ] {
        let f = OrderFile::parse("o.toml", text).unwrap();
        let r = f.redacted();
        assert!(!r.contains("ab"), "{r}");
        assert!(OrderFile::parse("o.toml", &r).is_ok());
    }
}

#[test]
fn normalising_keeps_every_offset() {
    let t = "\u{feff}a\u{a0}b\r\nc\rd\u{200b}e\u{3000}";
    let n = normalise(t);
    assert_eq!(n.len(), t.len());
    assert_eq!(n, "   a  b \nc\nd   e   ");
}

#[test]
fn keys_nearly_right_are_named() {
    assert_eq!(meant_key("pasword"), Some("password"));
    assert_eq!(meant_key("Orders"), Some("orders"));
    assert_eq!(meant_key("order"), Some("orders"));
    assert_eq!(meant_key("plyer"), Some("player"));
    assert_eq!(meant_key("trun"), Some("turn"));
    assert_eq!(meant_key("colour"), None);
}

/// A misspelt key is named once, on its line counted from the top of what
/// was sent (a report's text above its `----- ORDERS` line included), and
/// is not also said to be missing.
#[test]
fn a_misspelt_key_is_not_also_missing() {
    let sent = "Your report\n----- ORDERS\npasword = \"x\"\n";
    let problems = OrderFile::parse("o", sent).unwrap_err();
    assert!(problems[0].reason.contains("password"), "{problems:?}");
    assert_eq!(
        problems[0].line,
        Some(3),
        "counted from the top of what was sent: {problems:?}"
    );
    let missing: Vec<&str> = problems[1..].iter().map(|p| p.reason.as_str()).collect();
    assert_eq!(missing.len(), 4, "{missing:?}");
    assert!(
        missing.iter().all(|m| !m.contains("`password`")),
        "{missing:?}"
    );
}

const ZONED: &str = "game = \"g1\"\nplayer = \"red\"\nturn = 4\npassword = \"abc\"\ntz = \"europe/berlin\"  # mine\norders = [\n  \"W3 NE 2\",\n]\n";

#[test]
fn a_tz_line_is_read_and_left_out_of_the_logged_text() {
    let f = OrderFile::parse("o.toml", ZONED).unwrap();
    assert_eq!(f.tz, Some(Zone::Set("Europe/Berlin".into())));
    assert_eq!(f.lines.tz, 5);
    assert_eq!(f.orders[0].line, 7);
    let kept = f.redacted();
    assert_eq!(
        kept,
        "game = \"g1\"\nplayer = \"red\"\nturn = 4\npassword = \"\"\n\norders = [\n  \"W3 NE 2\",\n]\n"
    );
    // What is kept still reads, at the same lines, without a zone.
    let again = OrderFile::parse("o.toml", &kept).unwrap();
    assert_eq!((again.tz, again.orders[0].line), (None, 7));
    for clear in ["tz = \"\"", "tz = \"UTC\"", "tz = \" utc \""] {
        let f =
            OrderFile::parse("o.toml", &ZONED.replace("tz = \"europe/berlin\"", clear)).unwrap();
        assert_eq!(f.tz, Some(Zone::Clear), "{clear}");
    }
    let f = OrderFile::parse("o.toml", GOOD).unwrap();
    assert_eq!(f.tz, None);
}

#[test]
fn a_zone_that_is_none_is_a_slip_with_the_names_meant_and_the_others() {
    let e = OrderFile::parse("o.toml", &ZONED.replace("europe/berlin", "Europe/Berln"))
        .unwrap_err()
        .told();
    assert_eq!(
        e,
        vec!["o.toml:5: `Europe/Berln` is not a time zone; did you mean Europe/Berlin? (or write its IANA name, e.g. Europe/Berlin, America/New_York, Asia/Tokyo or UTC)"]
    );
    // Beside a slip that keeps the file from being TOML (a missing
    // comma): the file as meant names the zone too, in line order.
    let sent = "game = \"g1\"\nplayer = \"red\"\nturn = 4\npassword = \"abc\"\ntz = \"Mars/Olympus\"\norders = [\n  \"W3 NE 2\"\n  \"J S\",\n]\n";
    let (f, slips) = OrderFile::parse_as_meant("o.toml", sent).unwrap();
    let lines: Vec<Option<usize>> = slips.iter().map(|p| p.line).collect();
    assert_eq!(lines, vec![Some(5), Some(7)], "{:#?}", slips.told());
    assert!(slips.told()[0].contains("`Mars/Olympus` is not a time zone"));
    assert_eq!(f.orders.len(), 2);
    // A zone given as a number, and a key meant as tz.
    let e = OrderFile::parse("o.toml", &ZONED.replace("\"europe/berlin\"", "1"))
        .unwrap_err()
        .told();
    assert_eq!(
        e,
        vec!["o.toml:5: the time zone needs double quotes: tz = \"1\""]
    );
    let e = OrderFile::parse("o.toml", &ZONED.replace("tz =", "timezone ="))
        .unwrap_err()
        .told();
    assert_eq!(
        e,
        vec!["o.toml:5: `timezone` is not a key of an order file; did you mean `tz`?"]
    );
}
