use crate::error::{Error, Result};
use crate::host::config::HostConfig;
use crate::host::layout::HostDir;
use crate::host::log::Log;
use crate::host::pass::{self, Pass, PassReport};
use crate::store::lock::Lock;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The host folder: host.toml, host.secrets.toml and one folder per game.
    pub dir: PathBuf,
    /// Keep running: a pass every `poll` (host.toml), until SIGTERM or SIGINT.
    #[arg(long)]
    pub watch: bool,
    /// The time of the pass (RFC 3339; default: now). With --watch, only the first.
    #[arg(long)]
    pub now: Option<String>,
}

/// Set by SIGTERM and SIGINT: the pass finishes the mail it is on, then stops.
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// SIGTERM and SIGINT set [`STOP`] instead of killing the process. With
/// libc (already a dependency) rather than a crate: one flag is all we need.
fn catch_signals() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_signal as *const () as usize;
        libc::sigemptyset(&mut sa.sa_mask);
        sa.sa_flags = 0;
        libc::sigaction(libc::SIGTERM, &sa, std::ptr::null_mut());
        libc::sigaction(libc::SIGINT, &sa, std::ptr::null_mut());
    }
}

fn summary(r: &PassReport, now: &str) -> String {
    let mut s = format!(
        "{now}: {} games; mail in: {} ({} orders accepted, {} refused, {} commands, {} for no game, {} ignored, {} handled before), {} left for the next pass; mail out: {} sent, {} refused, {} deferred\n",
        r.games, r.mails, r.accepted, r.refused, r.commands, r.no_game, r.ignored, r.already, r.left, r.sent, r.refused_out, r.deferred
    );
    for l in &r.game_time {
        s.push_str(&format!("  {l}\n"));
    }
    for p in &r.game_problems {
        s.push_str(&format!("  problem: {p}\n"));
    }
    if r.stopped {
        s.push_str("  stopped by a signal; the rest is left for the next pass\n");
    }
    s
}

fn one_pass(
    a: &Args,
    cfg: &HostConfig,
    log: &Log,
    wait: Duration,
    now: Option<&str>,
) -> Result<PassReport> {
    let t = super::now(now)?;
    let p = Pass {
        cfg,
        log,
        now: t.to_rfc3339(),
        now_secs: t.timestamp(),
        wait,
        stop: &STOP,
    };
    let _ = a;
    Ok(pass::run(&p))
}

fn open_log(cfg: &HostConfig) -> Result<Log> {
    let file = cfg.log_file.clone();
    Log::open(file.as_deref(), cfg.log_stderr || file.is_none())
}

/// `herald host DIR`: one pass (exit 0 when all is well, 1 when a mail
/// server or the configuration failed: nothing is lost, the next pass
/// retries); `--watch`: a pass every `poll` until SIGTERM/SIGINT.
pub fn run(a: Args, wait: Duration) -> Result<String> {
    // One host per folder: an overlapping pass (cron, or a second
    // --watch) waits, then exits 3; it never touches the folder meanwhile.
    let host = HostDir::at(&a.dir);
    if !a.dir.is_dir() {
        return Err(Error::usage(format!(
            "{}: not a folder; a host folder holds host.toml (docs/host.md)",
            a.dir.display()
        )));
    }
    let _lock = Lock::acquire_for(&host.lock(), wait, |pid, waited| {
        format!(
            "host {} is busy (pid {pid}): another `herald host` is running on it; this one stops without touching it (waited {waited} s)",
            a.dir.display()
        )
    })?;
    let cfg = HostConfig::load(&a.dir)?;
    let log = open_log(&cfg)?;
    catch_signals();
    if !a.watch {
        let r = one_pass(&a, &cfg, &log, wait, a.now.as_deref())?;
        let now = super::now(a.now.as_deref())?.to_rfc3339();
        let s = summary(&r, &now);
        if r.host_problems.is_empty() {
            return Ok(s);
        }
        let mut problems = vec![s.trim_end().to_string()];
        problems.extend(r.host_problems.iter().cloned());
        if r.config_failure {
            problems.push(format!(
                "fix {}/host.toml or host.secrets.toml; nothing was lost: every mail waits for the next pass",
                a.dir.display()
            ));
        }
        return Err(Error::all(problems));
    }
    let mut first = true;
    let mut cfg = cfg;
    loop {
        let now = if first { a.now.clone() } else { None };
        first = false;
        let r = one_pass(&a, &cfg, &log, wait, now.as_deref())?;
        let stamp = super::now(now.as_deref())?.to_rfc3339();
        print!("{}", summary(&r, &stamp));
        for p in &r.host_problems {
            eprintln!("herald: {p}");
        }
        if STOP.load(Ordering::SeqCst) {
            break;
        }
        // Sleep in small steps so a signal stops the loop at once.
        let until = std::time::Instant::now() + Duration::from_secs(cfg.poll.max(1));
        while std::time::Instant::now() < until && !STOP.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(100));
        }
        if STOP.load(Ordering::SeqCst) {
            break;
        }
        // Read the configuration again: a moderator's fix takes effect
        // without a restart.
        match HostConfig::load(&a.dir) {
            Ok(c) => cfg = c,
            Err(e) => eprintln!("herald: {e} (keeping the configuration read before)"),
        }
    }
    Ok("stopped\n".into())
}
