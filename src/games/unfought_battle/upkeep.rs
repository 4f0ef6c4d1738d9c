//! Upkeep at the end of each turn, in this order: the board shrinks (forces
//! on Scorched hexes die), Shih income (capped), the domination counters,
//! then the victory checks and the turn cap.

use super::board::Board;
use super::events::Event;
use super::ruleset::Ruleset;
use super::state::{End, Phase, State};

/// Long (about 95 lines): the upkeep in the rules' numbered order (the noose,
/// income, domination, the end), each step on the state the one before leaves.
pub fn upkeep(rules: &Ruleset, st: &mut State, ev: &mut Vec<Event>) {
    let turn = st.turn;
    // 1. The noose.
    let radius = Board::radius_after(rules, turn);
    if radius != st.board.radius {
        st.board.radius = radius;
        let hexes = st.board.hexes().filter(|h| st.board.playable(*h)).count();
        ev.push(Event::Shrank {
            radius: radius.unwrap_or(st.board.size),
            hexes,
        });
        for seat in 0..2 {
            for i in 0..st.sides[seat].forces.len() {
                let f = st.sides[seat].forces[i];
                if f.alive && st.board.scorched(f.at) {
                    st.sides[seat].forces[i].alive = false;
                    st.sides[1 - seat].learn(f.id);
                    ev.push(Event::Perished {
                        seat,
                        force: f.id,
                        at: f.at,
                        power: f.power,
                    });
                }
            }
        }
    }
    // 2. Income and 3. domination.
    for seat in 0..2 {
        let holds = st.holds(seat).len();
        let amount = rules.shih.base + rules.shih.per_contentious * holds as u32;
        let side = &mut st.sides[seat];
        side.shih = (side.shih + amount).min(rules.shih.max);
        ev.push(Event::Income {
            seat,
            amount,
            shih: side.shih,
            holds,
        });
        if holds >= rules.victory.domination_hexes {
            side.domination += 1;
        } else {
            side.domination = 0;
        }
    }
    // 4. The end.
    let lost: Vec<bool> = (0..2)
        .map(|s| {
            !st.sides[s]
                .living()
                .any(|f| f.power == rules.forces.sovereign)
        })
        .collect();
    let how_lost = |s: usize| {
        if st.sides[s].living().next().is_none() {
            "lost every force".to_string()
        } else {
            "lost its Sovereign".to_string()
        }
    };
    let end = if lost[0] && lost[1] {
        Some(End {
            winner: None,
            subject: None,
            how: "both sides lost their Sovereign in the same turn".to_string(),
        })
    } else if let Some(s) = (0..2).find(|&s| lost[s]) {
        Some(End {
            winner: Some(1 - s),
            subject: Some(s),
            how: how_lost(s),
        })
    } else if let Some(s) =
        (0..2).find(|&s| st.sides[s].domination >= rules.victory.domination_turns)
    {
        Some(End {
            winner: Some(s),
            subject: Some(s),
            how: format!(
                "dominated: held {} Contentious hexes {} turns running",
                rules.victory.domination_hexes, st.sides[s].domination
            ),
        })
    } else if turn >= rules.victory.turn_cap {
        Some(End {
            winner: None,
            subject: None,
            how: format!("the turn cap: turn {turn} ended with both Sovereigns alive"),
        })
    } else {
        None
    };
    match end {
        Some(e) => finish(st, e, ev),
        None => st.turn += 1,
    }
}

pub fn finish(st: &mut State, end: End, ev: &mut Vec<Event>) {
    ev.push(Event::Ended {
        winner: end.winner,
        subject: end.subject,
        how: end.how.clone(),
    });
    st.phase = Phase::Over;
    st.end = Some(end);
}
