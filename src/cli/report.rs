use crate::engine::{self, Loaded};
use crate::error::{Error, Result};
use crate::mail;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    #[arg(long)]
    pub player: String,
    /// text, json, svg (the board), png (the board, 800 pixels wide), html
    /// (one self-contained page: board, report and order form), or eml
    /// (the report as a ready-to-send mail to the player's address, view.json
    /// and the board attached)
    #[arg(long, default_value = "text")]
    pub format: String,
    /// For eml: the time to date the mail with (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    /// Write the report to this file instead of printing it (for png, the
    /// bytes go to standard output without it).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<String> {
    let g = Loaded::open(&a.game)?;
    let seat = super::seat_of(&g, &a.player)?;
    let bytes = match a.format.as_str() {
        "png" => engine::report_png(&g, seat)?,
        "eml" => {
            let now = super::now(a.now.as_deref())?.to_rfc3339();
            let r = engine::render_report(&g, seat)?;
            mail::report_mail(&g, seat, &r, &now).ok_or_else(|| {
                Error::refused(format!(
                    "{} has no mail address in this game (`herald new --email {}=<address>`)",
                    a.player, a.player
                ))
            })?
        }
        f => engine::report(&g, seat, f)?.into_bytes(),
    };
    match (&a.out, a.format.as_str()) {
        (Some(p), _) => {
            crate::file::write_atomic(p, &bytes)?;
            Ok(format!("wrote {}\n", p.display()))
        }
        (None, "png") => {
            let mut out = std::io::stdout().lock();
            out.write_all(&bytes)
                .and_then(|_| out.flush())
                .map_err(|e| Error::refused(format!("writing the PNG: {e}")))?;
            Ok(String::new())
        }
        (None, _) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
    }
}
