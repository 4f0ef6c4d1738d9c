//! What the view-only bots need of The Unfought Battle (issue 20): states
//! sampled from what a player's view leaves open, candidate order sets and
//! an evaluation.
//!
//! Determinisation. The terrain, the noose, the turn, your forces, your
//! Shih, both domination counters, the number of living enemy forces, the
//! powers of fallen ones and the enemy forces in sight are in the view.
//! Left open, and sampled: the enemy forces out of sight (placed on
//! playable free hexes out of sight of every living force of yours: the
//! view says they are not in sight); which unknown power each enemy force
//! without a known power has (a random assignment of the powers the view
//! lists as unaccounted for, one each); the enemy's Shih (uniform over
//! 0..=max: the view tells nothing of it). During deployment nothing is
//! hidden: the enemy has not chosen yet, and the simultaneous choice is
//! what the search's decoupled statistics are for.
//!
//! Candidates. A side orders all its forces at once, so the order sets are
//! a product over forces (thousands). A search chooses among a fixed
//! handful drawn for the position: all hold, the demo bot's plan twice
//! (its ties broken two ways), and a dozen random legal sets; for the
//! deployment a dozen random assignments of the powers. The handful is
//! drawn from a stream seeded by the position's turn and the seat, not by
//! the caller, so every determinisation of one view offers the same sets
//! (they never depend on what is hidden) and the search's statistics add up.

use super::board::{parse_hex, Board};
use super::orders::{options, Act, Order};
use super::playout;
use super::ruleset::Ruleset;
use super::state::{End, Force, Phase, Side, State};
use super::view::View;
use super::UnfoughtBattle;
use crate::board::Hex;
use crate::games::{BotSupport, Game, Parts, Seat};
use crate::rng::{self, ChaCha20Rng};

// A String error: as `BotSupport::determinise`: a bot's failure, never a refusal.
fn hex(l: &str) -> Result<Hex, String> {
    parse_hex(l).ok_or_else(|| format!("view: no hex `{l}`"))
}

pub fn hides(view: &View) -> bool {
    view.phase == "orders"
}

// A String error: as `BotSupport::determinise`: a bot's failure, never a refusal.
pub fn determinise(rules: &Ruleset, view: &View, rng: &mut ChaCha20Rng) -> Result<State, String> {
    let me = view.seat - 1;
    let board = board_of(view)?;
    let phase = match view.phase.as_str() {
        "deploy" => Phase::Deploy,
        "orders" => Phase::Orders,
        _ => Phase::Over,
    };
    let mine = my_forces(view)?;
    let domination = |you: bool| {
        view.domination
            .iter()
            .find(|d| d.you == you)
            .map_or(0, |d| d.count)
    };
    let (theirs, known, enemy_shih) = if phase == Phase::Deploy {
        // Nothing is hidden yet: the enemy stands on its start, undeployed.
        let theirs = rules.board.starts[1 - me]
            .iter()
            .enumerate()
            .map(|(i, h)| Force {
                id: i as u8 + 1,
                at: Hex::new(h[0], h[1]),
                power: 0,
                alive: true,
            })
            .collect();
        (theirs, Vec::new(), rules.shih.start)
    } else {
        let (theirs, known) = enemy_forces(rules, view, &board, &mine, rng)?;
        (theirs, known, rng::below(rng, rules.shih.max + 1))
    };
    let my_side = Side {
        shih: view.shih,
        forces: mine,
        domination: domination(true),
        known,
        conceded: false,
    };
    let their_side = Side {
        shih: enemy_shih,
        forces: theirs,
        domination: domination(false),
        known: Vec::new(),
        conceded: false,
    };
    let sides = if me == 0 {
        [my_side, their_side]
    } else {
        [their_side, my_side]
    };
    Ok(State {
        board,
        phase,
        turn: view.turn,
        sides,
        end: (phase == Phase::Over).then(|| End {
            winner: None,
            subject: None,
            how: view.result.clone().unwrap_or_default(),
        }),
    })
}

/// The board as the view shows it (all of it is public).
fn board_of(view: &View) -> Result<Board, String> {
    let hexes = |list: &[String]| -> Result<Vec<Hex>, String> {
        let mut v = list.iter().map(|l| hex(l)).collect::<Result<Vec<_>, _>>()?;
        v.sort();
        Ok(v)
    };
    Ok(Board {
        size: view.size,
        centre: hex(&view.centre)?,
        contentious: hexes(&view.contentious)?,
        difficult: hexes(&view.difficult)?,
        radius: view.radius,
    })
}

