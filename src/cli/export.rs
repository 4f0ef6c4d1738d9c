use crate::error::Result;
use crate::pipeline;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl).
    pub game: PathBuf,
    /// The player whose record to write.
    #[arg(long = "player", value_name = "PLAYER")]
    pub player: String,
    /// The folder to write (default: export-<player> beside the game folder).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// A folder a player may keep during play: their own reports (signed, as
/// sent) and orders so far, nothing hidden. It verifies on its own
/// against the published game file: `herald verify game.jsonl --witness <folder>/*`.
pub fn run(a: Args) -> Result<String> {
    let (store, g) = pipeline::open(&a.game)?;
    let seed = match &g.head().seed {
        Some(s) => s.clone(),
        None => store.secrets()?.seed,
    };
    let signer = store.signer()?;
    let out = a.out.unwrap_or_else(|| {
        let root = store.dir.root();
        let name = root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "game".into());
        root.with_file_name(format!("{name}-export-{}", a.player))
    });
    let press = pipeline::press::all_kept(&g, &store)?;
    let files = pipeline::history::export(&g, &seed, &signer, &a.player, &out, &press)?;
    Ok(format!(
        "wrote {} files for {} into {}\n",
        files.len(),
        a.player,
        out.display()
    ))
}
