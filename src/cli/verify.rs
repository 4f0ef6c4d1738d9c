use crate::engine;
use crate::error::{Error, Result};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    /// The seed, if the file does not carry it (revealed in the final reports).
    #[arg(long)]
    pub seed: Option<String>,
}

pub fn run(a: Args) -> Result<String> {
    let problems = engine::verify(&a.game, a.seed.as_deref())?;
    if problems.is_empty() {
        Ok("ok\n".to_string())
    } else {
        Err(Error::all(
            problems
                .into_iter()
                .map(|p| format!("{}: {p}", a.game.display()))
                .collect(),
        ))
    }
}
