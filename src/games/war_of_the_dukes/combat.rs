//! Combat: ranges (contact, bombardment), strengths with terrain and the
//! Duke's aura, odds, the die and its modifier, the results table, losses,
//! retreats by a fixed rule, swaps with friends, advance after combat.

use super::events::{Event, Fate, Fighter};
use super::map::Ix;
use super::ruleset::{Res, Ruleset};
use super::state::{Board, State};
use super::units::{Kind, Side};
use super::zoc;
use std::collections::BTreeSet;

/// Two hexes touch along a hexside a piece could cross: not an unbridged
/// river, and into or out of a lake only by its bridge (a causeway).
pub fn contact(rules: &Ruleset, a: Ix, b: Ix) -> bool {
    rules
        .map
        .side_between(a, b)
        .is_some_and(|s| rules.joined(a, s, b))
}

/// How unit `n` may attack the hex `target`: `Some(false)` in close
/// combat, `Some(true)` as a bombardment, `None` not at all.
pub fn reach(rules: &Ruleset, st: &State, board: &Board, n: usize, target: Ix) -> Option<bool> {
    let u = &st.units[n];
    if u.id.is_duke() {
        return None;
    }
    let at = board.pos[n]?;
    if contact(rules, at, target) {
        return Some(false);
    }
    let range = rules.stats(u.id.kind).range as i32;
    (range >= 2 && rules.map.distance(at, target) <= range).then_some(true)
}

/// A piece on `at` is within the aura of its Duke on `duke`.
pub fn within_aura(rules: &Ruleset, duke: Ix, at: Ix) -> bool {
    rules.map.distance(duke, at) <= rules.duke_aura
}

/// The unit is within the aura of its own Duke (never the Duke himself).
pub fn inspired(rules: &Ruleset, st: &State, board: &Board, n: usize) -> bool {
    let u = &st.units[n];
    if u.id.is_duke() {
        return false;
    }
    match (board.pos[st.duke(u.side)], board.pos[n]) {
        (Some(d), Some(p)) => within_aura(rules, d, p),
        _ => false,
    }
}

/// A kind's attack strength, within its Duke's aura or not, and how it is
/// made ("5 ×2 Duke").
pub fn attack_strength(rules: &Ruleset, kind: Kind, inspired: bool) -> (u32, String) {
    let base = rules.stats(kind).attack;
    if inspired {
        (base * 2, format!("{base} ×2 Duke"))
    } else {
        (base, base.to_string())
    }
}

pub fn attack_value(rules: &Ruleset, st: &State, board: &Board, n: usize) -> (u32, String) {
    attack_strength(rules, st.units[n].id.kind, inspired(rules, st, board, n))
}

/// [`attack_value`]'s number alone: the bots reckon odds in every
/// iteration of a search, where the words are never read.
pub fn attack_number(rules: &Ruleset, st: &State, board: &Board, n: usize) -> u32 {
    let base = rules.stats(st.units[n].id.kind).attack;
    if inspired(rules, st, board, n) {
        base * 2
    } else {
        base
    }
}

/// Whether the terrain's defence multiplier counts for a piece on `at`:
/// terrain that multiplies, and a fortress "without a garrison" is
/// "defenseless" (a Duke alone there "doesn't count as a unit").
fn terrain_counts(rules: &Ruleset, board: &Board, at: Ix) -> bool {
    let t = rules.at(at);
    t.defence > 1 && (!t.garrison || board.occ[at as usize].unit.is_some())
}

/// [`defence_value`]'s number alone (as [`attack_number`]).
pub fn defence_number(rules: &Ruleset, st: &State, board: &Board, n: usize) -> u32 {
    let at = board.pos[n].expect("on the map");
    let mut v = rules.stats(st.units[n].id.kind).defence;
    if terrain_counts(rules, board, at) {
        v *= rules.at(at).defence;
    }
    if inspired(rules, st, board, n) {
        v *= 2;
    }
    v
}

pub fn defence_value(rules: &Ruleset, st: &State, board: &Board, n: usize) -> (u32, String) {
    let base = rules.stats(st.units[n].id.kind).defence;
    let at = board.pos[n].expect("on the map");
    let t = rules.at(at);
    let mut v = base;
    let mut how = base.to_string();
    if terrain_counts(rules, board, at) {
        v *= t.defence;
        how.push_str(&format!(
            " ×{} {}",
            t.defence,
            rules.map.cell(at).terrain.name()
        ));
    }
    if inspired(rules, st, board, n) {
        v *= 2;
        how.push_str(" ×2 Duke");
    }
    (v, how)
}

