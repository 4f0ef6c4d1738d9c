use crate::error::{Error, Result};
use crate::pipeline;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The ruleset to play (see `herald games`).
    #[arg(
        value_name = "RULESET",
        default_value = "norse-wars",
        value_parser = super::values::rulesets()
    )]
    pub game: String,
    /// The folder to play into (default: demo-<game>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Player ids (default: the game's usual sides, e.g. red,blue).
    #[arg(long, value_delimiter = ',')]
    pub players: Option<Vec<String>>,
    #[arg(long, default_value = "1")]
    pub seed: String,
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// Stop after this many turns even if the game is not over.
    #[arg(long, default_value_t = 5000)]
    pub max_turns: u32,
    /// The time to stamp on every turn (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
}

pub fn run(a: Args) -> Result<String> {
    let now = super::now(a.now.as_deref())?;
    let dir = a
        .out
        .unwrap_or_else(|| PathBuf::from(format!("demo-{}", a.game)));
    let entry = crate::games::find(&a.game).ok_or_else(|| {
        Error::usage(format!(
            "no game called `{}`; herald knows: {}",
            a.game,
            crate::games::names().join(", ")
        ))
    })?;
    let players = a
        .players
        .unwrap_or_else(|| entry.demo_players.iter().map(|s| s.to_string()).collect());
    let d = pipeline::demo::demo(&a.game, &dir, players, &a.seed, a.options, now, a.max_turns)?;
    let mut s = format!(
        "played {} turns of {} by mail in {}\n",
        d.turns,
        a.game,
        dir.display()
    );
    match &d.outcome {
        Some(o) => s.push_str(&format!("result: {}\n", o.summary)),
        None => s.push_str("stopped before the end (--max-turns)\n"),
    }
    s.push_str(&format!(
        "the game folder: {} (reports in {}/reports/)   the bots' order files: {}\n",
        d.game.display(),
        d.game.display(),
        d.sent.display()
    ));
    if d.verified.is_empty() {
        s.push_str("herald verify: ok (every turn replays to the same bytes)\n");
        Ok(s)
    } else {
        Err(Error::all(d.verified))
    }
}
