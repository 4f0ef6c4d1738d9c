//! The printed map: CCRR labels, terrain, hexsides (roads, rivers, bridges),
//! the two territories, the between-rivers area and the named places.
//!
//! Hexes are flat-topped in axial coordinates (games/war-of-the-dukes.md,
//! "The map"): label column
//! `CC` is `q + 1`; odd-q offset rows, so label row `RR` is
//! `r + (q - (q & 1)) / 2 + 1`. Odd label columns (01, 03, …) sit half a hex
//! higher than even ones.

use super::units::Side;
use crate::board::{Dir, Hex};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A hex as printed: 0-based column and row, written `CCRR` from 01.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Label {
    pub col: u8,
    pub row: u8,
}

impl Label {
    pub fn parse(s: &str) -> Option<Label> {
        let s = s.trim();
        if s.len() != 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let col: u8 = s[..2].parse().ok()?;
        let row: u8 = s[2..].parse().ok()?;
        (col >= 1 && row >= 1).then(|| Label {
            col: col - 1,
            row: row - 1,
        })
    }

    pub fn hex(self) -> Hex {
        let q = self.col as i32;
        Hex::new(q, self.row as i32 - (q - (q & 1)) / 2)
    }

    pub fn of(h: Hex) -> Option<Label> {
        let row = h.r + (h.q - (h.q & 1)) / 2;
        (h.q >= 0 && row >= 0 && h.q < 100 && row < 100).then_some(Label {
            col: h.q as u8,
            row: row as u8,
        })
    }

    pub fn distance(self, other: Label) -> i32 {
        self.hex().distance(other.hex())
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.col + 1, self.row + 1)
    }
}

impl Serialize for Label {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Label {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Label, D::Error> {
        let s = String::deserialize(d)?;
        Label::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not a CCRR hex")))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Plains,
    Forest,
    City,
    Cliff,
    Lake,
    Fortress,
}

impl Terrain {
    pub const ALL: [Terrain; 6] = [
        Terrain::Plains,
        Terrain::Forest,
        Terrain::City,
        Terrain::Cliff,
        Terrain::Lake,
        Terrain::Fortress,
    ];

    pub fn parse(s: &str) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.name() == s)
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Plains => "plains",
            Terrain::Forest => "forest",
            Terrain::City => "city",
            Terrain::Cliff => "cliff",
            Terrain::Lake => "lake",
            Terrain::Fortress => "fortress",
        }
    }

    /// The character the ASCII map draws the terrain with.
    pub fn symbol(self) -> char {
        match self {
            Terrain::Plains => '.',
            Terrain::Forest => '%',
            Terrain::City => '#',
            Terrain::Cliff => '^',
            Terrain::Lake => '~',
            Terrain::Fortress => '@',
        }
    }
}

/// What lies on a hexside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Hexside {
    Open,
    Road,
    River,
    BridgeWithRoad,
    Bridge,
}

impl Hexside {
    pub fn parse(s: &str) -> Option<Hexside> {
        Some(match s {
            "road" => Hexside::Road,
            "river" => Hexside::River,
            "bridge_with_road" => Hexside::BridgeWithRoad,
            "bridge" => Hexside::Bridge,
            _ => return None,
        })
    }
}

/// A cell's index in [`Map::cells`].
pub type Ix = u16;

#[derive(Clone, Debug)]
pub struct Cell {
    pub label: Label,
    pub hex: Hex,
    pub terrain: Terrain,
    pub owner: Option<Side>,
    pub between_rivers: bool,
    /// The place (index into [`Map::places`]) this hex belongs to.
    pub place: Option<usize>,
    /// Neighbours by [`Dir`] index (N, NE, SE, S, SW, NW).
    pub nbr: [Option<Ix>; 6],
    pub sides: [Hexside; 6],
}

#[derive(Clone, Debug)]
pub struct Place {
    pub name: String,
    pub kind: String,
    pub cells: Vec<Ix>,
}

#[derive(Clone, Debug)]
pub struct Map {
    pub columns: u8,
    pub rows: u8,
    pub cells: Vec<Cell>,
    grid: Vec<Option<Ix>>,
    pub places: Vec<Place>,
}

