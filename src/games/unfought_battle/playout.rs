//! Random playouts and the demo bot, on the typed state: what benchmarks,
//! playout tests and `herald demo` use. The bot sees only what its player
//! may see (its own forces, enemies within sight, known powers).

use super::adjudicate;
use super::events::Event;
use super::orders::{options, Act, Order};
use super::ruleset::Ruleset;
use super::setup;
use super::state::{Phase, State};
use super::upkeep;
use crate::board::Hex;
use crate::rng::{self, ChaCha20Rng, Dice};
use std::collections::BTreeMap;

/// A fresh game on a board drawn from `rng`, awaiting deployment.
pub fn new_game(rules: &Ruleset, rng: &mut ChaCha20Rng) -> State {
    let board = setup::generate(rules, rng).expect("the built-in ruleset draws fair boards");
    setup::standard(rules, board)
}

/// A uniformly shuffled assignment of the powers.
pub fn deployment(rules: &Ruleset, rng: &mut ChaCha20Rng) -> Vec<Order> {
    let mut powers = rules.forces.powers.clone();
    for i in (1..powers.len()).rev() {
        let j = rng::below(rng, i as u32 + 1) as usize;
        powers.swap(i, j);
    }
    powers
        .into_iter()
        .enumerate()
        .map(|(i, power)| Order::Deploy {
            force: i as u8 + 1,
            power,
        })
        .collect()
}

/// Random legal orders: each living force in turn picks uniformly among
/// its orders still affordable and not moving into a hex another of its
/// side's forces already moves into. Holds are left out of the list.
pub fn random_orders(
    rules: &Ruleset,
    st: &State,
    seat: usize,
    rng: &mut ChaCha20Rng,
) -> Vec<Order> {
    match st.phase {
        Phase::Deploy => return deployment(rules, rng),
        Phase::Over => return Vec::new(),
        Phase::Orders => {}
    }
    let side = &st.sides[seat];
    let mut shih = side.shih;
    let mut targets: Vec<Hex> = Vec::new();
    let mut out = Vec::new();
    for f in side.living() {
        let choices: Vec<Act> = options(rules, st, seat, f.id)
            .into_iter()
            .filter(|a| rules.cost(a.kind()) <= shih)
            .filter(|a| match a {
                Act::Move(d) => !targets.contains(&f.at.step(*d)),
                _ => true,
            })
            .collect();
        let act = *rng::pick(rng, &choices).unwrap_or(&Act::Hold);
        shih -= rules.cost(act.kind());
        if let Act::Move(d) = act {
            targets.push(f.at.step(d));
        }
        if act != Act::Hold {
            out.push(Order::Act { force: f.id, act });
        }
    }
    out
}

/// What the demo bot knows of the enemy and the noose for one turn.
struct Outlook {
    /// Enemy forces in sight: where, and the power where known.
    seen: Vec<(Hex, Option<u8>)>,
    /// The strongest power an unknown enemy force may have.
    threat: u8,
    /// The playable area's radius after the noose's next step, if any.
    next_radius: Option<i32>,
}

impl Outlook {
    fn of(rules: &Ruleset, st: &State, seat: usize) -> Outlook {
        let me = &st.sides[seat];
        let them = &st.sides[1 - seat];
        let range = rules.sight.range;
        let seen = them
            .living()
            .filter(|e| me.living().any(|f| f.at.distance(e.at) <= range))
            .map(|e| (e.at, me.knows(e.id).then_some(e.power)))
            .collect();
        let known: Vec<u8> = them
            .forces
            .iter()
            .filter(|e| me.knows(e.id))
            .map(|e| e.power)
            .collect();
        let threat = rules
            .forces
            .powers
            .iter()
            .copied()
            .filter(|p| !known.contains(p))
            .max()
            .unwrap_or(0);
        let next_radius = super::board::Board::radius_after(
            rules,
            st.turn.div_ceil(rules.shrink.every) * rules.shrink.every,
        );
        Outlook {
            seen,
            threat,
            next_radius,
        }
    }

    /// Playable and inside the noose's next ring.
    fn safe(&self, st: &State, h: Hex) -> bool {
        st.board.playable(h)
            && self
                .next_radius
                .is_none_or(|r| h.distance(st.board.centre) <= r)
    }
}

