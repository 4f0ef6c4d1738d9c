//! War of the Dukes (La Guerre des Ducs, Jeux & Stratégie 1980): Orfburg
//! against Wulfenburg on a printed hex map, 15 turns, a Duke and thirty
//! units a side.
//!
//! `map` holds the map (CCRR labels, terrain, hexsides, places), `units`
//! the sides and pieces, `ruleset` the ruleset data, `state` the whole
//! truth, `movement` and `zoc` the movement rules, `combat` the fights,
//! `orders` the notation and the checks, `phase` the resolution of a phase
//! and the victory conditions, `setup` deployments and position files,
//! `view` and `ascii` what a player sees, `playout` the bot and random
//! orders. Rulings: `games/war-of-the-dukes.md`.

pub mod ascii;
pub mod bot;
pub mod combat;
pub mod compose;
pub mod events;
pub mod map;
pub mod movement;
pub mod orders;
pub mod phase;
pub mod playout;
pub mod refusal;
pub mod ruleset;
pub mod setup;
pub mod state;
pub mod svg;
pub mod units;
pub mod view;
pub mod zoc;

use crate::games::Outcome;
use crate::games::{Game, OptionSpec, Options, Problem, RulesError, Seat, Seen, Setup};
use crate::rng::ChaCha20Rng;
use events::Event;
use orders::Order;
use ruleset::Ruleset;
use state::{Phase, State};
use std::collections::BTreeMap;
use units::Side;

pub struct WarOfTheDukes;

/// Why a War of the Dukes game cannot start so, or a stored state is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A player count other than 2.
    Players(usize),
    /// An option given: the game takes none.
    NoOptions { name: String },
    /// A side without its Duke.
    NoDuke(Side),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Players(n) => write!(
                f,
                "War of the Dukes is for 2 players (Orfburg, then Wulfenburg), not {n}"
            ),
            SetupError::NoOptions { name } => write!(
                f,
                "War of the Dukes has no option `{name}` (it has no options)"
            ),
            SetupError::NoDuke(side) => write!(f, "{side} has no Duke"),
        }
    }
}

crate::games::rules_error::rules_detail!(SetupError, |self| match self {
    SetupError::Players(_) => K::Setup,
    SetupError::NoOptions { .. } => K::BadOption,
    SetupError::NoDuke(_) => K::State,
});

impl WarOfTheDukes {
    pub const RULESET_TEXT: &'static str = include_str!("../../../games/war-of-the-dukes.toml");
}

