//! Unit tests of `herald::time` (src/time.rs).

use chrono::{DateTime, FixedOffset};
use herald::time::*;

fn t(s: &str) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(s).unwrap()
}

#[test]
fn spans_in_every_form() {
    for (s, secs) in [
        ("72h", 72 * 3600),
        ("+48h", 48 * 3600),
        ("2d", 2 * 86400),
        ("+3d", 3 * 86400),
        ("90m", 90 * 60),
        ("90min", 90 * 60),
        ("1h30m", 5400),
        ("1h 30m", 5400),
        ("45s", 45),
        ("1.5h", 5400),
        ("1w", 7 * 86400),
        (" 24h ", 86400),
    ] {
        assert_eq!(parse_span(s), Ok(secs), "{s}");
    }
}

#[test]
fn spans_refused_say_what_to_write() {
    assert_eq!(
        parse_span("+48").unwrap_err(),
        "+48 has no unit: write +48h (hours), or 48m, 48d"
    );
    assert!(parse_span("72")
        .unwrap_err()
        .starts_with("72 has no unit: write 72h"));
    for (s, says) in [
        ("", "is not a span"),
        ("+", "is not a span"),
        ("0h", "no time at all"),
        ("500ms", "not a whole number of seconds"),
        ("90M", "more than a year"),
        ("2y", "more than a year"),
        ("-48h", "is not a span"),
        ("48 hrs please", "is not a span"),
        ("h", "is not a span"),
        ("99999999999999999999h", "is not a span"),
    ] {
        let e = parse_span(s).unwrap_err();
        assert!(e.contains(says), "{s}: {e}");
    }
}

#[test]
fn times_with_offsets() {
    assert_eq!(
        parse_time("2026-12-01T18:00:00Z").unwrap().to_rfc3339(),
        "2026-12-01T18:00:00+00:00"
    );
    assert_eq!(
        parse_time("2026-12-01T19:00:00+01:00")
            .unwrap()
            .to_rfc3339(),
        "2026-12-01T19:00:00+01:00"
    );
    assert_eq!(
        parse_time("2026-12-01T18:00:00").unwrap_err(),
        "2026-12-01T18:00:00 has no offset: write 2026-12-01T18:00:00Z for UTC, or the offset, e.g. 2026-12-01T18:00:00+01:00"
    );
    assert!(parse_time("2026-12-01 18:00:00")
        .unwrap_err()
        .contains("write 2026-12-01T18:00:00Z"));
    assert!(parse_time("2026-13-01T18:00:00Z")
        .unwrap_err()
        .contains("not an RFC 3339 time"));
    assert!(parse_time("tomorrow")
        .unwrap_err()
        .contains("not an RFC 3339 time"));
}

#[test]
fn deadlines_from_now() {
    let now = t("2026-12-01T18:00:00+01:00");
    assert_eq!(
        parse_when("+48h", &now).unwrap().to_rfc3339(),
        "2026-12-03T18:00:00+01:00"
    );
    assert_eq!(
        parse_when("2d", &now).unwrap().to_rfc3339(),
        "2026-12-03T18:00:00+01:00"
    );
    assert_eq!(
        parse_when("2026-12-05T12:00:00Z", &now)
            .unwrap()
            .to_rfc3339(),
        "2026-12-05T12:00:00+00:00"
    );
    let e = parse_when("+48", &now).unwrap_err();
    assert!(e.starts_with("+48 has no unit: write +48h"), "{e}");
    assert!(parse_when("2026-12-05", &now).is_err());
}

#[test]
fn after_and_text() {
    let now = t("2026-12-01T18:00:00Z");
    assert_eq!(after(&now, 3600), "2026-12-01T19:00:00+00:00");
    assert_eq!(span_text(259200), "72h");
    assert_eq!(span_text(5400), "90m");
    assert_eq!(span_text(45), "45s");
    // what span_text writes reads back
    for secs in [45, 5400, 259200, 7 * 86400] {
        assert_eq!(parse_span(&span_text(secs)), Ok(secs));
    }
}

#[test]
fn times_are_shown_in_whole_seconds_or_minutes_with_their_zone() {
    assert_eq!(
        shown("2026-11-27T18:37:21.687817622+00:00"),
        "2026-11-27 18:37:21 UTC"
    );
    assert_eq!(shown("2026-11-27T18:37:00Z"), "2026-11-27 18:37 UTC");
    assert_eq!(
        shown("2026-11-27T19:37:00+01:00"),
        "2026-11-27 19:37 +01:00"
    );
    assert_eq!(
        shown("2026-11-27T18:37:59.999+00:00"),
        "2026-11-27 18:37:59 UTC",
        "fractions are cut off, never rounded up"
    );
    assert_eq!(shown("not a time"), "not a time");
    let now = whole_seconds(t("2026-11-27T18:37:21.687817622Z"));
    assert_eq!(now.to_rfc3339(), "2026-11-27T18:37:21+00:00");
}

#[test]
fn spans_are_shown_rounded_down() {
    assert_eq!(span_shown(0), "0s");
    assert_eq!(span_shown(45), "45s");
    assert_eq!(span_shown(109), "1m 49s", "1m49s left is not `about 1m`");
    assert_eq!(span_shown(120), "2m");
    assert_eq!(span_shown(2 * 3600), "2h");
    assert_eq!(
        span_shown(2 * 3600 + 59),
        "2h",
        "rounded down past the hour"
    );
    assert_eq!(span_shown(5 * 3600 + 12 * 60 + 30), "5h 12m");
    assert_eq!(span_shown(86400 + 2 * 3600 + 60), "1d 2h 1m");
}

#[test]
fn the_zones_nearest_a_slip_are_named() {
    assert_eq!(nearest_zones("Europe/Berlinn"), vec!["Europe/Berlin"]);
    assert_eq!(nearest_zones("berln"), vec!["Europe/Berlin"]);
    assert!(nearest_zones("New York").contains(&"America/New_York"));
    assert!(nearest_zones("Mars/Olympus").is_empty());
    // Short names are not guessed at; long ones are not compared.
    assert!(nearest_zones("PST").is_empty());
    assert!(nearest_zones(&"x".repeat(10_000)).is_empty());
    let e = zone(&"x".repeat(10_000)).unwrap_err();
    assert!(e.len() < 200, "{e}");
}
