//! The command line: one file per subcommand. Each takes its arguments,
//! makes one call into the library and returns the text to print, or an
//! [`Error`] that `main` turns into a message and an exit status:
//! 0 success, 1 refused input (nothing written), 2 usage, 3 busy, 70 an
//! internal fault (`crate::error::Kind`).

mod check;
mod completions;
mod convert;
mod deadline;
mod demo;
mod export;
mod games;
mod host;
mod inbox;
mod keygen;
mod man;
mod new;
pub mod old;
mod orders;
pub mod output;
mod passwd;
mod playtest;
mod report;
mod resolve;
mod send;
pub(crate) mod serve;
mod site;
mod status;
mod undo;
pub mod values;
mod verify;
mod version;

use crate::error::{Error, Result};
use clap::{Parser, Subcommand};
use std::time::Duration;

/// What the names in herald's synopses stand for (`--help`'s closing
/// text and herald(1)'s NAMES).
pub const NAMES: &str = "RULESET is a game's rules as `herald games` lists them (norse-wars, hexwar and the others): `new`, `demo` and `playtest` start from one. GAME is a game folder (or the game.jsonl in it): every other command takes one. PLAYER is a player id, always given as `--player PLAYER`. Old spellings (`--for`, `host open --game`, a player after `host replace`/`approve` GAME, `--wait` before the command) are still read, with a warning, until the next release.";

/// herald's exit statuses (`crate::error::Kind`): `--help`'s closing text
/// and every manual page's EXIT STATUS.
pub const EXIT_STATUSES: [(u8, &str); 5] = [
    (0, "success (also when the reader of the output has gone: `herald ... | head`)."),
    (1, "refused: bad orders, a bad game file, a failed check, a missing file or folder; nothing written."),
    (2, "usage: a wrong argument."),
    (3, "busy: another herald is writing the game: try again, or give --wait."),
    (70, "an internal fault (a bug in herald: please report it)."),
];

fn after_help() -> String {
    let codes: Vec<String> = EXIT_STATUSES
        .iter()
        .map(|(c, w)| format!("{c} {}", w.trim_end_matches('.')))
        .collect();
    format!("Names: {NAMES}\n\nExit status: {}.", codes.join("; "))
}

#[derive(Parser, Debug)]
#[command(
    name = "herald",
    version,
    // herald's own -V/--version below, which --verbose extends.
    disable_version_flag = true,
    // `herald` alone shows the help (exit 2), as with a required command.
    arg_required_else_help = true,
    about = "A play-by-email turn processor",
    long_about = None,
    after_help = after_help()
)]
pub struct Cli {
    /// Print the version; with --verbose, also the commit it was built
    /// from, the game-file format it writes and each ruleset's version and
    /// hash.
    #[arg(short = 'V', long)]
    pub version: bool,
    /// With --version: everything about the build.
    #[arg(long, requires = "version")]
    pub verbose: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the rulesets built in.
    Games(games::Args),
    /// Start a game: a new game folder with the game file, secrets, key and turn-0 reports.
    New(new::Args),
    /// Check order files without resolving; exit 1 if any is refused.
    Check(check::Args),
    /// Resolve the phase the game waits for and write every report.
    Resolve(resolve::Args),
    /// Render one player's report again, or rebuild the current turn's reports.
    Report(report::Args),
    /// Turn, phase, whose orders are awaited, the outcome.
    Status(status::Args),
    /// Check a game file: its chain, its seal, and a replay of every phase.
    Verify(verify::Args),
    /// Print a blank order form for a player.
    Orders(orders::Args),
    /// Play a whole game with bot players, by mail, into a folder.
    Demo(demo::Args),
    /// Read mail (Maildir or mbox): store accepted order files, queue replies.
    Inbox(inbox::Args),
    /// Set the current phase's deadline.
    Deadline(deadline::Args),
    /// Give a player a new password.
    Passwd(passwd::Args),
    /// Write a player's own reports and orders so far into a folder.
    Export(export::Args),
    /// Write a static replay site of a game, checked in the browser (or a host's gallery).
    Site(site::Args),
    /// Roll back the last resolved phase (replaying the log without it).
    Undo(undo::Args),
    /// Convert a game of herald 0.1 (game.json) into a game folder, or
    /// bring a game folder of an older format (2 to 7) to the current one in place.
    Convert(convert::Args),
    /// Make a moderator's signing key for `new --key`.
    Keygen(keygen::Args),
    /// Play tournaments of view-only bots; `playtest summarize` sums them up.
    Playtest(playtest::Args),
    /// Run games by mail: read mail, answer it, resolve, send (one pass, or --watch).
    Host(host::Args),
    /// Print a shell's completion script (bash, zsh, fish, elvish, powershell).
    Completions(completions::Args),
    /// Write the manual pages, one per command, into a folder.
    Man(man::Args),
    /// Hand a game's outbox to an SMTP server or sendmail, each mail once (or a host's, with --host).
    Send(send::Args),
    /// Serve the host folder over HTTP: players sign in by a mailed link and play in the browser.
    Serve(serve::Args),
}

