use crate::error::Result;
use crate::{file, history};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    pub game: PathBuf,
    /// The player whose record to write.
    #[arg(long = "for")]
    pub player: String,
    /// The file to write (default: <game>-<player>-export.json beside the game).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// A file a player may keep during play: their own reports and orders so
/// far, nothing hidden.
pub fn run(a: Args) -> Result<String> {
    let text = history::export(&a.game, &a.player)?;
    let out = a.out.unwrap_or_else(|| {
        let stem = a
            .game
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "game".into());
        a.game
            .with_file_name(format!("{stem}-{}-export.json", a.player))
    });
    file::write_atomic(&out, text.as_bytes())?;
    Ok(format!("wrote {} for {}\n", out.display(), a.player))
}
