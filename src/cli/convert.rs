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
    /// an older format (2 to 7) to bring to the current format in place,
    /// or (with --out FILE) a game folder or game file of an older format
    /// to copy without the players' addresses.
    pub old: PathBuf,
    /// The new game folder for a game of herald 0.1 (it must not exist, or
    /// be empty); for a game of format 2 to 4, a new file to write a copy
    /// of its game file to, without addresses, for publishing.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Sign with this key (made by `herald keygen`) instead of a new one;
    /// with --out FILE, the game's own key (its moderator.key) where GAME
    /// is a game file with no key beside it.
    #[arg(long)]
    pub key: Option<PathBuf>,
    /// The time to record for the conversion (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    #[command(flatten)]
    pub wait: super::values::Wait,
}

/// Verify an old game by replaying it, then write it as a game folder; or
/// bring a game folder of an older format (2 to 7) to the current format
/// (8), or copy its game file without addresses (`--out FILE`).
pub fn run(a: Args, wait: Duration) -> Result<String> {
    let now = super::now(a.now.as_deref())?.to_rfc3339();
    if let Found::Folder(_) = GameDir::locate(&a.old)? {
        return folder(&a, wait, &now);
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

/// `herald convert GAME` on a game folder: brought to the current format in place,
/// or (`--out FILE`) copied without the players' addresses.
fn folder(a: &Args, wait: Duration, now: &str) -> Result<String> {
    if let Some(out) = &a.out {
        // A copy without addresses, GAME left as it is.
        let told = pipeline::convert::strip(&a.old, a.key.as_deref(), out)?;
        let mut s = format!(
                "wrote {}: the game file of {} as format {FORMAT} keeps it, without the players' addresses, signed with the game's key; {} is left as it was\n",
                out.display(),
                a.old.display(),
                a.old.display()
            );
        for t in told {
            s.push_str(&format!("  - {t}\n"));
        }
        return Ok(s);
    }
    if a.key.is_some() {
        return Err(Error::usage(format!(
                "{} is a game folder: it is brought to format {FORMAT} in place, with its own key; run `herald convert {}` (no --key), or give --out FILE for a copy without addresses",
                a.old.display(),
                a.old.display()
            )));
    }
    let u = pipeline::convert::upgrade(&a.old, wait, now)?;
    if u.from >= FORMAT {
        return Ok(format!(
            "game {} in {} is of format {} already; nothing to do\n",
            u.id,
            u.dir.display(),
            u.from
        ));
    }
    let mut s = format!(
        "game {} in {}: format {} -> {FORMAT}\n",
        u.id,
        u.dir.display(),
        u.from
    );
    if u.told.is_empty() {
        s.push_str(
            "  - the head rewritten and sealed again; the log and its signatures unchanged\n",
        );
    }
    for t in u.told {
        s.push_str(&format!("  - {t}\n"));
    }
    Ok(s)
}
