//! Stack Wars: two players fortify, move and attack with stacks of armies
//! on an N×N grid, scoring a point for every army that invades the enemy's
//! baseline.
//!
//! `ruleset` holds the ruleset data, `state` the whole truth, `setup` the
//! start and position files, `play` every rule, `view` what a player sees,
//! `playout` random games and the bot. Rulings: `games/stack-wars.md`.

pub mod bot;
pub mod compose;
pub mod play;
pub mod playout;
pub mod ruleset;
pub mod setup;
pub mod state;
pub mod svg;
pub mod view;

use crate::games::Outcome;
use crate::games::{Game, OptionSpec, Options, Problem, RulesError, Seat, Seen, Setup};
use crate::rng::ChaCha20Rng;
use play::{Action, Event, Illegal};
use ruleset::Ruleset;
use state::{Side, Square, State};
use std::collections::BTreeMap;
use std::fmt;

pub struct StackWars;

impl StackWars {
    pub const RULESET_TEXT: &'static str = include_str!("../../../games/stack-wars.toml");
}

/// One line of a Stack Wars order file is one action.
pub type Order = Action;

const NOTATION: &str =
    "orders are `fortify r,c`, `move r,c r,c`, `attack r,c r,c` and `resign` (row,col as on the board), e.g. `move 8,4 7,4`";

/// The squares named after an order's keyword: `8,4 7,4`, `(8,4) (7,4)`
/// and `8, 4 7, 4` all read the same.
fn squares(rest: &str) -> Option<Vec<Square>> {
    let nums: Vec<u8> = rest
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')'))
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().ok())
        .collect::<Option<_>>()?;
    nums.len()
        .is_multiple_of(2)
        .then(|| nums.chunks(2).map(|p| Square::new(p[0], p[1])).collect())
}

/// A Stack Wars order whose squares do not read: the order's word and how
/// many squares it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSquares {
    pub word: String,
    pub wanted: usize,
}

impl fmt::Display for BadSquares {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = &self.word;
        match self.wanted {
            0 => f.write_str("`resign` takes nothing after it"),
            1 => f.write_str("say `fortify row,col`, e.g. `fortify 8,4`"),
            _ => write!(
                f,
                "say `{word} row,col row,col` (from, then to), e.g. `{word} 5,4 4,4`"
            ),
        }
    }
}

crate::games::rules_error::rules_detail!(BadSquares, |self| K::Malformed);

pub fn parse_action(line: &str) -> Result<Action, RulesError> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let word = word.to_ascii_lowercase();
    let wanted = match word.as_str() {
        "fortify" => 1,
        "move" | "attack" => 2,
        "resign" => 0,
        "" => return Err(RulesError::EmptyOrder { accepted: NOTATION }),
        _ => {
            return Err(RulesError::NotAnOrder {
                word,
                accepted: NOTATION,
            })
        }
    };
    let sq = squares(rest)
        .filter(|s| s.len() == wanted)
        .ok_or_else(|| BadSquares {
            word: word.clone(),
            wanted,
        })?;
    Ok(match word.as_str() {
        "fortify" => Action::Fortify(sq[0]),
        "move" => Action::Move {
            from: sq[0],
            to: sq[1],
        },
        "attack" => Action::Attack {
            from: sq[0],
            to: sq[1],
        },
        _ => Action::Resign,
    })
}

/// A list of actions for a message: the first `max`, then how many more.
pub fn list(actions: &[Action], max: usize) -> String {
    let mut s: Vec<String> = actions.iter().take(max).map(|a| a.to_string()).collect();
    if actions.len() > max {
        s.push(format!("… and {} more", actions.len() - max));
    }
    s.join(", ")
}

