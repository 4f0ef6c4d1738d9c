//! The one error type: what went wrong, said so the user knows what to do,
//! and which exit status it maps to: 0 success, 1 refused input (nothing
//! written), 2 usage, 3 busy (another herald holds the game's lock).

use std::fmt;

/// How a full disk is said, in every message that meets one.
pub const DISK_FULL: &str = "the disk is full";

static WARNINGS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Something the user must know although the command succeeded (exit 0):
/// `main` prints it to standard error, after the command's output.
pub fn warn(msg: impl Into<String>) {
    WARNINGS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(msg.into());
}

/// The warnings so far, taken.
pub fn take_warnings() -> Vec<String> {
    std::mem::take(&mut *WARNINGS.lock().unwrap_or_else(|e| e.into_inner()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The orders or the game file were refused (exit 1).
    Refused,
    /// The command line was wrong (exit 2).
    Usage,
    /// Another herald holds the game's lock (exit 3): try again later.
    Busy,
}

#[derive(Debug, Clone)]
pub struct Error {
    pub kind: Kind,
    /// Every problem found, one line each.
    pub problems: Vec<String>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn refused(msg: impl Into<String>) -> Error {
        Error {
            kind: Kind::Refused,
            problems: vec![msg.into()],
        }
    }
    pub fn all(problems: Vec<String>) -> Error {
        Error {
            kind: Kind::Refused,
            problems,
        }
    }
    pub fn usage(msg: impl Into<String>) -> Error {
        Error {
            kind: Kind::Usage,
            problems: vec![msg.into()],
        }
    }
    pub fn busy(msg: impl Into<String>) -> Error {
        Error {
            kind: Kind::Busy,
            problems: vec![msg.into()],
        }
    }
    /// A failed read or write, said so the user can act: a full disk or
    /// a missing permission names itself.
    pub fn io(path: &std::path::Path, e: std::io::Error) -> Error {
        let why = match e.kind() {
            std::io::ErrorKind::StorageFull => DISK_FULL.to_string(),
            std::io::ErrorKind::QuotaExceeded => {
                format!("{DISK_FULL} (the user's disk quota is used up)")
            }
            std::io::ErrorKind::FileTooLarge => {
                "the file would be larger than this process may write".to_string()
            }
            _ => e.to_string(),
        };
        Error::refused(format!("{}: {why}", path.display()))
    }
    pub fn exit_code(&self) -> i32 {
        match self.kind {
            Kind::Refused => 1,
            Kind::Usage => 2,
            Kind::Busy => 3,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}
