//! The lobby's record of each hosted game (docs/host.md,
//! "Replacements"), below the door: `DIR/lobby/games/<game>.json` (0600,
//! written atomically by the host's pass, or by a moderator's command
//! holding `host.lock`), with the game's lobby settings (vacation
//! allowance, whether a takeover waits for the moderator's approval) and
//! its seats offered for takeover; and the standby list,
//! `DIR/lobby/standby/list.json`. The takeover of an offer is asked and
//! confirmed through the door (`crate::requests::lobby`); the seat changes
//! hands at the host's next pass (`host::lobby::seats`).

pub use super::tables::VACATION_DAYS;
use super::tables::{json_names, Pending, Seat};
use crate::error::{Error, Result};
use crate::names::Name;
use crate::store::host_dir::HostDir;
use crate::store::write::{self, Durability};
use serde::{Deserialize, Serialize};
use std::path::Path;

fn default_days() -> u32 {
    VACATION_DAYS
}

/// What a vacation does to a deadline: the door's (`requests::vacation`),
/// a setting of the game's record here.
pub use crate::requests::vacation::VacationMode;

/// Where an offer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferStatus {
    /// Taking claims.
    Open,
    /// A claim is confirmed; the moderator's approval is awaited.
    Approval,
    /// The seat is the taker's: the next pass changes its hands.
    Granted,
    /// The seat changed hands.
    Done,
}

/// A seat offered for takeover.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// 1, 2, 3 … in this game.
    pub n: u32,
    pub player: String,
    /// `dropped` or `replaced`.
    pub why: String,
    pub at: String,
    pub status: OfferStatus,
    /// The standby list was told.
    pub announced: bool,
    /// Takeovers waiting for their confirmation, as offers kept them
    /// before the lobby's one store of requests (`confirm`); read into
    /// it, and empty in every record written since.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Pending>,
    /// Whoever confirmed first.
    pub taker: Option<Seat>,
    /// When and at which turn the seat changed hands.
    pub done: Option<String>,
}

/// A vacation as the lobby shows it (the game's log is the record).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Away {
    pub player: String,
    pub until: String,
}

/// What a handled mail came to, for this game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Done {
    pub mail: String,
    /// `code` (a takeover's code mailed) or `confirmed`.
    pub what: String,
    pub player: String,
}

/// The lobby's record of one hosted game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSeats {
    pub game: String,
    /// Days of vacation each player may take in this game.
    #[serde(default = "default_days")]
    pub vacation_days: u32,
    /// What a vacation does at a deadline.
    #[serde(default)]
    pub vacation: VacationMode,
    /// A takeover waits for the moderator's `herald host approve`.
    #[serde(default)]
    pub approve: bool,
    /// Seats one address may hold in this game (its table's
    /// `--seats-per-address`); none: host.toml's `seats_per_address`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats_per_address: Option<u32>,
    #[serde(default)]
    pub offers: Vec<Offer>,
    #[serde(default)]
    pub handled: Vec<Done>,
    /// Vacations granted, as the host last saw them.
    #[serde(default)]
    pub away: Vec<Away>,
}

impl GameSeats {
    pub fn new(game: &str) -> GameSeats {
        GameSeats {
            game: game.to_string(),
            vacation_days: VACATION_DAYS,
            vacation: VacationMode::Extend,
            approve: false,
            seats_per_address: None,
            offers: Vec::new(),
            handled: Vec::new(),
            away: Vec::new(),
        }
    }
    /// The offer of `player` not yet done, if any.
    pub fn live(&self, player: &str) -> Option<usize> {
        self.offers
            .iter()
            .position(|o| o.player == player && o.status != OfferStatus::Done)
    }
    pub fn handled(&self, mail: &str) -> Option<&Done> {
        self.handled.iter().find(|h| h.mail == mail)
    }
}

/// The standby list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standby {
    pub list: Vec<StandbyEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandbyEntry {
    pub address: String,
    pub at: String,
}

fn read_json<T: serde::de::DeserializeOwned>(p: &Path) -> Result<Option<T>> {
    match std::fs::read(p) {
        Ok(b) => serde_json::from_slice(&b)
            .map(Some)
            .map_err(|e| Error::refused(format!("{}: does not read ({e})", p.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(p, e)),
    }
}

fn write_json<T: Serialize>(p: &Path, v: &T) -> Result<()> {
    if let Some(d) = p.parent() {
        if let Some(up) = d.parent() {
            write::create_dir(up)?;
        }
        write::create_dir(d)?;
    }
    let mut bytes = serde_json::to_vec_pretty(v).expect("serialises");
    bytes.push(b'\n');
    write::atomic(p, &bytes, Durability::Synced)
}

pub fn load(host: &HostDir, game: &Name) -> Result<Option<GameSeats>> {
    read_json(&host.lobby_game(game))
}

pub fn save(host: &HostDir, g: &GameSeats) -> Result<()> {
    let name = Name::new("game", &g.game).map_err(Error::refused)?;
    write_json(&host.lobby_game(&name), g)
}

/// Every game the lobby keeps a record of, by name.
pub fn all(host: &HostDir) -> Vec<GameSeats> {
    let Some(names) = json_names(&host.lobby().join("games")) else {
        return Vec::new();
    };
    names
        .iter()
        .filter_map(|n| load(host, &Name::new("game", n).ok()?).ok().flatten())
        .collect()
}

pub fn standby(host: &HostDir) -> Result<Standby> {
    Ok(read_json(&host.standby())?.unwrap_or_default())
}

pub fn save_standby(host: &HostDir, s: &Standby) -> Result<()> {
    write_json(&host.standby(), s)
}