/// Why a player's Stack Wars orders are refused as a whole or at a line
/// (beside [`IllegalAction`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    NotYourTurn,
    /// No action: every legal one (resign besides).
    NoAction {
        legal: Vec<Action>,
    },
    /// A second action after `first`.
    SecondAction {
        first: Action,
    },
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::NotYourTurn => f.write_str("it is not your turn"),
            Refused::NoAction { legal } => write!(
                f,
                "you must take one action (there is no passing); legal now: {}, resign",
                list(legal, 24)
            ),
            Refused::SecondAction { first } => write!(
                f,
                "one action per turn; this is a second one after `{first}`"
            ),
        }
    }
}

crate::games::rules_error::rules_detail!(Refused, |self| match self {
    Refused::NotYourTurn => K::WrongPhase,
    _ => K::Illegal,
});

/// What a player may do instead of a refused action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Instead {
    /// Actions of the same kind (from the same territory).
    SameKind(Vec<Action>),
    /// Other actions from the territory the refused one started from.
    From(Square, Vec<Action>),
    /// Every legal action (and resign).
    Any(Vec<Action>),
    /// No action but resigning.
    OnlyResign,
}

/// An action the rules refuse: why ([`Illegal`]) and what is legal instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalAction {
    pub why: Illegal,
    /// The board's size, the player's baseline row.
    pub size: u8,
    pub baseline: u8,
    pub instead: Instead,
    /// Every action `instead` names, as order text.
    pub legal: Vec<String>,
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = match self.why {
            Illegal::OffBoard(sq) => format!(
                "{sq} is not on the board (rows and columns run 0 to {})",
                self.size - 1
            ),
            Illegal::NoReserves => "you have no armies in reserve to fortify with".to_string(),
            // Enemy armies are answered as an empty territory is: an order
            // never learns what stands where it names (issue 7).
            Illegal::NotControlled(sq) => format!("{sq} is not yours to fortify; you fortify only territory you control (your baseline, row {}, or a territory holding your armies)", self.baseline),
            Illegal::NoArmy(sq) => format!("you have no army on {sq}"),
            Illegal::NotAdjacent => "the two territories are not adjacent (one step up, down, left or right; never diagonally)".to_string(),
            Illegal::Enemy(sq) => format!("{sq} holds enemy armies; a MOVE cannot enter it (ATTACK it instead, from a territory with exactly one army)"),
            Illegal::OwnArmies(sq) => format!("{sq} holds your own armies; a MOVE goes to an adjacent unclaimed territory (this game was started without move_onto_own)"),
            Illegal::OwnBaseline(sq) => format!("{sq} is on your own baseline, which you control, so it is not unclaimed; a MOVE goes to an adjacent unclaimed territory (this game was started without move_onto_own)"),
            Illegal::FromStack(sq, armies) => format!("{sq} holds a stack of {armies} armies; an ATTACK is made only from a territory holding exactly one army"),
            Illegal::NoEnemy(sq) => format!("{sq} holds no enemy army to attack"),
        };
        let instead = match &self.instead {
            Instead::SameKind(v) => format!("you can: {}", list(v, 24)),
            Instead::From(sq, v) => format!("from {sq} you can: {}", list(v, 24)),
            Instead::OnlyResign => "you can only resign".to_string(),
            Instead::Any(v) => format!("legal now: {}, resign", list(v, 24)),
        };
        write!(f, "{reason}. Instead {instead}")
    }
}

crate::games::rules_error::rules_detail!(IllegalAction, |self| match self.why {
    Illegal::NoArmy(_) | Illegal::NotControlled(_) => K::NotYours,
    _ => K::Illegal,
}, legal: |self| &self.legal);

