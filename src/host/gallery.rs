//! A host's gallery: `DIR/gallery/index.html`, the host's finished games,
//! each linking to its replay site in `DIR/gallery/<id>/` (`herald site
//! --host DIR`, and `herald host` after every pass, beside its status
//! page). A site is built once per chain head: a pass that finds a game's
//! site made on its current head leaves it alone. Every path in DIR comes
//! from [`HostDir`]; the files inside a site folder from [`site::files`].
//! Beside the index, `ratings.html`: the public players' ratings.

use super::config::PublicMode;
use super::layout::HostDir;
use super::route::list_games;
use crate::board::svg::esc;
use crate::error::{Error, Result};
use crate::pipeline;
use crate::site::{self, build, files, Access, Who};
use crate::store::{limits, write as store_write, GameDir};
use serde_json::Value;
use std::fmt::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// What one run of [`write`] did.
#[derive(Debug, Default)]
pub struct Gallery {
    /// Finished games listed.
    pub games: usize,
    /// Sites built in this run (the others were up to date).
    pub built: Vec<String>,
    /// Games whose site could not be built, and why.
    pub problems: Vec<String>,
}

/// What the gallery lists of one game: its site's marker.
struct Listed {
    id: String,
    marker: Value,
}

/// The first line of a game file, read as JSON: its head record (the
/// rest of the file is not read, so a pass costs little per game).
fn head_of(game_file: &Path) -> Option<Value> {
    use std::io::{BufRead, Read};
    let f = std::fs::File::open(game_file).ok()?;
    let mut first = String::new();
    std::io::BufReader::new(f)
        .take(limits::GAME_FILE)
        .read_line(&mut first)
        .ok()?;
    let v: Value = serde_json::from_str(first.trim_end()).ok()?;
    Some(v["head"].clone())
}

/// Build the sites of the finished games in the host folder `dir` that
/// have none on their current chain head, and write the gallery's index.
///
/// Long (about 75 lines): the folder, then each game's site in turn, then
/// the page.
pub fn write(dir: &Path, mode: PublicMode) -> Result<Gallery> {
    let host = HostDir::at(dir);
    let out = host.gallery();
    if GameDir::at(&out).game_file().exists() {
        return Err(Error::refused(format!(
            "{}: a game's folder; the gallery needs this name: rename the game's folder",
            out.display()
        )));
    }
    if !out.is_dir() {
        std::fs::create_dir_all(&out).map_err(|e| Error::io(&out, e))?;
    }
    // host.toml's public_mode: the moderator's alone unless it says
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(mode.folder()))
        .map_err(|e| Error::io(&out, e))?;
    let mut g = Gallery::default();
    // the games the host runs (misnamed folders are the status page's)
    let (names, _) = list_games(dir);
    let mut listed = Vec::new();
    for name in names {
        let folder = host.game(&name);
        let Some(head) = head_of(&folder.game_file()) else {
            continue;
        };
        if head["outcome"].is_null() || head["id"] != name.as_str() {
            continue;
        }
        let site = host.gallery_site(&name);
        let marker_at = files::marker(&site);
        let marker = std::fs::read_to_string(&marker_at)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok());
        let fresh = marker
            .as_ref()
            .is_some_and(|m| m["chain_head"] == head["log"]["head"] && m["view"] == "everything");
        if !fresh {
            let made = pipeline::open(folder.root()).and_then(|(store, loaded)| {
                // No player's address in the gallery: an older game
                // file's are taken out (format 5) first.
                let loaded = pipeline::convert::publishable(&store, loaded)?;
                let seed = loaded.head().seed.clone().ok_or_else(|| {
                    Error::refused(format!("{name}: over, but its seed is not revealed"))
                })?;
                // Press only where the game's rules reveal it at the end.
                let (press, _) = crate::site::revealed_press(&store, &loaded, Who::Everything)?;
                build(
                    &loaded,
                    &seed,
                    Who::Everything,
                    &site,
                    Access::Private,
                    &press,
                )
            });
            if let Err(e) = made {
                g.problems.push(format!("{name}: {e}"));
                continue;
            }
            g.built.push(name.to_string());
        }
        let Ok(text) = std::fs::read_to_string(&marker_at) else {
            continue;
        };
        if let Ok(marker) = serde_json::from_str::<Value>(&text) {
            given_mode(&site, mode)?;
            listed.push(Listed {
                id: name.to_string(),
                marker,
            });
        }
    }
    g.games = listed.len();
    let page = index(&listed);
    let p = host.gallery_index();
    store_write::atomic_mode(
        &p,
        page.as_bytes(),
        store_write::Durability::Replaceable,
        mode.file(false),
    )?;
    store_write::atomic_mode(
        &out.join("ratings.html"),
        ratings_page(&host).as_bytes(),
        store_write::Durability::Replaceable,
        mode.file(false),
    )?;
    Ok(g)
}

