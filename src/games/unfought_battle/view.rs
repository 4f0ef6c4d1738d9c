//! What one player may see — the only source of that player's report and
//! view.json. Fog of war: the terrain is public; enemy forces show only
//! within sight of one of the viewer's living forces, sorted by hex and
//! marked E1, E2 … afresh in every report (no stable identity), with their
//! power once it is known (scouted, fought, fallen) and otherwise their
//! threat: the highest power not yet accounted for. Events are told only
//! to the players who may know them, and never name an enemy force.

use super::board::{label, parse_hex};
use super::events::{CombatKind, Event, Fighter};
use super::orders::options;
use super::ruleset::Ruleset;
use super::state::{Phase, State};
use crate::board::svg::{Arrow, ArrowKind};
use crate::board::Hex;
use crate::games::{Seat, Seen};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct OwnForce {
    pub name: String,
    pub at: String,
    /// 0 before deployment.
    pub power: u8,
    pub sovereign: bool,
    pub alive: bool,
    pub terrain: String,
    /// The orders it may be given now (costs in Shih beside them).
    pub options: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct EnemyForce {
    /// E1, E2 …: numbered for this report only, in hex order.
    pub mark: String,
    /// Its own name (f1 …), in the omniscient view only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub at: String,
    /// Known power (scouted or revealed in combat).
    pub power: Option<u8>,
    /// The highest power it may have, given what you know.
    pub threat: u8,
}

#[derive(Debug, Clone, Serialize)]
pub struct ShrinkStep {
    pub after_turn: u32,
    pub radius: i32,
    pub hexes: usize,
    pub done: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Domination {
    pub player: String,
    pub you: bool,
    /// Consecutive turns ended holding enough Contentious hexes (public).
    pub count: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct EventView {
    pub turn: u32,
    pub text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub you: String,
    pub enemy: String,
    /// 1 or 2.
    pub seat: usize,
    pub phase: String,
    pub turn: u32,
    pub turn_cap: u32,
    pub orders_due: bool,
    pub shih: u32,
    pub shih_max: u32,
    pub income_base: u32,
    pub income_per_contentious: u32,
    pub cost_fortify: u32,
    pub cost_ambush: u32,
    pub cost_scout: u32,
    pub fortify_bonus: i32,
    pub ambush_bonus: i32,
    pub difficult_bonus: i32,
    pub sight: i32,
    pub scout_range: i32,
    pub powers: Vec<u8>,
    pub sovereign: u8,
    pub size: i32,
    pub centre: String,
    pub contentious: Vec<String>,
    pub difficult: Vec<String>,
    /// Hexes within this distance of the centre are playable (None: all).
    pub radius: Option<i32>,
    pub playable: usize,
    pub shrink: Vec<ShrinkStep>,
    pub forces: Vec<OwnForce>,
    /// The Contentious hexes you hold.
    pub holding: Vec<String>,
    pub enemies: Vec<EnemyForce>,
    pub enemy_alive: usize,
    /// Powers the enemy's unrevealed forces may have.
    pub enemy_unknown_powers: Vec<u8>,
    /// Known powers of living enemy forces you cannot see now.
    pub enemy_known_unseen: Vec<u8>,
    pub enemy_fallen: Vec<u8>,
    pub domination: Vec<Domination>,
    pub domination_hexes: usize,
    pub domination_turns: u32,
    pub events: Vec<EventView>,
    /// The last turn's moves and combats as `seat` saw them, for the board
    /// picture: your own moves, and every combat (each side's force from
    /// where it stood to the hex fought over; an ambush as a ring on the
    /// ambusher's hex, since the victim's new hex is not told).
    pub arrows: Vec<Arrow>,
    pub result: Option<String>,
    /// The order form's list, each a whole order to copy (with the other
    /// forces holding, or in the deployment with the rest of the set):
    /// every power for every force; later each affordable order of each
    /// living force, and `concede`.
    pub legal: Vec<String>,
    /// The phase's rule for the whole set of orders, in one line.
    pub whole_set: Option<String>,
}

/// The order form's list and rule for `seat` now (empty when no orders
/// are due from it).
fn form_list(rules: &Ruleset, st: &State, seat: Seat) -> (Vec<String>, Option<String>) {
    let powers: Vec<String> = rules.forces.powers.iter().map(u8::to_string).collect();
    match st.phase {
        Phase::Over => (Vec::new(), None),
        Phase::Deploy => {
            let n = rules.forces();
            let legal = (1..=n)
                .flat_map(|f| {
                    rules
                        .forces
                        .powers
                        .iter()
                        .map(move |p| format!("f{f} power {p}"))
                })
                .collect();
            (
                legal,
                Some(format!(
                    "DEPLOYMENT: each force one power, each of {} once (Sovereign: {})",
                    powers.join(", "),
                    rules.forces.sovereign
                )),
            )
        }
        Phase::Orders => {
            let side = &st.sides[seat];
            let mut legal = Vec::new();
            for f in side.living() {
                for act in options(rules, st, seat, f.id) {
                    if rules.cost(act.kind()) <= side.shih {
                        legal.push(format!("f{} {act}", f.id));
                    }
                }
            }
            legal.push("concede".into());
            use super::orders::Kind;
            (
                legal,
                Some(format!(
                    "At most {} Shih in all (move {}, fortify {}, ambush {}, scout {}); no two forces into one hex; a force without a line holds",
                    side.shih,
                    rules.cost(Kind::Move),
                    rules.cost(Kind::Fortify),
                    rules.cost(Kind::Ambush),
                    rules.cost(Kind::Scout)
                )),
            )
        }
    }
}

/// The arrows of one event as `seat` may know it (the same knowledge as
/// [`tell`]: an enemy's moves are never drawn, only its part in a combat,
/// whose starting hex the combat report names).
fn arrows(seat: Seat, e: &Event, out: &mut Vec<Arrow>) {
    let mut arrow = |from: Hex, to: Hex, kind: ArrowKind, s: usize| {
        out.push(Arrow {
            from: label(from),
            to: label(to),
            kind,
            seat: s,
        })
    };
    match e {
        Event::Moved {
            seat: s, from, to, ..
        } if *s == seat => arrow(*from, *to, ArrowKind::Move, *s),
        Event::Combat {
            kind, at, fighters, ..
        } => match kind {
            CombatKind::Contest | CombatKind::Assault => {
                for f in fighters {
                    if f.from != *at {
                        arrow(f.from, *at, ArrowKind::Attack, f.seat);
                    }
                }
            }
            CombatKind::Swap => {
                arrow(fighters[0].from, fighters[1].from, ArrowKind::Attack, 0);
                arrow(fighters[1].from, fighters[0].from, ArrowKind::Attack, 1);
            }
            CombatKind::Ambush => {
                let ambusher = fighters
                    .iter()
                    .find(|f| f.from == *at)
                    .map_or(0, |f| f.seat);
                arrow(*at, *at, ArrowKind::Place, ambusher);
            }
        },
        _ => {}
    }
}

fn terrain(st: &State, h: Hex) -> String {
    let b = &st.board;
    let mut t = Vec::new();
    if b.is_contentious(h) {
        t.push("Contentious");
    }
    if b.is_difficult(h) {
        t.push("Difficult");
    }
    if b.scorched(h) {
        t.push("Scorched");
    }
    if t.is_empty() {
        "open".to_string()
    } else {
        t.join(", ")
    }
}

fn fighter_text(f: &Fighter) -> String {
    let mut parts = vec![format!("power {}", f.power)];
    for (name, b) in &f.bonuses {
        parts.push(format!("{name} {b:+}"));
    }
    parts.push(format!("roll {:+}", f.roll));
    format!("{} = {}", parts.join(", "), f.total)
}

/// One event as `seat` may know it, or `None` if it is not theirs to know.
///
/// Long (about 160 lines): one match, a branch a kind of event, each telling
/// what this side may know of it.
pub fn tell(players: &[String], seat: Seat, e: &Event) -> Option<String> {
    let enemy = &players[1 - seat];
    Some(match e {
        Event::Deployed => "both sides deployed their forces".to_string(),
        Event::Conceded { seat: s } => {
            if *s == seat {
                "you conceded".to_string()
            } else {
                format!("{enemy} conceded")
            }
        }
        Event::Spent {
            seat: s,
            orders,
            shih,
            left,
        } if *s == seat => format!(
            "you spent {shih} Shih ({}); {left} left",
            orders.join(", ")
        ),
        Event::Scouted {
            seat: s,
            force,
            at,
            target,
            found,
        } if *s == seat => match found {
            Some(p) => format!(
                "your f{force} on {} scouted {}: the enemy force there has power {p}",
                label(*at),
                label(*target)
            ),
            None => format!(
                "your f{force} on {} scouted {}: no enemy force stood there",
                label(*at),
                label(*target)
            ),
        },
        Event::Moved {
            seat: s,
            force,
            from,
            to,
        } if *s == seat => format!("your f{force} moved {} → {}", label(*from), label(*to)),
        Event::Bounced {
            seat: s,
            force,
            from,
            to,
            why,
        } if *s == seat => format!(
            "your f{force} could not move {} → {} ({why}) and stayed",
            label(*from),
            label(*to)
        ),
        Event::Combat {
            kind,
            at,
            fighters,
            winner,
            after,
        } => {
            let mine = &fighters[seat];
            let theirs = &fighters[1 - seat];
            let me = format!("your f{} from {}", mine.force, label(mine.from));
            let them = format!("an enemy force from {}", label(theirs.from));
            let head = match kind {
                CombatKind::Contest => format!(
                    "COMBAT: {me} and {them} both entered {}",
                    label(*at)
                ),
                CombatKind::Swap => format!("COMBAT: {me} and {them} met head on, swapping hexes"),
                CombatKind::Assault => {
                    if mine.from == *at {
                        format!("COMBAT: {them} assaulted your f{} on {}", mine.force, label(*at))
                    } else {
                        format!("COMBAT: {me} assaulted the enemy force on {}", label(*at))
                    }
                }
                CombatKind::Ambush => {
                    if mine.from == *at {
                        format!(
                            "COMBAT: your f{} on {} sprang its ambush on an enemy force that moved next to it",
                            mine.force,
                            label(*at)
                        )
                    } else {
                        format!(
                            "COMBAT: AMBUSH! an enemy force on {} sprang on {me}, which had moved next to it",
                            label(*at)
                        )
                    }
                }
            };
            let result = match winner {
                Some(w) if *w == seat => "you won".to_string(),
                Some(_) => "the enemy won".to_string(),
                None => "a tie".to_string(),
            };
            format!(
                "{head}. Yours: {}; the enemy's: {} → {result}: your f{} {}, the enemy force {}",
                fighter_text(mine),
                fighter_text(theirs),
                mine.force,
                after[seat],
                after[1 - seat]
            )
        }
        Event::Shrank { radius, hexes } => format!(
            "THE NOOSE TIGHTENS: every hex more than {radius} from the centre is Scorched; {hexes} hexes remain"
        ),
        Event::Perished {
            seat: s,
            force,
            at,
            power,
        } => {
            if *s == seat {
                format!(
                    "your f{force} (power {power}) perished on Scorched ground at {}",
                    label(*at)
                )
            } else {
                format!("an enemy force of power {power} perished on Scorched ground")
            }
        }
        Event::Income {
            seat: s,
            amount,
            shih,
            holds,
        } if *s == seat => format!(
            "income {amount} Shih ({holds} Contentious hex{} held); you have {shih}",
            if *holds == 1 { "" } else { "es" }
        ),
        Event::Ended {
            winner,
            subject,
            how,
        } => {
            let who = |s: usize| {
                if s == seat {
                    "you".to_string()
                } else {
                    players[s].clone()
                }
            };
            let what = match subject {
                Some(s) => format!("{} {how}", who(*s)),
                None => how.clone(),
            };
            match winner {
                Some(w) if *w == seat => format!("THE BATTLE IS OVER: you win ({what})"),
                Some(w) => format!("THE BATTLE IS OVER: {} wins ({what})", players[*w]),
                None => format!("THE BATTLE IS OVER: a draw ({what})"),
            }
        }
        _ => return None,
    })
}

/// What `seat` knows of the enemy forces: those in sight, by hex.
pub(super) struct Sighted {
    /// Each enemy force in sight, sorted by hex (`E1`, `E2` … in this
    /// order), with its power where known.
    pub seen: Vec<(Hex, Option<u8>)>,
    /// The powers not known to belong to a known or fallen enemy force.
    pub unknown: Vec<u8>,
    /// The highest of them: what an unknown force may be.
    pub threat: u8,
}

/// The enemy forces in `seat`'s sight and what the viewer can deduce of
/// them: every power is used once; those known (scouted, fought, fallen)
/// are accounted for. Everything once the game is over.
pub(super) fn sighted(rules: &Ruleset, st: &State, seat: Seat) -> Sighted {
    sighted_as(rules, st, seat, false)
}

/// [`sighted`]; `everything`: every enemy force with its power, as the
/// omniscient view shows them.
fn sighted_as(rules: &Ruleset, st: &State, seat: Seat, everything: bool) -> Sighted {
    let me = &st.sides[seat];
    let them = &st.sides[1 - seat];
    let over = st.phase == Phase::Over;
    let revealed = over || everything;
    let sees = |h: Hex| revealed || me.living().any(|f| f.at.distance(h) <= rules.sight.range);
    let known_powers: Vec<u8> = them
        .forces
        .iter()
        .filter(|f| revealed || me.knows(f.id))
        .map(|f| f.power)
        .collect();
    let mut unknown: Vec<u8> = rules
        .forces
        .powers
        .iter()
        .copied()
        .filter(|p| !known_powers.contains(p))
        .collect();
    unknown.sort_unstable();
    let threat = unknown.last().copied().unwrap_or(0);
    let mut seen: Vec<(Hex, Option<u8>)> = them
        .living()
        .filter(|f| sees(f.at))
        .map(|f| (f.at, (revealed || me.knows(f.id)).then_some(f.power)))
        .collect();
    seen.sort();
    Sighted {
        seen,
        unknown,
        threat,
    }
}

pub fn view(
    rules: &Ruleset,
    st: &State,
    players: &[String],
    seat: Seat,
    events: &[Seen<Event>],
) -> View {
    view_as(rules, st, players, seat, events, false)
}

/// What `seat` would see if nothing were hidden
/// ([`crate::games::Game::omniscient_view`]): every enemy force with its
/// power, and every event told once, from no side ("north's f3 moved …"),
/// the same whichever `seat` asks.
pub fn omniscient(
    rules: &Ruleset,
    st: &State,
    players: &[String],
    seat: Seat,
    events: &[Seen<Event>],
) -> View {
    view_as(rules, st, players, seat, events, true)
}

/// An event as the archive tells it, once, from no side: each force named
/// by its side and its own name ("north's f3"), every number known (issue
/// 49: the omniscient view told each event twice, as each side was told
/// it).
///
/// Long (about 120 lines): one match, a branch a kind of event.
fn told_once(players: &[String], e: &Event) -> Vec<String> {
    let p = |s: usize| players.get(s).cloned().unwrap_or_default();
    let force = |s: usize, f: u8| format!("{}'s f{f}", p(s));
    let text = match e {
        Event::Deployed => "both sides deployed their forces".to_string(),
        Event::Conceded { seat } => format!("{} conceded", p(*seat)),
        Event::Spent {
            seat,
            orders,
            shih,
            left,
        } => format!(
            "{} spent {shih} Shih ({}); {left} left",
            p(*seat),
            orders.join(", ")
        ),
        Event::Scouted {
            seat,
            force: f,
            at,
            target,
            found,
        } => match found {
            Some(pw) => format!(
                "{} on {} scouted {}: the force there has power {pw}",
                force(*seat, *f),
                label(*at),
                label(*target)
            ),
            None => format!(
                "{} on {} scouted {}: no enemy force stood there",
                force(*seat, *f),
                label(*at),
                label(*target)
            ),
        },
        Event::Moved {
            seat,
            force: f,
            from,
            to,
        } => format!("{} moved {} → {}", force(*seat, *f), label(*from), label(*to)),
        Event::Bounced {
            seat,
            force: f,
            from,
            to,
            why,
        } => {
            // the one reason a move bounces names the mover's own force as
            // its owner was told it ("your f2 stayed on 1,0")
            let why = match why.strip_prefix("your ") {
                Some(rest) => format!("{}'s {rest}", p(*seat)),
                None => why.clone(),
            };
            format!(
                "{} could not move {} → {} ({why}) and stayed",
                force(*seat, *f),
                label(*from),
                label(*to)
            )
        }
        Event::Combat {
            kind,
            at,
            fighters,
            winner,
            after,
        } => {
            let named = |x: &Fighter| format!("{} from {}", force(x.seat, x.force), label(x.from));
            let [a, b] = fighters;
            let head = match kind {
                CombatKind::Contest => format!(
                    "COMBAT: {} and {} both entered {}",
                    named(a),
                    named(b),
                    label(*at)
                ),
                CombatKind::Swap => format!(
                    "COMBAT: {} and {} met head on, swapping hexes",
                    named(a),
                    named(b)
                ),
                CombatKind::Assault => {
                    let (held, came) = if a.from == *at { (a, b) } else { (b, a) };
                    format!(
                        "COMBAT: {} assaulted {} on {}",
                        named(came),
                        force(held.seat, held.force),
                        label(*at)
                    )
                }
                CombatKind::Ambush => {
                    let (lay, came) = if a.from == *at { (a, b) } else { (b, a) };
                    format!(
                        "COMBAT: {} on {} sprang its ambush on {}, which had moved next to it",
                        force(lay.seat, lay.force),
                        label(*at),
                        named(came)
                    )
                }
            };
            let result = match winner {
                Some(w) => format!("{} won", p(*w)),
                None => "a tie".to_string(),
            };
            format!(
                "{head}. {}: {}; {}: {} → {result}: {} {}, {} {}",
                force(a.seat, a.force),
                fighter_text(a),
                force(b.seat, b.force),
                fighter_text(b),
                force(a.seat, a.force),
                after[a.seat.min(1)],
                force(b.seat, b.force),
                after[b.seat.min(1)]
            )
        }
        Event::Shrank { radius, hexes } => format!(
            "THE NOOSE TIGHTENS: every hex more than {radius} from the centre is Scorched; {hexes} hexes remain"
        ),
        Event::Perished {
            seat,
            force: f,
            at,
            power,
        } => format!(
            "{} (power {power}) perished on Scorched ground at {}",
            force(*seat, *f),
            label(*at)
        ),
        Event::Income {
            seat,
            amount,
            shih,
            holds,
        } => format!(
            "{}: income {amount} Shih ({holds} Contentious hex{} held); {} has {shih}",
            p(*seat),
            if *holds == 1 { "" } else { "es" },
            p(*seat)
        ),
        Event::Ended {
            winner,
            subject,
            how,
        } => {
            let what = match subject {
                Some(s) => format!("{} {how}", p(*s)),
                None => how.clone(),
            };
            match winner {
                Some(w) => format!("THE BATTLE IS OVER: {} wins ({what})", p(*w)),
                None => format!("THE BATTLE IS OVER: a draw ({what})"),
            }
        }
    };
    vec![text]
}

/// The view; `everything`: the omniscient one.
///
/// Long (about 170 lines): one struct literal, every field of the report.
fn view_as(
    rules: &Ruleset,
    st: &State,
    players: &[String],
    seat: Seat,
    events: &[Seen<Event>],
    everything: bool,
) -> View {
    let me = &st.sides[seat];
    let them = &st.sides[1 - seat];
    let over = st.phase == Phase::Over;
    let revealed = over || everything;
    let sees = |h: Hex| revealed || me.living().any(|f| f.at.distance(h) <= rules.sight.range);
    let Sighted {
        seen,
        unknown,
        threat,
    } = sighted_as(rules, st, seat, everything);
    let enemies = seen
        .iter()
        .enumerate()
        .map(|(i, (h, p))| EnemyForce {
            mark: format!("E{}", i + 1),
            // Seen by no seat, a force's own name (the one the orders and
            // events use); a player's report has only the numbers.
            name: everything
                .then(|| them.living().find(|f| f.at == *h).map(|f| f.name()))
                .flatten(),
            at: label(*h),
            power: *p,
            threat: p.unwrap_or(threat),
        })
        .collect();
    let mut known_unseen: Vec<u8> = them
        .living()
        .filter(|f| me.knows(f.id) && !sees(f.at))
        .map(|f| f.power)
        .collect();
    known_unseen.sort_unstable();
    let mut fallen: Vec<u8> = them
        .forces
        .iter()
        .filter(|f| !f.alive)
        .map(|f| f.power)
        .collect();
    fallen.sort_unstable();
    let orders_due = st.phase == Phase::Orders;
    let (legal, whole_set) = form_list(rules, st, seat);
    let forces = me
        .forces
        .iter()
        .map(|f| OwnForce {
            name: f.name(),
            at: label(f.at),
            power: f.power,
            sovereign: f.power == rules.forces.sovereign,
            alive: f.alive,
            terrain: terrain(st, f.at),
            options: if orders_due && f.alive {
                options(rules, st, seat, f.id)
                    .into_iter()
                    .map(|a| {
                        let c = rules.cost(a.kind());
                        if c > 0 {
                            format!("{a} ({c})")
                        } else {
                            a.to_string()
                        }
                    })
                    .collect()
            } else {
                Vec::new()
            },
        })
        .collect();
    let shrink = rules
        .shrink
        .radii
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            let after = rules.shrink.every * (i as u32 + 1);
            ShrinkStep {
                after_turn: after,
                radius: r,
                hexes: st.board.count_within(Some(r)),
                done: st.turn > after || (over && st.turn >= after),
            }
        })
        .collect();
    let phase = match st.phase {
        Phase::Deploy => "deploy",
        Phase::Orders => "orders",
        Phase::Over => "over",
    };
    View {
        you: players[seat].clone(),
        enemy: players[1 - seat].clone(),
        seat: seat + 1,
        phase: phase.to_string(),
        turn: st.turn,
        turn_cap: rules.victory.turn_cap,
        orders_due: !over,
        shih: me.shih,
        shih_max: rules.shih.max,
        income_base: rules.shih.base,
        income_per_contentious: rules.shih.per_contentious,
        cost_fortify: rules.orders.fortify,
        cost_ambush: rules.orders.ambush,
        cost_scout: rules.orders.scout,
        fortify_bonus: rules.orders.fortify_bonus,
        ambush_bonus: rules.orders.ambush_bonus,
        difficult_bonus: rules.orders.difficult_bonus,
        sight: rules.sight.range,
        scout_range: rules.orders.scout_range,
        powers: rules.forces.powers.clone(),
        sovereign: rules.forces.sovereign,
        size: st.board.size,
        centre: label(st.board.centre),
        contentious: st.board.contentious.iter().map(|h| label(*h)).collect(),
        difficult: st.board.difficult.iter().map(|h| label(*h)).collect(),
        radius: st.board.radius,
        playable: st.board.count_within(st.board.radius),
        shrink,
        forces,
        holding: st.holds(seat).into_iter().map(label).collect(),
        enemies,
        enemy_alive: them.living().count(),
        enemy_unknown_powers: unknown,
        enemy_known_unseen: known_unseen,
        enemy_fallen: fallen,
        domination: (0..2)
            .map(|s| Domination {
                player: players[s].clone(),
                you: s == seat,
                count: st.sides[s].domination,
            })
            .collect(),
        domination_hexes: rules.victory.domination_hexes,
        domination_turns: rules.victory.domination_turns,
        events: events
            .iter()
            .flat_map(|s| {
                let texts: Vec<String> = if everything {
                    told_once(players, &s.event)
                } else {
                    tell(players, seat, &s.event).into_iter().collect()
                };
                texts
                    .into_iter()
                    .map(|text| EventView { turn: s.turn, text })
            })
            .collect(),
        arrows: {
            let last = events.iter().map(|s| s.turn).max();
            let mut out = Vec::new();
            for s in events.iter().filter(|s| Some(s.turn) == last) {
                arrows(seat, &s.event, &mut out);
                if everything {
                    if let Event::Moved { .. } = s.event {
                        arrows(1 - seat, &s.event, &mut out);
                    }
                }
            }
            out
        },
        result: st.end.as_ref().map(|e| {
            let what = match e.subject {
                Some(s) => format!("{} {}", players[s], e.how),
                None => e.how.clone(),
            };
            match e.winner {
                Some(w) => format!("{} won: {what}", players[w]),
                None => format!("a draw: {what}"),
            }
        }),
        legal,
        whole_set,
    }
}

/// The board as text, flat-topped: column q runs down the page, each
/// column half a hex lower than the one to its west, so N is up, NE up and
/// right, SE down and right. Each hex shows `q,r`, its terrain (`*`
/// Contentious, `^` Difficult, `#` Scorched) and who stands there (`f3`
/// your force, `E2` an enemy force you see).
pub fn ascii_board(v: &View) -> String {
    let n = v.size;
    let centre = parse_hex(&v.centre).unwrap_or(Hex::new(n / 2, n / 2));
    let mut token: Vec<String> = vec!["  ".to_string(); (n * n) as usize];
    let idx = |h: Hex| (h.q * n + h.r) as usize;
    let on = |h: Hex| (0..n).contains(&h.q) && (0..n).contains(&h.r);
    for f in v.forces.iter().filter(|f| f.alive) {
        if let Some(h) = parse_hex(&f.at).filter(|h| on(*h)) {
            token[idx(h)] = f.name.clone();
        }
    }
    for e in &v.enemies {
        if let Some(h) = parse_hex(&e.at).filter(|h| on(*h)) {
            token[idx(h)] = e.mark.clone();
        }
    }
    let has = |list: &[String], h: Hex| list.iter().any(|s| parse_hex(s) == Some(h));
    let mut out = String::new();
    for line in 0..(3 * (n - 1) + 1) {
        let mut row = String::new();
        for q in 0..n {
            let twice_r = line - q;
            let cell = if twice_r >= 0 && twice_r % 2 == 0 && twice_r / 2 < n {
                let h = Hex::new(q, twice_r / 2);
                let mark = if v.radius.is_some_and(|r| h.distance(centre) > r) {
                    '#'
                } else if has(&v.contentious, h) {
                    '*'
                } else if has(&v.difficult, h) {
                    '^'
                } else {
                    ' '
                };
                format!("[{},{}{mark}{:<2}]", h.q, h.r, token[idx(h)])
            } else {
                " ".repeat(8)
            };
            row.push_str(&cell);
            row.push(' ');
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}