/// The bot's own forces, in id order.
fn my_forces(view: &View) -> Result<Vec<Force>, String> {
    let mut mine = Vec::new();
    for f in &view.forces {
        let id: u8 = f
            .name
            .strip_prefix('f')
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| format!("view: no force `{}`", f.name))?;
        mine.push(Force {
            id,
            at: hex(&f.at)?,
            power: f.power,
            alive: f.alive,
        });
    }
    mine.sort_by_key(|f| f.id);
    Ok(mine)
}

/// The enemy's forces after deployment, and the ids of those whose power
/// the bot knows: the ones in sight where they stand, the rest on random
/// playable free hexes out of sight of every living force of the bot's;
/// the powers the view lists as unaccounted for dealt at random to the
/// forces without a known one; the fallen last.
fn enemy_forces(
    rules: &Ruleset,
    view: &View,
    board: &Board,
    mine: &[Force],
    rng: &mut ChaCha20Rng,
) -> Result<(Vec<Force>, Vec<u8>), String> {
    let n = rules.forces.powers.len();
    let mut theirs: Vec<Force> = Vec::with_capacity(n);
    let mut known: Vec<u8> = Vec::new();
    let sight = rules.sight.range;
    let eyes: Vec<Hex> = mine.iter().filter(|f| f.alive).map(|f| f.at).collect();
    let mut taken: Vec<Hex> = eyes.clone();
    let mut unknown_powers = view.enemy_unknown_powers.clone();
    let slots = enemy_slots(view, &mut taken)?;
    let mut free: Vec<Hex> = board
        .hexes()
        .filter(|h| board.playable(*h))
        .filter(|h| eyes.iter().all(|e| e.distance(*h) > sight))
        .filter(|h| !taken.contains(h))
        .collect();
    // Shuffle the unknown powers onto the unknown forces.
    for i in (1..unknown_powers.len()).rev() {
        let j = rng::below(rng, i as u32 + 1) as usize;
        unknown_powers.swap(i, j);
    }
    for (at, power) in slots {
        let at = match at {
            Some(h) => h,
            None => {
                if free.is_empty() {
                    return Err("view: no room out of sight for the enemy forces".into());
                }
                let i = rng::below(rng, free.len() as u32) as usize;
                free.swap_remove(i)
            }
        };
        let id = theirs.len() as u8 + 1;
        let power = match power {
            Some(p) => {
                known.push(id);
                p
            }
            None => unknown_powers.pop().unwrap_or(0),
        };
        theirs.push(Force {
            id,
            at,
            power,
            alive: true,
        });
    }
    for &p in &view.enemy_fallen {
        let id = theirs.len() as u8 + 1;
        known.push(id);
        theirs.push(Force {
            id,
            at: board.centre,
            power: p,
            alive: false,
        });
    }
    if theirs.len() != n {
        return Err(format!(
            "view: {} enemy forces accounted for, the rules have {n}",
            theirs.len()
        ));
    }
    Ok((theirs, known))
}

/// The enemy's living forces as the view tells them: seen ones (their hex,
/// their power where known; each hex added to `taken`), then known ones
/// out of sight, then unknown ones out of sight.
fn enemy_slots(
    view: &View,
    taken: &mut Vec<Hex>,
) -> Result<Vec<(Option<Hex>, Option<u8>)>, String> {
    let mut slots: Vec<(Option<Hex>, Option<u8>)> = Vec::new();
    for e in &view.enemies {
        let h = hex(&e.at)?;
        taken.push(h);
        slots.push((Some(h), e.power));
    }
    for &p in &view.enemy_known_unseen {
        slots.push((None, Some(p)));
    }
    while slots.len() < view.enemy_alive {
        slots.push((None, None));
    }
    Ok(slots)
}

/// How many random order sets a candidate list holds.
pub const RANDOM_CANDIDATES: usize = 12;

