//! Running a game by mail: the order folder `inbox` fills and `resolve`
//! reads, the mailbox reader, and the `.eml` messages herald writes for the
//! moderator's mail program to send. herald needs no mail server and keeps
//! no mail password.

pub mod eml;
pub mod extract;
pub mod inbox;

use crate::error::{Error, Result};
use crate::file;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

fn stem(game: &Path) -> String {
    game.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into())
}

/// `<stem>.orders/` beside the game file.
pub fn orders_dir(game: &Path) -> PathBuf {
    game.with_file_name(format!("{}.orders", stem(game)))
}

/// Where a turn's accepted order files wait: `<stem>.orders/turn-NNNN/`.
pub fn turn_dir(game: &Path, turn: u32) -> PathBuf {
    orders_dir(game).join(format!("turn-{turn:04}"))
}

/// `<stem>.outbox/` beside the game file: replies to mails.
pub fn outbox(game: &Path) -> PathBuf {
    game.with_file_name(format!("{}.outbox", stem(game)))
}

/// What herald noted about the mail an order file came in.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Arrival {
    /// The mail's Date, RFC 3339.
    pub received: String,
    pub from: String,
    pub message_id: String,
}

/// An order file waiting in the folder.
pub struct Waiting {
    pub path: PathBuf,
    pub player: String,
    pub text: String,
    pub arrival: Option<Arrival>,
}

fn meta_path(dir: &Path, player: &str) -> PathBuf {
    dir.join(format!("{player}.mail.toml"))
}

/// The order files waiting for `turn`, by player id.
pub fn waiting(game: &Path, turn: u32) -> Result<Vec<Waiting>> {
    let dir = turn_dir(game, turn);
    let mut out = Vec::new();
    let Ok(list) = std::fs::read_dir(&dir) else {
        return Ok(out);
    };
    let mut names: Vec<PathBuf> = list
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "toml")
                && !p.to_string_lossy().ends_with(".mail.toml")
        })
        .collect();
    names.sort();
    for path in names {
        let player = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = file::read_text(&path)?;
        let meta = meta_path(&dir, &player);
        let arrival = if meta.exists() {
            let t = file::read_text(&meta)?;
            Some(toml::from_str(&t).map_err(|e| {
                Error::refused(format!("{}: not a herald mail note: {e}", meta.display()))
            })?)
        } else {
            None
        };
        out.push(Waiting {
            path,
            player,
            text,
            arrival,
        });
    }
    Ok(out)
}

/// Store an accepted order file for `player` (replacing theirs, if any).
pub fn store(game: &Path, turn: u32, player: &str, text: &str, arrival: &Arrival) -> Result<()> {
    let dir = turn_dir(game, turn);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    file::write_atomic(&dir.join(format!("{player}.toml")), text.as_bytes())?;
    let meta = toml::to_string(arrival).expect("a mail note serialises");
    file::write_atomic(&meta_path(&dir, player), meta.as_bytes())
}

/// The message ids `inbox` has read, one a line, in `<stem>.orders/seen`.
pub fn seen(game: &Path) -> Result<Vec<String>> {
    let p = orders_dir(game).join("seen");
    if !p.exists() {
        return Ok(Vec::new());
    }
    Ok(file::read_text(&p)?.lines().map(str::to_string).collect())
}

pub fn write_seen(game: &Path, ids: &[String]) -> Result<()> {
    let dir = orders_dir(game);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let mut text = ids.join("\n");
    text.push('\n');
    file::write_atomic(&dir.join("seen"), text.as_bytes())
}

/// A player's report as a ready-to-send mail: To their address, the text
/// report as the body, view.json and the board (SVG and PNG) attached.
/// `None` if the game has no address for them.
pub fn report_mail(
    g: &crate::engine::Loaded,
    seat: usize,
    r: &crate::report::Rendered,
    now: &str,
) -> Option<Vec<u8>> {
    let p = &g.file.players[seat];
    let to = p.email.clone()?;
    let turn = g.file.turn.to_string();
    let subject = match &g.file.outcome {
        Some(_) => format!("{} {}: final report for {}", g.entry.title, g.file.id, p.id),
        None => format!(
            "{} {}: turn {} report for {}",
            g.entry.title, g.file.id, g.file.turn, p.id
        ),
    };
    let mail = eml::Mail {
        from: g
            .file
            .moderator
            .clone()
            .unwrap_or_else(|| eml::NO_MODERATOR.into()),
        to,
        subject,
        date: now.to_string(),
        message_id: eml::message_id(&g.file.id, &["report", &turn, &p.id]),
        in_reply_to: None,
        text: r.text.clone(),
        attachments: vec![
            eml::Attachment {
                name: "view.json".into(),
                mime: "application/json".into(),
                bytes: r.json.as_bytes().to_vec(),
            },
            eml::Attachment {
                name: "board.svg".into(),
                mime: "image/svg+xml".into(),
                bytes: r.svg.as_bytes().to_vec(),
            },
            eml::Attachment {
                name: "board.png".into(),
                mime: "image/png".into(),
                bytes: r.png.clone(),
            },
        ],
    };
    Some(eml::build(&mail))
}
