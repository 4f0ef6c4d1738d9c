use crate::engine::{self, Loaded};
use crate::error::{Error, Result};
use crate::mail;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    #[arg(long)]
    pub player: String,
    /// text, json, or eml (the report as a ready-to-send mail to the
    /// player's address, view.json attached)
    #[arg(long, default_value = "text")]
    pub format: String,
    /// For eml: the time to date the mail with (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
}

pub fn run(a: Args) -> Result<String> {
    let g = Loaded::open(&a.game)?;
    let seat = super::seat_of(&g, &a.player)?;
    if a.format != "eml" {
        return engine::report(&g, seat, &a.format);
    }
    let now = super::now(a.now.as_deref())?.to_rfc3339();
    let text = engine::report(&g, seat, "text")?;
    let json = engine::report(&g, seat, "json")?;
    let m = mail::report_mail(&g, seat, &text, &json, &now).ok_or_else(|| {
        Error::refused(format!(
            "{} has no mail address in this game (`herald new --email {}=<address>`)",
            a.player, a.player
        ))
    })?;
    Ok(String::from_utf8_lossy(&m).into_owned())
}