/// The map as the ruleset writes it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapData {
    pub columns: u8,
    pub rows: u8,
    pub hexes: Vec<String>,
    pub hexsides: Vec<String>,
    pub between_rivers: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceData {
    pub name: String,
    pub kind: String,
    pub hexes: Vec<String>,
}

impl Map {
    /// Long (about 120 lines): the map data read section by section (hexes,
    /// hexsides, rivers, places), each filling the same grid.
    pub fn build(data: &MapData, places: &[PlaceData]) -> Result<Map, BadMap> {
        let (cols, rows) = (data.columns as usize, data.rows as usize);
        if cols == 0 || rows == 0 || cols > 99 || rows > 99 {
            return Err(BadMap::Size);
        }
        let mut grid = vec![None; cols * rows];
        let mut cells: Vec<Cell> = Vec::new();
        let label = |s: &str, what: &str| -> Result<Label, BadMap> {
            let bad = |outside| BadMap::Label {
                what: what.to_string(),
                word: s.to_string(),
                outside,
            };
            let l = Label::parse(s).ok_or_else(|| bad(None))?;
            if (l.col as usize) >= cols || (l.row as usize) >= rows {
                return Err(bad(Some((cols, rows))));
            }
            Ok(l)
        };
        for line in &data.hexes {
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.len() != 3 {
                return Err(BadMap::HexLine(line.clone()));
            }
            let l = label(w[0], "map.hexes")?;
            let terrain = Terrain::parse(w[1]).ok_or_else(|| BadMap::Terrain {
                line: line.clone(),
                word: w[1].to_string(),
            })?;
            let owner = match w[2] {
                "O" => Some(Side::Orfburg),
                "W" => Some(Side::Wulfenburg),
                "-" => None,
                t => {
                    return Err(BadMap::Territory {
                        line: line.clone(),
                        word: t.to_string(),
                    })
                }
            };
            let slot = &mut grid[l.col as usize * rows + l.row as usize];
            if slot.is_some() {
                return Err(BadMap::Twice(w[0].to_string()));
            }
            *slot = Some(cells.len() as Ix);
            cells.push(Cell {
                label: l,
                hex: l.hex(),
                terrain,
                owner,
                between_rivers: false,
                place: None,
                nbr: [None; 6],
                sides: [Hexside::Open; 6],
            });
        }
        let mut map = Map {
            columns: data.columns,
            rows: data.rows,
            cells,
            grid,
            places: Vec::new(),
        };
        for i in 0..map.cells.len() {
            let h = map.cells[i].hex;
            for d in Dir::ALL {
                map.cells[i].nbr[d.index()] = map.at_hex(h.step(d));
            }
        }
        for line in &data.hexsides {
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.len() != 3 {
                return Err(BadMap::SideLine(line.clone()));
            }
            let side = |why| BadMap::Hexside {
                line: line.clone(),
                why,
            };
            let a = map
                .ix(label(w[0], "map.hexsides")?)
                .ok_or_else(|| side(BadHexside::NoHex(w[0].to_string())))?;
            let b = map
                .ix(label(w[1], "map.hexsides")?)
                .ok_or_else(|| side(BadHexside::NoHex(w[1].to_string())))?;
            let kind =
                Hexside::parse(w[2]).ok_or_else(|| side(BadHexside::Kind(w[2].to_string())))?;
            let d = Dir::ALL
                .into_iter()
                .find(|d| map.cells[a as usize].nbr[d.index()] == Some(b))
                .ok_or_else(|| side(BadHexside::NotNeighbours))?;
            map.cells[a as usize].sides[d.index()] = kind;
            map.cells[b as usize].sides[d.opposite().index()] = kind;
        }
        for s in &data.between_rivers {
            let i = map
                .ix(label(s, "map.between_rivers")?)
                .ok_or_else(|| BadMap::RiverHex(s.clone()))?;
            map.cells[i as usize].between_rivers = true;
        }
        for (n, p) in places.iter().enumerate() {
            let mut cells = Vec::new();
            for s in &p.hexes {
                let i = map
                    .ix(label(s, &format!("places {}", p.name))?)
                    .ok_or_else(|| BadMap::PlaceHex {
                        place: p.name.clone(),
                        word: s.clone(),
                    })?;
                if map.cells[i as usize].place.is_some() {
                    return Err(BadMap::TwoPlaces(s.clone()));
                }
                map.cells[i as usize].place = Some(n);
                cells.push(i);
            }
            map.places.push(Place {
                name: p.name.clone(),
                kind: p.kind.clone(),
                cells,
            });
        }
        Ok(map)
    }

