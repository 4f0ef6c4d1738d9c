//! The game store: a game is one folder (`layout`), written by one process
//! at a time (`lock`), through atomic exclusive writes (`write`), with its
//! secrets sealed (`secrets`, `orders`), every input size-limited
//! (`limits`) and every path built from validated names (`crate::names`). Game
//! files of herald 0.1 are read by `v1` for `convert` and `verify`.
//!
//! The game file is the commit point: a command writes everything the game
//! now is into one new `game.jsonl` and renames it into place; whatever is
//! derived from it (reports, mails, the clearing of resolved orders) comes
//! after and is completed by the next command if a crash cut it short.

pub mod host_dir;
pub mod layout;
pub mod limits;
pub mod lock;
pub mod orders;
pub mod outbox;
pub mod secrets;
pub mod seen;
pub mod v1;
pub mod write;

pub use crate::names::Name;
pub use layout::{Found, GameDir, OutboxDir};
pub use secrets::Secrets;

use crate::chain::Signer;
use crate::error::{Error, Result};
use lock::Lock;
use std::time::Duration;
use write::Durability;

/// The prefixes of the folders `new` and `convert` build a game in, beside
/// its destination, before renaming it into place.
pub const BUILDING: [&str; 2] = [".herald-new-", ".herald-convert-"];

/// A folder to build a game in beside its destination `out` (0700, named
/// with `prefix`, one of [`BUILDING`]), already locked for writing; what
/// earlier killed builds left there is swept first. Dropping the
/// `TempDir` without persisting it removes the folder.
pub fn building(out: &std::path::Path, prefix: &str) -> Result<(tempfile::TempDir, Store)> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
    sweep_unfinished(&parent);
    let mut attempt = 0;
    loop {
        let tmp = tempfile::Builder::new()
            .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700))
            .prefix(prefix)
            .tempdir_in(&parent)
            .map_err(|e| Error::io(&parent, e))?;
        // A concurrent sweep (another `new` beside this one) may remove
        // the folder while it is still empty, or take its lock file in the
        // instant between its making and its locking and remove the
        // folder: then build in a new folder. The sweep holds such a lock
        // only while it removes the folder, so a short wait outlasts it.
        let swept = |tmp: &tempfile::TempDir| !tmp.path().is_dir();
        match Store::writer(GameDir::at(tmp.path()), Duration::from_secs(2)) {
            Ok(store) if store.lock.as_ref().is_some_and(|l| l.still_at(&store.dir.lock())) => {
                return Ok((tmp, store))
            }
            Ok(_) if attempt < 5 => attempt += 1,
            Err(_) if attempt < 5 && swept(&tmp) => attempt += 1,
            Ok(_) => {
                return Err(Error::internal(format!(
                    "{}: building folders beside it were removed five times while being made (is something else sweeping that folder?)",
                    parent.display()
                )))
            }
            Err(e) => return Err(e),
        }
    }
}

/// Move a game built by [`building`] into place at `out`, its lock
/// released once it is there; the folder is removed if the move fails,
/// and the move is on disk when this returns.
///
/// The lock is held through the move (it is held on the open file, which
/// moves with the folder): released before it, a `new` beside this one
/// could find the building folder's lock free in that instant, sweep the
/// folder as unfinished, and the move would find nothing.
pub fn built(tmp: tempfile::TempDir, store: Store, out: &std::path::Path) -> Result<()> {
    let tmp = tmp.keep();
    let moved = std::fs::rename(&tmp, out);
    drop(store);
    moved.map_err(|e| {
        let _ = std::fs::remove_dir_all(&tmp);
        Error::io(out, e)
    })?;
    write::sync_dir(tmp.parent().unwrap_or(std::path::Path::new(".")))
}

/// Remove what a `new` or `convert` killed midway left in `parent`: a
/// building folder (holding a seed, passwords and a key) whose lock no
/// process holds. One still being built holds its lock from its first
/// instants on. One with no lock file is empty (the lock is the first
/// thing made in it): a build killed between making the folder and its
/// lock left it, or a build is in that instant now; it is removed only
/// while empty, and [`building`] starts again in a new folder if its own
/// was removed so.
pub fn sweep_unfinished(parent: &std::path::Path) {
    let Ok(list) = std::fs::read_dir(parent) else {
        return;
    };
    for e in list.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if !BUILDING.iter().any(|b| name.starts_with(b)) || !e.path().is_dir() {
            continue;
        }
        let dir = GameDir::at(e.path());
        if !dir.lock().is_file() {
            // Fails (and leaves it) unless the folder is empty.
            let _ = std::fs::remove_dir(dir.root());
            continue;
        }
        if let Ok(held) = Lock::acquire(&dir.lock(), &name, Duration::ZERO) {
            let _ = std::fs::remove_dir_all(dir.root());
            drop(held);
        }
    }
}

/// A game folder opened for reading, or for writing with its lock held.
#[derive(Debug)]
pub struct Store {
    pub dir: GameDir,
    lock: Option<Lock>,
}

impl Store {
    /// Read access: no lock. A reader sees a whole game file, old or new.
    pub fn reader(dir: GameDir) -> Store {
        Store { dir, lock: None }
    }

    /// Write access: waits at most `wait` for another writer, then gives up
    /// with exit status 3.
    pub fn writer(dir: GameDir, wait: Duration) -> Result<Store> {
        let label = dir.root().display().to_string();
        let lock = Lock::acquire(&dir.lock(), &label, wait)?;
        write::sweep(dir.root(), &layout::BY_TURN);
        Ok(Store {
            dir,
            lock: Some(lock),
        })
    }

    pub fn is_writer(&self) -> bool {
        self.lock.is_some()
    }

    pub fn read_game(&self) -> Result<String> {
        limits::read_text(&self.dir.game_file(), limits::GAME_FILE, "a game file")
    }

    /// Replace the game file: the commit point of every change. The file
    /// it replaces is kept as `archive/previous.jsonl` (a hard link: its
    /// bytes are on disk already), the one copy to restore from if the
    /// game file is ever damaged.
    pub fn commit(&self, text: &str) -> Result<()> {
        if self.lock.is_none() {
            return Err(Error::internal("a game file written without its lock"));
        }
        let current = self.dir.game_file();
        if current.exists() {
            let keep = self.dir.previous();
            self.dir.ensure_parent(&keep)?;
            let tmp = self.dir.previous_link(std::process::id());
            let _ = std::fs::remove_file(&tmp);
            std::fs::hard_link(&current, &tmp)
                .and_then(|_| std::fs::rename(&tmp, &keep))
                .map_err(|e| Error::io(&keep, e))?;
            // Where `keep` is already a link to the same file (a commit cut
            // short after this step), rename does nothing and leaves `tmp`.
            let _ = std::fs::remove_file(&tmp);
        }
        write::atomic(&current, text.as_bytes(), Durability::Synced)
    }

    /// The moderator's signing key, from `moderator.key`.
    pub fn signer(&self) -> Result<Signer> {
        let p = self.dir.key();
        let text = limits::read_text(&p, limits::SECRETS_FILE, "a key file").map_err(|e| {
            Error::refused(format!(
                "{}; the game's signing key is needed to change the game (copy it back from your backup)",
                e.problems.join("; ")
            ))
        })?;
        Signer::from_file(&text).map_err(|e| Error::refused(format!("{}: {e}", p.display())))
    }

    pub fn secrets(&self) -> Result<Secrets> {
        Secrets::read(&self.dir.secrets())
    }
}
