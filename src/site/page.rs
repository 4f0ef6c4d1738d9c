//! The two pages of a site: the index (the game, a link per phase, the
//! checker) and the replay (one phase at a time). Plain HTML written here,
//! every string from the game escaped; the script fills in the frames.

use super::{Frame, Who};
use crate::board::svg::esc;
use crate::pipeline::Loaded;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// What both pages say about the game.
pub struct Info {
    pub title: String,
    pub game: String,
    pub id: String,
    pub who: Who,
    /// "the omniscient view", "red's own view", "the public view".
    pub lens: String,
    /// What the lens shows and hides, in a sentence.
    pub lens_note: String,
    pub players: Vec<(usize, String, String, String)>,
    pub options: Vec<(String, String)>,
    pub outcome: Option<String>,
    pub state: String,
    pub created: String,
    pub first: Option<String>,
    pub last: Option<String>,
    pub seed: Option<String>,
    pub seed_commitment: String,
    pub chain_head: String,
    pub key: String,
    pub entries: usize,
    pub herald: String,
    pub ruleset: String,
    pub over: bool,
    /// The press messages the site shows (docs/host.md, "Press in the
    /// archive").
    pub press: usize,
}

/// Who played a seat: its name, or where the seat changed hands
/// (`herald host` takeovers, chained `seat` entries) each holder with the
/// turns they played: "Dana (turn 0); Erin from turn 1, who took over the
/// seat when its player dropped out". Names only: an entry keeps no
/// address in clear. A bot seat: the bot and its strength (its spec).
fn held_by(g: &Loaded, seat: usize, id: &str, now: &str) -> String {
    if let Some(bot) = g.genesis.bot(id) {
        return format!("herald's bot {bot}, which played from this seat's view alone");
    }
    let changes: Vec<crate::chain::body::SeatChange> = g
        .record
        .entries
        .iter()
        .filter_map(|e| match e.decode() {
            Ok(crate::chain::body::Body::Seat(c)) if c.player == id => Some(c),
            _ => None,
        })
        .collect();
    if changes.is_empty() {
        return now.to_string();
    }
    let first = g
        .genesis
        .players
        .get(seat)
        .map_or_else(|| id.to_string(), |p| p.name.clone());
    let mut out = Vec::new();
    let mut from = 0;
    let mut name = first;
    for c in &changes {
        let to = c.turn.saturating_sub(1);
        out.push(match c.turn {
            0 => format!("{name} (no turn)"),
            _ if from == to => format!("{name} (turn {from})"),
            _ => format!("{name} (turns {from}–{to})"),
        });
        let how = match c.why.as_str() {
            "dropped" => "took the seat over when its player dropped out",
            "replaced" => "took the seat over when the moderator freed it",
            _ => "took the seat over",
        };
        name = format!("{} from turn {}, who {how}", c.name, c.turn);
        from = c.turn;
    }
    out.push(name);
    out.join("; ")
}

