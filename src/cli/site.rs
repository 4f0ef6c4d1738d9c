use crate::error::{Error, Result};
use crate::pipeline;
use crate::site::{self, Who};
use crate::store::Secrets;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl; a published game.jsonl of a
    /// finished game will do).
    #[arg(required_unless_present = "host")]
    pub game: Option<PathBuf>,
    /// The folder to write the site into: new, empty, or an earlier site.
    #[arg(long, required_unless_present = "host")]
    pub out: Option<PathBuf>,
    /// Show the game as this player was told it, phase by phase (the only
    /// view besides the public one while the game runs).
    #[arg(long = "player", value_name = "PLAYER")]
    pub player: Option<String>,
    /// Build the gallery of a host's finished games instead:
    /// DIR/gallery/index.html and a site per game beside it.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["game", "out", "player"])]
    pub host: Option<PathBuf>,
}

/// A static replay site of one game, or a host's gallery.
pub fn run(a: Args) -> Result<String> {
    if let Some(dir) = &a.host {
        let mode = crate::host::config::PublicMode::of_host(dir)?;
        let g = crate::host::gallery::write(dir, mode)?;
        let s = format!(
            "the gallery of {} lists {} finished games ({} sites built now): {}\n",
            dir.display(),
            g.games,
            g.built.len(),
            crate::host::layout::HostDir::at(dir)
                .gallery_index()
                .display()
        );
        if !g.problems.is_empty() {
            let mut problems = g.problems;
            problems.push(s.trim_end().to_string());
            return Err(Error::all(problems));
        }
        return Ok(s);
    }
    let (Some(game), Some(out)) = (&a.game, &a.out) else {
        return Err(Error::usage(
            "give the game folder and --out DIR, or --host DIR",
        ));
    };
    let (store, g) = pipeline::open(game)?;
    // Never a player's address in a site: an older game file's are taken
    // out (format 5) first.
    let g = pipeline::convert::publishable(&store, g)?;
    let who = match &a.player {
        Some(p) => Who::Player(g.seat_of(p)?),
        None if g.head().outcome.is_some() => Who::Everything,
        None => Who::Public,
    };
    let seed = match &g.head().seed {
        Some(s) => s.clone(),
        None => Secrets::read(&store.dir.secrets())
            .map_err(|e| {
                Error::refused(format!(
                    "{} is still running and its seed is secret until the end: its site needs the moderator's game folder, whose secrets file holds it ({})",
                    g.head().id,
                    e.problems.join("; ")
                ))
            })?
            .seed,
    };
    let (press, logged) = site::revealed_press(&store, &g, who)?;
    let built = site::build(&g, &seed, who, out, site::Access::ByGame, &press)?;
    let bytes: usize = built.files.iter().map(|(_, n)| n).sum();
    let lens = match built.who {
        Who::Everything => "the omniscient view".to_string(),
        Who::Player(s) => format!("{}'s own view", g.head().players[s].id),
        Who::Public => "the public view".to_string(),
    };
    let press_note = match (logged, press.len()) {
        (0, _) => String::new(),
        (n, 0) => format!(
            "; the game relayed {n} press messages, whose texts this site does not show ({})",
            press_hidden_why(&store, &g, who)?
        ),
        (_, k) => {
            format!("; with its {k} press messages (the game's rules reveal them at the end)")
        }
    };
    let phases = built.frames.saturating_sub(1);
    Ok(format!(
        "wrote the site of {} ({lens}, {phases} phase{}, {} files, {} KiB{press_note}) into {}; open {}\n",
        g.head().id,
        if phases == 1 { "" } else { "s" },
        built.files.len(),
        bytes.div_ceil(1024),
        out.display(),
        out.join("index.html").display()
    ))
}

/// Why a site shows none of a game's press.
fn press_hidden_why(store: &crate::store::Store, g: &pipeline::Loaded, who: Who) -> Result<String> {
    let rules = pipeline::press::rules_of(store, g)?;
    Ok(if rules.reveal != "end" {
        "its rules never reveal press".into()
    } else if g.head().outcome.is_none() {
        "the game is running: its rules reveal press only after the end".into()
    } else if who != Who::Everything {
        "a player's site shows no press".into()
    } else {
        "the texts are in the moderator's game folder, not beside this game file".into()
    })
}
