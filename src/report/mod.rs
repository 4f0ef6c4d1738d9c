//! Reports: one per player per turn, rendered from that player's view only,
//! through the game's minijinja templates (`templates/<game>/`). This
//! module takes plain data — a [`Header`] the pipeline builds from the
//! game file, the view, the board — and knows nothing of game files.

pub mod compose;

use crate::error::{Error, Result};
use minijinja::{context, Environment};
use serde::Serialize;
use serde_json::Value;
use std::sync::OnceLock;

/// The templates, embedded at build time.
pub const TEMPLATES: &[(&str, &str)] = &[
    (
        "common/header.txt.j2",
        include_str!("../../templates/common/header.txt.j2"),
    ),
    (
        "common/report.html.j2",
        include_str!("../../templates/common/report.html.j2"),
    ),
    (
        "common/order_form.txt.j2",
        include_str!("../../templates/common/order_form.txt.j2"),
    ),
    (
        "norse-wars/report.txt.j2",
        include_str!("../../templates/norse-wars/report.txt.j2"),
    ),
    (
        "hexwar/report.txt.j2",
        include_str!("../../templates/hexwar/report.txt.j2"),
    ),
    (
        "stack-wars/report.txt.j2",
        include_str!("../../templates/stack-wars/report.txt.j2"),
    ),
    (
        "unfought-battle/report.txt.j2",
        include_str!("../../templates/unfought-battle/report.txt.j2"),
    ),
    (
        "war-of-the-dukes/report.txt.j2",
        include_str!("../../templates/war-of-the-dukes/report.txt.j2"),
    ),
];

pub fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.set_keep_trailing_newline(true);
        env.add_filter("wrap", wrap_filter);
        // Compiled on first use: a command renders one game's templates.
        env.set_loader(|name| {
            Ok(TEMPLATES
                .iter()
                .find(|t| t.0 == name)
                .map(|t| t.1.to_string()))
        });
        env
    })
}

/// `{{ list | wrap(prefix, width) }}`: join words into lines of at most
/// `width` characters, each starting with `prefix`.
fn wrap_filter(items: Vec<String>, prefix: String, width: usize) -> String {
    let mut out = String::new();
    let mut line = prefix.clone();
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        if line.len() > prefix.len() && line.len() + 1 + piece.len() > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = prefix.clone();
        }
        if line.len() > prefix.len() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    out.push_str(line.trim_end());
    out
}

/// What every report's header shows about the game, from the game file.
#[derive(Debug, Clone, Serialize)]
pub struct Header {
    pub id: String,
    pub title: String,
    /// The game's registry name: its templates' folder.
    pub name: String,
    pub ruleset_sha256: String,
    pub turn: u32,
    pub phase: String,
    pub awaiting: Vec<String>,
    pub deadline: Option<String>,
    pub over: bool,
    pub outcome: Option<String>,
    pub seed_commitment: String,
    /// Revealed only once the game is over.
    pub seed: Option<String>,
    pub players: Vec<String>,
    /// Missed orders per player (every report shows them).
    pub missed: Vec<crate::chain::Missed>,
    /// Who sent nothing, was late or dropped out in the last phase.
    pub last: Option<LastPhase>,
    /// The dice of the last phase this player may see.
    pub rolls: Vec<crate::chain::Roll>,
    /// The missed-order policy and the drop-out limit (0: never).
    pub nmr: String,
    pub drop_after: u32,
    /// The moderator's public key and the chain head the report is made on.
    pub key: String,
    pub chain_head: String,
    /// The moderator's address, if the game has one.
    pub moderator: Option<String>,
}

/// What the last resolved phase had to say about orders: who sent none
/// (and what stood in), who was late, who dropped out.
#[derive(Debug, Clone, Serialize, Default)]
pub struct LastPhase {
    pub turn: u32,
    /// `(player, policy)` for each stand-in.
    pub missing: Vec<(String, String)>,
    /// Players whose mail was sent after the deadline (and still used).
    pub late: Vec<String>,
    pub dropped: Vec<String>,
}

/// The text report (without its witness block, which the pipeline signs
/// and appends).
pub fn text(header: &Header, you: &str, view: &Value, board: &str) -> Result<String> {
    let name = format!("{}/report.txt.j2", header.name);
    let tmpl = env()
        .get_template(&name)
        .map_err(|e| Error::refused(format!("no report template {name}: {e}")))?;
    tmpl.render(context! { game => header, you => you, view => view, board => board })
        .map_err(|e| Error::refused(format!("rendering {name}: {e:#}")))
}

/// Everything one player's report is made of: the text, view.json, the
/// board as SVG and the HTML page. (The PNG is drawn on demand.)
pub struct Rendered {
    pub text: String,
    pub json: String,
    pub svg: String,
    pub html: String,
}

/// The report as one self-contained HTML page: the board inline with the
/// order composer (issue 21: `compose`; `page` holds its data), the text
/// report, and the blank order form to fill in by hand.
pub fn html(
    header: &Header,
    text: &str,
    svg: &str,
    form: &str,
    page: &compose::Page,
) -> Result<String> {
    let name = "common/report.html.j2";
    let tmpl = env()
        .get_template(name)
        .map_err(|e| Error::refused(format!("no report template {name}: {e}")))?;
    let data = compose::data_json(page);
    tmpl.render(context! {
        game => header,
        you => page.player,
        text => text,
        svg => svg,
        form => form,
        data => data,
        script => compose::SCRIPT,
        moderator => page.moderator,
    })
    .map_err(|e| Error::refused(format!("rendering {name}: {e:#}")))
}

/// The machine-readable report: the header and the player's view.
pub fn json(header: &Header, you: &str, view: Value) -> String {
    #[derive(Serialize)]
    struct Report<'a> {
        herald: &'a str,
        game: &'a Header,
        player: &'a str,
        view: Value,
    }
    let r = Report {
        herald: env!("CARGO_PKG_VERSION"),
        game: header,
        player: you,
        view,
    };
    let mut s = serde_json::to_string_pretty(&r).expect("report serialises");
    s.push('\n');
    s
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).expect("strings serialise")
}

/// A filled order file, as a bot or a client writes one.
pub fn order_file(
    game: &str,
    player: &str,
    turn: u32,
    password: &str,
    orders: &[String],
) -> String {
    let mut s = format!(
        "game = {}\nplayer = {}\nturn = {}\npassword = {}\norders = [\n",
        quote(game),
        quote(player),
        turn,
        quote(password)
    );
    for o in orders {
        s.push_str(&format!("  {},\n", quote(o)));
    }
    s.push_str("]\n");
    s
}

/// A blank order form for the current phase (`herald orders`): `legal`
/// lists the legal order sets, for the comment above the form. The form
/// needs nothing of the player's view.
pub fn blank_form(header: &Header, you: &str, legal: &[String]) -> Result<String> {
    let tmpl = env()
        .get_template("common/order_form.txt.j2")
        .map_err(|e| Error::refused(e.to_string()))?;
    tmpl.render(context! { game => header, you => you, legal => legal })
        .map_err(|e| Error::refused(format!("rendering the order form: {e:#}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_lists() {
        let items: Vec<String> = (0..30).map(|i| format!("W{i} NE 2")).collect();
        let w = wrap_filter(items, "# ".into(), 40);
        assert!(
            w.lines().all(|l| l.len() <= 40 && l.starts_with("# ")),
            "{w}"
        );
        assert!(w.contains("W29 NE 2"));
    }
}
