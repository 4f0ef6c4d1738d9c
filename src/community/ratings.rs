//! Ratings (docs/host.md, "Ratings"): Glicko-2 per pool (a game and the
//! options that change it), from every finished game of a host folder,
//! per player address, in one fixed order.
//!
//! - A game's players are placed by their finish: the winners first
//!   (all of them, a team's too); then, the players still in at the end
//!   (first too when the game was drawn); then those who left it, the
//!   later the better, those who left in one entry tied. A player leaves
//!   by a `resign` entry, by dropping out (a phase's `dropped`, unless the
//!   seat was taken over after), or by being eliminated (a phase's
//!   `eliminated` event, Norse Wars').
//! - Every two rated players are one result: 1 to the one placed higher,
//!   ½ each when tied, 0 to the other. A team game's teammates are not
//!   rated against each other.
//! - A seat is rated for the address holding it at the end; a bot seat,
//!   and a seat no address holds, are not rated, and no result against
//!   them counts.
//! - Each game is one Glicko-2 rating period for its players, all updated
//!   from their ratings before it; games in the order they ended (the
//!   time of their last phase, resignation or draw), then by id.

use super::glicko2::{self, Rating};
use crate::chain::body::{Body, Genesis};
use crate::chain::Record;
use crate::store::secrets::Address;
use std::collections::BTreeMap;

/// How one seat finished a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// The seat's player id.
    pub player: String,
    /// The address holding the seat at the end (lowercase); none for a
    /// bot seat and a seat with no address: not rated.
    pub address: Option<String>,
    /// 0 for the first; equal places tie.
    pub place: usize,
    /// The seat's team in a team game.
    pub team: Option<usize>,
}

/// One finished game, as the ratings read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    pub id: String,
    /// The pool its results are rated in ([`pool`]).
    pub pool: String,
    /// When it ended (RFC 3339, as the entry that ended it says).
    pub ended: String,
    pub seats: Vec<Placed>,
}

/// One address's standing in one pool.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    pub rating: Rating,
    /// Games rated.
    pub games: u32,
}

impl Standing {
    /// "1612 ± 148 (4 games)": rounded to whole points; the deviation
    /// doubled is the 95% interval.
    pub fn shown(&self) -> String {
        format!(
            "{} ± {} ({} game{})",
            self.rating.rating.round() as i64,
            self.rating.deviation.round() as i64,
            self.games,
            if self.games == 1 { "" } else { "s" }
        )
    }

    /// The rating rounded to whole points, as tables compare it.
    pub fn points(&self) -> i64 {
        self.rating.rating.round() as i64
    }
}

/// The ratings of a host: pool, then address.
pub type Ratings = BTreeMap<String, BTreeMap<String, Standing>>;

/// A game's pool: its name, and each option it was made with that is not
/// the option's default, `key=value` in key order ("norse-wars fog=true").
/// Every option of the five games changes how it plays (the board, what
/// a player sees, who is on whose side), so each makes a pool of its own;
/// the number of players does not.
pub fn pool(game: &str, options: &BTreeMap<String, String>) -> String {
    let specs = crate::games::find(game)
        .map(|e| (e.options)())
        .unwrap_or_default();
    let mut p = game.to_string();
    for (k, v) in options {
        let default = specs.iter().find(|s| s.name == k).map(|s| s.default);
        if default != Some(v.as_str()) {
            p.push_str(&format!(" {k}={v}"));
        }
    }
    p
}

