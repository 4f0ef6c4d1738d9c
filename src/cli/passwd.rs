use crate::error::Result;
use crate::pipeline;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl).
    pub game: PathBuf,
    /// The player who gets a new password.
    #[arg(long, value_name = "PLAYER")]
    pub player: String,
    /// The time to record for the change (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    #[command(flatten)]
    pub wait: super::values::Wait,
}

/// A new password for one player: the game file keeps its Argon2id hash
/// (the change is a log entry), the secrets file the password (0600); the
/// old one stops working.
pub fn run(a: Args, wait: Duration) -> Result<String> {
    let now = super::now(a.now.as_deref())?.to_rfc3339();
    let (g, pw, secrets) = pipeline::passwd(&a.game, &a.player, &now, wait)?;
    Ok(format!(
        "new password for {} in game {}: {pw}\n(the old one no longer works; also written to {})\n",
        a.player,
        g.head().id,
        secrets.display()
    ))
}