/// A site's folder and the files in it given `mode` (public_mode changed,
/// or a site just built, which `site::build` writes private). Links and
/// anything but plain files and the folder are left alone.
fn given_mode(site: &Path, mode: PublicMode) -> Result<()> {
    let set = |p: &Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).map_err(|e| Error::io(p, e))
    };
    match std::fs::symlink_metadata(site) {
        Ok(m) if m.is_dir() => set(site, mode.folder())?,
        _ => return Ok(()),
    }
    for e in std::fs::read_dir(site).map_err(|e| Error::io(site, e))? {
        let e = e.map_err(|e| Error::io(site, e))?;
        if e.file_type().is_ok_and(|t| t.is_file()) {
            set(&e.path(), mode.file(false))?;
        }
    }
    Ok(())
}

/// The host's one call after each pass: the gallery written, its problems
/// added to the host's.
pub fn after_pass(dir: &Path, mode: PublicMode, host_problems: &mut Vec<String>) {
    match write(dir, mode) {
        Ok(g) => host_problems.extend(g.problems.into_iter().map(|p| format!("the gallery: {p}"))),
        Err(e) => host_problems.push(format!("the gallery: {e}")),
    }
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or("")
}

/// The gallery's page: one line per finished game.
fn index(listed: &[Listed]) -> String {
    let mut h = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Finished games</title>\n<style>\n",
    );
    h.push_str(site::files::CSS);
    h.push_str("</style>\n</head>\n<body class=\"gallery\">\n<main>\n<h1>Finished games</h1>\n");
    let _ = writeln!(
        h,
        "<p>{} games, each a replay to browse phase by phase and to check in the page. <a href=\"ratings.html\">Ratings</a></p>\n<ul class=\"games\">",
        listed.len()
    );
    for l in listed {
        let m = &l.marker;
        let players: Vec<&str> = m["players"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let _ = writeln!(
            h,
            "<li id=\"game-{id}\"><a href=\"{id}/index.html\"><strong>{title}</strong> {id}</a><br>{players}<br>{outcome}<br><small>{created} – {last}</small></li>",
            id = esc(&l.id),
            title = esc(s(m, "title")),
            players = esc(&players.join(", ")),
            outcome = esc(s(m, "outcome")),
            created = esc(s(m, "created")),
            last = esc(m["last"].as_str().unwrap_or("")),
        );
    }
    h.push_str("</ul>\n</main>\n</body>\n</html>\n");
    h
}

/// Each address (lowercase) that chose `public` with the display name it
/// gave: the latest choice of the address wins, over its joins of the
/// lobby's tables and its takeovers of seats (a player who joined public
/// once and privately since is private now). An address never seated by
/// the lobby is not public.
pub fn public_names(host: &HostDir) -> std::collections::BTreeMap<String, String> {
    let (tables, _) = super::lobby::all(host);
    let mut choices: Vec<super::lobby::Seat> = tables.into_iter().flat_map(|t| t.seats).collect();
    for g in super::lobby::seats::all(host) {
        choices.extend(g.offers.into_iter().filter_map(|o| o.taker));
    }
    choices.sort_by(|a, b| {
        let at =
            |s: &super::lobby::Seat| crate::time::parse_time(&s.at).map(|t| t.timestamp()).ok();
        at(a).cmp(&at(b)).then_with(|| a.at.cmp(&b.at))
    });
    let mut names = std::collections::BTreeMap::new();
    for s in choices {
        let a = s.address.to_ascii_lowercase();
        if s.public {
            let name = s.name.clone().unwrap_or_else(|| s.address.clone());
            names.insert(a, name);
        } else {
            names.remove(&a);
        }
    }
    names
}

/// A pool's standings, best first (rating, then address: one fixed order).
fn ranked(
    pool: &std::collections::BTreeMap<String, crate::community::ratings::Standing>,
) -> Vec<(&String, &crate::community::ratings::Standing)> {
    let mut v: Vec<_> = pool.iter().collect();
    v.sort_by(|a, b| b.1.points().cmp(&a.1.points()).then_with(|| a.0.cmp(b.0)));
    v
}

