//! Setting up a game: seats, start positions, balanced Shields, and games
//! started from a position file.

use super::play::Event;
use super::ruleset::Ruleset;
use super::state::{Core, Opts, Phase, Piece, SeatState, State, SLOTS};
use crate::board::{Hex, HexagonLabels};
use crate::games::RulesError;
use crate::rng::{self, ChaCha20Rng};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Ring positions (index into `Hex::ORIGIN.ring(radius)`, clockwise from the
/// north corner) of the Jarls, by seat in clockwise playing order.
pub fn jarl_positions(players: usize, radius: i32) -> Vec<Hex> {
    let ring = Hex::ORIGIN.ring(radius);
    let r = radius as usize;
    // corners, counted clockwise from north: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW
    let corners: Vec<usize> = match players {
        2 => vec![3, 0],
        3 => vec![3, 5, 1],
        4 => vec![3, 4, 0, 1],
        6 => vec![3, 4, 5, 0, 1, 2],
        _ => Vec::new(),
    };
    if !corners.is_empty() {
        return corners.into_iter().map(|c| ring[c * r]).collect();
    }
    // 5 players (or any other count): spread evenly round the ring from the
    // south corner, rounding to the nearest hex.
    let len = ring.len();
    (0..players)
        .map(|k| ring[(3 * r + (2 * k * len + players) / (2 * players)) % len])
        .collect()
}

/// The Warriors in front of a Jarl: the non-edge, non-Throne hexes nearest
/// the Jarl, then nearest the Throne, ties broken in the Jarl's own frame so
/// that every corner seat gets the same formation turned.
pub fn formation(jarl: Hex, radius: i32, warriors: usize) -> Vec<Hex> {
    let turn = -jarl.sextant();
    let mut cands: Vec<(i32, i32, Hex, Hex)> = Hex::spiral_area(radius - 1)
        .into_iter()
        .filter(|h| *h != Hex::ORIGIN)
        .map(|h| {
            let local = (h - jarl).rotate(turn);
            (h.distance(jarl), h.length(), local, h)
        })
        .collect();
    cands.sort();
    cands.into_iter().take(warriors).map(|c| c.3).collect()
}

/// How far apart the players' sorted Jarl–Shield distance lists are: the sum
/// over ranks of the spread between the largest and smallest player's value.
fn imbalance(jarls: &[Hex], shields: &[Hex], scratch: &mut [Vec<i32>]) -> i32 {
    for (k, j) in jarls.iter().enumerate() {
        let d = &mut scratch[k];
        d.clear();
        d.extend(shields.iter().map(|s| s.distance(*j)));
        d.sort_unstable();
    }
    (0..shields.len())
        .map(|i| {
            let (mut lo, mut hi) = (i32::MAX, i32::MIN);
            for d in scratch.iter().take(jarls.len()) {
                lo = lo.min(d[i]);
                hi = hi.max(d[i]);
            }
            hi - lo
        })
        .sum()
}

/// The least imbalance reachable and every placement that reaches it.
#[derive(Debug)]
pub struct Placements {
    pub imbalance: i32,
    pub sets: Vec<Vec<Hex>>,
}

type Key = (i32, Vec<Hex>, Vec<Hex>, usize);

/// All the best-balanced placements of `count` Shields, given the Jarls and
/// the occupied hexes. They depend only on the geometry, so they are worked
/// out once per process and kept.
pub fn placements(radius: i32, jarls: &[Hex], occupied: &[Hex], count: usize) -> Arc<Placements> {
    static MEMO: OnceLock<Mutex<BTreeMap<Key, Arc<Placements>>>> = OnceLock::new();
    let key: Key = (radius, jarls.to_vec(), occupied.to_vec(), count);
    let memo = MEMO.get_or_init(|| Mutex::new(BTreeMap::new()));
    if let Some(p) = memo.lock().expect("memo lock").get(&key) {
        return p.clone();
    }
    let p = Arc::new(search(radius, jarls, occupied, count));
    memo.lock().expect("memo lock").insert(key, p.clone());
    p
}

fn search(radius: i32, jarls: &[Hex], occupied: &[Hex], count: usize) -> Placements {
    let cands: Vec<Hex> = Hex::spiral_area(radius - 1)
        .into_iter()
        .filter(|h| *h != Hex::ORIGIN && !occupied.contains(h))
        .collect();
    let mut best = Placements {
        imbalance: i32::MAX,
        sets: Vec::new(),
    };
    if count == 0 {
        best.imbalance = 0;
        best.sets.push(Vec::new());
        return best;
    }
    if count > cands.len() {
        return best;
    }
    // Hexes on a Jarl's lines to the Throne, for the free-line rule.
    let mut scratch = vec![Vec::with_capacity(count); jarls.len()];
    let mut idx: Vec<usize> = (0..count).collect();
    let mut set = vec![Hex::ORIGIN; count];
    loop {
        for (k, &i) in idx.iter().enumerate() {
            set[k] = cands[i];
        }
        let imb = imbalance(jarls, &set, &mut scratch);
        if imb <= best.imbalance && jarls.iter().all(|&j| State::free_line(&set, j)) {
            if imb < best.imbalance {
                best.imbalance = imb;
                best.sets.clear();
            }
            best.sets.push(set.clone());
        }
        // next combination
        let mut k = count;
        loop {
            if k == 0 {
                return best;
            }
            k -= 1;
            if idx[k] != k + cands.len() - count {
                break;
            }
            if k == 0 && idx[0] == cands.len() - count {
                return best;
            }
        }
        idx[k] += 1;
        for j in k + 1..count {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

pub fn parse_options(options: &BTreeMap<String, String>) -> Result<Opts, RulesError> {
    let mut o = Opts::default();
    for (k, v) in options {
        let b = crate::games::parse_bool(k, v)?;
        match k.as_str() {
            "fog" => o.fog = b,
            "draft_shields" => o.draft_shields = b,
            "sudden_death" => o.sudden_death = b,
            "teams" => o.teams = b,
            _ => return Err(SetupError::NoOption { name: k.clone() }.into()),
        }
    }
    Ok(o)
}

fn seats(players: usize, opts: &Opts) -> Result<Vec<SeatState>, SetupError> {
    if opts.teams && players != 4 && players != 6 {
        return Err(SetupError::Teams {
            value: None,
            players,
        });
    }
    Ok((0..players)
        .map(|i| SeatState {
            alive: true,
            team: if opts.teams { (i % 2) as u8 } else { i as u8 },
            starving: false,
            starve_preference: Vec::new(),
        })
        .collect())
}

fn empty_pieces(players: usize) -> Vec<Piece> {
    (0..players * SLOTS)
        .map(|i| Piece {
            seat: (i / SLOTS) as u8,
            number: (i % SLOTS) as u8,
            at: None,
        })
        .collect()
}

fn core(radius: i32, opts: Opts, seats: Vec<SeatState>, pieces: Vec<Piece>) -> Core {
    Core {
        grid_radius: radius,
        radius,
        options: opts,
        seats,
        pieces,
        shields: Vec::new(),
        phase: Phase::Move,
        shield_order: Vec::new(),
        round: 1,
        order: Vec::new(),
        next: 0,
        stalemate: 0,
        eliminated_this_round: false,
        winners: None,
        result: None,
    }
}

/// The standard start: Jarls on the edge, Warriors in front, Shields drawn
/// at random among the best-balanced placements (or drafted by the players).
///
/// Long (about 90 lines): the standard start in the rules' order (Jarls,
/// Warriors, then the Shields drawn or left to the draft), each step on the
/// pieces placed before it.
pub fn standard(
    rules: &Ruleset,
    players: usize,
    opts: Opts,
    rng: &mut ChaCha20Rng,
) -> Result<(State, Vec<String>), RulesError> {
    let sc = rules
        .scaling_for(players)
        .ok_or_else(|| SetupError::seats("Norse Wars", rules, players))?;
    let radius = sc.radius;
    let jarls = jarl_positions(players, radius);
    let mut pieces = empty_pieces(players);
    let mut occupied = Vec::new();
    for (seat, &j) in jarls.iter().enumerate() {
        pieces[State::slot(seat, 0)].at = Some(j);
        occupied.push(j);
        let f = formation(j, radius, sc.warriors as usize);
        for (k, h) in f.into_iter().enumerate() {
            if occupied.contains(&h) {
                return Err(SetupError::Overlap { players, radius }.into());
            }
            pieces[State::slot(seat, k as u8 + 1)].at = Some(h);
            occupied.push(h);
        }
    }
    occupied.sort();
    let seats = seats(players, &opts)?;
    let mut st = State::from_core(core(radius, opts, seats, pieces))?;
    let labels = HexagonLabels { radius };
    let mut notes = vec![format!(
        "board radius {radius} ({} hexes), {} Warriors each",
        3 * radius * radius + 3 * radius + 1,
        sc.warriors
    )];
    let mut ev: Vec<Event> = Vec::new();
    if opts.draft_shields {
        let order = st.round_order();
        let mut draft = Vec::new();
        for k in 0..sc.shields {
            draft.push(order[order.len() - 1 - (k % order.len())]);
        }
        st.shield_order = draft;
        st.phase = Phase::Shields;
        notes.push(format!(
            "{} Shields to be drafted in reverse turn order",
            sc.shields
        ));
    } else {
        let found = placements(radius, &jarls, &occupied, sc.shields);
        let set = rng::pick(rng, &found.sets).ok_or(SetupError::NoPlacement)?;
        for &h in set {
            st.add_shield(h);
        }
        let dists: Vec<i32> = {
            let mut d: Vec<i32> = set.iter().map(|s| s.distance(jarls[0])).collect();
            d.sort();
            d
        };
        let where_: Vec<String> = st.shields.iter().map(|h| labels.label(*h)).collect();
        if found.imbalance == 0 {
            notes.push(format!(
                "{} Shields (the rules' table says {}) at {}: exactly balanced, every Jarl sees Shield distances {:?} (one of {} balanced placements)",
                sc.shields, sc.table_shields, where_.join(" "), dists, found.sets.len()
            ));
        } else {
            notes.push(format!(
                "{} Shields at {}: no exact balance exists for {players} players; this placement is one of {} that differ least (total spread {} hexes)",
                sc.shields, where_.join(" "), found.sets.len(), found.imbalance
            ));
        }
        st.begin(rules, &mut ev);
    }
    if opts.teams {
        notes
            .push("teams: seats 1, 3, 5 against seats 2, 4, 6 (teammates start apart)".to_string());
    }
    Ok((st, notes))
}

/// A position file for `--setup`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Position {
    radius: Option<i32>,
    to_move: Option<String>,
    round: Option<u32>,
    stalemate: Option<u32>,
    #[serde(default)]
    shields: Vec<String>,
    pieces: BTreeMap<String, Vec<String>>,
}

/// Start from a position file: pieces per hex, whose turn. Validated like
/// everything else; every problem is listed.
///
/// Long (about 160 lines): every check of a position file, each adding to one
/// list of problems so that all are told at once.
pub fn from_position(
    rules: &Ruleset,
    players: &[String],
    opts: Opts,
    text: &str,
) -> Result<(State, Vec<String>), RulesError> {
    let pos: Position = toml::from_str(text).map_err(|e| SetupError::Unreadable(Box::new(e)))?;
    let n = players.len();
    let radius = match pos.radius {
        Some(r) => r,
        None => rules
            .scaling_for(n)
            .map(|s| s.radius)
            .ok_or(SetupError::RadiusNeeded { players: n })?,
    };
    if !(1..=12).contains(&radius) {
        return Err(SetupError::Radius { radius }.into());
    }
    let labels = HexagonLabels { radius };
    let mut problems: Vec<RulesError> = Vec::new();
    let mut pieces = empty_pieces(n);
    let mut taken: BTreeMap<Hex, Standing> = BTreeMap::new();
    let mut take = |h: Hex, what: Standing, problems: &mut Vec<RulesError>| {
        if let Some(other) = taken.get(&h) {
            problems.push(
                BadPosition::Both {
                    first: other.clone(),
                    second: what,
                    at: labels.label(h),
                }
                .into(),
            );
        } else {
            taken.insert(h, what);
        }
    };
    let mut shields = Vec::new();
    for s in &pos.shields {
        match labels.parse(s) {
            Some(h) if h == Hex::ORIGIN => {
                problems.push(BadPosition::ShieldOnThrone(s.clone()).into())
            }
            Some(h) => {
                take(h, Standing::Shield(s.clone()), &mut problems);
                shields.push(h);
            }
            None => problems.push(
                BadPosition::ShieldHex {
                    word: s.clone(),
                    radius,
                }
                .into(),
            ),
        }
    }
    for id in pos.pieces.keys() {
        if !players.contains(id) {
            problems.push(
                BadPosition::NotAPlayer {
                    id: id.clone(),
                    players: players.to_vec(),
                }
                .into(),
            );
        }
    }
    for (seat, id) in players.iter().enumerate() {
        let Some(list) = pos.pieces.get(id) else {
            problems.push(BadPosition::NoLine(id.clone()).into());
            continue;
        };
        let mut has_jarl = false;
        let at = |why| -> RulesError {
            BadPosition::Entry {
                player: id.clone(),
                why,
            }
            .into()
        };
        for entry in list {
            let parts: Vec<&str> = entry.split_whitespace().collect();
            let [name, hex] = parts[..] else {
                problems.push(at(BadEntry::Form(entry.clone())));
                continue;
            };
            let Some(number) = super::parse_piece(name) else {
                problems.push(at(BadEntry::Piece(name.to_string())));
                continue;
            };
            let Some(h) = labels.parse(hex) else {
                problems.push(at(BadEntry::Hex {
                    word: hex.to_string(),
                    radius,
                }));
                continue;
            };
            if number != 0 && h == Hex::ORIGIN {
                problems.push(at(BadEntry::Throne(hex.to_string())));
            }
            let slot = State::slot(seat, number);
            if pieces[slot].at.is_some() {
                problems.push(at(BadEntry::Twice(name.to_string())));
                continue;
            }
            has_jarl |= number == 0;
            take(
                h,
                Standing::Piece {
                    player: id.clone(),
                    name: name.to_string(),
                },
                &mut problems,
            );
            pieces[slot].at = Some(h);
        }
        if !has_jarl {
            problems.push(at(BadEntry::NoJarl));
        }
    }
    let seats = seats(n, &opts).unwrap_or_else(|e| {
        problems.push(e.into());
        Vec::new()
    });
    let to_move = match &pos.to_move {
        Some(p) => match players.iter().position(|x| x == p) {
            Some(s) => s,
            None => {
                problems.push(BadPosition::ToMove(p.clone()).into());
                0
            }
        },
        None => 0,
    };
    if !problems.is_empty() {
        return Err(RulesError::lines(problems));
    }
    let mut c = core(radius, opts, seats, pieces);
    c.shields = shields;
    c.shields.sort();
    c.stalemate = pos.stalemate.unwrap_or(0);
    let mut st = State::from_core(c)?;
    st.round = pos.round.unwrap_or(1).max(1);
    // The round's order starts with the seat to move.
    let order = st.round_order();
    let n_alive = order.len();
    st.order = (0..n)
        .map(|k| ((to_move + k) % n) as u8)
        .filter(|&s| st.seats[s as usize].alive)
        .collect();
    debug_assert_eq!(st.order.len(), n_alive);
    st.next = 0;
    let mut ev = Vec::new();
    st.phase = Phase::Move;
    st.seek(rules, &mut ev);
    Ok((
        st,
        vec![format!(
            "started from a position file: radius {radius}, {} to move",
            players[to_move]
        )],
    ))
}

/// Why a Norse Wars game cannot start so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// An option the game does not have.
    NoOption {
        name: String,
    },
    /// Team mode for a player count other than 4 or 6 (`value`: as given
    /// with `--option teams=…`, where it was).
    Teams {
        value: Option<String>,
        players: usize,
    },
    /// A player count the ruleset's scaling table has no row for.
    Seats {
        game: &'static str,
        counts: Vec<usize>,
        players: usize,
    },
    Overlap {
        players: usize,
        radius: i32,
    },
    NoPlacement,
    /// The position file is not TOML of the shape.
    Unreadable(Box<toml::de::Error>),
    RadiusNeeded {
        players: usize,
    },
    Radius {
        radius: i32,
    },
}

impl SetupError {
    pub fn seats(game: &'static str, rules: &Ruleset, players: usize) -> SetupError {
        SetupError::Seats {
            game,
            counts: rules.scaling.iter().map(|s| s.players).collect(),
            players,
        }
    }
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::NoOption { name } => write!(
                f,
                "Norse Wars has no option `{name}`; its options are fog, draft_shields, sudden_death, teams"
            ),
            SetupError::Teams { value: None, players } => {
                write!(f, "team mode needs 4 or 6 players, not {players}")
            }
            SetupError::Teams {
                value: Some(v),
                players,
            } => write!(
                f,
                "option teams={v}: team mode needs 4 or 6 players, not {players}"
            ),
            SetupError::Seats {
                game,
                counts,
                players,
            } => {
                let counts: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
                write!(f, "{game} seats {} players, not {players}", counts.join(", "))
            }
            SetupError::Overlap { players, radius } => write!(
                f,
                "the start formations of {players} players overlap on radius {radius}"
            ),
            SetupError::NoPlacement => {
                f.write_str("no Shield placement satisfies the rules on this board")
            }
            SetupError::Unreadable(e) => {
                write!(f, "the position file does not read: {}", e.message())
            }
            SetupError::RadiusNeeded { players } => {
                write!(f, "say `radius = …`: no table row for {players} players")
            }
            SetupError::Radius { radius } => write!(f, "radius {radius} is outside 1..=12"),
        }
    }
}

