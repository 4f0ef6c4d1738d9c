//! Durations and times as a moderator writes them on the command line:
//! spans (`72h`, `+48h`, `2d`, `90m`, `1h30m`, `1w`) read by the
//! `humantime` crate, times in RFC 3339 with their offset
//! (`2026-12-01T18:00:00Z`, `2026-12-01T19:00:00+01:00`) read by chrono.
//! Every refusal says what to write instead; nothing is guessed: a bare
//! number (`+48`) has no unit and is refused, since hours, minutes and days
//! are all plausible.
//!
//! Used by `new --deadline-every`, `new --deadline`, `herald deadline` and
//! the store's deadline entries (`after`, `span_text`).

use chrono::{DateTime, FixedOffset};

/// The longest span herald takes: a year. A longer one is a slip (`90M`,
/// which `humantime` reads as 90 months, for `90m`).
pub const MAX_SPAN_SECS: u64 = 366 * 86400;

/// A span (`72h`, `+48h`, `2d`, `90m`, `1h30m`, `1h 30m`, `1w`) in whole
/// seconds. A leading `+` is allowed. Refused: no unit, zero, fractions of
/// a second, over a year, anything `humantime` cannot read.
// A String error: the usage line for a span argument.
pub fn parse_span(s: &str) -> Result<u64, String> {
    let written = s.trim();
    let body = written.strip_prefix('+').unwrap_or(written).trim();
    if body.is_empty() {
        return Err(format!(
            "`{written}` is not a span: write a number and a unit, e.g. 72h, 3d, 90m or 1h30m"
        ));
    }
    if body.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(format!(
            "{written} has no unit: write {written}h (hours), or {body}m, {body}d"
        ));
    }
    let d = humantime::parse_duration(body).map_err(|e| {
        format!("`{written}` is not a span ({e}): write a number and a unit, e.g. 72h, 3d, 90m or 1h30m")
    })?;
    if d.subsec_nanos() != 0 {
        return Err(format!(
            "`{written}` is not a whole number of seconds: write e.g. 90m or 45s"
        ));
    }
    match d.as_secs() {
        0 => Err(format!(
            "`{written}` is no time at all: write a span such as 72h"
        )),
        n if n > MAX_SPAN_SECS => Err(format!(
            "`{written}` is more than a year ({}); write minutes with a small m (90m), days with d, weeks with w",
            humantime::format_duration(d)
        )),
        n => Ok(n),
    }
}

/// A time in RFC 3339 with its offset.
pub fn parse_time(s: &str) -> Result<DateTime<FixedOffset>, String> {
    let s = s.trim();
    DateTime::parse_from_rfc3339(s).map_err(|e| {
        let no_offset = chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S").is_ok()
            || chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").is_ok();
        if no_offset {
            format!(
                "{s} has no offset: write {}Z for UTC, or the offset, e.g. {}+01:00",
                s.replace(' ', "T"),
                s.replace(' ', "T")
            )
        } else {
            format!("`{s}` is not an RFC 3339 time ({e}): write e.g. 2026-12-01T18:00:00Z")
        }
    })
}

/// A deadline as written to `new --deadline` or `herald deadline`: a time
/// (RFC 3339), or a span from `now` (`+48h`, `48h`, `2d`). `none` is
/// handled by the caller.
pub fn parse_when(s: &str, now: &DateTime<FixedOffset>) -> Result<DateTime<FixedOffset>, String> {
    let s = s.trim();
    let looks_like_time = s.len() >= 10
        && s.as_bytes()[..4].iter().all(u8::is_ascii_digit)
        && s.as_bytes()[4] == b'-';
    if looks_like_time {
        return parse_time(s);
    }
    let secs = parse_span(s).map_err(|e| format!("{e}; or a time, e.g. 2026-12-01T18:00:00Z"))?;
    Ok(plus(now, secs))
}

fn plus(t: &DateTime<FixedOffset>, secs: u64) -> DateTime<FixedOffset> {
    // A span is at most a year (`parse_span`); stored ones were written by
    // herald, so this never overflows. Saturate all the same.
    let secs = i64::try_from(secs).unwrap_or(i64::MAX / 2);
    t.checked_add_signed(chrono::Duration::seconds(secs))
        .unwrap_or(*t)
}

/// `secs` after `t`, as RFC 3339 in `t`'s offset.
pub fn after(t: &DateTime<FixedOffset>, secs: u64) -> String {
    plus(t, secs).to_rfc3339()
}

/// Seconds as hours, minutes or seconds: 259200 → "72h", 5400 → "90m".
pub fn span_text(secs: u64) -> String {
    if secs.is_multiple_of(3600) {
        format!("{}h", secs / 3600)
    } else if secs.is_multiple_of(60) {
        format!("{}m", secs / 60)
    } else {
        format!("{secs}s")
    }
}

/// A time as people read it: whole minutes, or whole seconds when it has
/// any, and its zone: `2026-11-27 18:37 UTC`, `2026-11-27 18:37:21 UTC`,
/// `2026-11-27 19:37 +01:00`. Fractions of a second are cut off (a time
/// shown is never later than the real one). Text that is not an RFC 3339
/// time is shown as it is.
pub fn shown(t: &str) -> String {
    match DateTime::parse_from_rfc3339(t.trim()) {
        Ok(t) => shown_time(&t),
        Err(_) => t.to_string(),
    }
}

/// [`shown`] of a parsed time.
pub fn shown_time(t: &DateTime<FixedOffset>) -> String {
    use chrono::Timelike;
    let clock = if t.second() == 0 {
        t.format("%Y-%m-%d %H:%M")
    } else {
        t.format("%Y-%m-%d %H:%M:%S")
    };
    let zone = if t.offset().local_minus_utc() == 0 {
        "UTC".to_string()
    } else {
        t.format("%:z").to_string()
    };
    format!("{clock} {zone}")
}

