//! The game folder's layout: the only place herald builds a path inside a
//! game (beside `v1.rs`, the layout of herald 0.1's files; a test,
//! `tests/it/store.rs`, holds every other source file to it). Every name
//! that goes into a path is one of [`NAMES`], a validated [`Name`], a turn
//! number, or a hex digest herald computed.
//!
//! ```text
//! GAME/                      mode 0700: the moderator's alone
//!   game.jsonl               the game file (format 8, or 7 to 2): the commit point, publishable
//!   secrets.toml             0600: the seed, the passwords as issued, the players' addresses
//!   moderator.key            0600: the moderator's Ed25519 signing key
//!   lock                     the writers' lock (holds the writer's pid)
//!   orders/turn-NNNN/<player>.json   orders accepted and sealed, waiting for the resolve
//!   reports/turn-NNNN/<player>.txt   every turn's text report
//!                   <player>.json|.svg|.html   the current turn's other forms
//!                   done     written last: the turn's reports are complete
//!   outbox/<digest>.eml      mails waiting to be sent (the outbox's own files: [`OutboxDir`])
//!   inbox/seen               sha256 of every mail read, one a line
//!   archive/previous.jsonl   the game file before its last change
//!   archive/undone-turn-NNNN[-k].jsonl   game files rolled back by `undo`
//!   archive/undo.log         one line an undo
//!   press/rules.json         the game's press rules, signed at `new` (none: no press)
//!   press/log.jsonl          the press relayed: signed entries chained from the genesis entry (no text)
//!   press/<32 hex>.json      0600: one relayed press message, its text (never in the game file)
//!   press/mutes.json         0600: whom each player has muted (`mute PLAYER` by mail; not in the game file)
//! ```

use super::write;
use crate::error::{Error, Result};
use crate::names::Name;
use std::path::{Path, PathBuf};

pub const GAME_FILE: &str = "game.jsonl";
const SECRETS: &str = "secrets.toml";
const KEY: &str = "moderator.key";
const LOCK: &str = "lock";
const REPORTS: &str = "reports";
const DONE: &str = "done";
const ORDERS: &str = "orders";
const OUTBOX: &str = "outbox";
const INBOX: &str = "inbox";
const SEEN: &str = "seen";
const ARCHIVE: &str = "archive";
const PREVIOUS: &str = "previous.jsonl";
const UNDO_LOG: &str = "undo.log";
const PRESS: &str = "press";
const PRESS_RULES: &str = "rules.json";
const PRESS_LOG: &str = "log.jsonl";
const PRESS_MUTES: &str = "mutes.json";
/// herald 0.1's game file, looked for in a folder given to a command.
const FORMAT1_FILE: &str = "game.json";

/// Every name herald gives a file or folder in a game folder.
pub const NAMES: [&str; 18] = [
    GAME_FILE,
    SECRETS,
    KEY,
    LOCK,
    REPORTS,
    DONE,
    ORDERS,
    OUTBOX,
    INBOX,
    SEEN,
    ARCHIVE,
    PREVIOUS,
    UNDO_LOG,
    FORMAT1_FILE,
    PRESS,
    PRESS_RULES,
    PRESS_LOG,
    PRESS_MUTES,
];

/// The folders kept one subfolder a turn (`turn-NNNN`).
pub const BY_TURN: [&str; 2] = [REPORTS, ORDERS];

/// The name of a turn's folder in `reports/` and `orders/`.
fn turn_folder(turn: u32) -> String {
    format!("turn-{turn:04}")
}

/// A game folder.
#[derive(Debug, Clone)]
pub struct GameDir {
    root: PathBuf,
}

/// What a path given on the command line names.
#[derive(Debug)]
pub enum Found {
    /// A game folder (format 2 or 3).
    Folder(GameDir),
    /// A game file of herald 0.1 (format 1), to convert or verify.
    Format1(PathBuf),
}

impl GameDir {
    /// A game folder at `root` (which may not exist yet: `new`).
    pub fn at(root: impl Into<PathBuf>) -> GameDir {
        GameDir { root: root.into() }
    }

