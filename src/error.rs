//! The one error type: what went wrong, said so the user knows what to do,
//! and which exit status it maps to: 0 success, 1 refused input (nothing
//! written), 2 usage, 3 busy (another herald holds the game's lock).

use std::fmt;

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
        let why = match e.raw_os_error() {
            Some(28) => "the disk is full".to_string(),
            Some(27) => "the file would be larger than this process may write".to_string(),
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
