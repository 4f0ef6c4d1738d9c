//! What the log makes possible beyond `verify`: rolling back the last phase
//! (`herald undo`) and a player's own record of the game (`herald export`).

use crate::engine::{self, Loaded};
use crate::error::{Error, Result};
use crate::file::{self, GameFile};
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn seed(file: &GameFile) -> Result<String> {
    file.seed.clone().ok_or_else(|| {
        Error::refused("this copy of the game file has no seed: use the moderator's copy")
    })
}

fn replayed(
    file: &GameFile,
    upto: usize,
    visit: impl FnMut(&Loaded) -> Result<()>,
) -> Result<Loaded> {
    let seed = seed(file)?;
    match engine::replay(file, &seed, upto, visit)? {
        Ok(g) => Ok(g),
        Err(found) => Err(Error::all(
            found
                .into_iter()
                .map(|p| format!("the log does not replay: {p}"))
                .collect(),
        )),
    }
}

pub struct Undone {
    pub turn: u32,
    pub phase: String,
    /// Where the file as it was before the undo is kept.
    pub kept: PathBuf,
    pub reports: Vec<PathBuf>,
}

/// `herald undo`: roll back the last resolved phase by replaying the log
/// without it (not from a backup). The game file becomes byte for byte what
/// it was before that phase was resolved, so resolving the same orders
/// again at the same time gives the same file. The rollback is recorded
/// beside it: the undone file is kept as
/// `<stem>.archive/undone-turn-NNNN[-k].json`, a line is added to
/// `<stem>.archive/undo.log`, and the undone turn's reports move into the
/// archive.
pub fn undo(path: &Path, now: &str, reports: Option<&Path>) -> Result<Undone> {
    let file = GameFile::load(path)?;
    let Some(last) = file.log.last() else {
        return Err(Error::refused(format!(
            "{}: nothing to undo: no phase has been resolved",
            path.display()
        )));
    };
    let n = file.log.len() - 1;
    let g = replayed(&file, n, |_| Ok(()))?;
    let mut restored = g.file;
    restored.deadline = last.deadline.clone();
    let archive = engine::archive_path(path, last.turn)
        .parent()
        .expect("the archive is a folder")
        .to_path_buf();
    std::fs::create_dir_all(&archive).map_err(|e| Error::io(&archive, e))?;
    let mut kept = archive.join(format!("undone-turn-{:04}.json", last.turn));
    let mut k = 1;
    while kept.exists() {
        k += 1;
        kept = archive.join(format!("undone-turn-{:04}-{k}.json", last.turn));
    }
    file::write_atomic(&kept, file.to_text().as_bytes())?;
    let log = archive.join("undo.log");
    let mut text = if log.exists() {
        file::read_text(&log)?
    } else {
        String::new()
    };
    text.push_str(&format!(
        "{now}: turn {} ({}) of {} rolled back by `herald undo`; the undone file is {}\n",
        last.turn,
        last.phase,
        file.id,
        kept.file_name().unwrap_or_default().to_string_lossy()
    ));
    file::write_atomic(&log, text.as_bytes())?;
    file::write_atomic(path, restored.to_text().as_bytes())?;
    // The undone turn's reports would mislead: they go to the archive.
    let dir = reports
        .map(Path::to_path_buf)
        .unwrap_or_else(|| engine::default_reports(path));
    let stale = dir.join(format!("turn-{:04}", last.turn + 1));
    if stale.exists() {
        let to = kept.with_extension("reports");
        std::fs::rename(&stale, &to).map_err(|e| Error::io(&stale, e))?;
    }
    let loaded = Loaded::from_file(restored, &path.display().to_string())?;
    let written = engine::write_reports(&loaded, &dir)?;
    Ok(Undone {
        turn: last.turn,
        phase: last.phase.clone(),
        kept,
        reports: written,
    })
}

#[derive(Serialize)]
struct Report {
    turn: u32,
    text: String,
    view: Value,
}

#[derive(Serialize)]
struct Orders<'a> {
    turn: u32,
    phase: &'a str,
    /// The order file as received, password blanked.
    text: &'a str,
    /// Set where herald stood in for missing orders.
    #[serde(skip_serializing_if = "Option::is_none")]
    nmr: Option<&'a str>,
}

#[derive(Serialize)]
struct Export<'a> {
    herald: &'a str,
    game: &'a str,
    title: &'a str,
    id: &'a str,
    player: &'a str,
    seed_commitment: &'a str,
    /// Only once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<&'a str>,
    /// Every report the player has had, from the start, in order.
    reports: Vec<Report>,
    /// Their own order files, in order.
    orders: Vec<Orders<'a>>,
}

/// `herald export --for <player>`: the player's own reports (rebuilt by
/// replaying the log, each exactly as it was sent) and their own orders, as
/// one JSON file they may keep during play. Nothing else of the game file
/// goes in: not the state, not the other players' orders, not the seed
/// before the end.
pub fn export(path: &Path, player: &str) -> Result<String> {
    let file = GameFile::load(path)?;
    let seat = file.player_index(player).ok_or_else(|| {
        Error::usage(format!(
            "`{player}` is not a player of this game ({})",
            file.player_ids().join(", ")
        ))
    })?;
    let mut reports = Vec::new();
    replayed(&file, file.log.len(), |g| {
        let text = engine::report(g, seat, "text")?;
        let json: Value =
            serde_json::from_str(&engine::report(g, seat, "json")?).expect("reports are JSON");
        reports.push(Report {
            turn: g.file.turn,
            text,
            view: json["view"].clone(),
        });
        Ok(())
    })?;
    let orders = file
        .log
        .iter()
        .flat_map(|e| e.orders.iter().map(move |o| (e, o)))
        .filter(|(_, o)| o.player == player)
        .map(|(e, o)| Orders {
            turn: e.turn,
            phase: &e.phase,
            text: &o.text,
            nmr: o.nmr.as_deref(),
        })
        .collect();
    let over = file.outcome.is_some();
    let entry = crate::games::find(&file.game).expect("a loaded game is known");
    let x = Export {
        herald: env!("CARGO_PKG_VERSION"),
        game: &file.game,
        title: entry.title,
        id: &file.id,
        player,
        seed_commitment: &file.seed_commitment,
        seed: if over { file.seed.as_deref() } else { None },
        reports,
        orders,
    };
    let mut s = serde_json::to_string_pretty(&x).expect("an export serialises");
    s.push('\n');
    Ok(s)
}
