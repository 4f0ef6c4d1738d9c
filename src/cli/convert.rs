use crate::chain::FORMAT;
use crate::error::{Error, Result};
use crate::pipeline;
use crate::store::{layout::Found, GameDir};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game file of herald 0.1 (game.json, with game.secrets.toml,
    /// game.orders/ and game.outbox/ beside it), or a game folder of
    /// an older format (2 or 3) to bring to the current format in place.
    pub old: PathBuf,
    /// The new game folder for a game of herald 0.1 (it must not exist, or
    /// be empty).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Sign with this key (made by `herald keygen`) instead of a new one.
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// The time to record for the conversion (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    #[command(flatten)]
    pub wait: super::values::Wait,
}

/// Verify an old game by replaying it, then write it as a game folder; or
/// bring a game folder of an older format (2 or 3) to the current format (4).
pub fn run(a: Args, wait: Duration) -> Result<String> {
    let now = super::now(a.now.as_deref())?.to_rfc3339();
    if let Found::Folder(_) = GameDir::locate(&a.old)? {
        if a.out.is_some() || a.key.is_some() {
            return Err(Error::usage(format!(
                "{} is a game folder: it is brought to format {FORMAT} in place, with its own key; run `herald convert {}` (no --out, no --key)",
                a.old.display(),
                a.old.display()
            )));
        }
        let u = pipeline::convert::upgrade(&a.old, wait, &now)?;
        return Ok(if u.from >= FORMAT {
            format!(
                "game {} in {} is of format {} already; nothing to do\n",
                u.id,
                u.dir.display(),
                u.from
            )
        } else {
            format!(
                "game {} in {}: format {} -> {FORMAT} (the head rewritten and sealed again; the log and its signatures unchanged)\n",
                u.id,
                u.dir.display(),
                u.from
            )
        });
    }
    let Some(out) = a.out.as_deref() else {
        return Err(Error::usage(format!(
            "{} is a game of herald 0.1 (format 1): give the new folder, `herald convert {} --out <new folder>`",
            a.old.display(),
            a.old.display()
        )));
    };
    let c = pipeline::convert::convert(&a.old, out, a.key.as_deref(), &now)?;
    let mut s = format!(
        "converted {} into the game folder {} (format {FORMAT}); the old files are left as they were\n",
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