impl Game for WarOfTheDukes {
    const DROP_OUT: &'static str = "you lose the game";
    const NAME: &'static str = "war-of-the-dukes";
    const TITLE: &'static str = "War of the Dukes";
    const RULESET: &'static str = Self::RULESET_TEXT;
    const DEMO_PLAYERS: &'static [&'static str] = &["orfburg", "wulfenburg"];
    const SEATS: &'static [&'static str] = &["orfburg", "wulfenburg"];

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
        for side in Side::BOTH {
            if !state.units.iter().any(|u| u.side == side && u.id.is_duke()) {
                return Err(SetupError::NoDuke(side).into());
            }
        }
        Ok(state.validate(rules)?)
    }

    fn setup(
        rules: &Ruleset,
        players: &[String],
        options: &Options,
        position: Option<&str>,
        _rng: &mut ChaCha20Rng,
    ) -> Result<Setup<State>, RulesError> {
        if players.len() != 2 {
            return Err(SetupError::Players(players.len()).into());
        }
        if let Some(k) = options.keys().next() {
            return Err(SetupError::NoOptions { name: k.clone() }.into());
        }
        let state = match position {
            Some(text) => setup::from_position(rules, text)?,
            None => State::new(rules),
        };
        let mut notes = vec![format!(
            "{} plays Orfburg and moves first; {} plays Wulfenburg; {} turns",
            players[0], players[1], rules.turns
        )];
        if state.phase == Phase::Deployment {
            notes.push(
                "first both sides deploy, each in one order file; the two deployments are revealed together"
                    .to_string(),
            );
        } else {
            notes.push(format!(
                "started from a position: {}",
                view::phase_name(&state)
            ));
        }
        Ok(Setup { state, notes })
    }

    fn phase(_: &Ruleset, st: &State) -> String {
        match st.phase {
            Phase::Deployment => "deployment".into(),
            Phase::Play(s) => s.name().to_ascii_lowercase(),
            Phase::Over => "over".into(),
        }
    }

    fn awaiting(_: &Ruleset, st: &State) -> Vec<Seat> {
        match st.phase {
            Phase::Deployment => vec![0, 1],
            Phase::Play(s) => vec![s.seat()],
            Phase::Over => Vec::new(),
        }
    }

    fn parse_order(_: &Ruleset, st: &State, _: Seat, line: &str) -> Result<Order, RulesError> {
        orders::parse(st, line)
    }

    fn check(rules: &Ruleset, st: &State, seat: Seat, orders: &[Order]) -> Vec<Problem> {
        let side = Side::of_seat(seat);
        match st.phase {
            Phase::Deployment => orders::check_deployment(rules, st, side, orders),
            Phase::Play(s) if s == side => orders::plan(rules, st, side, orders).1,
            Phase::Play(s) => vec![Problem::whole(RulesError::NotYourGo {
                whose: s.to_string(),
                step: "phase",
            })],
            Phase::Over => vec![Problem::whole(RulesError::GameOver)],
        }
    }

    /// An attack builds on the moves of the units it attacks with.
    fn builds_on(_: &Ruleset, _: &State, orders: &[Order], k: usize) -> Vec<usize> {
        orders::builds_on(orders, k)
    }

    fn resolve(
        rules: &Ruleset,
        st: &State,
        orders: &BTreeMap<Seat, Vec<Order>>,
        dice: &mut crate::rng::Dice,
    ) -> (State, Vec<Event>) {
        let mut next = st.clone();
        let mut ev = Vec::new();
        let none = Vec::new();
        let of = |s: Side| orders.get(&s.seat()).unwrap_or(&none).as_slice();
        match st.phase {
            Phase::Deployment => phase::deploy(
                rules,
                &mut next,
                [of(Side::Orfburg), of(Side::Wulfenburg)],
                &mut ev,
            ),
            Phase::Play(side) => phase::play(rules, &mut next, side, of(side), dice, &mut ev),
            Phase::Over => {}
        }
        (next, ev)
    }

    /// Not every set (a phase's orders combine up to 31 moves and many
    /// attacks): the empty set (do nothing), then each single move to each
    /// hex a piece can reach, then each single attack with every unit in
    /// reach. During deployment: the default deployment.
    fn legal_orders(rules: &Ruleset, st: &State, seat: Seat) -> Vec<Vec<Order>> {
        let side = Side::of_seat(seat);
        match st.phase {
            Phase::Deployment => vec![setup::default_deployment(rules, st, side, None)],
            Phase::Play(s) if s == side => {
                let mut out = vec![Vec::new()];
                let board = st.board(rules);
                let ez = zoc::zoc(rules, st, &board, side.other());
                for (n, u) in st.on_map(side) {
                    for (i, _) in movement::destinations(rules, st, &board, &ez, n) {
                        out.push(vec![Order::Move {
                            unit: u.id,
                            path: vec![rules.map.label(i)],
                        }]);
                    }
                }
                for t in 0..rules.map.cells.len() as map::Ix {
                    if board.side_at(st, t) != Some(side.other()) {
                        continue;
                    }
                    let with: Vec<units::UnitId> = st
                        .on_map(side)
                        .filter(|(n, _)| combat::reach(rules, st, &board, *n, t).is_some())
                        .map(|(_, u)| u.id)
                        .collect();
                    if !with.is_empty() {
                        out.push(vec![Order::Attack {
                            target: rules.map.label(t),
                            with,
                            advance: None,
                        }]);
                    }
                }
                out
            }
            _ => Vec::new(),
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

    /// War of the Dukes hides nothing in a resolved state: the two deployments are revealed together by the phase that resolves them, and every unit on the map is public after it.
    fn omniscient_view(
        rules: &Ruleset,
        st: &State,
        players: &[String],
        seat: Seat,
        events: &[Seen<Event>],
    ) -> view::View {
        Self::view(rules, st, players, seat, events)
    }

    /// Missed orders: `hold` (the default: the side does nothing this
    /// phase; a missed deployment gets the bot's) or `bot`. See
    /// games/war-of-the-dukes.md.
    const NMR: &'static [crate::games::Nmr] = &[crate::games::Nmr::Hold, crate::games::Nmr::Bot];

    /// Dropping out loses (a total victory for the other side). Not during
    /// the deployment, which both sides miss or make together: the bot
    /// deploys, and the drop-out comes at the side's next missed phase.
    fn drop_out(_: &Ruleset, st: &State, seat: Seat) -> Option<(State, Vec<Event>)> {
        if !matches!(st.phase, Phase::Play(_)) {
            return None;
        }
        let mut next = st.clone();
        let mut ev = Vec::new();
        phase::drop_out(&mut next, Side::of_seat(seat), &mut ev);
        Some((next, ev))
    }

    fn resign(_: &Ruleset, st: &State, seat: Seat) -> Option<(State, Vec<Event>)> {
        if matches!(st.phase, Phase::Over) {
            return None;
        }
        let mut next = st.clone();
        let mut ev = Vec::new();
        phase::resign(&mut next, Side::of_seat(seat), &mut ev);
        Some((next, ev))
    }

    fn agree_draw(_: &Ruleset, st: &State) -> Option<(State, Vec<Event>)> {
        if matches!(st.phase, Phase::Over) {
            return None;
        }
        let mut next = st.clone();
        next.phase = Phase::Over;
        next.drawn = true;
        Some((next, Vec::new()))
    }

    fn outcome(_: &Ruleset, st: &State, players: &[String]) -> Option<Outcome> {
        if st.drawn {
            return Some(Outcome {
                winners: Vec::new(),
                summary: format!("draw: {}", crate::games::game::DRAWN_BY_AGREEMENT),
            });
        }
        let end = st.result.as_ref()?;
        let w = end.winner;
        Some(Outcome {
            winners: vec![players[w.seat()].clone()],
            summary: format!(
                "{} ({w}) won a {} victory: {}",
                players[w.seat()],
                end.victory,
                end.how
            ),
        })
    }
}
