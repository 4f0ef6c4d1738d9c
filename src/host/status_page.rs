//! The status page: `DIR/index.html` for the moderator's browser and its
//! twin `DIR/index.json` for scripts, written atomically after each pass
//! from every game's host state (`host::state`) and the refused mails of
//! its outbox. Every string from outside herald (subjects, addresses,
//! error texts, a game file's id) is escaped: the page runs no script and
//! loads nothing.

use super::config::PublicMode;
use super::layout::HostDir;
use super::lobby::confirm;
use super::outbox::{self, Refusal};
use super::state::{GameState, MailNote};
use crate::error::Result;
use crate::names::Name;
use crate::store::write::{self, Durability};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// One game's line on the page.
#[derive(Debug, Clone, Serialize)]
pub struct GameLine {
    /// The folder's name: the game's id.
    pub id: String,
    pub game: Option<String>,
    pub title: Option<String>,
    pub turn: Option<u32>,
    pub phase: Option<String>,
    pub deadline: Option<String>,
    pub awaiting: Vec<String>,
    /// Awaited players whose orders are not in yet.
    pub missing: Vec<String>,
    pub outcome: Option<String>,
    pub last_in: Option<MailNote>,
    pub last_out: Option<MailNote>,
    /// Mails the mail server refused for good (or that were given up).
    pub refused: Vec<Refusal>,
    /// For the moderator: the mail side's problems and the last failure
    /// of the game-time work.
    pub problems: Vec<String>,
}

/// The whole page's data (`index.json`).
#[derive(Debug, Clone, Serialize)]
pub struct Page {
    pub generated: String,
    pub host_problems: Vec<String>,
    pub games: Vec<GameLine>,
    /// The lobby's tables (open, starting, and those closed).
    pub tables: Vec<TableLine>,
    /// Seats offered for takeover, not yet taken over.
    pub offers: Vec<OfferLine>,
    /// The standby list (the moderator's page only).
    pub standby: Vec<String>,
    /// Vacations granted, as the host last saw them.
    pub away: Vec<AwayLine>,
    /// Replies held back in the last hour by the bound on replies to one
    /// address (`host::replies`), and the bound.
    pub held: Held,
}

/// The replies the host held back (`host::replies`): the bound of
/// host.toml's `replies_per_hour`, and each address it held replies back
/// from in the last hour.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Held {
    pub per_hour: u32,
    pub addresses: Vec<super::replies::HeldBack>,
}

