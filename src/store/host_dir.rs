//! The host folder's layout: the only place herald builds a path inside
//! `DIR` (paths inside a game folder come from [`crate::store::layout`],
//! reached through [`HostDir::game`]). Every name that goes into a path is
//! a fixed name, a validated game id ([`Name`]), or a path the moderator
//! wrote in host.toml (resolved against DIR).
//!
//! ```text
//! DIR/                        the host folder (0700)
//!   host.toml                 the configuration (docs/host.md)
//!   host.secrets.toml         0600: the IMAP and SMTP passwords
//!   host.lock                 one host per folder: the running pass's lock (holds its pid)
//!   host.log                  the log (the default; host.toml may name another)
//!   index.html, index.json    the status page
//!   state/<game>.json         the host's record of each game
//!   state/seen                mails for no game already answered (sha256, one a line)
//!   state/replies             when each address was last sent a refusal (the hourly limit)
//!   state/lobby-help          0600: the sha256 of each address sent the lobby's help today
//!   state/code-tries          0600: the lobby's codes tried from each address (its sha256) this hour
//!   state/lobby.lock          one writer of the lobby's records at a time: the pass or `herald serve`
//!   outbox/                   mails from the host's own address (answers to mail for no game, the lobby's)
//!   gallery/index.html        the finished games, each linking to its replay site
//!   gallery/<game>/           a finished game's replay site (site::files names its files)
//!   lobby/<table>.json        an open table of the lobby: seats (requests::lobby::tables)
//!   lobby/games/<game>.json   the lobby's record of a game: settings, seats offered, vacations (requests::lobby::seats)
//!   lobby/confirm/requests.json  the requests waiting for their codes (requests::lobby::confirm)
//!   lobby/standby/list.json   the standby list: addresses told of seats to take over
//!   lobby/key                 0600: the secret the lobby's confirmation codes are drawn from
//!   lobby/open/<table>.toml   a table the moderator wrote as a file: the next pass opens it (host::lobby::from_file)
//!   lobby/open/opened/<table>.toml  such a file once its table is open (kept as written)
//!   <game>/                   one game folder per game (store::layout)
//! ```

use crate::names::Name;
use crate::store::GameDir;
use std::path::{Path, PathBuf};

pub const CONFIG_FILE: &str = "host.toml";
pub const SECRETS_FILE: &str = "host.secrets.toml";
/// Log file in DIR when host.toml names none.
pub const DEFAULT_LOG: &str = "host.log";
const LOCK: &str = "host.lock";
const STATE: &str = "state";
const OUTBOX: &str = "outbox";
const GALLERY: &str = "gallery";
const LOBBY: &str = "lobby";
/// In `state/`: the digests of mails for no game already answered.
const NO_GAME_SEEN: &str = "seen";

/// Names in DIR that are the host's own, never game folders (a game id
/// may not be one of them: its folder would be taken for the host's).
pub const RESERVED: [&str; 4] = [STATE, OUTBOX, GALLERY, LOBBY];

/// A host folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostDir {
    root: PathBuf,
}

