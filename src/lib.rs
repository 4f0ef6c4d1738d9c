//! herald: a play-by-email turn processor.
//!
//! The library does the work; `main.rs` only parses the command line.

pub mod auth;
pub mod board;
pub mod cli;
pub mod engine;
pub mod error;
pub mod file;
pub mod games;
pub mod history;
pub mod host;
pub mod mail;
pub mod nmr;
pub mod orders;
pub mod report;
pub mod rng;

pub use error::{Error, Result};
