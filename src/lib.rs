//! herald: a play-by-email turn processor.
//!
//! The library does the work; `main.rs` only parses the command line.
//! Imports flow down this list and never back up: `cli` calls `pipeline`;
//! `pipeline` uses `store`, `chain`, `games`, `report` and `mail`.

pub mod cli;
pub mod pipeline;

pub mod chain;
pub mod mail;
pub mod report;
pub mod store;

pub mod auth;
pub mod board;
pub mod bots;
pub mod error;
pub mod games;
pub mod host;
pub mod names;
pub mod orders;
pub mod playtest;
pub mod rng;
pub mod time;

pub use error::{Error, Result};
