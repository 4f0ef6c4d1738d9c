//! The order composer's page data (issue 21): what the HTML report embeds
//! for `templates/common/compose.js` to build an order file by pointing.
//!
//! It is made of plain data, so whoever renders the page (today
//! `report::html`) passes: the game's name, title and id, the player, the
//! turn, the moderator's address, whether orders are due, the player's view
//! (as in `view.json`) and the game's order descriptions
//! (`games::compose::Orders`, only while orders are due) and the cells of
//! the player's own pieces (where the page opens). Nothing else goes in: no
//! password, no seed, nothing of another player's.

use serde::Serialize;
use serde_json::Value;

/// The composer's script, plain JavaScript embedded in every HTML report.
pub const SCRIPT: &str = include_str!("../../templates/common/compose.js");

/// What a page is built from.
#[derive(Debug, Clone, Serialize)]
pub struct Page<'a> {
    /// The game's name in the registry (`norse-wars`).
    pub game: &'a str,
    pub title: &'a str,
    /// The game's id: the order file's `game`.
    pub id: &'a str,
    pub player: &'a str,
    pub turn: u32,
    pub phase: &'a str,
    /// The moderator's mail address, where the game file has one.
    pub moderator: Option<&'a str>,
    /// The mail subject the host expects: `[<game id>] orders for turn <N>`.
    pub subject: String,
    /// Whether this player's orders are awaited now.
    pub due: bool,
    /// The player's view, as in the report's `view.json`.
    pub view: &'a Value,
    /// The orders the player may give (`games::compose::Orders`), while due.
    pub orders: Option<Value>,
    /// The board cells where the player's own pieces stand
    /// (`Compose::own_cells`): the page opens showing them.
    pub mine: Vec<String>,
    /// The game's own count beside `turn`, labelled as the game's ("game
    /// turn 3 of 15: Orfburg's phase"; `Draw::count`): the heading says
    /// both.
    pub count: Option<String>,
    /// Whether the page shows the board turned half round, from the
    /// player's side (`Draw::turned`); a switch turns it back.
    pub turned: bool,
    /// Where the board drawn as text stands in the text report: its first
    /// line (from 0) and how many lines. The page folds it into a box of
    /// its own (the picture above shows the board), so that the report's
    /// words wrap to a phone's screen.
    pub board_lines: Option<[usize; 2]>,
}

/// Where `board` stands in `text`, as [`Page::board_lines`] has it.
pub fn board_lines(text: &str, board: &str) -> Option<[usize; 2]> {
    let board = board.trim_end_matches('\n');
    if board.is_empty() {
        return None;
    }
    let at = text.find(board)?;
    let first = text[..at].matches('\n').count();
    Some([first, board.lines().count()])
}

/// The subject of an order mail: the host routes it by the `[<id>]` tag.
pub fn subject(id: &str, turn: u32) -> String {
    format!("[{id}] orders for turn {turn}")
}

/// The page data as JSON that is safe inside a `<script>` element: no
/// `</` (it would end the element) and no `<!--`.
pub fn data_json(page: &Page) -> String {
    let s = serde_json::to_string(page).expect("page data serialises");
    s.replace("</", "<\\/").replace("<!--", "<\\u0021--")
}
