//! The one error type: what went wrong, said so the user knows what to do,
//! and the exit status it maps to ([`Kind::exit_code`]):
//!
//! | status | kind | meaning |
//! |---|---|---|
//! | 0 | | success |
//! | 1 | [`Kind::Refused`] | refused input (bad orders, a bad or damaged file, a failed check, a failed read or write): nothing written |
//! | 2 | [`Kind::Usage`] | the command line was wrong |
//! | 3 | [`Kind::Busy`] | another herald holds the game's lock: try again later |
//! | 70 | [`Kind::Internal`] | a fault in herald itself (a bug: report it); `EX_SOFTWARE` of sysexits.h |
//!
//! Refused input is described by [`Problem`]s, each naming the file and
//! line where they are known and the reason; they become the lines the user
//! reads when they become an [`Error`] (`file:line: reason`). The lines are
//! kept as text in [`Error::problems`] because the host's mail replies and
//! logs read them as such.
//!
//! This is the edge's error. What the game rules refuse is typed one layer
//! up, as `games::RulesError` (its kind, the facts, a game's own detail),
//! and becomes a reason here only where it is told: `pipeline::check` puts
//! it at its order's line, `pipeline::create` at the position file's, and
//! `From<RulesError> for Error` (in `games::rules_error`, since this module
//! imports nothing above it) makes one refused problem of it. The host's
//! transports keep their own `host::Failure` (docs/design.md says why).

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
    /// A fault in herald itself, not in what it was given (exit 70).
    Internal,
}

impl Kind {
    /// The process exit status of this kind of error (the table above).
    pub fn exit_code(self) -> i32 {
        match self {
            Kind::Refused => 1,
            Kind::Usage => 2,
            Kind::Busy => 3,
            Kind::Internal => 70,
        }
    }
}

/// One reason a piece of input was refused: the file and the line where
/// they are known, and what is wrong (and what would be accepted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// How the file is named to the user (its path as given), if any.
    pub file: Option<String>,
    /// The 1-based line in that file, if known.
    pub line: Option<usize>,
    pub reason: String,
}

impl Problem {
    /// A problem at a line of a file.
    pub fn at(file: &str, line: usize, reason: impl Into<String>) -> Problem {
        Problem {
            file: Some(file.to_string()),
            line: Some(line),
            reason: reason.into(),
        }
    }
    /// A problem with a file as a whole.
    pub fn in_file(file: &str, reason: impl Into<String>) -> Problem {
        Problem {
            file: Some(file.to_string()),
            line: None,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Problem {
    /// `file:line: reason`, `file: reason` or `reason`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{file}:{line}: {}", self.reason),
            (Some(file), None) => write!(f, "{file}: {}", self.reason),
            (None, _) => write!(f, "{}", self.reason),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Error {
    pub kind: Kind,
    /// Every problem found, one line each, as the user reads them.
    pub problems: Vec<String>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a write found no room, told apart from other I/O errors by
/// [`no_room`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRoom {
    /// The disk (or the quota) is full: `ENOSPC`.
    DiskFull,
    /// The file would pass the size this process may write: `EFBIG`.
    FileTooLarge,
}

/// Whether an I/O error says there is no room to write, and which: the
/// standard library's [`std::io::ErrorKind`]s for `ENOSPC` and `EFBIG`.
pub fn no_room(e: &std::io::Error) -> Option<NoRoom> {
    match e.kind() {
        std::io::ErrorKind::StorageFull => Some(NoRoom::DiskFull),
        std::io::ErrorKind::FileTooLarge => Some(NoRoom::FileTooLarge),
        _ => None,
    }
}

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
    /// Input refused for these problems, each said as `file:line: reason`.
    pub fn from_problems(problems: Vec<Problem>) -> Error {
        Error::all(problems.iter().map(Problem::to_string).collect())
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
    /// A fault in herald itself (a thread that died, a broken invariant):
    /// said as `internal: <what>`, exit status 70.
    pub fn internal(what: impl fmt::Display) -> Error {
        Error {
            kind: Kind::Internal,
            problems: vec![format!("internal: {what}")],
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
            _ => io_words(&e),
        };
        Error::refused(format!("{}: {why}", path.display()))
    }
    pub fn exit_code(&self) -> i32 {
        self.kind.exit_code()
    }
}

/// An I/O error in the user's words: "no such file or folder", not the
/// system's "No such file or directory (os error 2)".
pub fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "no such file or folder".into(),
        K::PermissionDenied => {
            "permission denied (the user herald runs as may not read or change it)".into()
        }
        K::IsADirectory => "a folder, where a file is needed".into(),
        K::NotADirectory => "a part of the path is a file, not a folder".into(),
        K::AlreadyExists => "exists already".into(),
        K::ReadOnlyFilesystem => "on a read-only file system".into(),
        _ => {
            let s = e.to_string();
            match s.rfind(" (os error ") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    }
}

impl From<Vec<Problem>> for Error {
    fn from(problems: Vec<Problem>) -> Error {
        Error::from_problems(problems)
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
