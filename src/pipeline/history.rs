//! What the log makes possible beyond `verify`: rolling back the last phase
//! (`undo`), a player's own record of the game (`export`), and checking
//! the reports and receipts players kept against an archive (`verify
//! --witness`).

use super::loaded::Loaded;
use super::render;
use super::replay::replay;
use crate::chain::body::Body;
use crate::chain::witness::{self, Kept};
use crate::chain::Signer;
use crate::error::{Error, Result};
use crate::store::write::{self, Durability};
use crate::store::{limits, Store};
use std::path::{Path, PathBuf};

fn departed(found: Vec<String>) -> Error {
    Error::all(
        found
            .into_iter()
            .map(|p| format!("the log does not replay: {p}"))
            .collect(),
    )
}

pub struct Undone {
    pub turn: u32,
    pub phase: String,
    /// Where the file as it was before the undo is kept.
    pub kept: PathBuf,
}

/// `herald undo`: roll back the last resolved phase (and any entry after
/// it) by replaying the log without it, not from a backup. The game file
/// becomes byte for byte what it was before that phase was resolved, so
/// resolving the same orders again at the same time gives the same file;
/// but a password changed after the phase stays changed (its entry is
/// appended again): the secrets file and the player hold the new one.
/// The undone file is kept in `archive/`, with a line in `archive/undo.log`.
pub fn undo(
    store: &Store,
    g: &Loaded,
    seed: &str,
    signer: &Signer,
    now: &str,
) -> Result<(Undone, Loaded)> {
    let last = g
        .record
        .entries
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, e)| match e.decode() {
            Ok(Body::Phase(p)) => Some((i, p)),
            _ => None,
        });
    let Some((at, phase)) = last else {
        return Err(Error::refused(format!(
            "{}: nothing to undo: no phase has been resolved",
            store.dir.root().display()
        )));
    };
    let mut back = replay(&g.record, &g.genesis, seed, at, |_, _| Ok(()))?.map_err(departed)?;
    for e in &g.record.entries[at + 1..] {
        if let Ok(Body::Passwd(p)) = e.decode() {
            if let Some(x) = back
                .record
                .head
                .players
                .iter_mut()
                .find(|x| x.id == p.player)
            {
                x.password = p.password.clone();
            }
            back.record.append(&Body::Passwd(p), signer);
        }
    }
    back.record.seal_with(signer);
    let dir = &store.dir;
    let mut k = 1;
    let mut kept = dir.undone(phase.turn, k);
    dir.ensure_parent(&kept)?;
    while kept.exists() {
        k += 1;
        kept = dir.undone(phase.turn, k);
    }
    write::atomic(&kept, g.record.to_text().as_bytes(), Durability::Synced)?;
    let log = dir.undo_log();
    let mut text = if log.exists() {
        limits::read_text(&log, limits::GAME_FILE, "the undo log")?
    } else {
        String::new()
    };
    text.push_str(&format!(
        "{now}: turn {} ({}) of {} rolled back by `herald undo`; the undone file is {}\n",
        phase.turn,
        phase.phase,
        g.head().id,
        kept.file_name().unwrap_or_default().to_string_lossy()
    ));
    write::atomic(&log, text.as_bytes(), Durability::Synced)?;
    store.commit(&back.record.to_text())?;
    // The undone turn's reports would mislead. (The turn's own reports,
    // trimmed to their text, are made whole again by `derived::finish`,
    // whichever command runs it: its `done` stays, so no mail is queued
    // again for the turn, whether or not this run is cut short here.)
    let stale = dir.report_dir(phase.turn + 1);
    if stale.exists() {
        std::fs::remove_dir_all(&stale).map_err(|e| Error::io(&stale, e))?;
    }
    Ok((
        Undone {
            turn: phase.turn,
            phase: phase.phase,
            kept,
        },
        back,
    ))
}

/// `herald export --for <player>`: a folder the player may keep: every
/// report they had, signed (rebuilt by replaying the log, each exactly as
/// it was sent), and their own order files as the log records them.
/// Nothing else: not the state, not the others' orders, not the seed
/// before the end. `herald verify <archive> --witness <folder>/*` checks it.
pub fn export(
    g: &Loaded,
    seed: &str,
    signer: &Signer,
    player: &str,
    out: &Path,
) -> Result<Vec<PathBuf>> {
    let seat = g.seat_of(player)?;
    let mut files: Vec<(String, String)> = Vec::new();
    let n = g.record.entries.len();
    let mut last_turn = None;
    replay(&g.record, &g.genesis, seed, n, |r, _| {
        let turn = r.head().turn;
        // One report per turn: as it was after the turn's last entry.
        let report = render::text(r, seat, Some(signer))?;
        if last_turn == Some(turn) {
            files.pop();
        }
        last_turn = Some(turn);
        files.push((format!("report-turn-{turn:04}.txt"), report));
        Ok(())
    })?
    .map_err(departed)?;
    // Their orders, each with a receipt naming the entry that holds them.
    for e in &g.record.entries {
        let Ok(Body::Phase(p)) = e.decode() else {
            continue;
        };
        if let Some(o) = p.orders.iter().find(|o| o.player == player) {
            let r = witness::Receipt::new(
                signer,
                &g.head().id,
                player,
                p.turn,
                &o.sha256,
                &e.hash,
                &p.resolved_at,
            );
            files.push((
                format!("orders-turn-{:04}.txt", p.turn),
                format!("{}\n{}", o.text, r.block()),
            ));
        }
    }
    crate::store::write::create_dir(out)?;
    let mut written = Vec::new();
    for (name, text) in files {
        let p = out.join(name);
        write::outside(&p, text.as_bytes())?;
        written.push(p);
    }
    written.sort();
    Ok(written)
}

