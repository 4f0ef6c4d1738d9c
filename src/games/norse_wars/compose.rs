//! The order composer's data (issue 21): a Norse Wars turn is one move.
//! Tap one of your pieces, then the hex it moves to: each of its legal
//! moves points at the hex one or two steps away in its direction (red
//! where an enemy piece stands there: a push). In the Shield draft, tap
//! "Shield", then a highlighted hex.
//!
//! Fog: the moves are the rules' legal-move list, which never depends on a
//! hidden hex (a move reaches at most 2 hexes and sight is 4:
//! games/norse-wars.md, options, fog). A push is marked only where the
//! target hex is in sight; Shield spots are offered only in sight.
//!
//! A push comes with its strengths and result (issue 30), worked out by
//! the resolver's own `execute` on a copy of the position, where every hex
//! and piece the push involves is in sight (as the report tells a push in
//! full only then); otherwise only its attack and the target's own
//! strength, and that the line behind runs out of sight.

use super::order_text;
use super::play::{Event, Move, PushResult, Stop};
use super::ruleset::Ruleset;
use super::state::{Phase, State};
use super::view::{attack_words, defence_words, push_parts, vision};
use super::NorseWars;
use crate::board::Hex;
use crate::games::compose::{Choice, Mark, Orders, Piece, Required};
use crate::games::{Compose, Seat};

pub fn compose(rules: &Ruleset, st: &State, seat: usize) -> Orders {
    let mut o = Orders::default();
    if st.to_move() != Some(seat) {
        return o;
    }
    let g = st.grid_radius;
    let side = (2 * g + 1) as usize;
    let seen = vision(rules, st, seat);
    let sees = |h: Hex| h.length() <= g && seen[((h.q + g) as usize) * side + (h.r + g) as usize];
    o.why
        .insert("move".into(), "you move exactly one piece per turn".into());
    match st.phase {
        Phase::Move => {
            for (_, p) in st.pieces_of(seat) {
                let Some(at) = p.at else { continue };
                let name = p.name();
                let label = if p.number == 0 {
                    "your Jarl".to_string()
                } else {
                    format!("your Warrior {name}")
                };
                o.pieces.push(Piece::on(name, label, st.label(at)));
            }
            let mut moves = Vec::new();
            st.moves(rules, seat, &mut moves);
            for m in moves {
                let Ok(to) = st.check_move(rules, seat, m) else {
                    continue;
                };
                let push = sees(to)
                    && st
                        .piece_at(to)
                        .is_some_and(|i| st.pieces[i].seat as usize != seat);
                let mark = if push { Mark::Attack } else { Mark::Move };
                let piece = super::state::piece_name(m.piece);
                let mut c = Choice::new(Some(&piece), order_text(&m), mark)
                    .to(st.label(to))
                    .uses(&["move"]);
                if push {
                    if let Some(n) = push_note(rules, st, seat, m, &sees) {
                        c = c.note(n);
                    }
                }
                o.choices.push(c);
            }
            o.required.push(Required {
                key: "move".into(),
                why: "move one piece (there is no passing)".into(),
            });
            o.help = vec![
                "Tap one of your pieces (dashed ring), then a highlighted hex: the hex it moves to, one or two steps away; red: a push.".into(),
                "One move per turn. A starvation preference (`starve W3 W1`) is written by hand in the order form below.".into(),
            ];
        }
        Phase::Shields => {
            o.pieces.push(Piece::off("shield", "Shield"));
            for h in Hex::spiral_area(st.radius) {
                if sees(h) && st.shield_spot(h).is_ok() {
                    o.choices.push(
                        Choice::new(
                            Some("shield"),
                            format!("shield {}", st.label(h)),
                            Mark::Place,
                        )
                        .to(st.label(h))
                        .uses(&["move"]),
                    );
                }
            }
            o.required.push(Required {
                key: "move".into(),
                why: "place one Shield".into(),
            });
            o.help = vec!["Tap \"Shield\", then a highlighted hex to place it there.".into()];
        }
        Phase::Over => {}
    }
    o
}

/// What the push `mv` would do, in words, from what `seat` sees.
///
/// Long (about 85 lines): one sentence built from the push's cases (who is
/// pushed, how far, who falls or is crushed), each told only where the player
/// sees.
fn push_note(
    rules: &Ruleset,
    st: &State,
    seat: usize,
    mv: Move,
    sees: &dyn Fn(Hex) -> bool,
) -> Option<String> {
    let mut after = st.clone();
    let mut ev = Vec::new();
    after.execute(rules, seat, mv, &mut ev);
    let Some(Event::Push {
        who,
        from,
        to,
        target,
        target_at,
        support_end,
        line_end,
        attack,
        defence,
        outcome,
        shifted,
    }) = ev.first()
    else {
        return None;
    };
    let l = |h: Hex| st.label(h);
    let (hexes, _) = push_parts(
        *who,
        *from,
        *to,
        *target,
        *target_at,
        *support_end,
        *line_end,
        shifted,
    );
    let mover = super::state::piece_name(who.piece);
    if !hexes.iter().all(|&h| !st.on_board(h) || sees(h)) {
        return Some(format!(
            "push on {}: {} against a defence of at least {}: the line behind it runs out of your sight",
            l(*target_at),
            attack_words(attack),
            defence.strength
        ));
    }
    let head = format!(
        "push on {}: {} against {}",
        l(*target_at),
        attack_words(attack),
        defence_words(defence)
    );
    let name = |seat_of: u8, piece: u8| {
        let kind = if piece == 0 { "Jarl" } else { "Warrior" };
        if seat_of as usize == seat {
            format!("your {}", super::state::piece_name(piece))
        } else {
            format!("the {kind}")
        }
    };
    Some(match outcome {
        PushResult::Blocked => format!("{head}: blocked, {mover} stops on {}", l(*to)),
        PushResult::Compressed { against, by } => {
            let what = match by {
                Stop::Shield => format!("the Shield on {}", l(*against)),
                Stop::Throne => "the Throne".to_string(),
                Stop::Ally => format!("an ally on {}", l(*against)),
            };
            format!(
                "{head}: it succeeds but the line is jammed against {what}: nothing moves, {mover} stops on {}",
                l(*to)
            )
        }
        PushResult::Pushed => {
            let mut s = format!("{head}: pushed, {mover} takes {}", l(*to));
            for sh in shifted.iter().filter(|sh| sh.to.is_none()) {
                s.push_str(&format!(
                    "; {} on {} is pushed off the board",
                    name(sh.who.seat, sh.who.piece),
                    l(sh.from)
                ));
            }
            s
        }
    })
}

impl Compose for NorseWars {
    fn compose(rules: &Ruleset, st: &State, seat: Seat) -> Orders {
        compose(rules, st, seat)
    }
    fn own_cells(_: &Ruleset, v: &super::view::View) -> Vec<String> {
        v.pieces
            .iter()
            .filter(|p| p.yours)
            .map(|p| p.hex.clone())
            .collect()
    }
}
