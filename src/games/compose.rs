//! What the order composer of the HTML report needs (issue 21): for each
//! piece the player may order now, the orders it can take, the board cells
//! each order points at, and how orders combine (one per piece, a budget,
//! an order that needs another before it, a list that is not complete
//! yet). herald computes it from the rules, per game, in
//! `src/games/<game>/compose.rs`; `templates/common/compose.js` reads it
//! and knows no game's rules: it maps clicks on the board's `data-hex`
//! cells to these orders and keeps the list legal by the keys below.
//!
//! The page refuses what this data says is illegal and says why; the whole
//! set is checked again by `herald check` when the order file comes back.
//! Every game computes it from what the player may know: nothing here may
//! depend on a piece or a fact the player's view hides.
//!
//! How orders combine, by keys (plain strings such as `unit:I3` or
//! `end:0712`; the part before the first `:` is the key's kind):
//!
//! - `uses`: no two orders may use one key, or no more than
//!   [`Orders::capacity`] of them where the key has a capacity (HEXWAR's
//!   two rotations). [`Orders::why`] says, per kind, why the page refuses a
//!   second one.
//! - `gives` and `needs`: an order that needs a key is accepted only after
//!   an order that gives it (a unit moves into the hex another one leaves;
//!   a piece turns on the hex it moved to). [`Orders::need_why`] says what
//!   is missing.
//! - `required`: keys some order must use before the list is complete (a
//!   move in Norse Wars, a power for every force); an order that stands
//!   `alone` (pass, resign) makes any list complete.
//! - `stage`: the file lists orders by stage, then in the order given
//!   (War of the Dukes: moves before attacks; HEXWAR: the template's order).
//! - `cost` and [`Orders::budget`]: the orders' total cost may not exceed it.
//! - `moves`: the piece stands on `to` for the orders after it (a later
//!   order for it is clicked there, and an attack counts it there).
//! - `wants` (a warning, not a refusal): an order that wants a key no
//!   other order gives will fail when the turn is resolved (The Unfought
//!   Battle: a move into the hex of a force of yours that stays bounces).
//!   An order's `gives` count only while that order does not fail itself,
//!   so a failure carries down a chain; a ring of orders wanting each
//!   other's keys all succeed. [`Orders::want_why`] says why, per kind.
//!
//! What an order will do, as far as the player can know, comes with it:
//! [`Choice::note`] (a push's strengths, an assault's odds) and, for
//! gathered attacks, [`Gather::odds`] with [`Orders::combat`]: numbers the
//! game's own combat code worked out, which the page only adds up and
//! looks up (it knows no rule). Notes and odds obey the same rule as the
//! rest: nothing hidden from the player goes into them.

use super::{Game, Seat};
use serde::Serialize;
use std::collections::BTreeMap;

/// What the HTML report's order composer offers a player: the
/// [`Compose`] capability.
pub trait Compose: Game {
    /// What the composer offers `seat` now (issue 21; [`Orders`] says how):
    /// every order each piece may take, the board cells (`data-hex`
    /// labels) it points at, and how orders combine. Computed only from
    /// what `seat` may know: nothing in it may depend on what the player's
    /// view hides. Asked only while `seat`'s orders are awaited. By
    /// default: the legal sets of one order, picked by their words.
    fn compose(ruleset: &Self::Ruleset, state: &Self::State, seat: Seat) -> Orders {
        let sets: Vec<Vec<String>> = Self::legal_orders(ruleset, state, seat)
            .iter()
            .map(|set| set.iter().map(|o| o.to_string()).collect())
            .collect();
        from_legal_sets(&sets)
    }

    /// The board cells (`data-hex` labels) the page opens on: where the
    /// player's own pieces stand in `view` (or, before they are on the
    /// board, where they will go). Taken from the view, so in every phase
    /// and after the game ends. By default none: the whole board.
    fn own_cells(ruleset: &Self::Ruleset, view: &Self::View) -> Vec<String> {
        let _ = (ruleset, view);
        Vec::new()
    }
}

