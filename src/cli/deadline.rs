use crate::error::{Error, Result};
use crate::pipeline;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl).
    pub game: PathBuf,
    /// The current phase's deadline: a time (RFC 3339), a span from now
    /// (+72h, +3d), or `none`.
    pub when: String,
    /// The time to count a span from (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
}

/// Set or clear the deadline of the phase the game waits for.
pub fn run(a: Args, wait: Duration) -> Result<String> {
    let now = super::now(a.now.as_deref())?;
    let when = a.when.trim();
    let deadline = if when == "none" {
        None
    } else if let Some(span) = when.strip_prefix('+') {
        let secs = crate::time::parse_interval(span)
            .ok_or_else(|| Error::usage(format!("{when}: write a span as +72h, +3d or +90m")))?;
        Some(crate::time::after(&now, secs))
    } else {
        Some(
            chrono::DateTime::parse_from_rfc3339(when)
                .map_err(|e| {
                    Error::usage(format!(
                        "{when}: not an RFC 3339 time ({e}); e.g. 2026-12-01T18:00:00Z, or +72h, or none"
                    ))
                })?
                .to_rfc3339(),
        )
    };
    let g = pipeline::set_deadline(&a.game, deadline, &now.to_rfc3339(), wait)?;
    let h = g.head();
    Ok(match &h.deadline {
        Some(d) => format!("turn {} of {}: deadline {d}\n", h.turn, h.id),
        None => format!("turn {} of {}: no deadline\n", h.turn, h.id),
    })
}
