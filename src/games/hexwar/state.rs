//! The whole truth of a HEXWAR game, kept compact: one byte per hex, piece
//! counts for the graveyards, no heap. Serialised through a readable form
//! (pieces by hex label) so the game file stays legible.

use super::piece::Piece;
use super::ruleset::{side_name, Ruleset, BLACK, CELLS, RADIUS, WHITE};
use crate::board::{Dir, Hex, HexagonLabels};
use serde::{Deserialize, Serialize};

pub const LABELS: HexagonLabels = HexagonLabels { radius: RADIUS };

pub fn label(h: Hex) -> String {
    LABELS.label(h)
}

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum How {
    KingCaptured,
    Surrender,
    /// Turn limit: the royal piece nearer the centre.
    NearerCentre,
    /// Turn limit, equally near: more pieces on the board.
    MorePieces,
    /// Turn limit, equally near, as many pieces: White.
    WhiteByDefault,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finish {
    pub winner: u8,
    pub how: How,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "Repr", try_from = "Repr")]
pub struct State {
    /// By cell: 0 empty, else a packed [`Piece`].
    pub board: [u8; CELLS],
    /// The side to move: WHITE or BLACK.
    pub side: u8,
    /// The turn being played, from 1 (White and Black once each per turn).
    pub turn: u16,
    /// Index of the active turn template in the rules.
    pub template: u8,
    /// Captured pieces by side (the owner's graveyard) and piece type.
    pub graveyard: [[u8; 16]; 2],
    pub finish: Option<Finish>,
    /// The players agreed to a draw (issue 52): the game is over, nobody
    /// won. Absent from the state's form while false, so states written
    /// before it read and hash as before.
    pub drawn: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The serialised form.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Repr {
    turn: u16,
    to_move: String,
    template: u8,
    /// `"<hex> <side> <type index> <facing>"`, e.g. `"c1 white 0 N"`.
    pieces: Vec<String>,
    /// `[side][type index]` counts.
    graveyard: [[u8; 16]; 2],
    finish: Option<Finish>,
    #[serde(default, skip_serializing_if = "is_false")]
    drawn: bool,
}

impl From<State> for Repr {
    fn from(s: State) -> Repr {
        let geo = super::geometry();
        let pieces = (0..CELLS)
            .filter(|&c| s.board[c] != 0)
            .map(|c| {
                let p = Piece(s.board[c]);
                format!(
                    "{} {} {} {}",
                    label(geo.hex[c]),
                    side_name(p.side()),
                    p.kind(),
                    p.facing()
                )
            })
            .collect();
        Repr {
            turn: s.turn,
            to_move: side_name(s.side).into(),
            template: s.template,
            pieces,
            graveyard: s.graveyard,
            finish: s.finish,
            drawn: s.drawn,
        }
    }
}

impl TryFrom<Repr> for State {
    type Error = String;
    // A String error: serde's `try_from` wants an error it can print
    // into its own message (`Display`); that message is all that is kept.
    fn try_from(r: Repr) -> Result<State, String> {
        let geo = super::geometry();
        let side = parse_side(&r.to_move).ok_or("to_move is not white or black")?;
        let mut board = [0u8; CELLS];
        for p in &r.pieces {
            let w: Vec<&str> = p.split_whitespace().collect();
            let [hex, s, kind, facing] = w[..] else {
                return Err(format!("piece `{p}` does not read"));
            };
            let h = LABELS
                .parse(hex)
                .ok_or(format!("piece `{p}`: no hex {hex}"))?;
            let c = geo.cell(h).ok_or("off the board")? as usize;
            let s = parse_side(s).ok_or(format!("piece `{p}`: bad side"))?;
            let k: u8 = kind.parse().map_err(|_| format!("piece `{p}`: bad type"))?;
            let f = Dir::parse(facing).ok_or(format!("piece `{p}`: bad facing"))?;
            if board[c] != 0 || k >= 15 {
                return Err(format!("piece `{p}`: hex taken or bad type"));
            }
            board[c] = Piece::new(k, s, f).0;
        }
        Ok(State {
            board,
            side,
            turn: r.turn,
            template: r.template,
            graveyard: r.graveyard,
            finish: r.finish,
            drawn: r.drawn,
        })
    }
}

pub fn parse_side(s: &str) -> Option<u8> {
    match s.to_ascii_lowercase().as_str() {
        "white" => Some(WHITE),
        "black" => Some(BLACK),
        _ => None,
    }
}

impl State {
    /// An empty board, White to move on turn 1.
    pub fn empty(template: u8) -> State {
        State {
            board: [0; CELLS],
            side: WHITE,
            turn: 1,
            template,
            graveyard: [[0; 16]; 2],
            finish: None,
            drawn: false,
        }
    }

