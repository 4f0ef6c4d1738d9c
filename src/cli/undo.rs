use crate::error::Result;
use crate::pipeline;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl).
    pub game: PathBuf,
    /// The time to record for the rollback (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    #[command(flatten)]
    pub wait: super::values::Wait,
}

/// Roll back the last resolved phase, replaying the log without it.
pub fn run(a: Args, wait: Duration) -> Result<String> {
    let now = super::now(a.now.as_deref())?.to_rfc3339();
    let w = pipeline::open_to_write(&a.game, wait, &now)?;
    let seed = w.seed()?;
    let (u, back) = pipeline::history::undo(&w.store, &w.game, &seed, &w.signer, &now)?;
    // Committed: reports that cannot be written now (a full disk) are
    // written by the next command.
    if let Err(e) = pipeline::derived::finish(&w.store, &back, &w.signer, None) {
        crate::error::warn(pipeline::incomplete(&w.store, &e));
    }
    Ok(format!(
        "rolled back turn {} ({}); the game waits for turn {} again\nthe undone file is kept as {} (see undo.log beside it)\n",
        u.turn,
        u.phase,
        u.turn,
        u.kept.display()
    ))
}
