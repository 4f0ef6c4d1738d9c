//! What the view-only bots need of HEXWAR (issue 20): the state rebuilt
//! from a player's view (HEXWAR hides nothing, so exactly), candidate turns
//! and an evaluation.
//!
//! Candidates: every legal Move action (and rebirth) alone and, where the
//! template lets a rotation follow, the same move followed by turning the
//! moved piece to the facing that gives it the most captures next turn;
//! every single rotation; `pass`. The full product of a template's actions
//! (about 115,000 turns at the start under template E) is far too many for
//! a search; the "move, then aim" turns keep the branching near a hundred.

use super::movegen::Action;
use super::piece::Piece;
use super::play::Plan;
use super::play::{order_of, Order};
use super::ruleset::{Movement, Ruleset, CELLS};
use super::state::{parse_side, Finish, How, State, LABELS};
use super::view::View;
use super::{playout, Hexwar};
use crate::board::Dir;
use crate::games::{BotSupport, Game, Seat};
use crate::rng::ChaCha20Rng;

// A String error: as `BotSupport::determinise`: a bot's failure, never a refusal.
pub fn determinise(rules: &Ruleset, view: &View) -> Result<State, String> {
    let template = rules
        .templates
        .iter()
        .position(|t| t.name == view.template)
        .ok_or_else(|| format!("view: no template `{}`", view.template))? as u8;
    let mut st = State::empty(template);
    st.turn = view.turn as u16;
    for p in &view.pieces {
        let side = parse_side(&p.side).ok_or_else(|| format!("view: no side `{}`", p.side))?;
        let kind = rules
            .kinds
            .iter()
            .position(|k| k.name == p.piece && k.side == side)
            .ok_or_else(|| format!("view: no piece `{}` for {}", p.piece, p.side))?;
        let h = LABELS
            .parse(&p.hex)
            .ok_or_else(|| format!("view: no hex `{}`", p.hex))?;
        let c = rules.geo.cell(h).ok_or("view: a piece off the board")? as usize;
        let f = Dir::parse(&p.facing).ok_or_else(|| format!("view: no facing `{}`", p.facing))?;
        st.board[c] = Piece::new(kind as u8, side, f).0;
    }
    for s in &view.sides {
        let side = parse_side(&s.side).ok_or_else(|| format!("view: no side `{}`", s.side))?;
        for name in &s.graveyard {
            let k = rules
                .kinds
                .iter()
                .position(|k| &k.name == name)
                .ok_or_else(|| format!("view: no piece `{name}` in a graveyard"))?;
            st.graveyard[side as usize][k] += 1;
        }
    }
    match view.to_move_side.as_deref() {
        Some(s) => st.side = parse_side(s).ok_or_else(|| format!("view: no side `{s}`"))?,
        None => {
            st.finish = Some(Finish {
                winner: 0,
                how: How::KingCaptured,
            })
        }
    }
    Ok(st)
}

/// Captures the piece on `at` could make from where it stands.
fn captures(rules: &Ruleset, st: &State, at: usize, buf: &mut Vec<Action>) -> usize {
    buf.clear();
    st.piece_moves(rules, at, buf);
    buf.iter()
        .filter(|a| matches!(a, Action::Move { to, .. } if st.board[*to as usize] != 0))
        .count()
}

pub fn candidates(rules: &Ruleset, st: &State, seat: usize) -> Vec<Vec<Order>> {
    if st.is_over() || st.side as usize != seat {
        return Vec::new();
    }
    let t = &rules.templates[st.template as usize];
    let mut out = Vec::new();
    let mut acts = Vec::new();
    let mut buf = Vec::new();
    let aim = t.slots.len() >= 2 && t.slots[0].takes_move() && t.slots[1].takes_rotate();
    if t.slots.iter().any(|s| s.takes_move()) {
        st.moves(rules, &mut acts);
        for &a in &acts {
            let first = order_of(rules, st, a);
            out.push(vec![first.clone()]);
            let Action::Move { to, .. } = a else {
                continue;
            };
            if !aim {
                continue;
            }
            let mut after = st.clone();
            after.apply(rules, a);
            if after.is_over() {
                continue;
            }
            let p = Piece(after.board[to as usize]);
            let now = captures(rules, &after, to as usize, &mut buf);
            let mut best = (now, p.facing_index() as u8);
            for f in 0..6u8 {
                if f as usize == p.facing_index() {
                    continue;
                }
                after.board[to as usize] = p.with_facing(f).0;
                let n = captures(rules, &after, to as usize, &mut buf);
                if n > best.0 {
                    best = (n, f);
                }
            }
            after.board[to as usize] = p.0;
            if best.1 as usize != p.facing_index() {
                let rot = order_of(
                    rules,
                    &after,
                    Action::Rotate {
                        at: to,
                        facing: best.1,
                    },
                );
                out.push(vec![first, rot]);
            }
        }
    }
    if t.slots.iter().any(|s| s.takes_rotate()) {
        st.rotations(&mut acts);
        out.extend(acts.iter().map(|a| vec![order_of(rules, st, *a)]));
    }
    out.push(vec![Order::Pass]);
    out
}

