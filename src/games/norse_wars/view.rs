//! What one player may see, and the events told the way they saw them.

use super::play::{Cause, Event, PieceRef, PushResult, Shift, Stop, Tally};
use super::ruleset::Ruleset;
use super::state::{Phase, State, SLOTS};
use crate::board::svg::{Arrow, ArrowKind};
use crate::board::{ascii, Hex, HexagonLabels};
use crate::games::{Seat, Seen};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct PlayerView {
    pub id: String,
    pub seat: usize,
    pub marker: String,
    pub alive: bool,
    pub team: u8,
    /// Only told where the viewer may know it (own team, or no fog).
    pub starving: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PieceView {
    pub owner: String,
    pub marker: String,
    pub piece: String,
    pub hex: String,
    pub yours: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct EventView {
    pub turn: u32,
    pub text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub you: String,
    pub seat: usize,
    pub round: u32,
    pub phase: String,
    pub to_move: Option<String>,
    pub your_turn: bool,
    pub radius: i32,
    pub grid_radius: i32,
    pub throne: String,
    pub fog: Option<i32>,
    pub teams: bool,
    pub sudden_death: bool,
    pub players: Vec<PlayerView>,
    pub pieces: Vec<PieceView>,
    pub shields: Vec<String>,
    /// Hexes on the board you cannot see (fog of war).
    pub fogged: Vec<String>,
    pub events: Vec<EventView>,
    /// The moves and attacks of those events the player saw, for the picture.
    pub arrows: Vec<Arrow>,
    pub stalemate: u32,
    /// Whether a piece has been pushed off the board in the current round
    /// (it decides whether the round counts towards starvation). Public
    /// without fog; under fog a push-off out of sight is not told, so
    /// neither is this (`None`).
    pub eliminated_this_round: Option<bool>,
    /// Rounds without an elimination until the next starvation (or shrink).
    pub next_starvation_in: u32,
    pub legal: Vec<String>,
    pub starve_preference: Vec<String>,
    pub shields_to_place: usize,
    pub result: Option<String>,
}

pub fn marker(seat: usize) -> String {
    ((b'A' + seat as u8) as char).to_string()
}

/// Which hexes `seat` sees: all without fog (or once the game is over),
/// else those within range of a piece of theirs or a living teammate's.
pub fn vision(rules: &Ruleset, st: &State, seat: Seat) -> Vec<bool> {
    sight(rules, st, seat, false)
}

/// [`vision`], or every hex where `everything` (the omniscient view).
fn sight(rules: &Ruleset, st: &State, seat: Seat, everything: bool) -> Vec<bool> {
    let all = Hex::spiral_area(st.grid_radius);
    let g = st.grid_radius;
    let side = (2 * g + 1) as usize;
    let idx = |h: Hex| ((h.q + g) as usize) * side + (h.r + g) as usize;
    let mut v = vec![false; side * side];
    if everything || !st.options.fog || st.phase == Phase::Over {
        for h in all {
            v[idx(h)] = true;
        }
        return v;
    }
    let team = st.seats[seat].team;
    let eyes: Vec<Hex> = st
        .pieces
        .iter()
        .filter(|p| st.seats[p.seat as usize].team == team)
        .filter_map(|p| p.at)
        .collect();
    for h in all {
        if eyes.iter().any(|e| e.distance(h) <= rules.fog.range) {
            v[idx(h)] = true;
        }
    }
    v
}

/// A push's attack, term by term: `attack 1 + 1 momentum + 2 support = 4`.
pub(super) fn attack_words(t: &Tally) -> String {
    format!(
        "attack {}{}{} = {}",
        t.strength,
        if t.momentum > 0 {
            format!(" + {} momentum", t.momentum)
        } else {
            String::new()
        },
        if t.line > 0 {
            format!(" + {} support", t.line)
        } else {
            String::new()
        },
        t.total()
    )
}

/// A push's defence, term by term: `defence 1 + 1 bracing = 2`.
pub(super) fn defence_words(t: &Tally) -> String {
    format!(
        "defence {}{} = {}",
        t.strength,
        if t.line > 0 {
            format!(" + {} bracing", t.line)
        } else {
            String::new()
        },
        t.total()
    )
}

/// Every hex and piece a push involves: the mover's path, the supporting
/// line, the pushed line and every piece shifted. The push is told in full
/// (numbers and arrows) only if all of them are in sight.
#[allow(clippy::too_many_arguments)]
pub(super) fn push_parts(
    who: PieceRef,
    from: Hex,
    to: Hex,
    target: PieceRef,
    target_at: Hex,
    support_end: Hex,
    line_end: Hex,
    shifted: &[Shift],
) -> (Vec<Hex>, Vec<PieceRef>) {
    let mut hexes = vec![from, to, target_at];
    for (start, end) in [(from, support_end), (target_at, line_end)] {
        let n = end.distance(start);
        if let Some(dir) = crate::board::Dir::ALL
            .into_iter()
            .find(|d| start.steps(*d, n) == end)
        {
            let mut h = start;
            while h != end {
                h = h.step(dir);
                hexes.push(h);
            }
        }
    }
    let mut pieces = vec![who, target];
    for s in shifted {
        hexes.push(s.from);
        hexes.extend(s.to);
        pieces.push(s.who);
    }
    (hexes, pieces)
}

struct Seer<'a> {
    st: &'a State,
    players: &'a [String],
    labels: HexagonLabels,
    seen: Vec<bool>,
    seat: Seat,
    /// The omniscient view: nothing is hidden.
    everything: bool,
}

impl Seer<'_> {
    fn sees(&self, h: Hex) -> bool {
        let g = self.st.grid_radius;
        if h.length() > g {
            return true; // off the board: nothing hides there
        }
        self.seen[((h.q + g) as usize) * (2 * g + 1) as usize + (h.r + g) as usize]
    }
    fn ours(&self, p: PieceRef) -> bool {
        self.st.seats[p.seat as usize].team == self.st.seats[self.seat].team
    }
    /// A piece may be named if it is off the board now or stands in sight.
    fn may_name(&self, p: PieceRef) -> bool {
        match self.st.pieces[p.seat as usize * SLOTS + p.piece as usize].at {
            None => true,
            Some(h) => self.sees(h),
        }
    }
    fn name(&self, p: PieceRef) -> String {
        let piece = if p.piece == 0 {
            "Jarl".to_string()
        } else {
            format!("W{}", p.piece)
        };
        format!("{} {}", self.players[p.seat as usize], piece)
    }
    fn l(&self, h: Hex) -> String {
        self.labels.label(h)
    }
    fn who(&self, seat: u8) -> &str {
        &self.players[seat as usize]
    }

    fn open(&self, hexes: &[Hex], pieces: &[PieceRef]) -> bool {
        hexes.iter().all(|&h| self.sees(h)) && pieces.iter().all(|&p| self.may_name(p))
    }

    /// The arrows the board draws for an event: exactly the moves and
    /// attacks the event's text tells this player, nothing out of sight.
    fn arrows(&self, e: &Event, out: &mut Vec<Arrow>) {
        let mut arrow = |from: Hex, to: Hex, kind: ArrowKind, seat: u8| {
            out.push(Arrow {
                from: self.l(from),
                to: self.l(to),
                kind,
                seat: seat as usize,
            })
        };
        match e {
            Event::Moved { who, from, to } if self.open(&[*from, *to], &[*who]) => {
                arrow(*from, *to, ArrowKind::Move, who.seat)
            }
            Event::Push {
                who,
                from,
                to,
                target,
                target_at,
                support_end,
                line_end,
                shifted,
                ..
            } => {
                let (hexes, pieces) = push_parts(
                    *who,
                    *from,
                    *to,
                    *target,
                    *target_at,
                    *support_end,
                    *line_end,
                    shifted,
                );
                let open = self.open(&hexes, &pieces);
                if open || (self.ours(*who) && self.sees(*to)) {
                    arrow(*from, *target_at, ArrowKind::Attack, who.seat);
                }
                for s in shifted {
                    if let Some(t) = s.to {
                        if open || self.ours(s.who) {
                            arrow(s.from, t, ArrowKind::Move, s.who.seat);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The event as this player may read it, or nothing.
    ///
    /// Long (about 170 lines): one match, a branch a kind of event, each
    /// telling what this player may see of it.
    fn tell(&self, e: &Event) -> Option<String> {
        let open = |hexes: &[Hex], pieces: &[PieceRef]| self.open(hexes, pieces);
        Some(match e {
            Event::ShieldPlaced { seat, at } => {
                format!("{} placed a Shield on {}", self.who(*seat), self.l(*at))
            }
            Event::Moved { who, from, to } => {
                if open(&[*from, *to], &[*who]) {
                    let throne = if *to == Hex::ORIGIN && who.piece == 0 {
                        " — the Throne"
                    } else {
                        ""
                    };
                    format!(
                        "{} moved {} → {}{}",
                        self.name(*who),
                        self.l(*from),
                        self.l(*to),
                        throne
                    )
                } else {
                    format!("{} moved out of your sight", self.who(who.seat))
                }
            }
            Event::Push {
                who,
                from,
                to,
                target,
                target_at,
                support_end,
                line_end,
                attack,
                defence,
                outcome,
                shifted,
            } => {
                let (hexes, pieces) = push_parts(
                    *who,
                    *from,
                    *to,
                    *target,
                    *target_at,
                    *support_end,
                    *line_end,
                    shifted,
                );
                if !open(&hexes, &pieces) {
                    // Part of it is out of sight: your own side's piece is
                    // told by name and result, but not the numbers, which
                    // would count hidden pieces.
                    let head = if self.ours(*who) && self.sees(*to) {
                        let result = match outcome {
                            PushResult::Blocked => "blocked",
                            PushResult::Compressed { .. } => "jammed, nothing moves",
                            PushResult::Pushed => "pushed",
                        };
                        format!("{} {} → {} attacks a line reaching out of your sight: {result}, ends on {}", self.name(*who), self.l(*from), self.l(*target_at), self.l(*to))
                    } else {
                        format!("{} moved out of your sight", self.who(who.seat))
                    };
                    let mut lines = vec![head];
                    for s in shifted.iter().filter(|s| self.ours(s.who)) {
                        lines.push(match s.to {
                            Some(t) => format!(
                                "  {} was pushed {} → {}",
                                self.name(s.who),
                                self.l(s.from),
                                self.l(t)
                            ),
                            None => format!(
                                "  {} was pushed off the board from {}",
                                self.name(s.who),
                                self.l(s.from)
                            ),
                        });
                    }
                    return Some(lines.join("\n"));
                }
                let a = attack_words(attack);
                let d = defence_words(defence);
                let head = format!(
                    "{} {} → {} attacks {} on {}: {a} against {d}",
                    self.name(*who),
                    self.l(*from),
                    self.l(*target_at),
                    self.name(*target),
                    self.l(*target_at)
                );
                match outcome {
                    PushResult::Blocked => format!("{head}: blocked, stops on {}", self.l(*to)),
                    PushResult::Compressed { against, by } => {
                        let what = match by {
                            Stop::Shield => format!("the Shield on {}", self.l(*against)),
                            Stop::Throne => "the Throne".to_string(),
                            Stop::Ally => format!("an ally on {}", self.l(*against)),
                        };
                        format!("{head}: the push succeeds but the line is jammed against {what}; nothing moves, it stops on {}", self.l(*to))
                    }
                    PushResult::Pushed => {
                        let mut s = format!("{head}: pushed");
                        for sh in shifted {
                            match sh.to {
                                Some(t) => s.push_str(&format!(
                                    "\n  {} {} → {}",
                                    self.name(sh.who),
                                    self.l(sh.from),
                                    self.l(t)
                                )),
                                None => s.push_str(&format!(
                                    "\n  {} is pushed off the board from {}",
                                    self.name(sh.who),
                                    self.l(sh.from)
                                )),
                            }
                        }
                        s.push_str(&format!("\n  {} takes {}", self.name(*who), self.l(*to)));
                        s
                    }
                }
            }
            Event::Removed { who, at, cause } => {
                let why = match cause {
                    Cause::JarlLost => "leaves the game with its Jarl",
                    Cause::Starved => "starves",
                    Cause::Shrunk => "falls as the board shrinks",
                    Cause::DroppedOut => "leaves the game: its player dropped out",
                    Cause::Resigned => "leaves the game: its player resigned",
                };
                if self.sees(*at) {
                    format!("{} on {} {}", self.name(*who), self.l(*at), why)
                } else if matches!(cause, Cause::JarlLost | Cause::DroppedOut | Cause::Resigned) {
                    return None;
                } else {
                    format!(
                        "a piece of {} {} out of your sight",
                        self.who(who.seat),
                        why
                    )
                }
            }
            Event::Starving { seat } => {
                if self.st.options.fog
                    && !self.everything
                    && self.st.seats[*seat as usize].team != self.st.seats[self.seat].team
                    && self.st.phase != Phase::Over
                {
                    return None;
                }
                format!("{} has no Warriors left: their Jarl starves at the next starvation unless a piece is pushed off first", self.who(*seat))
            }
            Event::Eliminated { seat } => format!("{} is eliminated", self.who(*seat)),
            Event::Skipped { seat } => {
                format!("{} has no legal move and is skipped", self.who(*seat))
            }
            Event::Shrunk { radius } => {
                format!("sudden death: the board shrinks to radius {radius}")
            }
            Event::RoundEnded { .. } => return None,
            Event::Won { seats, how } => {
                let names: Vec<&str> = seats.iter().map(|s| self.who(*s)).collect();
                format!(
                    "{} win{} ({how})",
                    names.join(" and "),
                    if names.len() == 1 { "s" } else { "" }
                )
            }
            Event::Draw { how, .. } => format!("the game is drawn ({how})"),
        })
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

/// What `seat` would see without fog: [`crate::games::Game::omniscient_view`].
pub fn omniscient(
    rules: &Ruleset,
    st: &State,
    players: &[String],
    seat: Seat,
    events: &[Seen<Event>],
) -> View {
    view_as(rules, st, players, seat, events, true)
}

/// Long (about 115 lines): the view's parts (pieces, fog, arrows, players),
/// each filtered through the same fog, then one struct literal.
fn view_as(
    rules: &Ruleset,
    st: &State,
    players: &[String],
    seat: Seat,
    events: &[Seen<Event>],
    everything: bool,
) -> View {
    let seer = Seer {
        st,
        players,
        labels: st.labels(),
        seen: sight(rules, st, seat, everything),
        seat,
        everything,
    };
    let team = st.seats[seat].team;
    let fog = st.options.fog && st.phase != Phase::Over && !everything;
    let player_views = st
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| PlayerView {
            id: players[i].clone(),
            seat: i + 1,
            marker: marker(i),
            alive: s.alive,
            team: s.team + 1,
            starving: if !fog || s.team == team {
                Some(s.starving)
            } else {
                None
            },
        })
        .collect();
    let mut pieces = Vec::new();
    for p in st.pieces.iter() {
        if let Some(h) = p.at {
            if seer.sees(h) {
                pieces.push(PieceView {
                    owner: players[p.seat as usize].clone(),
                    marker: marker(p.seat as usize),
                    piece: p.name(),
                    hex: seer.l(h),
                    yours: p.seat as usize == seat,
                });
            }
        }
    }
    let fogged = Hex::spiral_area(st.radius)
        .into_iter()
        .filter(|&h| !seer.sees(h))
        .map(|h| seer.l(h))
        .collect();
    let mut arrows = Vec::new();
    for s in events {
        seer.arrows(&s.event, &mut arrows);
    }
    let events = events
        .iter()
        .filter_map(|s| {
            seer.tell(&s.event)
                .map(|text| EventView { turn: s.turn, text })
        })
        .collect();
    let your_turn = st.to_move() == Some(seat);
    let mut legal = Vec::new();
    if your_turn && st.phase == Phase::Move {
        let mut mv = Vec::new();
        st.moves(rules, seat, &mut mv);
        legal = mv.iter().map(super::order_text).collect();
    }
    if your_turn && st.phase == Phase::Shields {
        legal = Hex::spiral_area(st.radius)
            .into_iter()
            .filter(|h| st.shield_spot(*h).is_ok())
            .map(|h| format!("shield {}", st.label(h)))
            .collect();
    }
    let cadence = if st.options.sudden_death {
        rules.sudden_death
    } else {
        rules.starvation
    };
    View {
        you: players[seat].clone(),
        seat: seat + 1,
        round: st.round,
        phase: super::phase_name(st).to_string(),
        to_move: st.to_move().map(|s| players[s].clone()),
        your_turn,
        radius: st.radius,
        grid_radius: st.grid_radius,
        throne: seer.l(Hex::ORIGIN),
        fog: st.options.fog.then_some(rules.fog.range),
        teams: st.options.teams,
        sudden_death: st.options.sudden_death,
        players: player_views,
        pieces,
        shields: st.shields.iter().map(|h| seer.l(*h)).collect(),
        fogged,
        events,
        arrows,
        stalemate: st.stalemate,
        eliminated_this_round: (!fog).then_some(st.eliminated_this_round),
        next_starvation_in: cadence.rounds_to_next(st.stalemate),
        legal,
        starve_preference: st.seats[seat]
            .starve_preference
            .iter()
            .map(|n| format!("W{n}"))
            .collect(),
        shields_to_place: st.shield_order.len(),
        result: st.result.clone(),
    }
}

/// The board as text, from the view alone.
pub fn ascii_board(view: &View) -> String {
    let labels = HexagonLabels {
        radius: view.grid_radius,
    };
    let g = view.grid_radius;
    let side = (2 * g + 1) as usize;
    let idx = |h: Hex| ((h.q + g) as usize) * side + (h.r + g) as usize;
    let mut cells: Vec<Option<String>> = vec![None; side * side];
    for l in &view.fogged {
        if let Some(h) = labels.parse(l) {
            cells[idx(h)] = Some("~~".into());
        }
    }
    for l in &view.shields {
        if let Some(h) = labels.parse(l) {
            cells[idx(h)] = Some("##".into());
        }
    }
    for p in &view.pieces {
        if let Some(h) = labels.parse(&p.hex) {
            let c = if p.piece == "J" { "J" } else { &p.piece[1..] };
            cells[idx(h)] = Some(format!("{}{}", p.marker, c));
        }
    }
    let token = |h: Hex| -> String {
        if h.length() > view.radius {
            return "  ".into();
        }
        match &cells[idx(h)] {
            Some(t) => t.clone(),
            None if h == Hex::ORIGIN => "<>".into(),
            None => "..".into(),
        }
    };
    ascii::hexagon(view.grid_radius, &token)
}
