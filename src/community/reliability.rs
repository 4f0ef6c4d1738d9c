//! Reliability (docs/host.md, "Reliability"): per player address across
//! a host's games, the phases in which the player's orders came in, over
//! the phases they held a seat that awaited orders. A phase a stand-in
//! played while the player was away on vacation (a phase entry's
//! `excused`, also how the moderator's excusing is recorded) counts
//! neither way, and is kept apart. A seat that changed hands counts to
//! the holder of each phase: the address bound by the genesis or by the
//! last `seat` entry before it.

use crate::chain::body::{opens, Body, Genesis};
use crate::chain::Record;
use crate::store::secrets::Address;
use std::collections::BTreeMap;

/// One address's phases.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Phases in which the player held a seat the phase awaited, not
    /// excused.
    pub seated: u32,
    /// Of those, the phases with the player's own orders (no stand-in).
    pub ordered: u32,
    /// Phases a stand-in played while the player was away (excused).
    pub excused: u32,
    /// Games in which the address held a seat in a phase that awaited
    /// orders (the games the figure is drawn from).
    pub games: u32,
}

impl Tally {
    /// The reliability in whole percent, rounded half up (integers only:
    /// the same files give the same figure everywhere); `None` before any
    /// phase was seated.
    pub fn percent(&self) -> Option<u32> {
        (self.seated > 0).then(|| (self.ordered * 200 + self.seated) / (self.seated * 2))
    }

    /// "93% (41 of 44 phases with orders; 3 excused; 2 games)".
    pub fn shown(&self) -> String {
        match self.percent() {
            Some(p) => format!(
                "{p}% ({} of {} phases with orders in; {} excused; {} games)",
                self.ordered, self.seated, self.excused, self.games
            ),
            None => format!(
                "no phase played yet ({} excused; {} games)",
                self.excused, self.games
            ),
        }
    }

    fn add(&mut self, o: &Tally) {
        self.seated += o.seated;
        self.ordered += o.ordered;
        self.excused += o.excused;
        self.games += o.games;
    }
}

/// The address (lowercase) bound by `commitment` for `player`, among the
/// game's kept addresses; a file of format 4 or older names it itself.
pub(super) fn holder(
    addresses: &[Address],
    player: &str,
    commitment: &str,
    salt: Option<&str>,
) -> Option<String> {
    addresses
        .iter()
        .rev()
        .find(|a| {
            a.player == player
                && (opens(commitment, &a.salt, &a.address)
                    || salt.is_some_and(|s| opens(commitment, s, &a.address)))
        })
        .map(|a| a.address.to_ascii_lowercase())
}

/// Each player id's address as the genesis binds it (lowercase), among
/// the game's kept `addresses`.
pub(super) fn holders_at_start(
    genesis: &Genesis,
    addresses: &[Address],
) -> BTreeMap<String, Option<String>> {
    genesis
        .players
        .iter()
        .map(|p| {
            let a = match (&p.file_email, &p.address_sha256) {
                (Some(e), _) => Some(e.to_ascii_lowercase()),
                (None, Some(c)) => holder(addresses, &p.id, c, None),
                (None, None) => None,
            };
            (p.id.clone(), a)
        })
        .collect()
}

/// One game's phases, each counted to the address holding the seat then.
/// `addresses` are the game's `secrets.toml` bindings.
pub fn of_game(
    record: &Record,
    genesis: &Genesis,
    addresses: &[Address],
) -> BTreeMap<String, Tally> {
    let mut seat = holders_at_start(genesis, addresses);
    let mut out: BTreeMap<String, Tally> = BTreeMap::new();
    let mut seen: BTreeMap<String, ()> = BTreeMap::new();
    for e in record.entries.iter().skip(1) {
        if !(e.body.contains("\"kind\":\"phase\"") || e.body.contains("\"kind\":\"seat\"")) {
            continue;
        }
        match e.decode() {
            Ok(Body::Seat(c)) => {
                let a = holder(addresses, &c.player, &c.holder_sha256, c.salt.as_deref());
                seat.insert(c.player.clone(), a);
            }
            Ok(Body::Phase(p)) => {
                for o in &p.orders {
                    let Some(Some(a)) = seat.get(&o.player) else {
                        continue;
                    };
                    let t = out.entry(a.clone()).or_default();
                    if o.nmr.is_some() && p.excused.contains(&o.player) {
                        t.excused += 1;
                    } else {
                        t.seated += 1;
                        if o.nmr.is_none() {
                            t.ordered += 1;
                        }
                    }
                    if seen.insert(a.clone(), ()).is_none() {
                        t.games += 1;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Every game of the host folder `dir` (each subfolder holding a game
/// file and its `secrets.toml`), summed by address. A folder that does
/// not read is passed over (the host's status page names it).
pub fn of_host(dir: &std::path::Path) -> BTreeMap<String, Tally> {
    sum(host_games(dir, false)
        .iter()
        .map(|(g, addresses)| of_game(&g.record, &g.genesis, addresses)))
}

/// Every game of the host folder `dir` that reads, in folder name order,
/// with the addresses its `secrets.toml` keeps; with `over_only`, only
/// those whose head record holds an outcome (the rest not loaded).
pub(super) fn host_games(
    dir: &std::path::Path,
    over_only: bool,
) -> Vec<(crate::pipeline::Loaded, Vec<Address>)> {
    let Ok(list) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut folders: Vec<std::path::PathBuf> = list
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter(|p| crate::store::GameDir::at(p).game_file().is_file())
        .filter(|p| !over_only || is_over(&crate::store::GameDir::at(p).game_file()))
        .collect();
    folders.sort();
    folders
        .iter()
        .filter_map(|p| {
            let store = crate::store::Store::reader(crate::store::GameDir::at(p));
            let g = crate::pipeline::Loaded::open(&store).ok()?;
            let addresses = store.secrets().map(|s| s.addresses).unwrap_or_default();
            Some((g, addresses))
        })
        .collect()
}

/// Does the game file's head record (its first line, the rest unread)
/// hold an outcome?
fn is_over(game_file: &std::path::Path) -> bool {
    use std::io::{BufRead, Read};
    let Ok(f) = std::fs::File::open(game_file) else {
        return false;
    };
    let mut first = String::new();
    if std::io::BufReader::new(f)
        .take(crate::store::limits::GAME_FILE)
        .read_line(&mut first)
        .is_err()
    {
        return false;
    }
    serde_json::from_str::<serde_json::Value>(first.trim_end())
        .is_ok_and(|v| !v["head"]["outcome"].is_null())
}

/// The figure of `address` across the host folder `dir`.
pub fn of_address(dir: &std::path::Path, address: &str) -> Tally {
    of_host(dir)
        .remove(&address.to_ascii_lowercase())
        .unwrap_or_default()
}

/// Every game's tallies summed by address.
pub fn sum(games: impl IntoIterator<Item = BTreeMap<String, Tally>>) -> BTreeMap<String, Tally> {
    let mut all: BTreeMap<String, Tally> = BTreeMap::new();
    for g in games {
        for (a, t) in g {
            all.entry(a).or_default().add(&t);
        }
    }
    all
}