    /// The start of a scenario of the rules.
    pub fn scenario(rules: &Ruleset, setup: usize, template: u8) -> State {
        let mut st = State::empty(template);
        for p in &rules.scenarios[setup].pieces {
            let c = rules.geo.cell(p.at).expect("checked on load") as usize;
            st.board[c] = Piece::new(p.kind, rules.kinds[p.kind as usize].side, p.facing).0;
        }
        st
    }

    pub fn piece(&self, cell: usize) -> Option<Piece> {
        let b = self.board[cell];
        (b != 0).then_some(Piece(b))
    }

    pub fn is_over(&self) -> bool {
        self.finish.is_some() || self.drawn
    }

    /// The cell of `side`'s royal piece.
    pub fn royal(&self, rules: &Ruleset, side: u8) -> Option<usize> {
        (0..CELLS).find(|&c| {
            self.board[c] != 0 && {
                let p = Piece(self.board[c]);
                p.side() == side && rules.kinds[p.kind() as usize].royal
            }
        })
    }

    pub fn count(&self, side: u8) -> usize {
        self.board
            .iter()
            .filter(|&&b| b != 0 && Piece(b).side() == side)
            .count()
    }

    /// Every piece with its cell.
    pub fn pieces(&self) -> impl Iterator<Item = (usize, Piece)> + '_ {
        (0..CELLS).filter_map(|c| self.piece(c).map(|p| (c, p)))
    }
}

