//! What a log entry after the genesis changes in the head record, read
//! from the entry's body without building the rest of it.
//!
//! Every command derives the head record again from the whole log
//! (`check::open`), so that a head field re-sealed after an edit is
//! refused everywhere. Decoding each body in full for that — every order
//! file, roll and event of the game, through serde's buffer for tagged
//! enums — was what made `status` of a long game cost more than a new
//! one's (issue 17). A [`Step`] names only the fields the head follows
//! from; the JSON reader skips the others without building them. The
//! body's hash and the chain are checked over its bytes as before, so
//! nothing unsigned gets past; a body its key holder signed with a
//! malformed field the step does not read is found by `verify`, whose
//! replay decodes every body in full (docs/trust.md).

use super::body::Phase;
use serde::Deserialize;

/// An entry body as the head derivation reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Genesis,
    Phase(PhaseStep),
    Passwd {
        player: String,
        password: String,
    },
    Deadline(Option<String>),
    Reveal(String),
    /// A seat changed hands: the player's new name, password and the salted
    /// hash of the new holder's address (its salt in the entry in formats 3
    /// and 4, secret from format 5 on); their missed orders start again.
    Seat {
        player: String,
        name: String,
        password: String,
        salt: Option<String>,
        holder_sha256: String,
    },
    /// A vacation: nothing in the head changes (the deadlines it moves
    /// are `deadline` entries of their own).
    Vacation {
        player: String,
    },
    /// A relayed press message: nothing in the head follows from it.
    Press,
    /// A player resigned (format 6): the state after it.
    Resign {
        player: String,
        state_sha256: String,
    },
    /// A draw offered, accepted or declined (format 6); the state after
    /// it when it ended the game.
    Draw {
        player: String,
        act: String,
        state_sha256: Option<String>,
    },
}

/// What a resolved phase changes in the head record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhaseStep {
    pub turn: u32,
    /// Each order file's player, and whether herald stood in for them.
    pub orders: Vec<(String, bool)>,
    pub dropped: Vec<String>,
    /// Stood in for on a vacation: not counted as missed.
    pub excused: Vec<String>,
    pub state_sha256: String,
    pub resolved_at: String,
}

impl PhaseStep {
    pub fn of(p: &Phase) -> PhaseStep {
        PhaseStep {
            turn: p.turn,
            orders: p
                .orders
                .iter()
                .map(|o| (o.player.clone(), o.nmr.is_some()))
                .collect(),
            dropped: p.dropped.clone(),
            excused: p.excused.clone(),
            state_sha256: p.state_sha256.clone(),
            resolved_at: p.resolved_at.clone(),
        }
    }
}

/// The union of the fields the kinds of entry hold that the head follows
/// from; any other field is skipped unread.
#[derive(Deserialize)]
struct Fields {
    kind: String,
    turn: Option<u32>,
    orders: Option<Vec<OrderFields>>,
    dropped: Option<Vec<String>>,
    excused: Option<Vec<String>>,
    state_sha256: Option<String>,
    resolved_at: Option<String>,
    player: Option<String>,
    password: Option<String>,
    deadline: Option<String>,
    seed: Option<String>,
    name: Option<String>,
    salt: Option<String>,
    holder_sha256: Option<String>,
    act: Option<String>,
}

#[derive(Deserialize)]
struct OrderFields {
    player: String,
    nmr: Option<String>,
}

// A String error: a game file's damage, the words load and `verify` print beside the entry.
fn need<T>(v: Option<T>, name: &str) -> Result<T, String> {
    v.ok_or_else(|| format!("its body does not read: missing field `{name}`"))
}

impl Step {
    /// Read an entry's body (its canonical JSON as stored).
    // A String error: a game file's damage, the words load and `verify` print beside the entry.
    pub fn read(body: &str) -> Result<Step, String> {
        let f: Fields =
            serde_json::from_str(body).map_err(|e| format!("its body does not read: {e}"))?;
        Ok(match f.kind.as_str() {
            "genesis" => Step::Genesis,
            "phase" => Step::Phase(PhaseStep {
                turn: need(f.turn, "turn")?,
                orders: need(f.orders, "orders")?
                    .into_iter()
                    .map(|o| (o.player, o.nmr.is_some()))
                    .collect(),
                dropped: f.dropped.unwrap_or_default(),
                excused: f.excused.unwrap_or_default(),
                state_sha256: need(f.state_sha256, "state_sha256")?,
                resolved_at: need(f.resolved_at, "resolved_at")?,
            }),
            "passwd" => Step::Passwd {
                player: need(f.player, "player")?,
                password: need(f.password, "password")?,
            },
            "deadline" => Step::Deadline(f.deadline),
            "reveal" => Step::Reveal(need(f.seed, "seed")?),
            "seat" => Step::Seat {
                player: need(f.player, "player")?,
                name: need(f.name, "name")?,
                password: need(f.password, "password")?,
                salt: f.salt,
                holder_sha256: need(f.holder_sha256, "holder_sha256")?,
            },
            "vacation" => Step::Vacation {
                player: need(f.player, "player")?,
            },
            "press" => Step::Press,
            "resign" => Step::Resign {
                player: need(f.player, "player")?,
                state_sha256: need(f.state_sha256, "state_sha256")?,
            },
            "draw" => Step::Draw {
                player: need(f.player, "player")?,
                act: need(f.act, "act")?,
                state_sha256: f.state_sha256,
            },
            other => {
                return Err(format!(
                    "its body does not read: unknown kind `{}`, expected one of \
                     genesis, phase, passwd, deadline, reveal, seat, vacation, press, resign, draw",
                    other.escape_debug()
                ))
            }
        })
    }

    /// The hash of the state after the entry, where it changed the state
    /// (a phase, a resignation, the accept that ended a game drawn).
    pub fn state_after(&self) -> Option<&str> {
        match self {
            Step::Phase(p) => Some(&p.state_sha256),
            Step::Resign { state_sha256, .. } => Some(state_sha256),
            Step::Draw { state_sha256, .. } => state_sha256.as_deref(),
            _ => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Step::Genesis => "genesis",
            Step::Phase(_) => "phase",
            Step::Passwd { .. } => "passwd",
            Step::Deadline(_) => "deadline",
            Step::Reveal(_) => "reveal",
            Step::Seat { .. } => "seat",
            Step::Vacation { .. } => "vacation",
            Step::Press => "press",
            Step::Resign { .. } => "resign",
            Step::Draw { .. } => "draw",
        }
    }
}
