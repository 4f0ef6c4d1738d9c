use crate::engine::{self, Loaded};
use crate::error::Result;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    #[arg(long)]
    pub player: String,
    /// text or json
    #[arg(long, default_value = "text")]
    pub format: String,
}

pub fn run(a: Args) -> Result<String> {
    let g = Loaded::open(&a.game)?;
    let seat = super::seat_of(&g, &a.player)?;
    engine::report(&g, seat, &a.format)
}