/// Everything the composer needs for one player's orders now.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Orders {
    /// The things that take orders: pieces on the board (at a cell) and
    /// things off it (a reserve, a graveyard, units still to deploy).
    pub pieces: Vec<Piece>,
    pub choices: Vec<Choice>,
    /// Orders that gather several pieces against one target (War of the
    /// Dukes' attacks).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gathers: Vec<Gather>,
    /// Named lists of cells a [`Choice::over`] expands over.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub lists: BTreeMap<String, Vec<String>>,
    /// How many orders may use a key (1 where it is not listed).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub capacity: BTreeMap<String, u32>,
    /// Why two orders cannot share a key of this kind.
    pub why: BTreeMap<String, String>,
    /// What an order needing a key of this kind waits for.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub need_why: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required: Vec<Required>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    /// How to give this phase's orders by pointing, in a few lines.
    pub help: Vec<String>,
    /// What the page asks for while nothing is selected (by default: tap
    /// one of your pieces).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// Why an order whose `wants` no other order gives will fail, by kind.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub want_why: BTreeMap<String, String>,
    /// How the odds of a [`Gather`] are added up (War of the Dukes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combat: Option<Combat>,
}

/// Something that takes orders.
#[derive(Debug, Clone, Serialize)]
pub struct Piece {
    pub id: String,
    /// What the page calls it ("W3", "the Orc on d2", "reserve").
    pub label: String,
    /// The cell it stands on; `None`: off the board (listed beside it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// For [`Gather`]s: how far it reaches (1: neighbours, 2: also two
    /// hexes away); `None`: it never joins one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reach: Option<u32>,
    /// What the page asks for while it is selected (by default: tap a
    /// highlighted hex, or pick an order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
}

impl Piece {
    pub fn on(id: impl Into<String>, label: impl Into<String>, at: impl Into<String>) -> Piece {
        Piece {
            id: id.into(),
            label: label.into(),
            at: Some(at.into()),
            reach: None,
            prompt: None,
        }
    }
    pub fn off(id: impl Into<String>, label: impl Into<String>) -> Piece {
        Piece {
            id: id.into(),
            label: label.into(),
            at: None,
            reach: None,
            prompt: None,
        }
    }
    pub fn prompt(mut self, text: impl Into<String>) -> Piece {
        self.prompt = Some(text.into());
        self
    }
}

/// How an order is drawn on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// An arrow from the piece to `to`.
    Move,
    /// A red arrow: an attack, push or capture.
    Attack,
    /// A ring on `to`: something placed there.
    Place,
    /// A short wedge from the piece towards `to`: a turn to face it.
    Turn,
    /// A dotted line to `to`: a look at it.
    Scout,
    /// The order's words beside the piece.
    Tag,
}

/// One order (or, with `over`, one per cell of a list).
#[derive(Debug, Clone, Serialize)]
pub struct Choice {
    /// The piece it orders; `None`: an order for the whole turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    /// The order line; with `over`, `{c}` stands for the cell.
    pub text: String,
    /// The cell it points at (a destination, a target, a direction's hex).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// A list in [`Orders::lists`]: one order per cell, `to` being it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
    /// Where the piece is for this order, if not where it stands now (a
    /// piece turning on the hex it moved to).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    pub mark: Mark,
    #[serde(skip_serializing_if = "is_zero")]
    pub stage: u32,
    #[serde(skip_serializing_if = "is_zero")]
    pub cost: u32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub alone: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub moves: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gives: Vec<String>,
    /// Keys this order wants from other orders, or it will fail (a
    /// warning; see the module's notes).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wants: Vec<String>,
    /// What the order will do, as far as the player can know (a push's
    /// strengths and result).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Choice {
    /// An order for `piece` (or the whole turn), drawn as `mark`.
    pub fn new(piece: Option<&str>, text: impl Into<String>, mark: Mark) -> Choice {
        Choice {
            piece: piece.map(str::to_string),
            text: text.into(),
            to: None,
            over: None,
            from: None,
            mark,
            stage: 0,
            cost: 0,
            alone: false,
            moves: false,
            uses: Vec::new(),
            needs: Vec::new(),
            gives: Vec::new(),
            wants: Vec::new(),
            note: None,
        }
    }
    pub fn to(mut self, cell: impl Into<String>) -> Choice {
        self.to = Some(cell.into());
        self
    }
    pub fn over(mut self, list: impl Into<String>) -> Choice {
        self.over = Some(list.into());
        self
    }
    pub fn from(mut self, cell: impl Into<String>) -> Choice {
        self.from = Some(cell.into());
        self
    }
    pub fn stage(mut self, stage: u32) -> Choice {
        self.stage = stage;
        self
    }
    pub fn cost(mut self, cost: u32) -> Choice {
        self.cost = cost;
        self
    }
    pub fn alone(mut self) -> Choice {
        self.alone = true;
        self
    }
    pub fn moves(mut self) -> Choice {
        self.moves = true;
        self
    }
    pub fn uses(mut self, keys: &[&str]) -> Choice {
        self.uses.extend(keys.iter().map(|k| k.to_string()));
        self
    }
    pub fn needs(mut self, keys: &[&str]) -> Choice {
        self.needs.extend(keys.iter().map(|k| k.to_string()));
        self
    }
    pub fn gives(mut self, keys: &[&str]) -> Choice {
        self.gives.extend(keys.iter().map(|k| k.to_string()));
        self
    }
    pub fn wants(mut self, keys: &[&str]) -> Choice {
        self.wants.extend(keys.iter().map(|k| k.to_string()));
        self
    }
    pub fn note(mut self, text: impl Into<String>) -> Choice {
        self.note = Some(text.into());
        self
    }
}

