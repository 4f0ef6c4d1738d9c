//! The head record: line 1 of a game file. Everything a command needs to
//! know about the game now — the header as it stands, the current state,
//! where the log ends — so that `status`, `check` and `report` read one
//! line and a hash of the rest instead of the whole history. It is derived
//! from the log (`verify` derives it again and compares) and sealed with
//! the moderator's key.

use super::body::{Missed, Player};
use crate::games::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The format of game files and game folders this herald writes.
///
/// Format 3 is format 2 plus the log entry kinds of [`FORMAT3_KINDS`];
/// format 4 is format 3 plus the phase entry's `excused` field (the
/// players away on vacation a stand-in played for, [`EXCUSED_FORMAT`]);
/// nothing else changed. Format 5 takes the players' mail addresses out
/// of the game file ([`ADDRESS_FORMAT`]) and binds anonymous press with a
/// secret opening (`press.sender_commitment`). Format 6 is format 5
/// plus the genesis's `bots` (docs/store.md) and the log entry kinds of
/// [`FORMAT6_KINDS`]: converting 5 to 6 rewrites the head's `format`
/// only. Format 7 is format 6 plus the `vacation` entry's length in the
/// unit the player asked ([`LENGTH_FORMAT`]) and the genesis's
/// `preferences` (the sides the players of a lobby's table asked for,
/// which its deal read; [`super::body::PREFERENCES_FORMAT`]): converting
/// 6 to 7 rewrites the head's `format` only. Format 8 is format 7 whose
/// genesis may hold each player's display name (`players[].name`, the
/// lobby's or `new --name`'s) and whose reports show it beside the id
/// ([`NAMES_FORMAT`]): converting 7 to 8 rewrites the head's `format`
/// only, and the reports of a game begun before 8 keep their layout, so
/// that what its players kept still verifies. Game files of an older
/// format are read and played on as they are (their head keeps its
/// format) until `herald convert GAME` brings them to this one; an entry
/// needing a newer format is appended only to a game whose head says so.
pub const FORMAT: u32 = 8;

/// The format from which a game's genesis may name its players (each
/// `players[].name` a display name, not only the id) and its reports show
/// each name beside the id ("from red (Ann)"): the reports of a game
/// whose genesis is of an older format keep the layout they were signed
/// in (docs/trust.md, "Format 8").
pub const NAMES_FORMAT: u32 = 8;

/// The format a `vacation` entry charged in the unit the player asked
/// (`length` and `unit` instead of `days`) needs.
pub const LENGTH_FORMAT: u32 = 7;

/// The format a phase entry that names `excused` players needs.
pub const EXCUSED_FORMAT: u32 = 4;

pub use super::body::ADDRESS_FORMAT;

/// The oldest format of game file every command reads (format 1, herald
/// 0.1's, is read only by `verify` and `convert`).
pub const OLDEST: u32 = 2;

/// The log entry kinds format 3 added: the change of hands of a seat, a
/// player's vacation, a relayed press message.
pub const FORMAT3_KINDS: [&str; 3] = ["seat", "vacation", "press"];

/// The log entry kinds format 6 added: a player's resignation, a draw
/// offered, accepted or declined.
pub const FORMAT6_KINDS: [&str; 2] = ["resign", "draw"];

/// The format a log entry of this kind needs.
pub fn kind_format(kind: &str) -> u32 {
    if FORMAT6_KINDS.contains(&kind) {
        6
    } else if FORMAT3_KINDS.contains(&kind) {
        3
    } else {
        OLDEST
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RulesetRef {
    pub name: String,
    /// sha256 of the ruleset text, which the genesis entry holds.
    pub sha256: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct LogRef {
    /// How many entries the log holds.
    pub entries: u64,
    /// The last entry's hash: the chain head.
    pub head: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Head {
    pub format: u32,
    /// The herald version that wrote this head.
    pub herald: String,
    pub game: String,
    pub id: String,
    pub created: String,
    pub players: Vec<Player>,
    pub options: BTreeMap<String, String>,
    pub ruleset: RulesetRef,
    pub seed_commitment: String,
    pub key: String,
    pub deadline_every: Option<u64>,
    pub nmr: String,
    pub drop_after: u32,
    pub moderator: Option<String>,
    /// Resolved phases so far: the turn the game waits for.
    pub turn: u32,
    pub phase: String,
    pub awaiting: Vec<String>,
    pub outcome: Option<Outcome>,
    pub deadline: Option<String>,
    pub missed: Vec<Missed>,
    pub state: Value,
    pub state_sha256: String,
    pub log: LogRef,
    /// The seed, once the game is over and it is revealed.
    pub seed: Option<String>,
}

impl Head {
    pub fn player_index(&self, id: &str) -> Option<usize> {
        self.players.iter().position(|p| p.id == id)
    }

    pub fn player_ids(&self) -> Vec<String> {
        self.players.iter().map(|p| p.id.clone()).collect()
    }
}
