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
    // Everything herald creates is its user's alone (folders 0700, files
    // 0600), whatever umask it was started with: game folders, the host's
    // state and outboxes hold passwords' hashes, addresses and mails.
    // SAFETY: umask only sets the process's file mode mask.
    unsafe {
        libc::umask(0o077);
    }
    let cli = herald::cli::Cli::parse();
    match herald::cli::run(cli) {
        Ok(out) => {
            print!("{out}");
            for w in herald::error::take_warnings() {
                eprintln!("herald: warning: {w}");
            }
        }
        Err(e) => {
            eprintln!("herald: {}", e.problems.join("\nherald: "));
            std::process::exit(e.exit_code());
        }
    }
}
