use crate::engine::Loaded;
use crate::error::{Error, Result};
use crate::file;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    /// The current phase's deadline: a time (RFC 3339 with its offset), a
    /// span from now (+72h, +3d, +90m, +1h30m), or `none`.
    pub when: String,
    /// The time to count a span from (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
}

/// Set or clear the deadline of the phase the game waits for.
pub fn run(a: Args) -> Result<String> {
    let mut g = Loaded::open(&a.game)?;
    if g.file.outcome.is_some() {
        return Err(Error::refused(format!(
            "game {} is over; it has no deadline to set",
            g.file.id
        )));
    }
    let now = super::now(a.now.as_deref())?;
    let when = a.when.trim();
    g.file.deadline = if when == "none" {
        None
    } else {
        Some(
            crate::time::parse_when(when, &now)
                .map_err(|e| Error::usage(format!("{e}; or none")))?
                .to_rfc3339(),
        )
    };
    file::write_atomic(&a.game, g.file.to_text().as_bytes())?;
    Ok(match &g.file.deadline {
        Some(d) => format!("turn {} of {}: deadline {d}\n", g.file.turn, g.file.id),
        None => format!("turn {} of {}: no deadline\n", g.file.turn, g.file.id),
    })
}
