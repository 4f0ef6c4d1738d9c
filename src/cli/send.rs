//! `herald send GAME`: hand the game's outbox to the mail system, each
//! mail once (`host::send`); `herald send --host DIR`: the host's outboxes
//! (its own and every game's) through its `[smtp]`, the mail-out step of
//! a pass alone.

use crate::error::{Error, Result};
use crate::host::send::{self, SendConfig};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder whose outbox to send.
    #[arg(required_unless_present = "host", value_name = "GAME")]
    pub game: Option<PathBuf>,
    /// How mail goes out (an SMTP server or a sendmail program; mode 0600
    /// when it holds a password). Default: send.toml in the game folder if
    /// there is one, else the system's sendmail (/usr/sbin/sendmail).
    #[arg(long, value_name = "FILE", conflicts_with = "host")]
    pub config: Option<PathBuf>,
    /// Send a host's outboxes instead (DIR/outbox/ and every game's),
    /// through host.toml's [smtp], as a pass of `herald host` would.
    #[arg(long, value_name = "DIR", conflicts_with = "game")]
    pub host: Option<PathBuf>,
    /// The time of the sending (RFC 3339; default: now): what the
    /// outbox's backoff counts from.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    #[command(flatten)]
    pub wait: super::values::Wait,
}

pub fn run(a: Args, wait: Duration) -> Result<String> {
    let now = super::now(a.now.as_deref())?;
    if let Some(dir) = &a.host {
        return host(dir, &now.to_rfc3339(), now.timestamp(), wait);
    }
    let Some(game) = &a.game else {
        return Err(Error::usage("give the game folder, or --host DIR"));
    };
    let folder = crate::pipeline::loaded::folder(game)?;
    let cfg = match &a.config {
        Some(p) => SendConfig::load(p)?,
        None => {
            let p = folder.root().join(send::CONFIG_FILE);
            if p.exists() {
                SendConfig::load(&p)?
            } else {
                SendConfig::system()
            }
        }
    };
    let s = send::game(game, &cfg, now.timestamp(), wait)?;
    told(&s)
}

/// What `herald send GAME` says: each mail handed over or not, then the
/// count; an error (exit 1) when a mail is left unsent.
fn told(s: &send::Sent) -> Result<String> {
    let r = &s.report;
    let out = s.outbox.display();
    let mut lines = Vec::new();
    for m in &r.sent {
        lines.push(format!("sent {} to {} ({})", m.file, m.to, m.reply));
    }
    for m in &r.unconfirmed {
        lines.push(format!(
            "{} to {}: an earlier run was stopped while the mail system took it; counted as sent, not sent again",
            m.file, m.to
        ));
    }
    let mut problems = Vec::new();
    for d in &r.deferred {
        problems.push(format!(
            "NOT sent: {} to {}: {} (attempt {}; `herald send` again from {})",
            d.file,
            d.to,
            d.error,
            d.attempts,
            crate::host::log::time_text(d.next_try)
        ));
    }
    for f in &r.refused {
        for x in &f.refused {
            problems.push(format!(
                "REFUSED for good: {} to {}: {} (the mail is kept in {}/refused/)",
                f.file,
                if x.to.is_empty() { "everyone" } else { &x.to },
                x.error,
                out
            ));
        }
    }
    problems.extend(r.problems.iter().cloned());
    if let Some(f) = &r.stopped {
        problems.push(format!(
            "stopped: {f}; the mails not sent wait in {out} for the next `herald send`"
        ));
    }
    let total = r.sent.len() + r.unconfirmed.len();
    let mut head = if total == 0 && r.waiting == 0 && problems.is_empty() {
        format!("{out}: no mail to send\n")
    } else {
        format!(
            "{out}: {} sent through {}{}\n",
            count(r.sent.len(), "recipient"),
            s.via,
            match r.waiting {
                0 => String::new(),
                n => format!(
                    "; {} waiting for their next try ({})",
                    count(n, "mail"),
                    s.next_try
                        .map(|t| format!(
                            "`herald send` again from {}",
                            crate::host::log::time_text(t)
                        ))
                        .unwrap_or_default()
                ),
            }
        )
    };
    for l in lines {
        head.push_str(&format!("  {l}\n"));
    }
    if problems.is_empty() && r.waiting == 0 {
        return Ok(head);
    }
    let mut all = vec![head.trim_end().to_string()];
    all.extend(problems);
    if r.waiting > 0 && all.len() == 1 {
        all.push(format!(
            "{} not sent yet: nothing is lost, they wait in {out}",
            count(r.waiting, "mail")
        ));
    }
    Err(Error::all(all))
}

fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// `herald send --host DIR`.
fn host(dir: &std::path::Path, now: &str, now_secs: i64, wait: Duration) -> Result<String> {
    use crate::host::{config::HostConfig, layout::HostDir, log::Log, pass};
    if !dir.is_dir() {
        return Err(if dir.exists() {
            Error::usage(format!(
                "--host {}: not a folder; a host folder holds host.toml (docs/host.md)",
                dir.display()
            ))
        } else {
            Error::refused(format!(
                "--host {}: no such host folder (a host folder holds host.toml: docs/host.md)",
                dir.display()
            ))
        });
    }
    let _lock = crate::store::lock::Lock::acquire_for(
        &HostDir::at(dir).lock(),
        wait,
        |pid, waited| {
            format!(
            "host {} is busy (pid {pid}): a `herald host` pass is running on it and sends its mail itself; this one stops without touching it (waited {waited} s)",
            dir.display()
        )
        },
    )?;
    let cfg = HostConfig::load(dir)?;
    let file = cfg.log_file.clone();
    let log = Log::open(file.as_deref(), cfg.log_stderr || file.is_none())?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let r = pass::mail_out_only(&pass::Pass {
        cfg: &cfg,
        log: &log,
        now: now.to_string(),
        now_secs,
        wait,
        stop: &stop,
    });
    let head = format!(
        "{}: {} games; mail out: {} sent, {} refused, {} deferred\n",
        dir.display(),
        r.games,
        r.sent,
        r.refused_out,
        r.deferred
    );
    let mut problems: Vec<String> = r.game_problems.clone();
    problems.extend(r.host_problems.iter().cloned());
    if problems.is_empty() && r.deferred == 0 && r.refused_out == 0 {
        return Ok(head);
    }
    let mut all = vec![head.trim_end().to_string()];
    all.extend(problems);
    if r.config_failure {
        all.push(format!(
            "fix {}/host.toml or host.secrets.toml; nothing was lost: every mail waits for the next `herald send --host` or pass",
            dir.display()
        ));
    }
    Err(Error::all(all))
}