/// Why an action is refused, and what the player can do instead.
pub fn explain(st: &State, side: Side, action: Action, why: Illegal) -> IllegalAction {
    let mut all = Vec::new();
    st.actions(side, &mut all);
    let from = match action {
        Action::Move { from, .. } | Action::Attack { from, .. } => Some(from),
        _ => None,
    };
    let same_kind: Vec<Action> = all
        .iter()
        .copied()
        .filter(|a| match (a, action) {
            (Action::Fortify(_), Action::Fortify(_)) => true,
            (Action::Move { from: f, .. }, Action::Move { .. })
            | (Action::Attack { from: f, .. }, Action::Attack { .. }) => Some(*f) == from,
            _ => false,
        })
        .collect();
    let mine_from: Vec<Action> = all
        .iter()
        .copied()
        .filter(|a| match a {
            Action::Move { from: f, .. } | Action::Attack { from: f, .. } => Some(*f) == from,
            _ => false,
        })
        .collect();
    let instead = if !same_kind.is_empty() {
        Instead::SameKind(same_kind)
    } else if let (Some(from), false) = (from, mine_from.is_empty()) {
        Instead::From(from, mine_from)
    } else if all.is_empty() {
        Instead::OnlyResign
    } else {
        Instead::Any(all)
    };
    let legal = match &instead {
        Instead::SameKind(v) | Instead::From(_, v) | Instead::Any(v) => {
            v.iter().map(|a| a.to_string()).collect()
        }
        Instead::OnlyResign => vec!["resign".to_string()],
    };
    IllegalAction {
        why,
        size: st.size,
        baseline: side.baseline(st.size),
        instead,
        legal,
    }
}

