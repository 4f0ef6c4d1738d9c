use crate::error::Result;
use crate::pipeline;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game file of herald 0.1 (game.json, with game.secrets.toml,
    /// game.orders/ and game.outbox/ beside it).
    pub old: PathBuf,
    /// The new game folder (it must not exist, or be empty).
    #[arg(long)]
    pub out: PathBuf,
    /// Sign with this key (made by `herald keygen`) instead of a new one.
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// The time to record for the conversion (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
}

/// Verify an old game by replaying it, then write it as a game folder.
pub fn run(a: Args) -> Result<String> {
    let now = super::now(a.now.as_deref())?.to_rfc3339();
    let c = pipeline::convert::convert(&a.old, &a.out, a.key.as_deref(), &now)?;
    let mut s = format!(
        "converted {} into the game folder {} (format 2); the old files are left as they were\n",
        a.old.display(),
        c.dir.root().display()
    );
    if !c.orders.is_empty() {
        s.push_str(&format!(
            "orders waiting, checked and sealed: {}\n",
            c.orders.join(", ")
        ));
    }
    if c.mails > 0 {
        s.push_str(&format!(
            "mails waiting to be sent, carried over: {}\n",
            c.mails
        ));
    }
    s.push_str("what herald 0.1 did not prove (written into the new file's first entry):\n");
    for u in &c.unproven {
        s.push_str(&format!("  - {u}\n"));
    }
    s.push_str("mails read before the conversion are known by Message-ID only: read the mailbox again only for new mail\n");
    Ok(s)
}
