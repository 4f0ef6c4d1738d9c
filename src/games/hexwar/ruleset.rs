//! The HEXWAR catalogue (`games/hexwar.toml`): piece types, armies, turn
//! templates and setups, checked and turned into lookup tables once, so
//! move generation only reads arrays.

use crate::board::{Dir, Hex};
use crate::games::RulesError;
use serde::Deserialize;

/// The board radius this implementation is built for (61 hexes).
pub const RADIUS: i32 = 4;
/// Hexes on the board.
pub const CELLS: usize = 61;
/// No hex (off the board) in the neighbour tables.
pub const OFF: u8 = 255;
/// At most this many piece types (a piece is packed into one byte).
pub const MAX_KINDS: usize = 15;

pub const WHITE: u8 = 0;
pub const BLACK: u8 = 1;

pub fn side_name(side: u8) -> &'static str {
    if side == WHITE {
        "white"
    } else {
        "black"
    }
}

/// Relative directions, clockwise from the facing.
pub const RELATIVE: [&str; 6] = [
    "forward",
    "forward-right",
    "back-right",
    "backward",
    "back-left",
    "forward-left",
];

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    name: String,
    title: String,
    version: String,
    radius: i32,
    turn_limit: u32,
    default_template: String,
    default_setup: String,
    army: Vec<ArmyFile>,
    piece: Vec<PieceFile>,
    template: Vec<TemplateFile>,
    setup: Vec<SetupFile>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmyFile {
    id: String,
    name: String,
    side: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceFile {
    id: String,
    name: String,
    code: String,
    symbol: String,
    army: String,
    movement: String,
    directions: Vec<String>,
    #[serde(default)]
    abilities: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct TemplateFile {
    name: String,
    help: String,
    actions: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupFile {
    name: String,
    title: String,
    pieces: Vec<SetupPieceFile>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupPieceFile {
    piece: String,
    at: [i32; 2],
    facing: String,
}

/// How a piece type moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Movement {
    /// 1..=N hexes in a straight line, blocked by any piece.
    Step(u8),
    /// Any distance in a straight line until blocked.
    Slide,
    /// A hex at exactly distance N, ignoring pieces between.
    Jump(u8),
}

impl Movement {
    pub fn describe(self) -> String {
        match self {
            Movement::Step(n) => format!("STEP-{n}"),
            Movement::Slide => "SLIDE".into(),
            Movement::Jump(n) => format!("JUMP-{n}"),
        }
    }
}

/// Relative directions (bit k: facing turned k × 60°) in words.
pub fn relative_text(relative: u8) -> String {
    if relative == 0x3f {
        return "all directions".into();
    }
    let words: Vec<&str> = (0..6)
        .filter(|k| relative & (1 << k) != 0)
        .map(|k| RELATIVE[k])
        .collect();
    words.join(", ")
}

/// A piece type of the catalogue.
#[derive(Debug, Clone)]
pub struct Kind {
    pub id: String,
    pub name: String,
    pub code: String,
    pub symbol: char,
    pub side: u8,
    pub army: String,
    pub movement: Movement,
    /// Bit k: may move in the relative direction k (facing turned k × 60°).
    pub relative: u8,
    /// By facing: the absolute directions it may move in (bit = Dir index).
    pub absolute: [u8; 6],
    pub royal: bool,
    pub rebirth: bool,
    pub phased: bool,
    /// For JUMP kinds: by `cell * 6 + facing`, the hexes it may land on.
    pub jumps: Vec<Vec<u8>>,
}

impl Kind {
    /// The relative directions in words.
    pub fn directions_text(&self) -> String {
        relative_text(self.relative)
    }

    pub fn moves_text(&self) -> String {
        format!("{} {}", self.movement.describe(), self.directions_text())
    }
}

#[derive(Debug, Clone)]
pub struct Army {
    pub id: String,
    pub name: String,
    pub side: u8,
}

/// One action slot of a turn template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Move,
    Rotate,
    MoveOrRotate,
}

impl Slot {
    pub fn name(self) -> &'static str {
        match self {
            Slot::Move => "move",
            Slot::Rotate => "rotate",
            Slot::MoveOrRotate => "move-or-rotate",
        }
    }
    pub fn takes_move(self) -> bool {
        matches!(self, Slot::Move | Slot::MoveOrRotate)
    }
    pub fn takes_rotate(self) -> bool {
        matches!(self, Slot::Rotate | Slot::MoveOrRotate)
    }
}

#[derive(Debug, Clone)]
pub struct Template {
    pub name: String,
    pub help: String,
    pub slots: Vec<Slot>,
}

impl Template {
    pub fn describe(&self) -> String {
        let s: Vec<&str> = self.slots.iter().map(|s| s.name()).collect();
        s.join(", ")
    }
}

#[derive(Debug, Clone)]
pub struct SetupPiece {
    pub kind: u8,
    pub at: Hex,
    pub facing: Dir,
}

#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: String,
    pub title: String,
    pub pieces: Vec<SetupPiece>,
}

