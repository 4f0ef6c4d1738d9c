//! What a player sees: the whole board (Stack Wars has no hidden
//! information), reserves, points, the events told in words, the board
//! drawn the way the rules text draws it.

use super::play::Event;
use super::ruleset::Ruleset;
use super::state::{Side, Square, State};
use crate::board::svg::{Arrow, ArrowKind};
use crate::games::{Seat, Seen};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct PlayerView {
    pub id: String,
    pub side: String,
    pub letter: String,
    pub baseline: u8,
    pub reserves: u16,
    pub in_play: u16,
    pub points: u16,
}

#[derive(Debug, Clone, Serialize)]
pub struct StackView {
    pub at: String,
    pub side: String,
    pub owner: String,
    pub armies: u16,
    pub yours: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct EventView {
    pub turn: u32,
    pub text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub you: String,
    pub side: String,
    pub size: u8,
    pub to_move: Option<String>,
    pub your_turn: bool,
    /// Black first, then White.
    pub players: Vec<PlayerView>,
    pub stacks: Vec<StackView>,
    pub events: Vec<EventView>,
    /// The moves, attacks, invasions and fortifications of those events,
    /// for the picture.
    pub arrows: Vec<Arrow>,
    pub legal: Vec<String>,
    pub move_onto_own: bool,
    pub quiet: u32,
    pub quiet_limit: u32,
    pub result: Option<String>,
}

fn armies(n: u16) -> String {
    format!("{n} arm{}", if n == 1 { "y" } else { "ies" })
}

/// One event in words.
pub fn tell(players: &[String], e: &Event) -> String {
    let who = |s: &Side| format!("{} ({s})", players[s.seat()]);
    match e {
        Event::Fortified {
            side,
            at,
            armies: n,
            reserves,
        } => format!(
            "{} fortified {at}: {} there, {reserves} left in reserve",
            who(side),
            armies(*n)
        ),
        Event::Moved {
            side,
            from,
            to,
            armies: n,
        } => format!("{} moved an army {from} → {to}: {} there", who(side), armies(*n)),
        Event::Attacked {
            side,
            from,
            to,
            left,
            moved_in,
        } => {
            let head = format!(
                "{} attacked {to} from {from}: {} lost an army",
                who(side),
                side.other()
            );
            if *moved_in {
                format!("{head}; {to} is emptied and the attacking army moves in")
            } else {
                format!("{head}; {} left on {to}", armies(*left))
            }
        }
        Event::Invaded {
            side,
            from,
            to,
            by_attack,
            points,
        } => format!(
            "{} INVADED {}'s baseline at {to} from {from} (by {}): the army leaves play; {} point{} now",
            who(side),
            side.other(),
            if *by_attack { "attack" } else { "move" },
            points,
            if *points == 1 { "" } else { "s" }
        ),
        Event::Passed { side } => format!("{} has no legal action and passes", who(side)),
        Event::Resigned { side } => format!("{} resigned", who(side)),
        Event::Ended {
            winner,
            how,
            points,
        } => {
            let score = format!("Black {} – White {}", points[0], points[1]);
            match winner {
                Some(w) => format!("the game is over: {} wins, {score} ({how})", who(w)),
                None => format!("the game is over: a draw, {score} ({how})"),
            }
        }
    }
}

/// The arrow the board draws for an event (nothing is hidden in Stack Wars).
fn arrow(e: &Event) -> Option<Arrow> {
    let (side, from, to, kind) = match e {
        Event::Fortified { side, at, .. } => (side, at, at, ArrowKind::Place),
        Event::Moved { side, from, to, .. } => (side, from, to, ArrowKind::Move),
        Event::Attacked { side, from, to, .. } => (side, from, to, ArrowKind::Attack),
        Event::Invaded {
            side,
            from,
            to,
            by_attack,
            ..
        } => {
            let kind = if *by_attack {
                ArrowKind::Attack
            } else {
                ArrowKind::Move
            };
            (side, from, to, kind)
        }
        _ => return None,
    };
    Some(Arrow {
        from: from.to_string(),
        to: to.to_string(),
        kind,
        seat: side.seat(),
    })
}

pub fn view(
    _: &Ruleset,
    st: &State,
    players: &[String],
    seat: Seat,
    events: &[Seen<Event>],
) -> View {
    let me = Side::of_seat(seat);
    let player_views = Side::BOTH
        .iter()
        .map(|&s| PlayerView {
            id: players[s.seat()].clone(),
            side: s.name().to_string(),
            letter: s.letter().to_string(),
            baseline: s.baseline(st.size),
            reserves: st.reserve(s),
            in_play: st.in_play(s),
            points: st.score(s),
        })
        .collect();
    let stacks = st
        .stacks()
        .map(|(at, s)| StackView {
            at: at.to_string(),
            side: s.side.name().to_string(),
            owner: players[s.side.seat()].clone(),
            armies: s.armies,
            yours: s.side == me,
        })
        .collect();
    let your_turn = st.mover() == Some(me);
    let mut legal = Vec::new();
    if your_turn {
        let mut all = Vec::new();
        st.actions(me, &mut all);
        legal = all.iter().map(|a| a.to_string()).collect();
        legal.push("resign".into());
    }
    View {
        you: players[seat].clone(),
        side: me.name().to_string(),
        size: st.size,
        to_move: st.mover().map(|s| players[s.seat()].clone()),
        your_turn,
        players: player_views,
        stacks,
        events: events
            .iter()
            .map(|s| EventView {
                turn: s.turn,
                text: tell(players, &s.event),
            })
            .collect(),
        arrows: events.iter().filter_map(|e| arrow(&e.event)).collect(),
        legal,
        move_onto_own: st.move_onto_own,
        quiet: st.quiet,
        quiet_limit: st.quiet_limit,
        result: st.result.as_ref().map(|r| r.how.clone()),
    }
}

/// The board as the rules text draws it: `(___)` territories joined by
/// `--` and `|`, rows and columns numbered; a stack shows its owner's
/// letter and its size (`B 2`, `W12`).
pub fn ascii_board(v: &View) -> String {
    let n = v.size as usize;
    let mut cells = vec![None; n * n];
    for s in &v.stacks {
        if let Some(sq) = Square::parse(&s.at) {
            if (sq.row as usize) < n && (sq.col as usize) < n {
                let letter = s.side.chars().next().unwrap_or('?');
                cells[sq.row as usize * n + sq.col as usize] =
                    Some(format!("{letter}{:>2}", s.armies));
            }
        }
    }
    let mut out = String::new();
    let mut head = String::from("    ");
    for c in 0..n {
        head.push_str(&format!("{c:^5}"));
        if c + 1 < n {
            head.push_str("  ");
        }
    }
    out.push_str(head.trim_end());
    out.push('\n');
    let mut bars = String::from("    ");
    for c in 0..n {
        bars.push_str("  |  ");
        if c + 1 < n {
            bars.push_str("  ");
        }
    }
    let bars = bars.trim_end().to_string();
    for r in 0..n {
        let mut line = format!("{r:>2}  ");
        for c in 0..n {
            let t = cells[r * n + c].clone().unwrap_or_else(|| "___".into());
            line.push_str(&format!("({t})"));
            if c + 1 < n {
                line.push_str("--");
            }
        }
        if r == 0 {
            line.push_str("   White's baseline");
        } else if r == n - 1 {
            line.push_str("   Black's baseline");
        }
        out.push_str(&line);
        out.push('\n');
        if r + 1 < n {
            out.push_str(&bars);
            out.push('\n');
        }
    }
    out
}
