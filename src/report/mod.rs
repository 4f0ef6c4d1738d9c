//! Reports: one per player per turn, rendered from that player's view only,
//! through the game's minijinja templates (`templates/<game>/`).

pub mod compose;

use crate::engine::Loaded;
use crate::error::{Error, Result};
use crate::games::Seat;
use minijinja::{context, Environment};
use serde::Serialize;
use serde_json::Value;
use std::sync::OnceLock;

/// The templates, embedded at build time.
const TEMPLATES: &[(&str, &str)] = &[
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

fn env() -> &'static Environment<'static> {
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
#[derive(Serialize)]
struct GameHeader<'a> {
    id: &'a str,
    title: &'a str,
    name: &'a str,
    ruleset_sha256: &'a str,
    turn: u32,
    phase: &'a str,
    awaiting: &'a [String],
    deadline: Option<&'a str>,
    over: bool,
    outcome: Option<&'a str>,
    seed_commitment: &'a str,
    /// Revealed only once the game is over.
    seed: Option<&'a str>,
    players: Vec<&'a str>,
    /// Missed orders per player (every report shows them).
    missed: Vec<crate::nmr::Missed>,
    /// Who sent nothing, was late or dropped out in the last phase.
    last: Option<crate::nmr::LastPhase>,
    /// The missed-order policy and the drop-out limit (0: never).
    nmr: &'static str,
    drop_after: u32,
}

fn header(g: &Loaded) -> GameHeader<'_> {
    let f = &g.file;
    let over = f.outcome.is_some();
    GameHeader {
        id: &f.id,
        title: g.entry.title,
        name: g.entry.name,
        ruleset_sha256: &f.ruleset.sha256,
        turn: f.turn,
        phase: &f.phase,
        awaiting: &f.awaiting,
        deadline: f.deadline.as_deref(),
        over,
        outcome: f.outcome.as_ref().map(|o| o.summary.as_str()),
        seed_commitment: &f.seed_commitment,
        seed: if over { f.seed.as_deref() } else { None },
        players: f.players.iter().map(|p| p.id.as_str()).collect(),
        missed: crate::nmr::missed(f),
        last: crate::nmr::last_phase(f),
        nmr: crate::nmr::policy(f, g.entry).name(),
        drop_after: f.drop_after.unwrap_or(0),
    }
}

/// The text report.
pub fn text(g: &Loaded, seat: Seat, view: &Value, board: &str) -> Result<String> {
    let name = format!("{}/report.txt.j2", g.entry.name);
    let tmpl = env()
        .get_template(&name)
        .map_err(|e| Error::refused(format!("no report template {name}: {e}")))?;
    let you = &g.file.players[seat].id;
    tmpl.render(context! { game => header(g), you => you, view => view, board => board })
        .map_err(|e| Error::refused(format!("rendering {name}: {e:#}")))
}

/// Everything one player's report is made of: the text, view.json, and
/// the board as SVG and as PNG.
pub struct Rendered {
    pub text: String,
    pub json: String,
    pub svg: String,
    pub png: Vec<u8>,
}

/// The report as one self-contained HTML page: the board inline with the
/// order composer (issue 21: `compose`), the text report, and the blank
/// order form to fill in by hand. `view` is the player's view, as in
/// `view.json`.
pub fn html(g: &Loaded, seat: Seat, text: &str, svg: &str, view: &Value) -> Result<String> {
    let form = blank_form(g, seat)?;
    let name = "common/report.html.j2";
    let tmpl = env()
        .get_template(name)
        .map_err(|e| Error::refused(format!("no report template {name}: {e}")))?;
    let you = &g.file.players[seat].id;
    let f = &g.file;
    let due = f.outcome.is_none() && f.awaiting.iter().any(|a| a == you);
    let page = compose::Page {
        game: g.entry.name,
        title: g.entry.title,
        id: &f.id,
        player: you,
        turn: f.turn,
        phase: &f.phase,
        moderator: f.moderator.as_deref(),
        subject: compose::subject(&f.id, f.turn),
        due,
        view,
        orders: due.then(|| g.session.compose(&g.state, seat)),
    };
    let data = compose::data_json(&page);
    tmpl.render(context! {
        game => header(g),
        you => you,
        text => text,
        svg => svg,
        form => form,
        data => data,
        script => compose::SCRIPT,
        moderator => f.moderator.as_deref(),
    })
    .map_err(|e| Error::refused(format!("rendering {name}: {e:#}")))
}

/// The machine-readable report: the header and the player's view.
pub fn json(g: &Loaded, seat: Seat, view: Value) -> String {
    #[derive(Serialize)]
    struct Report<'a> {
        herald: &'a str,
        game: GameHeader<'a>,
        player: &'a str,
        view: Value,
    }
    let r = Report {
        herald: env!("CARGO_PKG_VERSION"),
        game: header(g),
        player: &g.file.players[seat].id,
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

/// A blank order form for the current phase (`herald orders`).
pub fn blank_form(g: &Loaded, seat: Seat) -> Result<String> {
    let (view, _) = g
        .session
        .view(&g.state, &g.players(), seat, &[])
        .map_err(Error::refused)?;
    let tmpl = env()
        .get_template("common/order_form.txt.j2")
        .map_err(|e| Error::refused(e.to_string()))?;
    let legal: Vec<String> = g
        .session
        .legal_orders(&g.state, seat)
        .into_iter()
        .map(|set| set.join("; "))
        .collect();
    tmpl.render(context! { game => header(g), you => &g.file.players[seat].id, view => view, legal => legal })
        .map_err(|e| Error::refused(format!("rendering the order form: {e:#}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_compiles() {
        for (name, _) in TEMPLATES {
            env()
                .get_template(name)
                .unwrap_or_else(|e| panic!("{name}: {e:#}"));
        }
    }

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

    #[test]
    fn order_files_round_trip() {
        let t = order_file("g", "red", 3, "pw", &["W1 N".into(), "say \"hi\"".into()]);
        let f = crate::orders::OrderFile::parse("x", &t).unwrap();
        assert_eq!(f.orders[1].text, "say \"hi\"");
        assert_eq!(f.turn, 3);
    }
}
