//! "My games": the seats a signed-in player holds across the host. An
//! address proven by a sign-in link holds every seat whose address (kept
//! in each game's secrets, `pipeline::Loaded::address`) is it; a game's
//! password holds its one seat. The lookup is the web's own for now (the
//! door's lobby work will give one shared with the mail host).

use super::gate::{is_moderator, seats_for, Seat};
use super::sessions::Who;
use super::signin::session;
use super::Shared;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};

/// `GET /`: the sign-in page, or the signed-in player's games.
pub async fn home(State(app): State<Shared>, headers: HeaderMap) -> Response {
    let Some((id, who)) = session(&app, &headers) else {
        return Html(super::page::sign_in(&app.cfg.address.plain())).into_response();
    };
    let dir = app.dir.clone();
    let w = who.clone();
    let (seats, own) = tokio::task::spawn_blocking(move || {
        let own = match &w {
            Who::Address { address } => Some(crate::community::own(&dir, address)),
            Who::Seat { .. } => None,
        };
        (seats_for(&dir, &w), own)
    })
    .await
    .unwrap_or_default();
    let moderator = is_moderator(&app, &who);
    Html(list(
        &seats,
        &who,
        &super::sessions::csrf_token(&id),
        moderator,
        own.as_ref(),
    ))
    .into_response()
}

/// The signed-in address's own reliability and ratings, as its `me`
/// reply by mail gives them (`community::own`, the same reading); a
/// session signed in by a game's password holds one seat, not an
/// address, and is told how to see them.
fn figures(own: Option<&crate::community::Own>) -> String {
    use super::page::esc;
    let Some(own) = own else {
        return "<section id=\"web-figures\">\n<h2>Reliability and ratings</h2>\n<p class=\"hint\">They are kept per mail address, and this session holds one seat by its password: sign in with a link mailed to your address to see yours (or mail `me` to the host).</p>\n</section>".into();
    };
    let ratings = match own.ratings.is_empty() {
        true => "<p id=\"web-ratings\">No rating yet: a rating comes with your first finished game here against another player (a bot's seat is not rated); until then a table's rating range counts you as 1500.</p>".to_string(),
        false => format!(
            "<p>Ratings (Glicko-2 from this host's finished games, one per game and options; rating ± RD, and rating ± 2 RD is the 95% interval):</p>\n<ul id=\"web-ratings\">\n{}</ul>",
            own.ratings
                .iter()
                .map(|(pool, r)| format!("<li>{}: {}</li>\n", esc(pool), esc(&r.shown())))
                .collect::<String>()
        ),
    };
    format!(
        "<section id=\"web-figures\">\n<h2>Reliability and ratings</h2>\n\
         <p>Reliability across this host's games: <span id=\"web-reliability\">{}</span></p>\n\
         <p class=\"hint\">Phases with your orders in, over the phases you held a seat that awaited orders; phases a stand-in played while you were away on vacation count neither way.</p>\n\
         {ratings}\n<p class=\"hint\">Only you see these figures here; the gallery's ratings page shows a rating by name only for a player who joined a table `public`.</p>\n</section>",
        esc(&own.reliability.shown())
    )
}

fn list(
    seats: &[Seat],
    who: &Who,
    csrf: &str,
    moderator: bool,
    own: Option<&crate::community::Own>,
) -> String {
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
            "{}\n<h1>My games</h1>\n<p class=\"hint\">{whom}</p>\n{status}\n{body}\n{}",
            super::page::nav(csrf),
            figures(own)
        ),
    )
}