impl Game for StackWars {
    const DROP_OUT: &'static str = "you resign and the other side wins";
    const NAME: &'static str = "stack-wars";
    const TITLE: &'static str = "Stack Wars";
    const RULESET: &'static str = Self::RULESET_TEXT;
    const DEMO_PLAYERS: &'static [&'static str] = &["black", "white"];
    const SEATS: &'static [&'static str] = &["black", "white"];

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
                name: "size",
                default: "9",
                help: "the board is N×N (the ruleset's [board] bounds; default board.default_size)",
            },
            OptionSpec {
                name: "move_onto_own",
                default: "false",
                help: "a MOVE may also enter a territory you control (your stack, your empty baseline), as the author's program allowed",
            },
        ]
    }

    fn players(_: &Ruleset) -> (usize, usize) {
        (2, 2)
    }

    fn check_options(rules: &Ruleset, _players: usize, options: &Options) -> Vec<RulesError> {
        setup::parse_options(rules, options)
            .err()
            .into_iter()
            .collect()
    }

    fn setup(
        rules: &Ruleset,
        players: &[String],
        options: &Options,
        position: Option<&str>,
        _rng: &mut ChaCha20Rng,
    ) -> Result<Setup<State>, RulesError> {
        if players.len() != 2 {
            return Err(setup::SetupError::Players(players.len()).into());
        }
        let opts = setup::parse_options(rules, options)?;
        let state = match position {
            Some(text) => setup::from_position(rules, opts, text)?,
            None => setup::standard(rules, opts),
        };
        let notes = vec![
            format!(
                "{0}×{0} board; {1} plays Black (baseline row {2}) and moves first, {3} plays White (baseline row 0)",
                state.size,
                players[0],
                state.size - 1,
                players[1]
            ),
            format!(
                "reserves: Black {}, White {}; MOVE {}",
                state.reserve(Side::Black),
                state.reserve(Side::White),
                if state.move_onto_own {
                    "onto unclaimed territory or territory the mover controls (move_onto_own)"
                } else {
                    "onto unclaimed territory only"
                }
            ),
        ];
        Ok(Setup { state, notes })
    }

    fn phase(_: &Ruleset, st: &State) -> String {
        if st.is_over() { "over" } else { "move" }.to_string()
    }

    fn awaiting(_: &Ruleset, st: &State) -> Vec<Seat> {
        st.mover().map(Side::seat).into_iter().collect()
    }

    fn parse_order(_: &Ruleset, _: &State, _: Seat, line: &str) -> Result<Order, RulesError> {
        parse_action(line)
    }

    fn check(_: &Ruleset, st: &State, seat: Seat, orders: &[Order]) -> Vec<Problem> {
        let side = Side::of_seat(seat);
        if st.mover() != Some(side) {
            return vec![Problem::whole(Refused::NotYourTurn)];
        }
        let mut problems = Vec::new();
        if orders.is_empty() {
            let mut all = Vec::new();
            st.actions(side, &mut all);
            problems.push(Problem::whole(Refused::NoAction { legal: all }));
        }
        // Every action is checked on the position as it stands, a second
        // one too: the player keeps one, and learns now which are legal.
        for (i, &o) in orders.iter().enumerate() {
            if i > 0 {
                problems.push(Problem::at(i, Refused::SecondAction { first: orders[0] }));
            }
            if let Err(why) = st.check_action(side, o) {
                problems.push(Problem::at(i, explain(st, side, o, why)));
            }
        }
        problems
    }

    fn resolve(
        _: &Ruleset,
        st: &State,
        orders: &BTreeMap<Seat, Vec<Order>>,
        _dice: &mut crate::rng::Dice,
    ) -> (State, Vec<Event>) {
        let mut next = st.clone();
        let mut ev = Vec::new();
        if let Some(side) = next.mover() {
            let action = orders
                .get(&side.seat())
                .and_then(|l| l.first())
                .copied()
                .filter(|&a| next.check_action(side, a).is_ok());
            if let Some(a) = action {
                next.play(a, &mut ev);
            }
        }
        (next, ev)
    }

    fn legal_orders(_: &Ruleset, st: &State, seat: Seat) -> Vec<Vec<Order>> {
        let side = Side::of_seat(seat);
        if st.mover() != Some(side) {
            return Vec::new();
        }
        let mut all = Vec::new();
        st.actions(side, &mut all);
        all.push(Action::Resign);
        all.into_iter().map(|a| vec![a]).collect()
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

    /// Stack Wars hides nothing: every stack and event is public.
    fn omniscient_view(
        rules: &Ruleset,
        st: &State,
        players: &[String],
        seat: Seat,
        events: &[Seen<Event>],
    ) -> view::View {
        Self::view(rules, st, players, seat, events)
    }

    /// Dropping out is resigning: the other side wins (games/stack-wars.md).
    fn drop_out(_: &Ruleset, st: &State, seat: Seat) -> Option<(State, Vec<Event>)> {
        if st.result.is_some() {
            return None;
        }
        let side = if Side::Black.seat() == seat {
            Side::Black
        } else {
            Side::White
        };
        let mut next = st.clone();
        let mut ev = vec![Event::Resigned { side }];
        next.end(
            Some(side.other()),
            format!("{side} dropped out after missing orders"),
            &mut ev,
        );
        Some((next, ev))
    }

    fn resign(_: &Ruleset, st: &State, seat: Seat) -> Option<(State, Vec<Event>)> {
        if st.result.is_some() {
            return None;
        }
        let side = if Side::Black.seat() == seat {
            Side::Black
        } else {
            Side::White
        };
        // As the `resign` order does, but at any time, not only on the
        // resigning side's own turn (games/stack-wars.md).
        let mut next = st.clone();
        let mut ev = vec![Event::Resigned { side }];
        next.end(Some(side.other()), format!("{side} resigned"), &mut ev);
        Some((next, ev))
    }

    fn agree_draw(_: &Ruleset, st: &State) -> Option<(State, Vec<Event>)> {
        if st.result.is_some() {
            return None;
        }
        let mut next = st.clone();
        let mut ev = Vec::new();
        next.end(None, crate::games::game::DRAWN_BY_AGREEMENT.into(), &mut ev);
        Some((next, ev))
    }

    fn outcome(_: &Ruleset, st: &State, players: &[String]) -> Option<Outcome> {
        let end = st.result.as_ref()?;
        let score = format!("{}–{}", st.score(Side::Black), st.score(Side::White));
        Some(match end.winner {
            Some(w) => Outcome {
                winners: vec![players[w.seat()].clone()],
                summary: format!(
                    "{} ({w}) won, points Black–White {score}: {}",
                    players[w.seat()],
                    end.how
                ),
            },
            None => Outcome {
                winners: Vec::new(),
                summary: format!("draw, points Black–White {score}: {}", end.how),
            },
        })
    }
}
