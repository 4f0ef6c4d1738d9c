//! The board: a rhombus of hexes (axial q, r in 0..size), the Contentious
//! and Difficult hexes, the Scorched ring that grows as the board shrinks,
//! and the hex labels orders use (`q,r`).

use crate::board::{Dir, Hex};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The terrain of a game: fixed at setup, public to both players; only the
/// safe radius changes (the board shrinks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub size: i32,
    pub centre: Hex,
    /// Sorted.
    pub contentious: Vec<Hex>,
    /// Sorted.
    pub difficult: Vec<Hex>,
    /// Hexes farther than this from the centre are Scorched; `None` while
    /// the whole board stands.
    pub radius: Option<i32>,
}

/// A hex's label in orders and reports: `q,r`.
pub fn label(h: Hex) -> String {
    format!("{},{}", h.q, h.r)
}

/// Read `q,r` (also `(q,r)` and `q, r`).
pub fn parse_hex(s: &str) -> Option<Hex> {
    let t = s.trim().trim_start_matches('(').trim_end_matches(')');
    let (a, b) = t.split_once(',')?;
    Some(Hex::new(a.trim().parse().ok()?, b.trim().parse().ok()?))
}

impl Board {
    pub fn on_board(&self, h: Hex) -> bool {
        (0..self.size).contains(&h.q) && (0..self.size).contains(&h.r)
    }

    pub fn scorched(&self, h: Hex) -> bool {
        self.radius.is_some_and(|r| h.distance(self.centre) > r)
    }

    /// On the board and not Scorched: a force may stand here.
    pub fn playable(&self, h: Hex) -> bool {
        self.on_board(h) && !self.scorched(h)
    }

    pub fn is_contentious(&self, h: Hex) -> bool {
        self.contentious.binary_search(&h).is_ok()
    }

    pub fn is_difficult(&self, h: Hex) -> bool {
        self.difficult.binary_search(&h).is_ok()
    }

    /// Every hex of the board, q-major.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (0..self.size).flat_map(move |q| (0..self.size).map(move |r| Hex::new(q, r)))
    }

    /// The playable neighbours of `h`, with their directions, clockwise from N.
    pub fn moves(&self, h: Hex) -> impl Iterator<Item = (Dir, Hex)> + '_ {
        Dir::ALL
            .into_iter()
            .map(move |d| (d, h.step(d)))
            .filter(|(_, n)| self.playable(*n))
    }

    /// Shortest path lengths from `from` over the board avoiding Difficult
    /// hexes (`None`: unreachable). Indexed `q * size + r`.
    pub fn clear_distances(&self, from: Hex) -> Vec<Option<i32>> {
        let n = self.size as usize;
        let idx = |h: Hex| h.q as usize * n + h.r as usize;
        let mut dist = vec![None; n * n];
        if !self.on_board(from) || self.is_difficult(from) {
            return dist;
        }
        dist[idx(from)] = Some(0);
        let mut queue = VecDeque::from([from]);
        while let Some(h) = queue.pop_front() {
            let d = dist[idx(h)].unwrap();
            for dir in Dir::ALL {
                let m = h.step(dir);
                if self.on_board(m) && !self.is_difficult(m) && dist[idx(m)].is_none() {
                    dist[idx(m)] = Some(d + 1);
                    queue.push_back(m);
                }
            }
        }
        dist
    }

    /// The total of the Difficult-free path lengths from `corner` to every
    /// Contentious hex, or `None` if one cannot be reached.
    pub fn path_total(&self, corner: Hex) -> Option<i32> {
        let d = self.clear_distances(corner);
        let n = self.size as usize;
        self.contentious
            .iter()
            .map(|c| d[c.q as usize * n + c.r as usize])
            .sum()
    }

    /// The radius the board shrinks to after `turn` (None: the whole board).
    pub fn radius_after(rules: &super::ruleset::Ruleset, turn: u32) -> Option<i32> {
        let stage = (turn / rules.shrink.every) as usize;
        if stage == 0 {
            None
        } else {
            rules
                .shrink
                .radii
                .get(stage - 1)
                .or(rules.shrink.radii.last())
                .copied()
        }
    }

    /// How many playable hexes there are within `radius` of the centre.
    pub fn count_within(&self, radius: Option<i32>) -> usize {
        self.hexes()
            .filter(|h| radius.is_none_or(|r| h.distance(self.centre) <= r))
            .count()
    }
}
