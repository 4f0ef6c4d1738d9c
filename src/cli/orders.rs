use crate::error::Result;
use crate::pipeline;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl).
    pub game: PathBuf,
    /// The player whose blank order form to print.
    #[arg(long, value_name = "PLAYER")]
    pub player: String,
}

pub fn run(a: Args) -> Result<String> {
    let (_, g) = pipeline::open(&a.game)?;
    let seat = g.seat_of(&a.player)?;
    pipeline::render::form(&g, seat)
}
