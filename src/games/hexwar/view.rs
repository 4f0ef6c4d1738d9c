//! What a player sees: HEXWAR has no hidden information, so every view shows
//! the whole board; the events are told in words.

use super::movegen::Action;
use super::play::{order_of, Event};
use super::ruleset::{side_name, Ruleset};
use super::state::{label, State};
use crate::board::svg::{Arrow, ArrowKind};
use crate::board::{ascii, Dir, Hex};
use crate::games::{Seat, Seen};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct PieceView {
    pub owner: String,
    pub side: String,
    pub piece: String,
    pub code: String,
    pub symbol: String,
    pub hex: String,
    pub facing: String,
    /// The two characters the board draws for it.
    pub token: String,
    pub moves: String,
    pub yours: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct SideView {
    pub side: String,
    pub player: String,
    pub army: String,
    pub pieces_on_board: usize,
    /// The royal piece's distance from the centre.
    pub royal_distance: Option<u8>,
    pub graveyard: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct EventView {
    pub turn: u32,
    pub text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct LegendView {
    pub symbol: String,
    pub side: String,
    pub piece: String,
    pub code: String,
    pub moves: String,
    pub special: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub you: String,
    pub your_side: String,
    pub your_army: String,
    pub turn: u32,
    pub turn_limit: u32,
    pub turns_left: u32,
    pub to_move: Option<String>,
    pub to_move_side: Option<String>,
    pub your_turn: bool,
    pub template: String,
    pub template_actions: String,
    pub centre: String,
    pub sides: Vec<SideView>,
    pub pieces: Vec<PieceView>,
    pub legend: Vec<LegendView>,
    pub events: Vec<EventView>,
    /// The moves, captures, turns and rebirths of those events, for the picture.
    pub arrows: Vec<Arrow>,
    /// The legal single actions now (each is also a whole legal turn).
    pub legal: Vec<String>,
    pub result: Option<String>,
}

/// Two characters for a piece: its symbol and a facing mark. The mark
/// follows the symbol for N (`^`), S (`v`), NE (`/`) and SE (`\`), and
/// comes before it for SW (`/`) and NW (`\`): the slash points the way.
pub fn token(symbol: char, facing: Dir) -> String {
    match facing {
        Dir::N => format!("{symbol}^"),
        Dir::S => format!("{symbol}v"),
        Dir::NE => format!("{symbol}/"),
        Dir::SE => format!("{symbol}\\"),
        Dir::SW => format!("/{symbol}"),
        Dir::NW => format!("\\{symbol}"),
    }
}

/// The arrow the board draws for an event (HEXWAR hides nothing): a move,
/// a capture, or a ring on a piece turned or reborn.
fn arrow(e: &Event) -> Option<Arrow> {
    let (from, to, kind, side) = match e {
        Event::Moved {
            side,
            from,
            to,
            captured,
            ..
        } => {
            let kind = if captured.is_some() {
                ArrowKind::Attack
            } else {
                ArrowKind::Move
            };
            (from, to, kind, side)
        }
        Event::Rotated { side, at, .. } | Event::Reborn { side, at, .. } => {
            (at, at, ArrowKind::Place, side)
        }
        _ => return None,
    };
    Some(Arrow {
        from: from.clone(),
        to: to.clone(),
        kind,
        seat: *side as usize,
    })
}

/// Legal single actions as order text.
pub fn legal_actions(rules: &Ruleset, st: &State) -> Vec<String> {
    if st.is_over() {
        return Vec::new();
    }
    let t = &rules.templates[st.template as usize];
    let mut out = Vec::new();
    let mut v: Vec<Action> = Vec::new();
    if t.slots.iter().any(|s| s.takes_move()) {
        st.moves(rules, &mut v);
        out.extend(v.iter().map(|a| order_of(rules, st, *a).to_string()));
    }
    if t.slots.iter().any(|s| s.takes_rotate()) {
        st.rotations(&mut v);
        out.extend(v.iter().map(|a| order_of(rules, st, *a).to_string()));
    }
    out.push("pass".into());
    out.push("surrender".into());
    out
}

/// Long (about 110 lines): the view's parts computed from the state, then one
/// struct literal with every field of the player's view.
pub fn view(
    rules: &Ruleset,
    st: &State,
    players: &[String],
    seat: Seat,
    events: &[Seen<Event>],
) -> View {
    let me = seat as u8;
    let pieces: Vec<PieceView> = st
        .pieces()
        .map(|(c, p)| {
            let k = &rules.kinds[p.kind() as usize];
            PieceView {
                owner: players[p.side() as usize].clone(),
                side: side_name(p.side()).into(),
                piece: k.name.clone(),
                code: k.code.clone(),
                symbol: k.symbol.to_string(),
                hex: label(rules.geo.hex[c]),
                facing: p.facing().name().into(),
                token: token(k.symbol, p.facing()),
                moves: k.moves_text(),
                yours: p.side() == me,
            }
        })
        .collect();
    let sides = [0u8, 1]
        .iter()
        .map(|&s| SideView {
            side: side_name(s).into(),
            player: players[s as usize].clone(),
            army: rules.army(s).name.clone(),
            pieces_on_board: st.count(s),
            royal_distance: st.royal(rules, s).map(|c| rules.geo.centre_distance[c]),
            graveyard: rules
                .kinds
                .iter()
                .enumerate()
                .flat_map(|(k, kind)| {
                    std::iter::repeat_n(kind.name.clone(), st.graveyard[s as usize][k] as usize)
                })
                .collect(),
        })
        .collect();
    let legend = rules
        .kinds
        .iter()
        .map(|k| {
            let mut special = Vec::new();
            if k.royal {
                special.push("royal: capture it to win");
            }
            if k.rebirth {
                special.push("rebirth");
            }
            if k.phased {
                special.push("phased: cannot capture or be captured, blocks");
            }
            LegendView {
                symbol: k.symbol.to_string(),
                side: side_name(k.side).into(),
                piece: k.name.clone(),
                code: k.code.clone(),
                moves: k.moves_text(),
                special: special.join("; "),
            }
        })
        .collect();
    let over = st.is_over();
    let t = &rules.templates[st.template as usize];
    View {
        you: players[seat].clone(),
        your_side: side_name(me).into(),
        your_army: rules.army(me).name.clone(),
        turn: st.turn as u32,
        turn_limit: rules.turn_limit,
        turns_left: rules.turn_limit.saturating_sub(st.turn as u32),
        to_move: (!over).then(|| players[st.side as usize].clone()),
        to_move_side: (!over).then(|| side_name(st.side).to_string()),
        your_turn: !over && st.side == me,
        template: t.name.clone(),
        template_actions: t.describe(),
        centre: label(Hex::ORIGIN),
        sides,
        pieces,
        legend,
        events: events
            .iter()
            .map(|e| EventView {
                turn: e.turn,
                text: e.event.text(rules),
            })
            .collect(),
        arrows: events.iter().filter_map(|e| arrow(&e.event)).collect(),
        legal: if !over && st.side == me {
            legal_actions(rules, st)
        } else {
            Vec::new()
        },
        result: st.finish.map(|f| {
            Event::Ended {
                winner: f.winner,
                how: f.how,
                distances: None,
                pieces: None,
            }
            .text(rules)
        }),
    }
}

/// The board: two characters per hex (see [`token`]), `()` for an empty
/// centre, `..` for other empty hexes.
pub fn ascii_board(v: &View) -> String {
    let labels = super::state::LABELS;
    ascii::hexagon(4, &|h: Hex| {
        let l = labels.label(h);
        match v.pieces.iter().find(|p| p.hex == l) {
            Some(p) => p.token.clone(),
            None if h == Hex::ORIGIN => "()".into(),
            None => "..".into(),
        }
    })
}