crate::games::rules_error::rules_detail!(SetupError, |self| match self {
    SetupError::NoOption { .. } | SetupError::Teams { .. } => K::BadOption,
    _ => K::Setup,
});

/// What stands on a hex of a position file: a Shield (as its hex was
/// written) or a player's piece.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    Shield(String),
    Piece { player: String, name: String },
}

impl std::fmt::Display for Standing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Standing::Shield(s) => write!(f, "the Shield on {s}"),
            Standing::Piece { player, name } => write!(f, "{player} {name}"),
        }
    }
}

/// Why a Norse Wars position file (`--setup`) is refused: each problem
/// found, told one a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadPosition {
    /// Two things on one hex (`at`: its label).
    Both {
        first: Standing,
        second: Standing,
        at: String,
    },
    ShieldOnThrone(String),
    /// A Shield's hex that is not one of the board.
    ShieldHex {
        word: String,
        radius: i32,
    },
    /// A `[pieces]` key that is not a player.
    NotAPlayer {
        id: String,
        players: Vec<String>,
    },
    /// A player without a `[pieces]` line.
    NoLine(String),
    /// A problem with a player's pieces.
    Entry {
        player: String,
        why: BadEntry,
    },
    /// A `to_move` that is not a player.
    ToMove(String),
}

/// Why a player's piece entries do not place their pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadEntry {
    /// Not a piece and a hex.
    Form(String),
    Piece(String),
    Hex {
        word: String,
        radius: i32,
    },
    /// A Warrior on the Throne (its hex as written).
    Throne(String),
    Twice(String),
    NoJarl,
}