/// The demo bot: soldiers head for the Contentious hexes (staying inside
/// the next ring of the noose), attack a seen enemy they likely beat,
/// fortify or ambush when an enemy is near and Shih allows, scout unknown
/// enemies now and then; the Sovereign keeps inside the noose and fortifies
/// when threatened.
pub fn bot_orders(rules: &Ruleset, st: &State, seat: usize, rng: &mut ChaCha20Rng) -> Vec<Order> {
    if st.phase != Phase::Orders {
        return random_orders(rules, st, seat, rng);
    }
    let me = &st.sides[seat];
    let look = Outlook::of(rules, st, seat);
    let mut shih = me.shih;
    let mut taken: Vec<Hex> = Vec::new();
    let mut out = Vec::new();
    // The Sovereign chooses first: the others make way for it.
    let mut order: Vec<&super::state::Force> = me.living().collect();
    order.sort_by_key(|f| (f.power != rules.forces.sovereign, f.id));
    for f in order {
        let mut act = bot_act(rules, st, seat, f, &look, &taken, shih, rng);
        if rules.cost(act.kind()) > shih {
            act = Act::Hold;
        }
        shih -= rules.cost(act.kind());
        if let Act::Move(d) = act {
            taken.push(f.at.step(d));
        }
        if act != Act::Hold {
            out.push(Order::Act { force: f.id, act });
        }
    }
    out
}

/// The demo bot's act for force `f`, the hexes in `taken` already claimed
/// by the forces before it: attack a neighbour it likely beats, else head
/// for its goal (the Sovereign the centre, the others the nearest safe
/// Contentious hex), else guard, scout or lie in ambush.
#[allow(clippy::too_many_arguments)]
fn bot_act(
    rules: &Ruleset,
    st: &State,
    seat: usize,
    f: &super::state::Force,
    look: &Outlook,
    taken: &[Hex],
    shih: u32,
    rng: &mut ChaCha20Rng,
) -> Act {
    let sovereign = f.power == rules.forces.sovereign;
    let legal = options(rules, st, seat, f.id);
    let near: Vec<&(Hex, Option<u8>)> = look
        .seen
        .iter()
        .filter(|(h, _)| h.distance(f.at) == 1)
        .collect();
    // Attack a neighbour we likely beat.
    if !sovereign {
        let prey = near.iter().find(|(_, p)| {
            let p = p.unwrap_or(look.threat);
            f.power > p || (f.power >= 4 && rng::below(rng, 3) == 0)
        });
        if let Some((h, _)) = prey {
            if let Some(d) = crate::board::Dir::ALL
                .into_iter()
                .find(|d| f.at.step(*d) == *h)
            {
                if !taken.contains(h) {
                    return Act::Move(d);
                }
            }
        }
    }
    // Otherwise head for a goal, or guard.
    let act = step_to_goal(rules, st, seat, f, look, &legal, taken, rng);
    if act != Act::Hold {
        act
    } else if !near.is_empty() {
        if sovereign || rng::below(rng, 2) == 0 {
            Act::Fortify
        } else {
            Act::Ambush
        }
    } else if shih >= rules.orders.scout + 2 && rng::below(rng, 2) == 0 {
        legal
            .iter()
            .find(|a| match a {
                Act::Scout(h) => look.seen.iter().any(|(e, p)| e == h && p.is_none()),
                _ => false,
            })
            .copied()
            .unwrap_or(Act::Hold)
    } else if !look.seen.is_empty() && rng::below(rng, 4) == 0 {
        Act::Ambush
    } else {
        Act::Hold
    }
}