/// A `--setup` position file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Position {
    #[serde(default)]
    to_move: Option<String>,
    #[serde(default)]
    turn: Option<u16>,
    pieces: PositionPieces,
    #[serde(default)]
    graveyard: PositionGraveyard,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionPieces {
    #[serde(default)]
    white: Vec<String>,
    #[serde(default)]
    black: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionGraveyard {
    #[serde(default)]
    white: Vec<String>,
    #[serde(default)]
    black: Vec<String>,
}

/// Read a position file:
///
/// ```toml
/// to_move = "white"     # optional, default white
/// turn = 1              # optional, default 1
/// [pieces]
/// white = ["king c1 N", "orc d3 NE"]
/// black = ["necromancer e9 S"]
/// [graveyard]
/// black = ["skeleton"]
/// ```
pub fn from_position(
    rules: &Ruleset,
    text: &str,
    template: u8,
) -> Result<State, crate::games::RulesError> {
    let p: Position = toml::from_str(text).map_err(|e| BadPosition::Unreadable(Box::new(e)))?;
    let mut st = State::empty(template);
    if let Some(s) = &p.to_move {
        st.side = parse_side(s).ok_or_else(|| BadPosition::ToMove(s.clone()))?;
    }
    if let Some(t) = p.turn {
        if t == 0 || t as u32 > rules.turn_limit {
            return Err(BadPosition::Turn {
                turn: t,
                limit: rules.turn_limit,
            }
            .into());
        }
        st.turn = t;
    }
    let mut problems = Vec::new();
    for (side, list) in [(WHITE, &p.pieces.white), (BLACK, &p.pieces.black)] {
        for entry in list {
            if let Err(e) = place(rules, &mut st, side, entry) {
                problems.push(e.into());
            }
        }
    }
    for (side, list) in [(WHITE, &p.graveyard.white), (BLACK, &p.graveyard.black)] {
        for kind in list {
            match rules.find_kind(side, kind) {
                Some(k) => st.graveyard[side as usize][k as usize] += 1,
                None => problems.push(
                    BadPosition::Graveyard {
                        kind: kind.clone(),
                        side,
                    }
                    .into(),
                ),
            }
        }
    }
    for side in [WHITE, BLACK] {
        let royals = st
            .pieces()
            .filter(|(_, p)| p.side() == side && rules.kinds[p.kind() as usize].royal)
            .count();
        if royals != 1 {
            problems.push(BadPosition::Royals { side, royals }.into());
        }
    }
    if problems.is_empty() {
        Ok(st)
    } else {
        Err(crate::games::RulesError::joined(problems))
    }
}

/// Put the piece a position file's `entry` names on the board.
fn place(rules: &Ruleset, st: &mut State, side: u8, entry: &str) -> Result<(), BadPosition> {
    let at = |why| BadPosition::Entry {
        entry: entry.to_string(),
        why,
    };
    let w: Vec<&str> = entry.split_whitespace().collect();
    let [kind, hex, facing] = w[..] else {
        return Err(at(BadEntry::Form));
    };
    let Some(k) = rules.find_kind(side, kind) else {
        return Err(at(BadEntry::Kind {
            kind: kind.to_string(),
            side,
            ids: rules
                .kinds
                .iter()
                .filter(|k| k.side == side)
                .map(|k| k.id.clone())
                .collect(),
        }));
    };
    let Some(h) = LABELS.parse(hex) else {
        return Err(at(BadEntry::Hex(hex.to_string())));
    };
    let Some(f) = Dir::parse(facing) else {
        return Err(at(BadEntry::Facing(facing.to_string())));
    };
    let Some(c) = rules.geo.cell(h).map(|c| c as usize) else {
        return Err(at(BadEntry::Hex(hex.to_string())));
    };
    if st.board[c] != 0 {
        return Err(at(BadEntry::Taken(hex.to_string())));
    }
    st.board[c] = Piece::new(k, side, f).0;
    Ok(())
}

/// Why a HEXWAR position file (`--setup`) is refused.
#[derive(Debug)]
pub enum BadPosition {
    /// Not TOML of the position's shape.
    Unreadable(Box<toml::de::Error>),
    /// A `to_move` that names no side.
    ToMove(String),
    /// A turn outside 1 to the ruleset's limit.
    Turn { turn: u16, limit: u32 },
    /// A piece entry that does not place a piece.
    Entry { entry: String, why: BadEntry },
    /// A graveyard entry that names no piece type of the side.
    Graveyard { kind: String, side: u8 },
    /// A side without exactly one royal piece.
    Royals { side: u8, royals: usize },
}

/// Why a position file's piece entry places no piece.
#[derive(Debug)]
pub enum BadEntry {
    /// Not three words.
    Form,
    /// No piece type of the side (`ids`: the side's types).
    Kind {
        kind: String,
        side: u8,
        ids: Vec<String>,
    },
    Hex(String),
    Facing(String),
    Taken(String),
}

impl std::fmt::Display for BadPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadPosition::Unreadable(e) => write!(f, "the position file does not read: {e}"),
            BadPosition::ToMove(s) => write!(f, "to_move = {s:?}: say white or black"),
            BadPosition::Turn { turn, limit } => write!(f, "turn = {turn}: from 1 to {limit}"),
            BadPosition::Entry { entry, why } => match why {
                BadEntry::Form => write!(
                    f,
                    "`{entry}`: write `<piece> <hex> <facing>`, e.g. `orc d3 N`"
                ),
                BadEntry::Kind { kind, side, ids } => write!(
                    f,
                    "`{entry}`: {kind} is not a {} piece ({})",
                    side_name(*side),
                    ids.join(", ")
                ),
                BadEntry::Hex(hex) => write!(f, "`{entry}`: {hex} is not a hex of the board"),
                BadEntry::Facing(facing) => {
                    write!(f, "`{entry}`: facing {facing} is not N NE SE S SW NW")
                }
                BadEntry::Taken(hex) => write!(f, "`{entry}`: {hex} is taken already"),
            },
            BadPosition::Graveyard { kind, side } => {
                write!(f, "graveyard: {kind} is not a {} piece", side_name(*side))
            }
            BadPosition::Royals { side, royals } => write!(
                f,
                "{} needs exactly one royal piece on the board, not {royals}",
                side_name(*side)
            ),
        }
    }
}

crate::games::rules_error::rules_detail!(BadPosition, |self| K::Setup);
