use crate::engine::{self, Loaded};
use crate::error::Result;
use crate::mail;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    /// The time to count the deadline from (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
}

pub fn run(a: Args) -> Result<String> {
    let g = Loaded::open(&a.game)?;
    let now = super::now(a.now.as_deref())?;
    let mut s = engine::status(&g);
    if g.file.outcome.is_some() {
        return Ok(s);
    }
    let waiting: Vec<String> = mail::waiting(&a.game, g.file.turn)?
        .into_iter()
        .map(|w| w.player)
        .collect();
    if !waiting.is_empty() {
        let missing: Vec<&str> = g
            .file
            .awaiting
            .iter()
            .filter(|p| !waiting.contains(p))
            .map(String::as_str)
            .collect();
        s.push_str(&format!(
            "orders in {}: {}; still missing: {}\n",
            mail::turn_dir(&a.game, g.file.turn).display(),
            waiting.join(", "),
            if missing.is_empty() {
                "nobody".to_string()
            } else {
                missing.join(", ")
            }
        ));
    }
    if let Some(d) = g
        .file
        .deadline
        .as_deref()
        .and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok())
    {
        let left = d.signed_duration_since(now).num_seconds();
        let policy = crate::nmr::policy(&g.file, g.entry).name();
        if left > 0 {
            s.push_str(&format!("time left: {}\n", span(left as u64)));
        } else {
            s.push_str(&format!(
                "the deadline passed {} ago: `herald resolve` now stands in for missing orders ({policy})\n",
                span((-left) as u64)
            ));
        }
    }
    Ok(s)
}

/// 2d 5h, 3h 20m, 45m.
fn span(secs: u64) -> String {
    let (d, h, m) = (secs / 86400, secs % 86400 / 3600, secs % 3600 / 60);
    match (d, h) {
        (0, 0) => format!("{}m", m.max(1)),
        (0, _) => format!("{h}h {m}m"),
        _ => format!("{d}d {h}h"),
    }
}
