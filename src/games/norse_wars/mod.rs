//! Norse Wars v0.4.1: push combat on a hex board for 2–6 players.
//!
//! `ruleset` holds the ruleset data, `state` the whole truth, `setup` the start,
//! `play` movement and push combat, `view` what one player may see. Rulings
//! are in `games/norse-wars.md`.

pub mod bot;
pub mod compose;
pub mod play;
pub mod playout;
pub mod ruleset;
pub mod setup;
pub mod state;
pub mod svg;
pub mod view;

use crate::board::{Dir, Hex};
use crate::games::Outcome;
use crate::games::{Game, OptionSpec, Options, Problem, RulesError, Seat, Seen, Setup};
use crate::rng::ChaCha20Rng;
use play::{Event, Illegal, Move};
use ruleset::Ruleset;
use state::{Phase, State, SLOTS};
use std::collections::BTreeMap;
use std::fmt;

pub struct NorseWars;

impl NorseWars {
    pub const RULESET_TEXT: &'static str = include_str!("../../../games/norse-wars.toml");
}

/// One line of a Norse Wars order file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Order {
    /// `W3 NE 2`, `J S`
    Move(Move),
    /// `starve W2 W4`: which Warriors starve first among equidistant ones.
    Starve(Vec<u8>),
    /// `shield d4`: place a Shield (draft-shields phase).
    Shield(Hex, String),
}

pub fn order_text(m: &Move) -> String {
    let piece = state::piece_name(m.piece);
    if m.steps == 1 {
        format!("{} {}", piece, m.dir)
    } else {
        format!("{} {} {}", piece, m.dir, m.steps)
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Move(m) => f.write_str(&order_text(m)),
            Order::Starve(list) => {
                let names: Vec<String> = list.iter().map(|n| format!("W{n}")).collect();
                write!(f, "starve {}", names.join(" "))
            }
            Order::Shield(_, label) => write!(f, "shield {label}"),
        }
    }
}

/// `J` → 0, `W3` → 3.
pub fn parse_piece(s: &str) -> Option<u8> {
    let s = s.to_ascii_uppercase();
    if s == "J" {
        return Some(0);
    }
    let n: u8 = s.strip_prefix('W')?.parse().ok()?;
    (1..SLOTS as u8).contains(&n).then_some(n)
}

pub fn phase_name(st: &State) -> &'static str {
    match st.phase {
        Phase::Shields => "shields",
        Phase::Move => "move",
        Phase::Over => "over",
    }
}

fn your_pieces(st: &State, seat: Seat) -> String {
    let names: Vec<String> = st.pieces_of(seat).map(|(_, p)| p.name()).collect();
    names.join(", ")
}

/// Why a Norse Wars order line does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderError {
    /// `starve` followed by a word that names no Warrior.
    NotAWarrior { word: String },
    /// `starve` naming no Warrior.
    StarveWhom,
    /// `shield` without exactly one hex after it.
    ShieldWhere,
    /// A word that is no hex of this board; `last_file` is its last column.
    NotAHex { word: String, last_file: char },
    /// A first word that names no piece.
    NotAPiece { word: String },
    /// A piece and nothing after it.
    NoDirection { piece: String },
    /// A word that is no direction.
    NotADirection { word: String },
    /// A step count other than 1 or 2.
    BadSteps { word: String },
    /// Words after a whole move.
    Extra { words: String },
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrderError::NotAWarrior { word } => {
                write!(f, "`{word}` is not a Warrior (W1 … W9); say e.g. `starve W3 W1`")
            }
            OrderError::StarveWhom => {
                f.write_str("say which Warriors starve first, e.g. `starve W3 W1`")
            }
            OrderError::ShieldWhere => f.write_str("say `shield <hex>`, e.g. `shield d4`"),
            OrderError::NotAHex { word, last_file } => write!(
                f,
                "`{word}` is not a hex of this board (files a–{last_file}, ranks from 1 at each column's south end)"
            ),
            OrderError::NotAPiece { word } => write!(
                f,
                "`{word}` is not a piece; an order is `<piece> <direction> [steps]` with pieces J, W1 … W9 and directions N NE SE S SW NW, e.g. `W3 NE 2`"
            ),
            OrderError::NoDirection { piece } => write!(
                f,
                "say where {piece} goes: `{piece} <direction> [steps]`, directions N NE SE S SW NW"
            ),
            OrderError::NotADirection { word } => {
                write!(f, "`{word}` is not a direction; directions are N NE SE S SW NW")
            }
            OrderError::BadSteps { word } => {
                write!(f, "`{word}` steps: a piece moves 1 or 2 hexes")
            }
            OrderError::Extra { words } => write!(
                f,
                "one move per line: `<piece> <direction> [steps]`; `{words}` is extra"
            ),
        }
    }
}