impl Command {
    /// The command's own `--wait`, if it takes a lock (only those have one).
    fn wait(&self) -> Option<values::Wait> {
        match self {
            Command::Resolve(a) => Some(a.wait),
            Command::Report(a) => Some(a.wait),
            Command::Inbox(a) => Some(a.wait),
            Command::Deadline(a) => Some(a.wait),
            Command::Passwd(a) => Some(a.wait),
            Command::Undo(a) => Some(a.wait),
            Command::Convert(a) => Some(a.wait),
            Command::Host(a) => a.wait(),
            Command::Send(a) => Some(a.wait),
            _ => None,
        }
    }
}

/// Run a parsed command line; the output to print on success.
pub fn run(cli: Cli) -> Result<String> {
    if cli.version {
        return Ok(version::text(cli.verbose));
    }
    let Some(command) = cli.command else {
        return Err(Error::usage(
            "a command is needed (`herald --help` lists them)",
        ));
    };
    // Only the commands that take a lock have a --wait.
    let wait = Duration::from_secs(
        command
            .wait()
            .and_then(|w| w.seconds)
            .unwrap_or(values::DEFAULT_WAIT),
    );
    match command {
        Command::Games(a) => games::run(a),
        Command::New(a) => new::run(a),
        Command::Check(a) => check::run(a),
        Command::Resolve(a) => resolve::run(a, wait),
        Command::Report(a) => report::run(a, wait),
        Command::Status(a) => status::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Orders(a) => orders::run(a),
        Command::Demo(a) => demo::run(a),
        Command::Inbox(a) => inbox::run(a, wait),
        Command::Deadline(a) => deadline::run(a, wait),
        Command::Passwd(a) => passwd::run(a, wait),
        Command::Export(a) => export::run(a),
        Command::Site(a) => site::run(a),
        Command::Undo(a) => undo::run(a, wait),
        Command::Convert(a) => convert::run(a, wait),
        Command::Keygen(a) => keygen::run(a),
        Command::Playtest(a) => playtest::run(a),
        Command::Host(a) => host::run(a, wait),
        Command::Completions(a) => completions::run(a),
        Command::Man(a) => man::run(a),
        Command::Send(a) => send::run(a, wait),
        Command::Serve(a) => serve::run(a),
    }
}

/// `--now` or the clock: the only place herald reads the time.
pub fn now(arg: Option<&str>) -> Result<chrono::DateTime<chrono::FixedOffset>> {
    match arg {
        Some(s) => crate::time::parse_time(s).map_err(|e| Error::usage(format!("--now {s}: {e}"))),
        None => Ok(crate::time::whole_seconds(
            chrono::Utc::now().fixed_offset(),
        )),
    }
}