/// Board geometry as tables, by cell index (0..61, in `Hex::spiral_area` order).
#[derive(Debug, Clone)]
pub struct Geometry {
    pub hex: Vec<Hex>,
    /// `(q + R) * (2R + 1) + (r + R)` → cell, or OFF.
    pub index: Vec<u8>,
    /// By `cell * 6 + dir`: the neighbouring cell, or OFF.
    pub next: Vec<u8>,
    /// Distance of each cell from the centre.
    pub centre_distance: Vec<u8>,
}

impl Geometry {
    pub fn new() -> Geometry {
        let hex = Hex::spiral_area(RADIUS);
        let side = (2 * RADIUS + 1) as usize;
        let mut index = vec![OFF; side * side];
        for (i, h) in hex.iter().enumerate() {
            index[(h.q + RADIUS) as usize * side + (h.r + RADIUS) as usize] = i as u8;
        }
        let mut g = Geometry {
            hex: hex.clone(),
            index,
            next: vec![OFF; CELLS * 6],
            centre_distance: hex.iter().map(|h| h.length() as u8).collect(),
        };
        for (i, h) in hex.iter().enumerate() {
            for d in Dir::ALL {
                g.next[i * 6 + d.index()] = g.cell(h.step(d)).unwrap_or(OFF);
            }
        }
        g
    }

    pub fn cell(&self, h: Hex) -> Option<u8> {
        if h.length() > RADIUS {
            return None;
        }
        let side = (2 * RADIUS + 1) as usize;
        let c = self.index[(h.q + RADIUS) as usize * side + (h.r + RADIUS) as usize];
        (c != OFF).then_some(c)
    }
}

impl Default for Geometry {
    fn default() -> Self {
        Geometry::new()
    }
}

/// The hexes at distance `n` from the origin that lie in the 60° wedge of
/// `dir`: those no farther (along the ring) than n/2 from the ring's corner
/// in that direction. For odd n the six wedges split the ring; for even n a
/// hex midway between two corners lies in both.
pub fn jump_wedge(dir: Dir, n: i32) -> Vec<Hex> {
    let corner = Hex::ORIGIN.steps(dir, n);
    Hex::ORIGIN
        .ring(n)
        .into_iter()
        .filter(|h| 2 * h.distance(corner) <= n)
        .collect()
}

#[derive(Debug, Clone)]
pub struct Ruleset {
    pub name: String,
    pub title: String,
    pub version: String,
    pub turn_limit: u32,
    pub kinds: Vec<Kind>,
    pub armies: Vec<Army>,
    pub templates: Vec<Template>,
    pub scenarios: Vec<Scenario>,
    pub default_template: usize,
    pub default_setup: usize,
    pub geo: Geometry,
}

fn parse_movement(s: &str) -> Option<Movement> {
    let s = s.trim().to_ascii_uppercase();
    if s == "SLIDE" {
        return Some(Movement::Slide);
    }
    let (kind, n) = s.split_once('-')?;
    let n: u8 = n.parse().ok()?;
    if n == 0 || n as i32 > 2 * RADIUS {
        return None;
    }
    match kind {
        "STEP" => Some(Movement::Step(n)),
        "JUMP" => Some(Movement::Jump(n)),
        _ => None,
    }
}

/// Why a piece's `directions` do not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadDirections {
    /// A word that is no relative direction.
    NotRelative(String),
    /// An empty list.
    None,
}

impl std::fmt::Display for BadDirections {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadDirections::NotRelative(d) => write!(
                f,
                "`{d}` is not a relative direction ({}, forward-arc, all)",
                RELATIVE.join(", ")
            ),
            BadDirections::None => f.write_str("no directions"),
        }
    }
}

