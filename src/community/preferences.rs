//! Seat preferences (docs/host.md, "Seat preferences"): a player joins a
//! table with `prefer SIDE,SIDE,…`, and at the start the seats are dealt
//! to maximise the players' preferences, ties broken by the game's seed,
//! so that anyone can check the deal from the finished game file (its
//! genesis records the preferences; `herald verify` deals again).
//!
//! The deal, for the game's seats (sides, in seat order) and its players
//! (the people's ids and the bot seats' names):
//!
//! ```text
//! drawn = the ids sorted, then shuffled (Fisher-Yates, from the last place
//!         down, j = rng::below(i + 1)) with rng::phase_rng(seed, game id, 0, "lobby seats")
//! rank(p, s) = the place of side s in p's list (0 for the first), or the
//!              number of seats when p did not list s (a bot lists none)
//! the deal  = of all the assignments of players to sides, the one with
//!             the least key: (the sum of the ranks,
//!                             drawn[0]'s rank, drawn[1]'s rank, …,
//!                             drawn[0]'s side, drawn[1]'s side, …)
//! ```
//!
//! So the sum of ranks (diplicity's objective) is as small as it can be;
//! of the deals that reach it, the seed's order decides who gets the
//! better of a disputed side; and when nobody states a preference the
//! deal is exactly the drawn order (drawn[0] in the first seat …), as
//! tables were dealt before preferences.

use crate::chain::body::Genesis;
use std::collections::BTreeMap;

/// The names of a game's sides, in seat order, for `n` players: the
/// words its rules (games/*.md) give the seats, or `seat-1` … for Norse
/// Wars, whose seats are its turn order.
pub fn sides(game: &str, n: usize) -> Vec<String> {
    let two = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
    match game {
        "stack-wars" => two("black", "white"),
        "hexwar" => two("white", "black"),
        "unfought-battle" => two("north", "south"),
        "war-of-the-dukes" => two("orfburg", "wulfenburg"),
        _ => (1..=n).map(|i| format!("seat-{i}")).collect(),
    }
}

/// The sides a player may name at a table of `game` for up to `max`
/// players.
pub fn nameable(game: &str, max: usize) -> Vec<String> {
    sides(game, max)
}

/// Why a `prefer` list is refused: unknown side names, repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bad {
    Unknown { side: String, sides: Vec<String> },
    Repeated { side: String },
}

impl std::fmt::Display for Bad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bad::Unknown { side, sides } => write!(
                f,
                "`{side}` is not a side of this table's game; its sides are {}",
                sides.join(", ")
            ),
            Bad::Repeated { side } => write!(f, "`{side}` is named twice; name each side once"),
        }
    }
}

/// A `prefer` list as typed (`black,white`, `seat-2, seat-1`), checked
/// against the sides: lowercase, each known, none twice.
pub fn parse(list: &str, sides: &[String]) -> Result<Vec<String>, Bad> {
    let mut out: Vec<String> = Vec::new();
    for w in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let w = w.to_ascii_lowercase();
        if !sides.contains(&w) {
            return Err(Bad::Unknown {
                side: w.chars().take(40).collect(),
                sides: sides.to_vec(),
            });
        }
        if out.contains(&w) {
            return Err(Bad::Repeated { side: w });
        }
        out.push(w);
    }
    Ok(out)
}

/// The order drawn from the seed (the module's documentation).
pub fn drawn(ids: &[String], seed: &str, game_id: &str) -> Vec<String> {
    let mut v: Vec<String> = ids.to_vec();
    v.sort();
    let mut rng = crate::rng::phase_rng(seed, game_id, 0, "lobby seats");
    for i in (1..v.len()).rev() {
        let j = crate::rng::below(&mut rng, (i + 1) as u32) as usize;
        v.swap(i, j);
    }
    v
}

/// `p`'s rank of each side (the module's documentation).
pub fn ranks(sides: &[String], list: Option<&Vec<String>>) -> Vec<usize> {
    sides
        .iter()
        .map(|s| {
            list.and_then(|l| l.iter().position(|x| x == s))
                .unwrap_or(sides.len())
        })
        .collect()
}

/// The least sum of `cost[i][side]` over the assignments of players
/// `i..` to the sides not in `used`, each player kept to the sides
/// `allowed[i]` lets; `None` when there is none. A dynamic programme over
/// the sets of sides used (2^n states, n ≤ 16), not a search of the n!
/// assignments.
fn least(cost: &[Vec<usize>], allowed: &[Vec<bool>]) -> Option<usize> {
    let n = cost.len();
    let full = (1usize << n) - 1;
    // best[mask]: the least cost of seating the players count_ones(mask)..
    // on the sides outside mask.
    let mut best: Vec<Option<usize>> = vec![None; 1 << n];
    best[full] = Some(0);
    for mask in (0..full).rev() {
        let i = mask.count_ones() as usize;
        let mut b: Option<usize> = None;
        for s in 0..n {
            if mask & (1 << s) != 0 || !allowed[i][s] {
                continue;
            }
            if let Some(rest) = best[mask | (1 << s)] {
                let c = cost[i][s] + rest;
                b = Some(b.map_or(c, |x: usize| x.min(c)));
            }
        }
        best[mask] = b;
    }
    best[0]
}