/// A seat offered for takeover.
#[derive(Debug, Clone, Serialize)]
pub struct OfferLine {
    pub game: String,
    pub player: String,
    /// Why it is free, in words.
    pub why: String,
    /// `open`, `approval` (waiting for `herald host approve`), `granted`.
    pub status: String,
    /// Takeovers waiting for their confirmation (a count).
    pub waiting_confirmation: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct AwayLine {
    pub game: String,
    pub player: String,
    pub until: String,
}

fn offer_lines(host_dir: &Path) -> (Vec<OfferLine>, Vec<AwayLine>) {
    let mut offers = Vec::new();
    let mut away = Vec::new();
    let store = confirm::Store::load(&HostDir::at(host_dir)).unwrap_or_default();
    for g in super::lobby::seats::all(&HostDir::at(host_dir)) {
        for o in &g.offers {
            if o.status == super::lobby::seats::OfferStatus::Done {
                continue;
            }
            offers.push(OfferLine {
                game: g.game.clone(),
                player: o.player.clone(),
                why: super::lobby::seats::why_words(&o.why).to_string(),
                status: format!("{:?}", o.status).to_lowercase(),
                waiting_confirmation: store
                    .waiting()
                    .filter(|r| {
                        r.action.target() == confirm::Target::Seat(g.game.clone(), o.player.clone())
                    })
                    .count(),
            });
        }
        for a in &g.away {
            away.push(AwayLine {
                game: g.game.clone(),
                player: a.player.clone(),
                until: a.until.clone(),
            });
        }
    }
    (offers, away)
}

/// A lobby table as the page shows it: no player's address unless the
/// player joined with `public`; confirmations waiting as a count only.
#[derive(Debug, Clone, Serialize)]
pub struct TableLine {
    pub name: String,
    pub game: String,
    pub status: String,
    /// "2 of 3-4 seats taken; starts when full".
    pub summary: String,
    /// Each seated player: the display name (or "a player"), and the
    /// address where they agreed to show it.
    pub seats: Vec<String>,
    pub waiting_confirmation: usize,
    /// The press rules its game gets, in words.
    pub press: String,
}

fn table_lines(host_dir: &Path) -> Vec<TableLine> {
    let host = HostDir::at(host_dir);
    let (tables, _) = super::lobby::all(&host);
    let store = confirm::Store::load(&host).unwrap_or_default();
    tables
        .into_iter()
        .map(|t| {
            // A started table's seats are its game's: in the game's order,
            // each with its holder now (a takeover's new player).
            let now = super::lobby::game_now(&host, &t);
            let seats = match &now {
                Some((seats, _)) => seats
                    .iter()
                    .map(|s| {
                        let who = super::lobby::id_and_name(&s.player, &s.name);
                        if s.public {
                            format!("{who} <{}>", s.address)
                        } else {
                            who
                        }
                    })
                    .collect(),
                None => t
                    .seats
                    .iter()
                    .map(|s| {
                        let name = s.name.clone().unwrap_or_else(|| "a player".into());
                        if s.public {
                            format!("{name} <{}>", s.address)
                        } else {
                            name
                        }
                    })
                    .collect(),
            };
            let over = now.as_ref().is_some_and(|n| n.1.is_some());
            TableLine {
                name: t.name.clone(),
                game: t.game.clone(),
                status: if over {
                    "over".to_string()
                } else {
                    format!("{:?}", t.status).to_lowercase()
                },
                summary: super::lobby::describe_now(&t, now.as_ref()),
                seats,
                waiting_confirmation: store
                    .waiting()
                    .filter(|r| {
                        matches!(&r.action, confirm::Action::Join { table, .. } if *table == t.name)
                    })
                    .count(),
                press: t.press_words(),
            }
        })
        .collect()
}

/// The page's data from the games' states and their outboxes' refusals.
pub fn page(
    host_dir: &Path,
    games: &[(Name, GameState)],
    host_problems: &[String],
    held: &Held,
    now: &str,
) -> Page {
    let mut lines: Vec<GameLine> = games
        .iter()
        .map(|(name, st)| {
            let s = st.summary.as_ref();
            let mut problems = st.problems.clone();
            problems.extend(st.due_problem.iter().cloned());
            GameLine {
                id: name.as_str().to_string(),
                game: s.map(|s| s.game.clone()),
                title: s.map(|s| s.title.clone()),
                turn: s.map(|s| s.turn),
                phase: s.map(|s| s.phase.clone()),
                deadline: s.and_then(|s| s.deadline.clone()),
                awaiting: s.map(|s| s.awaiting.clone()).unwrap_or_default(),
                missing: s.map(|s| s.missing.clone()).unwrap_or_default(),
                outcome: s.and_then(|s| s.outcome.clone()),
                last_in: st.last_in.clone(),
                last_out: st.last_out.clone(),
                refused: outbox::refusals(&HostDir::at(host_dir).game(name).outbox()),
                problems,
            }
        })
        .collect();
    lines.sort_by(|a, b| a.id.cmp(&b.id));
    let (offers, away) = offer_lines(host_dir);
    let standby = super::lobby::seats::standby(&HostDir::at(host_dir))
        .map(|s| s.list.into_iter().map(|e| e.address).collect())
        .unwrap_or_default();
    Page {
        generated: now.to_string(),
        host_problems: host_problems.to_vec(),
        games: lines,
        tables: table_lines(host_dir),
        offers,
        standby,
        away,
        held: held.clone(),
    }
}

/// Write `DIR/index.html` and `DIR/index.json` atomically (each replaced
/// whole; mode 0600 like every file herald writes: they hold players'
/// addresses), and beside them `DIR/tables.html`, the lobby's page that a
/// moderator may publish: the tables, each seat by display name, and an
/// address only where its player joined with `public`.
pub fn write(
    host_dir: &Path,
    join_address: &str,
    games: &[(Name, GameState)],
    host_problems: &[String],
    now: &str,
) -> Result<()> {
    write_with(
        host_dir,
        join_address,
        games,
        host_problems,
        &Held::default(),
        now,
        PublicMode::Private,
    )
}

/// [`write`], with the replies the pass held back, each page given the
/// mode host.toml's `public_mode` asks for (index.html and index.json,
/// which hold addresses, never more than the group's).
pub fn write_with(
    host_dir: &Path,
    join_address: &str,
    games: &[(Name, GameState)],
    host_problems: &[String],
    held: &Held,
    now: &str,
    mode: PublicMode,
) -> Result<()> {
    let p = page(host_dir, games, host_problems, held, now);
    write::atomic_mode(
        &HostDir::at(host_dir).tables_html(),
        tables_html(&p, join_address).as_bytes(),
        Durability::Replaceable,
        mode.file(false),
    )?;
    let mut json = serde_json::to_vec_pretty(&p).expect("the page serialises");
    json.push(b'\n');
    let host = HostDir::at(host_dir);
    write::atomic_mode(
        &host.status_json(),
        &json,
        Durability::Replaceable,
        mode.file(true),
    )?;
    write::atomic_mode(
        &host.status_html(),
        html(&p).as_bytes(),
        Durability::Replaceable,
        mode.file(true),
    )
}

/// Text made safe for HTML, in element content and quoted attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

fn note(n: &Option<MailNote>) -> String {
    match n {
        None => "—".into(),
        Some(n) => format!(
            "{}<br>{}<br>{}<br><small>{}</small>",
            escape(&crate::time::shown(&n.at)),
            escape(&n.who),
            escape(&n.what),
            escape(&n.message_id)
        ),
    }
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "—".into()
    } else {
        escape(&items.join(", "))
    }
}

