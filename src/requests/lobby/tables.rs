//! The lobby's tables (docs/host.md, "The lobby"): the records the
//! lobby's requests read and change, below the door. A table is one file,
//! `DIR/lobby/<table>.json` (0600, written atomically), changed only by
//! the host's pass (which holds `host.lock`) or created by `herald host
//! open` (a new file, never an existing one). Every request the lobby
//! decides is recorded in the table it changed with its carrier's digest,
//! so a mail handled again after a crash finds what it did; a
//! confirmation code is drawn from `DIR/lobby/key` and the mail's digest,
//! so it is the same code again, and only its sha256 is kept.

use crate::chain::body::PressRules;
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Result};
use crate::names::Name;
use crate::store::host_dir::HostDir;
use crate::store::write::{self, Durability};
use serde::{Deserialize, Serialize};

/// Days of vacation each player of a game may take, unless the table says.
pub const VACATION_DAYS: u32 = 14;

/// Where a table is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Taking joins.
    Open,
    /// Its seats are fixed and its game is being created (a pass cut
    /// short here is completed by the next one).
    Starting,
    /// Its game exists, `DIR/<table>/`, and its players were mailed.
    Started,
    /// Its start time came with fewer than the minimum: closed, told.
    Cancelled,
}

/// When a table starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Starts {
    /// When every seat is taken.
    Full,
    /// At this time (RFC 3339) with at least the minimum, or at once when
    /// full before it.
    At(String),
}

/// A confirmed seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub address: String,
    /// The display name the player gave, if any.
    pub name: Option<String>,
    /// The player agreed to show their address on the public tables page.
    pub public: bool,
    /// When it was confirmed.
    pub at: String,
    /// The sides the player asked for, best first (`join … prefer`;
    /// docs/host.md, "Seat preferences").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prefer: Vec<String>,
}

/// A join waiting for its confirmation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub address: String,
    pub name: Option<String>,
    pub public: bool,
    /// sha256 of the code mailed to the address (the code is never kept).
    pub code_sha256: String,
    /// The join mail's sha256 (the code is drawn from it).
    pub mail: String,
    pub at: String,
}

/// What a handled command came to, kept in the table it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Effect {
    /// A code was mailed for a join.
    CodeSent { table: String },
    /// A seat was taken.
    Confirmed { table: String, seat: usize },
    /// A seat or a join was given up.
    Left { table: String },
}

/// A mail the lobby handled for this table, and what it came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handled {
    pub mail: String,
    pub outcome: Effect,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// The table's name, and the id of the game it becomes.
    pub name: String,
    /// The game, as `herald games` lists it.
    pub game: String,
    pub min: usize,
    pub max: usize,
    /// `key=value`, as `herald new --option`.
    pub options: Vec<String>,
    /// As `herald new --deadline-every` ("48h"), or none.
    pub deadline_every: Option<String>,
    /// As `herald new --nmr`, or the game's default.
    pub nmr: Option<String>,
    pub starts: Starts,
    pub opened: String,
    pub status: Status,
    pub seats: Vec<Seat>,
    /// Joins waiting for their confirmation, as tables kept them before
    /// the lobby's one store of requests (`confirm`); read into it, and
    /// empty in every table written since.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Pending>,
    pub handled: Vec<Handled>,
    /// Why it was cancelled, or when it started.
    pub closed: Option<String>,
    /// Days of vacation each player of its game may take.
    #[serde(default = "seats_default_days")]
    pub vacation_days: u32,
    /// What a vacation does at a deadline: `extend` or `stand-in`.
    #[serde(default)]
    pub vacation: crate::requests::vacation::VacationMode,
    /// A takeover of a seat in its game waits for the moderator's
    /// `herald host approve`.
    #[serde(default)]
    pub approve_takeovers: bool,
    /// As `herald new --drop-after`: missed phases in a row after which a
    /// player drops out (and their seat is offered), or the default.
    #[serde(default)]
    pub drop_after: Option<u32>,
    /// Seats one address may hold in its game (`--seats-per-address`);
    /// none: host.toml's `seats_per_address` (1, unless it says more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats_per_address: Option<u32>,
    /// The least reliability (whole percent, docs/host.md "Reliability")
    /// an address must have across the host's games to join
    /// (`--min-reliability`); none: anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_reliability: Option<u32>,
    /// The range of ratings (Glicko-2, whole points, in the pool of the
    /// table's game and options; docs/host.md, "Ratings") an address must
    /// be in to join (`--min-rating`, `--max-rating`); a newcomer counts
    /// as 1500.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rating: Option<u32>,
    /// The press rules its game gets (as `herald new --press …` chose
    /// them, checked); none for a table with no `--press` (and for every
    /// table written before tables chose press): its game has no press.
    #[serde(default)]
    pub press: Option<PressRules>,
    /// The sha256 of `lobby/open/<table>.toml` when the table was opened
    /// from that file (so a pass cut short after opening it knows it did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_file: Option<String>,
    /// The seats herald's bots play in its game (`--bot-seats`): player id
    /// to the bot's spec. `min` and `max` count the other seats, the
    /// people's: the table is full when those are taken.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub bots: std::collections::BTreeMap<String, String>,
}