    /// The folder or game file a command was given. A folder holds
    /// `game.jsonl`; a file is that `game.jsonl`, or a herald 0.1 game
    /// file, which commands other than `convert` and `verify` refuse with
    /// the command that converts it.
    pub fn locate(arg: &Path) -> Result<Found> {
        let meta = std::fs::metadata(arg).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::refused(format!(
                "{}: no such game folder (`herald new <game> --out <folder>` makes one)",
                arg.display()
            )),
            _ => Error::io(arg, e),
        })?;
        if meta.is_dir() {
            if arg.join(GAME_FILE).is_file() {
                return Ok(Found::Folder(GameDir::at(arg)));
            }
            let old = arg.join(FORMAT1_FILE);
            if old.is_file() && is_format1(&old) {
                return Ok(Found::Format1(old));
            }
            return Err(Error::refused(format!(
                "{}: not a herald game folder (it has no {GAME_FILE}); `herald new <game> --out <folder>` makes one",
                arg.display()
            )));
        }
        if arg.file_name().is_some_and(|n| n == GAME_FILE) {
            return Ok(Found::Folder(GameDir::at(parent(arg))));
        }
        if is_format1(arg) {
            return Ok(Found::Format1(arg.to_path_buf()));
        }
        Err(Error::refused(format!(
            "{}: not a herald game; give a game folder (or the {GAME_FILE} in it)",
            arg.display()
        )))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn game_file(&self) -> PathBuf {
        self.root.join(GAME_FILE)
    }
    pub fn secrets(&self) -> PathBuf {
        self.root.join(SECRETS)
    }
    pub fn key(&self) -> PathBuf {
        self.root.join(KEY)
    }
    pub fn lock(&self) -> PathBuf {
        self.root.join(LOCK)
    }

    pub fn reports(&self) -> PathBuf {
        self.root.join(REPORTS)
    }
    pub fn report_dir(&self, turn: u32) -> PathBuf {
        self.reports().join(turn_folder(turn))
    }
    /// `ext` is one of herald's own: txt, json, svg, html, png.
    pub fn report(&self, turn: u32, player: &Name, ext: &'static str) -> PathBuf {
        self.report_dir(turn).join(format!("{player}.{ext}"))
    }
    /// Written last into a turn's report folder: its reports are complete.
    pub fn reports_done(&self, turn: u32) -> PathBuf {
        self.report_dir(turn).join(DONE)
    }

    pub fn orders(&self) -> PathBuf {
        self.root.join(ORDERS)
    }
    pub fn orders_dir(&self, turn: u32) -> PathBuf {
        self.orders().join(turn_folder(turn))
    }
    pub fn stored_order(&self, turn: u32, player: &Name) -> PathBuf {
        self.orders_dir(turn).join(format!("{player}.json"))
    }

    pub fn outbox(&self) -> PathBuf {
        self.root.join(OUTBOX)
    }
    /// The game's outbox, for queueing (`store::outbox`) and sending.
    pub fn outbox_dir(&self) -> OutboxDir {
        OutboxDir::at(self.outbox())
    }
    /// A queued mail, named by a digest of its Message-ID, so queueing the
    /// same mail twice leaves one file.
    pub fn outbox_mail(&self, digest: &str) -> PathBuf {
        self.outbox_dir().mail(digest)
    }

    pub fn inbox_seen(&self) -> PathBuf {
        self.root.join(INBOX).join(SEEN)
    }

    pub fn archive(&self) -> PathBuf {
        self.root.join(ARCHIVE)
    }
    /// The game file as it was before its last change.
    pub fn previous(&self) -> PathBuf {
        self.archive().join(PREVIOUS)
    }
    /// Where the commit links the game file it replaces before renaming
    /// the link to [`GameDir::previous`]: a temporary name of process `pid`.
    pub fn previous_link(&self, pid: u32) -> PathBuf {
        self.archive().join(format!(".previous-{pid}"))
    }
    /// The `k`th game file rolled back from `turn` (`k` from 1: the first
    /// has no number).
    pub fn undone(&self, turn: u32, k: u32) -> PathBuf {
        let turn = turn_folder(turn);
        match k {
            0 | 1 => self.archive().join(format!("undone-{turn}.jsonl")),
            k => self.archive().join(format!("undone-{turn}-{k}.jsonl")),
        }
    }
    pub fn undo_log(&self) -> PathBuf {
        self.archive().join(UNDO_LOG)
    }

    /// `press/`: the texts of the press messages relayed (private).
    pub fn press(&self) -> PathBuf {
        self.root.join(PRESS)
    }
    /// The game's press rules, signed at `new`.
    pub fn press_rules(&self) -> PathBuf {
        self.press().join(PRESS_RULES)
    }
    /// The press log: one signed entry per press relayed, chained.
    pub fn press_log(&self) -> PathBuf {
        self.press().join(PRESS_LOG)
    }
    /// Whom each player has muted (`mute PLAYER` by mail).
    pub fn press_mutes(&self) -> PathBuf {
        self.press().join(PRESS_MUTES)
    }
    /// One relayed press message, named by its id (32 hex digits herald
    /// computed from the mail that carried it).
    pub fn press_file(&self, id: &str) -> PathBuf {
        self.press().join(format!("{id}.json"))
    }

    /// Create the folder holding `path` (inside this game) if missing, 0700.
    pub fn ensure_parent(&self, path: &Path) -> Result<()> {
        let mut chain = Vec::new();
        let mut p = path.parent();
        while let Some(d) = p {
            if d == self.root || d.is_dir() {
                break;
            }
            chain.push(d.to_path_buf());
            p = d.parent();
        }
        for d in chain.iter().rev() {
            write::create_dir(d)?;
        }
        Ok(())
    }
}

