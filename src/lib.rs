//! herald: a play-by-email turn processor.
//!
//! The library does the work; `main.rs` only parses the command line and
//! calls `cli`. `docs/design.md` draws the whole shape.
//!
//! ## The import order
//!
//! Imports flow down this list and never back up: a module uses only the
//! modules on the lines below its own, and none beside it on its line.
//! `tests/it/layers.rs` reads this block and checks every `crate::` path
//! in the source against it (and that the files of one folder do not
//! import each other in a circle).
//!
//! ```text
//! cli                      one file per subcommand: arguments in, one call into the library
//! web                      `herald serve`: the host folder over HTTP, sign-in, the player's pages
//! host                     the unattended mail host over many game folders; its gallery
//! requests                 the door: a player's typed request in, a typed outcome out, whatever carried it
//! site                     the replay site of a game, checked in the browser
//! community                a host's memory of its players: reliability
//! pipeline                 what happens to a game: create, check, resolve, replay, nmr, …
//! playtest mail report     the lab's tournaments; mails in and out; reports from plain data
//! store                    the game folder: layout, lock, atomic writes, secrets, limits
//! chain                    the game file as bytes and proofs: entries, head, keys, dice
//! auth                     passwords: herald's hashes, the guessing budget
//! bots                     view-only bots over games::BotSupport
//! games                    the rules by capability (Game, Draw, Compose, BotSupport), the games
//! board orders             hex geometry and drawing; the order-file envelope
//! rng names time error     seeded streams, names that become paths, times, the error type
//! ```
//!
//! So the games know nothing of the bots or the lab: `bots` reaches a game
//! through its traits (`games::visit` gives a game chosen at run time back
//! its types), `playtest` through `bots`, and the one stand-in for missed
//! orders (`pipeline::nmr`) hands a bot a player's view.

pub mod cli;
pub mod web;

pub mod host;
pub mod requests;
pub mod site;

pub mod community;

pub mod pipeline;

pub mod mail;
pub mod playtest;
pub mod report;

pub mod auth;
pub mod chain;
pub mod store;

pub mod bots;
pub mod games;

pub mod board;
pub mod orders;

pub mod error;
pub mod names;
pub mod rng;
pub mod time;

pub use error::{Error, Result};