/// `herald verify --witness`: every receipt and report in `files` checked
/// against the archive `g`. Each finding names the file and what differs.
///
/// Long (about 125 lines): one branch a kind of witness (report, receipt,
/// order file), each told in the order the files were given.
pub fn witnesses(
    g: &Loaded,
    seed: Option<&str>,
    files: &[PathBuf],
) -> Result<(usize, Vec<String>)> {
    let key = g.head().key.clone();
    let mut found = Vec::new();
    let mut kept: Vec<(String, Kept)> = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let text = limits::read_text(f, limits::MAIL, "a kept report or receipt")?;
        let text = mail_body(&text).unwrap_or(text);
        let (blocks, problems) = witness::find(&text);
        found.extend(problems.into_iter().map(|p| format!("{name}: {p}")));
        if blocks.is_empty() {
            found.push(format!("{name}: holds no herald receipt or witness block"));
        }
        kept.extend(blocks.into_iter().map(|b| (name.clone(), b)));
    }
    let index: std::collections::BTreeMap<&str, usize> = g
        .record
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.hash.as_str(), i))
        .collect();
    let phases: Vec<_> = g.phases_back().collect();
    let mut replays = Vec::new();
    for (name, k) in &kept {
        let (game, sig_ok, k_key, chain_head) = match k {
            Kept::Receipt(r) => (&r.game, r.signature_ok(), &r.key, &r.chain_head),
            Kept::Report(w, _) => (&w.game, w.signature_ok(), &w.key, &w.chain_head),
        };
        if game != &g.head().id {
            found.push(format!("{name}: is for game {game}, not {}", g.head().id));
            continue;
        }
        if k_key != &key {
            found.push(format!(
                "{name}: signed with key {k_key}, but the archive's key is {key}"
            ));
            continue;
        }
        if !sig_ok {
            found.push(format!(
                "{name}: the signature does not match what it signs (changed after it was sent)"
            ));
            continue;
        }
        let Some(&at) = index.get(chain_head.as_str()) else {
            found.push(format!(
                "{name}: the archive has no entry with chain head {}: it was rewritten or cut short after this was sent",
                &chain_head[..16]
            ));
            continue;
        };
        match k {
            Kept::Receipt(r) => {
                // The latest receipt a player holds for a turn is the one used.
                let later = kept.iter().any(|(_, o)| matches!(o, Kept::Receipt(x) if x.player == r.player && x.turn == r.turn && x.accepted > r.accepted));
                if later {
                    continue;
                }
                match phases.iter().find(|p| p.turn == r.turn) {
                    None => found.push(format!(
                        "{name}: turn {} is not resolved in this archive yet",
                        r.turn
                    )),
                    Some(p) => match p.orders.iter().find(|o| o.player == r.player) {
                        Some(o) if o.sha256 == r.orders_sha256 => {}
                        Some(_) => found.push(format!(
                            "{name}: the archive's orders of {} for turn {} are not the ones this receipt names (entry for turn {})",
                            r.player, r.turn, p.turn
                        )),
                        None => found.push(format!(
                            "{name}: the archive has no orders of {} for turn {}",
                            r.player, r.turn
                        )),
                    },
                }
            }
            Kept::Report(w, above) => {
                if &w.report_sha256 != above {
                    found.push(format!("{name}: the report text above the witness block was changed after it was sent"));
                    continue;
                }
                replays.push((name.clone(), w.clone(), at));
            }
        }
    }
    if !replays.is_empty() {
        let Some(seed) = seed.map(str::to_string).or_else(|| g.head().seed.clone()) else {
            found.push("reports can be checked once the seed is known: after the game (it is revealed), or with --seed".into());
            return Ok((kept.len(), found));
        };
        let mut want: std::collections::BTreeMap<
            usize,
            Vec<(String, crate::chain::witness::Witness)>,
        > = Default::default();
        for (name, w, at) in replays {
            want.entry(at).or_default().push((name, w));
        }
        let n = g.record.entries.len();
        let outcome = replay(&g.record, &g.genesis, &seed, n, |r, i| {
            if let Some(list) = want.get(&i) {
                for (name, w) in list {
                    let Some(seat) = r.head().player_index(&w.player) else {
                        found.push(format!("{name}: `{}` is not a player", w.player));
                        continue;
                    };
                    let text = render::text(r, seat, None)?;
                    if crate::chain::canon::sha256_hex(text.as_bytes()) != w.report_sha256 {
                        found.push(format!(
                            "{name}: the archive does not produce this report of {} for turn {} (entry {i} onwards differs from what was sent)",
                            w.player, w.turn
                        ));
                    }
                }
            }
            Ok(())
        })?;
        if let Err(f) = outcome {
            found.extend(f);
        }
    }
    Ok((kept.len(), found))
}

/// If `text` is a whole mail (header lines, a blank line, a body), its
/// text body, decoded; else `None`.
fn mail_body(text: &str) -> Option<String> {
    let mut known = false;
    for line in text.lines() {
        if line.is_empty() {
            break;
        }
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let (name, _) = line.split_once(':')?;
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return None;
        }
        known |= [
            "from",
            "date",
            "message-id",
            "subject",
            "mime-version",
            "received",
            "return-path",
            "delivered-to",
        ]
        .contains(&name.to_ascii_lowercase().as_str());
    }
    if !known {
        return None;
    }
    let m = mail_parser::MessageParser::default().parse(text.as_bytes())?;
    m.body_text(0).map(|t| t.into_owned())
}
