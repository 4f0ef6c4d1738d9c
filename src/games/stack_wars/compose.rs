//! The order composer's data (issue 21): a Stack Wars turn is one action.
//! Tap one of your stacks, then the territory it moves to or attacks; tap
//! "reserve", then the territory to fortify; or resign. Stack Wars hides
//! nothing, so the list is the rules' own (`State::actions`).

use super::play::Action;
use super::ruleset::Ruleset;
use super::state::{Side, State};
use super::StackWars;
use crate::games::compose::{Choice, Mark, Orders, Piece, Required};
use crate::games::{Compose, Seat};

pub fn compose(st: &State, seat: usize) -> Orders {
    let side = Side::of_seat(seat);
    let mut o = Orders::default();
    if st.mover() != Some(side) {
        return o;
    }
    let reserve = st.reserve(side);
    let on_board = st.stacks().any(|(_, s)| s.side == side);
    // an empty board (turn 0): the only thing to do is to place an army,
    // and the page says so instead of asking for a piece there is none of
    let place = if on_board {
        "tap a highlighted square you control to fortify it with an army"
    } else {
        "place an army from your reserve: tap a square of your baseline"
    };
    o.pieces.push(
        Piece::off(
            "reserve",
            format!(
                "reserve ({reserve} arm{})",
                if reserve == 1 { "y" } else { "ies" }
            ),
        )
        .prompt(place),
    );
    if !on_board {
        o.prompt = Some(format!("{}{}.", place[..1].to_uppercase(), &place[1..]));
    }
    for (sq, stack) in st.stacks() {
        if stack.side == side {
            let at = sq.to_string();
            o.pieces.push(Piece::on(
                at.clone(),
                format!("your {} on {at}", stack.armies),
                at,
            ));
        }
    }
    let mut all = Vec::new();
    st.actions(side, &mut all);
    for a in all {
        let c = match a {
            Action::Fortify(sq) => {
                Choice::new(Some("reserve"), a.to_string(), Mark::Place).to(sq.to_string())
            }
            Action::Move { from, to } => {
                Choice::new(Some(&from.to_string()), a.to_string(), Mark::Move).to(to.to_string())
            }
            Action::Attack { from, to } => {
                Choice::new(Some(&from.to_string()), a.to_string(), Mark::Attack).to(to.to_string())
            }
            Action::Resign => continue,
        };
        o.choices.push(c.uses(&["action"]));
    }
    o.choices.push(
        Choice::new(None, "resign", Mark::Tag)
            .alone()
            .uses(&["action"]),
    );
    o.why.insert("action".into(), "one action per turn".into());
    o.required.push(Required {
        key: "action".into(),
        why: "take one action: fortify, move or attack (there is no passing)".into(),
    });
    o.help = vec![
        "Tap one of your stacks, then a highlighted territory to move there or attack it.".into(),
        "Tap \"reserve\", then a highlighted territory to fortify it.".into(),
        "One action per turn.".into(),
    ];
    o
}

impl Compose for StackWars {
    fn compose(_: &Ruleset, st: &State, seat: Seat) -> Orders {
        compose(st, seat)
    }
    fn own_cells(_: &Ruleset, v: &super::view::View) -> Vec<String> {
        v.stacks
            .iter()
            .filter(|s| s.yours)
            .map(|s| s.at.clone())
            .collect()
    }
}
