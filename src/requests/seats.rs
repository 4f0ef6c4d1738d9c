//! The seats a player holds across the host's games, as the door reads
//! them: a game folder's head record read from its first line ([`peek`]),
//! the addresses of its players from the folder's secrets file (0600;
//! format 5 binds each address in the game file by a salted commitment and
//! keeps it beside the passwords), and the games of a host folder
//! ([`list_games`]). [`held_by`] answers "which seats of which games does
//! this proven address hold", for a signed-in session (`Requester::Session`)
//! and the lobby's "one person, one seat".

use crate::names::{self, Name};
use crate::store::host_dir::{HostDir, RESERVED};
use crate::store::GameDir;
use std::path::Path;

/// What a game folder's head record says of the game, read from its first
/// line without checking the file (for routing and the log's labels; every
/// command that acts on the game checks it whole).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Peek {
    pub id: String,
    #[serde(default)]
    pub players: Vec<PeekPlayer>,
}

#[derive(Debug, Clone, serde::Deserialize)]
pub struct PeekPlayer {
    pub id: String,
    /// The player's address: the head's (format 4 and older), or the game
    /// folder's secrets file's (format 5, [`peek`]).
    #[serde(default)]
    pub email: Option<String>,
    /// Format 5: what binds the address in the game file.
    #[serde(default)]
    pub address_sha256: Option<String>,
}

/// The head record of a game folder's `game.jsonl`, read from its first
/// line, or `None` when it does not read; the players' addresses a game
/// file of format 5 binds without holding, from the folder's secrets file.
pub fn peek(folder: &Path) -> Option<Peek> {
    let mut head = head_line(folder)?;
    if head
        .players
        .iter()
        .any(|p| p.email.is_none() && p.address_sha256.is_some())
    {
        let dir = crate::store::GameDir::at(folder);
        if let Ok(s) = crate::store::Secrets::read(&dir.secrets()) {
            for p in &mut head.players {
                if let Some(c) = &p.address_sha256 {
                    p.email = s.address_of(&p.id, c).map(|a| a.address.clone());
                }
            }
        }
    }
    Some(head)
}

/// The head record as its first line holds it (no address of format 5).
fn head_line(folder: &Path) -> Option<Peek> {
    use std::io::{BufRead, Read};
    #[derive(serde::Deserialize)]
    struct First {
        head: Peek,
    }
    let f = std::fs::File::open(crate::store::GameDir::at(folder).game_file()).ok()?;
    let mut line = Vec::new();
    std::io::BufReader::new(f.take(crate::store::limits::GAME_FILE))
        .read_until(b'\n', &mut line)
        .ok()?;
    serde_json::from_slice::<First>(&line).ok().map(|f| f.head)
}

/// The id a game folder's `game.jsonl` names, read from its first line
/// (the head record), or `None` when it does not read.
pub fn game_id_of(folder: &Path) -> Option<String> {
    head_line(folder).map(|p| p.id)
}

/// The games in `dir`: subfolders with a valid name holding game.jsonl.
/// Folders whose game.jsonl names another id are returned as problems.
pub fn list_games(dir: &Path) -> (Vec<Name>, Vec<String>) {
    let host = HostDir::at(dir);
    let mut games = Vec::new();
    let mut problems = Vec::new();
    let Ok(list) = std::fs::read_dir(dir) else {
        return (games, vec![format!("{}: cannot be read", dir.display())]);
    };
    let mut folders: Vec<(String, std::path::PathBuf)> = list
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| Some((e.file_name().to_str()?.to_string(), e.path())))
        .filter(|(n, _)| !RESERVED.contains(&n.as_str()) && !n.starts_with('.'))
        .collect();
    folders.sort();
    for (n, path) in folders {
        if !GameDir::at(&path).game_file().is_file() {
            continue;
        }
        let Ok(name) = Name::new("game", &n) else {
            problems.push(format!(
                "folder {n}: not a game id ({}); it gets no mail",
                names::RULE
            ));
            continue;
        };
        match game_id_of(host.game(&name).root()) {
            Some(id) if id == n => games.push(name),
            Some(id) => problems.push(format!(
                "folder {n}: its game.jsonl is game {id}; a game's folder must be named by its id (rename it {id}); it gets no mail"
            )),
            None => problems.push(format!(
                "folder {n}: its game.jsonl does not read; it gets no mail"
            )),
        }
    }
    (games, problems)
}

/// Whether `game` is one of the games in `dir` as [`list_games`] lists
/// them, looking at that one folder only (a request about one game need
/// not read every game's first line).
pub fn is_game(dir: &Path, game: &Name) -> bool {
    let root = HostDir::at(dir).game(game);
    !RESERVED.contains(&game.as_str())
        && !game.as_str().starts_with('.')
        && root.game_file().is_file()
        && game_id_of(root.root()).as_deref() == Some(game.as_str())
}

/// A seat an address holds: the game and the player id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Held {
    pub game: Name,
    pub player: String,
}

/// The player ids of the game in `folder` whose address is `address`
/// (case aside): the head's address (format 4 and older), or the one the
/// folder's secrets file keeps and the game file binds (format 5 on).
/// Exactly that address: a session that proved `ann+x@…` acts for no seat
/// of `ann@…`.
pub fn seats_in(folder: &Path, address: &str) -> Vec<String> {
    let address = address.trim();
    if address.is_empty() {
        return Vec::new();
    }
    peek(folder)
        .map(|h| {
            h.players
                .into_iter()
                .filter(|p| {
                    p.email
                        .as_deref()
                        .is_some_and(|e| e.trim().eq_ignore_ascii_case(address))
                })
                .map(|p| p.id)
                .collect()
        })
        .unwrap_or_default()
}

/// Which seats of which games of the host folder `host` the proven
/// `address` holds, in game order then seat order: what a signed-in
/// session may act for (`Requester::Session`). Reads each game's head line
/// and secrets file only; a game whose files do not read holds none.
pub fn held_by(host: &HostDir, address: &str) -> Vec<Held> {
    let (games, _) = list_games(host.root());
    games
        .into_iter()
        .flat_map(|game| {
            seats_in(host.game(&game).root(), address)
                .into_iter()
                .map(move |player| Held {
                    game: game.clone(),
                    player,
                })
        })
        .collect()
}
