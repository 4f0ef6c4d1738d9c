//! Game files of herald 0.1 (format 1): one pretty JSON document beside
//! `<stem>.secrets.toml`, `<stem>.orders/`, `<stem>.outbox/` and
//! `<stem>.archive/`. herald reads them to verify them and to convert them
//! (`herald convert`); it never writes them.

use crate::chain::body::{OrderRecord, Phase, Player, Ruleset};
use crate::chain::canon::{hash_of, sha256_hex};
use crate::error::{Error, Result};
use crate::games::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const FORMAT: u32 = 1;

/// The files herald 0.1 kept beside a game file `<stem>.json`: the only
/// place herald builds their paths.
pub struct Beside {
    game_file: PathBuf,
    stem: String,
}

impl Beside {
    pub fn of(game_file: &Path) -> Beside {
        let stem = game_file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "game".into());
        Beside {
            game_file: game_file.to_path_buf(),
            stem,
        }
    }
    fn named(&self, suffix: &str) -> PathBuf {
        self.game_file
            .with_file_name(format!("{}{suffix}", self.stem))
    }
    /// `<stem>.secrets.toml`: the seed and the passwords as issued.
    pub fn secrets(&self) -> PathBuf {
        self.named(".secrets.toml")
    }
    /// `<stem>.orders/turn-NNNN/`: the order files waiting for `turn`.
    pub fn orders_dir(&self, turn: u32) -> PathBuf {
        self.named(".orders").join(format!("turn-{turn:04}"))
    }
    /// The note of the mail an order file came in (`<player>.mail.toml`
    /// beside `<player>.toml`).
    pub fn mail_note(order_file: &Path) -> PathBuf {
        order_file.with_extension("mail.toml")
    }
    /// `<stem>.outbox/`: mails not yet sent.
    pub fn outbox(&self) -> PathBuf {
        self.named(".outbox")
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LogEntry {
    /// The turn the orders were for.
    pub turn: u32,
    pub phase: String,
    pub orders: Vec<OrderRecord>,
    pub events: Vec<Value>,
    /// The previous link of the chain: the previous entry's `hash`, or the
    /// initial state's hash for the first entry.
    pub prev: String,
    pub state_sha256: String,
    pub resolved_at: String,
    /// The deadline this phase had, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<String>,
    /// Players who dropped out after this phase (too many missed orders).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
    /// sha256 of this entry's canonical JSON without this field.
    pub hash: String,
}

#[derive(Serialize)]
struct EntryBody<'a> {
    turn: u32,
    phase: &'a str,
    orders: &'a [OrderRecord],
    events: &'a [Value],
    prev: &'a str,
    state_sha256: &'a str,
    resolved_at: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    deadline: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    dropped: &'a [String],
}