/// The deal: each side's player id, in seat order. `drawn` is every
/// player (the seed's order, [`drawn`]), `sides` the game's seats (as
/// many), `prefs` the lists the players gave (checked by [`parse`]).
pub fn deal(
    drawn: &[String],
    sides: &[String],
    prefs: &BTreeMap<String, Vec<String>>,
) -> Vec<String> {
    let n = drawn.len().min(sides.len());
    if n == 0 {
        return Vec::new();
    }
    let cost: Vec<Vec<usize>> = drawn[..n]
        .iter()
        .map(|p| ranks(&sides[..n], prefs.get(p)))
        .collect();
    let mut allowed = vec![vec![true; n]; n];
    let total = least(&cost, &allowed).unwrap_or(0);
    // Each player in the drawn order: the least rank that still lets the
    // whole reach the least sum.
    for i in 0..n {
        let mut by_rank: Vec<usize> = (0..n)
            .filter(|&s| allowed[i][s])
            .map(|s| cost[i][s])
            .collect();
        by_rank.sort();
        by_rank.dedup();
        for r in by_rank {
            let keep = allowed[i].clone();
            for s in 0..n {
                allowed[i][s] = keep[s] && cost[i][s] == r;
            }
            if least(&cost, &allowed) == Some(total) {
                break;
            }
            allowed[i] = keep;
        }
    }
    // Then each player's side: the first of those left that still does.
    let mut side_of = vec![0; n];
    for i in 0..n {
        let keep = allowed[i].clone();
        for s in 0..n {
            if !keep[s] {
                continue;
            }
            allowed[i] = (0..n).map(|x| x == s).collect();
            if least(&cost, &allowed) == Some(total) {
                side_of[i] = s;
                break;
            }
            allowed[i] = keep.clone();
        }
    }
    let mut seats = vec![String::new(); n];
    for (i, s) in side_of.into_iter().enumerate() {
        seats[s] = drawn[i].clone();
    }
    seats
}

/// `herald verify`'s check of a game dealt by preferences: the genesis's
/// seats must be the deal of the preferences it records, dealt with the
/// game's `seed`; the problem in words, naming the edit, if not. A game
/// that records no preferences is not checked (its order is its
/// moderator's, or the drawn order).
pub fn check(genesis: &Genesis, seed: &str) -> Option<String> {
    if genesis.preferences.is_empty() {
        return None;
    }
    let ids: Vec<String> = genesis.players.iter().map(|p| p.id.clone()).collect();
    let sides = sides(&genesis.game, ids.len());
    for (p, list) in &genesis.preferences {
        if !ids.contains(p) {
            return Some(format!(
                "entry 0 (genesis): preferences: `{p}` is not one of the players"
            ));
        }
        if let Err(e) = parse(&list.join(","), &sides) {
            return Some(format!("entry 0 (genesis): preferences of {p}: {e}"));
        }
    }
    let want = deal(
        &drawn(&ids, seed, &genesis.id),
        &sides,
        &genesis.preferences,
    );
    (want != ids).then(|| {
        format!(
            "entry 0 (genesis): the seats are {}, but the deal of the preferences it records with the game's seed gives {} (docs/host.md, \"Seat preferences\"): the seats or the preferences were edited",
            pairs(&sides, &ids),
            pairs(&sides, &want)
        )
    })
}

fn pairs(sides: &[String], ids: &[String]) -> String {
    sides
        .iter()
        .zip(ids)
        .map(|(s, p)| format!("{s} {p}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn a_list_is_checked_against_the_sides() {
        let sides = sides("stack-wars", 2);
        assert_eq!(parse("White, black", &sides), Ok(v(&["white", "black"])));
        assert_eq!(
            parse("white,red", &sides),
            Err(Bad::Unknown {
                side: "red".into(),
                sides: sides.clone()
            })
        );
        assert_eq!(
            parse("white,WHITE", &sides),
            Err(Bad::Repeated {
                side: "white".into()
            })
        );
    }

    #[test]
    fn with_no_preference_the_deal_is_the_drawn_order() {
        let d = v(&["c", "a", "b"]);
        assert_eq!(deal(&d, &sides("norse-wars", 3), &BTreeMap::new()), d);
    }

    #[test]
    fn a_disputed_side_goes_to_the_player_drawn_first() {
        let sides = sides("stack-wars", 2);
        let prefs: BTreeMap<String, Vec<String>> = [
            ("a".to_string(), v(&["white"])),
            ("b".to_string(), v(&["white"])),
        ]
        .into();
        assert_eq!(deal(&v(&["b", "a"]), &sides, &prefs), v(&["a", "b"]));
        assert_eq!(deal(&v(&["a", "b"]), &sides, &prefs), v(&["b", "a"]));
    }
}
