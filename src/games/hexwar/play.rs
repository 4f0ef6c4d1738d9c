//! Orders, turn templates and turns: which actions a player's orders make
//! under the active template, why an order is refused and what is legal
//! instead, and playing a whole turn.

use super::movegen::Action;
use super::piece::Piece;
use super::refusal::{
    self, Instead, Landing, Movable, MoveRefused, Pattern, RebirthRefused, Spot, TurnRefused,
    WhyNot,
};
use super::ruleset::{side_name, Movement, Ruleset};
use super::state::{label, How, State, LABELS};
use crate::board::{Dir, Hex};
use crate::games::{Problem, RulesError};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One line of a HEXWAR order file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Order {
    /// `move d2 d5`
    Move { from: Hex, to: Hex },
    /// `rotate d5 NE`
    Rotate { at: Hex, facing: Dir },
    /// `rebirth c8` (or `rebirth c8 skeleton` when several types could)
    Rebirth { at: Hex, kind: Option<(u8, String)> },
    /// `pass`: no action this turn.
    Pass,
    /// `surrender`: the other side wins.
    Surrender,
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Move { from, to } => write!(f, "move {} {}", label(*from), label(*to)),
            Order::Rotate { at, facing } => write!(f, "rotate {} {}", label(*at), facing),
            Order::Rebirth { at, kind: None } => write!(f, "rebirth {}", label(*at)),
            Order::Rebirth {
                at,
                kind: Some((_, k)),
            } => write!(f, "rebirth {} {}", label(*at), k),
            Order::Pass => f.write_str("pass"),
            Order::Surrender => f.write_str("surrender"),
        }
    }
}

const NOTATION: &str = "orders are `move <from> <to>`, `rotate <hex> <facing>`, `rebirth <hex>`, `pass` or `surrender`, e.g. `move d2 d5`";

/// Why a HEXWAR order line does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderError {
    /// A word that is no hex of the board.
    NotAHex { word: String },
    /// An order with the wrong number of words: its form.
    Form { form: &'static str },
    /// A word that is no facing.
    NotAFacing { word: String },
    /// A rebirth naming a piece type the player has none of.
    NotYourKind { word: String },
    /// A rotation of a hex holding none of the player's pieces.
    NoPieceToRotate { hex: String },
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderError::NotAHex { word } => write!(
                f,
                "`{word}` is not a hex of the board (files a–i from the west, ranks from 1 at each file's south end; e5 is the centre)"
            ),
            OrderError::Form { form } => write!(f, "write `{form}`"),
            OrderError::NotAFacing { word } => {
                write!(f, "`{word}` is not a facing; facings are N NE SE S SW NW")
            }
            OrderError::NotYourKind { word } => {
                write!(f, "`{word}` is not one of your piece types")
            }
            OrderError::NoPieceToRotate { hex } => {
                write!(f, "you have no piece on {hex} to rotate")
            }
        }
    }
}

crate::games::rules_error::rules_detail!(OrderError, |self| match self {
    OrderError::NotYourKind { .. } => K::UnknownPiece,
    OrderError::NoPieceToRotate { .. } => K::NotYours,
    _ => K::Malformed,
});

fn hex_word(w: &str) -> Result<Hex, OrderError> {
    LABELS.parse(w).ok_or_else(|| OrderError::NotAHex {
        word: w.to_string(),
    })
}

