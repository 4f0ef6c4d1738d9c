//! What a player sees. War of the Dukes hides nothing once both sides have
//! deployed; before that a side's pieces are not on the map at all (the
//! state holds no position for them until both deployments resolve), so a
//! report cannot show the other side's deployment early.

use super::ascii::{self, Mark};
use super::combat;
use super::events::{Event, Fate, Fighter};
use super::map::{Ix, Label};
use super::movement::{self, mp};
use super::ruleset::Ruleset;
use super::setup;
use super::state::{Phase, State};
use super::units::{Kind, Side, Stats, UnitId};
use super::zoc;
use crate::board::svg::{Arrow, ArrowKind};
use crate::games::{Seat, Seen};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct UnitView {
    pub side: String,
    pub unit: String,
    pub kind: String,
    pub at: String,
    pub terrain: String,
    pub yours: bool,
    pub attack: u32,
    pub defence: u32,
    /// The counter's number as the report prints it: "strength 5" (attack
    /// and defence, one number), "strength 1, defence only" (the Duke), or
    /// "attack 5, defence 3" where a ruleset before version 2 gave two.
    pub strength: String,
    /// The counter as the picture prints it: strength-movement, "5-3"
    /// (attack-defence-movement, "5-3-3", where the ruleset gives two).
    pub counter: String,
    /// Whole movement points, e.g. "3".
    pub movement: String,
    /// Within 2 hexes of its own Duke (attack and defence doubled).
    pub inspired: bool,
    /// In the other side's zone of control.
    pub in_zoc: bool,
}

