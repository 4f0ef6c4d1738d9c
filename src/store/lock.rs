//! One writer per game: an exclusive OS lock (`std::fs::File::try_lock`,
//! flock(2) on Linux; in the standard library since Rust 1.89, so no crate
//! is needed) on the game folder's `lock` file, taken before a command reads the state
//! it will change and held until it has written everything. The lock dies
//! with its process, so a killed herald never leaves a game locked. A
//! second writer waits a bounded time, then gives up with exit status 3,
//! naming the process that holds the game.

use crate::error::{Error, Result};
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long a writer waits for another by default.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(30);

/// Held while a command writes to a game; released when dropped.
#[derive(Debug)]
pub struct Lock {
    file: File,
}

impl Lock {
    /// Take the lock at `path` (created 0600 if missing; never through a
    /// symlink), waiting at most `wait`. `game` names the game in the
    /// message when another process holds it.
    pub fn acquire(path: &Path, game: &str, wait: Duration) -> Result<Lock> {
        Lock::acquire_for(path, wait, |pid, waited| {
            format!(
                "game {game} is busy (pid {pid}): another herald is writing it; try again when it has finished (waited {waited} s)"
            )
        })
    }

    /// [`Lock::acquire`] with the message said when another process holds
    /// it: `busy(pid, seconds waited)` (the pid "unknown" if the holder has
    /// not written it yet). The host's own lock says "host DIR is busy".
    pub fn acquire_for(
        path: &Path,
        wait: Duration,
        busy: impl FnOnce(&str, f32) -> String,
    ) -> Result<Lock> {
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        let start = Instant::now();
        let mut pause = Duration::from_millis(5);
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(e)) => return Err(Error::io(path, e)),
            }
            if start.elapsed() >= wait {
                let mut holder = String::new();
                let _ = file.rewind();
                let _ = (&file).take(32).read_to_string(&mut holder);
                let pid = holder.trim();
                return Err(Error::busy(busy(
                    if pid.is_empty() { "unknown" } else { pid },
                    wait.as_secs_f32(),
                )));
            }
            std::thread::sleep(pause.min(wait.saturating_sub(start.elapsed())));
            pause = (pause * 2).min(Duration::from_millis(100));
        }
        // Say who holds it, for the message a waiting writer prints.
        let _ = file.set_len(0);
        let _ = file.rewind();
        let _ = writeln!(file, "{}", std::process::id());
        Ok(Lock { file })
    }
}

impl Lock {
    /// Whether the file this lock holds is still the one named `path`: a
    /// sweep of an unfinished build may take a lock file in the instant
    /// between its making and its locking and remove it, and the lock then
    /// holds a file no longer in any folder.
    pub fn still_at(&self, path: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        match (self.file.metadata(), std::fs::symlink_metadata(path)) {
            (Ok(held), Ok(named)) => held.dev() == named.dev() && held.ino() == named.ino(),
            _ => false,
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}
