//! `herald completions SHELL`: the shell's completion script for every
//! command and option, on standard output (clap_complete, from the same
//! definition as the parser, so it never falls behind). Where to put it:
//! README, "Install".

use crate::error::{Error, Result};
use clap::CommandFactory;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shell to complete for: bash, zsh or fish (also elvish, powershell).
    pub shell: clap_complete::Shell,
}

pub fn run(a: Args) -> Result<String> {
    let mut cmd = super::Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "herald", &mut out);
    String::from_utf8(out).map_err(|e| {
        Error::refused(format!(
            "the {} completion script is not UTF-8: {e}",
            a.shell
        ))
    })
}