/// One attack's odds before the die, for the order form (issue 30): the
/// resolver's own numbers (`combat::forecast`).
#[derive(Debug, Clone, Serialize)]
pub struct OddsView {
    /// The order: `attack 0915 with I3 I4 A2`.
    pub order: String,
    /// The hex attacked: `0915`.
    pub target: String,
    /// `13 against 10, odds 1-1`.
    pub summary: String,
    /// Each die face's result: `1 AR`, … (the terrain's modifier added).
    pub dice: Vec<String>,
    /// The modifier in words, `+2 forest`; empty without one.
    pub modifier: String,
    /// The attackers and the defenders with their strengths.
    pub attackers: Vec<String>,
    pub defenders: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct EventView {
    /// The game file's turn (phase count) the event happened in.
    pub turn: u32,
    /// That phase as players name it: "deployment", "turn 3, Orfburg".
    pub when: String,
    pub text: String,
}

/// A game file turn as a phase: 0 is the deployment, then each game turn
/// is Orfburg's phase and Wulfenburg's.
pub fn when(file_turn: u32) -> String {
    match file_turn {
        0 => "deployment".into(),
        t => format!(
            "turn {}, {}",
            t.div_ceil(2),
            if t % 2 == 1 { "Orfburg" } else { "Wulfenburg" }
        ),
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub you: String,
    pub side: String,
    pub enemy: String,
    pub turn: u32,
    pub turns: u32,
    /// "deployment", "Orfburg's phase of turn 3", "over".
    pub phase: String,
    /// The phases counted from the deployment: 0 the deployment, 2t−1
    /// Orfburg's phase of turn t, 2t Wulfenburg's; none once over. A game
    /// begun from a position (`--setup`) starts its game file at another
    /// phase: the report names an event's phase from this and the game
    /// file's turn (`EventView::when` names it as a game begun with its
    /// deployment would).
    pub phase_index: Option<u32>,
    pub deploying: bool,
    pub your_phase: bool,
    /// Every piece on the map, yours first.
    pub units: Vec<UnitView>,
    /// Pieces lost so far, by side: "Orfburg: I3 C2".
    pub eliminated: Vec<String>,
    pub events: Vec<EventView>,
    /// The order form's list, each a whole order to copy: during the
    /// deployment a complete legal one, later every move (to each hex a
    /// piece can reach) and every attack with all the pieces in reach.
    pub legal: Vec<String>,
    /// The odds of each attack the hints list, as the map stands.
    pub odds: Vec<OddsView>,
    /// The phase's rule for the whole set of orders, in one line (the
    /// deployment places every unit), for the order form.
    pub whole_set: Option<String>,
    /// Your city and fortress hexes (each gets a unit at deployment).
    pub strongpoints: Vec<String>,
    pub kaiserburg: String,
    pub between_rivers: String,
    pub capitals: Vec<String>,
    pub result: Option<String>,
    /// Where the drawn area centres: your pieces (or, while deploying, your
    /// city and fortress hexes).
    pub focus: Vec<String>,
    /// The roads, rivers and bridges on the hexsides of those hexes and
    /// their neighbours, in words, a line each kind ("roads: 2207–2208,
    /// …"): the text map cannot draw a hexside.
    pub hexsides: Vec<String>,
    /// What the numbers on a counter are: "strength-movement", or
    /// "attack-defence-movement" where the ruleset gives two.
    pub counter_key: String,
    /// The last phase's moves, attacks, retreats and advances, for the
    /// board picture (nothing is hidden once both sides have deployed;
    /// deployments are not drawn as arrows).
    pub arrows: Vec<Arrow>,
}

/// The arrows of one event: a move from its start to its end, each
/// attacker towards the target, each retreat and advance as a move.
fn arrows(e: &Event, out: &mut Vec<Arrow>) {
    let mut arrow = |from: Label, to: Label, kind: ArrowKind, side: Side| {
        out.push(Arrow {
            from: from.to_string(),
            to: to.to_string(),
            kind,
            seat: side.seat(),
        })
    };
    match e {
        Event::Moved {
            side, from, path, ..
        } => {
            if let Some(to) = path.last() {
                arrow(*from, *to, ArrowKind::Move, *side);
            }
        }
        Event::Combat {
            side,
            target,
            attackers,
            fates,
            ..
        } => {
            for a in attackers {
                arrow(a.at, *target, ArrowKind::Attack, *side);
            }
            for f in fates {
                match f {
                    Fate::Retreated { side, from, to, .. }
                    | Fate::Advanced { side, from, to, .. }
                    | Fate::Swapped { side, from, to, .. } => {
                        arrow(*from, *to, ArrowKind::Move, *side)
                    }
                    Fate::Eliminated { .. } => {}
                }
            }
        }
        _ => {}
    }
}

/// A fighter in words: `I3 0914 (5 ×2 Duke = 10, bombarding)`.
fn fighter(f: &Fighter) -> String {
    let v = if f.how == f.value.to_string() {
        f.how.clone()
    } else {
        format!("{} = {}", f.how, f.value)
    };
    format!(
        "{} {} ({v}{})",
        f.unit,
        f.at,
        if f.bombard { ", bombarding" } else { "" }
    )
}

fn fighters(list: &[Fighter]) -> String {
    list.iter().map(fighter).collect::<Vec<_>>().join(", ")
}

pub fn fate(f: &Fate) -> String {
    match f {
        Fate::Eliminated {
            side,
            unit,
            at,
            blocked,
        } => format!(
            "{side} {unit} is eliminated on {at}{}",
            if *blocked { " (no retreat open)" } else { "" }
        ),
        Fate::Retreated {
            side,
            unit,
            from,
            to,
        } => format!("{side} {unit} retreats {from} → {to}"),
        Fate::Swapped {
            side,
            unit,
            from,
            with,
            to,
        } => format!(
            "{side} {unit} cannot retreat, surrounded by friends: it changes places with {with} ({unit} {from} → {to}, {with} {to} → {from})"
        ),
        Fate::Advanced {
            side,
            unit,
            from,
            to,
        } => format!("{side} {unit} advances {from} → {to}"),
    }
}

/// One event in words.
///
/// Long (about 90 lines): one match, a branch a kind of event.
pub fn tell(e: &Event) -> String {
    match e {
        Event::Deployed { side, units } => format!(
            "{side} deployed: {}",
            units
                .iter()
                .map(|p| format!("{} {}", p.unit, p.at))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::Moved {
            side,
            unit,
            from,
            path,
            cost,
            found,
        } => {
            let to = path.last().map(|l| l.to_string()).unwrap_or_default();
            let via: Vec<String> = path[..path.len().saturating_sub(1)]
                .iter()
                .map(|l| l.to_string())
                .collect();
            format!(
                "{side} {unit} moved {from} → {to}{} ({} MP{})",
                if via.is_empty() {
                    String::new()
                } else {
                    format!(" via {}", via.join(" "))
                },
                mp(*cost),
                if *found {
                    ", the cheapest legal path"
                } else {
                    ", the path ordered"
                }
            )
        }
        Event::Combat {
            side,
            target,
            attackers,
            defenders,
            attack,
            defence,
            odds,
            die,
            modifier,
            roll,
            result,
            fates,
            note,
        } => {
            let m = format!(" +{modifier} terrain = {roll}");
            let mut s = format!(
                "{side} attacks {target}: {} against {} {}; attack {attack} : defence {defence}, odds {odds}; die {die}{m}: {result} ({})",
                fighters(attackers),
                side.other(),
                fighters(defenders),
                result.meaning()
            );
            for f in fates {
                s.push_str("; ");
                s.push_str(&fate(f));
            }
            if let Some(n) = note {
                s.push_str("; ");
                s.push_str(n);
            }
            s
        }
        Event::Lapsed {
            side,
            target,
            with,
            why,
        } => format!(
            "{side}'s attack on {target} with {} lapses: {}",
            with.iter()
                .map(|u| u.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            why.as_deref()
                .unwrap_or("no enemy piece stands there any more")
        ),
        Event::Ended {
            winner,
            victory,
            how,
        } => format!("the game is over: {winner} wins a {victory} victory ({how})"),
    }
}

pub fn phase_name(st: &State) -> String {
    match st.phase {
        Phase::Deployment => "deployment".into(),
        Phase::Play(s) => format!("{s}'s phase of turn {}", st.turn),
        Phase::Over => "over".into(),
    }
}

/// What each of `side`'s pieces can do now, as orders to copy (for the
/// order form, which lists one a line and a piece's destinations on one:
/// `D 1910 | 1911 | …`).
pub fn hints(rules: &Ruleset, st: &State, side: Side) -> Vec<String> {
    match st.phase {
        Phase::Deployment => setup::default_deployment(rules, st, side, None)
            .iter()
            .map(|o| o.to_string())
            .collect(),
        Phase::Play(s) if s == side => {
            let board = st.board(rules);
            let ez = zoc::zoc(rules, st, &board, side.other());
            let mut out = Vec::new();
            for (n, u) in st.on_map(side) {
                for (i, _) in movement::destinations(rules, st, &board, &ez, n) {
                    out.push(format!("{} {}", u.id, rules.map.label(i)));
                }
            }
            for (i, o) in board.occ.iter().enumerate() {
                let i = i as u16;
                if o.is_empty() || board.side_at(st, i) != Some(side.other()) {
                    continue;
                }
                let by: Vec<String> = st
                    .on_map(side)
                    .filter(|(n, _)| combat::reach(rules, st, &board, *n, i).is_some())
                    .map(|(_, u)| u.id.to_string())
                    .collect();
                if !by.is_empty() {
                    out.push(format!(
                        "attack {} with {}",
                        rules.map.label(i),
                        by.join(" ")
                    ));
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The odds of every attack [`hints`] lists (each enemy hex, with every
/// unit of `side` that reaches it), as the map stands now.
pub fn odds(rules: &Ruleset, st: &State, side: Side) -> Vec<OddsView> {
    if st.phase != Phase::Play(side) {
        return Vec::new();
    }
    let board = st.board(rules);
    let none = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for t in 0..board.occ.len() as u16 {
        if board.side_at(st, t) != Some(side.other()) {
            continue;
        }
        let by: Vec<usize> = st
            .on_map(side)
            .filter(|(n, _)| combat::reach(rules, st, &board, *n, t).is_some())
            .map(|(n, _)| n)
            .collect();
        if by.is_empty() {
            continue;
        }
        let f = combat::forecast(rules, st, &board, side, t, &by, &none);
        out.push(OddsView {
            target: rules.map.label(t).to_string(),
            order: format!(
                "attack {} with {}",
                rules.map.label(t),
                f.attackers
                    .iter()
                    .map(|a| a.unit.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            summary: format!("{} against {}, odds {}", f.attack, f.defence, f.odds),
            dice: (1..=6)
                .map(|die| format!("{die} {}", f.result(rules, die).1))
                .collect(),
            modifier: if f.modifier > 0 {
                format!("+{} {}", f.modifier, rules.map.cell(t).terrain.name())
            } else {
                String::new()
            },
            attackers: f.attackers.iter().map(fighter).collect(),
            defenders: f
                .def
                .iter()
                .map(|d| format!("{} {}", side.other(), fighter(d)))
                .collect(),
        });
    }
    out
}

/// Long (about 155 lines): the view's parts (units, places, zones, the phase's
/// notes) computed from one board, then one struct literal.
/// The roads, rivers and bridges on every hexside of the hexes within one
/// of `focus`, one line a kind, each hexside once as `0712–0713`, in map
/// order.
fn hexsides_near(rules: &Ruleset, focus: &[String]) -> Vec<String> {
    use super::map::Hexside;
    let map = &rules.map;
    let centres: Vec<Ix> = focus
        .iter()
        .filter_map(|s| Label::parse(s))
        .filter_map(|l| map.ix(l))
        .collect();
    let near: std::collections::BTreeSet<Ix> = centres
        .iter()
        .flat_map(|&c| std::iter::once(c).chain(map.neighbours(c).map(|(n, _)| n)))
        .collect();
    let kinds = [
        (Hexside::Road, "roads"),
        (Hexside::River, "rivers"),
        (Hexside::BridgeWithRoad, "bridges with a road"),
        (Hexside::Bridge, "bridges"),
    ];
    let mut out = Vec::new();
    for (kind, name) in kinds {
        let mut sides: std::collections::BTreeSet<(Ix, Ix)> = Default::default();
        for &a in &near {
            for (b, s) in map.neighbours(a) {
                if s == kind {
                    sides.insert((a.min(b), a.max(b)));
                }
            }
        }
        if !sides.is_empty() {
            let list: Vec<String> = sides
                .iter()
                .map(|&(a, b)| format!("{}–{}", map.label(a), map.label(b)))
                .collect();
            out.push(format!("{name}: {}", list.join(", ")));
        }
    }
    out
}

/// Long (about 160 lines): one player's view is one struct literal of many
/// parts, each a few lines drawn from the same board and sight; split, the
/// parts would pass the same six values around.
pub fn view(
    rules: &Ruleset,
    st: &State,
    players: &[String],
    seat: Seat,
    events: &[Seen<Event>],
) -> View {
    let me = Side::of_seat(seat);
    let board = st.board(rules);
    let zocs = [
        zoc::zoc(rules, st, &board, Side::Orfburg),
        zoc::zoc(rules, st, &board, Side::Wulfenburg),
    ];
    let two_numbers = Kind::ALL.iter().any(|&k| !rules.stats(k).one_number());
    let mut units: Vec<UnitView> = Vec::new();
    for side in [me, me.other()] {
        for (n, u) in st.on_map(side) {
            let i = board.pos[n].unwrap();
            let stats = rules.stats(u.id.kind);
            units.push(UnitView {
                side: side.name().into(),
                unit: u.id.to_string(),
                kind: u.id.kind.name().into(),
                at: u.at.unwrap().to_string(),
                terrain: rules.map.cell(i).terrain.name().into(),
                yours: side == me,
                attack: stats.attack,
                defence: stats.defence,
                strength: strength(&stats),
                counter: if two_numbers {
                    format!("{}-{}-{}", stats.attack, stats.defence, stats.movement)
                } else {
                    format!("{}-{}", stats.defence, stats.movement)
                },
                movement: stats.movement.to_string(),
                inspired: combat::inspired(rules, st, &board, n),
                in_zoc: zocs[side.other().seat()][i as usize],
            });
        }
    }
    let eliminated = if st.phase == Phase::Deployment {
        Vec::new()
    } else {
        Side::BOTH
            .iter()
            .filter_map(|&s| {
                let lost: Vec<String> = st
                    .units
                    .iter()
                    .filter(|u| u.side == s && u.at.is_none())
                    .map(|u| u.id.to_string())
                    .collect();
                (!lost.is_empty()).then(|| format!("{s}: {}", lost.join(" ")))
            })
            .collect()
    };
    let place_state = |p: usize| {
        let name = &rules.map.places[p].name;
        let held = Side::BOTH.into_iter().find(|&s| st.holds(rules, s, p));
        match held {
            Some(s) => format!("{name} is held by {s}"),
            None => {
                let any = st.units.iter().any(|u| {
                    u.at.and_then(|l| rules.map.ix(l))
                        .is_some_and(|i| rules.map.places[p].cells.contains(&i))
                });
                if any {
                    format!("{name} is contested (pieces of both sides stand in it)")
                } else {
                    format!("{name} is empty (held by neither side)")
                }
            }
        }
    };
    let between = if st.phase == Phase::Deployment {
        "the between-rivers area lies in Orfburg territory".to_string()
    } else if st.orfburg_controls_between(rules) {
        "Orfburg controls the between-rivers area (no Wulfenburg piece stands in it)".to_string()
    } else {
        format!(
            "Orfburg does not control the between-rivers area: Wulfenburg stands in it ({})",
            st.intruders(rules).join(", ")
        )
    };
    let own: Vec<String> = st
        .on_map(me)
        .map(|(_, u)| u.at.unwrap().to_string())
        .collect();
    let strongpoints: Vec<String> = rules
        .strongpoints(me)
        .into_iter()
        .map(|i| rules.map.label(i).to_string())
        .collect();
    let focus = if own.is_empty() {
        strongpoints.clone()
    } else {
        own
    };
    let _ = players;
    View {
        you: players[seat].clone(),
        side: me.name().into(),
        enemy: me.other().name().into(),
        turn: st.turn,
        turns: rules.turns,
        phase: phase_name(st),
        phase_index: match st.phase {
            Phase::Deployment => Some(0),
            // A state handed in by hand may hold any turn: no overflow.
            Phase::Play(Side::Orfburg) => Some(st.turn.saturating_mul(2).saturating_sub(1)),
            Phase::Play(Side::Wulfenburg) => Some(st.turn.saturating_mul(2)),
            Phase::Over => None,
        },
        deploying: st.phase == Phase::Deployment,
        your_phase: st.mover() == Some(me) || st.phase == Phase::Deployment,
        units,
        eliminated,
        events: events
            .iter()
            .map(|s| EventView {
                turn: s.turn,
                when: when(s.turn),
                text: tell(&s.event),
            })
            .collect(),
        legal: hints(rules, st, me),
        odds: odds(rules, st, me),
        whole_set: (st.phase == Phase::Deployment).then(|| {
            let n = st.units.iter().filter(|u| u.side == me).count();
            format!("DEPLOYMENT: one file places all {n} pieces; the list is one legal set")
        }),
        strongpoints,
        kaiserburg: place_state(rules.kaiserburg),
        between_rivers: between,
        capitals: rules.capitals.iter().map(|&c| place_state(c)).collect(),
        result: st
            .result
            .as_ref()
            .map(|r| format!("{} wins a {} victory: {}", r.winner, r.victory, r.how)),
        hexsides: hexsides_near(rules, &focus),
        focus,
        counter_key: if two_numbers {
            "attack-defence-movement".into()
        } else {
            "strength-movement".into()
        },
        arrows: {
            let last = events.iter().map(|s| s.turn).max();
            let mut out = Vec::new();
            for s in events.iter().filter(|s| Some(s.turn) == last) {
                arrows(&s.event, &mut out);
            }
            out
        },
    }
}

/// A counter's number in words (see [`UnitView::strength`]).
fn strength(s: &Stats) -> String {
    if s.attack == 0 {
        format!("strength {}, defence only", s.defence)
    } else if s.attack == s.defence {
        format!("strength {}", s.attack)
    } else {
        format!("attack {}, defence {}", s.attack, s.defence)
    }
}

/// The area around the player's pieces, drawn from the view.
pub fn ascii_board(rules: &Ruleset, v: &View) -> String {
    let mut marks: Vec<Mark> = Vec::new();
    for u in &v.units {
        let Some(at) = Label::parse(&u.at) else {
            continue;
        };
        let orf = u.side == Side::Orfburg.name();
        let code = if orf {
            u.unit.clone()
        } else {
            u.unit.to_ascii_lowercase()
        };
        match marks.iter_mut().find(|m| m.at == at) {
            Some(m) => {
                // A unit and its Duke: the unit's code with a star.
                let duke = UnitId::DUKE.to_string();
                if u.unit == duke {
                    m.code.push('*');
                } else {
                    m.code = format!("{code}*");
                }
            }
            None => marks.push(Mark { at, code }),
        }
    }
    let focus: Vec<Label> = v.focus.iter().filter_map(|s| Label::parse(s)).collect();
    ascii::area(rules, &marks, &focus)
}
