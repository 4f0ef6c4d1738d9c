//! Small files written so that a crash leaves the old version or the new
//! one, never a torn one: through the store's one atomic writer
//! (`store::write::atomic`: an exclusive 0600 temporary file beside the
//! target, fsynced, renamed over it, the folder fsynced).

use std::path::Path;

pub(crate) fn atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::store::write::atomic(path, bytes, crate::store::write::Durability::Synced)
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// Make a rename or removal in `dir` durable (best effort: some file
/// systems refuse to fsync a folder).
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}
