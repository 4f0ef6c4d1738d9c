//! `herald host`: the unattended loop that runs games by real mail. This is
//! the only code that talks to mail servers.
//!
//! Phase 1 (this module tree) is everything that does not depend on how a
//! game is stored:
//!
//! - [`config`]: `host.toml` and its 0600 secrets file;
//! - [`source`]: mail in, from an IMAP account ([`imap`]) or a local Maildir
//!   ([`maildir`]), behind the [`source::MailSource`] trait;
//! - [`smtp`]: mail out by SMTP submission, failures classified;
//! - [`outbox`]: a folder of queued `.eml` files sent with retries and
//!   backoff, refused recipients recorded;
//! - [`send`]: `herald send GAME`, a game's outbox sent by hand through
//!   the SMTP server of a `send.toml` or a sendmail program;
//! - [`log`]: one line per mail in and out and per failure, stamped with
//!   the event's own time;
//! - [`layout`]: every path inside the host folder.
//!
//! Phase 2 builds the per-game handling on these and on the game store.
//! Its mail side:
//!
//! - [`route`]: which game a mail is for (plus-address, `[GAME]` subject
//!   tag), and which mails get no answer (bounces, automatic mail);
//! - [`commands`]: `help`, `status`, `form`, `report`, `withdraw` by mail;
//! - [`press`]: press by mail, relayed between players under the game's
//!   rules;
//! - the door (`crate::requests`) below it decides each request: the
//!   host turns a mail into a request and the outcome into a reply mail;
//!   the budget of password checks (`requests::guard`) and the bound on
//!   replies to one address (`requests::bound`, re-exported as
//!   [`replies`]) are the door's;
//! - [`pass`]: one pass of `herald host DIR` (mail in, game time, mail
//!   out, the status page).
//!
//! Its game-time side:
//!
//! - [`state`]: the host's record of each game, `DIR/state/<game>.json`;
//! - [`due`]: early and deadline resolution, reminders, the end, and the
//!   idle check that leaves an unchanged game closed;
//! - [`status_page`]: `DIR/index.html` and `DIR/index.json`;
//! - [`gallery`]: `DIR/gallery/`, the finished games' replay sites
//!   (`crate::site`) and their index.
//! - [`lobby`]: open tables joined by mail, which become games.
//!
//! `docs/host.md` describes it all.

pub mod commands;
pub mod config;
pub mod due;
pub mod gallery;
pub mod imap;
pub mod layout;
pub mod lobby;
pub mod log;
pub mod maildir;
pub mod outbox;
pub mod pass;
pub mod press;
/// The bound on replies to one address: the door's (`requests::bound`).
pub use crate::requests::bound as replies;
pub mod route;
pub mod send;
pub mod sender;
pub mod smtp;
pub mod source;
pub mod state;
pub mod status_page;
pub mod tls;
pub mod vacation;
pub mod write;

/// What went wrong talking to a mail server or the disk, classified so the
/// host knows whether to retry.
///
/// A type of its own beside [`crate::error::Error`], on purpose. An
/// `Error`'s kind says how a command ends (its exit status); a `Failure`'s
/// class says what the host does next while the pass goes on: try the
/// recipient again after the backoff (`Temporary`, an SMTP 4xx), record
/// the recipient as refused and never try again (`Permanent`, a 5xx), or
/// stop sending for the rest of the pass and leave every mail as it is
/// (`Config`). The outbox journal and the log line's `kind` record the
/// class, and a mail's fate depends on it; folded into `Error`'s kinds it
/// would add three kinds that never end a command and would all be exit
/// status 1 if they did. A failure becomes text only
/// at the edge: the pass lists it among the host's problems (the status
/// page), and `herald host` turns those into one refused `Error` (exit 1),
/// adding the fix for a `Config` one. docs/host.md, "Failures", has the
/// table of which answer is which class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Worth retrying later: the server is down or unreachable, a 4xx
    /// answer, a timeout, a full disk.
    Temporary(String),
    /// Retrying will not help: a 5xx answer, a refused recipient, a mail
    /// that cannot be sent as it is.
    Permanent(String),
    /// The host's configuration is wrong (a refused password, a certificate
    /// that does not verify, a server without a needed feature): report it
    /// loudly; nothing will work until the moderator fixes it.
    Config(String),
}

impl Failure {
    pub fn message(&self) -> &str {
        match self {
            Failure::Temporary(m) | Failure::Permanent(m) | Failure::Config(m) => m,
        }
    }
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Temporary(_) => "temporary",
            Failure::Permanent(_) => "permanent",
            Failure::Config(_) => "configuration",
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} failure: {}", self.kind(), self.message())
    }
}

impl std::error::Error for Failure {}

/// Open the mail source the host is configured with (for IMAP: connect,
/// log in, select the mailbox); `source::open` by its usual name. Here,
/// in the folder's face, because it names both implementations, which
/// both use `source`'s trait and types.
pub fn open_source(
    config: &config::SourceConfig,
) -> std::result::Result<Box<dyn source::MailSource>, Failure> {
    Ok(match config {
        config::SourceConfig::Imap(c) => Box::new(imap::ImapSource::connect(c)?),
        config::SourceConfig::Maildir(p) => Box::new(maildir::MaildirSource::open(p)?),
    })
}