    pub fn ix(&self, l: Label) -> Option<Ix> {
        if l.col >= self.columns || l.row >= self.rows {
            return None;
        }
        self.grid[l.col as usize * self.rows as usize + l.row as usize]
    }

    pub fn at_hex(&self, h: Hex) -> Option<Ix> {
        self.ix(Label::of(h)?)
    }

    pub fn cell(&self, i: Ix) -> &Cell {
        &self.cells[i as usize]
    }

    pub fn label(&self, i: Ix) -> Label {
        self.cells[i as usize].label
    }

    pub fn place(&self, name: &str) -> Option<usize> {
        self.places.iter().position(|p| p.name == name)
    }

    /// Neighbours with the hexside between.
    pub fn neighbours(&self, i: Ix) -> impl Iterator<Item = (Ix, Hexside)> + '_ {
        let c = &self.cells[i as usize];
        (0..6).filter_map(move |d| c.nbr[d].map(|n| (n, c.sides[d])))
    }

    /// The hexside between two neighbours, if they are neighbours.
    pub fn side_between(&self, a: Ix, b: Ix) -> Option<Hexside> {
        self.neighbours(a).find(|&(n, _)| n == b).map(|(_, s)| s)
    }

    pub fn distance(&self, a: Ix, b: Ix) -> i32 {
        self.cells[a as usize]
            .hex
            .distance(self.cells[b as usize].hex)
    }
}

/// What is wrong with the ruleset's map data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadMap {
    Size,
    /// A hex word of a section (`what`) that is not CCRR, or (`outside`:
    /// the map's columns and rows) lies outside the map.
    Label {
        what: String,
        word: String,
        outside: Option<(usize, usize)>,
    },
    /// A `map.hexes` line not of three words.
    HexLine(String),
    Terrain {
        line: String,
        word: String,
    },
    Territory {
        line: String,
        word: String,
    },
    Twice(String),
    /// A `map.hexsides` line not of three words.
    SideLine(String),
    Hexside {
        line: String,
        why: BadHexside,
    },
    RiverHex(String),
    PlaceHex {
        place: String,
        word: String,
    },
    TwoPlaces(String),
}

/// What is wrong with a `map.hexsides` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadHexside {
    NoHex(String),
    Kind(String),
    NotNeighbours,
}

impl fmt::Display for BadMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadMap::Size => f.write_str("map.columns and map.rows must be 1..=99"),
            BadMap::Label {
                what,
                word,
                outside: None,
            } => write!(f, "{what}: `{word}` is not a CCRR hex"),
            BadMap::Label {
                what,
                word,
                outside: Some((cols, rows)),
            } => write!(f, "{what}: {word} lies outside the {cols}×{rows} map"),
            BadMap::HexLine(line) => write!(f, "map.hexes `{line}`: say `CCRR terrain O|W|-`"),
            BadMap::Terrain { line, word } => {
                write!(f, "map.hexes `{line}`: unknown terrain `{word}`")
            }
            BadMap::Territory { line, word } => {
                write!(f, "map.hexes `{line}`: territory `{word}` is not O, W or -")
            }
            BadMap::Twice(w) => write!(f, "map.hexes: {w} is listed twice"),
            BadMap::SideLine(line) => write!(f, "map.hexsides `{line}`: say `CCRR CCRR kind`"),
            BadMap::Hexside { line, why } => {
                write!(f, "map.hexsides `{line}`: ")?;
                match why {
                    BadHexside::NoHex(w) => write!(f, "{w} is not a map hex"),
                    BadHexside::Kind(w) => write!(f, "unknown kind `{w}`"),
                    BadHexside::NotNeighbours => f.write_str("the two hexes are not neighbours"),
                }
            }
            BadMap::RiverHex(s) => write!(f, "map.between_rivers: {s} is not a map hex"),
            BadMap::PlaceHex { place, word } => {
                write!(f, "places {place}: {word} is not a map hex")
            }
            BadMap::TwoPlaces(s) => write!(f, "places: {s} belongs to two places"),
        }
    }
}
