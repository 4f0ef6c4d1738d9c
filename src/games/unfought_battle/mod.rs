//! The Unfought Battle (v3): two players, five forces each with concealed
//! powers 1–5, simultaneous orders, fog of war, a board that shrinks.
//!
//! `ruleset` holds the ruleset data, `board` the hexes and terrain, `state`
//! the whole truth, `setup` board generation and position files, `orders`
//! reading and checking orders, `adjudicate` the simultaneous resolution,
//! `combat` one fight, `upkeep` the end of a turn, `events` what is logged,
//! `view` what a player may see, `playout` random games and the bot.
//! Rulings: `games/unfought-battle.md`.

pub mod adjudicate;
pub mod board;
pub mod bot;
pub mod combat;
pub mod compose;
pub mod events;
pub mod orders;
pub mod playout;
pub mod ruleset;
pub mod setup;
pub mod state;
pub mod svg;
pub mod upkeep;
pub mod view;

use crate::games::Outcome;
use crate::games::{Game, OptionSpec, Options, Problem, RulesError, Seat, Seen, Setup};
use crate::rng::ChaCha20Rng;
use events::Event;
use orders::{Act, Order};
use ruleset::Ruleset;
use state::{Phase, State};
use std::collections::BTreeMap;

pub struct UnfoughtBattle;

/// Why an Unfought Battle cannot start with these players or options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A player count other than 2.
    Players(usize),
    /// An option given: the game takes none.
    NoOptions { name: String },
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Players(n) => {
                write!(f, "The Unfought Battle is for 2 players, not {n}")
            }
            SetupError::NoOptions { name } => {
                write!(f, "The Unfought Battle takes no options (`{name}`)")
            }
        }
    }
}

crate::games::rules_error::rules_detail!(SetupError, |self| match self {
    SetupError::Players(_) => K::Setup,
    SetupError::NoOptions { .. } => K::BadOption,
});

impl UnfoughtBattle {
    pub const RULESET_TEXT: &'static str = include_str!("../../../games/unfought-battle.toml");
}