fn parse_directions(list: &[String]) -> Result<u8, BadDirections> {
    let mut mask = 0u8;
    for d in list {
        let d = d.trim().to_ascii_lowercase();
        match d.as_str() {
            "all" => mask |= 0x3f,
            "forward-arc" => mask |= 0b10_0011,
            _ => match RELATIVE.iter().position(|r| *r == d) {
                Some(k) => mask |= 1 << k,
                None => return Err(BadDirections::NotRelative(d)),
            },
        }
    }
    if mask == 0 {
        return Err(BadDirections::None);
    }
    Ok(mask)
}

impl Ruleset {
    /// Long (about 240 lines): every check of the ruleset file, section by
    /// section (board, armies, pieces, templates, setups), each adding to one
    /// list of problems so that all are told at once.
    pub fn parse(text: &str) -> Result<Ruleset, RulesError> {
        let f: RulesFile = toml::from_str(text).map_err(|e| RulesError::RulesetUnreadable {
            title: "HEXWAR",
            error: Box::new(e),
        })?;
        let mut problems = Vec::new();
        if f.radius != RADIUS {
            problems.push(BadRuleset::Radius(f.radius));
        }
        if f.turn_limit == 0 {
            problems.push(BadRuleset::TurnLimit);
        }
        let geo = Geometry::new();
        let mut armies = Vec::new();
        for a in &f.army {
            let side = match a.side.as_str() {
                "white" => WHITE,
                "black" => BLACK,
                s => {
                    problems.push(BadRuleset::ArmySide {
                        army: a.id.clone(),
                        side: s.to_string(),
                    });
                    continue;
                }
            };
            armies.push(Army {
                id: a.id.clone(),
                name: a.name.clone(),
                side,
            });
        }
        for side in [WHITE, BLACK] {
            if armies.iter().filter(|a| a.side == side).count() != 1 {
                problems.push(BadRuleset::Armies(side));
            }
        }
        if f.piece.len() > MAX_KINDS {
            problems.push(BadRuleset::Kinds);
        }
        let mut kinds = Vec::new();
        for p in &f.piece {
            let bad = |why| BadRuleset::Piece {
                id: p.id.clone(),
                why,
            };
            let Some(army) = armies.iter().find(|a| a.id == p.army) else {
                problems.push(bad(BadPiece::Army(p.army.clone())));
                continue;
            };
            let Some(movement) = parse_movement(&p.movement) else {
                problems.push(bad(BadPiece::Movement(p.movement.clone())));
                continue;
            };
            let relative = match parse_directions(&p.directions) {
                Ok(m) => m,
                Err(e) => {
                    problems.push(bad(BadPiece::Directions(e)));
                    continue;
                }
            };
            let mut chars = p.symbol.chars();
            let symbol = match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_alphabetic() => c,
                _ => {
                    problems.push(bad(BadPiece::Symbol));
                    continue;
                }
            };
            let (mut royal, mut rebirth, mut phased) = (false, false, false);
            for a in &p.abilities {
                match a.as_str() {
                    "royal" => royal = true,
                    "rebirth" => rebirth = true,
                    "phased" => phased = true,
                    other => problems.push(bad(BadPiece::Ability(other.to_string()))),
                }
            }
            let mut absolute = [0u8; 6];
            for (f, abs) in absolute.iter_mut().enumerate() {
                for k in 0..6 {
                    if relative & (1 << k) != 0 {
                        *abs |= 1 << ((f + k) % 6);
                    }
                }
            }
            let mut jumps = Vec::new();
            if let Movement::Jump(n) = movement {
                let wedges: Vec<Vec<Hex>> =
                    Dir::ALL.iter().map(|d| jump_wedge(*d, n as i32)).collect();
                for h in &geo.hex {
                    for abs in absolute {
                        let mut cells = Vec::new();
                        for (d, wedge) in wedges.iter().enumerate() {
                            if abs & (1 << d) == 0 {
                                continue;
                            }
                            for o in wedge {
                                if let Some(c) = geo.cell(*h + *o) {
                                    if !cells.contains(&c) {
                                        cells.push(c);
                                    }
                                }
                            }
                        }
                        jumps.push(cells);
                    }
                }
            }
            if kinds.iter().any(|k: &Kind| k.id == p.id) {
                problems.push(bad(BadPiece::Twice));
            }
            kinds.push(Kind {
                id: p.id.clone(),
                name: p.name.clone(),
                code: p.code.clone(),
                symbol: if army.side == WHITE {
                    symbol.to_ascii_uppercase()
                } else {
                    symbol.to_ascii_lowercase()
                },
                side: army.side,
                army: army.id.clone(),
                movement,
                relative,
                absolute,
                royal,
                rebirth,
                phased,
                jumps,
            });
        }
        for side in [WHITE, BLACK] {
            if !kinds.iter().any(|k| k.side == side && k.royal) {
                problems.push(BadRuleset::NoRoyal(side));
            }
        }
        let mut templates = Vec::new();
        for t in &f.template {
            let mut slots = Vec::new();
            for a in &t.actions {
                slots.push(match a.as_str() {
                    "move" => Slot::Move,
                    "rotate" => Slot::Rotate,
                    "move-or-rotate" => Slot::MoveOrRotate,
                    other => {
                        problems.push(BadRuleset::Action {
                            template: t.name.clone(),
                            action: other.to_string(),
                        });
                        continue;
                    }
                });
            }
            if slots.is_empty() || slots.len() > 8 {
                problems.push(BadRuleset::Actions(t.name.clone()));
            }
            templates.push(Template {
                name: t.name.clone(),
                help: t.help.clone(),
                slots,
            });
        }
        let mut scenarios = Vec::new();
        for s in &f.setup {
            let mut pieces = Vec::new();
            for p in &s.pieces {
                let bad = |why| BadRuleset::Setup {
                    setup: s.name.clone(),
                    why,
                };
                let Some(kind) = kinds.iter().position(|k| k.id == p.piece) else {
                    problems.push(bad(BadSetup::Kind(p.piece.clone())));
                    continue;
                };
                let at = Hex::new(p.at[0], p.at[1]);
                if at.length() > RADIUS {
                    problems.push(bad(BadSetup::OffBoard(at)));
                    continue;
                }
                let Some(facing) = Dir::parse(&p.facing) else {
                    problems.push(bad(BadSetup::Facing(p.facing.clone())));
                    continue;
                };
                if pieces.iter().any(|q: &SetupPiece| q.at == at) {
                    problems.push(bad(BadSetup::Two(at)));
                }
                pieces.push(SetupPiece {
                    kind: kind as u8,
                    at,
                    facing,
                });
            }
            for side in [WHITE, BLACK] {
                let royals = pieces
                    .iter()
                    .filter(|p| kinds[p.kind as usize].side == side && kinds[p.kind as usize].royal)
                    .count();
                if royals != 1 {
                    problems.push(BadRuleset::Setup {
                        setup: s.name.clone(),
                        why: BadSetup::Royals(side),
                    });
                }
            }
            scenarios.push(Scenario {
                name: s.name.clone(),
                title: s.title.clone(),
                pieces,
            });
        }
        let default_template = templates.iter().position(|t| t.name == f.default_template);
        if default_template.is_none() {
            problems.push(BadRuleset::DefaultTemplate(f.default_template.clone()));
        }
        let default_setup = scenarios.iter().position(|s| s.name == f.default_setup);
        if default_setup.is_none() {
            problems.push(BadRuleset::DefaultSetup(f.default_setup.clone()));
        }
        if !problems.is_empty() {
            return Err(RulesError::joined(
                problems.into_iter().map(RulesError::from).collect(),
            ));
        }
        Ok(Ruleset {
            name: f.name,
            title: f.title,
            version: f.version,
            turn_limit: f.turn_limit,
            kinds,
            armies,
            templates,
            scenarios,
            default_template: default_template.unwrap_or(0),
            default_setup: default_setup.unwrap_or(0),
            geo,
        })
    }

    pub fn army(&self, side: u8) -> &Army {
        self.armies
            .iter()
            .find(|a| a.side == side)
            .expect("an army per side")
    }

    /// A piece type by id, name or code (any case), of the given side.
    pub fn find_kind(&self, side: u8, word: &str) -> Option<u8> {
        self.kinds
            .iter()
            .position(|k| {
                k.side == side
                    && (k.id.eq_ignore_ascii_case(word)
                        || k.name.eq_ignore_ascii_case(word)
                        || k.code.eq_ignore_ascii_case(word))
            })
            .map(|k| k as u8)
    }

    pub fn template(&self, name: &str) -> Option<usize> {
        self.templates
            .iter()
            .position(|t| t.name.eq_ignore_ascii_case(name))
    }
}