/// The demo bot's step towards force `f`'s goal, or `Hold` where it stays:
/// on its goal, a Sovereign inside the noose two times in three, or where
/// no free step brings it closer (a force outside the noose, or standing
/// where the Sovereign steps, moves anyway).
#[allow(clippy::too_many_arguments)]
fn step_to_goal(
    rules: &Ruleset,
    st: &State,
    seat: usize,
    f: &super::state::Force,
    look: &Outlook,
    legal: &[Act],
    taken: &[Hex],
    rng: &mut ChaCha20Rng,
) -> Act {
    let me = &st.sides[seat];
    let sovereign = f.power == rules.forces.sovereign;
    let must_leave = taken.contains(&f.at);
    let goal = if sovereign {
        st.board.centre
    } else {
        let mut goals: Vec<Hex> = st
            .board
            .contentious
            .iter()
            .copied()
            .filter(|h| look.safe(st, *h))
            .collect();
        goals.sort_by_key(|h| (h.distance(f.at), *h));
        goals.first().copied().unwrap_or(st.board.centre)
    };
    let inside = look.safe(st, f.at);
    let hold_ground = f.at == goal || (sovereign && inside && rng::below(rng, 3) > 0);
    if hold_ground && inside && !must_leave {
        return Act::Hold;
    }
    let mut steps: Vec<(bool, i32, u32, Act)> = legal
        .iter()
        .filter_map(|a| match a {
            Act::Move(d) => Some((*d, f.at.step(*d))),
            _ => None,
        })
        // The Sovereign may step where a friend stands (it is made to
        // leave); the others go only to free hexes.
        .filter(|(_, h)| !taken.contains(h) && (sovereign || me.at(*h).is_none()))
        .filter(|(_, h)| {
            !sovereign || !inside || !look.seen.iter().any(|(e, _)| e.distance(*h) <= 1)
        })
        .map(|(d, h)| {
            (
                !look.safe(st, h),
                h.distance(goal),
                rng::below(rng, 4),
                Act::Move(d),
            )
        })
        .collect();
    steps.sort();
    match steps.first() {
        Some(&(_, dist, _, a)) if dist < f.at.distance(goal) || !inside || must_leave => a,
        _ => Act::Hold,
    }
}

/// Resolve one phase on the typed state, as the engine does (the events
/// are appended to `ev`).
pub fn step(
    rules: &Ruleset,
    st: &State,
    orders: &BTreeMap<usize, Vec<Order>>,
    dice: &mut Dice,
    ev: &mut Vec<Event>,
) -> State {
    let mut next = st.clone();
    match st.phase {
        Phase::Over => {}
        Phase::Deploy => {
            for (&seat, list) in orders {
                for o in list {
                    if let Order::Deploy { force, power } = *o {
                        next.sides[seat].forces[force as usize - 1].power = power;
                    }
                }
            }
            next.phase = Phase::Orders;
            ev.push(Event::Deployed);
        }
        Phase::Orders => {
            let conceders: Vec<usize> = orders
                .iter()
                .filter(|(_, l)| l.contains(&Order::Concede))
                .map(|(s, _)| *s)
                .collect();
            if !conceders.is_empty() {
                for &s in &conceders {
                    next.sides[s].conceded = true;
                    ev.push(Event::Conceded { seat: s });
                }
                let end = if conceders.len() == 2 {
                    super::state::End {
                        winner: None,
                        subject: None,
                        how: "both sides conceded".to_string(),
                    }
                } else {
                    super::state::End {
                        winner: Some(1 - conceders[0]),
                        subject: Some(conceders[0]),
                        how: "conceded".to_string(),
                    }
                };
                upkeep::finish(&mut next, end, ev);
            } else {
                adjudicate::resolve(rules, &mut next, orders, dice, ev);
                upkeep::upkeep(rules, &mut next, ev);
            }
        }
    }
    next
}

/// Play a whole game with `pick` choosing each seat's orders; returns the
/// final state and the number of phases played.
pub fn play(
    rules: &Ruleset,
    mut st: State,
    rng: &mut ChaCha20Rng,
    pick: fn(&Ruleset, &State, usize, &mut ChaCha20Rng) -> Vec<Order>,
    events: &mut Vec<Event>,
) -> (State, u32) {
    let mut phases = 0;
    while st.phase != Phase::Over && phases < 1000 {
        let orders: BTreeMap<usize, Vec<Order>> =
            (0..2).map(|s| (s, pick(rules, &st, s, rng))).collect();
        events.clear();
        st = step(rules, &st, &orders, &mut Dice::quiet(rng), events);
        phases += 1;
    }
    (st, phases)
}