crate::games::rules_error::rules_detail!(OrderError, |self| match self {
    OrderError::NotAWarrior { .. } | OrderError::NotAPiece { .. } => K::UnknownPiece,
    _ => K::Malformed,
});

/// A move the rules forbid: the move, why (the rules' [`Illegal`] and the
/// facts its sentence needs), and what is legal instead — the piece's own
/// moves, or, where it has none, every legal move (at most 12).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    pub piece: String,
    pub dir: Dir,
    pub steps: u8,
    pub why: Illegal,
    /// The hex named by `why`, as the board labels it.
    pub at: Option<String>,
    /// What the rules take: the draft's Warriors, the Warrior's longest move.
    pub draft_warriors: u32,
    pub teams: bool,
    /// The piece's legal moves without its name (`NE`, `NE 2`).
    pub alternatives: Vec<String>,
    /// Every legal move, where the piece has none (whole orders).
    pub instead: Vec<String>,
    /// Every legal order this problem names, as order-file text.
    pub legal: Vec<String>,
    /// The player's pieces, for a piece they do not have.
    pub yours: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.piece;
        let at = self.at.as_deref().unwrap_or("");
        let reason = match self.why {
            Illegal::NoSuchPiece => {
                return write!(f, "you have no {name} on the board (yours: {})", self.yours)
            }
            Illegal::Steps { max } if name == "J" => {
                format!("a Jarl moves 1 hex, or 2 with draft; {} is not 1 or {max}", self.steps)
            }
            Illegal::Steps { max } => {
                format!("a Warrior moves 1 to {max} hexes, not {}", self.steps)
            }
            Illegal::NoDraft => format!(
                "a Jarl moves 2 only with draft: {} of your Warriors in a line directly behind it (on the {} side)",
                self.draft_warriors,
                self.dir.opposite()
            ),
            Illegal::OffBoard(_) => "that leads off the board".to_string(),
            Illegal::Shield(_) => format!("a Shield stands on {at}"),
            Illegal::Own(_, _) => format!(
                "{at} holds your own piece (you cannot move through or onto your own pieces{})",
                if self.teams { " or an ally's" } else { "" }
            ),
            Illegal::InPath(_, _) => format!(
                "a piece on {at} is in the way (a piece pushes only what it reaches at the end of its move)"
            ),
            Illegal::ThroneWarrior(_) => "Warriors never enter the Throne".to_string(),
        };
        let instead = if self.alternatives.is_empty() {
            format!(
                "{name} has no legal move; you can play: {}",
                self.instead.join(", ")
            )
        } else {
            format!("{name} can: {}", self.alternatives.join(", "))
        };
        write!(
            f,
            "{name} cannot go {}{}: {reason}. {instead}",
            self.dir,
            if self.steps == 2 { " 2" } else { "" }
        )
    }
}

crate::games::rules_error::rules_detail!(IllegalMove, |self| match self.why {
    Illegal::NoSuchPiece => K::UnknownPiece,
    _ => K::Illegal,
}, legal: |self| &self.legal);

