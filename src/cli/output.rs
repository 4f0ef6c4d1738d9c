//! Where herald's words go, with a Unix tool's manners:
//!
//! - standard output whose reader has gone (`herald report … | head`)
//!   ends herald at once, quietly, with status 0, as ripgrep does: the
//!   reader asked for no more. (Rust ignores SIGPIPE, so the write fails
//!   with EPIPE instead of killing the process; herald does not ask for
//!   the signal back, since a sendmail child or a server that goes away
//!   must give an error, not kill the host.)
//! - standard error is written as well as it can be and never panics:
//!   with nowhere to say it, there is nothing more to do;
//! - a panic (a bug in herald) says what to report and exits 70
//!   ([`crate::error::Kind::Internal`]), whatever the build's panic
//!   strategy: the hook ends the process itself, before an unwind or an
//!   abort would.

use crate::error::{Error, Result};
use std::io::Write;

/// The status a panic exits with (`EX_SOFTWARE` of sysexits.h).
pub const PANIC_STATUS: i32 = 70;

/// Write `bytes` to standard output and flush it. A closed pipe ends the
/// process quietly (status 0); another failure (a full disk behind a
/// redirection) is a refusal to tell.
pub fn stdout(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Error::refused(format!("writing to standard output: {e}"))),
    }
}

/// Write `text` to standard error; a failure is ignored (there is
/// nowhere left to say it).
pub fn stderr(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|_| err.flush());
}

/// Each line of `problems` as herald says it: `herald: ` first.
pub fn problems(lines: &[String]) {
    let mut s = String::new();
    for l in lines {
        s.push_str("herald: ");
        s.push_str(l);
        s.push('\n');
    }
    stderr(&s);
}

/// Install the panic hook: the fault and what to report on standard
/// error, then exit [`PANIC_STATUS`] (from whichever thread panicked).
pub fn on_panic() {
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        let at = info
            .location()
            .map(|l| format!(" (at {}:{})", l.file(), l.line()))
            .unwrap_or_default();
        stderr(&format!(
            "herald: internal fault: {what}{at}\n\
             herald: this is a bug in herald, not in what it was given; please report it with \
             this message, the command you ran and the output of `herald --version --verbose`\n\
             herald: herald writes every file whole or not at all: what this command had \
             committed stays, the rest is as it was, and the command may be run again\n"
        ));
        std::process::exit(PANIC_STATUS);
    }));
}