pub fn candidates(rules: &Ruleset, st: &State, seat: usize) -> Vec<Vec<Order>> {
    let mut r = rng::from_u64(0x5eed_0000 ^ ((st.turn as u64) << 4) ^ seat as u64);
    let mut out: Vec<Vec<Order>> = Vec::new();
    let push = |o: Vec<Order>, out: &mut Vec<Vec<Order>>| {
        if !out.contains(&o) {
            out.push(o);
        }
    };
    match st.phase {
        Phase::Over => {}
        Phase::Deploy => {
            for _ in 0..RANDOM_CANDIDATES {
                push(playout::deployment(rules, &mut r), &mut out);
            }
        }
        Phase::Orders => {
            push(Vec::new(), &mut out);
            for _ in 0..2 {
                push(playout::bot_orders(rules, st, seat, &mut r), &mut out);
            }
            for _ in 0..RANDOM_CANDIDATES {
                push(playout::random_orders(rules, st, seat, &mut r), &mut out);
            }
        }
    }
    out
}

/// A side's orders split into one decision per living force (issue 35,
/// searched by the per-piece bandits of `bots::factored`): option 0 is the
/// force's act in the demo bot's plan (drawn from the same position-seeded
/// stream as [`candidates`], so every determinisation of one view gets the
/// same parts), option 1 holding, then every other act [`options`] allows.
/// A force's acts depend on the board, its own hex and the enemies in
/// sight, never on what is hidden. `None` outside the orders phase: the
/// deployment stays one decision among [`candidates`].
pub fn parts(rules: &Ruleset, st: &State, seat: usize) -> Option<Parts<Order>> {
    if st.phase != Phase::Orders {
        return None;
    }
    let mut r = rng::from_u64(0x5eed_0000 ^ ((st.turn as u64) << 4) ^ seat as u64);
    let plan = playout::bot_orders(rules, st, seat, &mut r);
    let as_orders = |force: u8, act: Act| match act {
        Act::Hold => Vec::new(),
        act => vec![Order::Act { force, act }],
    };
    let parts = st.sides[seat]
        .living()
        .map(|f| {
            let planned = plan
                .iter()
                .find_map(|o| match *o {
                    Order::Act { force, act } if force == f.id => Some(act),
                    _ => None,
                })
                .unwrap_or(Act::Hold);
            let mut acts = vec![planned];
            if planned != Act::Hold {
                acts.push(Act::Hold);
            }
            acts.extend(
                options(rules, st, seat, f.id)
                    .into_iter()
                    .filter(|a| *a != planned && *a != Act::Hold),
            );
            acts.into_iter().map(|a| as_orders(f.id, a)).collect()
        })
        .collect();
    Some(Parts { parts })
}

/// One option per force made legal on `st`: in the parts' order, a force
/// whose act the Shih left can no longer pay for, or whose move ends where
/// an earlier force's move ends, holds instead (the plan itself, option 0
/// throughout, is legal as it stands).
pub fn combine(
    rules: &Ruleset,
    st: &State,
    seat: usize,
    parts: &Parts<Order>,
    choice: &[usize],
) -> Vec<Order> {
    let side = &st.sides[seat];
    let mut shih = side.shih;
    let mut targets: Vec<Hex> = Vec::new();
    let mut out = Vec::new();
    for (p, &c) in parts.parts.iter().zip(choice) {
        let Some(&Order::Act { force, act }) = p.get(c).and_then(|o| o.first()) else {
            continue;
        };
        let cost = rules.cost(act.kind());
        if cost > shih {
            continue;
        }
        if let Act::Move(d) = act {
            let to = side.forces[force as usize - 1].at.step(d);
            if targets.contains(&to) {
                continue;
            }
            targets.push(to);
        }
        shih -= cost;
        out.push(Order::Act { force, act });
    }
    out
}

fn standing(rules: &Ruleset, st: &State, seat: usize) -> i32 {
    let me = &st.sides[seat];
    let them = &st.sides[1 - seat];
    let sovereign = rules.forces.sovereign;
    let Some(sov) = me.living().find(|f| f.power == sovereign) else {
        return -2000;
    };
    let mut w: i32 = me.living().map(|f| 40 * f.power as i32).sum();
    w += 8 * me.shih as i32;
    w += 150 * me.domination as i32;
    w += 60 * st.holds(seat).len() as i32;
    for e in them.living() {
        match e.at.distance(sov.at) {
            1 => w -= 80,
            2 => w -= 30,
            _ => {}
        }
    }
    // Forces the noose will take at its next step.
    let next = Board::radius_after(
        rules,
        st.turn.div_ceil(rules.shrink.every) * rules.shrink.every,
    );
    if let Some(r) = next {
        for f in me.living() {
            if f.at.distance(st.board.centre) > r {
                w -= if f.power == sovereign { 400 } else { 50 };
            }
        }
    }
    w
}

