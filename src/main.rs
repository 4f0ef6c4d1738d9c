//! `herald`: parse the command line, run the command, print its output,
//! and map an error to its exit status ([`herald::error::Kind`]):
//!
//! - 0: success.
//! - 1: refused input (bad orders, a bad or damaged file, a failed check, a
//!   failed read or write); nothing was written.
//! - 2: usage (a wrong argument).
//! - 3: busy (another herald is writing the game: try again).
//! - 70: an internal fault: a bug in herald, not in what it was given.
//!
//! Every problem is printed on its own line, prefixed `herald: `.

use clap::Parser;

fn main() {
    let cli = herald::cli::Cli::parse();
    match herald::cli::run(cli) {
        Ok(out) => print!("{out}"),
        Err(e) => {
            eprintln!("herald: {}", e.problems.join("\nherald: "));
            std::process::exit(e.exit_code());
        }
    }
}
