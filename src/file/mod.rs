//! The game-file format, canonical JSON, hashing and atomic writes.

mod game_file;
pub use game_file::*;

use crate::error::{Error, Result};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::Path;

/// Canonical JSON of a value: through `serde_json::Value`, whose objects keep
/// their keys sorted, then written compactly. Hashes are taken over this.
pub fn canonical<T: Serialize + ?Sized>(v: &T) -> String {
    let value = serde_json::to_value(v).expect("game data serialises to JSON");
    serde_json::to_string(&value).expect("JSON values serialise")
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    crate::rng::hex(&Sha256::digest(bytes))
}

pub fn hash_of<T: Serialize + ?Sized>(v: &T) -> String {
    sha256_hex(canonical(v).as_bytes())
}

/// Write a file atomically: a temporary file beside it, fsync, rename.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{}.tmp-{}", name, std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io(path, e));
    }
    Ok(())
}

/// Write a file that can be made again (a report): atomically (temp file
/// and rename, so a reader never sees half of it) but without waiting for
/// the disk.
pub fn write_replace(path: &Path, contents: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{}.tmp-{}", name, std::process::id()));
    let result = std::fs::write(&tmp, contents).and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::io(path, e));
    }
    Ok(())
}

/// Keep the file at `src` also under `dst` (which must not exist): a hard
/// link where the file system allows it (the bytes are on disk already), else
/// a durable copy. The link's folder is synced.
pub fn keep_copy(src: &Path, dst: &Path) -> Result<()> {
    let dir = dst
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| std::path::PathBuf::from("."));
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    if std::fs::hard_link(src, dst).is_ok() {
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        return Ok(());
    }
    let bytes = std::fs::read(src).map_err(|e| Error::io(src, e))?;
    write_atomic(dst, &bytes)
}

pub fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::io(path, e))
}