fn seats_default_days() -> u32 {
    VACATION_DAYS
}

impl Table {
    pub fn name(&self) -> Result<Name> {
        Name::new("table", &self.name).map_err(Error::refused)
    }

    /// "3 of 3-6 seats taken" and when it starts, for replies and pages.
    pub fn describe(&self) -> String {
        let range = if self.min == self.max {
            format!("{}", self.max)
        } else {
            format!("{}-{}", self.min, self.max)
        };
        let when = match &self.starts {
            Starts::Full => "starts when full".to_string(),
            Starts::At(t) => format!("starts {t} with at least {}, or when full", self.min),
        };
        let bots = if self.bots.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = self
                .bots
                .iter()
                .map(|(p, b)| format!("{p} (bot {b})"))
                .collect();
            format!(", and bot seats {}", list.join(", "))
        };
        format!(
            "{} ({}): {} of {range} seats taken{bots}; {when}{}",
            self.name,
            self.game,
            self.seats.len(),
            self.rating_words()
        )
    }

    /// The pool its game is rated in (docs/host.md, "Ratings").
    pub fn pool(&self) -> String {
        let options = self
            .options
            .iter()
            .filter_map(|o| o.split_once('='))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect();
        crate::community::ratings::pool(&self.game, &options)
    }

    /// "; for ratings 1400 to 1700" when the table asks a range.
    pub fn rating_words(&self) -> String {
        match (self.min_rating, self.max_rating) {
            (None, None) => String::new(),
            (Some(lo), None) => format!("; for ratings of {lo} or more"),
            (None, Some(hi)) => format!("; for ratings of {hi} or less"),
            (Some(lo), Some(hi)) => format!("; for ratings {lo} to {hi}"),
        }
    }

    /// Is `have` (an address's standing in the table's pool; none: a
    /// newcomer, 1500) outside the range the table asks?
    pub fn outside_rating(&self, have: Option<&crate::community::ratings::Standing>) -> bool {
        let points = have.map_or(1500, |s| s.points());
        self.min_rating.is_some_and(|lo| points < i64::from(lo))
            || self.max_rating.is_some_and(|hi| points > i64::from(hi))
    }

    /// Would a join from an address with these figures pass the table's
    /// minimum reliability and rating range? (The door's join checks the
    /// same, and says which failed; a refusal offers only the tables
    /// this is true of.)
    pub fn admits(
        &self,
        reliability: &crate::community::reliability::Tally,
        ratings: &crate::community::ratings::Ratings,
        address: &str,
    ) -> bool {
        let reliable = self
            .min_reliability
            .is_none_or(|min| reliability.percent().is_none_or(|p| p >= min));
        let rated = (self.min_rating.is_none() && self.max_rating.is_none())
            || !self.outside_rating(
                crate::community::ratings::of_address(ratings, &self.pool(), address).as_ref(),
            );
        reliable && rated
    }

    /// The table's press rules in words (no press when it chose none).
    pub fn press_words(&self) -> String {
        crate::pipeline::press::describe(
            &self
                .press
                .clone()
                .unwrap_or_else(crate::pipeline::press::no_press),
        )
    }

    /// The `herald new` press flags its game is created with: those of
    /// the rules the table chose, or none.
    pub fn press_settings(&self) -> crate::pipeline::press::Settings {
        let yes_no = |b: bool| Some(if b { "yes" } else { "no" }.to_string());
        match &self.press {
            None => Default::default(),
            Some(r) => crate::pipeline::press::Settings {
                kind: Some(r.kind.clone()),
                while_resolving: yes_no(r.while_resolving),
                after_end: yes_no(r.after_end),
                reveal: Some(r.reveal.clone()),
            },
        }
    }

    /// How many seats the person at `address` holds here ([`same_person`]).
    pub fn seats_of(&self, address: &str) -> usize {
        self.seats
            .iter()
            .filter(|s| same_person(&s.address, address))
            .count()
    }

    pub fn seated(&self, address: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.address.eq_ignore_ascii_case(address))
    }

    pub fn handled(&self, mail: &str) -> Option<&Effect> {
        self.handled
            .iter()
            .find(|h| h.mail == mail)
            .map(|h| &h.outcome)
    }
}

