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
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    pub lobby: Option<Lobby>,
    /// The host folder: host.toml, host.secrets.toml and one folder per game.
    #[arg(required = true)]
    pub dir: Option<PathBuf>,
    /// Keep running: a pass every `poll` (host.toml), until SIGTERM or SIGINT.
    #[arg(long)]
    pub watch: bool,
    /// The time of the pass (RFC 3339; default: now). With --watch, only the first.
    #[arg(long)]
    pub now: Option<String>,
    /// With --watch: serve the folder over HTTP too, as `herald serve DIR
    /// --listen ADDR` would (docs/web.md), in the same process.
    #[arg(long, value_name = "ADDR", requires = "watch")]
    pub serve: Option<String>,
    /// With --serve: the address players reach the server at (`herald serve --url`).
    #[arg(long, requires = "serve")]
    pub url: Option<String>,
    #[command(flatten)]
    pub wait: super::values::Wait,
}

impl Args {
    /// The `--wait` of the command given: the pass's, or a lobby command's
    /// that takes a lock (`replace`, `approve`).
    pub fn wait(&self) -> Option<super::values::Wait> {
        match &self.lobby {
            None => Some(self.wait),
            Some(Lobby::Replace { wait, .. } | Lobby::Approve { wait, .. }) => Some(*wait),
            Some(Lobby::Open(_) | Lobby::Status { .. } | Lobby::Ratings { .. }) => None,
        }
    }
}

/// The moderator's lobby commands (docs/host.md, "The lobby").
#[derive(clap::Subcommand, Debug)]
pub enum Lobby {
    /// Open a table that players join by mail (`join TABLE`); it becomes
    /// the game TABLE when full or at its start time.
    Open(OpenArgs),
    /// The tables: seats (with addresses), pending confirmations, state;
    /// the standby list, seats offered for takeover, vacations.
    Status {
        /// The host folder.
        dir: PathBuf,
    },
    /// The players' Glicko-2 ratings (rating ± deviation) from every
    /// finished game of the host, per game and options, by address: the
    /// moderator's view (docs/host.md, "Ratings").
    Ratings {
        /// The host folder.
        dir: PathBuf,
        /// Only this game's pools (a name `herald games` lists).
        #[arg(
            long = "ruleset",
            value_name = "RULESET",
            value_parser = super::values::rulesets()
        )]
        game: Option<String>,
    },
    /// Free PLAYER's seat in GAME: it is offered to the standby list, and
    /// the first to confirm `takeover GAME PLAYER` by mail gets it.
    Replace {
        /// The host folder.
        dir: PathBuf,
        /// The game (a folder of the host).
        game: String,
        /// The player whose seat is freed.
        #[arg(long, value_name = "PLAYER")]
        player: String,
        /// The time to record (RFC 3339; default: now).
        #[arg(long)]
        now: Option<String>,
        #[command(flatten)]
        wait: super::values::Wait,
    },
    /// Let the confirmed taker of PLAYER's seat in GAME have it (for games
    /// whose table was opened with --approve-takeovers).
    Approve {
        /// The host folder.
        dir: PathBuf,
        /// The game (a folder of the host).
        game: String,
        /// The player whose seat is taken over.
        #[arg(long, value_name = "PLAYER")]
        player: String,
        #[command(flatten)]
        wait: super::values::Wait,
    },
}

