//! The order composer's data (issue 21). Tap one of your pieces, then a
//! highlighted hex: a hex it moves to (red: a capture), or the neighbour in
//! the direction it should face (a turn; where the neighbour is off the
//! board, pick the turn from the list). The template (default E: move,
//! then rotate, then rotate, each optional) is kept by keys: one Move
//! action, the template's Rotate actions, and the file lists them in the
//! template's order. A piece that moved turns on the hex it moved to: the
//! turns after each move are worked out by playing that move on a copy of
//! the position (`State::apply`), so no rule is written twice. A piece is
//! turned at most once a turn here (two turns of one piece are one turn to
//! the last facing); `herald check` accepts both. HEXWAR hides nothing.

use super::movegen::Action;
use super::play::{order_of, Order};
use super::ruleset::Ruleset;
use super::state::{label, State, LABELS};
use super::Hexwar;
use crate::board::{Dir, Hex};
use crate::games::compose::{Choice, Mark, Orders, Piece, Required};
use crate::games::{Compose, Seat};

/// The neighbour of `h` in direction `d`, if it is on the board.
fn towards(h: Hex, d: Dir) -> Option<String> {
    let n = h.step(d);
    (n.length() <= LABELS.radius).then(|| label(n))
}

/// Long (about 185 lines): one composer page: the capacities of the turn's
/// template, then each own piece's moves and turns as choices; a table of what
/// a tap may do, its parts sharing the template's counts.
pub fn compose(rules: &Ruleset, st: &State, seat: usize) -> Orders {
    let mut o = Orders::default();
    if st.is_over() || st.side as usize != seat {
        return o;
    }
    let t = &rules.templates[st.template as usize];
    let n_move = t.slots.iter().filter(|s| s.takes_move()).count() as u32;
    let n_rot = t.slots.iter().filter(|s| s.takes_rotate()).count() as u32;
    let stage_move = t.slots.iter().position(|s| s.takes_move()).unwrap_or(0) as u32;
    let stage_rot = t.slots.iter().position(|s| s.takes_rotate()).unwrap_or(0) as u32;
    // keys `move` and `rotate` are kinds of their own (no `:`): the page
    // finds a refusal's reason by the key's kind
    o.capacity.insert("slot".into(), t.slots.len() as u32);
    o.capacity.insert("move".into(), n_move);
    o.capacity.insert("rotate".into(), n_rot);
    let hex = |c: u8| rules.geo.hex[c as usize];
    let name = |p: super::piece::Piece| rules.kinds[p.kind() as usize].name.clone();

    for (c, p) in st.pieces() {
        if p.side() == st.side {
            let at = label(rules.geo.hex[c]);
            o.pieces.push(Piece::on(
                at.clone(),
                format!("your {} on {at}", name(p)),
                at,
            ));
        }
    }

    let mut moves = Vec::new();
    if n_move > 0 {
        st.moves(rules, &mut moves);
    }
    let mut graveyard = Vec::new();
    for &a in &moves {
        let order = order_of(rules, st, a);
        let mut sim = st.clone();
        let done = sim.apply(rules, a);
        let (piece, from, to) = match a {
            Action::Move { from, to } => {
                let f = label(hex(from));
                let tl = label(hex(to));
                let mark = if done.captured.is_some() {
                    Mark::Attack
                } else {
                    Mark::Move
                };
                let went = format!("went:{f}-{tl}");
                o.choices.push(
                    Choice::new(Some(&f), order.to_string(), mark)
                        .to(tl.clone())
                        .stage(stage_move)
                        .moves()
                        .uses(&["slot", "move", &format!("stay:{f}")])
                        .gives(&[&went]),
                );
                (f.clone(), went, tl)
            }
            Action::Rebirth { at, .. } => {
                let tl = label(hex(at));
                if !graveyard.contains(&name(done.piece)) {
                    graveyard.push(name(done.piece));
                }
                let born = format!("born:{tl}");
                o.choices.push(
                    Choice::new(Some("graveyard"), order.to_string(), Mark::Place)
                        .to(tl.clone())
                        .stage(stage_move)
                        .moves()
                        .uses(&["slot", "move"])
                        .gives(&[&born]),
                );
                ("graveyard".to_string(), born, tl)
            }
            Action::Rotate { .. } => continue,
        };
        // the piece's turns on the hex it arrived at, after this action
        if n_rot == 0 || stage_rot <= stage_move || sim.is_over() {
            continue;
        }
        let cell = rules
            .geo
            .cell(LABELS.parse(&to).expect("a board hex"))
            .expect("a cell");
        let arrived = sim.piece(cell as usize).expect("the piece that arrived");
        for d in Dir::ALL {
            if d == arrived.facing() {
                continue;
            }
            let turn = Order::Rotate {
                at: hex(cell),
                facing: d,
            };
            let mut c = Choice::new(Some(&piece), turn.to_string(), Mark::Turn)
                .from(to.clone())
                .stage(stage_rot)
                .needs(&[&from])
                .uses(&["slot", "rotate", &format!("turn:{piece}")]);
            if let Some(n) = towards(hex(cell), d) {
                c = c.to(n);
            }
            o.choices.push(c);
        }
    }
    if !graveyard.is_empty() {
        o.pieces.push(Piece::off(
            "graveyard",
            format!("rebirth from your graveyard ({})", graveyard.join(", ")),
        ));
    }
    if n_rot > 0 {
        let mut rotations = Vec::new();
        st.rotations(&mut rotations);
        for a in rotations {
            let Action::Rotate { at, facing } = a else {
                continue;
            };
            let h = hex(at);
            let at = label(h);
            let d = Dir::ALL[facing as usize];
            let mut c = Choice::new(Some(&at), order_of(rules, st, a).to_string(), Mark::Turn)
                .stage(stage_rot)
                .uses(&[
                    "slot",
                    "rotate",
                    &format!("stay:{at}"),
                    &format!("turn:{at}"),
                ]);
            if let Some(n) = towards(h, d) {
                c = c.to(n);
            }
            o.choices.push(c);
        }
    }
    o.choices
        .push(Choice::new(None, "pass", Mark::Tag).alone().uses(&["slot"]));
    o.choices.push(
        Choice::new(None, "surrender", Mark::Tag)
            .alone()
            .uses(&["slot"]),
    );
    let describe = format!("template {} ({})", t.name, t.describe());
    o.why.insert(
        "slot".into(),
        format!("{describe} has room for no more actions this turn"),
    );
    let count = |n: u32, what: &str| match n {
        0 => format!("no {what} action"),
        1 => format!("one {what} action"),
        n => format!("{n} {what} actions"),
    };
    o.why.insert(
        "move".into(),
        format!(
            "{describe} has {} (a move or a rebirth)",
            count(n_move, "Move")
        ),
    );
    o.why.insert(
        "rotate".into(),
        format!("{describe} has {}", count(n_rot, "Rotate")),
    );
    o.why.insert(
        "stay".into(),
        "that piece already has an order where it stands; it cannot also move away (remove that order first)".into(),
    );
    o.why.insert(
        "turn".into(),
        "that piece already turns this turn: turn it once, to the facing you want".into(),
    );
    o.need_why.insert(
        "went".into(),
        "that piece turns on the hex it moves to: give its move first".into(),
    );
    o.need_why
        .insert("born".into(), "give the rebirth first".into());
    o.required.push(Required {
        key: "slot".into(),
        why: format!("give at least one action ({describe}), or pass"),
    });
    o.help = vec![
        format!("This turn: {describe}; each action is optional."),
        "Tap one of your pieces, then a highlighted hex: where it moves (red: a capture), or the neighbour in the direction it should face (a turn).".into(),
        "After a move, tap the piece on its new hex to turn it there.".into(),
    ];
    o
}

impl Compose for Hexwar {
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
