//! The host's log: one line per mail in, per mail out and per failure,
//! to a file in DIR (appended) and/or standard error.
//!
//! A line is `TIME DIRECTION EVENT key=value …`, e.g.
//!
//! ```text
//! 2026-11-22T18:00:05.412Z out sent game=g1 player=red to=red@example.org message-id=<…> file=0001.eml reply="250 2.0.0 Ok: queued as 4F2A1"
//! ```
//!
//! `TIME` is the event's own, to the millisecond: the pass's time
//! ([`Log::set_time`], the clock or `--now`) plus the time elapsed since on
//! a monotonic clock. So a mail sent six seconds into a pass is stamped six
//! seconds after its start, and a pass run with `--now` stays in its own
//! time. Without a pass time the system clock is read.
//!
//! Only fields the caller names are written: never a password (the
//! configuration's passwords are [`super::config::Secret`]s, which do not
//! print) and never a mail body. Values are quoted when they hold spaces,
//! control characters are escaped and each value is cut at 300 characters,
//! so a hostile header cannot forge or flood lines. Each line is written
//! with one `write` on a file opened for appending, so lines from processes
//! sharing the file do not interleave.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// Longest value written; longer ones are cut and end with `…`.
pub const MAX_VALUE: usize = 300;

pub struct Log {
    file: Option<Mutex<std::fs::File>>,
    path: Option<PathBuf>,
    stderr: bool,
    /// The pass's time (Unix milliseconds) and the instant it was set.
    base: Mutex<Option<(i64, Instant)>>,
}

/// RFC 3339 UTC, seconds: `2026-11-22T18:00:05Z`.
pub fn time_text(now: i64) -> String {
    chrono::DateTime::from_timestamp(now, 0)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_else(|| format!("@{now}"))
}

/// RFC 3339 UTC, milliseconds: `2026-11-22T18:00:05.412Z`.
pub fn time_text_ms(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
        .unwrap_or_else(|| format!("@{ms}ms"))
}

fn value(v: &str) -> String {
    let mut s = String::new();
    for (i, c) in v.chars().enumerate() {
        if i == MAX_VALUE {
            s.push('…');
            break;
        }
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if c.is_control() => s.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => s.push(c),
        }
    }
    if s.is_empty() || s.contains(' ') || s.contains('"') || s.contains('=') {
        format!("\"{s}\"")
    } else {
        s
    }
}

/// One log line stamped `ms` (Unix milliseconds), without its newline.
pub fn format_line(ms: i64, direction: &str, event: &str, fields: &[(&str, &str)]) -> String {
    let mut line = format!("{} {direction} {event}", time_text_ms(ms));
    for (k, v) in fields {
        line.push(' ');
        line.push_str(k);
        line.push('=');
        line.push_str(&value(v));
    }
    line
}

impl Log {
    /// Append to `file` (created if missing, mode 0600) and/or write to
    /// standard error.
    pub fn open(file: Option<&Path>, stderr: bool) -> Result<Log> {
        let f = match file {
            None => None,
            Some(p) => {
                use std::os::unix::fs::OpenOptionsExt;
                let f = std::fs::OpenOptions::new()
                    .append(true)
                    .create(true)
                    .mode(0o600)
                    // appended to in place: never through a planted symlink
                    .custom_flags(libc::O_NOFOLLOW)
                    .open(p)
                    .map_err(|e| Error::io(p, e))?;
                Some(Mutex::new(f))
            }
        };
        Ok(Log {
            file: f,
            path: file.map(Path::to_path_buf),
            stderr,
            base: Mutex::new(None),
        })
    }

    /// A log that writes nowhere.
    pub fn none() -> Log {
        Log {
            file: None,
            path: None,
            stderr: false,
            base: Mutex::new(None),
        }
    }

    /// The time of the pass that begins now (Unix seconds): lines are
    /// stamped with it plus the time elapsed since.
    pub fn set_time(&self, now: i64) {
        let mut b = self.base.lock().unwrap_or_else(|e| e.into_inner());
        *b = Some((now.saturating_mul(1000), Instant::now()));
    }

    /// The time of an event happening now, Unix milliseconds.
    pub fn event_time(&self) -> i64 {
        let b = self.base.lock().unwrap_or_else(|e| e.into_inner());
        match *b {
            Some((ms, at)) => ms.saturating_add(at.elapsed().as_millis() as i64),
            None => chrono::Utc::now().timestamp_millis(),
        }
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Write one line, stamped with the event's time. A log that cannot be
    /// written does not stop the host: the line goes to standard error
    /// instead.
    pub fn line(&self, direction: &str, event: &str, fields: &[(&str, &str)]) {
        let mut line = format_line(self.event_time(), direction, event, fields);
        line.push('\n');
        let mut to_stderr = self.stderr;
        if let Some(f) = &self.file {
            let ok = f
                .lock()
                .map(|mut f| f.write_all(line.as_bytes()).is_ok())
                .unwrap_or(false);
            to_stderr |= !ok;
        }
        if to_stderr {
            let _ = std::io::stderr().write_all(line.as_bytes());
        }
    }
}
