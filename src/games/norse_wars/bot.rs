//! What the view-only bots need of Norse Wars (issue 20): the state rebuilt
//! from a player's view, a sample of the pieces fog hides, and an
//! evaluation.
//!
//! Without fog the view shows everything the rules use (the pieces, the
//! Shields, whose turn, the round, the stalemate count, whether a piece
//! fell this round, who is starving), so the state is rebuilt exactly; the
//! other players' standing starvation preferences are their orders, not
//! shown, and are taken as none (lowest number first). Under fog
//! (`--option fog=true`) a living enemy's pieces out of sight are placed at
//! random on the fogged hexes: its Jarl, and every Warrior of the starting
//! count not in sight — the view does not say which of them fell out of
//! sight, so the bot assumes the worst, that none did. Whether a piece
//! fell this round is then unknown too and taken as not.

use super::ruleset::Ruleset;
use super::state::{Core, Opts, Phase, Piece, SeatState, State, SLOTS};
use super::view::View;
use super::{playout, NorseWars, Order};
use crate::board::{Hex, HexagonLabels};
use crate::games::{BotSupport, Game, Seat};
use crate::rng::{self, ChaCha20Rng};

fn piece_number(name: &str) -> Option<u8> {
    super::parse_piece(name)
}

pub fn hides(view: &View) -> bool {
    view.fog.is_some() && !view.fogged.is_empty()
}

// A String error: as `BotSupport::determinise`: a bot's failure, never a refusal.
pub fn determinise(rules: &Ruleset, view: &View, rng: &mut ChaCha20Rng) -> Result<State, String> {
    let labels = HexagonLabels {
        radius: view.grid_radius,
    };
    let hex = |l: &str| labels.parse(l).ok_or_else(|| format!("view: no hex `{l}`"));
    let n = view.players.len();
    let seat_of = |id: &str| {
        view.players
            .iter()
            .position(|p| p.id == id)
            .ok_or_else(|| format!("view: no player `{id}`"))
    };
    let me = view.seat - 1;
    let seats = seat_states(view, me);
    let mut pieces: Vec<Piece> = (0..n * SLOTS)
        .map(|k| Piece {
            seat: (k / SLOTS) as u8,
            number: (k % SLOTS) as u8,
            at: None,
        })
        .collect();
    for p in &view.pieces {
        let s = seat_of(&p.owner)?;
        let num = piece_number(&p.piece).ok_or_else(|| format!("view: no piece `{}`", p.piece))?;
        pieces[s * SLOTS + num as usize].at = Some(hex(&p.hex)?);
    }
    let shields = view
        .shields
        .iter()
        .map(|l| hex(l))
        .collect::<Result<Vec<Hex>, String>>()?;
    let phase = match view.phase.as_str() {
        "shields" => Phase::Shields,
        "move" => Phase::Move,
        _ => Phase::Over,
    };
    if hides(view) {
        place_hidden(rules, view, &seats, &shields, &mut pieces, rng)?;
    }
    let opts = Opts {
        fog: view.fog.is_some(),
        draft_shields: phase == Phase::Shields,
        sudden_death: view.sudden_death,
        teams: view.teams,
    };
    let to_move = match &view.to_move {
        Some(id) => Some(seat_of(id)?),
        None => None,
    };
    let mut core = Core {
        grid_radius: view.grid_radius,
        radius: view.radius,
        options: opts,
        seats,
        pieces,
        shields,
        phase,
        shield_order: Vec::new(),
        round: view.round,
        order: Vec::new(),
        next: 0,
        stalemate: view.stalemate,
        eliminated_this_round: view.eliminated_this_round.unwrap_or(false),
        winners: None,
        result: view.result.clone(),
    };
    if phase == Phase::Over {
        core.winners = Some(Vec::new());
    }
    let mut st = State::from_core(core)?;
    set_turn(&mut st, view, to_move)?;
    Ok(st)
}

/// Every seat as the view shows it; only the bot's own standing
/// starvation preference is known (the others' are orders, taken as none).
fn seat_states(view: &View, me: usize) -> Vec<SeatState> {
    view.players
        .iter()
        .enumerate()
        .map(|(i, p)| SeatState {
            alive: p.alive,
            team: p.team.saturating_sub(1),
            starving: p.starving.unwrap_or(false),
            starve_preference: if i == me {
                view.starve_preference
                    .iter()
                    .filter_map(|w| piece_number(w))
                    .collect()
            } else {
                Vec::new()
            },
        })
        .collect()
}

