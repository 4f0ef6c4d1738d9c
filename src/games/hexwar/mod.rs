//! HEXWAR: Copper Pass — Orcs & Goblins against the Necromancers on a hex
//! board of radius 4, pieces with facing, turns of several actions.
//!
//! `ruleset` reads the catalogue (`games/hexwar.toml`) into tables, `piece`
//! packs a piece into a byte, `state` is the whole truth, `movegen` the
//! rules of movement, `play` orders, templates and turns, `view` what a
//! player sees, `playout` random games, perft and the demo bot. Rulings are
//! in `games/hexwar.md`.

pub mod bot;
pub mod compose;
pub mod movegen;
pub mod piece;
pub mod play;
pub mod playout;
pub mod refusal;
pub mod ruleset;
pub mod state;
pub mod svg;
pub mod view;

use crate::games::Outcome;
use crate::games::{Game, OptionSpec, Options, Problem, RulesError, Seat, Seen, Setup};
use crate::rng::ChaCha20Rng;
use play::{Event, Order, Plan};
use ruleset::{side_name, Geometry, Ruleset};
use state::State;
use std::collections::BTreeMap;
use std::sync::OnceLock;

pub struct Hexwar;

impl Hexwar {
    pub const RULESET_TEXT: &'static str = include_str!("../../../games/hexwar.toml");
}

/// The board's tables, shared (the board is always radius 4).
pub fn geometry() -> &'static Geometry {
    static GEO: OnceLock<Geometry> = OnceLock::new();
    GEO.get_or_init(Geometry::new)
}

/// An option naming a template or setup the ruleset does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoSuch {
    /// `template` or `setup`.
    pub option: &'static str,
    pub value: String,
    /// The names the ruleset has.
    pub names: Vec<String>,
}

impl std::fmt::Display for NoSuch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "option {}={}: the ruleset's {}s are {}",
            self.option,
            self.value,
            self.option,
            self.names.join(", ")
        )
    }
}

crate::games::rules_error::rules_detail!(NoSuch, |self| K::BadOption, legal: |self| &self.names);

/// The options a game is started with: template and setup indices.
pub fn parse_options(rules: &Ruleset, options: &Options) -> Result<(u8, usize), NoSuch> {
    let template = match options.get("template") {
        None => rules.default_template,
        Some(v) => rules.template(v).ok_or_else(|| NoSuch {
            option: "template",
            value: v.clone(),
            names: rules.templates.iter().map(|t| t.name.clone()).collect(),
        })?,
    };
    let setup = match options.get("setup") {
        None => rules.default_setup,
        Some(v) => rules
            .scenarios
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(v))
            .ok_or_else(|| NoSuch {
                option: "setup",
                value: v.clone(),
                names: rules.scenarios.iter().map(|s| s.name.clone()).collect(),
            })?,
    };
    Ok((template as u8, setup))
}

/// A new game from the rules and options (no position file).
pub fn new_game(rules: &Ruleset, options: &Options) -> Result<State, RulesError> {
    let (template, setup) = parse_options(rules, options)?;
    Ok(State::scenario(rules, setup, template))
}

