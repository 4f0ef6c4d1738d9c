//! `herald man --out DIR`: the manual pages, one per command (`herald.1`,
//! `herald-host.1`, `herald-playtest-summarize.1`, …), written into DIR
//! (clap_mangen, from the same definition as the parser). README,
//! "Install", says where they go.

use crate::error::{Error, Result};
use clap::CommandFactory;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The folder to write the pages into, made if missing (for `man` to
    /// find them: a `man1` folder of a manual path, such as
    /// /usr/local/share/man/man1 or ~/.local/share/man/man1).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// Every page: the file name and its roff text, the command's first.
pub fn pages() -> Result<Vec<(String, Vec<u8>)>> {
    fn walk(
        cmd: &clap::Command,
        parent: Option<&str>,
        out: &mut Vec<(String, Vec<u8>)>,
    ) -> Result<()> {
        let man = clap_mangen::Man::new(cmd.clone())
            .source(format!("herald {}", env!("CARGO_PKG_VERSION")));
        let text = page(&man, cmd, parent)
            .map_err(|e| Error::refused(format!("rendering {}: {e}", man.get_filename())))?;
        let name = man.get_filename();
        out.push((name.clone(), text));
        let me = name.trim_end_matches(".1").to_string();
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, Some(&me), out)?;
        }
        Ok(())
    }
    // The `help` subcommand is clap's, not a command of herald's: no page.
    let mut cmd = super::Cli::command().disable_help_subcommand(true);
    // Names the subcommands' pages `herald-host` and so on.
    cmd.build();
    let mut out = Vec::new();
    walk(&cmd, None, &mut out)?;
    Ok(out)
}

/// One page: clap_mangen's sections from the parser's definition (NAME,
/// SYNOPSIS, DESCRIPTION, OPTIONS, SUBCOMMANDS), then herald's own: EXIT
/// STATUS, FILES, EXAMPLES and SEE ALSO (`--help`'s closing text, which
/// clap_mangen would put under "EXTRA", is in them).
fn page(
    man: &clap_mangen::Man,
    cmd: &clap::Command,
    parent: Option<&str>,
) -> std::io::Result<Vec<u8>> {
    let mut text = Vec::new();
    man.render_title(&mut text)?;
    man.render_name_section(&mut text)?;
    man.render_synopsis_section(&mut text)?;
    man.render_description_section(&mut text)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut text)?;
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut text)?;
    }
    let name = man.get_filename();
    let name = name.trim_end_matches(".1");
    if parent.is_none() {
        section(&mut text, "NAMES", &[para(super::NAMES)]);
    }
    section(&mut text, "EXIT STATUS", &exit_status());
    let files = files(name);
    if !files.is_empty() {
        section(&mut text, "FILES", &files);
    }
    let ex = examples(name);
    if !ex.is_empty() {
        let items: Vec<String> = ex
            .iter()
            .map(|(line, what)| format!(".TP\n\\fB{}\\fR\n{}\n", roff(line), roff(what)))
            .collect();
        section(&mut text, "EXAMPLES", &items);
    }
    section(&mut text, "SEE ALSO", &[para(&see_also(cmd, name, parent))]);
    if cmd.get_version().is_some() || cmd.get_long_version().is_some() {
        man.render_version_section(&mut text)?;
    }
    Ok(text)
}