/// Where a piece that must retreat goes, by the fixed rule in its side's
/// interest, or whom it swaps with when only friends block it.
enum Retreat {
    To(Ix),
    Swap(Ix),
    Blocked,
}

fn nearest_enemy(rules: &Ruleset, st: &State, board: &Board, side: Side, i: Ix) -> i32 {
    st.units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.side != side)
        .filter_map(|(n, _)| board.pos[n])
        .map(|p| rules.map.distance(p, i))
        .min()
        .unwrap_or(99)
}

/// The preference among retreat hexes: farthest from the nearest enemy,
/// then the best defence (terrain multiplier, then die modifier), then
/// within the Duke's aura, then the lowest label.
fn preference(
    rules: &Ruleset,
    st: &State,
    board: &Board,
    n: usize,
    i: Ix,
) -> (i32, u32, u32, bool, std::cmp::Reverse<super::map::Label>) {
    let u = &st.units[n];
    let t = rules.at(i);
    // A Duke retreating alone into a fortress finds no garrison there to
    // give him its multiplier.
    let multiplier = if t.garrison && u.id.is_duke() && board.occ[i as usize].unit.is_none() {
        1
    } else {
        t.defence
    };
    let aura = !u.id.is_duke()
        && board.pos[st.duke(u.side)].is_some_and(|d| rules.map.distance(d, i) <= rules.duke_aura);
    (
        nearest_enemy(rules, st, board, u.side, i),
        multiplier,
        t.die,
        aura,
        std::cmp::Reverse(rules.map.label(i)),
    )
}

fn retreat_for(rules: &Ruleset, st: &State, board: &Board, n: usize) -> Retreat {
    let u = &st.units[n];
    let from = board.pos[n].expect("on the map");
    let enemy_zoc = zoc::zoc(rules, st, board, u.side.other());
    let mut open = Vec::new();
    let mut friends = Vec::new();
    for (nb, s) in rules.map.neighbours(from) {
        if !rules.joined(from, s, nb) {
            continue;
        }
        let o = board.occ[nb as usize];
        let friendly = |p: u8| st.units[p as usize].side == u.side;
        if !enemy_zoc[nb as usize] {
            let stack = rules.at(nb).stack;
            let fits = o.is_empty()
                || (u.id.is_duke() && o.duke.is_none() && o.unit.is_some_and(friendly) && stack)
                || (!u.id.is_duke() && o.unit.is_none() && o.duke.is_some_and(friendly) && stack);
            if fits {
                open.push(nb);
                continue;
            }
        }
        let origin_free = !u.id.is_duke() || board.occ[from as usize].unit.is_none();
        if o.unit.is_some_and(friendly) && o.duke.is_none() && origin_free {
            friends.push(nb);
        }
    }
    let best = |c: &[Ix]| {
        c.iter()
            .copied()
            .max_by_key(|&i| preference(rules, st, board, n, i))
    };
    if let Some(i) = best(&open) {
        Retreat::To(i)
    } else if let Some(i) = best(&friends) {
        Retreat::Swap(i)
    } else {
        Retreat::Blocked
    }
}

/// Retreat piece `n` one hex; the fate it met.
fn retreat(rules: &Ruleset, st: &mut State, n: usize) -> Fate {
    let board = st.board(rules);
    let from = board.pos[n].expect("on the map");
    let (side, unit) = (st.units[n].side, st.units[n].id);
    let fl = rules.map.label(from);
    match retreat_for(rules, st, &board, n) {
        Retreat::To(i) => {
            st.units[n].at = Some(rules.map.label(i));
            Fate::Retreated {
                side,
                unit,
                from: fl,
                to: rules.map.label(i),
            }
        }
        Retreat::Swap(i) => {
            let f = board.occ[i as usize].unit.expect("a friend") as usize;
            st.units[f].at = Some(fl);
            st.units[n].at = Some(rules.map.label(i));
            Fate::Swapped {
                side,
                unit,
                from: fl,
                with: st.units[f].id,
                to: rules.map.label(i),
            }
        }
        Retreat::Blocked => {
            st.units[n].at = None;
            Fate::Eliminated {
                side,
                unit,
                at: fl,
                blocked: true,
            }
        }
    }
}

fn eliminate(rules: &Ruleset, st: &mut State, n: usize) -> Fate {
    let _ = rules;
    let u = &mut st.units[n];
    let at = u.at.take().expect("on the map");
    Fate::Eliminated {
        side: u.side,
        unit: u.id,
        at,
        blocked: false,
    }
}

