use crate::error::Result;
use crate::pipeline;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl).
    pub game: PathBuf,
    /// The time to count the deadline from (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
}

pub fn run(a: Args) -> Result<String> {
    let (store, g) = pipeline::open(&a.game)?;
    let now = super::now(a.now.as_deref())?;
    pipeline::status::text(&store, &g, &now)
}