/// Why a player's Norse Wars orders, read, are refused as a whole or at one
/// line (beside [`IllegalMove`] and [`play::ShieldRefused`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    NotYourTurn,
    /// A move during the Shield draft.
    MoveInDraft,
    SecondMove,
    SecondStarve,
    /// A `starve` naming a Warrior the player has not on the board.
    NoWarrior {
        warrior: u8,
        yours: Vec<String>,
    },
    ShieldOutsideDraft,
    SecondShield,
    /// No Shield placed in the draft.
    NoShield,
    /// No move: every legal move, as order text.
    NoMove {
        legal: Vec<String>,
    },
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::NotYourTurn => f.write_str("it is not your turn"),
            Refused::MoveInDraft => {
                f.write_str("this is the Shield draft: place a Shield with `shield <hex>`")
            }
            Refused::SecondMove => {
                f.write_str("you move exactly one piece per turn; this is a second move")
            }
            Refused::SecondStarve => {
                f.write_str("give one `starve` line with every Warrior in your order of preference")
            }
            Refused::NoWarrior { warrior, yours } => write!(
                f,
                "you have no W{warrior} on the board (your Warriors: {})",
                if yours.is_empty() {
                    "none".to_string()
                } else {
                    yours.join(", ")
                }
            ),
            Refused::ShieldOutsideDraft => {
                f.write_str("Shields are placed only in the Shield draft")
            }
            Refused::SecondShield => f.write_str("you place one Shield per turn; this is a second"),
            Refused::NoShield => f.write_str("place a Shield: `shield <hex>`"),
            Refused::NoMove { legal } => write!(
                f,
                "you must move one piece (no passing); legal now: {}",
                legal.join(", ")
            ),
        }
    }
}

crate::games::rules_error::rules_detail!(Refused, |self| match self {
    Refused::NotYourTurn | Refused::MoveInDraft | Refused::ShieldOutsideDraft => K::WrongPhase,
    Refused::NoWarrior { .. } => K::UnknownPiece,
    _ => K::Illegal,
}, legal: |self| match self {
    Refused::NoMove { legal } => legal,
    _ => &[],
});

/// Why a move is refused, and what that piece could do instead.
fn explain(rules: &Ruleset, st: &State, seat: Seat, m: &Move, why: Illegal) -> IllegalMove {
    let name = state::piece_name(m.piece);
    let at = match why {
        Illegal::Shield(h) | Illegal::Own(h, _) | Illegal::InPath(h, _) => Some(st.label(h)),
        _ => None,
    };
    let mut all = Vec::new();
    st.moves(rules, seat, &mut all);
    let own: Vec<String> = all
        .iter()
        .filter(|a| a.piece == m.piece)
        .map(order_text)
        .collect();
    let alternatives: Vec<String> = own
        .iter()
        .map(|t| t[name.len() + 1..].to_string())
        .collect();
    let mut instead: Vec<String> = Vec::new();
    if alternatives.is_empty() {
        instead = all.iter().map(order_text).collect();
        instead.truncate(12);
    }
    let legal = if own.is_empty() { instead.clone() } else { own };
    IllegalMove {
        yours: if why == Illegal::NoSuchPiece {
            your_pieces(st, seat)
        } else {
            String::new()
        },
        piece: name,
        dir: m.dir,
        steps: m.steps,
        why,
        at,
        draft_warriors: rules.pieces.draft_warriors,
        teams: st.options.teams,
        alternatives,
        instead,
        legal,
    }
}

impl Game for NorseWars {
    const DROP_OUT: &'static str = "you are eliminated: your pieces leave the board";
    const NAME: &'static str = "norse-wars";
    const TITLE: &'static str = "Norse Wars";
    const RULESET: &'static str = Self::RULESET_TEXT;

    type Ruleset = Ruleset;
    type State = State;
    type Order = Order;
    type Event = Event;
    type View = view::View;

    fn load_ruleset(text: &str) -> Result<Ruleset, RulesError> {
        Ruleset::parse(text)
    }