#[derive(clap::Args, Debug)]
pub struct OpenArgs {
    /// The host folder.
    pub dir: PathBuf,
    /// The table's name: the id of the game it becomes.
    pub table: String,
    /// The ruleset the table's game plays (see `herald games`).
    #[arg(
        long = "ruleset",
        value_name = "RULESET",
        value_parser = super::values::rulesets()
    )]
    pub game: String,
    /// How many players: N, or MIN-MAX (default: what the game takes).
    #[arg(long)]
    pub seats: Option<String>,
    /// A game option, key=value, as for `herald new`; repeat for more.
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// A deadline for every phase, e.g. 48h (as `herald new`).
    #[arg(long)]
    pub deadline_every: Option<String>,
    /// What a player who misses a deadline gets (as `herald new --nmr`).
    #[arg(long, value_parser = super::values::nmr())]
    pub nmr: Option<String>,
    /// `full` (start when every seat is taken), or a time (RFC 3339):
    /// start then with at least the minimum, or earlier when full.
    #[arg(long, default_value = "full")]
    pub starts_when: String,
    /// The time to record as the table's opening (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    /// Days of vacation each player of the game may take (`vacation …
    /// until` by mail).
    #[arg(long, default_value_t = crate::host::lobby::seats::VACATION_DAYS)]
    pub vacation_days: u32,
    /// What a vacation does when a deadline comes without the player's
    /// orders: extend (the deadline moves to the end of the vacation) or
    /// stand-in (the game's stand-in plays the phase, not counted as
    /// missed). Default extend.
    #[arg(long, value_parser = super::values::vacation_modes())]
    pub vacation: Option<String>,
    /// A takeover of a freed seat waits for `herald host approve`.
    #[arg(long)]
    pub approve_takeovers: bool,
    /// Missed phases in a row after which a player drops out and their
    /// seat is offered for takeover (as `herald new --drop-after`).
    #[arg(long)]
    pub drop_after: Option<u32>,
    /// Seats one address may hold in the table's game (default: host.toml's
    /// `seats_per_address`, 1: one person, one seat).
    #[arg(long)]
    pub seats_per_address: Option<u32>,
    /// The least reliability, in whole percent (0 to 100), an address must
    /// have across this host's games to join: phases with orders in over
    /// phases seated (docs/host.md, "Reliability"); a newcomer has none
    /// and may join.
    #[arg(long)]
    pub min_reliability: Option<u32>,
    /// The least rating an address must have in the pool of the table's
    /// game and options to join (Glicko-2 points; a newcomer counts as
    /// 1500; docs/host.md, "Ratings").
    #[arg(long)]
    pub min_rating: Option<u32>,
    /// The most rating an address may have to join (as --min-rating).
    #[arg(long)]
    pub max_rating: Option<u32>,
    // The table's game's press, as `herald new --press …`.
    #[command(flatten)]
    pub press: super::new::PressArgs,
    /// Seats herald's bots play, seat=bot, comma-separated (e.g.
    /// bot=mcts:1000): each seat's name is its player id in the game; the
    /// table is full when its other seats (--seats) are taken.
    #[arg(long, value_delimiter = ',', value_name = "SEAT=BOT")]
    pub bot_seats: Vec<String>,
}

