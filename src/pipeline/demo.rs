//! `herald demo`: a whole game played by bots through order files and the
//! same resolve as `herald resolve`, then verified.

use super::create::{create, MailSettings, NewGame};
use crate::bots;
use crate::error::{Error, Result};
use crate::games::Outcome;
use crate::report;
use crate::rng;
use crate::store::write::{self, Durability};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct Demo {
    /// The game folder.
    pub game: PathBuf,
    /// The bots' order files.
    pub sent: PathBuf,
    pub turns: u32,
    pub outcome: Option<Outcome>,
    pub verified: Vec<String>,
}

/// Long (about 80 lines): the demo's steps in order (the folder made, the game
/// created, each turn's orders mailed and read, the end verified), sharing the
/// folder and the game.
pub fn demo(
    game: &str,
    dir: &Path,
    players: Vec<String>,
    seed: &str,
    options: Vec<String>,
    now: chrono::DateTime<chrono::FixedOffset>,
    max_turns: u32,
) -> Result<Demo> {
    if dir.exists()
        && std::fs::read_dir(dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(Error::usage(format!(
            "{} exists already; give an empty --out folder",
            dir.display()
        )));
    }
    let made = !dir.exists();
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let folder = dir.join("game");
    let sent = dir.join("orders-sent");
    let created = create(NewGame {
        game: game.to_string(),
        rules: None,
        players,
        seed: Some(seed.to_string()),
        options,
        setup: None,
        id: Some(format!("demo-{}", super::create::abbreviation(game))),
        out: folder.clone(),
        key: None,
        now,
        secrets_from_seed: true,
        light_passwords: true,
        mail: MailSettings::default(),
    })
    .inspect_err(|_| {
        // A refused demo leaves no folder behind (the one it made is empty).
        if made {
            let _ = std::fs::remove_dir(dir);
        }
    })?;
    let passwords: BTreeMap<String, String> = created.passwords.into_iter().collect();
    crate::store::write::create_dir(&sent)?;
    let stamp = now.to_rfc3339();
    // Opened once: each resolve opens and checks the whole file again (as
    // `herald resolve` does) and hands back the game as it committed it,
    // so the demo does not check every signature of a long game twice a
    // turn.
    let (_, mut g) = super::open(&folder)?;
    loop {
        let head = g.head();
        if head.outcome.is_some() || head.turn >= max_turns {
            break;
        }
        let mut paths = Vec::new();
        for seat in g.rules.awaiting(&g.state) {
            let id = &head.players[seat].id;
            let mut r = rng::phase_rng(seed, &head.id, head.turn, &format!("bot {id}"));
            // The demo's players are the game's scripted players, on the
            // whole state: a demo keeps no secret from anyone.
            let lines = bots::scripted_orders(g.rules.as_ref(), &g.state, seat, &mut r);
            let pw = passwords.get(id).map(String::as_str).unwrap_or("");
            let text = report::order_file(&head.id, id, head.turn, pw, &lines);
            let p = sent.join(format!("turn-{:04}-{id}.toml", head.turn));
            write::atomic(&p, text.as_bytes(), Durability::Replaceable)?;
            paths.push(p);
        }
        g = super::resolve(&folder, &paths, &stamp, Duration::ZERO)?.game;
    }
    let (_, g) = super::open(&folder)?;
    let (verified, _) = super::replay::verify(&g, Some(seed))?;
    Ok(Demo {
        game: folder,
        sent,
        turns: g.head().turn,
        outcome: g.head().outcome.clone(),
        verified,
    })
}