pub fn parse(rules: &Ruleset, st: &State, line: &str) -> Result<Order, RulesError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Err(RulesError::EmptyOrder { accepted: NOTATION });
    };
    let verb = first.to_ascii_lowercase();
    let want = |n: usize, form: &'static str| -> Result<(), OrderError> {
        if words.len() != n {
            Err(OrderError::Form { form })
        } else {
            Ok(())
        }
    };
    match verb.as_str() {
        "move" => {
            want(3, "move <from> <to>, e.g. `move d2 d5`")?;
            Ok(Order::Move {
                from: hex_word(words[1])?,
                to: hex_word(words[2])?,
            })
        }
        "rotate" => {
            want(3, "rotate <hex> <facing>, e.g. `rotate d5 NE`")?;
            let facing = Dir::parse(words[2]).ok_or_else(|| OrderError::NotAFacing {
                word: words[2].to_string(),
            })?;
            Ok(Order::Rotate {
                at: hex_word(words[1])?,
                facing,
            })
        }
        "rebirth" | "resurrect" => {
            if !(2..=3).contains(&words.len()) {
                return Err(OrderError::Form {
                    form: "rebirth <hex>`, e.g. `rebirth e8",
                }
                .into());
            }
            let at = hex_word(words[1])?;
            let kind = match words.get(2) {
                None => None,
                Some(w) => {
                    let k = rules
                        .find_kind(st.side, w)
                        .ok_or_else(|| OrderError::NotYourKind {
                            word: w.to_string(),
                        })?;
                    Some((k, rules.kinds[k as usize].id.clone()))
                }
            };
            Ok(Order::Rebirth { at, kind })
        }
        "pass" => {
            want(1, "pass")?;
            Ok(Order::Pass)
        }
        "surrender" | "resign" => {
            want(1, "surrender")?;
            Ok(Order::Surrender)
        }
        _ => Err(RulesError::NotAnOrder {
            word: first.to_string(),
            accepted: NOTATION,
        }),
    }
}

/// The order that writes an action.
pub fn order_of(rules: &Ruleset, st: &State, a: Action) -> Order {
    let hex = |c: u8| rules.geo.hex[c as usize];
    match a {
        Action::Move { from, to } => Order::Move {
            from: hex(from),
            to: hex(to),
        },
        Action::Rotate { at, facing } => Order::Rotate {
            at: hex(at),
            facing: Dir::ALL[facing as usize],
        },
        Action::Rebirth { kind, at } => {
            let types = rules
                .kinds
                .iter()
                .enumerate()
                .filter(|(k, t)| {
                    t.rebirth && t.side == st.side && st.graveyard[st.side as usize][*k] > 0
                })
                .count();
            Order::Rebirth {
                at: hex(at),
                kind: (types > 1).then(|| (kind, rules.kinds[kind as usize].id.clone())),
            }
        }
    }
}

/// What the piece on `from` can do, as hex labels.
fn targets(rules: &Ruleset, st: &State, from: usize) -> Vec<String> {
    let mut v = Vec::new();
    st.piece_moves(rules, from, &mut v);
    v.iter()
        .map(|a| match a {
            Action::Move { to, .. } => label(rules.geo.hex[*to as usize]),
            _ => String::new(),
        })
        .collect()
}

fn movable_list(rules: &Ruleset, st: &State) -> Movable {
    let mut parts = Vec::new();
    for (c, p) in st.pieces() {
        if p.side() != st.side {
            continue;
        }
        let t = targets(rules, st, c);
        if !t.is_empty() {
            parts.push((
                rules.kinds[p.kind() as usize].name.clone(),
                label(rules.geo.hex[c]),
                t,
            ));
        }
    }
    Movable(parts)
}

fn piece_name(rules: &Ruleset, p: Piece) -> String {
    rules.kinds[p.kind() as usize].name.clone()
}

/// Why `move from to` is not legal now, and what is.
fn explain_move(rules: &Ruleset, st: &State, from: Hex, to: Hex) -> MoveRefused {
    let geo = &rules.geo;
    let fc = geo.cell(from).expect("a board hex") as usize;
    // An enemy piece is answered as an empty hex is: an order never
    // learns what stands where it names (issue 7).
    let Some(p) = st.piece(fc).filter(|p| p.side() == st.side) else {
        return MoveRefused::NoPiece {
            at: label(from),
            movable: movable_list(rules, st),
        };
    };
    let kind = &rules.kinds[p.kind() as usize];
    let facing = p.facing();
    let tc = geo.cell(to).expect("a board hex") as usize;
    let pattern = Pattern {
        name: kind.name.clone(),
        movement: kind.movement,
        relative: kind.relative,
        allowed: Dir::ALL
            .into_iter()
            .filter(|d| kind.absolute[facing.index()] & (1 << d.index()) != 0)
            .collect(),
        facing,
    };
    let why = if from == to {
        WhyNot::Stay
    } else {
        match kind.movement {
            Movement::Jump(n) => jump_why(rules, st, p, (fc, tc), n, pattern),
            Movement::Step(_) | Movement::Slide => line_why(rules, st, p, (fc, tc), pattern),
        }
    };
    let t = targets(rules, st, fc);
    MoveRefused::Piece {
        why,
        instead: Instead {
            name: kind.name.clone(),
            from: label(from),
            movable: if t.is_empty() {
                movable_list(rules, st)
            } else {
                Movable::default()
            },
            targets: t,
        },
    }
}