impl Info {
    /// Long (about 80 lines): one struct literal, every field of the page's
    /// heading, each computed just above it.
    pub fn new(g: &Loaded, who: Who, frames: &[Frame], press: usize) -> Info {
        let h = g.head();
        let seats = g.entry.seats;
        let (lens, lens_note) = match who {
            Who::Everything => (
                "the omniscient view".to_string(),
                "The game is over, so nothing is secret any more: every board shows the whole state (where the game hides things, hidden pieces, powers and fog revealed), every player's orders and every die. No player saw all of this during play.".to_string(),
            ),
            Who::Player(s) => (
                format!("{}'s own view", h.players[s].shown()),
                format!(
                    "Each phase as {} was told it: their own board, the events and dice they saw, their own orders; of the others only that orders came in.",
                    h.players[s].shown()
                ),
            ),
            Who::Public => (
                "the public view".to_string(),
                "What every player is told: the board where the game hides nothing from anyone, the dice everyone sees, who sent orders.".to_string(),
            ),
        };
        let state = match &h.outcome {
            Some(o) => format!("over after {} phases: {}", h.turn, o.summary),
            None if h.awaiting.is_empty() => format!("running: turn {}, {}", h.turn, h.phase),
            None => format!(
                "running: turn {}, {}, awaiting {}",
                h.turn,
                h.phase,
                h.awaiting
                    .iter()
                    .map(|p| super::shown(g, p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let resolved: Vec<&String> = frames
            .iter()
            .filter_map(|f| f.resolved_at.as_ref())
            .collect();
        Info {
            title: g.entry.title.to_string(),
            game: g.entry.name.to_string(),
            id: h.id.clone(),
            who,
            lens,
            lens_note,
            players: h
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    (
                        i + 1,
                        seats.get(i).map(|s| s.to_string()).unwrap_or_default(),
                        p.id.clone(),
                        held_by(g, i, &p.id, &p.name),
                    )
                })
                .collect(),
            options: h
                .options
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            outcome: h.outcome.as_ref().map(|o| {
                if o.winners.is_empty() {
                    o.summary.clone()
                } else {
                    format!("{} (won: {})", o.summary, o.winners.join(", "))
                }
            }),
            state,
            created: h.created.clone(),
            first: resolved.first().map(|s| s.to_string()),
            last: resolved.last().map(|s| s.to_string()),
            seed: h.seed.clone(),
            seed_commitment: h.seed_commitment.clone(),
            chain_head: g.record.chain_head().to_string(),
            key: h.key.clone(),
            entries: g.record.entries.len(),
            herald: h.herald.clone(),
            ruleset: format!("{} (sha256 {})", h.ruleset.name, h.ruleset.sha256),
            over: h.outcome.is_some(),
            press,
        }
    }

    /// `site.json`: what the site shows, for the gallery and scripts.
    pub fn marker(&self) -> Value {
        json!({
            "site": 1,
            "game": self.game,
            "title": self.title,
            "id": self.id,
            "view": match self.who {
                Who::Everything => "everything".to_string(),
                Who::Player(s) => format!(
                    "player {}",
                    self.players.get(s).map_or("", |p| p.2.as_str())
                ),
                Who::Public => "public".to_string(),
            },
            "over": self.over,
            "outcome": self.outcome,
            "state": self.state,
            "players": self.players.iter().map(|p| p.2.clone()).collect::<Vec<_>>(),
            "created": self.created,
            "last": self.last,
            "chain_head": self.chain_head,
            "key": self.key,
            "entries": self.entries,
            "press": self.press,
        })
    }
}

/// The document's start, shared by both pages.
fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<link rel=\"stylesheet\" href=\"site.css\">\n</head>\n",
        esc(title)
    )
}

fn row(h: &mut String, name: &str, value: &str) {
    let _ = writeln!(h, "<tr><th>{name}</th><td>{value}</td></tr>");
}

fn code(s: &str) -> String {
    format!("<code class=\"long\">{}</code>", esc(s))
}

/// A phase's name in the list and on the replay page.
pub fn frame_name(f: &Frame) -> String {
    f.name.clone()
}

/// The anchor of a frame on the replay page.
pub fn anchor(f: &Frame) -> String {
    f.anchor.clone()
}