/// `herald host ratings DIR [--ruleset RULESET]`: every rated address of the host,
/// per pool, with the name it gave the lobby (the moderator's view: it
/// holds addresses).
pub fn ratings_text(dir: &Path, game: Option<&str>) -> Result<String> {
    if !dir.is_dir() {
        return Err(Error::refused(format!(
            "{}: not a folder; give the host folder",
            dir.display()
        )));
    }
    let host = HostDir::at(dir);
    let games = crate::community::ratings::games_of_host(dir);
    let count = games.len();
    let ratings = crate::community::ratings::rate(games);
    let names = public_names(&host);
    let mut out = format!(
        "ratings from {count} finished game{} (Glicko-2: rating ± deviation; docs/host.md, \"Ratings\")\n",
        if count == 1 { "" } else { "s" }
    );
    let mut shown = 0;
    for (pool, standings) in &ratings {
        if game.is_some_and(|g| pool.split(' ').next() != Some(g)) {
            continue;
        }
        shown += 1;
        let _ = writeln!(out, "\n{pool}");
        for (i, (address, s)) in ranked(standings).into_iter().enumerate() {
            let public = match names.get(address.as_str()) {
                Some(n) => format!(" ({n}, public)"),
                None => String::new(),
            };
            let _ = writeln!(out, "  {:>2}. {} {address}{public}", i + 1, s.shown());
        }
    }
    if shown == 0 {
        let _ = writeln!(
            out,
            "\nno rated game{} yet",
            game.map(|g| format!(" of {g}")).unwrap_or_default()
        );
    }
    Ok(out)
}

/// `gallery/ratings.html`: each pool's ratings of the players who chose
/// `public`, by the name they gave; nobody else's rating, and no address.
pub fn ratings_page(host: &HostDir) -> String {
    let ratings = crate::community::ratings::of_host(host.root());
    let names = public_names(host);
    let mut h = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Ratings</title>\n<style>\n",
    );
    h.push_str(site::files::CSS);
    // A table as wide as its figures (a 72rem row of four short columns
    // spread the player and the rating a screen apart), the figures
    // right-aligned in even digits so that ratings compare at a glance.
    h.push_str(
        "table.ratings { width: auto; min-width: min(100%, 22rem); }\n\
         table.ratings td.n, table.ratings th.n { text-align: right; font-variant-numeric: tabular-nums; }\n",
    );
    h.push_str(
        "</style>\n</head>\n<body class=\"gallery\">\n<main>\n<h1>Ratings</h1>\n\
         <p>Glicko-2 ratings from this host's finished games, per game and the options that change it: \
         the rating, and ± its deviation (the smaller, the surer). Only players who chose to be public are listed. \
         <a href=\"index.html\">Finished games</a></p>\n",
    );
    let mut any = false;
    for (pool, standings) in &ratings {
        let rows: Vec<_> = ranked(standings)
            .into_iter()
            .filter_map(|(a, s)| names.get(a.as_str()).map(|n| (n, s)))
            .collect();
        if rows.is_empty() {
            continue;
        }
        any = true;
        // The game by its title, the options that make the pool beside it
        // ("Norse Wars fog=true"), and the pool's id for the moderator's
        // `herald host ratings`.
        let (game, options) = pool.split_once(' ').unwrap_or((pool, ""));
        // (A title's scenario, "HEXWAR: Copper Pass", is the default
        // setup's; a pool of another setup names its own beside it.)
        let title = crate::games::find(game).map_or(game, |e| {
            e.title.split(':').next().unwrap_or(e.title).trim()
        });
        let _ = writeln!(
            h,
            "<h2 id=\"{}\">{}{}</h2>\n<table class=\"ratings\">\n<thead><tr><th class=\"n\">#</th><th>player</th><th class=\"n\">rating</th><th class=\"n\">games</th></tr></thead>\n<tbody>",
            esc(&pool.replace([' ', '='], "-")),
            esc(title),
            match options {
                "" => String::new(),
                o => format!(" <span class=\"id\">{}</span>", esc(o)),
            }
        );
        for (i, (n, s)) in rows.into_iter().enumerate() {
            let _ = writeln!(
                h,
                "<tr><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{} ± {}</td><td class=\"n\">{}</td></tr>",
                i + 1,
                esc(n),
                s.points(),
                s.rating.deviation.round() as i64,
                s.games
            );
        }
        h.push_str("</tbody>\n</table>\n");
    }
    if !any {
        h.push_str("<p>No public player has a rated game yet.</p>\n");
    }
    h.push_str("</main>\n</body>\n</html>\n");
    h
}