/// Which close-combat attackers an exchange takes: the cheapest set whose
/// printed attack at least equals the defenders' printed defence (smallest
/// total, then fewest pieces, then the earliest named); all of them if
/// even all together fall short.
pub fn exchange_losses(rules: &Ruleset, st: &State, close: &[usize], need: u32) -> Vec<usize> {
    let value = |n: usize| rules.stats(st.units[n].id.kind).attack;
    let k = close.len();
    let mut best: Option<(u32, u32, Vec<usize>)> = None;
    for mask in 1u32..(1 << k) {
        let set: Vec<usize> = (0..k).filter(|b| mask & (1 << b) != 0).collect();
        let total: u32 = set.iter().map(|&b| value(close[b])).sum();
        if total < need {
            continue;
        }
        let key = (total, set.len() as u32, set.clone());
        if best.as_ref().is_none_or(|b| key < *b) {
            best = Some(key);
        }
    }
    match best {
        Some((_, _, set)) => set.into_iter().map(|b| close[b]).collect(),
        None => close.to_vec(),
    }
}

/// An attack as it stands before its die is rolled: who fights with what
/// strength, the odds, the die's modifier. The resolver rolls on it
/// ([`attack`]); reports and the order composer show it beforehand.
pub struct Forecast {
    /// The enemy pieces in the target hex that defend.
    pub defenders: Vec<usize>,
    /// Those already attacked this phase, who take no part.
    pub spared: Vec<usize>,
    /// The attackers that reach the target.
    pub with: Vec<usize>,
    pub attackers: Vec<Fighter>,
    pub def: Vec<Fighter>,
    pub attack: u32,
    pub defence: u32,
    /// The results table's column and its name ("1-2").
    pub column: usize,
    pub odds: String,
    /// Added to the die for the defender's hex.
    pub modifier: u32,
}

impl Forecast {
    /// The die as modified (capped at 6) and the result, for a die face.
    pub fn result(&self, rules: &Ruleset, die: u32) -> (u32, Res) {
        let roll = modified_roll(die, self.modifier);
        (roll, rules.crt[roll as usize - 1][self.column])
    }
}

/// A die face with the defender's terrain modifier, capped at 6.
pub fn modified_roll(die: u32, modifier: u32) -> u32 {
    (die + modifier).min(6)
}

/// What an attack by `side` on `target` with `with` would be now, the
/// pieces in `attacked` having been attacked earlier in the phase (see
/// [`attack`]). The numbers are those the resolver uses.
pub fn forecast(
    rules: &Ruleset,
    st: &State,
    board: &Board,
    side: Side,
    target: Ix,
    with: &[usize],
    attacked: &BTreeSet<usize>,
) -> Forecast {
    let tl = rules.map.label(target);
    let (defenders, spared): (Vec<usize>, Vec<usize>) = board.occ[target as usize]
        .pieces()
        .map(|p| p as usize)
        .filter(|&p| st.units[p].side != side)
        .partition(|p| !(rules.attacked_once && attacked.contains(p)));
    let with: Vec<usize> = with
        .iter()
        .copied()
        .filter(|&n| reach(rules, st, board, n, target).is_some())
        .collect();
    let attackers: Vec<Fighter> = with
        .iter()
        .map(|&n| {
            let (value, how) = attack_value(rules, st, board, n);
            Fighter {
                unit: st.units[n].id,
                at: rules.map.label(board.pos[n].unwrap()),
                value,
                how,
                bombard: reach(rules, st, board, n, target) == Some(true),
            }
        })
        .collect();
    let def: Vec<Fighter> = defenders
        .iter()
        .map(|&n| {
            let (value, how) = defence_value(rules, st, board, n);
            Fighter {
                unit: st.units[n].id,
                at: tl,
                value,
                how,
                bombard: false,
            }
        })
        .collect();
    let a: u32 = attackers.iter().map(|f| f.value).sum();
    let d: u32 = def.iter().map(|f| f.value).sum();
    let (column, odds) = rules.odds(a, d);
    Forecast {
        defenders,
        spared,
        with,
        attackers,
        def,
        attack: a,
        defence: d,
        column,
        odds,
        modifier: rules.at(target).die,
    }
}

