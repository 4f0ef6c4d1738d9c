//! The host's own record of each game, kept beside the games in
//! `DIR/state/<game id>.json`: the last mail in and out, problems for the
//! moderator, and what the game-time logic needs between passes. The game
//! folder's layout does not change: nothing of the host's goes into it.
//! Written atomically, by whoever holds the game's lock. No secret is ever
//! put in it.

use super::layout::HostDir;
use crate::error::{Error, Result};
use crate::names::Name;
use crate::store::write::{self, Durability};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// One mail in or out, for the status page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailNote {
    /// RFC 3339: the pass's `now`.
    pub at: String,
    /// The address: From for mail in, To for mail out.
    pub who: String,
    pub message_id: String,
    /// "orders accepted for red", "refused", "command: status", "report turn 3".
    pub what: String,
}

/// What the host keeps about one game between passes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    #[serde(default)]
    pub last_in: Option<MailNote>,
    #[serde(default)]
    pub last_out: Option<MailNote>,
    /// For the moderator, shown on the status page.
    #[serde(default)]
    pub problems: Vec<String>,
    /// The game as the host last read it (`host::due`): for the status
    /// page and the idle check. `None` until the first pass opened it.
    #[serde(default)]
    pub summary: Option<Summary>,
    /// What the game folder looked like when `summary` was read: while it
    /// is unchanged and `wake` has not come, a pass leaves the game closed.
    #[serde(default)]
    pub fingerprint: Option<Fingerprint>,
    /// The next instant something is due by time alone (a reminder, the
    /// deadline, a retry after a failure), Unix seconds; `None`: nothing.
    #[serde(default)]
    pub wake: Option<i64>,
    /// Reminders queued for the current turn, one per (turn, deadline,
    /// offset, player); older turns' are dropped.
    #[serde(default)]
    pub reminders: Vec<ReminderSent>,
    /// The host has seen the game end (and said so once).
    #[serde(default)]
    pub finished: bool,
    /// The last failure of the game-time work (a resolve refused, a game
    /// file that does not read, a folder whose game has another id), for
    /// the moderator; cleared by the next pass that succeeds.
    #[serde(default)]
    pub due_problem: Option<String>,
    /// The game's turn when the host last accounted for its resolutions:
    /// a game found further on was resolved where no log line said so (a
    /// pass killed after the commit, or `herald resolve` by hand), and the
    /// host logs it then. `None` before the host first opened the game.
    #[serde(default)]
    pub turn_logged: Option<u32>,
    /// Password checks per player in the last hour, and who was told.
    #[serde(default)]
    pub guard: Guard,
    /// When each address not a player's own was last sent a refusal (at
    /// most one an hour), Unix seconds; entries older than an hour are
    /// dropped.
    #[serde(default)]
    pub refusals_to: BTreeMap<String, i64>,
}

/// What the host keeps to make guessing passwords cost the guesser: the
/// door's (`requests::guard`), kept here across passes.
pub use crate::requests::guard::Counts as Guard;

/// The game as the host last read it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The id the game file names (the folder's name, unless misplaced).
    pub id: String,
    /// The game's registry name and title ("norse-wars", "Norse Wars").
    pub game: String,
    pub title: String,
    pub turn: u32,
    pub phase: String,
    pub deadline: Option<String>,
    /// Players the turn waits for.
    pub awaiting: Vec<String>,
    /// Awaited players whose orders are not stored yet.
    pub missing: Vec<String>,
    /// The outcome's summary, once the game is over.
    pub outcome: Option<String>,
    /// When the current turn began (the last resolve, the game's creation,
    /// or a later change of its deadline): reminders due before it are not sent.
    pub turn_began: Option<String>,
    pub players: Vec<String>,
}

/// A file's identity and size as `stat` gives them. Every change herald
/// makes to a game file is a new file renamed into place (a new inode).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    pub dev: u64,
    pub ino: u64,
    pub len: u64,
    pub mtime: i64,
    pub mtime_ns: i64,
}

/// What the idle check compares.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    pub game_file: FileStamp,
    /// The turn whose orders folder `orders` lists.
    pub turn: u32,
    /// The names in `orders/turn-NNNN/` (the players whose orders are stored).
    pub orders: Vec<String>,
    /// The reminder offsets of host.toml, in seconds, when this was taken.
    pub reminders: Vec<u64>,
}

/// One reminder queued.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReminderSent {
    pub turn: u32,
    pub deadline: String,
    /// Seconds before the deadline.
    pub offset: u64,
    pub player: String,
    /// The mail that carried it (one mail may stand for several offsets
    /// that came due together).
    pub message_id: String,
    pub at: String,
}

impl GameState {
    /// `DIR/state/<game>.json`, or the default when there is none.
    pub fn load(host_dir: &Path, game: &Name) -> Result<GameState> {
        let p = HostDir::at(host_dir).game_state(game);
        match std::fs::read(&p) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
                Error::refused(format!(
                    "{}: not a host state file ({e}); remove it and the next pass makes it anew",
                    p.display()
                ))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(GameState::default()),
            Err(e) => Err(Error::io(&p, e)),
        }
    }

    /// Write it atomically.
    pub fn save(&self, host_dir: &Path, game: &Name) -> Result<()> {
        let host = HostDir::at(host_dir);
        let p = host.game_state(game);
        write::create_dir(&host.state())?;
        let mut bytes = serde_json::to_vec_pretty(self).expect("state serialises");
        bytes.push(b'\n');
        write::atomic(&p, &bytes, Durability::Synced)
    }
}