/// Why a jumping piece on cell `fc` may not land on `tc`.
fn jump_why(
    rules: &Ruleset,
    st: &State,
    p: Piece,
    (fc, tc): (usize, usize),
    n: u8,
    pattern: Pattern,
) -> WhyNot {
    let (from, to) = (rules.geo.hex[fc], rules.geo.hex[tc]);
    let dist = from.distance(to);
    let kind = &rules.kinds[p.kind() as usize];
    if dist != n as i32 {
        WhyNot::JumpDistance {
            pattern,
            n,
            to: label(to),
            dist,
        }
    } else if !kind.jumps[fc * 6 + p.facing().index()].contains(&(tc as u8)) {
        WhyNot::JumpDirection {
            pattern,
            to: label(to),
        }
    } else {
        WhyNot::Landing(landing(rules, st, p, tc))
    }
}

/// Why a stepping or sliding piece on cell `fc` may not go to `tc`.
fn line_why(
    rules: &Ruleset,
    st: &State,
    p: Piece,
    (fc, tc): (usize, usize),
    pattern: Pattern,
) -> WhyNot {
    let geo = &rules.geo;
    let (from, to) = (geo.hex[fc], geo.hex[tc]);
    let dist = from.distance(to);
    let kind = &rules.kinds[p.kind() as usize];
    let dir = Dir::ALL.into_iter().find(|d| from.steps(*d, dist) == to);
    match dir {
        None => WhyNot::NotStraight {
            pattern,
            from: label(from),
            to: label(to),
        },
        Some(d) if kind.absolute[p.facing().index()] & (1 << d.index()) == 0 => {
            WhyNot::Direction { pattern, dir: d }
        }
        Some(_) if matches!(kind.movement, Movement::Step(n) if dist > n as i32) => {
            WhyNot::TooFar {
                n: match kind.movement {
                    Movement::Step(n) => n,
                    _ => 0,
                },
                pattern,
                to: label(to),
                dist,
            }
        }
        Some(d) => {
            let mut c = fc;
            for _ in 1..dist {
                c = geo.next[c * 6 + d.index()] as usize;
                if st.board[c] != 0 {
                    return WhyNot::InTheWay {
                        piece: piece_name(rules, Piece(st.board[c])),
                        at: label(geo.hex[c]),
                    };
                }
            }
            WhyNot::Landing(landing(rules, st, p, tc))
        }
    }
}

/// Why a piece may not end its move on `cell`.
fn landing(rules: &Ruleset, st: &State, p: Piece, cell: usize) -> Landing {
    let at = label(rules.geo.hex[cell]);
    match st.piece(cell) {
        None => Landing::NotOpen,
        Some(t) if t.side() == p.side() => Landing::OwnPiece {
            at,
            piece: piece_name(rules, t),
        },
        Some(t) if rules.kinds[t.kind() as usize].phased => Landing::TargetPhased {
            at,
            piece: piece_name(rules, t),
        },
        Some(_) if rules.kinds[p.kind() as usize].phased => Landing::Phased {
            piece: piece_name(rules, p),
        },
        Some(_) => Landing::NotOpen,
    }
}