impl Game for Hexwar {
    const DROP_OUT: &'static str = "you surrender and the other side wins";
    const NAME: &'static str = "hexwar";
    const TITLE: &'static str = "HEXWAR: Copper Pass";
    const RULESET: &'static str = Self::RULESET_TEXT;
    const DEMO_PLAYERS: &'static [&'static str] = &["white", "black"];
    const SEATS: &'static [&'static str] = &["white", "black"];

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
                name: "template",
                default: "E",
                help: "the turn template: E (move, rotate, rotate) or single (move or rotate), or another of the ruleset's",
            },
            OptionSpec {
                name: "setup",
                default: "copper-pass",
                help: "the start position: a [[setup]] of the ruleset",
            },
        ]
    }

    fn players(_: &Ruleset) -> (usize, usize) {
        (2, 2)
    }

    fn check_options(rules: &Ruleset, _players: usize, options: &Options) -> Vec<RulesError> {
        parse_options(rules, options)
            .err()
            .into_iter()
            .map(RulesError::from)
            .collect()
    }

    fn setup(
        rules: &Ruleset,
        players: &[String],
        options: &Options,
        position: Option<&str>,
        _rng: &mut ChaCha20Rng,
    ) -> Result<Setup<State>, RulesError> {
        let (template, setup) = parse_options(rules, options)?;
        let state = match position {
            Some(text) => state::from_position(rules, text, template)?,
            None => State::scenario(rules, setup, template),
        };
        let t = &rules.templates[template as usize];
        let mut notes = vec![
            format!(
                "{} plays White ({}) and moves first; {} plays Black ({})",
                players[0],
                rules.army(0).name,
                players[1],
                rules.army(1).name
            ),
            format!("turn template {}: {}", t.name, t.describe()),
        ];
        if position.is_none() {
            notes.push(format!("setup: {}", rules.scenarios[setup].title));
        }
        Ok(Setup { state, notes })
    }

    fn phase(_: &Ruleset, st: &State) -> String {
        if st.is_over() {
            "over".into()
        } else {
            "move".into()
        }
    }

    fn awaiting(_: &Ruleset, st: &State) -> Vec<Seat> {
        if st.is_over() {
            Vec::new()
        } else {
            vec![st.side as Seat]
        }
    }

    fn parse_order(
        rules: &Ruleset,
        st: &State,
        _seat: Seat,
        line: &str,
    ) -> Result<Order, RulesError> {
        play::parse(rules, st, line)
    }

    fn check(rules: &Ruleset, st: &State, seat: Seat, orders: &[Order]) -> Vec<Problem> {
        if st.is_over() {
            return vec![Problem::whole(RulesError::GameOver)];
        }
        if st.side as Seat != seat {
            return vec![Problem::whole(RulesError::NotYourGo {
                whose: side_name(st.side).to_string(),
                step: "turn",
            })];
        }
        match play::plan(rules, st, orders) {
            Ok(_) => Vec::new(),
            Err(p) => p,
        }
    }

    /// A rotation or move of a piece builds on the move or rebirth that
    /// brought it there this turn.
    fn builds_on(_: &Ruleset, _: &State, orders: &[Order], k: usize) -> Vec<usize> {
        play::builds_on(orders, k)
    }

    fn resolve(
        rules: &Ruleset,
        st: &State,
        orders: &BTreeMap<Seat, Vec<Order>>,
        _dice: &mut crate::rng::Dice,
    ) -> (State, Vec<Event>) {
        let mut next = st.clone();
        let mut ev = Vec::new();
        if next.is_over() {
            return (next, ev);
        }
        let mine = orders
            .get(&(st.side as Seat))
            .map(|v| v.as_slice())
            .unwrap_or(&[]);
        // Checked orders always plan; anything else is a pass.
        let plan = play::plan(rules, st, mine).unwrap_or(Plan::Pass);
        next.play_turn(rules, &plan, &mut ev);
        (next, ev)
    }

    /// Every legal turn of one action, and the pass. Under a template of
    /// several actions these are legal whole turns too, but not all of them:
    /// the combinations (about a hundred thousand under template E) are left
    /// out, as they would only swamp the order forms.
    fn legal_orders(rules: &Ruleset, st: &State, seat: Seat) -> Vec<Vec<Order>> {
        if st.is_over() || st.side as Seat != seat {
            return Vec::new();
        }
        let t = &rules.templates[st.template as usize];
        let mut out = Vec::new();
        let mut v = Vec::new();
        if t.slots.iter().any(|s| s.takes_move()) {
            st.moves(rules, &mut v);
            out.extend(v.iter().map(|a| vec![play::order_of(rules, st, *a)]));
        }
        if t.slots.iter().any(|s| s.takes_rotate()) {
            st.rotations(&mut v);
            out.extend(v.iter().map(|a| vec![play::order_of(rules, st, *a)]));
        }
        out.push(vec![Order::Pass]);
        out
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

    /// HEXWAR hides nothing: every piece and event is public.
    fn omniscient_view(
        rules: &Ruleset,
        st: &State,
        players: &[String],
        seat: Seat,
        events: &[Seen<Event>],
    ) -> view::View {
        Self::view(rules, st, players, seat, events)
    }

    /// A missed turn passes under `hold` (HEXWAR has `pass`); the default.
    const NMR: &'static [crate::games::Nmr] = &[crate::games::Nmr::Hold, crate::games::Nmr::Bot];

    fn hold_orders(_: &Ruleset, st: &State, seat: Seat) -> Option<Vec<Order>> {
        (!st.is_over() && st.side as Seat == seat).then(|| vec![Order::Pass])
    }

    /// Dropping out is surrendering (games/hexwar.md).
    fn drop_out(_: &Ruleset, st: &State, seat: Seat) -> Option<(State, Vec<Event>)> {
        if st.is_over() {
            return None;
        }
        let mut next = st.clone();
        let side = seat as u8;
        next.finish = Some(state::Finish {
            winner: side ^ 1,
            how: state::How::Surrender,
        });
        let ev = vec![
            Event::Surrendered { side },
            Event::Ended {
                winner: side ^ 1,
                how: state::How::Surrender,
                distances: None,
                pieces: None,
            },
        ];
        Some((next, ev))
    }

    fn agree_draw(_: &Ruleset, st: &State) -> Option<(State, Vec<Event>)> {
        if st.is_over() {
            return None;
        }
        let mut next = st.clone();
        next.drawn = true;
        Some((next, Vec::new()))
    }

    fn outcome(rules: &Ruleset, st: &State, players: &[String]) -> Option<Outcome> {
        if st.drawn {
            return Some(Outcome {
                winners: Vec::new(),
                summary: format!("draw: {}", crate::games::game::DRAWN_BY_AGREEMENT),
            });
        }
        let f = st.finish?;
        Some(Outcome {
            winners: vec![players[f.winner as usize].clone()],
            summary: format!(
                "{} ({}, {}) won: {}",
                players[f.winner as usize],
                side_name(f.winner),
                rules.army(f.winner).name,
                play::reason(f.how, None, None)
            ),
        })
    }
}
