//! What the view-only bots need of Stack Wars (issue 20): the state rebuilt
//! from a player's view (the game hides nothing, so exactly), the candidate
//! actions (every legal one but `resign`), and an evaluation.

use super::play::Action;
use super::ruleset::Ruleset;
use super::state::{Core, Ending, Placed, Side, Square, State};
use super::view::View;
use super::{playout, StackWars};
use crate::games::{BotSupport, Seat};
use crate::rng::ChaCha20Rng;

/// The state a view shows: every stack, both sides' reserves and points,
/// the side to move and the quiet count are all in it.
// A String error: as `BotSupport::determinise`: a bot's failure, never a refusal.
pub fn determinise(view: &View) -> Result<State, String> {
    let seat_of = |id: &str| view.players.iter().position(|p| p.id == id);
    let mut stacks = Vec::new();
    for s in &view.stacks {
        stacks.push(Placed {
            at: Square::parse(&s.at).ok_or_else(|| format!("view: no square `{}`", s.at))?,
            side: Side::parse(&s.side).ok_or_else(|| format!("view: no side `{}`", s.side))?,
            armies: s.armies,
        });
    }
    stacks.sort_by_key(|p| p.at);
    let mut reserves = [0u16; 2];
    let mut points = [0u16; 2];
    for p in &view.players {
        let side = Side::parse(&p.side).ok_or_else(|| format!("view: no side `{}`", p.side))?;
        reserves[side.seat()] = p.reserves;
        points[side.seat()] = p.points;
    }
    let to_move = view
        .to_move
        .as_deref()
        .and_then(seat_of)
        .map(Side::of_seat)
        .unwrap_or(Side::Black);
    State::from_core(Core {
        size: view.size,
        move_onto_own: view.move_onto_own,
        quiet_limit: view.quiet_limit,
        stacks,
        reserves,
        points,
        to_move,
        quiet: view.quiet,
        result: view.result.as_ref().map(|how| Ending {
            winner: None,
            how: how.clone(),
        }),
    })
    .map_err(|e| e.to_string())
}

/// Every legal action but resigning, one per set.
pub fn candidates(st: &State, seat: usize) -> Vec<Vec<Action>> {
    let side = Side::of_seat(seat);
    if st.mover() != Some(side) {
        return Vec::new();
    }
    let mut all = Vec::new();
    st.actions(side, &mut all);
    all.into_iter()
        .filter(|a| *a != Action::Resign)
        .map(|a| vec![a])
        .collect()
}

/// A side's worth: points first (they decide the game), then armies by
/// how far they have come towards the enemy's baseline, then reserves.
fn worth(st: &State, side: Side) -> i32 {
    let n = st.size as i32;
    let home = side.baseline(st.size) as i32;
    let mut w = 100 * st.score(side) as i32 + 20 * st.reserve(side) as i32;
    for (sq, s) in st.stacks() {
        if s.side == side {
            let progress = (sq.row as i32 - home).abs();
            w += s.armies as i32 * (20 + 50 * progress / (n - 1).max(1));
        }
    }
    w
}

/// The difference of the sides' worth, fading to nothing as the quiet
/// count nears its limit (the game is then about to be drawn, whatever the
/// points): a side ahead is pushed to fortify, attack or invade before the
/// quiet cap takes its lead away.
pub fn evaluate(_rules: &Ruleset, st: &State, seat: usize) -> i32 {
    let me = Side::of_seat(seat);
    let e = worth(st, me) - worth(st, me.other());
    if st.quiet_limit == 0 {
        return e;
    }
    let left = st.quiet_limit.saturating_sub(st.quiet) as i64;
    (e as i64 * left / st.quiet_limit as i64) as i32
}

pub fn scores(st: &State) -> Vec<i32> {
    Side::BOTH.iter().map(|&s| st.score(s) as i32).collect()
}

impl BotSupport for StackWars {
    // A String error: as `BotSupport::determinise`: a bot's failure, never a refusal.
    fn determinise(_: &Ruleset, view: &View, _: &mut ChaCha20Rng) -> Result<State, String> {
        determinise(view)
    }
    fn candidate_orders(
        _: &Ruleset,
        st: &State,
        seat: Seat,
        _: &mut ChaCha20Rng,
    ) -> Vec<Vec<Action>> {
        candidates(st, seat)
    }
    /// The action [`playout::bot_action`] picks.
    fn scripted_orders(_: &Ruleset, st: &State, seat: Seat, rng: &mut ChaCha20Rng) -> Vec<Action> {
        if st.mover() != Some(Side::of_seat(seat)) {
            return Vec::new();
        }
        playout::bot_action(st, rng).into_iter().collect()
    }
    fn evaluate(rules: &Ruleset, st: &State, seat: Seat) -> i32 {
        evaluate(rules, st, seat)
    }
    fn scores(_: &Ruleset, st: &State) -> Vec<i32> {
        scores(st)
    }
    /// The squares row by row: a stack of either side.
    fn occupancy(_: &Ruleset, st: &State) -> Vec<bool> {
        st.squares().map(|sq| st.at(sq).is_some()).collect()
    }
}