fn explain_rebirth(rules: &Ruleset, st: &State, at: Hex, kind: Option<u8>) -> RebirthRefused {
    let side = st.side as usize;
    let ready: Vec<usize> = rules
        .kinds
        .iter()
        .enumerate()
        .filter(|(k, t)| t.rebirth && t.side == st.side && st.graveyard[side][*k] > 0)
        .map(|(k, _)| k)
        .collect();
    let able: Vec<String> = rules
        .kinds
        .iter()
        .filter(|t| t.rebirth && t.side == st.side)
        .map(|t| t.name.clone())
        .collect();
    if able.is_empty() {
        return RebirthRefused::NoneCan {
            army: rules.army(st.side).name.clone(),
            movable: movable_list(rules, st),
        };
    }
    if ready.is_empty() {
        return RebirthRefused::EmptyGraveyard {
            able,
            movable: movable_list(rules, st),
        };
    }
    if let Some(k) = kind {
        if !ready.contains(&(k as usize)) {
            return RebirthRefused::NotInGraveyard {
                kind: rules.kinds[k as usize].name.clone(),
            };
        }
    } else if ready.len() > 1 {
        return RebirthRefused::SayWhich {
            at: label(at),
            ids: ready.iter().map(|k| rules.kinds[*k].id.clone()).collect(),
        };
    }
    let royal = st.royal(rules, st.side).expect("a royal piece");
    let mut v = Vec::new();
    st.rebirths(rules, &mut v);
    let mut spots: Vec<String> = v
        .iter()
        .filter_map(|a| match a {
            Action::Rebirth { at, .. } => Some(label(rules.geo.hex[*at as usize])),
            _ => None,
        })
        .collect();
    spots.dedup();
    RebirthRefused::Spot {
        at: label(at),
        why: if at.distance(rules.geo.hex[royal]) != 1 {
            Spot::NotNext {
                royal_at: label(rules.geo.hex[royal]),
            }
        } else {
            Spot::NotEmpty
        },
        royal: piece_name(rules, Piece(st.board[royal])),
        spots,
    }
}

/// The action an order stands for, if it is legal on `st` (the position
/// after the turn's earlier actions); else why not.
fn action(rules: &Ruleset, st: &State, o: &Order) -> Result<Action, RulesError> {
    let cell = |h: Hex| rules.geo.cell(h).expect("parsed hexes are on the board");
    match o {
        Order::Move { from, to } => {
            let a = Action::Move {
                from: cell(*from),
                to: cell(*to),
            };
            if st.is_legal(rules, a) {
                Ok(a)
            } else {
                Err(TurnRefused::Move(explain_move(rules, st, *from, *to)).into())
            }
        }
        Order::Rebirth { at, kind } => {
            let mut v = Vec::new();
            st.rebirths(rules, &mut v);
            let at_c = cell(*at);
            let found = v.iter().copied().find(|a| match a {
                Action::Rebirth { kind: k, at: c } => {
                    *c == at_c && kind.as_ref().is_none_or(|(want, _)| want == k)
                }
                _ => false,
            });
            let ready = rules
                .kinds
                .iter()
                .enumerate()
                .filter(|(k, t)| {
                    t.rebirth && t.side == st.side && st.graveyard[st.side as usize][*k] > 0
                })
                .count();
            match found {
                Some(a) if kind.is_some() || ready == 1 => Ok(a),
                _ => Err(TurnRefused::Rebirth(explain_rebirth(
                    rules,
                    st,
                    *at,
                    kind.as_ref().map(|k| k.0),
                ))
                .into()),
            }
        }
        Order::Rotate { at, facing } => {
            let c = cell(*at);
            let a = Action::Rotate {
                at: c,
                facing: facing.index() as u8,
            };
            let none = || OrderError::NoPieceToRotate { hex: label(*at) }.into();
            match st.piece(c as usize) {
                None => Err(none()),
                Some(p) if p.side() != st.side => Err(none()),
                // A rotation to the present facing is an action that
                // changes nothing (games/hexwar.md, "Rotate").
                Some(_) => Ok(a),
            }
        }
        Order::Pass | Order::Surrender => unreachable!("handled by plan"),
    }
}

/// The earlier orders order `k` builds on: the last one before it that
/// brought a piece to the hex it moves or turns (a move or a rebirth).
pub fn builds_on(orders: &[Order], k: usize) -> Vec<usize> {
    let at = match orders.get(k) {
        Some(Order::Move { from, .. }) => *from,
        Some(Order::Rotate { at, .. }) => *at,
        _ => return Vec::new(),
    };
    orders[..k]
        .iter()
        .rposition(|o| match o {
            Order::Move { to, .. } => *to == at,
            Order::Rebirth { at: h, .. } => *h == at,
            _ => false,
        })
        .into_iter()
        .collect()
}

/// What a player's orders amount to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    Actions(Vec<Action>),
    Pass,
    Surrender,
}

