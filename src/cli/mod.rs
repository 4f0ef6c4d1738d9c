//! The command line: one file per subcommand. Each returns the text to print
//! or an [`Error`] that `main` turns into a message and an exit status.

mod check;
mod deadline;
mod demo;
mod export;
mod games;
mod inbox;
mod new;
mod orders;
mod passwd;
mod playtest;
mod report;
mod resolve;
mod status;
mod undo;
mod verify;

use crate::error::{Error, Result};
use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "herald", version, about = "A play-by-email turn processor", long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the rulesets built in.
    Games(games::Args),
    /// Start a game: write the game file, the passwords and the turn-0 reports.
    New(new::Args),
    /// Check order files without resolving; exit 1 if any is refused.
    Check(check::Args),
    /// Resolve the phase the game waits for and write every report.
    Resolve(resolve::Args),
    /// Render one player's report again.
    Report(report::Args),
    /// Turn, phase, whose orders are awaited, the outcome.
    Status(status::Args),
    /// Replay the whole game and check every hash.
    Verify(verify::Args),
    /// Print a blank order form for a player.
    Orders(orders::Args),
    /// Play a whole game with bot players, by mail, into a folder.
    Demo(demo::Args),
    /// Read mail (Maildir or mbox): store accepted order files, write replies.
    Inbox(inbox::Args),
    /// Set the current phase's deadline.
    Deadline(deadline::Args),
    /// Give a player a new password.
    Passwd(passwd::Args),
    /// Write a player's own reports and orders so far into one file.
    Export(export::Args),
    /// Roll back the last resolved phase (replaying the log without it).
    Undo(undo::Args),
    /// Play tournaments of view-only bots; `playtest summarize` sums them up.
    Playtest(playtest::Args),
}

/// Run a parsed command line; the output to print on success.
pub fn run(cli: Cli) -> Result<String> {
    match cli.command {
        Command::Games(a) => games::run(a),
        Command::New(a) => new::run(a),
        Command::Check(a) => check::run(a),
        Command::Resolve(a) => resolve::run(a),
        Command::Report(a) => report::run(a),
        Command::Status(a) => status::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Orders(a) => orders::run(a),
        Command::Demo(a) => demo::run(a),
        Command::Inbox(a) => inbox::run(a),
        Command::Deadline(a) => deadline::run(a),
        Command::Passwd(a) => passwd::run(a),
        Command::Export(a) => export::run(a),
        Command::Undo(a) => undo::run(a),
        Command::Playtest(a) => playtest::run(a),
    }
}

/// `--now` or the clock: the only place herald reads the time.
pub fn now(arg: Option<&str>) -> Result<chrono::DateTime<chrono::FixedOffset>> {
    match arg {
        Some(s) => chrono::DateTime::parse_from_rfc3339(s).map_err(|e| {
            Error::usage(format!(
                "--now {s}: not an RFC 3339 time ({e}); e.g. 2026-11-22T18:00:00Z"
            ))
        }),
        None => Ok(chrono::Utc::now().fixed_offset()),
    }
}

/// Find a player's seat by id, or say who the players are.
pub fn seat_of(g: &crate::engine::Loaded, id: &str) -> Result<usize> {
    g.file.player_index(id).ok_or_else(|| {
        Error::usage(format!(
            "`{id}` is not a player of this game ({})",
            g.players().join(", ")
        ))
    })
}
