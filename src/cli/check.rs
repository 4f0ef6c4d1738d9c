use crate::engine::{self, Loaded};
use crate::error::Result;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    /// Order files to check.
    #[arg(required = true)]
    pub orders: Vec<PathBuf>,
}

pub fn run(a: Args) -> Result<String> {
    let g = Loaded::open(&a.game)?;
    let files = engine::read_order_files(&a.orders)?;
    let accepted = engine::check_orders(&g, &files, true)?;
    let mut s = String::new();
    for (name, player, orders) in accepted.summary {
        s.push_str(&format!(
            "{name}: ok, {player}'s orders for turn {}: {}\n",
            g.file.turn,
            orders.join("; ")
        ));
    }
    Ok(s)
}