/// A span as people read it, rounded down, never claiming more time than
/// there is: `2d 3h 5m`, `5h 12m`, `1m 49s`, `45s`. Seconds are shown
/// under an hour; `0s` for nothing left.
pub fn span_shown(secs: u64) -> String {
    let (d, h, m, s) = (
        secs / 86400,
        secs % 86400 / 3600,
        secs % 3600 / 60,
        secs % 60,
    );
    let mut parts = Vec::new();
    if d > 0 {
        parts.push(format!("{d}d"));
    }
    if h > 0 {
        parts.push(format!("{h}h"));
    }
    if m > 0 {
        parts.push(format!("{m}m"));
    }
    if secs < 3600 && (s > 0 || parts.is_empty()) {
        parts.push(format!("{s}s"));
    }
    parts.join(" ")
}

/// The clock read as a time herald stores and shows: whole seconds (a
/// reading's nanoseconds would end up in deadlines and receipts).
pub fn whole_seconds(t: DateTime<FixedOffset>) -> DateTime<FixedOffset> {
    use chrono::Timelike;
    t.with_nanosecond(0).unwrap_or(t)
}

/// A time zone by its IANA name (`Europe/Berlin`, `America/New_York`,
/// `UTC`), case as written or not, from the database built into herald
/// (the chrono-tz crate, its version pinned by Cargo.lock): never the
/// machine's own zoneinfo, so a report made again on another machine
/// (`verify --witness`) reads the same.
pub fn zone(name: &str) -> Result<chrono_tz::Tz, String> {
    let name = name.trim();
    let examples = "write its IANA name, e.g. Europe/Berlin, America/New_York, Asia/Tokyo or UTC";
    if name.len() > MAX_ZONE_NAME {
        return Err(format!(
            "a time zone name of {} bytes is none; {examples}",
            name.len()
        ));
    }
    name.parse::<chrono_tz::Tz>()
        .ok()
        .or_else(|| {
            chrono_tz::TZ_VARIANTS
                .iter()
                .copied()
                .find(|tz| tz.name().eq_ignore_ascii_case(name))
        })
        .ok_or_else(|| match nearest_zones(name).as_slice() {
            [] => format!("`{name}` is not a time zone; {examples}"),
            [one] => format!("`{name}` is not a time zone; did you mean {one}? (or {examples})"),
            some => format!(
                "`{name}` is not a time zone; did you mean one of {}? (or {examples})",
                some.join(", ")
            ),
        })
}

/// The longest IANA name is 32 bytes (`America/Argentina/ComodRivadavia`);
/// anything much longer is no zone, and is not compared with any.
const MAX_ZONE_NAME: usize = 64;

/// The IANA names nearest to `name` as it was written (a letter missing,
/// swapped or wrong, a space for `_`, a city without its region: `Berln`,
/// `europe/berlinn`, `New York`): those nearest of all, at most three,
/// where they are a few letters off at most. None for
/// a name of four letters or fewer (`PST` is not one letter from `EST`
/// in any sense a player means). One pass over the database, each name
/// compared in time linear in its length times the name's (both at most
/// [`MAX_ZONE_NAME`]).
pub fn nearest_zones(name: &str) -> Vec<&'static str> {
    let want: Vec<char> = name
        .trim()
        .to_lowercase()
        .replace(' ', "_")
        .chars()
        .collect();
    if want.len() <= 4 || want.len() > MAX_ZONE_NAME {
        return Vec::new();
    }
    // A few letters off per ten.
    let most = 1 + want.len() / 5;
    let whole = want.contains(&'/');
    let mut found: Vec<(usize, &'static str)> = chrono_tz::TZ_VARIANTS
        .iter()
        .filter_map(|tz| {
            let full = tz.name().to_lowercase();
            let city = full.rsplit('/').next().unwrap_or(&full);
            let d = if whole {
                edits(&want, &full)
            } else {
                edits(&want, &full).min(edits(&want, city))
            };
            (d <= most).then_some((d, tz.name()))
        })
        .collect();
    found.sort();
    let best = found.first().map_or(0, |(d, _)| *d);
    found
        .into_iter()
        .take_while(|(d, _)| *d == best)
        .take(3)
        .map(|(_, n)| n)
        .collect()
}

/// Edit distance (insertions, deletions, substitutions) from `a` to `b`,
/// two rows at a time.
fn edits(a: &[char], b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut next = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            next[j + 1] = (row[j] + usize::from(ca != cb))
                .min(row[j + 1] + 1)
                .min(next[j] + 1);
        }
        row = next;
    }
    row[b.len()]
}

/// Time `t` (RFC 3339) as a clock in zone `name` reads it, for people:
/// `Fri 4 Dec 19:00 Europe/Berlin (UTC+01:00)`. `None` where either does
/// not read.
pub fn shown_in(t: &str, name: &str) -> Option<String> {
    let t = DateTime::parse_from_rfc3339(t.trim()).ok()?;
    let tz = zone(name).ok()?;
    let local = t.with_timezone(&tz);
    use chrono::Offset;
    let offset = local.offset().fix().local_minus_utc();
    let sign = if offset < 0 { '-' } else { '+' };
    let (h, m) = (offset.abs() / 3600, offset.abs() % 3600 / 60);
    Some(format!(
        "{} {} (UTC{sign}{h:02}:{m:02})",
        local.format("%a %-d %b %H:%M"),
        tz.name()
    ))
}