/// The player id a display name makes (lowercase letters and digits,
/// other runs one `-`, at most 20 characters), before it is made unique;
/// `None` when nothing valid is left.
pub fn id_from_name(name: &str) -> Option<String> {
    let mut id = String::new();
    for c in name.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            id.push(c);
        } else if !id.ends_with('-') && !id.is_empty() {
            id.push('-');
        }
        if id.len() >= 20 {
            break;
        }
    }
    let id = id.trim_end_matches('-').to_string();
    crate::names::valid(&id).then_some(id)
}

/// Are `a` and `b` one person's addresses, for "one person, one seat"?
/// The same address, case aside, and a `+tag` of the local part aside
/// (subaddressing, RFC 5233: `ann+games@x.org` is Ann's `ann@x.org`).
/// Nothing else is taken apart: dots in a local part are meaningful at
/// most providers.
pub fn same_person(a: &str, b: &str) -> bool {
    fn base(x: &str) -> Option<(String, String)> {
        let (local, domain) = x.trim().rsplit_once('@')?;
        let local = local.split('+').next().unwrap_or(local);
        Some((local.to_ascii_lowercase(), domain.to_ascii_lowercase()))
    }
    match (base(a), base(b)) {
        (Some(x), Some(y)) => !x.0.is_empty() && x == y,
        _ => a.trim().eq_ignore_ascii_case(b.trim()) && !a.trim().is_empty(),
    }
}

/// Read a table file.
pub fn load(host: &HostDir, table: &Name) -> Result<Option<Table>> {
    let p = host.table(table);
    match std::fs::read(&p) {
        Ok(b) => serde_json::from_slice(&b).map(Some).map_err(|e| {
            Error::refused(format!(
                "{}: not a lobby table ({e}); `herald host open` writes one",
                p.display()
            ))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(&p, e)),
    }
}

/// Write a table file atomically, synced.
pub fn save(host: &HostDir, t: &Table) -> Result<()> {
    write::create_dir(&host.lobby())?;
    let mut bytes = serde_json::to_vec_pretty(t).expect("a table serialises");
    bytes.push(b'\n');
    write::atomic(&host.table(&t.name()?), &bytes, Durability::Synced)
}

/// Every table in the lobby, by name. Files that do not read are returned
/// as problems.
/// The valid names of the `NAME.json` files in `dir`, sorted; `None` when
/// the folder cannot be read (not made yet).
pub(crate) fn json_names(dir: &std::path::Path) -> Option<Vec<String>> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.strip_suffix(".json").map(str::to_string)
        })
        .filter(|n| crate::names::valid(n))
        .collect();
    names.sort();
    Some(names)
}

pub fn all(host: &HostDir) -> (Vec<Table>, Vec<String>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let Some(names) = json_names(&host.lobby()) else {
        return (out, problems);
    };
    for n in names {
        let name = Name::new("table", &n).expect("checked");
        match load(host, &name) {
            Ok(Some(t)) => out.push(t),
            Ok(None) => {}
            Err(e) => problems.push(e.to_string()),
        }
    }
    (out, problems)
}

/// The lobby's secret: made once (0600, 32 bytes from the operating
/// system), then read.
pub fn key(host: &HostDir) -> Result<String> {
    let p = host.lobby_key();
    if let Ok(k) = std::fs::read_to_string(&p) {
        let k = k.trim().to_string();
        if k.len() == 64 && k.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(k);
        }
        return Err(Error::refused(format!(
            "{}: not a lobby key (64 hex digits); remove it and the next pass makes a new one (codes already mailed stop working)",
            p.display()
        )));
    }
    write::create_dir(&host.lobby())?;
    let k = crate::rng::os_hex(32);
    write::atomic(&p, format!("{k}\n").as_bytes(), Durability::Synced)?;
    Ok(k)
}

/// The confirmation code for the join mail whose sha256 is `mail`:
/// drawn from the lobby's key, so the same mail gets the same code, and
/// nobody without the key can make one. 12 hex digits in three groups.
pub fn code_for(key: &str, mail: &str) -> String {
    let h = sha256_hex(format!("herald lobby confirm\0{key}\0{mail}").as_bytes());
    format!("{}-{}-{}", &h[0..4], &h[4..8], &h[8..12])
}

/// A code as a player may type it: case and dashes or spaces ignored.
pub fn normal_code(s: &str) -> Option<String> {
    let d: String = s
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    (d.len() == 12 && d.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| format!("{}-{}-{}", &d[0..4], &d[4..8], &d[8..12]))
}