/// Fit the orders to the active template and check each action on the
/// position the earlier ones leave. Every problem is listed.
///
/// Long (about 85 lines): the orders fitted to the template's slots, then each
/// action checked on the position the earlier ones leave; both passes add to
/// one list of problems, so every problem is told at once.
pub fn plan(rules: &Ruleset, st: &State, orders: &[Order]) -> Result<Plan, Vec<Problem>> {
    let template = &rules.templates[st.template as usize];
    let mut problems = Vec::new();
    if orders.is_empty() {
        return Err(vec![Problem::whole(TurnRefused::NoOrders {
            template: template.clone(),
        })]);
    }
    for (i, o) in orders.iter().enumerate() {
        if matches!(o, Order::Pass | Order::Surrender) && orders.len() > 1 {
            let surrender = *o == Order::Surrender;
            problems.push(Problem::at(i, TurnRefused::StandsAlone { surrender }));
        }
    }
    match orders[0] {
        Order::Pass if orders.len() == 1 => return Ok(Plan::Pass),
        Order::Surrender if orders.len() == 1 => return Ok(Plan::Surrender),
        _ => {}
    }
    // The actions are checked even beside a `pass` or `surrender` told
    // above, so that one answer names every problem.
    let mut sim = st.clone();
    let mut next_slot = 0;
    let mut actions = Vec::new();
    for (i, o) in orders.iter().enumerate() {
        if matches!(o, Order::Pass | Order::Surrender) {
            continue;
        }
        if sim.is_over() {
            // The turn's earlier action captured the enemy's royal piece:
            // the game is over and the rest of the turn is void.
            break;
        }
        let is_move = matches!(o, Order::Move { .. } | Order::Rebirth { .. });
        let slot = (next_slot..template.slots.len()).find(|&j| {
            let s = template.slots[j];
            if is_move {
                s.takes_move()
            } else {
                s.takes_rotate()
            }
        });
        let Some(j) = slot else {
            let action = if is_move {
                refusal::Action::Move
            } else {
                refusal::Action::Rotate
            };
            let total = template
                .slots
                .iter()
                .filter(|s| {
                    if is_move {
                        s.takes_move()
                    } else {
                        s.takes_rotate()
                    }
                })
                .count();
            let template = template.clone();
            let why = if total == 0 {
                TurnRefused::NoSuchAction { template, action }
            } else if next_slot >= template.slots.len() {
                TurnRefused::Full { template }
            } else {
                TurnRefused::OutOfOrder { template, action }
            };
            problems.push(Problem::at(i, why));
            continue;
        };
        match action(rules, &sim, o) {
            Ok(a) => {
                sim.apply(rules, a);
                actions.push(a);
                next_slot = j + 1;
            }
            Err(e) => {
                problems.push(Problem::at(i, e));
                next_slot = j + 1;
            }
        }
    }
    if problems.is_empty() {
        Ok(Plan::Actions(actions))
    } else {
        Err(problems)
    }
}

/// What happened, for the log and the reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Moved {
        side: u8,
        piece: String,
        from: String,
        to: String,
        captured: Option<String>,
    },
    Reborn {
        side: u8,
        piece: String,
        at: String,
        facing: Dir,
    },
    Rotated {
        side: u8,
        piece: String,
        at: String,
        from: Dir,
        to: Dir,
    },
    Passed {
        side: u8,
    },
    Surrendered {
        side: u8,
    },
    Ended {
        winner: u8,
        how: How,
        /// The royal pieces' distances from the centre and the pieces on the
        /// board, White's then Black's, when the turn limit decided.
        distances: Option<[u8; 2]>,
        pieces: Option<[u8; 2]>,
    },
}

impl Event {
    pub fn text(&self, rules: &Ruleset) -> String {
        let army = |s: u8| format!("{} ({})", side_name(s), rules.army(s).name);
        match self {
            Event::Moved {
                side,
                piece,
                from,
                to,
                captured,
            } => match captured {
                Some(c) => format!(
                    "{} {piece} {from} → {to}, captures the {c}",
                    side_name(*side)
                ),
                None => format!("{} {piece} {from} → {to}", side_name(*side)),
            },
            Event::Reborn {
                side,
                piece,
                at,
                facing,
            } => format!(
                "{} {piece} is reborn on {at}, facing {facing}",
                side_name(*side)
            ),
            Event::Rotated {
                side,
                piece,
                at,
                from,
                to,
            } if from == to => format!(
                "{} {piece} on {at} keeps facing {to} (a rotation to its own facing)",
                side_name(*side)
            ),
            Event::Rotated {
                side,
                piece,
                at,
                from,
                to,
            } => format!("{} {piece} on {at} turns {from} → {to}", side_name(*side)),
            Event::Passed { side } => format!("{} passes", side_name(*side)),
            Event::Surrendered { side } => format!("{} surrenders", army(*side)),
            Event::Ended {
                winner,
                how,
                distances,
                pieces,
            } => format!(
                "{} wins: {}",
                army(*winner),
                reason(*how, *distances, *pieces)
            ),
        }
    }
}