/// The lobby's public page: how to join, then every table that is not
/// cancelled (open, starting, started), its seats by display name (an address only where the player
/// agreed), and nothing else of the host: no game row, no mail note, no
/// refusal, no problem. Plain HTML, no script.
pub fn tables_html(p: &Page, join_address: &str) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <title>herald: open tables</title>\n<style>\n\
         body {{ font-family: system-ui, sans-serif; margin: 1rem auto; max-width: 48rem; padding: 0 1rem; line-height: 1.4; }}\n\
         table {{ border-collapse: collapse; width: 100%; }}\n\
         th, td {{ border-bottom: 1px solid #ccc; padding: .4rem; text-align: left; vertical-align: top; }}\n\
         code {{ background: #f3f3f3; padding: 0 .2rem; overflow-wrap: anywhere; }}\n\
         td[data-label=\"game\"] {{ white-space: nowrap; }}\n\
         @media (max-width: 40rem) {{\n\
         table, tbody, tr, td {{ display: block; width: auto; }}\n\
         thead {{ display: none; }}\n\
         tr {{ border-bottom: 1px solid #ccc; padding: .4rem 0; }}\n\
         td {{ border: none; padding: .1rem 0; overflow-wrap: anywhere; }}\n\
         td[data-label]::before {{ content: attr(data-label) \": \"; color: #555; }}\n\
         td:first-child {{ font-weight: bold; font-size: 1.1rem; }}\n\
         }}\n\
         </style>\n</head>\n<body>\n<h1>Open tables</h1>\n\
         <p>To join, mail <code>join TABLE your name</code> to <code>{addr}</code> \
         (add <code>public</code> to show your address here). The host mails back a code: \
         answer <code>confirm CODE</code> to take the seat. <code>leave TABLE</code> gives it back before the start (a code comes back for that too).</p>\n\
         <p><small>Written {gen}.</small></p>\n",
        addr = escape(join_address),
        gen = escape(&crate::time::shown(&p.generated)),
    );
    let shown: Vec<&TableLine> = p
        .tables
        .iter()
        .filter(|t| t.status != "cancelled")
        .collect();
    if !shown.iter().any(|t| t.status == "open") {
        h.push_str("<p>There is no open table on this host now.</p>\n");
    }
    if !shown.is_empty() {
        h.push_str(
            "<table>\n<thead><tr><th>table</th><th>game</th><th>state</th><th>seats</th><th>players</th></tr></thead>\n<tbody>\n",
        );
        for t in shown {
            let _ = writeln!(
                h,
                "<tr id=\"table-{name}\"><td>{name}</td><td data-label=\"game\">{game}</td><td data-label=\"state\">{status}</td><td data-label=\"seats\">{summary}<br><small>press: {press}</small></td><td data-label=\"players\">{players}</td></tr>",
                name = escape(&t.name),
                game = escape(&t.game),
                status = escape(&t.status),
                summary = escape(&t.summary),
                press = escape(&t.press),
                players = list(&t.seats),
            );
        }
        h.push_str("</tbody>\n</table>\n");
    }
    let open: Vec<&OfferLine> = p.offers.iter().filter(|o| o.status == "open").collect();
    h.push_str("<h2>Seats to take over</h2>\n");
    if open.is_empty() {
        h.push_str("<p>No seat in a game under way is free now.</p>\n");
    } else {
        let _ = writeln!(
            h,
            "<p>A seat whose player left a game under way: mail <code>takeover GAME PLAYER your name</code> to <code>{}</code>, then answer the code. Mail <code>standby</code> to be told of the next ones.</p>",
            escape(join_address)
        );
        h.push_str("<table>\n<thead><tr><th>game</th><th>seat</th><th>why it is free</th></tr></thead>\n<tbody>\n");
        for o in open {
            let _ = writeln!(
                h,
                "<tr id=\"seat-{g}-{pl}\"><td>{g}</td><td data-label=\"seat\">{pl}</td><td data-label=\"why it is free\">{why}</td></tr>",
                g = escape(&o.game),
                pl = escape(&o.player),
                why = escape(&o.why),
            );
        }
        h.push_str("</tbody>\n</table>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}

/// The page itself: one table, a row per game; plain HTML, no script.
/// Then the lobby's tables, the seats offered for takeover, the standby
/// list and the vacations.
pub fn html(p: &Page) -> String {
    let mut h = String::new();
    head_html(p, &mut h);
    games_html(p, &mut h);
    lobby_html(p, &mut h);
    offers_html(p, &mut h);
    standby_and_away_html(p, &mut h);
    held_html(p, &mut h);
    h.push_str("</body>\n</html>\n");
    h
}

/// The page's head, its heading, the counts, and the host's problems.
fn head_html(p: &Page, h: &mut String) {
    let problems: usize = p.games.iter().filter(|g| !g.problems.is_empty()).count();
    let refused: usize = p.games.iter().map(|g| g.refused.len()).sum();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
         <title>herald host: {n} games</title>\n<style>\n\
         body {{ font-family: sans-serif; margin: 1em; }}\n\
         table {{ border-collapse: collapse; }}\n\
         th, td {{ border: 1px solid #999; padding: .3em .5em; vertical-align: top; text-align: left; }}\n\
         .bad {{ color: #a00; }}\n</style>\n</head>\n<body>\n\
         <h1>herald host</h1>\n<p>Written {gen}. {n} games; {problems} with problems; {refused} refused mails.</p>\n",
        n = p.games.len(),
        gen = escape(&crate::time::shown(&p.generated)),
    );
    if !p.host_problems.is_empty() {
        h.push_str("<h2 class=\"bad\">Problems of the host</h2>\n<ul>\n");
        for x in &p.host_problems {
            let _ = writeln!(h, "<li class=\"bad\">{}</li>", escape(x));
        }
        h.push_str("</ul>\n");
    }
}

/// The table of games, a row each.
fn games_html(p: &Page, h: &mut String) {
    h.push_str(
        "<table>\n<thead><tr><th>game</th><th>title</th><th>turn</th><th>deadline</th>\
         <th>awaited (orders missing)</th><th>last mail in</th><th>last mail out</th>\
         <th>refused mails</th><th>problems</th></tr></thead>\n<tbody>\n",
    );
    for g in &p.games {
        game_row(g, h);
    }
    h.push_str("</tbody>\n</table>\n");
}

/// One game's row.
fn game_row(g: &GameLine, h: &mut String) {
    let turn = match (&g.turn, &g.phase) {
        (Some(t), Some(ph)) => format!("{t} ({})", escape(ph)),
        _ => "—".into(),
    };
    let state = match &g.outcome {
        Some(o) => format!("over: {}", escape(o)),
        None => format!("{}<br>missing: {}", list(&g.awaiting), list(&g.missing)),
    };
    let mut refused = String::new();
    for r in &g.refused {
        let to: Vec<String> = r
            .refused
            .iter()
            .map(|x| format!("{}: {}", x.to, x.error))
            .collect();
        let _ = write!(
            refused,
            "<div class=\"bad\">{} — {}<br><small>{}</small></div>",
            escape(r.subject.as_deref().unwrap_or("(no subject)")),
            escape(&to.join("; ")),
            escape(&r.file),
        );
    }
    if refused.is_empty() {
        refused.push('—');
    }
    let problems = if g.problems.is_empty() {
        "—".to_string()
    } else {
        g.problems
            .iter()
            .map(|x| format!("<div class=\"bad\">{}</div>", escape(x)))
            .collect()
    };
    let _ = writeln!(
            h,
            "<tr id=\"game-{id}\"><td>{id}</td><td>{title}</td><td>{turn}</td><td>{deadline}</td>\
             <td>{state}</td><td>{last_in}</td><td>{last_out}</td><td>{refused}</td><td>{problems}</td></tr>",
            id = escape(&g.id),
            title = escape(g.title.as_deref().unwrap_or("—")),
            deadline = escape(
                &g.deadline
                    .as_deref()
                    .map_or("none".to_string(), crate::time::shown)
            ),
            last_in = note(&g.last_in),
            last_out = note(&g.last_out),
        );
}

/// The lobby's tables, if any.
fn lobby_html(p: &Page, h: &mut String) {
    if !p.tables.is_empty() {
        h.push_str(
            "<h2>Tables (join by mail: <code>join TABLE</code>)</h2>\n<table>\n<thead><tr><th>table</th><th>state</th>\
             <th>seats</th><th>players</th><th>waiting for confirmation</th></tr></thead>\n<tbody>\n",
        );
        for t in &p.tables {
            let _ = writeln!(
                h,
                "<tr id=\"table-{name}\"><td>{name}</td><td>{status}</td><td>{summary}<br><small>press: {press}</small></td><td>{players}</td><td>{waiting}</td></tr>",
                name = escape(&t.name),
                status = escape(&t.status),
                summary = escape(&t.summary),
                press = escape(&t.press),
                players = list(&t.seats),
                waiting = t.waiting_confirmation,
            );
        }
        h.push_str("</tbody>\n</table>\n");
    }
}

/// The seats offered for takeover, if any.
fn offers_html(p: &Page, h: &mut String) {
    if !p.offers.is_empty() {
        h.push_str(
            "<h2>Seats offered for takeover</h2>\n<table>\n<thead><tr><th>game</th><th>seat</th>\
             <th>why</th><th>state</th><th>waiting for confirmation</th></tr></thead>\n<tbody>\n",
        );
        for o in &p.offers {
            let _ = writeln!(
                h,
                "<tr id=\"offer-{g}-{pl}\"><td>{g}</td><td>{pl}</td><td>{why}</td><td>{st}</td><td>{n}</td></tr>",
                g = escape(&o.game),
                pl = escape(&o.player),
                why = escape(&o.why),
                st = escape(match o.status.as_str() {
                    "approval" => "confirmed: waiting for herald host approve",
                    s => s,
                }),
                n = o.waiting_confirmation,
            );
        }
        h.push_str("</tbody>\n</table>\n");
    }
}

/// The standby list, and the players on vacation.
fn standby_and_away_html(p: &Page, h: &mut String) {
    let _ = writeln!(
        h,
        "<h2>Standby list</h2>\n<p>{}</p>",
        if p.standby.is_empty() {
            "nobody".to_string()
        } else {
            escape(&p.standby.join(", "))
        }
    );
    if !p.away.is_empty() {
        h.push_str("<h2>Vacations</h2>\n<ul>\n");
        for a in &p.away {
            let _ = writeln!(
                h,
                "<li>{}: {} until {}</li>",
                escape(&a.game),
                escape(&a.player),
                escape(&crate::time::shown(&a.until))
            );
        }
        h.push_str("</ul>\n");
    }
}

/// The addresses the bound on replies held replies back from in the last
/// hour, if any.
fn held_html(p: &Page, h: &mut String) {
    if p.held.addresses.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<h2 class=\"bad\">Replies held back</h2>\n<p>At most {} replies an hour go to one address (host.toml: <code>replies_per_hour</code>), not counting those a right password or code earned; the rest were held back: someone may be sending mail in these addresses' names.</p>\n<ul>",
        p.held.per_hour
    );
    for a in &p.held.addresses {
        let _ = writeln!(
            h,
            "<li class=\"bad\">{}: {} held since {}</li>",
            escape(&a.address),
            a.held,
            escape(
                &chrono::DateTime::from_timestamp(a.since, 0)
                    .map(|t| crate::time::shown(&t.to_rfc3339()))
                    .unwrap_or_default()
            )
        );
    }
    h.push_str("</ul>\n");
}
