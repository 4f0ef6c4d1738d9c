//! Reports: one per player per turn, rendered from that player's view only,
//! through the game's minijinja templates (`templates/<game>/`). This
//! module takes plain data — a [`Header`] the pipeline builds from the
//! game file, the view, the board — and knows nothing of game files.

pub mod compose;
pub mod pack;

use crate::error::{Error, Result};
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
        "common/press.html.j2",
        include_str!("../../templates/common/press.html.j2"),
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
        env.add_filter("shown", |t: String| crate::time::shown(&t));
        env.add_filter("listing", |items: Vec<String>| {
            listing(&items, LISTING_WIDTH)
        });
        env.add_filter("wrapped", |text: String| wrap(&text, 68));
        env.add_filter("alternatives", |lines: Vec<String>| {
            alternatives(&lines).unwrap_or_default()
        });
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

/// The widest line of an order form's "# Legal now:" list, its `#   `
/// included: mail programs wrap plain text at 72 to 78 characters.
pub const LISTING_WIDTH: usize = 72;

/// Legal orders as the order form lists them, one line each: an order to
/// copy as it stands, or orders that differ only in their last word
/// (their target) on one line, `D 1910 | 1911 | 1912`, each alternative
/// read as the first order with its last word replaced. A line that would
/// pass `width` (with the form's `#   `) ends `| … (N more)`.
pub fn listing(items: &[String], width: usize) -> Vec<String> {
    fn split(o: &str) -> Option<(&str, &str)> {
        let o = o.trim();
        o.rsplit_once(' ')
            .filter(|(p, l)| !p.is_empty() && !l.is_empty())
    }
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let Some((prefix, first)) = split(&items[i]) else {
            out.push(items[i].trim().to_string());
            i += 1;
            continue;
        };
        let mut j = i + 1;
        while j < items.len() && split(&items[j]).is_some_and(|(p, _)| p == prefix) {
            j += 1;
        }
        let group = &items[i..j];
        let chars = |s: &str| s.chars().count();
        let mut line = format!("{prefix} {first}");
        for (k, o) in group.iter().enumerate().skip(1) {
            let last = split(o).map_or("", |(_, l)| l);
            // This alternative and those after it; room is kept for the
            // mark that says how many are left out.
            let rest = group.len() - k;
            let mark = |n: usize| format!(" | … ({n} more)");
            let after = if rest > 1 { chars(&mark(rest - 1)) } else { 0 };
            if 4 + chars(&line) + 3 + chars(last) + after > width {
                line.push_str(&mark(rest));
                break;
            }
            line.push_str(" | ");
            line.push_str(last);
        }
        out.push(line);
        i = j;
    }
    out
}

/// The time zone a kept text report shows its deadline in (the header's
/// `Deadline: … (Fri 4 Dec 19:00 Europe/Berlin (UTC+01:00))`), for
/// `verify --witness` to make the report again as it was sent.
pub fn zone_in(text: &str) -> Option<String> {
    text.lines()
        .filter(|l| l.starts_with("Turn ") && l.contains("Deadline: "))
        .find_map(|l| {
            let before = &l[..l.find(" (UTC")?];
            let name = before.rsplit(' ').next()?;
            crate::time::zone(name).ok().map(|tz| tz.name().to_string())
        })
}

/// `text` in lines of at most `width` characters, broken at spaces.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

/// How a line of [`listing`] with alternatives reads, told with the
/// form's own first such line: "`move a1 a2 | a3` means `move a1 a2` or
/// `move a1 a3`". `None` where no line has alternatives.
pub fn alternatives(lines: &[String]) -> Option<String> {
    let line = lines
        .iter()
        .find(|l| l.contains(" | ") && !l.contains(" | …"))?;
    let mut parts = line.split(" | ");
    let first = parts.next()?;
    let second = parts.next()?.split(" (").next()?.trim();
    let (prefix, _) = first.rsplit_once(' ')?;
    Some(format!(
        "`{first} | {second}` means `{first}` or `{prefix} {second}`"
    ))
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
    /// The resignations and draw offers since the last phase, in words
    /// (`pipeline::ending`); absent from view.json when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub since: Vec<String>,
    /// The missed-order policy and the drop-out limit (0: never).
    pub nmr: String,
    pub drop_after: u32,
    /// The deadline on the clock of the player's own time zone, where
    /// they gave one ([`crate::time::shown_in`]).
    pub deadline_local: Option<String>,
    /// That time zone's IANA name (kept in view.json, so that a report
    /// kept as JSON is made again in its zone by `verify --witness`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// How long after this report was made (the time of the entry it is
    /// made on) the deadline comes: "2d 23h"; `None` without a deadline.
    pub left: Option<String>,
    /// What happens to this player if no orders come by the deadline, in
    /// words: the game's missed-order policy and the drop-out limit.
    pub if_missed: String,
    /// The moderator's public key and the chain head the report is made on.
    pub key: String,
    pub chain_head: String,
    /// The moderator's address, if the game has one.
    pub moderator: Option<String>,
    /// The game's press rules in words, where its genesis allows press.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub press: Option<String>,
    /// The bot seats, (player, the bot's spec), in seat order; empty (and
    /// not in view.json) where every seat is a person's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<(String, String)>,
    /// Each player as others read them, `red (Ann)`, by id: only the
    /// players whose display name is not their id, and only in a game
    /// begun at format 8 or later (`chain::NAMES_FORMAT`: an older game's
    /// reports keep the layout they were signed in). Absent from
    /// view.json when empty.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub names: std::collections::BTreeMap<String, String>,
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
    tmpl.render(context! { game => header, you => you, view => view, board => board, names => header.names })
        .map_err(|e| Error::refused(format!("rendering {name}: {e:#}")))
}