    fn options() -> Vec<OptionSpec> {
        vec![
            OptionSpec {
                name: "fog",
                default: "false",
                help: "fog of war: pieces beyond the fog range of all yours are hidden",
            },
            OptionSpec {
                name: "draft_shields",
                default: "false",
                help: "players place the Shields one each, in reverse turn order",
            },
            OptionSpec {
                name: "sudden_death",
                default: "false",
                help: "the board shrinks instead of starvation",
            },
            OptionSpec {
                name: "teams",
                default: "false",
                help: "2v2 or 3v3 (4 or 6 players): seats 1,3,5 against 2,4,6",
            },
        ]
    }

    fn players(rules: &Ruleset) -> (usize, usize) {
        let min = rules.scaling.iter().map(|s| s.players).min().unwrap_or(2);
        let max = rules.scaling.iter().map(|s| s.players).max().unwrap_or(6);
        (min, max)
    }

    fn check_options(rules: &Ruleset, players: usize, options: &Options) -> Vec<RulesError> {
        let mut out = Vec::new();
        if rules.scaling_for(players).is_none() {
            out.push(setup::SetupError::seats(Self::NAME, rules, players).into());
        }
        match setup::parse_options(options) {
            Err(e) => out.push(e),
            Ok(o) if o.teams && players != 4 && players != 6 => out.push(
                setup::SetupError::Teams {
                    value: Some(options["teams"].clone()),
                    players,
                }
                .into(),
            ),
            Ok(_) => {}
        }
        out
    }

    fn setup(
        rules: &Ruleset,
        players: &[String],
        options: &Options,
        position: Option<&str>,
        rng: &mut ChaCha20Rng,
    ) -> Result<Setup<State>, RulesError> {
        let opts = setup::parse_options(options)?;
        let (state, notes) = match position {
            Some(text) => setup::from_position(rules, players, opts, text)?,
            None => setup::standard(rules, players.len(), opts, rng)?,
        };
        Ok(Setup { state, notes })
    }

    fn phase(_: &Ruleset, st: &State) -> String {
        phase_name(st).to_string()
    }

    fn awaiting(_: &Ruleset, st: &State) -> Vec<Seat> {
        st.to_move().into_iter().collect()
    }

