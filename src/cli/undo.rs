use crate::error::Result;
use crate::history;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    /// The time to record for the rollback (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    /// Where the reports are (default: reports/ beside the game file).
    #[arg(long)]
    pub reports: Option<PathBuf>,
}

/// Roll back the last resolved phase, replaying the log without it.
pub fn run(a: Args) -> Result<String> {
    let now = super::now(a.now.as_deref())?.to_rfc3339();
    let u = history::undo(&a.game, &now, a.reports.as_deref())?;
    Ok(format!(
        "rolled back turn {} ({}); the game waits for turn {} again\nthe undone file is kept as {} (see undo.log beside it)\nrewrote {} report files\n",
        u.turn,
        u.phase,
        u.turn,
        u.kept.display(),
        u.reports.len()
    ))
}
