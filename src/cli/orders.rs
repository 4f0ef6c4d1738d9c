use crate::engine::Loaded;
use crate::error::Result;
use crate::report;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    #[arg(long)]
    pub player: String,
}

pub fn run(a: Args) -> Result<String> {
    let g = Loaded::open(&a.game)?;
    let seat = super::seat_of(&g, &a.player)?;
    report::blank_form(&g, seat)
}