impl HostDir {
    pub fn at(root: impl Into<PathBuf>) -> HostDir {
        HostDir { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn config(&self) -> PathBuf {
        self.root.join(CONFIG_FILE)
    }
    pub fn secrets(&self) -> PathBuf {
        self.root.join(SECRETS_FILE)
    }
    /// The host-wide lock: one `herald host` per folder at a time.
    pub fn lock(&self) -> PathBuf {
        self.root.join(LOCK)
    }
    /// A path host.toml names (`log`, `ca_file`, `[maildir] path`): in DIR
    /// unless absolute.
    pub fn configured(&self, p: impl AsRef<Path>) -> PathBuf {
        self.root.join(p)
    }
    pub fn default_log(&self) -> PathBuf {
        self.root.join(DEFAULT_LOG)
    }

    pub fn status_html(&self) -> PathBuf {
        self.root.join("index.html")
    }
    /// The lobby's public page: open tables and who sits at them, with no
    /// address a player did not agree to show (safe to publish).
    pub fn tables_html(&self) -> PathBuf {
        self.root.join("tables.html")
    }
    pub fn status_json(&self) -> PathBuf {
        self.root.join("index.json")
    }

    /// `DIR/state/`: the host's records.
    pub fn state(&self) -> PathBuf {
        self.root.join(STATE)
    }
    /// `DIR/state/<game>.json`.
    pub fn game_state(&self, game: &Name) -> PathBuf {
        self.state().join(format!("{game}.json"))
    }
    /// `DIR/state/seen`: the digests of mails for no game already answered.
    /// No `.json`: no game's state file can be named so.
    pub fn no_game_seen(&self) -> PathBuf {
        self.state().join(NO_GAME_SEEN)
    }
    /// `DIR/state/replies`: the last refusal sent to each address from the
    /// host's own outbox (the hourly limit on mail for no game).
    pub fn replies(&self) -> PathBuf {
        self.state().join("replies")
    }

    /// `DIR/state/reply-bound`: the replies sent to each address in the
    /// last hour, and those held back (`host::replies`). No `.json`: no
    /// game's state file can be named so.
    pub fn reply_bound(&self) -> PathBuf {
        self.state().join("reply-bound")
    }

    /// `DIR/state/lobby-help`: the addresses (their sha256, never the
    /// address) sent the lobby's whole help today (`host::lobby::commands`).
    pub fn lobby_help(&self) -> PathBuf {
        self.state().join("lobby-help")
    }

    /// `DIR/state/code-tries`: the lobby's codes tried from each address
    /// (its sha256) in the last hour (`requests::guard::Tries`).
    pub fn code_tries(&self) -> PathBuf {
        self.state().join("code-tries")
    }

    /// `DIR/outbox/`: mails from the host's own address.
    pub fn outbox(&self) -> PathBuf {
        self.root.join(OUTBOX)
    }

    /// `DIR/gallery/`: the finished games' replay sites.
    pub fn gallery(&self) -> PathBuf {
        self.root.join(GALLERY)
    }
    /// `DIR/gallery/index.html`: the gallery's page.
    pub fn gallery_index(&self) -> PathBuf {
        self.gallery().join("index.html")
    }
    /// `DIR/gallery/<game>/`: the replay site of a finished game.
    pub fn gallery_site(&self, game: &Name) -> PathBuf {
        self.gallery().join(game.as_str())
    }
    /// `DIR/lobby/`: the lobby's open tables.
    pub fn lobby(&self) -> PathBuf {
        self.root.join(LOBBY)
    }
    /// `DIR/lobby/<table>.json`: one table (its name is a validated name).
    pub fn table(&self, table: &Name) -> PathBuf {
        self.lobby().join(format!("{table}.json"))
    }
    /// `DIR/lobby/games/<game>.json`: the lobby's record of a hosted game
    /// (its settings, seats offered for takeover, vacations).
    pub fn lobby_game(&self, game: &Name) -> PathBuf {
        self.lobby().join("games").join(format!("{game}.json"))
    }
    /// `DIR/lobby/standby/list.json`: the standby list.
    pub fn standby(&self) -> PathBuf {
        self.lobby().join("standby").join("list.json")
    }
    /// `DIR/lobby/open/`: tables the moderator wrote as files, opened by
    /// the next pass.
    pub fn lobby_open(&self) -> PathBuf {
        self.lobby().join("open")
    }
    /// `DIR/lobby/open/<table>.toml`: one table as a file.
    pub fn table_file(&self, table: &Name) -> PathBuf {
        self.lobby_open().join(format!("{table}.toml"))
    }
    /// `DIR/lobby/open/opened/`: the table files whose tables are open.
    pub fn lobby_opened(&self) -> PathBuf {
        self.lobby_open().join("opened")
    }
    /// `DIR/lobby/open/opened/<table>.toml`: a table file, once opened.
    pub fn opened_table_file(&self, table: &Name) -> PathBuf {
        self.lobby_opened().join(format!("{table}.toml"))
    }
    /// `DIR/lobby/confirm/`: the requests waiting for their codes (a
    /// folder, so that no table's `NAME.json` can be taken for it).
    pub fn confirm_dir(&self) -> PathBuf {
        self.lobby().join("confirm")
    }
    /// `DIR/lobby/confirm/requests.json`.
    pub fn confirm_requests(&self) -> PathBuf {
        self.confirm_dir().join("requests.json")
    }
    /// `DIR/state/lobby.lock`: held while the lobby's records (tables,
    /// requests, seats offered, the standby list) are read and changed,
    /// by the host's pass and by `herald serve` alike.
    pub fn lobby_lock(&self) -> PathBuf {
        self.state().join("lobby.lock")
    }
    /// `DIR/lobby/key`: the lobby's secret (confirmation codes).
    pub fn lobby_key(&self) -> PathBuf {
        self.lobby().join("key")
    }

    /// The folder of game `game`: `DIR/<game>/`.
    pub fn game(&self, game: &Name) -> GameDir {
        GameDir::at(self.root.join(game.as_str()))
    }
}