/// A problem of the ruleset file beyond TOML: a bound broken, a name that
/// names nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadRuleset {
    /// A radius other than the one herald's board is built for.
    Radius(i32),
    TurnLimit,
    ArmySide {
        army: String,
        side: String,
    },
    /// Not exactly one army for this side.
    Armies(u8),
    /// More piece types than a piece's byte holds.
    Kinds,
    Piece {
        id: String,
        why: BadPiece,
    },
    /// A side's army without a royal piece.
    NoRoyal(u8),
    Action {
        template: String,
        action: String,
    },
    /// A template without 1 to 8 actions.
    Actions(String),
    Setup {
        setup: String,
        why: BadSetup,
    },
    DefaultTemplate(String),
    DefaultSetup(String),
}

/// What is wrong with a `[[piece]]` of the ruleset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadPiece {
    Army(String),
    Movement(String),
    Directions(BadDirections),
    Symbol,
    Ability(String),
    Twice,
}

/// What is wrong with a `[[setup]]` of the ruleset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadSetup {
    Kind(String),
    OffBoard(Hex),
    Facing(String),
    Two(Hex),
    /// A side without exactly one royal piece.
    Royals(u8),
}

impl std::fmt::Display for BadRuleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadRuleset::Radius(r) => write!(
                f,
                "radius = {r}: herald's HEXWAR is built for radius {RADIUS} (61 hexes)"
            ),
            BadRuleset::TurnLimit => f.write_str("turn_limit must be at least 1"),
            BadRuleset::ArmySide { army, side } => {
                write!(f, "army {army}: side `{side}` is not white or black")
            }
            BadRuleset::Armies(side) => {
                write!(f, "exactly one army must play {}", side_name(*side))
            }
            BadRuleset::Kinds => write!(f, "at most {MAX_KINDS} piece types"),
            BadRuleset::Piece { id, why } => write!(f, "piece {id}: {why}"),
            BadRuleset::NoRoyal(side) => {
                write!(f, "the {} army needs a royal piece", side_name(*side))
            }
            BadRuleset::Action { template, action } => write!(
                f,
                "template {template}: action `{action}` is not move, rotate or move-or-rotate"
            ),
            BadRuleset::Actions(t) => write!(f, "template {t}: 1 to 8 actions"),
            BadRuleset::Setup { setup, why } => write!(f, "setup {setup}: {why}"),
            BadRuleset::DefaultTemplate(t) => {
                write!(f, "default_template `{t}` is not a [[template]]")
            }
            BadRuleset::DefaultSetup(s) => write!(f, "default_setup `{s}` is not a [[setup]]"),
        }
    }
}

