//! `herald completions SHELL`: the shell's completion script for every
//! command and option, on standard output (clap_complete, from the same
//! definition as the parser, so it never falls behind). Where to put it:
//! README, "Install".

use crate::error::{Error, Result};
use clap::CommandFactory;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The shell to complete for.
    pub shell: clap_complete::Shell,
}

pub fn run(a: Args) -> Result<String> {
    let mut cmd = super::Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "herald", &mut out);
    let mut script = String::from_utf8(out).map_err(|e| {
        Error::refused(format!(
            "the {} completion script is not UTF-8: {e}",
            a.shell
        ))
    })?;
    if a.shell == clap_complete::Shell::Fish {
        script.push_str(&fish_positionals(&cmd));
    }
    Ok(script)
}

/// clap_complete's fish script completes options only, not the values of
/// positional arguments (clap issue #6295): the lines for those with a
/// closed set (a ruleset, a shell) are added here, from the same
/// definition, with the conditions the script itself uses.
fn fish_positionals(cmd: &clap::Command) -> String {
    fn lines(c: &clap::Command, condition: &str, out: &mut String) {
        for a in c.get_positionals().filter(|a| !a.is_hide_set()) {
            let values: Vec<String> = a
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| {
                    let help = v.get_help().map(|h| h.to_string()).unwrap_or_default();
                    format!(
                        "{}\\t'{}'",
                        v.get_name(),
                        help.replace('\\', "\\\\").replace('\'', "\\'")
                    )
                })
                .collect();
            if !values.is_empty() {
                out.push_str(&format!(
                    "complete -c herald -n \"{condition}\" -f -a \"{}\"\n",
                    values.join("\n")
                ));
            }
        }
    }
    let visible = |c: &clap::Command| -> Vec<String> {
        c.get_subcommands()
            .filter(|s| !s.is_hide_set())
            .map(|s| s.get_name().to_string())
            .collect()
    };
    let mut out = String::new();
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name();
        let nested = visible(sub);
        let condition = if nested.is_empty() {
            format!("__fish_herald_using_subcommand {name}")
        } else {
            format!(
                "__fish_herald_using_subcommand {name}; and not __fish_seen_subcommand_from {} help",
                nested.join(" ")
            )
        };
        lines(sub, &condition, &mut out);
        for n in sub.get_subcommands().filter(|s| !s.is_hide_set()) {
            let condition = format!(
                "__fish_herald_using_subcommand {name}; and __fish_seen_subcommand_from {}",
                n.get_name()
            );
            lines(n, &condition, &mut out);
        }
    }
    out
}