/// What a piece type is worth: more for more reach. Royal pieces end the
/// game when taken and the phased Specter cannot be taken: neither counts.
pub fn worth(rules: &Ruleset, kind: usize) -> i32 {
    let k = &rules.kinds[kind];
    if k.royal || k.phased {
        return 0;
    }
    let dirs = k.relative.count_ones() as i32;
    let reach = match k.movement {
        Movement::Step(n) => n as i32,
        Movement::Slide => 4,
        Movement::Jump(n) => n as i32,
    };
    50 + 15 * dirs * reach
}

fn material(rules: &Ruleset, st: &State, side: u8) -> i32 {
    st.pieces()
        .filter(|(_, p)| p.side() == side)
        .map(|(_, p)| worth(rules, p.kind() as usize))
        .sum()
}

pub fn evaluate(rules: &Ruleset, st: &State, seat: usize) -> i32 {
    let me = seat as u8;
    let mut e = material(rules, st, me) - material(rules, st, me ^ 1);
    if !st.is_over() {
        // The side to move takes a royal piece in reach: as good as won.
        let mover = st.side;
        if let Some(r) = st.royal(rules, mover ^ 1) {
            let mut acts = Vec::new();
            st.moves(rules, &mut acts);
            if acts
                .iter()
                .any(|a| matches!(a, Action::Move { to, .. } if *to as usize == r))
            {
                e += if mover == me { 800 } else { -800 };
            }
        }
        // The turn-limit tiebreak: the royal piece nearer the centre.
        let dist = |side: u8| {
            st.royal(rules, side)
                .map_or(9, |c| rules.geo.centre_distance[c] as i32)
        };
        let late = st.turn as i32 * 40 / rules.turn_limit.max(1) as i32;
        e += (dist(me ^ 1) - dist(me)) * (5 + late);
    }
    e
}

/// The closed-loop search's order of candidates (`src/bots/closed.rs`):
/// a royal piece taken first, then other captures by the taken piece's
/// worth, quiet moves (aimed ones first), rotations, the pass.
pub fn priority(rules: &Ruleset, st: &State, orders: &[Order]) -> i32 {
    match orders.first() {
        Some(Order::Move { to, .. }) => {
            let taken = rules
                .geo
                .cell(*to)
                .map(|c| Piece(st.board[c as usize]))
                .filter(|p| p.0 != 0 && p.side() != st.side);
            match taken {
                Some(p) if rules.kinds[p.kind() as usize].royal => 100_000,
                Some(p) => 1_000 + worth(rules, p.kind() as usize),
                None => 10 + orders.len() as i32,
            }
        }
        Some(Order::Rebirth { .. }) => 10,
        Some(Order::Rotate { .. }) => 0,
        _ => -1,
    }
}

/// The features of a candidate turn the learned prior weighs
/// (`src/bots/prior.rs`), in the order [`features`] writes them.
pub const FEATURES: &[&str] = &[
    "royal_capture",
    "capture",
    "capture_worth",
    "moved_worth",
    "risk",
    "escape",
    "defended",
    "royal_move",
    "royal_centre",
    "royal_centre_late",
    "centre",
    "aimed",
    "rotate",
    "rebirth",
    "pass",
];

/// The cells `side`'s pieces could move to now (captures included).
fn reach_of(rules: &Ruleset, st: &State, side: u8, buf: &mut Vec<Action>) -> [bool; CELLS] {
    let mut on = [false; CELLS];
    for (c, p) in st.pieces() {
        if p.side() != side {
            continue;
        }
        buf.clear();
        st.piece_moves(rules, c, buf);
        for a in buf.iter() {
            if let Action::Move { to, .. } = a {
                on[*to as usize] = true;
            }
        }
    }
    on
}