impl std::fmt::Display for BadPiece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadPiece::Army(a) => write!(f, "no army `{a}`"),
            BadPiece::Movement(m) => write!(
                f,
                "movement `{m}` is not STEP-N, SLIDE or JUMP-N (N from 1 to {})",
                2 * RADIUS
            ),
            BadPiece::Directions(e) => write!(f, "{e}"),
            BadPiece::Symbol => f.write_str("symbol must be one letter"),
            BadPiece::Ability(a) => write!(f, "ability `{a}` is not royal, rebirth or phased"),
            BadPiece::Twice => f.write_str("two piece types with this id"),
        }
    }
}

impl std::fmt::Display for BadSetup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadSetup::Kind(k) => write!(f, "no piece type `{k}`"),
            BadSetup::OffBoard(at) => write!(f, "({}, {}) is off the board", at.q, at.r),
            BadSetup::Facing(d) => write!(f, "facing `{d}` is not N NE SE S SW NW"),
            BadSetup::Two(at) => write!(f, "two pieces on ({}, {})", at.q, at.r),
            BadSetup::Royals(side) => {
                write!(f, "{} needs exactly one royal piece", side_name(*side))
            }
        }
    }
}

crate::games::rules_error::rules_detail!(BadRuleset, |self| K::Ruleset);
