use crate::engine;
use crate::error::Result;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    /// The order files of every player the phase awaits (default: those
    /// `herald inbox` stored in <game>.orders/turn-NNNN/).
    pub orders: Vec<PathBuf>,
    /// The time of resolution to record (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    /// Where to write reports (default: reports/ beside the game file).
    #[arg(long)]
    pub reports: Option<PathBuf>,
    /// Overwrite an existing, different `<game>.archive/turn-NNNN.json` copy.
    #[arg(long)]
    pub force: bool,
    /// Also write each report as a ready-to-send mail, <player>.eml, for
    /// players with an address.
    #[arg(long)]
    pub eml: bool,
}

pub fn run(a: Args) -> Result<String> {
    let now = super::now(a.now.as_deref())?;
    let (g, written) = engine::resolve_files(
        &a.game,
        &a.orders,
        &now.to_rfc3339(),
        a.reports.as_deref(),
        a.force,
        a.eml,
    )?;
    let kept = engine::archive_path(&a.game, g.file.turn - 1);
    let mut s = format!(
        "resolved turn {} of {}; previous file kept as {}\n",
        g.file.turn - 1,
        g.file.id,
        kept.display()
    );
    if let Some(last) = crate::nmr::last_phase(&g.file) {
        for (p, policy) in &last.missing {
            s.push_str(&format!(
                "no orders from {p} by the deadline: herald stood in ({policy})\n"
            ));
        }
        for p in &last.late {
            s.push_str(&format!(
                "late orders from {p} (sent after the deadline) used\n"
            ));
        }
        for p in &last.dropped {
            s.push_str(&format!("{p} has dropped out after missing orders\n"));
        }
    }
    match &g.file.outcome {
        Some(o) => s.push_str(&format!("game over: {}\n", o.summary)),
        None => s.push_str(&format!(
            "turn {}: awaiting orders from {}\n",
            g.file.turn,
            g.file.awaiting.join(", ")
        )),
    }
    s.push_str(&format!(
        "wrote {} report files under {}\n",
        written.len(),
        written
            .first()
            .and_then(|p| p.parent())
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    ));
    Ok(s)
}
