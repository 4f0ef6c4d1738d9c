//! `herald`: parse the command line, run the command, print its output,
//! and map an error to its exit status ([`herald::error::Kind`]):
//!
//! - 0: success (also when the reader of standard output has gone, as in
//!   `herald … | head`: herald stops there, quietly).
//! - 1: refused input (bad orders, a bad or damaged file, a failed check, a
//!   failed read or write); nothing was written.
//! - 2: usage (a wrong argument).
//! - 3: busy (another herald is writing the game: try again).
//! - 70: an internal fault: a bug in herald, not in what it was given
//!   (a panic too, whatever the build's panic strategy: `cli::output`).
//!
//! Every problem is printed on its own line, prefixed `herald: `.

use clap::Parser;
use herald::cli::output;

fn main() {
    output::on_panic();
    // Everything herald creates is its user's alone (folders 0700, files
    // 0600), whatever umask it was started with: game folders, the host's
    // state and outboxes hold passwords' hashes, addresses and mails.
    // SAFETY: umask only sets the process's file mode mask.
    unsafe {
        libc::umask(0o077);
    }
    // The test of the panic path (tests/it/manners.rs): a debug build
    // only, never a release.
    #[cfg(debug_assertions)]
    if let Some(how) = std::env::var_os("HERALD_TEST_PANIC") {
        let fault = || panic!("HERALD_TEST_PANIC is set (a debug build's test of the panic path)");
        if how == "thread" {
            let _ = std::thread::spawn(fault).join();
        }
        fault();
    }
    // The release before's spellings, as today's (with a warning each).
    let (args, old) = herald::cli::old::rewrite(std::env::args_os().collect());
    output::problems(
        &old.into_iter()
            .map(|w| format!("warning: {w}"))
            .collect::<Vec<_>>(),
    );
    let cli = herald::cli::Cli::parse_from(&args);
    let result = herald::cli::run(cli).and_then(|out| output::stdout(out.as_bytes()));
    let warnings: Vec<String> = herald::error::take_warnings()
        .into_iter()
        .map(|w| format!("warning: {w}"))
        .collect();
    output::problems(&warnings);
    if let Err(e) = result {
        output::problems(&e.problems);
        std::process::exit(e.exit_code());
    }
}