fn lobby(l: Lobby, wait: Duration) -> Result<String> {
    match l {
        Lobby::Open(o) => {
            let now = super::now(o.now.as_deref())?.to_rfc3339();
            let t = crate::host::lobby::open(
                &o.dir,
                &crate::host::lobby::OpenTable {
                    table: o.table.clone(),
                    game: o.game,
                    seats: o.seats,
                    options: o.options,
                    deadline_every: o.deadline_every,
                    nmr: o.nmr,
                    starts_when: o.starts_when,
                    now,
                    vacation_days: o.vacation_days,
                    vacation: o.vacation,
                    approve_takeovers: o.approve_takeovers,
                    drop_after: o.drop_after,
                    seats_per_address: o.seats_per_address,
                    min_reliability: o.min_reliability,
                    min_rating: o.min_rating,
                    max_rating: o.max_rating,
                    press: o.press.into(),
                    from_file: None,
                    bot_seats: o.bot_seats,
                },
            )?;
            Ok(format!(
                "opened table {}\npress: {}\nplayers join by mailing the host's address with the first line `join {} [name]`; `herald host status {}` shows the tables\n",
                t.describe(),
                t.press_words(),
                t.name,
                o.dir.display()
            ))
        }
        Lobby::Status { dir } => crate::host::lobby::status_text(&dir),
        Lobby::Ratings { dir, game } => crate::host::gallery::ratings_text(&dir, game.as_deref()),
        Lobby::Replace {
            dir,
            game,
            player,
            now,
            wait: _,
        } => crate::host::lobby::seats::replace(
            &crate::host::lobby::seats::Moderator {
                dir: &dir,
                now: super::now(now.as_deref())?.to_rfc3339(),
                wait,
            },
            &game,
            &player,
        ),
        Lobby::Approve {
            dir,
            game,
            player,
            wait: _,
        } => crate::host::lobby::seats::approve(
            &crate::host::lobby::seats::Moderator {
                dir: &dir,
                now: super::now(None)?.to_rfc3339(),
                wait,
            },
            &game,
            &player,
        ),
    }
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
        "{now}: {} games; mail in: {} ({} orders accepted, {} refused, {} commands, {} press relayed, {} for no game, {} ignored, {} handled before), {} left for the next pass; mail out: {} sent, {} refused, {} deferred\n",
        r.games, r.mails, r.accepted, r.refused, r.commands, r.press, r.no_game, r.ignored, r.already, r.left, r.sent, r.refused_out, r.deferred
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
///
/// Long (about 85 lines): the steps of a host's start in order (the
/// folder, its lock, the configuration, the log, the server beside),
/// then the one pass or the loop.
pub fn run(mut a: Args, wait: Duration) -> Result<String> {
    if let Some(l) = a.lobby.take() {
        return lobby(l, wait);
    }
    let Some(dir) = a.dir.clone() else {
        return Err(Error::usage("herald host DIR: give the host folder"));
    };
    // One host per folder: an overlapping pass (cron, or a second
    // --watch) waits, then exits 3; it never touches the folder meanwhile.
    let host = HostDir::at(&dir);
    if !dir.is_dir() {
        return Err(if dir.exists() {
            Error::usage(format!(
                "{}: not a folder; a host folder holds host.toml (docs/host.md)",
                dir.display()
            ))
        } else {
            Error::refused(format!(
                "{}: no such host folder (a host folder holds host.toml: docs/host.md)",
                dir.display()
            ))
        });
    }
    let _lock = Lock::acquire_for(&host.lock(), wait, |pid, waited| {
        format!(
            "host {} is busy (pid {pid}): another `herald host` is running on it; this one stops without touching it (waited {waited} s)",
            dir.display()
        )
    })?;
    let cfg = HostConfig::load(&dir)?;
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
                dir.display()
            ));
        }
        return Err(Error::all(problems));
    }
    serve_beside(&a, &dir)?;
    let mut first = true;
    let mut cfg = cfg;
    loop {
        let now = if first { a.now.clone() } else { None };
        first = false;
        let r = one_pass(&a, &cfg, &log, wait, now.as_deref())?;
        let stamp = super::now(now.as_deref())?.to_rfc3339();
        super::output::stdout(summary(&r, &stamp).as_bytes())?;
        super::output::problems(&r.host_problems);
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
        match HostConfig::load(&dir) {
            Ok(c) => cfg = c,
            Err(e) => {
                super::output::problems(&[format!("{e} (keeping the configuration read before)")])
            }
        }
    }
    Ok("stopped\n".into())
}

/// `--serve ADDR`: `herald serve` on its own thread beside the passes,
/// until the process ends with them (SIGTERM: the pass in hand
/// finishes, then all stops).
fn serve_beside(a: &Args, dir: &std::path::Path) -> Result<()> {
    let Some(listen) = &a.serve else {
        return Ok(());
    };
    let opts = crate::web::Options {
        dir: dir.to_path_buf(),
        listen: super::serve::listen(listen)?,
        url: a.url.clone(),
    };
    std::thread::spawn(move || {
        if let Err(e) = crate::web::serve(opts) {
            super::output::problems(&[format!("herald host --serve: {e}")]);
        }
    });
    Ok(())
}