/// Each candidate's features ([`FEATURES`]), appended to `out`: what it
/// takes and how much that is worth, what moves (its worth, whether it
/// lands where the enemy reaches or leaves such a cell, whether a friend
/// covers where it lands), the royal piece's walk to the centre (the turn
/// limit's tiebreak; weighed again by how late it is), the moved piece's,
/// an aimed move, a rotation, a rebirth, the pass. Worths in tenths.
pub fn features(rules: &Ruleset, st: &State, cands: &[Vec<Order>], out: &mut Vec<i32>) {
    let me = st.side;
    let mut buf = Vec::new();
    let theirs = reach_of(rules, st, me ^ 1, &mut buf);
    let ours = reach_of(rules, st, me, &mut buf);
    let late = st.turn as i32 * 10 / rules.turn_limit.max(1) as i32;
    let cell = |h| rules.geo.cell(h).map(|c| c as usize);
    for c in cands {
        let mut f = [0i32; 15];
        match c.first() {
            Some(Order::Move { from, to }) => {
                if let (Some(a), Some(b)) = (cell(*from), cell(*to)) {
                    let p = Piece(st.board[a]);
                    let k = &rules.kinds[p.kind() as usize];
                    let w = if k.royal {
                        50
                    } else {
                        worth(rules, p.kind() as usize) / 10
                    };
                    if let Some(t) = st.piece(b).filter(|t| t.side() != me) {
                        let tk = t.kind() as usize;
                        f[0] = i32::from(rules.kinds[tk].royal);
                        f[1] = 1;
                        f[2] = worth(rules, tk) / 10;
                    }
                    f[3] = w;
                    f[4] = if theirs[b] { w } else { 0 };
                    f[5] = if theirs[a] && !theirs[b] { w } else { 0 };
                    f[6] = i32::from(ours[b]);
                    let d = |x: usize| rules.geo.centre_distance[x] as i32;
                    if k.royal {
                        f[7] = 1;
                        f[8] = d(a) - d(b);
                        f[9] = f[8] * late;
                    } else {
                        f[10] = d(a) - d(b);
                    }
                }
                f[11] = i32::from(c.len() > 1);
            }
            Some(Order::Rotate { .. }) => f[12] = 1,
            Some(Order::Rebirth { .. }) => f[13] = 1,
            _ => f[14] = 1,
        }
        out.extend_from_slice(&f);
    }
}

pub fn scores(rules: &Ruleset, st: &State) -> Vec<i32> {
    (0..2).map(|s| material(rules, st, s)).collect()
}

impl BotSupport for Hexwar {
    // A String error: as `BotSupport::determinise`: a bot's failure, never a refusal.
    fn determinise(rules: &Ruleset, view: &View, _: &mut ChaCha20Rng) -> Result<State, String> {
        determinise(rules, view)
    }
    fn candidate_orders(
        rules: &Ruleset,
        st: &State,
        seat: Seat,
        _: &mut ChaCha20Rng,
    ) -> Vec<Vec<Order>> {
        candidates(rules, st, seat)
    }
    /// Uniform over the legal single actions and the pass.
    fn random_orders(rules: &Ruleset, st: &State, seat: Seat, rng: &mut ChaCha20Rng) -> Vec<Order> {
        crate::rng::pick(rng, &Hexwar::legal_orders(rules, st, seat))
            .cloned()
            .unwrap_or_default()
    }
    /// The turn [`playout::bot_turn`] plans, as orders.
    fn scripted_orders(
        rules: &Ruleset,
        st: &State,
        seat: Seat,
        rng: &mut ChaCha20Rng,
    ) -> Vec<Order> {
        if st.is_over() || st.side as Seat != seat {
            return Vec::new();
        }
        match playout::bot_turn(rules, st, rng) {
            Plan::Actions(list) => {
                let mut sim = st.clone();
                list.iter()
                    .map(|a| {
                        let o = order_of(rules, &sim, *a);
                        sim.apply(rules, *a);
                        o
                    })
                    .collect()
            }
            Plan::Pass => vec![Order::Pass],
            Plan::Surrender => vec![Order::Surrender],
        }
    }
    /// HEXWAR has no dice: the search keeps its nodes' states.
    const DETERMINISTIC: bool = true;
    fn priority(rules: &Ruleset, st: &State, _: Seat, orders: &[Order]) -> i32 {
        priority(rules, st, orders)
    }
    const FEATURES: &'static [&'static str] = FEATURES;
    const WEIGHTS: &'static str = include_str!("../../../games/hexwar.weights");
    fn features(rules: &Ruleset, st: &State, _: Seat, cands: &[Vec<Order>], out: &mut Vec<i32>) {
        features(rules, st, cands, out)
    }
    /// [`playout::random_turn`] on the typed state: no orders built.
    fn playout_phase(rules: &Ruleset, st: &mut State, rng: &mut ChaCha20Rng) {
        if !st.is_over() {
            playout::random_turn(rules, st, rng, &mut playout::Scratch::new());
        }
    }
    /// Two turns, then the evaluation (which sees a royal piece left in
    /// reach of capture): longer random playouts in HEXWAR rarely end the
    /// game and leave the evaluation at their end mostly noise.
    const PLAYOUT_DEPTH: u32 = 2;
    fn evaluate(rules: &Ruleset, st: &State, seat: Seat) -> i32 {
        evaluate(rules, st, seat)
    }
    fn scores(rules: &Ruleset, st: &State) -> Vec<i32> {
        scores(rules, st)
    }
    /// The 61 hexes in cell order: a piece of either side.
    fn occupancy(_: &Ruleset, st: &State) -> Vec<bool> {
        st.board.iter().map(|&c| c != 0).collect()
    }
}