impl std::fmt::Display for BadPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadPosition::Both { first, second, at } => {
                write!(f, "{first} and {second} both stand on {at}")
            }
            BadPosition::ShieldOnThrone(s) => {
                write!(f, "a Shield cannot stand on the Throne ({s})")
            }
            BadPosition::ShieldHex { word, radius } => {
                write!(f, "shield `{word}` is not a hex of a radius-{radius} board")
            }
            BadPosition::NotAPlayer { id, players } => write!(
                f,
                "[pieces] names `{id}`, who is not a player ({})",
                players.join(", ")
            ),
            BadPosition::NoLine(id) => write!(f, "[pieces] has no line for {id}"),
            BadPosition::Entry { player: id, why } => match why {
                BadEntry::Form(entry) => write!(
                    f,
                    "{id}: `{entry}` should be a piece and a hex, like `W1 d3`"
                ),
                BadEntry::Piece(name) => write!(f, "{id}: `{name}` is not a piece (J, W1 … W9)"),
                BadEntry::Hex { word, radius } => {
                    write!(f, "{id}: `{word}` is not a hex of a radius-{radius} board")
                }
                BadEntry::Throne(hex) => {
                    write!(f, "{id}: a Warrior cannot stand on the Throne ({hex})")
                }
                BadEntry::Twice(name) => write!(f, "{id} has two pieces called {name}"),
                BadEntry::NoJarl => write!(f, "{id} has no Jarl (J)"),
            },
            BadPosition::ToMove(p) => write!(f, "to_move = \"{p}\" is not a player"),
        }
    }
}

crate::games::rules_error::rules_detail!(BadPosition, |self| K::Setup);
