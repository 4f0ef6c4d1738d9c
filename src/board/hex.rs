//! Axial hex coordinates on flat-topped boards.
//!
//! N = (0,-1), NE = (1,-1), SE = (1,0), S = (0,1), SW = (-1,1), NW = (-1,0).
//! Directions are listed clockwise starting from north, so `dir.turn(k)`
//! rotates by k × 60° clockwise.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A hex in axial coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

impl Hex {
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate.
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// Distance from the origin (the ring this hex lies on).
    pub fn length(self) -> i32 {
        self.q.abs().max(self.r.abs()).max(self.s().abs())
    }

    pub fn distance(self, other: Hex) -> i32 {
        (self - other).length()
    }

    pub fn step(self, dir: Dir) -> Hex {
        self + dir.offset()
    }

    pub fn steps(self, dir: Dir, n: i32) -> Hex {
        let d = dir.offset();
        Hex::new(self.q + d.q * n, self.r + d.r * n)
    }

    /// Rotate about the origin by `k` × 60° clockwise.
    pub fn rotate(self, k: i32) -> Hex {
        let mut h = self;
        for _ in 0..k.rem_euclid(6) {
            // clockwise 60°: (q, r, s) -> (-r, -s, -q)
            h = Hex::new(-h.r, -h.s());
        }
        h
    }

    /// The hexes at exactly distance `radius` from `self`, clockwise,
    /// starting at the north corner.
    pub fn ring(self, radius: i32) -> Vec<Hex> {
        if radius == 0 {
            return vec![self];
        }
        let mut out = Vec::with_capacity(6 * radius as usize);
        let mut h = self.steps(Dir::N, radius);
        // from the north corner walk SE, then S, SW, NW, N, NE.
        for side in 0..6 {
            let dir = Dir::ALL[(2 + side) % 6];
            for _ in 0..radius {
                out.push(h);
                h = h.step(dir);
            }
        }
        out
    }

    /// Every hex within `radius` of the origin, in (q, r) order.
    pub fn spiral_area(radius: i32) -> Vec<Hex> {
        let mut out = Vec::new();
        for q in -radius..=radius {
            for r in -radius..=radius {
                let h = Hex::new(q, r);
                if h.length() <= radius {
                    out.push(h);
                }
            }
        }
        out
    }

    /// The sextant (0..6) a non-origin hex lies in, counted clockwise from the
    /// north corner: sextant k holds the ring positions from corner k up to,
    /// but not including, corner k+1.
    pub fn sextant(self) -> i32 {
        let n = self.length();
        if n == 0 {
            return 0;
        }
        let ring = Hex::ORIGIN.ring(n);
        let idx = ring.iter().position(|&h| h == self).unwrap_or(0) as i32;
        idx / n
    }

    /// The hexes a straight segment from `self` to `other` passes, by integer
    /// cube rounding with a small nudge of the given sign (+1 or -1), so that
    /// ties are broken one way or the other without floats.
    pub fn line_to(self, other: Hex, nudge: i32) -> Vec<Hex> {
        let n = self.distance(other);
        if n == 0 {
            return vec![self];
        }
        // scale: coordinates × (n × M); nudges are tiny against M.
        const M: i64 = 1_000_000;
        let (aq, ar, as_) = (self.q as i64, self.r as i64, self.s() as i64);
        let (bq, br, bs) = (other.q as i64, other.r as i64, other.s() as i64);
        let n64 = n as i64;
        let scale = n64 * M;
        let (eq, er, es) = (nudge as i64, 2 * nudge as i64, -3 * nudge as i64);
        let mut out = Vec::with_capacity(n as usize + 1);
        for i in 0..=n64 {
            let x = (aq * (n64 - i) + bq * i) * M + eq;
            let y = (ar * (n64 - i) + br * i) * M + er;
            let z = (as_ * (n64 - i) + bs * i) * M + es;
            let round = |v: i64| -> i64 { (2 * v + scale).div_euclid(2 * scale) };
            let (mut rx, mut ry, rz) = (round(x), round(y), round(z));
            let dx = (rx * scale - x).abs();
            let dy = (ry * scale - y).abs();
            let dz = (rz * scale - z).abs();
            if dx > dy && dx > dz {
                rx = -ry - rz;
            } else if dy > dz {
                ry = -rx - rz;
            }
            out.push(Hex::new(rx as i32, ry as i32));
        }
        out
    }
}

impl std::ops::Add for Hex {
    type Output = Hex;
    fn add(self, o: Hex) -> Hex {
        Hex::new(self.q + o.q, self.r + o.r)
    }
}

impl std::ops::Sub for Hex {
    type Output = Hex;
    fn sub(self, o: Hex) -> Hex {
        Hex::new(self.q - o.q, self.r - o.r)
    }
}

/// The six directions of a flat-topped hex grid, clockwise from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Dir {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 6] = [Dir::N, Dir::NE, Dir::SE, Dir::S, Dir::SW, Dir::NW];

    pub const fn offset(self) -> Hex {
        match self {
            Dir::N => Hex::new(0, -1),
            Dir::NE => Hex::new(1, -1),
            Dir::SE => Hex::new(1, 0),
            Dir::S => Hex::new(0, 1),
            Dir::SW => Hex::new(-1, 1),
            Dir::NW => Hex::new(-1, 0),
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    pub fn turn(self, k: i32) -> Dir {
        Dir::ALL[((self as i32 + k).rem_euclid(6)) as usize]
    }

    pub fn opposite(self) -> Dir {
        self.turn(3)
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::NE => "NE",
            Dir::SE => "SE",
            Dir::S => "S",
            Dir::SW => "SW",
            Dir::NW => "NW",
        }
    }

    pub fn parse(s: &str) -> Option<Dir> {
        Dir::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Chess-style labels on a hexagon of the given radius: the file letter per
/// column from the west, the rank counted from the south end of that column.
/// `e5` is the centre of a radius-4 board.
#[derive(Clone, Copy, Debug)]
pub struct HexagonLabels {
    pub radius: i32,
}

impl HexagonLabels {
    pub fn label(&self, h: Hex) -> String {
        let file = (b'a' + (h.q + self.radius) as u8) as char;
        let r_max = self.radius.min(self.radius - h.q);
        format!("{}{}", file, r_max - h.r + 1)
    }

    pub fn parse(&self, s: &str) -> Option<Hex> {
        let s = s.trim().to_ascii_lowercase();
        let mut chars = s.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let q = (f as i32 - 'a' as i32) - self.radius;
        let rank: i32 = chars.as_str().parse().ok()?;
        if q.abs() > self.radius || rank < 1 {
            return None;
        }
        let r_max = self.radius.min(self.radius - q);
        let h = Hex::new(q, r_max - rank + 1);
        (h.length() <= self.radius).then_some(h)
    }

    pub fn file_letter(&self, q: i32) -> char {
        (b'a' + (q + self.radius) as u8) as char
    }
}