impl LogEntry {
    pub fn compute_hash(&self) -> String {
        hash_of(&EntryBody {
            turn: self.turn,
            phase: &self.phase,
            orders: &self.orders,
            events: &self.events,
            prev: &self.prev,
            state_sha256: &self.state_sha256,
            resolved_at: &self.resolved_at,
            deadline: self.deadline.as_deref(),
            dropped: &self.dropped,
        })
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameFile {
    pub format: u32,
    pub herald: String,
    /// The game's registry name, e.g. "norse-wars".
    pub game: String,
    /// This game's id, e.g. "nw-2026-11-22-a".
    pub id: String,
    pub ruleset: Ruleset,
    pub players: Vec<Player>,
    pub options: BTreeMap<String, String>,
    /// The `--setup` position file the game started from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    pub seed_commitment: String,
    /// The moderator's copy of the seed; absent from a published copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    pub created: String,
    pub turn: u32,
    pub phase: String,
    pub awaiting: Vec<String>,
    /// The current phase's deadline (RFC 3339), if the game has deadlines.
    #[serde(default)]
    pub deadline: Option<String>,
    /// `new --deadline-every`: each phase's deadline is this many seconds
    /// after the previous phase was resolved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_every: Option<u64>,
    /// The missed-order policy (`hold`, `repeat`, `bot`); absent: the game's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nmr: Option<String>,
    /// Missed phases in a row after which a player drops out; absent or 0: never.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drop_after: Option<u32>,
    /// The moderator's mail address: the From of replies and report mails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moderator: Option<String>,
    pub outcome: Option<Outcome>,
    pub initial_sha256: String,
    pub initial: Value,
    pub state: Value,
    pub log: Vec<LogEntry>,
}

impl GameFile {
    pub fn player_index(&self, id: &str) -> Option<usize> {
        self.players.iter().position(|p| p.id == id)
    }

    pub fn player_ids(&self) -> Vec<String> {
        self.players.iter().map(|p| p.id.clone()).collect()
    }

    pub fn state_hash(state: &Value) -> String {
        // A JSON value's objects are sorted maps already: it is canonical as
        // it stands, no copy needed.
        sha256_hex(
            serde_json::to_string(state)
                .expect("JSON values serialise")
                .as_bytes(),
        )
    }

    /// The hash the next log entry must name as `prev`.
    pub fn chain_head(&self) -> String {
        match self.log.last() {
            Some(e) => e.hash.clone(),
            None => self.initial_sha256.clone(),
        }
    }

    /// Read and check a game file: it parses, its ruleset and every hash in
    /// its chain agree, and the current state is the one the chain ends in.
    pub fn load(path: &Path) -> Result<GameFile> {
        let text =
            crate::store::limits::read_text(path, crate::store::limits::GAME_FILE, "a game file")?;
        let file: GameFile = serde_json::from_str(&text).map_err(|e| {
            Error::refused(format!(
                "{}: not a herald 0.1 game file (line {}, column {}: {})",
                path.display(),
                e.line(),
                e.column(),
                e
            ))
        })?;
        let problems = file.integrity_problems();
        if !problems.is_empty() {
            return Err(Error::all(
                problems
                    .into_iter()
                    .map(|p| format!("{}: {}", path.display(), p))
                    .collect(),
            ));
        }
        Ok(file)
    }

    /// Everything wrong with the file's hashes and chain, in order.
    pub fn integrity_problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.format != FORMAT {
            out.push(format!(
                "format {} is not one this herald reads (it reads {})",
                self.format, FORMAT
            ));
            return out;
        }
        if sha256_hex(self.ruleset.text.as_bytes()) != self.ruleset.sha256 {
            out.push("the ruleset text does not match its recorded sha256 (hand-edited?)".into());
        }
        if Self::state_hash(&self.initial) != self.initial_sha256 {
            out.push("the initial state does not match its recorded sha256 (hand-edited?)".into());
        }
        let mut prev = self.initial_sha256.clone();
        for (i, e) in self.log.iter().enumerate() {
            if e.turn != i as u32 {
                out.push(format!(
                    "log entry {} is for turn {} (entries out of order or missing)",
                    i, e.turn
                ));
            }
            if e.prev != prev {
                out.push(format!("log entry for turn {} does not follow the one before it (the hash chain is broken)", e.turn));
            }
            if e.compute_hash() != e.hash {
                out.push(format!(
                    "log entry for turn {} does not match its hash (hand-edited?)",
                    e.turn
                ));
            }
            for o in &e.orders {
                if sha256_hex(o.text.as_bytes()) != o.sha256 {
                    out.push(format!(
                        "the order file of {} for turn {} does not match its sha256",
                        o.player, e.turn
                    ));
                }
            }
            prev = e.hash.clone();
        }
        let head_state = self
            .log
            .last()
            .map(|e| e.state_sha256.clone())
            .unwrap_or_else(|| self.initial_sha256.clone());
        if Self::state_hash(&self.state) != head_state {
            out.push(
                "the current state is not the one the log ends in (hand-edited or truncated)"
                    .into(),
            );
        }
        if self.turn as usize != self.log.len() {
            out.push(format!(
                "the file says turn {} but its log holds {} resolved turns",
                self.turn,
                self.log.len()
            ));
        }
        if let Some(seed) = &self.seed {
            if sha256_hex(seed.as_bytes()) != self.seed_commitment {
                out.push("the seed does not match the seed commitment".into());
            }
        }
        out
    }
}

impl LogEntry {
    /// The entry as a format-2 phase body: its dice came from the seed
    /// alone, and no roll log was kept.
    pub fn to_phase(&self) -> Phase {
        Phase {
            turn: self.turn,
            phase: self.phase.clone(),
            orders: self.orders.clone(),
            dice: 1,
            rolls: Vec::new(),
            events: self.events.clone(),
            dropped: self.dropped.clone(),
            excused: Vec::new(),
            state_sha256: self.state_sha256.clone(),
            resolved_at: self.resolved_at.clone(),
            deadline: self.deadline.clone(),
        }
    }
}
