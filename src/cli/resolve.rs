use crate::error::Result;
use crate::pipeline::{self, Step};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl).
    pub game: PathBuf,
    /// The order files of every player the phase awaits (default: the
    /// orders `herald inbox` stored for the turn in orders/turn-NNNN/).
    pub orders: Vec<PathBuf>,
    /// The time of resolution to record (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    #[command(flatten)]
    pub wait: super::values::Wait,
}

pub fn run(a: Args, wait: Duration) -> Result<String> {
    let now = super::now(a.now.as_deref())?;
    let resolved = pipeline::resolve(&a.game, &a.orders, &now.to_rfc3339(), wait)?;
    let (turn, again) = match resolved.step {
        Step::Phase(turn) => (turn, None),
        Step::Already(turn) => (turn, Some(resolved.completed)),
    };
    let g = resolved.game;
    let h = g.head();
    let mut s = match again {
        Some(true) => format!(
            "turn {turn} of {} was resolved already, by a run that was cut short; what it left undone is done now\n",
            h.id
        ),
        Some(false) => format!(
            "turn {turn} of {} was resolved already with these orders; nothing to do\n",
            h.id
        ),
        None => format!("resolved turn {turn} of {}\n", h.id),
    };
    if let Some(last) = g.last_phase().map(|p| pipeline::nmr::last_phase(&p)) {
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
    match &h.outcome {
        Some(o) => s.push_str(&format!(
            "game over: {}\nthe seed is revealed in the game file and every final report\n",
            o.summary
        )),
        None => s.push_str(&format!(
            "turn {}: awaiting orders from {}\n",
            h.turn,
            h.awaiting.join(", ")
        )),
    }
    let dir = pipeline::loaded::folder(&a.game)?;
    s.push_str(&format!(
        "reports in {}\n",
        dir.report_dir(h.turn).display()
    ));
    Ok(s)
}
