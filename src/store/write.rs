//! The one way herald writes a file: a temporary file created exclusively
//! (O_EXCL, mode 0600 from the first byte) in the destination's own folder,
//! written, synced when it must survive a crash, then renamed over the
//! destination. A reader sees the old file or the new one, never half; a
//! symlink or a file planted at a temporary name is never followed or
//! reused, since every temporary name is new and opened exclusively.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// How much a write must survive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// The file and its folder entry are on disk before this returns: the
    /// game file, secrets, stored orders, the outbox, inbox progress.
    Synced,
    /// Atomic but not waited for: files herald can make again (reports).
    Replaceable,
}

/// Write `bytes` to `path` (whose folder must exist) atomically, mode 0600.
pub fn atomic(path: &Path, bytes: &[u8], durability: Durability) -> Result<()> {
    let dir = parent(path);
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .map_err(|e| Error::io(path, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    if durability == Durability::Synced {
        tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    }
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    if durability == Durability::Synced {
        sync_dir(dir)?;
    }
    Ok(())
}

/// [`atomic`], the file given `mode` before it is renamed into place (a
/// page a web server reads: never seen with another mode).
pub fn atomic_mode(path: &Path, bytes: &[u8], durability: Durability, mode: u32) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = parent(path);
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .map_err(|e| Error::io(path, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(mode))
        .map_err(|e| Error::io(path, e))?;
    if durability == Durability::Synced {
        tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    }
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    if durability == Durability::Synced {
        sync_dir(dir)?;
    }
    Ok(())
}

/// A file written beside its destination and synced, not yet in place:
/// [`Prepared::put`] renames it over the destination (the commit of a
/// second file that must follow another's, `herald passwd`'s secrets
/// after the game file); dropped without it, it is removed and the
/// destination never changed.
pub struct Prepared {
    tmp: tempfile::NamedTempFile,
    path: std::path::PathBuf,
}

/// Write `bytes` beside `path` (whose folder must exist), mode 0600,
/// synced: everything [`atomic`] does but the rename. A full disk fails
/// here, with nothing changed.
pub fn prepare(path: &Path, bytes: &[u8]) -> Result<Prepared> {
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(parent(path))
        .map_err(|e| Error::io(path, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
    Ok(Prepared {
        tmp,
        path: path.to_path_buf(),
    })
}

impl Prepared {
    /// Rename the file into place, and sync its folder.
    pub fn put(self) -> Result<()> {
        let path = self.path;
        self.tmp
            .persist(&path)
            .map_err(|e| Error::io(&path, e.error))?;
        sync_dir(parent(&path))
    }
}

/// Write several files into one folder `dir` as [`atomic`] writes them
/// with [`Durability::Synced`], but with the work shared: every file is
/// written and synced side by side, then each is renamed into place in the
/// order given, then the folder is synced once (not once per file). Every
/// file is on disk when this returns; after a crash, each is the old file
/// or the new one.
pub fn atomic_synced_all(dir: &Path, files: &[(std::path::PathBuf, Vec<u8>)]) -> Result<()> {
    use rayon::prelude::*;
    if let Some((path, _)) = files.iter().find(|(path, _)| parent(path) != dir) {
        return Err(Error::internal(format!(
            "{} is not in {}",
            path.display(),
            dir.display()
        )));
    }
    let written: Vec<tempfile::NamedTempFile> = files
        .par_iter()
        .map(|(path, bytes)| {
            let mut tmp = tempfile::Builder::new()
                .prefix(".tmp-")
                .tempfile_in(dir)
                .map_err(|e| Error::io(path, e))?;
            tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
            tmp.as_file().sync_all().map_err(|e| Error::io(path, e))?;
            Ok(tmp)
        })
        .collect::<Result<_>>()?;
    for (tmp, (path, _)) in written.into_iter().zip(files) {
        tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    }
    if !files.is_empty() {
        sync_dir(dir)?;
    }
    Ok(())
}

/// Write a file the user named outside any game folder (`--out`): refused
/// if something other than a regular file stands there (a FIFO, a device,
/// a folder, a symlink), so herald never replaces or writes through one.
pub fn outside(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_file() {
            return Err(Error::refused(format!(
                "{}: exists and is not a regular file; herald writes only to a new or regular file",
                path.display()
            )));
        }
    }
    atomic(path, bytes, Durability::Synced)
}

/// The prefixes of the temporary files herald writes inside a game
/// folder: [`atomic`]'s, and the commit's link to the file it replaces.
pub const TEMPORARY: [&str; 2] = [".tmp-", ".previous-"];

/// Remove the temporary files a killed command left in the game folder
/// `root` (never followed through a symlink). Only the writer, holding the
/// game's lock, calls this: no other process is writing one.
///
/// Every folder is swept except the turn folders of `reports/` and
/// `orders/` older than the newest two: commands write only the current
/// turn's (and an undo the one before), so a long game's hundreds of old
/// turns are not listed on every write. `by_turn` names those folders
/// (`layout::BY_TURN`, passed in so that the layout, which creates its
/// folders through this module, stays the only one to know them).
pub fn sweep(root: &Path, by_turn: &[&str]) {
    sweep_in(root, 0, by_turn);
}

fn sweep_in(dir: &Path, depth: usize, by_turn_names: &[&str]) {
    let Ok(list) = std::fs::read_dir(dir) else {
        return;
    };
    let by_turn = depth == 1
        && dir
            .file_name()
            .is_some_and(|n| by_turn_names.iter().any(|b| n == *b));
    let mut turns: Vec<(u64, std::path::PathBuf)> = Vec::new();
    for e in list.flatten() {
        let Ok(t) = e.file_type() else { continue };
        let name = e.file_name();
        let name = name.to_string_lossy();
        if t.is_dir() {
            match name.strip_prefix("turn-").and_then(|n| n.parse().ok()) {
                Some(turn) if by_turn => turns.push((turn, e.path())),
                _ => sweep_in(&e.path(), depth + 1, by_turn_names),
            }
        } else if TEMPORARY.iter().any(|p| name.starts_with(p)) {
            let _ = std::fs::remove_file(e.path());
        }
    }
    turns.sort();
    for (_, p) in turns.iter().rev().take(2) {
        sweep_in(p, depth + 1, by_turn_names);
    }
}

/// Make sure a folder's entries (a rename, a new file) are on disk.
pub fn sync_dir(dir: &Path) -> Result<()> {
    let d = std::fs::File::open(dir).map_err(|e| Error::io(dir, e))?;
    d.sync_all().map_err(|e| Error::io(dir, e))
}

/// A folder, created with mode 0700 (a game folder and everything in it
/// is the moderator's alone).
pub fn create_dir(dir: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        Err(e) => Err(Error::io(dir, e)),
    }
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}
