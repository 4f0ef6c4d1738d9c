//! What the log makes possible beyond `verify`: rolling back the last phase
//! (`undo`) and a player's own record of the game (`export`). Checking the
//! reports and receipts players kept is `witness`.

use super::loaded::Loaded;
use super::render;
use super::replay::replay;
use crate::chain::body::Body;
use crate::chain::witness;
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
///
/// Long (about 110 lines): the steps of an undo in the order a crash may cut
/// them (the log replayed without the phase, the later entries appended again,
/// the old file archived, the new one written).
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
    // Press relayed after the phase: its recipients hold mails that name
    // its entry, which an undo would take out of the log.
    let press: Vec<String> = g.record.entries[at + 1..]
        .iter()
        .filter_map(|e| match e.decode() {
            Ok(Body::Press(p)) => Some(format!("#{}", p.n)),
            _ => None,
        })
        .collect();
    if !press.is_empty() {
        return Err(Error::refused(format!(
            "{}: press {} was relayed after turn {} was resolved, and its recipients hold mails that name its entries in the log: an undo would take them out, so the game cannot be rolled back past them",
            store.dir.root().display(),
            press.join(", "),
            phase.turn
        )));
    }
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
        } else if let Ok(Body::Seat(c)) = e.decode() {
            // A change of hands stays: the new holder keeps the seat.
            let now = g.head().players.iter().find(|x| x.id == c.player).cloned();
            let head = &mut back.record.head;
            if let Some(x) = head.players.iter_mut().find(|x| x.id == c.player) {
                x.name = c.name.clone();
                x.password = c.password.clone();
                if let Some(now) = now {
                    x.email = now.email;
                    x.file_email = now.file_email;
                    x.address_sha256 = now.address_sha256;
                }
            }
            if let Some(m) = head.missed.iter_mut().find(|m| m.player == c.player) {
                m.in_a_row = 0;
                m.dropped = false;
            }
            back.record.append(&Body::Seat(c), signer);
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

/// `herald export --player <player>`: a folder the player may keep: every
/// report they had, signed (rebuilt by replaying the log, each exactly as
/// it was sent), and their own order files as the log records them.
/// And the press they sent and got (`press`: the game's kept press, from
/// its folder), each as it was mailed to them, its sender shown as the
/// rules show it. Nothing else: not the state, not the others' orders or
/// press, not the seed before the end. `herald verify <archive> --witness
/// <folder>/*` checks it.
pub fn export(
    g: &Loaded,
    seed: &str,
    signer: &Signer,
    player: &str,
    out: &Path,
    press: &[(super::press::Kept, String)],
) -> Result<Vec<PathBuf>> {
    let seat = g.seat_of(player)?;
    let mut files: Vec<(String, String)> = Vec::new();
    let n = g.record.entries.len();
    let mut last_turn = None;
    replay(&g.record, &g.genesis, seed, n, |r, i| {
        let turn = r.head().turn;
        // One report per turn: as it was after the turn's last entry, but
        // a press entry's (the report mailed did not change for press).
        if last_turn == Some(turn) && g.record.entries[i].body.contains("\"kind\":\"press\"") {
            return Ok(());
        }
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
    for (k, hash) in press {
        let answered = k
            .answers
            .and_then(|n| press.iter().find(|(a, _)| a.entry.n == n).map(|(a, _)| a));
        let got = super::press::recipients(k, answered)
            .iter()
            .any(|r| r == player);
        let name = format!("press-{:04}.txt", k.entry.n);
        if k.sender == player {
            files.push((name, super::press::sender_copy(g, k, hash)));
        } else if got {
            files.push((name, super::press::relayed_text(g, k, hash, player)));
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