/// A finished game's places, from its file alone (and the addresses its
/// `secrets.toml` binds); `None` while it is not over.
///
/// Long (about 80 lines): one pass over the log (seats changing hands,
/// resignations, drops, eliminations, the time it ended), then the places.
pub fn finished(record: &Record, genesis: &Genesis, addresses: &[Address]) -> Option<Finished> {
    let outcome = record.head.outcome.as_ref()?;
    let ids: Vec<String> = genesis.players.iter().map(|p| p.id.clone()).collect();
    let mut holder: BTreeMap<String, Option<String>> =
        super::reliability::holders_at_start(genesis, addresses);
    let mut out_at: BTreeMap<String, usize> = BTreeMap::new();
    let mut ended = genesis.created.clone();
    for (i, e) in record.entries.iter().enumerate().skip(1) {
        let kind_is = |k: &str| e.body.contains(&format!("\"kind\":\"{k}\""));
        if !(kind_is("phase") || kind_is("seat") || kind_is("resign") || kind_is("draw")) {
            continue;
        }
        match e.decode() {
            Ok(Body::Seat(c)) => {
                let a = super::reliability::holder(
                    addresses,
                    &c.player,
                    &c.holder_sha256,
                    c.salt.as_deref(),
                );
                holder.insert(c.player.clone(), a);
                // The new holder plays on: the seat is in again.
                out_at.remove(&c.player);
            }
            Ok(Body::Resign(r)) => {
                out_at.entry(r.player.clone()).or_insert(i);
                ended = r.at;
            }
            Ok(Body::Draw(d)) => ended = d.at,
            Ok(Body::Phase(p)) => {
                for d in &p.dropped {
                    out_at.entry(d.clone()).or_insert(i);
                }
                for ev in &p.events {
                    if ev["kind"] == "eliminated" {
                        if let Some(id) = ev["seat"].as_u64().and_then(|s| ids.get(s as usize)) {
                            out_at.entry(id.clone()).or_insert(i);
                        }
                    }
                }
                ended = p.resolved_at;
            }
            _ => {}
        }
    }
    let teams = genesis.options.get("teams").is_some_and(|v| v == "true");
    let drawn = outcome.winners.is_empty();
    // The order of finishing: smaller is better.
    let key = |id: &String| -> (u8, std::cmp::Reverse<usize>) {
        if outcome.winners.contains(id) {
            return (0, std::cmp::Reverse(0));
        }
        match out_at.get(id) {
            None => (if drawn { 0 } else { 1 }, std::cmp::Reverse(0)),
            Some(&i) => (2, std::cmp::Reverse(i)),
        }
    };
    let mut keys: Vec<_> = ids.iter().map(key).collect();
    keys.sort();
    keys.dedup();
    let seats = ids
        .iter()
        .enumerate()
        .map(|(s, id)| Placed {
            player: id.clone(),
            address: if genesis.bots.contains_key(id) {
                None
            } else {
                holder.get(id).cloned().flatten()
            },
            place: keys.iter().position(|k| *k == key(id)).unwrap_or(0),
            team: teams.then_some(s % 2),
        })
        .collect();
    Some(Finished {
        id: genesis.id.clone(),
        pool: pool(&genesis.game, &genesis.options),
        ended,
        seats,
    })
}

/// The rated results of one game: every two seats held by different
/// addresses, not teammates, each with the first's score (1, ½ or 0).
pub fn pairs(f: &Finished) -> Vec<(&str, &str, f64)> {
    let mut out = Vec::new();
    for (i, a) in f.seats.iter().enumerate() {
        for b in &f.seats[i + 1..] {
            let (Some(x), Some(y)) = (&a.address, &b.address) else {
                continue;
            };
            if x == y || (a.team.is_some() && a.team == b.team) {
                continue;
            }
            let score = match a.place.cmp(&b.place) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            out.push((x.as_str(), y.as_str(), score));
        }
    }
    out
}

/// The order the games are rated in: by when they ended, then by id.
fn sort(games: &mut [Finished]) {
    let at = |f: &Finished| {
        crate::time::parse_time(&f.ended)
            .map(|t| t.timestamp())
            .unwrap_or(i64::MIN)
    };
    games.sort_by(|a, b| at(a).cmp(&at(b)).then_with(|| a.id.cmp(&b.id)));
}

/// Every game rated in order, each a rating period for its players.
pub fn rate(mut games: Vec<Finished>) -> Ratings {
    sort(&mut games);
    let mut all: Ratings = BTreeMap::new();
    for f in &games {
        let pool = all.entry(f.pool.clone()).or_default();
        let mut period: BTreeMap<&str, Vec<(Rating, f64)>> = BTreeMap::new();
        let now = |a: &str| pool.get(a).map_or(Rating::NEW, |s| s.rating);
        for (a, b, score) in pairs(f) {
            period.entry(a).or_default().push((now(b), score));
            period.entry(b).or_default().push((now(a), 1.0 - score));
        }
        let updated: Vec<(String, Rating)> = period
            .iter()
            .map(|(a, results)| {
                (
                    a.to_string(),
                    glicko2::update(now(a), results, glicko2::TAU),
                )
            })
            .collect();
        for (a, r) in updated {
            let s = pool.entry(a).or_insert(Standing {
                rating: Rating::NEW,
                games: 0,
            });
            s.rating = r;
            s.games += 1;
        }
    }
    all.retain(|_, p| !p.is_empty());
    all
}

