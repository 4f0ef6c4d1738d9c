//! A host's gallery: `DIR/gallery/index.html`, the host's finished games,
//! each linking to its replay site in `DIR/gallery/<id>/` (`herald site
//! --host DIR`, and `herald host` after every pass, beside its status
//! page). A site is built once per chain head: a pass that finds a game's
//! site made on its current head leaves it alone. Every path in DIR comes
//! from [`HostDir`]; the files inside a site folder from [`site::files`].

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
        "<p>{} games, each a replay to browse phase by phase and to check in the page.</p>\n<ul class=\"games\">",
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
