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

/// What an address is told of itself: its reliability across the host's
/// games, and its rating in each pool it has a rated game in (pool name
/// order). The one reading behind the `me` reply by mail and the "my
/// games" page of `herald serve` (docs/web.md), so both show the same
/// figures.
#[derive(Debug, Clone)]
pub struct Own {
    pub reliability: reliability::Tally,
    pub ratings: Vec<(String, ratings::Standing)>,
}

/// `address`'s own figures in the host folder `dir`.
pub fn own(dir: &std::path::Path, address: &str) -> Own {
    Own {
        reliability: reliability::of_address(dir, address),
        ratings: ratings::of_address_everywhere(&ratings::of_host(dir), address),
    }
}