/// Why the game ended, in words.
pub fn reason(how: How, distances: Option<[u8; 2]>, pieces: Option<[u8; 2]>) -> String {
    let d = distances.unwrap_or([0, 0]);
    let p = pieces.unwrap_or([0, 0]);
    match (how, distances.is_some()) {
        (How::KingCaptured, _) => "the enemy's royal piece was captured".to_string(),
        (How::Surrender, _) => "the other side surrendered".to_string(),
        (How::NearerCentre, false) => "turn limit, royal piece nearer the centre".into(),
        (How::MorePieces, false) => {
            "turn limit, royal pieces equally near the centre, more pieces".into()
        }
        (How::WhiteByDefault, false) => {
            "turn limit, royal pieces equally near the centre, as many pieces: White".into()
        }
        (How::NearerCentre, true) => format!(
            "turn limit, royal pieces {} (White's) and {} (Black's) hexes from the centre",
            d[0], d[1]
        ),
        (How::MorePieces, true) => format!(
            "turn limit, royal pieces equally near the centre ({}), more pieces ({} to {})",
            d[0],
            p[0].max(p[1]),
            p[0].min(p[1])
        ),
        (How::WhiteByDefault, true) => format!(
            "turn limit, royal pieces equally near the centre ({}), as many pieces ({} each), so White",
            d[0], p[0]
        ),
    }
}

impl State {
    /// Play a planned turn for the side to move, recording events.
    pub fn play_turn(&mut self, rules: &Ruleset, plan: &Plan, ev: &mut Vec<Event>) {
        let side = self.side;
        match plan {
            Plan::Pass => ev.push(Event::Passed { side }),
            Plan::Surrender => {
                ev.push(Event::Surrendered { side });
                self.surrender();
            }
            Plan::Actions(list) => {
                for &a in list {
                    if self.is_over() {
                        break;
                    }
                    let name = |p: Piece| rules.kinds[p.kind() as usize].name.clone();
                    let before = match a {
                        Action::Rotate { at, .. } => Some(Piece(self.board[at as usize])),
                        _ => None,
                    };
                    let done = self.apply(rules, a);
                    let hex = |c: u8| label(rules.geo.hex[c as usize]);
                    ev.push(match a {
                        Action::Move { from, to } => Event::Moved {
                            side,
                            piece: name(done.piece),
                            from: hex(from),
                            to: hex(to),
                            captured: done.captured.map(name),
                        },
                        Action::Rebirth { at, .. } => Event::Reborn {
                            side,
                            piece: name(done.piece),
                            at: hex(at),
                            facing: done.piece.facing(),
                        },
                        Action::Rotate { at, .. } => Event::Rotated {
                            side,
                            piece: name(done.piece),
                            at: hex(at),
                            from: before.expect("a piece").facing(),
                            to: done.piece.facing(),
                        },
                    });
                }
                if list.is_empty() {
                    ev.push(Event::Passed { side });
                }
            }
        }
        self.end_turn(rules);
        if let Some(f) = self.finish {
            let limit = matches!(
                f.how,
                How::NearerCentre | How::MorePieces | How::WhiteByDefault
            );
            let dist = |s| {
                self.royal(rules, s)
                    .map(|c| rules.geo.centre_distance[c])
                    .unwrap_or(u8::MAX)
            };
            ev.push(Event::Ended {
                winner: f.winner,
                how: f.how,
                distances: limit.then(|| [dist(0), dist(1)]),
                pieces: limit.then(|| [self.count(0) as u8, self.count(1) as u8]),
            });
        }
    }
}

/// The template's slots, for reports.
pub fn template_text(rules: &Ruleset, st: &State) -> String {
    let t = &rules.templates[st.template as usize];
    format!("{}: {}", t.name, t.help)
}