/// Text safe in a roff paragraph: backslashes doubled, and a line never
/// starting with a dot or quote (a request).
fn roff(s: &str) -> String {
    s.replace('\\', "\\e")
        .lines()
        .map(|l| {
            if l.starts_with(['.', '\'']) {
                format!("\\&{l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn para(s: &str) -> String {
    format!(".PP\n{}\n", roff(s))
}

fn section(out: &mut Vec<u8>, title: &str, items: &[String]) {
    out.extend_from_slice(format!(".SH \"{title}\"\n").as_bytes());
    for i in items {
        out.extend_from_slice(i.as_bytes());
    }
}

/// The exit statuses, one tagged paragraph each (src/error.rs's kinds).
fn exit_status() -> Vec<String> {
    super::EXIT_STATUSES
        .iter()
        .map(|(code, what)| format!(".TP\n\\fB{code}\\fR\n{}\n", roff(what)))
        .collect()
}

/// The files a page's command reads or writes: host.toml's keys, with
/// their defaults, from the parser's own table (`host::config::KEYS`).
///
/// Long (about 90 lines): one list of files per kind of page, each entry
/// a line or two of text.
fn files(name: &str) -> Vec<String> {
    use crate::host::config::{Omitted, KEYS};
    let tp = |path: &str, what: &str| format!(".TP\n\\fI{}\\fR\n{}\n", roff(path), roff(what));
    let game = || {
        vec![
            tp("GAME/game.jsonl", "The game file: every entry of the game, chained and signed; the commit point of every change."),
            tp("GAME/secrets.toml", "The seed, the passwords as issued, the players' addresses (each with the salt that binds it in the game file) and time zones (mode 0600)."),
            tp("GAME/reports/turn-NNNN/", "Each player's report of a turn: PLAYER.txt, and for the current turn .json, .svg and .html."),
            tp("GAME/outbox/", "Mails waiting to be sent (herald-send(1), herald-host(1))."),
        ]
    };
    match name {
        "herald" => {
            let mut v = game();
            v.push(tp(
                "DIR/host.toml",
                "A mail host's settings (herald-host(1), FILES).",
            ));
            v
        }
        "herald-host" => {
            let mut v = vec![tp(
                "DIR/host.toml",
                "The host's settings, no passwords. Its keys, each with its default (a key not listed here is refused):",
            )];
            for k in KEYS {
                let place = match k.section {
                    "" => String::new(),
                    "secrets" => "host.secrets.toml: ".to_string(),
                    s => format!("[{s}] "),
                };
                let default = match k.default {
                    Omitted::Required => "required".to_string(),
                    Omitted::Unset => "none".to_string(),
                    Omitted::Value(v) => format!("default {v}"),
                    Omitted::Words(w) => format!("default {w}"),
                };
                v.push(format!(
                    ".TP\n{}\\fB{}\\fR ({})\n{}\n",
                    roff(&place),
                    k.name,
                    roff(&default),
                    roff(k.about)
                ));
            }
            v.push(tp("DIR/host.secrets.toml", "imap_password and smtp_password; refused unless readable by its owner only (chmod 600)."));
            v.push(tp("DIR/index.html, DIR/index.json", "The status page and its data for scripts, after every pass (mode from public_mode; they hold players' addresses)."));
            v.push(tp(
                "DIR/tables.html",
                "The lobby's page, for publishing: tables and seats by display name.",
            ));
            v.push(tp(
                "DIR/gallery/",
                "The finished games' replay sites (herald-site(1)).",
            ));
            v.push(tp(
                "DIR/host.log",
                "One line per mail in and out, and the host's problems (host.toml's log).",
            ));
            v.push(tp("DIR/GAME/", "One folder per game (herald(1), FILES)."));
            v
        }
        n if n.starts_with("herald-host-") => {
            vec![
                tp(
                    "DIR/host.toml",
                    "The host's settings (herald-host(1), FILES).",
                ),
                tp(
                    "DIR/lobby/",
                    "The tables, the standby list, seat offers and vacations.",
                ),
            ]
        }
        "herald-send" => vec![
            tp(
                "GAME/send.toml",
                "How mail goes out: an SMTP server, or sendmail (the default).",
            ),
            tp(
                "GAME/outbox/",
                "The mails handed over, each once; refused ones in outbox/refused/.",
            ),
        ],
        "herald-new" | "herald-resolve" | "herald-inbox" | "herald-report" | "herald-undo"
        | "herald-passwd" | "herald-convert" | "herald-deadline" => game(),
        _ => Vec::new(),
    }
}

/// Examples per page: a command line and what it does. Each line parses
/// as herald's command line (the test below).
fn examples(name: &str) -> &'static [(&'static str, &'static str)] {
    match name {
        "herald" => &[
            ("herald demo norse-wars", "A whole game by mail with bots, into demo-norse-wars/."),
            ("herald new norse-wars --players red,blue --out g1", "Start a game of Norse Wars for two players in the folder g1."),
            ("herald resolve g1 red.toml blue.toml", "Resolve the phase with the players' order files."),
        ],
        "herald-games" => &[("herald games", "List the rulesets built in.")],
        "herald-new" => &[
            ("herald new norse-wars --players red,blue,white --out g1 --deadline-every 48h", "Three players, a deadline every 48 hours."),
            ("herald new hexwar --players a,b --seed 7 --out g2", "A game from a chosen seed (the same seed, the same game)."),
        ],
        "herald-check" => &[("herald check g1 red.toml", "Check red's order file without resolving: exit 1 if it is refused.")],
        "herald-resolve" => &[("herald resolve g1 red.toml blue.toml", "Resolve the phase the game waits for with these order files.")],
        "herald-report" => &[
            ("herald report g1 --player red", "Print red's report of the current turn as text."),
            ("herald report g1 --rebuild", "Write the current turn's reports again (after a full disk)."),
        ],
        "herald-status" => &[("herald status g1", "Turn, phase, who is awaited, the outcome.")],
        "herald-verify" => &[("herald verify g1/game.jsonl", "Check a game file's chain, seal and every phase.")],
        "herald-orders" => &[("herald orders g1 --player red", "A blank order form for red.")],
        "herald-demo" => &[("herald demo hexwar --seed 7", "A whole game of HEXWAR by bots, into demo-hexwar/.")],
        "herald-inbox" => &[("herald inbox g1 ~/Maildir", "Read the mailbox: store accepted order files, queue the replies.")],
        "herald-deadline" => &[("herald deadline g1 2026-12-01T18:00:00Z", "Set the current phase's deadline.")],
        "herald-passwd" => &[("herald passwd g1 --player red", "Give red a new password (printed once).")],
        "herald-export" => &[("herald export g1 --player red --out red-g1", "Red's own reports and orders so far.")],
        "herald-site" => &[
            ("herald site g1 --out site-g1", "A replay site of g1 (the public view while it runs)."),
            ("herald site --host /var/lib/herald", "The gallery of a host's finished games."),
        ],
        "herald-undo" => &[("herald undo g1", "Roll back the last resolved phase.")],
        "herald-convert" => &[("herald convert g1", "Bring a game folder of an older format to today's, in place.")],
        "herald-keygen" => &[("herald keygen --out moderator.key", "A signing key for `herald new --key`.")],
        "herald-playtest" => &[("herald playtest norse-wars --games 100 --out runs.jsonl", "100 games of bots; `herald playtest summarize runs.jsonl` sums them up.")],
        "herald-playtest-summarize" => &[("herald playtest summarize runs.jsonl", "Win rates with 95% intervals, lengths, bot strength.")],
        "herald-playtest-train" => &[("herald playtest train norse-wars", "Learn the searches' prior from self-play.")],
        "herald-host" => &[
            ("herald host /var/lib/herald", "One pass: mail in, game time, mail out."),
            ("herald host /var/lib/herald --watch", "A pass every poll (host.toml) until SIGTERM."),
        ],
        "herald-host-open" => &[("herald host open /var/lib/herald g7 --ruleset norse-wars --seats 3-6 --deadline-every 48h", "A table that players join by mail (`join g7`).")],
        "herald-host-status" => &[("herald host status /var/lib/herald", "The tables, the standby list, offers and vacations.")],
        "herald-host-ratings" => &[
            ("herald host ratings /var/lib/herald", "Every pool's Glicko-2 ratings from the host's finished games, best first."),
            ("herald host ratings /var/lib/herald --ruleset stack-wars", "Only the Stack Wars pools."),
        ],
        "herald-host-replace" => &[("herald host replace /var/lib/herald g7 --player red", "Offer red's seat to the standby list.")],
        "herald-host-approve" => &[("herald host approve /var/lib/herald g7 --player red", "Let the confirmed taker have red's seat.")],
        "herald-completions" => &[("herald completions bash > /etc/bash_completion.d/herald", "Install bash's completions.")],
        "herald-man" => &[("herald man --out /usr/local/share/man/man1", "Write these pages where man finds them.")],
        "herald-send" => &[
            ("herald send g1", "Hand g1's outbox to sendmail (or GAME/send.toml's server)."),
            ("herald send --host /var/lib/herald", "Hand every game's outbox of a host to its SMTP server."),
        ],
        "herald-serve" => &[
            ("herald serve /var/lib/herald --listen 127.0.0.1:8080 --url https://play.example.org", "Serve the host folder to players behind a TLS proxy (docs/web.md)."),
        ],
        _ => &[],
    }
}

/// herald(1) and the pages beside and under this one, and the docs.
fn see_also(cmd: &clap::Command, name: &str, parent: Option<&str>) -> String {
    let mut refs: Vec<String> = Vec::new();
    if let Some(p) = parent {
        if p != "herald" {
            refs.push("herald(1)".into());
        }
        refs.push(format!("{p}(1)"));
    }
    for s in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        refs.push(format!("{name}-{}(1)", s.get_name()));
    }
    let docs = if name.starts_with("herald-host") || name == "herald-send" {
        "README.md and docs/host.md in herald's source"
    } else if name == "herald-serve" {
        "README.md and docs/web.md in herald's source"
    } else {
        "README.md and docs/ in herald's source"
    };
    if refs.is_empty() {
        format!("{docs}.")
    } else {
        format!("{}; {docs}.", refs.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn every_example_is_a_command_line_herald_reads() {
        for (name, _) in pages().unwrap() {
            let name = name.trim_end_matches(".1");
            assert!(!examples(name).is_empty(), "{name} has no EXAMPLES");
            for (line, _) in examples(name) {
                let words: Vec<&str> = line
                    .split(" > ")
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .collect();
                let words: Vec<String> =
                    words.iter().map(|w| w.replace('~', "/home/you")).collect();
                let cmd = name.trim_start_matches("herald").replace('-', " ");
                assert!(line.starts_with(&format!("herald{cmd}")), "{name}: {line}");
                if let Err(e) = crate::cli::Cli::try_parse_from(&words) {
                    panic!("{name}: `{line}` does not parse: {e}");
                }
            }
        }
    }
}

/// Write one page: a new file renamed into place, readable by everyone
/// (a manual page is public), so a reader never sees half a page.
fn write_page(dir: &Path, name: &str, text: &[u8]) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let mut t = tempfile::Builder::new()
        .prefix(".herald-man-")
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, e))?;
    t.write_all(text).map_err(|e| Error::io(&path, e))?;
    t.as_file()
        .set_permissions(std::fs::Permissions::from_mode(0o644))
        .map_err(|e| Error::io(&path, e))?;
    t.persist(&path).map_err(|e| Error::io(&path, e.error))?;
    Ok(())
}

pub fn run(a: Args) -> Result<String> {
    let pages = pages()?;
    if let Ok(m) = std::fs::metadata(&a.out) {
        if !m.is_dir() {
            return Err(Error::usage(format!(
                "--out {}: not a folder",
                a.out.display()
            )));
        }
    }
    std::fs::create_dir_all(&a.out).map_err(|e| Error::io(&a.out, e))?;
    for (name, text) in &pages {
        write_page(&a.out, name, text)?;
    }
    let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
    Ok(format!(
        "wrote {} manual pages into {}: {}\n",
        pages.len(),
        a.out.display(),
        names.join(" ")
    ))
}
