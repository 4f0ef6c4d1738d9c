//! Drawing a board: the [`Draw`] capability.
//!
//! A board is drawn from one player's view alone, so what the player may
//! not see is absent from the drawing, whatever its form. Each game draws
//! in its own folder (`src/games/<game>/svg.rs`, with the text board beside
//! its view); the shared drawing helpers are `crate::board`.

use super::Game;
use crate::board::picture::Frame;

/// A game's boards, drawn from a [`Game::View`].
pub trait Draw: Game {
    /// The board as text, for the text report.
    fn ascii_board(ruleset: &Self::Ruleset, view: &Self::View) -> String;
    /// The board as an SVG picture, from the view alone: what the player may
    /// not see is absent from the file (drawing helpers: `crate::board::svg`
    /// and `crate::board::picture`). `Frame::Full` is the whole board with
    /// its legend; `Frame::Mail` the picture a report mail carries, sized
    /// for a phone, cropped to the part around the player's own pieces
    /// where the whole does not fit. The same view must give the same bytes.
    fn svg_board(ruleset: &Self::Ruleset, view: &Self::View, frame: Frame) -> String;
    /// The game's own count of where it stands, labelled as the game's
    /// ("game turn 3", "round 2", "game turn 2 of 15: Orfburg's phase"),
    /// said beside herald's turn (the order file's) in the board's caption
    /// and the page's heading; `None` where the game counts nothing but
    /// herald's turns.
    fn count(_ruleset: &Self::Ruleset, _view: &Self::View) -> Option<String> {
        None
    }
    /// Whether the view's player reads the board turned half round: the
    /// second of two players facing each other across it (HEXWAR's Black,
    /// Stack Wars' White), as at a table. The page turns it, with a switch.
    fn turned(_ruleset: &Self::Ruleset, _view: &Self::View) -> bool {
        false
    }
}
