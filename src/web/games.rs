//! "My games": the seats a signed-in player holds across the host. An
//! address proven by a sign-in link holds every seat whose address (kept
//! in each game's secrets, `pipeline::Loaded::address`) is it; a game's
//! password holds its one seat. The lookup is the web's own for now (the
//! door's lobby work will give one shared with the mail host).

use super::sessions::Who;
use super::signin::session;
use super::Shared;
use crate::host::layout::HostDir;
use crate::names::Name;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use std::path::Path;

/// One seat of a player, as the list shows it.
#[derive(Debug, Clone)]
pub struct Seat {
    pub game: Name,
    pub player: String,
    pub title: String,
    pub turn: u32,
    pub deadline: Option<String>,
    /// The player's orders are awaited now.
    pub due: bool,
    /// Orders of the player's are stored for this turn.
    pub sent: bool,
    pub over: bool,
}

/// Every seat of the host's games whose address is `address`.
pub fn seats_of(dir: &Path, address: &str) -> Vec<Seat> {
    let (games, _) = crate::host::route::list_games(dir);
    let mut out = Vec::new();
    for g in games {
        let root = HostDir::at(dir).game(&g).root().to_path_buf();
        let Ok((store, loaded)) = crate::pipeline::open(&root) else {
            continue;
        };
        for (seat, p) in loaded.head().players.iter().enumerate() {
            if p.email
                .as_deref()
                .is_some_and(|e| e.trim().eq_ignore_ascii_case(address.trim()))
            {
                out.push(seat_of(&g, &store, &loaded, seat));
            }
        }
    }
    out
}

/// The seat `player` of `game`, if the host has that game and player.
pub fn seat(dir: &Path, game: &Name, player: &str) -> Option<Seat> {
    let (games, _) = crate::host::route::list_games(dir);
    let g = games.into_iter().find(|g| g == game)?;
    let root = HostDir::at(dir).game(&g).root().to_path_buf();
    let (store, loaded) = crate::pipeline::open(&root).ok()?;
    let seat = loaded.head().player_index(player)?;
    Some(seat_of(&g, &store, &loaded, seat))
}

/// The seats a session acts for.
pub fn seats_for(dir: &Path, who: &Who) -> Vec<Seat> {
    match who {
        Who::Address { address } => seats_of(dir, address),
        Who::Seat { game, player } => Name::new("game", game)
            .ok()
            .and_then(|g| seat(dir, &g, player))
            .into_iter()
            .collect(),
    }
}

fn seat_of(
    game: &Name,
    store: &crate::store::Store,
    loaded: &crate::pipeline::Loaded,
    seat: usize,
) -> Seat {
    let h = loaded.head();
    let player = h.players[seat].id.clone();
    let awaited = loaded.rules.awaiting(&loaded.state);
    let sent = crate::store::orders::waiting(&store.dir, h.turn)
        .map(|w| w.iter().any(|s| s.player == player))
        .unwrap_or(false);
    Seat {
        game: game.clone(),
        title: loaded.entry.title.to_string(),
        turn: h.turn,
        deadline: h.deadline.clone(),
        due: awaited.contains(&seat),
        sent,
        over: loaded.summary().2.is_some(),
        player,
    }
}

/// `GET /`: the sign-in page, or the signed-in player's games.
pub async fn home(State(app): State<Shared>, headers: HeaderMap) -> Response {
    let Some((id, who)) = session(&app, &headers) else {
        return Html(super::page::sign_in(&app.cfg.address.plain())).into_response();
    };
    let dir = app.dir.clone();
    let w = who.clone();
    let seats = tokio::task::spawn_blocking(move || seats_for(&dir, &w))
        .await
        .unwrap_or_default();
    let moderator = super::moderator::is_moderator(&app, &who);
    Html(list(
        &seats,
        &who,
        &super::sessions::csrf_token(&id),
        moderator,
    ))
    .into_response()
}

fn list(seats: &[Seat], who: &Who, csrf: &str, moderator: bool) -> String {
    use super::page::esc;
    let mut rows = String::new();
    for s in seats {
        let state = match (s.over, s.due, s.sent) {
            (true, _, _) => "over",
            (false, true, true) => "orders sent",
            (false, true, false) => "your orders are awaited",
            (false, false, _) => "waiting for others",
        };
        rows.push_str(&format!(
            "<tr><td><a href=\"/games/{g}\">{g}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            esc(&s.title),
            esc(&s.player),
            s.turn,
            esc(&s.deadline.as_deref().map(crate::time::shown).unwrap_or_else(|| "none".into())),
            state,
            g = esc(s.game.as_str()),
        ));
    }
    let whom = match who {
        Who::Address { address } => format!("signed in as {}", esc(address)),
        Who::Seat { game, player } => format!("signed in as {} of {}", esc(player), esc(game)),
    };
    let body = if seats.is_empty() {
        "<p>No game here holds a seat of yours now.</p>".to_string()
    } else {
        format!(
            "<table id=\"web-games\"><tr><th>Game</th><th>Rules</th><th>You</th><th>Turn</th><th>Deadline</th><th>State</th></tr>\n{rows}</table>"
        )
    };
    let status = match moderator {
        true => "<p><a href=\"/moderator\" id=\"web-moderator\">The host's status page</a> (you are its moderator)</p>",
        false => "",
    };
    super::page::frame(
        "My games",
        &format!(
            "{}\n<h1>My games</h1>\n<p class=\"hint\">{whom}</p>\n{status}\n{body}",
            super::page::nav(csrf)
        ),
    )
}