/// Everything one player's report is made of: the text, view.json, the
/// board as SVG and the HTML page. (The PNG is drawn on demand.)
pub struct Rendered {
    pub text: String,
    pub json: String,
    pub svg: String,
    /// The page; its press section ([`PRESS_MARK`]) is filled in by
    /// whoever has the game's press texts ([`with_press`]).
    pub html: String,
    /// The press the player got, as the report mail shows it above the
    /// report (empty: none, or not filled in).
    pub press: String,
}

/// Where a page's press section goes, and where it ends once filled in.
/// The section is not part of what the report's witness signs: the
/// press texts are not in the game file, and each press is proven by its
/// own mail.
pub const PRESS_MARK: &str = "<!--herald:press-->";
const PRESS_END: &str = "<!--/herald:press-->";

/// One press a player got, as the report shows it.
#[derive(Debug, Clone, Serialize)]
pub struct PressItem {
    pub n: u32,
    pub turn: u32,
    /// The sender as the rules show them: `red (Ann)` or `anonymous`.
    pub from: String,
    /// `you`, or the players it went to.
    pub to: String,
    pub at: String,
    pub text: String,
}

/// The page's "write press" box: what a press mail needs.
#[derive(Debug, Clone, Serialize)]
pub struct PressBox {
    /// The game's address (the order form's), if the game has one.
    pub address: Option<String>,
    pub subject: String,
    /// The players one may write to (not oneself).
    pub others: Vec<String>,
    pub public_only: bool,
    pub grey: bool,
    /// The game's press rules in words.
    pub rules: String,
    /// `mailto:` the address with the subject (the script adds the body).
    pub mailto: String,
}

/// `s` percent-encoded for a `mailto:` URL's query (as JavaScript's
/// `encodeURIComponent`).
pub fn url_component(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The press a player got, as the report mail lists it above the report.
pub fn press_text(items: &[PressItem]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "PRESS YOU GOT (each came in its own mail, which proves it)

",
    );
    for p in items {
        s.push_str(&format!(
            "  #{} from {} to {} (turn {}, {}):
",
            p.n,
            p.from,
            p.to,
            p.turn,
            crate::time::shown(&p.at)
        ));
        for l in p.text.lines() {
            s.push_str(&format!("    {l}\n"));
        }
        s.push('\n');
    }
    s.push_str(&"=".repeat(72));
    s.push_str("\n\n");
    s
}

/// The page's press section: the press the player got and, where the
/// game allows press, the box that writes one.
pub fn press_html(items: &[PressItem], write: Option<&PressBox>, you: &str) -> Result<String> {
    if items.is_empty() && write.is_none() {
        return Ok(String::new());
    }
    let name = "common/press.html.j2";
    let tmpl = env()
        .get_template(name)
        .map_err(|e| Error::refused(format!("no template {name}: {e}")))?;
    tmpl.render(context! { items => items, write => write, you => you })
        .map_err(|e| Error::refused(format!("rendering {name}: {e:#}")))
}

/// `page` with its press section filled in with `section`.
pub fn with_press(page: &str, section: &str) -> String {
    let page = without_press(page);
    if section.is_empty() {
        return page;
    }
    page.replacen(
        PRESS_MARK,
        &format!("{PRESS_MARK}\n{section}{PRESS_END}"),
        1,
    )
}

/// `page` with its press section emptied: the page as the game file alone
/// makes it (what `verify --witness` compares).
pub fn without_press(page: &str) -> String {
    let Some(a) = page.find(PRESS_MARK) else {
        return page.to_string();
    };
    let from = a + PRESS_MARK.len();
    match page[from..].find(PRESS_END) {
        Some(b) => format!("{}{}", &page[..from], &page[from + b + PRESS_END.len()..]),
        None => page.to_string(),
    }
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
        names => header.names,
        you => page.player,
        text => text,
        svg => svg,
        form => form,
        data => data,
        script => compose::SCRIPT,
        moderator => page.moderator,
        view => page.view,
        count => page.count,
    })
    .map_err(|e| Error::refused(format!("rendering {name}: {e:#}")))
}

/// The machine-readable report: the header and the player's view, and
/// the witness of the text report made with it (the same facts: `herald
/// verify --witness view.json` renders the report again and compares).
pub fn json(
    header: &Header,
    you: &str,
    view: Value,
    witness: Option<&crate::chain::witness::Witness>,
) -> String {
    #[derive(Serialize)]
    struct Report<'a> {
        herald: &'a str,
        game: &'a Header,
        player: &'a str,
        view: Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        witness: Option<&'a crate::chain::witness::Witness>,
    }
    let r = Report {
        herald: env!("CARGO_PKG_VERSION"),
        game: header,
        player: you,
        view,
        witness,
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

/// A blank order form for the current phase (`herald orders`, the HTML
/// page, reminders): `legal` lists orders to copy (shown through
/// [`listing`]) and `whole_set` is the phase's rule for the whole set,
/// both from the player's view, for the comments above the form.
pub fn blank_form(
    header: &Header,
    you: &str,
    legal: &[String],
    whole_set: Option<&str>,
) -> Result<String> {
    let tmpl = env()
        .get_template("common/order_form.txt.j2")
        .map_err(|e| Error::refused(e.to_string()))?;
    tmpl.render(context! { game => header, names => header.names, you => you, legal => legal, whole_set => whole_set })
        .map_err(|e| Error::refused(format!("rendering the order form: {e:#}")))
}

#[cfg(test)]
mod tests {
    use crate::report::{env, TEMPLATES};

    #[test]
    fn every_template_compiles() {
        for (name, _) in TEMPLATES {
            env()
                .get_template(name)
                .unwrap_or_else(|e| panic!("{name}: {e:#}"));
        }
    }
}
