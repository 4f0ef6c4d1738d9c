//! The one error type: what went wrong, said so the user knows what to do,
//! and which exit status it maps to.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The orders or the game file were refused (exit 1).
    Refused,
    /// The command line was wrong (exit 2).
    Usage,
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
    pub fn io(path: &std::path::Path, e: std::io::Error) -> Error {
        Error::refused(format!("{}: {}", path.display(), e))
    }
    pub fn exit_code(&self) -> i32 {
        match self.kind {
            Kind::Refused => 1,
            Kind::Usage => 2,
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
