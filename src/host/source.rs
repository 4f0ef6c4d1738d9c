//! Mail in: where the host reads the mails players send, behind one trait
//! with two implementations, an IMAP account ([`super::imap::ImapSource`])
//! and a local Maildir ([`super::maildir::MaildirSource`]).
//!
//! A pass uses a source like this:
//!
//! ```text
//! let mut src = source::open(&config.source)?;       // connect, log in, select
//! for id in src.pending()? {                          // not yet handled, oldest first
//!     match src.fetch(&id, config.max_mail_bytes)? {
//!         Fetched::Mail(bytes) => { /* route, check, store, queue replies */ }
//!         Fetched::TooBig { size, head } => { /* refuse politely from the header */ }
//!         Fetched::Gone => continue,                  // deleted meanwhile
//!     }
//!     // only once what the mail produced is safely on disk:
//!     src.mark_handled(&id)?;
//! }
//! src.close();
//! ```
//!
//! A crash between storing and `mark_handled` makes the next pass see the
//! mail again: phase 2 records each handled [`MailId`] (and the mail's
//! content hash) with what it produced and skips a mail it already has, then
//! marks it; so a crash at any instant neither loses nor doubles a mail.

use super::Failure;

/// A mail's identity in its source, stable across passes and restarts:
/// `imap:<mailbox>:<UIDVALIDITY>:<UID>` or `maildir:<unique part of the file
/// name>`. Opaque to the caller; fit for a file of handled ids.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MailId(pub String);

impl std::fmt::Display for MailId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// How much of a too-big mail's header is downloaded, to answer its
/// sender.
pub const HEAD_BYTES: u64 = 64 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetched {
    /// The whole mail, as the server holds it.
    Mail(Vec<u8>),
    /// Larger than the limit: not downloaded. `size` is the size the source
    /// reports; `head` is the start of the header (at most [`HEAD_BYTES`]),
    /// enough to tell the sender.
    TooBig { size: u64, head: Vec<u8> },
    /// No longer in the source (deleted since it was listed).
    Gone,
}

pub trait MailSource {
    /// "IMAP herald@example.org at imap.example.org:993, INBOX" or
    /// "Maildir /srv/herald/Maildir": for logs and errors.
    fn describe(&self) -> String;
    /// The mails not yet marked handled, oldest first.
    fn pending(&mut self) -> Result<Vec<MailId>, Failure>;
    /// One mail's bytes, or [`Fetched::TooBig`] without downloading it when
    /// it is larger than `max_bytes`.
    fn fetch(&mut self, id: &MailId, max_bytes: u64) -> Result<Fetched, Failure>;
    /// Mark a mail handled so no later `pending` lists it. Idempotent. Call
    /// it only after what the mail produced is safely on disk.
    fn mark_handled(&mut self, id: &MailId) -> Result<(), Failure>;
    /// Log out (IMAP); nothing for a Maildir.
    fn close(&mut self) {}
}

/// Open the source the host is configured with (for IMAP: connect, log
/// in, select the mailbox): the folder's face picks the implementation
/// (`host::open_source`), so this file, which both implementations use,
/// names neither.
pub use super::open_source as open;