/// Under fog: each living enemy's pieces out of sight (its Jarl and every
/// Warrior of the starting count not shown) at random on free fogged hexes.
fn place_hidden(
    rules: &Ruleset,
    view: &View,
    seats: &[SeatState],
    shields: &[Hex],
    pieces: &mut [Piece],
    rng: &mut ChaCha20Rng,
) -> Result<(), String> {
    let labels = HexagonLabels {
        radius: view.grid_radius,
    };
    let hex = |l: &str| labels.parse(l).ok_or_else(|| format!("view: no hex `{l}`"));
    let n = view.players.len();
    let me = view.seat - 1;
    // Hidden pieces: on fogged hexes that are free.
    let mut free: Vec<Hex> = view
        .fogged
        .iter()
        .map(|l| hex(l))
        .collect::<Result<Vec<Hex>, String>>()?;
    free.retain(|h| *h != Hex::ORIGIN && !shields.contains(h));
    let warriors = rules.scaling_for(n).map_or(0, |s| s.warriors) as usize;
    let my_team = seats[me].team;
    for (s, seat) in seats.iter().enumerate() {
        if !seat.alive || seat.team == my_team {
            continue;
        }
        for num in 0..=warriors {
            let k = s * SLOTS + num;
            if pieces[k].at.is_some() || free.is_empty() {
                continue;
            }
            let i = rng::below(rng, free.len() as u32) as usize;
            pieces[k].at = Some(free.swap_remove(i));
        }
    }
    Ok(())
}

/// Whose turn it is: the round's order and the seat to move, or the
/// Shield draft's remaining order (reverse turn order of round 1, cycling;
/// the placed ones are gone).
fn set_turn(st: &mut State, view: &View, to_move: Option<usize>) -> Result<(), String> {
    match st.phase {
        Phase::Move => {
            st.order = st.round_order();
            let t = to_move.ok_or("view: nobody to move")? as u8;
            st.next = st.order.iter().position(|&s| s == t).unwrap_or(0);
        }
        Phase::Shields => {
            let order = st.round_order();
            let total = view.shields_to_place + view.shields.len();
            let full: Vec<u8> = (0..total)
                .map(|k| order[order.len() - 1 - (k % order.len())])
                .collect();
            st.shield_order = full[total - view.shields_to_place..].to_vec();
        }
        Phase::Over => {}
    }
    Ok(())
}

/// A seat's standing: pieces, the Jarl's way to the Throne, danger at the
/// edge. A fallen Jarl is the game lost.
fn standing(st: &State, seat: usize, to_move: Option<usize>) -> i32 {
    if !st.seats[seat].alive || st.jarl(seat).at.is_none() {
        return -2000;
    }
    let j = st.jarl(seat).at.expect("a living Jarl");
    let warriors = st.pieces_of(seat).filter(|(_, p)| !p.is_jarl()).count() as i32;
    let d = j.length();
    let mut w = 100 * warriors + 30 * (st.radius - d);
    if d == st.radius {
        w -= 40;
    }
    let throne_free = st.piece_at(Hex::ORIGIN).is_none();
    if d == 1 && throne_free {
        w += if to_move == Some(seat) { 900 } else { 150 };
    }
    if st.seats[seat].starving {
        w -= 100;
    }
    w
}

pub fn evaluate(_rules: &Ruleset, st: &State, seat: usize) -> i32 {
    let to_move = st.to_move();
    let team = st.seats[seat].team;
    let n = st.seats.len();
    // A team's standing is its best member's.
    let best_of = |t: u8| {
        (0..n)
            .filter(|&s| st.seats[s].team == t)
            .map(|s| standing(st, s, to_move))
            .max()
            .unwrap_or(-2000)
    };
    let mine = best_of(team);
    let other = (0..n)
        .map(|s| st.seats[s].team)
        .filter(|&t| t != team)
        .map(best_of)
        .max()
        .unwrap_or(-2000);
    mine - other
}

/// Pieces on the board (a Jarl counts 3).
pub fn scores(st: &State) -> Vec<i32> {
    (0..st.seats.len())
        .map(|s| {
            st.pieces_of(s)
                .map(|(_, p)| if p.is_jarl() { 3 } else { 1 })
                .sum()
        })
        .collect()
}

impl BotSupport for NorseWars {
    // A String error: as `BotSupport::determinise`: a bot's failure, never a refusal.
    fn determinise(rules: &Ruleset, view: &View, rng: &mut ChaCha20Rng) -> Result<State, String> {
        determinise(rules, view, rng)
    }
    fn view_hides(_: &Ruleset, view: &View) -> bool {
        hides(view)
    }
    /// A move by [`playout::bot_move`]; a Shield at a random legal spot.
    fn scripted_orders(
        rules: &Ruleset,
        st: &State,
        seat: Seat,
        rng: &mut ChaCha20Rng,
    ) -> Vec<Order> {
        if st.to_move() != Some(seat) {
            return Vec::new();
        }
        match st.phase {
            Phase::Move => playout::bot_move(rules, st, rng)
                .map(|m| vec![Order::Move(m)])
                .unwrap_or_default(),
            _ => crate::rng::pick(rng, &NorseWars::legal_orders(rules, st, seat))
                .cloned()
                .unwrap_or_default(),
        }
    }
    fn evaluate(rules: &Ruleset, st: &State, seat: Seat) -> i32 {
        evaluate(rules, st, seat)
    }
    fn scores(_: &Ruleset, st: &State) -> Vec<i32> {
        scores(st)
    }
    /// The hexes of the board as it started (`Hex::spiral_area` order; a
    /// sudden-death shrink takes none away): a Jarl, a Warrior or a Shield,
    /// the rules' one neutral piece.
    fn occupancy(_: &Ruleset, st: &State) -> Vec<bool> {
        Hex::spiral_area(st.grid_radius)
            .into_iter()
            .map(|h| st.piece_at(h).is_some() || st.is_shield(h))
            .collect()
    }
}