impl Game for UnfoughtBattle {
    const DROP_OUT: &'static str = "you concede and the other side wins";
    const NAME: &'static str = "unfought-battle";
    const TITLE: &'static str = "The Unfought Battle";
    const RULESET: &'static str = Self::RULESET_TEXT;
    const DEMO_PLAYERS: &'static [&'static str] = &["north", "south"];
    const SEATS: &'static [&'static str] = &["north", "south"];

    type Ruleset = Ruleset;
    type State = State;
    type Order = Order;
    type Event = Event;
    type View = view::View;

    fn load_ruleset(text: &str) -> Result<Ruleset, RulesError> {
        Ruleset::parse(text)
    }

    fn options() -> Vec<OptionSpec> {
        Vec::new()
    }

    fn players(_: &Ruleset) -> (usize, usize) {
        (2, 2)
    }

    fn validate(rules: &Ruleset, state: &State) -> Result<(), RulesError> {
        Ok(state.validate(rules)?)
    }

    fn setup(
        rules: &Ruleset,
        players: &[String],
        options: &Options,
        position: Option<&str>,
        rng: &mut ChaCha20Rng,
    ) -> Result<Setup<State>, RulesError> {
        if players.len() != 2 {
            return Err(SetupError::Players(players.len()).into());
        }
        if let Some(k) = options.keys().next() {
            return Err(SetupError::NoOptions { name: k.clone() }.into());
        }
        let state = match position {
            Some(text) => setup::from_position(rules, text)?,
            None => setup::standard(rules, setup::generate(rules, rng)?),
        };
        let list = |v: &[crate::board::Hex]| {
            v.iter()
                .map(|h| board::label(*h))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let notes = vec![
            format!(
                "{0}×{0} rhombus; {1} starts in the corner 0,0, {2} in the corner {3},{3}",
                state.board.size,
                players[0],
                players[1],
                state.board.size - 1
            ),
            format!("Contentious hexes: {}", list(&state.board.contentious)),
            format!("Difficult hexes: {}", list(&state.board.difficult)),
        ];
        Ok(Setup { state, notes })
    }

    fn phase(_: &Ruleset, st: &State) -> String {
        match st.phase {
            Phase::Deploy => "deploy",
            Phase::Orders => "orders",
            Phase::Over => "over",
        }
        .to_string()
    }

    fn awaiting(_: &Ruleset, st: &State) -> Vec<Seat> {
        if st.is_over() {
            Vec::new()
        } else {
            vec![0, 1]
        }
    }

    fn parse_order(rules: &Ruleset, st: &State, _: Seat, line: &str) -> Result<Order, RulesError> {
        orders::parse(rules, st, line)
    }

    fn check(rules: &Ruleset, st: &State, seat: Seat, orders: &[Order]) -> Vec<Problem> {
        orders::check(rules, st, seat, orders)
    }

    fn resolve(
        rules: &Ruleset,
        st: &State,
        orders: &BTreeMap<Seat, Vec<Order>>,
        dice: &mut crate::rng::Dice,
    ) -> (State, Vec<Event>) {
        let mut ev = Vec::new();
        let next = playout::step(rules, st, orders, dice, &mut ev);
        (next, ev)
    }

    fn legal_orders(rules: &Ruleset, st: &State, seat: Seat) -> Vec<Vec<Order>> {
        match st.phase {
            Phase::Over => Vec::new(),
            Phase::Deploy => {
                // Every assignment of the powers: n! sets.
                let mut out = Vec::new();
                let mut powers = rules.forces.powers.clone();
                permutations(&mut powers, 0, &mut out);
                out.into_iter()
                    .map(|p| {
                        p.into_iter()
                            .enumerate()
                            .map(|(i, power)| Order::Deploy {
                                force: i as u8 + 1,
                                power,
                            })
                            .collect()
                    })
                    .collect()
            }
            Phase::Orders => {
                // Every combination is too many to list: all forces
                // holding, each single affordable order, and conceding.
                let side = &st.sides[seat];
                let mut out = vec![Vec::new()];
                for f in side.living() {
                    for act in orders::options(rules, st, seat, f.id) {
                        if act != Act::Hold && rules.cost(act.kind()) <= side.shih {
                            out.push(vec![Order::Act { force: f.id, act }]);
                        }
                    }
                }
                out.push(vec![Order::Concede]);
                out
            }
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

    /// The Unfought Battle hides the enemy out of sight, the powers not yet known and the enemy's own moves, spending and scouting: here every force shows with its power, and the other side's events are told too.
    fn omniscient_view(
        rules: &Ruleset,
        st: &State,
        players: &[String],
        seat: Seat,
        events: &[Seen<Event>],
    ) -> view::View {
        view::omniscient(rules, st, players, seat, events)
    }

    /// Missed orders: `hold` (the default: every force holds; a missed
    /// deployment gets the bot's), `repeat` (last turn's orders, where all
    /// still stand), `bot`. See games/unfought-battle.md.
    const NMR: &'static [crate::games::Nmr] = &[
        crate::games::Nmr::Hold,
        crate::games::Nmr::Repeat,
        crate::games::Nmr::Bot,
    ];

    /// Dropping out is conceding; both sides dropping out after the same
    /// turn is a draw, as both conceding is.
    fn drop_out(_: &Ruleset, st: &State, seat: Seat) -> Option<(State, Vec<Event>)> {
        let mut next = st.clone();
        let mut ev = vec![Event::Conceded { seat }];
        let how = "dropped out after missing orders";
        match &st.end {
            None => {
                next.sides[seat].conceded = true;
                upkeep::finish(
                    &mut next,
                    state::End {
                        winner: Some(1 - seat),
                        subject: Some(seat),
                        how: how.to_string(),
                    },
                    &mut ev,
                );
            }
            // The other side dropped out in this same upkeep.
            Some(e) if e.how == how && e.subject == Some(1 - seat) && !st.sides[seat].conceded => {
                next.sides[seat].conceded = true;
                upkeep::finish(
                    &mut next,
                    state::End {
                        winner: None,
                        subject: None,
                        how: "both sides dropped out after missing orders".to_string(),
                    },
                    &mut ev,
                );
            }
            Some(_) => return None,
        }
        Some((next, ev))
    }

    fn resign(_: &Ruleset, st: &State, seat: Seat) -> Option<(State, Vec<Event>)> {
        if st.end.is_some() {
            return None;
        }
        // As `concede` does, at any time, deployment included (the game's
        // own order waits for the battle; games/unfought-battle.md).
        let mut next = st.clone();
        let mut ev = vec![Event::Conceded { seat }];
        next.sides[seat].conceded = true;
        upkeep::finish(
            &mut next,
            state::End {
                winner: Some(1 - seat),
                subject: Some(seat),
                how: "conceded".to_string(),
            },
            &mut ev,
        );
        Some((next, ev))
    }

    fn agree_draw(_: &Ruleset, st: &State) -> Option<(State, Vec<Event>)> {
        if st.end.is_some() {
            return None;
        }
        let mut next = st.clone();
        let mut ev = Vec::new();
        upkeep::finish(
            &mut next,
            state::End {
                winner: None,
                subject: None,
                how: crate::games::game::DRAWN_BY_AGREEMENT.to_string(),
            },
            &mut ev,
        );
        Some((next, ev))
    }

    fn outcome(_: &Ruleset, st: &State, players: &[String]) -> Option<Outcome> {
        let end = st.end.as_ref()?;
        let what = match end.subject {
            Some(s) => format!("{} {}", players[s], end.how),
            None => end.how.clone(),
        };
        Some(match end.winner {
            Some(w) => Outcome {
                winners: vec![players[w].clone()],
                summary: format!("{} won on turn {}: {what}", players[w], st.turn),
            },
            None => Outcome {
                winners: Vec::new(),
                summary: format!("draw on turn {}: {what}", st.turn),
            },
        })
    }
}

fn permutations(v: &mut Vec<u8>, k: usize, out: &mut Vec<Vec<u8>>) {
    if k == v.len() {
        out.push(v.clone());
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permutations(v, k + 1, out);
        v.swap(k, i);
    }
}
