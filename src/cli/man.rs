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
    fn walk(cmd: &clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
        let man = clap_mangen::Man::new(cmd.clone())
            .source(format!("herald {}", env!("CARGO_PKG_VERSION")));
        let mut text = Vec::new();
        man.render(&mut text)
            .map_err(|e| Error::refused(format!("rendering {}: {e}", man.get_filename())))?;
        out.push((man.get_filename(), text));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, out)?;
        }
        Ok(())
    }
    // The `help` subcommand is clap's, not a command of herald's: no page.
    let mut cmd = super::Cli::command().disable_help_subcommand(true);
    // Names the subcommands' pages `herald-host` and so on.
    cmd.build();
    let mut out = Vec::new();
    walk(&cmd, &mut out)?;
    Ok(out)
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