/// Resolve one attack by `side` on hex `target` with pieces `with`, one
/// of which may advance. `attacked` holds the pieces attacked earlier in
/// the phase; where the ruleset says a piece is attacked once a phase
/// (`attacked_once`), those take no part, and the defenders join them.
/// The event tells everything.
///
/// Long (about 145 lines): one attack in the rules' order (the forecast, the
/// odds, the die, the result, the retreats, the advance), each step on the
/// state the one before leaves, the event telling every step.
#[allow(clippy::too_many_arguments)]
pub fn attack(
    rules: &Ruleset,
    st: &mut State,
    side: Side,
    target: Ix,
    with: &[usize],
    advance: Option<usize>,
    attacked: &mut BTreeSet<usize>,
    dice: &mut crate::rng::Dice,
) -> Event {
    let board = st.board(rules);
    let tl = rules.map.label(target);
    let f = forecast(rules, st, &board, side, target, with, attacked);
    let spared_note = (!f.spared.is_empty()).then(|| {
        format!(
            "{} {} already attacked this phase and {} no part (a piece is attacked once a phase)",
            f.spared
                .iter()
                .map(|&n| st.units[n].id.to_string())
                .collect::<Vec<_>>()
                .join(" and "),
            if f.spared.len() == 1 { "was" } else { "were" },
            if f.spared.len() == 1 { "takes" } else { "take" },
        )
    });
    if f.defenders.is_empty() || f.with.is_empty() {
        return Event::Lapsed {
            side,
            target: tl,
            with: f.with.iter().map(|&n| st.units[n].id).collect(),
            why: if f.defenders.is_empty() {
                spared_note
            } else {
                None
            },
        };
    }
    attacked.extend(f.defenders.iter().copied());
    let (a, d, modifier) = (f.attack, f.defence, f.modifier);
    let odds = f.odds.clone();
    let die = dice.roll(6, crate::rng::Seen::All, |v| {
        let total = modified_roll(v, modifier);
        if modifier > 0 {
            format!("attack on {tl}, {a} against {d} ({odds}): die {v}, +{modifier} for the terrain → {total}")
        } else {
            format!("attack on {tl}, {a} against {d} ({odds}): die {v}")
        }
    });
    let (roll, result) = f.result(rules, die);
    let Forecast {
        defenders,
        with,
        attackers,
        def,
        odds,
        ..
    } = f;
    let close: Vec<usize> = with
        .iter()
        .zip(&attackers)
        .filter(|(_, f)| !f.bombard)
        .map(|(&n, _)| n)
        .collect();
    let mut fates = Vec::new();
    match result {
        Res::AE => {
            for &n in &with {
                fates.push(eliminate(rules, st, n));
            }
        }
        Res::AR => {
            for &n in &close {
                fates.push(retreat(rules, st, n));
            }
        }
        Res::DE => {
            for &n in &defenders {
                fates.push(eliminate(rules, st, n));
            }
        }
        Res::DR => {
            for &n in &defenders {
                fates.push(retreat(rules, st, n));
            }
        }
        Res::EX => {
            let need: u32 = defenders
                .iter()
                .map(|&n| rules.stats(st.units[n].id.kind).defence)
                .sum();
            for &n in &defenders {
                fates.push(eliminate(rules, st, n));
            }
            for n in exchange_losses(rules, st, &close, need) {
                fates.push(eliminate(rules, st, n));
            }
        }
    }
    let mut note = spared_note;
    let mut add_note = |n: String| {
        note = Some(match note.take() {
            Some(before) => format!("{before}; {n}"),
            None => n,
        })
    };
    if let Some(adv) = advance {
        let after = st.board(rules);
        let u = &st.units[adv];
        if after.side_at(st, target).is_some() {
            add_note(format!("{} does not advance: {tl} is not vacated", u.id));
        } else if u.at.is_none() {
            add_note(format!("{} does not advance: it was eliminated", u.id));
        } else if !close.contains(&adv) || after.pos[adv] != board.pos[adv] {
            add_note(format!(
                "{} does not advance: it is not in contact with {tl}",
                u.id
            ));
        } else {
            let from = u.at.unwrap();
            st.units[adv].at = Some(tl);
            fates.push(Fate::Advanced {
                side,
                unit: st.units[adv].id,
                from,
                to: tl,
            });
        }
    }
    Event::Combat {
        side,
        target: tl,
        attackers,
        defenders: def,
        attack: a,
        defence: d,
        odds,
        die,
        modifier,
        roll,
        result,
        fates,
        note,
    }
}

/// The kinds that may attack (all but the Duke).
pub fn can_attack(kind: Kind) -> bool {
    kind != Kind::Duke
}
