use crate::error::Result;
use crate::pipeline;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl).
    pub game: PathBuf,
    /// Order files to check.
    #[arg(required = true)]
    pub orders: Vec<PathBuf>,
}

/// A dry run: every file checked as `resolve` would, nothing written.
pub fn run(a: Args) -> Result<String> {
    let (_, g) = pipeline::open(&a.game)?;
    let files = pipeline::read_order_files(&a.orders)?;
    let accepted = pipeline::check_orders(&g, &files)?;
    let mut s = String::new();
    for (name, player, orders) in accepted.summary {
        s.push_str(&format!(
            "{name}: ok, {player}'s orders for turn {}: {}\n",
            g.head().turn,
            orders.join("; ")
        ));
    }
    Ok(s)
}
