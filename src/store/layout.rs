//! The game folder's layout: the only place herald builds a path inside a
//! game. Every name that goes into a path is a validated [`Name`], a turn
//! number, or a hex digest herald computed.
//!
//! ```text
//! GAME/                      mode 0700: the moderator's alone
//!   game.jsonl               the game file (format 2): the commit point, publishable
//!   secrets.toml             0600: the seed, and the passwords as issued
//!   moderator.key            0600: the moderator's Ed25519 signing key
//!   lock                     the writers' lock (holds the writer's pid)
//!   orders/turn-NNNN/<player>.json   orders accepted and sealed, waiting for the resolve
//!   reports/turn-NNNN/<player>.txt   every turn's text report
//!                   <player>.json|.svg|.html   the current turn's other forms
//!                   done     written last: the turn's reports are complete
//!   outbox/<digest>.eml      mails waiting to be sent (the outbox's own files: [`OutboxDir`])
//!   inbox/seen               sha256 of every mail read, one a line
//!   archive/previous.jsonl   the game file before its last change
//!   archive/                 undone game files and undo.log
//! ```

use super::write;
use crate::error::{Error, Result};
use crate::names::Name;
use std::path::{Path, PathBuf};

pub const GAME_FILE: &str = "game.jsonl";

/// A game folder.
#[derive(Debug, Clone)]
pub struct GameDir {
    root: PathBuf,
}

/// What a path given on the command line names.
#[derive(Debug)]
pub enum Found {
    /// A game folder of format 2.
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
        let meta = std::fs::metadata(arg).map_err(|e| Error::io(arg, e))?;
        if meta.is_dir() {
            if arg.join(GAME_FILE).is_file() {
                return Ok(Found::Folder(GameDir::at(arg)));
            }
            let old = arg.join("game.json");
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
        self.root.join("secrets.toml")
    }
    pub fn key(&self) -> PathBuf {
        self.root.join("moderator.key")
    }
    pub fn lock(&self) -> PathBuf {
        self.root.join("lock")
    }

    pub fn reports(&self) -> PathBuf {
        self.root.join("reports")
    }
    pub fn report_dir(&self, turn: u32) -> PathBuf {
        self.reports().join(format!("turn-{turn:04}"))
    }
    /// `ext` is one of herald's own: txt, json, svg, html, png.
    pub fn report(&self, turn: u32, player: &Name, ext: &'static str) -> PathBuf {
        self.report_dir(turn).join(format!("{player}.{ext}"))
    }
    /// Written last into a turn's report folder: its reports are complete.
    pub fn reports_done(&self, turn: u32) -> PathBuf {
        self.report_dir(turn).join("done")
    }

    pub fn orders(&self) -> PathBuf {
        self.root.join("orders")
    }
    pub fn orders_dir(&self, turn: u32) -> PathBuf {
        self.orders().join(format!("turn-{turn:04}"))
    }
    pub fn stored_order(&self, turn: u32, player: &Name) -> PathBuf {
        self.orders_dir(turn).join(format!("{player}.json"))
    }

    pub fn outbox(&self) -> PathBuf {
        self.root.join("outbox")
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
        self.root.join("inbox").join("seen")
    }

    pub fn archive(&self) -> PathBuf {
        self.root.join("archive")
    }
    /// The game file as it was before its last change.
    pub fn previous(&self) -> PathBuf {
        self.archive().join("previous.jsonl")
    }
    pub fn undo_log(&self) -> PathBuf {
        self.archive().join("undo.log")
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
