//! Durations and times on the command line: `72h`, `3d`, `90m`, RFC 3339.

/// `secs` after `t`, as RFC 3339 in `t`'s offset.
pub fn after(t: &chrono::DateTime<chrono::FixedOffset>, secs: u64) -> String {
    (*t + chrono::Duration::seconds(secs as i64)).to_rfc3339()
}

/// "72h", "3d", "90m", "45s" or a bare number of hours: seconds.
pub fn parse_interval(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => (&s[..i], s[i..].trim()),
        None => (s, "h"),
    };
    let n: u64 = num.parse().ok().filter(|n| *n > 0)?;
    let mult = match unit {
        "s" => 1,
        "m" | "min" => 60,
        "h" => 3600,
        "d" => 86400,
        "w" => 7 * 86400,
        _ => return None,
    };
    n.checked_mul(mult)
}

/// Seconds as hours, minutes or seconds: 259200 → "72h".
pub fn interval_text(secs: u64) -> String {
    if secs.is_multiple_of(3600) {
        format!("{}h", secs / 3600)
    } else if secs.is_multiple_of(60) {
        format!("{}m", secs / 60)
    } else {
        format!("{secs}s")
    }
}
