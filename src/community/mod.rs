//! A host's memory of its players (issue 52): what the finished and
//! running games of one host folder say about each player address, as
//! pure functions over the game files and the secrets that bind their
//! addresses. Nothing here writes: the host's mail requests (`me`) and
//! the lobby's checks (`--min-reliability`) ask it.
//!
//! Addresses are secrets (docs/trust.md): a figure here is keyed by the
//! address, in lowercase, and is shown only to that address's own mail,
//! or on a public page where the player chose `public`.

pub mod glicko2;
pub mod preferences;
pub mod ratings;
pub mod reliability;