/// `index.html`.
///
/// Long (about 110 lines): one page, its sections in reading order.
pub fn index(i: &Info, frames: &[Frame], press: &[super::Press]) -> String {
    let mut h = head(&format!("{} {}: {}", i.title, i.id, i.lens));
    let _ = writeln!(
        h,
        "<body class=\"index\" data-chain-head=\"{}\" data-key=\"{}\" data-over=\"{}\">\n<main>",
        esc(&i.chain_head),
        esc(&i.key),
        i.over
    );
    let _ = writeln!(
        h,
        "<h1>{} <span class=\"id\">{}</span></h1>\n<p class=\"lens lens-{}\"><strong>{}.</strong> {}</p>",
        esc(&i.title),
        esc(&i.id),
        match i.who {
            Who::Everything => "everything",
            Who::Player(_) => "player",
            Who::Public => "public",
        },
        esc(&capital(&i.lens)),
        esc(&i.lens_note)
    );
    let _ = writeln!(
        h,
        "<p class=\"go\"><a class=\"button\" href=\"replay.html#{}\">Replay the game ▶</a> {} phases</p>",
        frames.first().map(anchor).unwrap_or_default(),
        frames.len().saturating_sub(1)
    );
    h.push_str("<section id=\"game\">\n<h2>The game</h2>\n<table class=\"facts\">\n");
    row(
        &mut h,
        "game",
        &format!("{} (<code>{}</code>)", esc(&i.title), esc(&i.game)),
    );
    row(&mut h, "id", &esc(&i.id));
    row(
        &mut h,
        "outcome",
        &esc(i.outcome.as_deref().unwrap_or(&i.state)),
    );
    let shown = |t: &str| esc(&crate::time::shown(t));
    row(&mut h, "created", &shown(&i.created));
    if let Some(f) = &i.first {
        row(&mut h, "first phase resolved", &shown(f));
    }
    if let Some(l) = &i.last {
        row(&mut h, "last phase resolved", &shown(l));
    }
    if !i.options.is_empty() {
        let o: Vec<String> = i.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        row(&mut h, "options", &esc(&o.join(", ")));
    }
    row(&mut h, "ruleset", &esc(&i.ruleset));
    match &i.seed {
        Some(s) => row(&mut h, "seed (revealed)", &code(s)),
        None => row(
            &mut h,
            "seed",
            "secret until the game ends (every report prints its commitment)",
        ),
    }
    row(&mut h, "seed commitment", &code(&i.seed_commitment));
    row(&mut h, "chain head", &code(&i.chain_head));
    row(&mut h, "moderator key", &code(&i.key));
    row(
        &mut h,
        "log",
        &format!(
            "{} entries; written by herald {}",
            i.entries,
            esc(&i.herald)
        ),
    );
    h.push_str("</table>\n<h3>Players</h3>\n<table class=\"players\">\n<thead><tr><th>seat</th><th>player</th><th>name</th></tr></thead>\n<tbody>\n");
    for (n, seat, id, name) in &i.players {
        let seat = if seat.is_empty() {
            n.to_string()
        } else {
            format!("{n} ({})", esc(seat))
        };
        let _ = writeln!(
            h,
            "<tr><td>{seat}</td><td>{}</td><td>{}</td></tr>",
            esc(id),
            esc(name)
        );
    }
    h.push_str("</tbody>\n</table>\n</section>\n");
    h.push_str("<section id=\"check\">\n<h2>Check it</h2>\n");
    if i.over {
        let _ = writeln!(
            h,
            "<p id=\"verdict\" class=\"verdict\">checking the game file…</p>\n<ol id=\"findings\"></ol>\n\
             <p>This page recomputes, in your browser, every entry's SHA-256 hash and link and checks every Ed25519 signature and the seal against the moderator key above (the game file is in <code>game.js</code>; nothing is fetched). \
             It does not replay the rules: for that, <a id=\"save\" href=\"#check\" download=\"game.jsonl\">save the game file as game.jsonl</a> and run</p>\n\
             <pre>herald verify game.jsonl --key {}</pre>\n\
             <p>which replays every phase with the revealed seed and re-derives every die. Add <code>--witness</code> with the reports and receipts you were mailed to check that this archive holds exactly what you were sent (docs/trust.md).</p>",
            esc(&i.key)
        );
    } else {
        h.push_str(
            "<p id=\"verdict\" class=\"verdict pending\">not yet: the game is running.</p>\n\
             <p>While a game runs its game file holds what the reports hide (the whole state, every player's orders) and the players' password hashes, so this site does not carry it. \
             Once the game ends the moderator publishes it; a site built then checks it in the page, and <code>herald verify game.jsonl</code> replays it. \
             Meanwhile every report you were mailed ends with a witness block signed with the moderator key above, over the chain head it was written on.</p>\n",
        );
    }
    h.push_str("</section>\n");
    h.push_str("<section id=\"phases\">\n<h2>Phases</h2>\n<ol class=\"phases\" start=\"0\">\n");
    for f in frames {
        let _ = writeln!(
            h,
            "<li><a href=\"replay.html#{}\">{}</a>{}</li>",
            anchor(f),
            esc(&frame_name(f)),
            f.when
                .as_ref()
                .map(|t| format!(" <small>{}</small>", esc(t)))
                .unwrap_or_default()
        );
    }
    h.push_str("</ol>\n</section>\n");
    if !press.is_empty() {
        press_section(&mut h, press);
    }
    h.push_str("</main>\n");
    h.push_str("<script src=\"site.js\"></script>\n");
    if i.over {
        h.push_str("<script src=\"game.js\"></script>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}

/// The press of a finished game whose rules reveal it at the end, in the
/// order it was relayed.
fn press_section(h: &mut String, press: &[super::Press]) {
    h.push_str(
        "<section id=\"press\">\n<h2>Press</h2>\n\
         <p>The messages the players wrote to each other through the host, revealed now the game is over as its rules chose at its start. \
         Anonymous press is shown with its sender, whom the rules reveal now too. <a href=\"press.txt\">press.txt</a> holds each text with the nonce its hash was salted with, and each anonymous sender with the opening of the commitment the game file holds: <code>herald verify game.jsonl --witness press.txt</code> checks every one.</p>\n\
         <ol class=\"press\">\n",
    );
    for p in press {
        let _ = writeln!(
            h,
            "<li id=\"press-{n}\" value=\"{n}\"><p class=\"press-meta\">turn {turn}, {at}: from <b>{from}</b> to {to}</p>\n<pre class=\"press-text\">{text}</pre></li>",
            n = p.n,
            turn = p.turn,
            at = esc(&crate::time::shown(&p.at)),
            from = esc(&p.from),
            to = esc(&p.to),
            text = esc(&p.text)
        );
    }
    h.push_str("</ol>\n</section>\n");
}

/// `replay.html`: a shell the script fills with the frames. The board
/// and its buttons come first (on a desktop the phase's name, events,
/// orders and dice stand beside it), so that the whole board is on the
/// screen as the page opens; a finished game's page offers each phase's
/// other views (the public one, each player's report) in a list above
/// the board.
pub fn replay(i: &Info) -> String {
    let mut h = head(&format!("{} {}: replay", i.title, i.id));
    let _ = writeln!(
        h,
        "<body class=\"replay\" data-lens=\"{lens}\">\n<header>\n<a href=\"index.html\" class=\"back\">◀ {} {}</a>\n\
         <span class=\"lens lens-{}\">{lens}</span>\n</header>\n\
         <nav id=\"nav\" aria-label=\"phases\">\n\
         <button id=\"first\" title=\"the start (Home)\">|◀</button>\
         <button id=\"prev\" title=\"the phase before (←)\">◀</button>\
         <input id=\"slider\" type=\"range\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"phase\">\
         <button id=\"next\" title=\"the phase after (→)\">▶</button>\
         <button id=\"last\" title=\"the end (End)\">▶|</button>\n\
         <span id=\"where\"></span>\n</nav>\n\
         <main id=\"frame\">\n<h1 id=\"name\"></h1>\n\
         <div id=\"view\">\n<div id=\"tools\" class=\"zoom\">\
         <span id=\"lens\" hidden><label for=\"lens-pick\">view</label> <select id=\"lens-pick\"></select></span>\
         <button id=\"zoom-out\" aria-label=\"zoom out\">−</button>\
         <span id=\"zoom-level\">100%</span><button id=\"zoom-in\" aria-label=\"zoom in\">+</button>\
         <button id=\"zoom-fit\">fit</button></div>\n\
         <div id=\"board\" class=\"board\"></div>\n</div>\n<div id=\"details\">\n\
         <p id=\"when\"></p>\n\
         <section><h2>Events<span id=\"events-whose\"></span></h2><ul id=\"events\"></ul></section>\n\
         <section><h2>Orders</h2><ul id=\"orders\"></ul></section>\n\
         <section><h2>Dice</h2><ul id=\"rolls\"></ul></section>\n\
         <p id=\"next-up\"></p>\n<section id=\"legend\" hidden></section>\n</div>\n</main>\n\
         <noscript><p>The replay draws each phase with a small script; the <a href=\"index.html\">index</a> lists the phases.</p></noscript>\n\
         <script src=\"site.js\"></script>\n<script src=\"frames.js\"></script>\n</body>\n</html>",
        esc(&i.title),
        esc(&i.id),
        match i.who {
            Who::Everything => "everything",
            Who::Player(_) => "player",
            Who::Public => "public",
        },
        lens = esc(&i.lens)
    );
    h
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
