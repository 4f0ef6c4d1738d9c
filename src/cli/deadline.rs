use crate::error::{Error, Result};
use crate::pipeline;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl).
    pub game: PathBuf,
    /// The current phase's deadline: a time (RFC 3339 with its offset), a
    /// span from now (+72h, +3d, +90m, +1h30m), or `none`.
    pub when: String,
    /// The time to count a span from (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    #[command(flatten)]
    pub wait: super::values::Wait,
}

/// Set or clear the deadline of the phase the game waits for.
pub fn run(a: Args, wait: Duration) -> Result<String> {
    let now = super::now(a.now.as_deref())?;
    let when = a.when.trim();
    let deadline = if when == "none" {
        None
    } else {
        Some(
            crate::time::parse_when(when, &now)
                .map_err(|e| Error::usage(format!("{e}; or none")))?
                .to_rfc3339(),
        )
    };
    let g = pipeline::set_deadline(&a.game, deadline, &now.to_rfc3339(), wait)?;
    let h = g.head();
    Ok(match &h.deadline {
        Some(d) => format!(
            "turn {} of {}: deadline {}\n",
            h.turn,
            h.id,
            crate::time::shown(d)
        ),
        None => format!("turn {} of {}: no deadline\n", h.turn, h.id),
    })
}