/// The finished games of the host folder `dir` (each subfolder holding a
/// game file and its `secrets.toml`), in name order. A folder that does
/// not read is passed over (the host's status page names it).
pub fn games_of_host(dir: &std::path::Path) -> Vec<Finished> {
    super::reliability::host_games(dir, true)
        .into_iter()
        .filter_map(|(g, addresses)| finished(&g.record, &g.genesis, &addresses))
        .collect()
}

/// The ratings of the host folder `dir`.
pub fn of_host(dir: &std::path::Path) -> Ratings {
    rate(games_of_host(dir))
}

/// `address`'s standing in `pool` (none before a rated game there).
pub fn of_address(ratings: &Ratings, pool: &str, address: &str) -> Option<Standing> {
    ratings
        .get(pool)?
        .get(&address.to_ascii_lowercase())
        .copied()
}

/// `address`'s standing in every pool it has a rated game in, in pool
/// name order (what `me` tells the address itself).
pub fn of_address_everywhere(ratings: &Ratings, address: &str) -> Vec<(String, Standing)> {
    let a = address.to_ascii_lowercase();
    ratings
        .iter()
        .filter_map(|(pool, p)| p.get(&a).map(|s| (pool.clone(), *s)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(player: &str, address: Option<&str>, place: usize, team: Option<usize>) -> Placed {
        Placed {
            player: player.into(),
            address: address.map(str::to_string),
            place,
            team,
        }
    }

    fn game(id: &str, ended: &str, seats: Vec<Placed>) -> Finished {
        Finished {
            id: id.into(),
            pool: "norse-wars".into(),
            ended: ended.into(),
            seats,
        }
    }

    #[test]
    fn pairs_by_finishing_order_ties_teams_and_bots() {
        let f = game(
            "g",
            "2026-01-01T00:00:00Z",
            vec![
                seat("a", Some("a@x"), 0, None),
                seat("b", Some("b@x"), 1, None),
                seat("c", Some("c@x"), 1, None),
                seat("hal", None, 0, None),
            ],
        );
        assert_eq!(
            pairs(&f),
            vec![
                ("a@x", "b@x", 1.0),
                ("a@x", "c@x", 1.0),
                ("b@x", "c@x", 0.5)
            ]
        );
        let t = game(
            "t",
            "2026-01-01T00:00:00Z",
            vec![
                seat("a", Some("a@x"), 0, Some(0)),
                seat("b", Some("b@x"), 1, Some(1)),
                seat("c", Some("c@x"), 0, Some(0)),
                seat("d", Some("d@x"), 1, Some(1)),
            ],
        );
        assert_eq!(
            pairs(&t),
            vec![
                ("a@x", "b@x", 1.0),
                ("a@x", "d@x", 1.0),
                ("b@x", "c@x", 0.0),
                ("c@x", "d@x", 1.0)
            ]
        );
    }

    #[test]
    fn games_are_rated_in_the_order_they_ended_whatever_order_they_come_in() {
        let g1 = game(
            "b-first",
            "2026-01-01T00:00:00Z",
            vec![
                seat("a", Some("a@x"), 0, None),
                seat("b", Some("b@x"), 1, None),
            ],
        );
        let g2 = game(
            "a-second",
            "2026-01-02T00:00:00+01:00",
            vec![
                seat("a", Some("a@x"), 1, None),
                seat("c", Some("c@x"), 0, None),
            ],
        );
        let one = rate(vec![g1.clone(), g2.clone()]);
        let two = rate(vec![g2, g1]);
        assert_eq!(one, two);
        let p = &one["norse-wars"];
        assert_eq!(p["a@x"].games, 2);
        assert!(p["c@x"].rating.rating > 1500.0 && p["b@x"].rating.rating < 1500.0);
        assert!(p["c@x"].rating.deviation < 350.0);
    }
}