/// Three times the difference of the sides' standing: a Sovereign in
/// danger, a Contentious hex or a force of power 3 is then worth a tenth
/// of the reward scale to a search, not a fortieth.
pub fn evaluate(rules: &Ruleset, st: &State, seat: usize) -> i32 {
    3 * (standing(rules, st, seat) - standing(rules, st, 1 - seat))
}

/// The powers of each side's living forces.
pub fn scores(st: &State) -> Vec<i32> {
    (0..2)
        .map(|s| st.sides[s].living().map(|f| f.power as i32).sum())
        .collect()
}

impl BotSupport for UnfoughtBattle {
    // A String error: as `BotSupport::determinise`: a bot's failure, never a refusal.
    fn determinise(rules: &Ruleset, view: &View, rng: &mut ChaCha20Rng) -> Result<State, String> {
        determinise(rules, view, rng)
    }
    fn view_hides(_: &Ruleset, view: &View) -> bool {
        hides(view)
    }
    fn candidate_orders(
        rules: &Ruleset,
        st: &State,
        seat: Seat,
        _: &mut ChaCha20Rng,
    ) -> Vec<Vec<Order>> {
        candidates(rules, st, seat)
    }
    /// Each living force picks uniformly among its affordable orders.
    fn random_orders(rules: &Ruleset, st: &State, seat: Seat, rng: &mut ChaCha20Rng) -> Vec<Order> {
        playout::random_orders(rules, st, seat, rng)
    }
    /// [`playout::bot_orders`].
    fn scripted_orders(
        rules: &Ruleset,
        st: &State,
        seat: Seat,
        rng: &mut ChaCha20Rng,
    ) -> Vec<Order> {
        playout::bot_orders(rules, st, seat, rng)
    }
    fn parts(rules: &Ruleset, st: &State, seat: Seat, _: &mut ChaCha20Rng) -> Option<Parts<Order>> {
        parts(rules, st, seat)
    }
    fn combine(
        rules: &Ruleset,
        st: &State,
        seat: Seat,
        parts: &Parts<Order>,
        choice: &[usize],
    ) -> Vec<Order> {
        combine(rules, st, seat, parts, choice)
    }
    /// The enemy in the search plays as the scripted player would on the
    /// determinisation: against random orders the search learns what
    /// beats random orders (docs/bots.md, "Big games").
    fn model_orders(rules: &Ruleset, st: &State, seat: Seat, rng: &mut ChaCha20Rng) -> Vec<Order> {
        playout::bot_orders(rules, st, seat, rng)
    }
    /// Playouts by the scripted player, every seat: random orders here
    /// are noise (they scatter forces the scripted player keeps together),
    /// and the search against greedy went from 45% to 80% of the games
    /// with it (docs/playtest/unfought-battle.md).
    fn playout_phase(rules: &Ruleset, st: &mut State, rng: &mut ChaCha20Rng) {
        let mut orders = std::collections::BTreeMap::new();
        for s in <Self as Game>::awaiting(rules, st) {
            orders.insert(s, playout::bot_orders(rules, st, s, rng));
        }
        *st = <Self as Game>::resolve(rules, st, &orders, &mut crate::rng::Dice::quiet(rng)).0;
    }
    /// Three turns: playouts to the end of this short game are noise
    /// (`docs/playtest/unfought-battle.md`).
    const PLAYOUT_DEPTH: u32 = 3;
    fn evaluate(rules: &Ruleset, st: &State, seat: Seat) -> i32 {
        evaluate(rules, st, seat)
    }
    fn scores(_: &Ruleset, st: &State) -> Vec<i32> {
        scores(st)
    }
    /// Every hex of the rhombus, Scorched ones too (q-major, as
    /// `Board::hexes`): a living force of either side.
    fn occupancy(_: &Ruleset, st: &State) -> Vec<bool> {
        let b = &st.board;
        let mut occ = vec![false; b.hexes().count()];
        for f in st.sides.iter().flat_map(|s| s.living()) {
            if b.on_board(f.at) {
                occ[(f.at.q * b.size + f.at.r) as usize] = true;
            }
        }
        occ
    }
}