/// An order that gathers pieces against a target: `<text> <ids…>` and,
/// where `advance` allows, ` advance <id>` naming one that joined from a
/// `close` cell. A piece joins from where it stands after the earlier
/// stages' moves: from a `close` cell, or from a `far` one if its
/// [`Piece::reach`] is 2 or more; it then uses `<member>:<id>`.
#[derive(Debug, Clone, Serialize)]
pub struct Gather {
    pub target: String,
    /// The order's words up to the pieces: `attack 0915 with`.
    pub text: String,
    pub close: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub far: Vec<String>,
    pub member: String,
    pub uses: Vec<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub advance: bool,
    #[serde(skip_serializing_if = "is_zero")]
    pub stage: u32,
    /// The target's side of the odds, for the page to set against the
    /// gathered pieces' strengths ([`Orders::combat`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub odds: Option<Odds>,
}

/// How the page adds up a gathered attack (War of the Dukes): each
/// member's strength, doubled by its leader's presence where [`Boost`]
/// says, summed; the sum's odds column against the target's defence
/// ([`Odds::columns`]); the result of each die face from the table.
/// Every number here comes from the game's combat code; the page adds and
/// looks up, nothing else.
#[derive(Debug, Clone, Serialize)]
pub struct Combat {
    /// The results table's columns, weakest first ("1-5" … "6-1").
    pub columns: Vec<String>,
    /// The results table: `table[row][column]`, one row per die roll as
    /// modified (1 to 6).
    pub table: Vec<Vec<String>>,
    /// What each result means ("AR": "the attackers in contact retreat").
    pub results: BTreeMap<String, String>,
    /// Each piece that may attack: its strength alone and within its
    /// leader's reach.
    pub strength: BTreeMap<String, [Strength; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boost: Option<Boost>,
    /// What may still change the odds before the attack is resolved.
    pub caveat: String,
}

/// A strength and how it is made ("5 ×2 Duke").
#[derive(Debug, Clone, Serialize)]
pub struct Strength {
    pub value: u32,
    pub how: String,
}

/// Where a leader (War of the Dukes' Duke) doubles a piece's strength: for
/// each cell the leader may stand on after the moves, the cells (among
/// those an attacker may stand on) within its reach.
#[derive(Debug, Clone, Serialize)]
pub struct Boost {
    pub leader: String,
    pub reach: BTreeMap<String, Vec<String>>,
}

/// The target's side of a gathered attack, as the position stands.
#[derive(Debug, Clone, Serialize)]
pub struct Odds {
    /// Each defender: its name ("I4") and strength.
    pub defenders: Vec<(String, Strength)>,
    pub defence: u32,
    /// `[least attack, column]`, ascending: an attack total reads the
    /// column of the last entry whose least it reaches.
    pub columns: Vec<[u32; 2]>,
    /// For each die face 1 to 6, the table row it reads (0-based; the
    /// terrain's modifier added).
    pub rows: Vec<u32>,
    /// The die modifier in words ("+2 forest"); empty when there is none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub modifier: String,
}

/// A key some order must use before the list is complete.
#[derive(Debug, Clone, Serialize)]
pub struct Required {
    pub key: String,
    pub why: String,
}

/// The orders' total cost may not exceed `total` (`unit`: what it is).
#[derive(Debug, Clone, Serialize)]
pub struct Budget {
    pub total: u32,
    pub unit: String,
}

/// The composer's data from the legal order sets alone, for a game that
/// describes nothing better: every legal set of one order, to pick by its
/// words (nothing is clicked on the board).
pub fn from_legal_sets(sets: &[Vec<String>]) -> Orders {
    let mut o = Orders::default();
    for set in sets {
        if let [one] = &set[..] {
            o.choices
                .push(Choice::new(None, one.clone(), Mark::Tag).alone());
        }
    }
    o.help
        .push("Pick one of the legal orders listed under the board.".into());
    o
}
