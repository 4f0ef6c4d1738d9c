use crate::engine::{self, Loaded};
use crate::error::Result;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
}

pub fn run(a: Args) -> Result<String> {
    let g = Loaded::open(&a.game)?;
    Ok(engine::status(&g))
}