/// An outbox folder (a game's `outbox/`, or the host's `DIR/outbox/`) and
/// the files in it. `NAME` is a mail's name: the digest of its Message-ID
/// for every mail herald queues (`store::outbox::name_of`), or the stem of
/// a file the moderator put there.
///
/// ```text
/// OUTBOX/NAME.eml              a mail waiting to be sent, the exact bytes
///        NAME.state            its send states so far (host::outbox), one line each
///        sent                  the names of mails sent to every recipient, one a line
///        refused/NAME.eml      a mail with a recipient refused for good
///        refused/NAME.json     why (for the status page)
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxDir {
    root: PathBuf,
}

impl OutboxDir {
    pub fn at(root: impl Into<PathBuf>) -> OutboxDir {
        OutboxDir { root: root.into() }
    }
    pub fn root(&self) -> &Path {
        &self.root
    }
    /// `NAME.eml`. `name` is a digest herald made or a name read from the
    /// folder itself: never a path.
    pub fn mail(&self, name: &str) -> PathBuf {
        debug_assert!(!name.contains('/') && !name.is_empty());
        self.root.join(format!("{name}.eml"))
    }
    /// `NAME.state`: the mail's send states.
    pub fn states(&self, name: &str) -> PathBuf {
        debug_assert!(!name.contains('/') && !name.is_empty());
        self.root.join(format!("{name}.state"))
    }
    /// `sent`: the record of mails done.
    pub fn sent(&self) -> PathBuf {
        self.root.join("sent")
    }
    pub fn refused(&self) -> PathBuf {
        self.root.join("refused")
    }
    pub fn refused_mail(&self, name: &str) -> PathBuf {
        self.refused().join(format!("{name}.eml"))
    }
    pub fn refused_record(&self, name: &str) -> PathBuf {
        self.refused().join(format!("{name}.json"))
    }
}

fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Does the file start like a herald 0.1 game file (pretty JSON whose
/// first key is `"format": 1`)?
fn is_format1(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 32];
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    let n = f.read(&mut head).unwrap_or(0);
    let text = String::from_utf8_lossy(&head[..n]);
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    compact.starts_with("{\"format\":1,")
}