    fn parse_order(_: &Ruleset, st: &State, _seat: Seat, line: &str) -> Result<Order, RulesError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = words.first() else {
            return Err(RulesError::EmptyOrder { accepted: "" });
        };
        if first.eq_ignore_ascii_case("starve") {
            let mut list = Vec::new();
            for w in &words[1..] {
                match parse_piece(w) {
                    Some(n) if n > 0 => list.push(n),
                    _ => {
                        return Err(OrderError::NotAWarrior {
                            word: w.to_string(),
                        }
                        .into())
                    }
                }
            }
            if list.is_empty() {
                return Err(OrderError::StarveWhom.into());
            }
            return Ok(Order::Starve(list));
        }
        if first.eq_ignore_ascii_case("shield") {
            let [_, hex] = words[..] else {
                return Err(OrderError::ShieldWhere.into());
            };
            let h = st.labels().parse(hex).ok_or_else(|| OrderError::NotAHex {
                word: hex.to_string(),
                last_file: st.labels().file_letter(st.grid_radius),
            })?;
            return Ok(Order::Shield(h, st.label(h)));
        }
        let piece = parse_piece(first).ok_or_else(|| OrderError::NotAPiece {
            word: first.to_string(),
        })?;
        let Some(d) = words.get(1) else {
            return Err(OrderError::NoDirection {
                piece: first.to_string(),
            }
            .into());
        };
        let dir = Dir::parse(d).ok_or_else(|| OrderError::NotADirection {
            word: d.to_string(),
        })?;
        let steps = match words.get(2) {
            None => 1,
            Some(s) => s
                .parse::<u8>()
                .ok()
                .filter(|n| (1..=2).contains(n))
                .ok_or_else(|| OrderError::BadSteps {
                    word: s.to_string(),
                })?,
        };
        if words.len() > 3 {
            return Err(OrderError::Extra {
                words: words[3..].join(" "),
            }
            .into());
        }
        Ok(Order::Move(Move { piece, dir, steps }))
    }

    /// Long (about 90 lines): one pass over the orders, one branch a kind of
    /// order, counting moves and starvations together so every problem is told
    /// at once.
    fn check(rules: &Ruleset, st: &State, seat: Seat, orders: &[Order]) -> Vec<Problem> {
        let mut problems = Vec::new();
        if st.to_move() != Some(seat) {
            problems.push(Problem::whole(Refused::NotYourTurn));
            return problems;
        }
        let mut moves = 0;
        let mut starves = 0;
        for (i, o) in orders.iter().enumerate() {
            match o {
                Order::Move(m) => {
                    moves += 1;
                    if st.phase != Phase::Move {
                        problems.push(Problem::at(i, Refused::MoveInDraft));
                        continue;
                    }
                    if moves > 1 {
                        problems.push(Problem::at(i, Refused::SecondMove));
                    }
                    // A second move is checked too: the player keeps one
                    // of the two, and learns now whether either is legal.
                    if let Err(why) = st.check_move(rules, seat, *m) {
                        problems.push(Problem::at(i, explain(rules, st, seat, m, why)));
                    }
                }
                Order::Starve(list) => {
                    starves += 1;
                    if starves > 1 {
                        problems.push(Problem::at(i, Refused::SecondStarve));
                    }
                    let on_board: Vec<u8> = st
                        .pieces_of(seat)
                        .map(|(_, p)| p.number)
                        .filter(|&n| n > 0)
                        .collect();
                    for n in list.iter().filter(|n| !on_board.contains(n)) {
                        problems.push(Problem::at(
                            i,
                            Refused::NoWarrior {
                                warrior: *n,
                                yours: on_board.iter().map(|n| format!("W{n}")).collect(),
                            },
                        ));
                    }
                }
                Order::Shield(h, label) => {
                    moves += 1;
                    if st.phase != Phase::Shields {
                        problems.push(Problem::at(i, Refused::ShieldOutsideDraft));
                        continue;
                    }
                    if moves > 1 {
                        problems.push(Problem::at(i, Refused::SecondShield));
                    }
                    if let Err(why) = st.shield_spot(*h) {
                        problems.push(Problem::at(
                            i,
                            play::ShieldRefused {
                                hex: label.clone(),
                                why,
                            },
                        ));
                    }
                }
            }
        }
        if moves == 0 {
            let what = if st.phase == Phase::Shields {
                Refused::NoShield
            } else {
                let mut all = Vec::new();
                st.moves(rules, seat, &mut all);
                Refused::NoMove {
                    legal: all.iter().map(order_text).collect(),
                }
            };
            problems.push(Problem::whole(what));
        }
        problems
    }

    fn resolve(
        rules: &Ruleset,
        st: &State,
        orders: &BTreeMap<Seat, Vec<Order>>,
        _dice: &mut crate::rng::Dice,
    ) -> (State, Vec<Event>) {
        let mut next = st.clone();
        let mut ev = Vec::new();
        for (&seat, list) in orders {
            for o in list {
                if let Order::Starve(pref) = o {
                    next.seats[seat].starve_preference = pref.clone();
                }
            }
        }
        let Some(seat) = next.to_move() else {
            return (next, ev);
        };
        let mine = orders.get(&seat).map(|v| v.as_slice()).unwrap_or(&[]);
        let mv = mine.iter().find_map(|o| match o {
            Order::Move(m)
                if next.phase == Phase::Move && next.check_move(rules, seat, *m).is_ok() =>
            {
                Some(Order::Move(*m))
            }
            Order::Shield(h, l) if next.phase == Phase::Shields && next.shield_spot(*h).is_ok() => {
                Some(Order::Shield(*h, l.clone()))
            }
            _ => None,
        });
        match mv {
            Some(Order::Move(m)) => next.play(rules, m, &mut ev),
            Some(Order::Shield(h, _)) => next.place_shield(rules, h, &mut ev),
            _ if next.phase == Phase::Move => next.pass(rules, &mut ev),
            _ => {
                // A missed Shield draft: the first spot that keeps the rules.
                let spot = Hex::spiral_area(next.radius)
                    .into_iter()
                    .find(|h| next.shield_spot(*h).is_ok());
                match spot {
                    Some(h) => next.place_shield(rules, h, &mut ev),
                    None => {
                        next.shield_order.clear();
                        next.begin(rules, &mut ev);
                    }
                }
            }
        }
        (next, ev)
    }

    fn legal_orders(rules: &Ruleset, st: &State, seat: Seat) -> Vec<Vec<Order>> {
        if st.to_move() != Some(seat) {
            return Vec::new();
        }
        match st.phase {
            Phase::Move => {
                let mut all = Vec::new();
                st.moves(rules, seat, &mut all);
                all.into_iter().map(|m| vec![Order::Move(m)]).collect()
            }
            Phase::Shields => Hex::spiral_area(st.radius)
                .into_iter()
                .filter(|h| st.shield_spot(*h).is_ok())
                .map(|h| vec![Order::Shield(h, st.label(h))])
                .collect(),
            Phase::Over => Vec::new(),
        }
    }

    fn view(
        rules: &Ruleset,
        st: &State,
        players: &[String],
        seat: Seat,
        events: &[Seen<Event>],
    ) -> view::View {
        view::view(rules, st, players, seat, events)
    }

    /// Norse Wars hides, under fog, what lies beyond sight: here every hex is in sight of `seat` and every event is told in full.
    fn omniscient_view(
        rules: &Ruleset,
        st: &State,
        players: &[String],
        seat: Seat,
        events: &[Seen<Event>],
    ) -> view::View {
        view::omniscient(rules, st, players, seat, events)
    }

    /// Dropped out: eliminated, pieces removed (see games/norse-wars.md).
    /// Not while Shields are drafted: the draft's turn order has no gap for
    /// a missing seat, so the bot drafts for them and the drop-out happens at
    /// their next missed move.
    fn drop_out(rules: &Ruleset, st: &State, seat: Seat) -> Option<(State, Vec<Event>)> {
        if st.phase != state::Phase::Move {
            return None;
        }
        let mut next = st.clone();
        let ev = next.drop_out(rules, seat);
        Some((next, ev))
    }

    fn still_in(_: &Ruleset, st: &State, _players: usize) -> Vec<Seat> {
        if st.phase == state::Phase::Over {
            return Vec::new();
        }
        st.alive_seats().collect()
    }

    fn resign(rules: &Ruleset, st: &State, seat: Seat) -> Option<(State, Vec<Event>)> {
        // During the Shield draft nobody leaves (games/norse-wars.md).
        if st.phase != state::Phase::Move || !st.seats.get(seat)?.alive {
            return None;
        }
        let mut next = st.clone();
        let ev = next.resign(rules, seat);
        Some((next, ev))
    }

    fn agree_draw(_: &Ruleset, st: &State) -> Option<(State, Vec<Event>)> {
        if st.phase == state::Phase::Over {
            return None;
        }
        let mut next = st.clone();
        let ev = next.agree_draw();
        Some((next, ev))
    }

    fn outcome(_: &Ruleset, st: &State, players: &[String]) -> Option<Outcome> {
        let winners = st.winners.as_ref()?;
        // A seat the players do not name (a file edited by hand) is left
        // out: the outcome then differs from the head's, which is refused.
        let names: Vec<String> = winners
            .iter()
            .filter_map(|&s| players.get(s as usize).cloned())
            .collect();
        let how = st.result.clone().unwrap_or_default();
        let summary = if names.is_empty() {
            format!("draw: {how}")
        } else {
            format!("{} won: {how}", names.join(" and "))
        };
        Some(Outcome {
            winners: names,
            summary,
        })
    }
}
