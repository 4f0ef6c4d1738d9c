//! Vacation from a game's page (docs/web.md, "Vacation"): away until a
//! day, or back early, through the door (`requests::game::run` with
//! `Command::Vacation` or `Command::Back`), within the game's allowance
//! and its mode (the lobby's record of the game, as by mail). The page
//! shows the words a mail's answer would carry (`host::vacation`,
//! `host::commands`).

use super::gate::{failure, not_yours, now, open_game, rfc3339, seat_of, Gate};
use super::page::esc;
use super::sessions::{csrf_token, token, Who};
use super::signin::{csrf_ok, forbidden, session};
use super::Shared;
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Result};
use crate::names::Name;
use crate::requests::game::{self, Command, Done, Refusal};
use crate::requests::{Carrier, Claim, Door, Requester};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

/// The vacation form of a game's page.
pub fn form(game: &str, csrf: &str, password: bool) -> String {
    let pw = match password {
        true => "<p><label>Your password <input type=\"password\" name=\"password\" autocomplete=\"current-password\"></label></p>\n",
        false => "",
    };
    format!(
        "<section id=\"web-vacation\">\n<h2>Vacation</h2>\n\
         <form method=\"post\" action=\"/games/{g}/vacation\" id=\"web-vacation-form\">\n\
         <input type=\"hidden\" name=\"csrf\" value=\"{c}\">\n{pw}\
         <p><label>Away until <input type=\"date\" name=\"until\" required></label> \
         <button type=\"submit\" name=\"act\" value=\"vacation\">Go on vacation</button> \
         <button type=\"submit\" name=\"act\" value=\"back\" formnovalidate>I am back</button></p>\n</form>\n</section>",
        g = esc(game),
        c = esc(csrf),
    )
}

#[derive(Deserialize)]
pub struct VacationForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    until: String,
    #[serde(default)]
    act: String,
    #[serde(default)]
    password: String,
}

/// `POST /games/{game}/vacation`.
pub async fn send(
    State(app): State<Shared>,
    Path(game): Path<String>,
    headers: HeaderMap,
    Form(f): Form<VacationForm>,
) -> Response {
    let Some((id, who)) = session(&app, &headers) else {
        return forbidden();
    };
    if !csrf_ok(&id, &f.csrf) {
        return forbidden();
    }
    let Ok(game) = Name::new("game", &game) else {
        return not_yours();
    };
    let Some(seat) = seat_of(&app, &who, &game).await else {
        return not_yours();
    };
    let a = app.clone();
    let player = seat.player.clone();
    let done = tokio::task::spawn_blocking(move || ask(&a, &game, &player, &who, &f)).await;
    let (ok, words) = match done {
        Ok(Ok(x)) => x,
        Ok(Err(e)) => return failure(&app, &e),
        Err(e) => return failure(&app, &Error::internal(e)),
    };
    let g = esc(seat.game.as_str());
    Html(super::page::frame(
        "Vacation",
        &format!(
            "{}\n<h1>{}</h1>\n<pre id=\"web-answer\">{}</pre>\n<p><a href=\"/games/{g}\" id=\"web-back\">Back to {g}</a></p>",
            super::page::nav(&csrf_token(&id)),
            if ok { "Done" } else { "Refused" },
            esc(&words)
        ),
    ))
    .into_response()
}

/// The vacation or `back` through the door under the game's lock:
/// whether it was done, and the words.
fn ask(
    app: &Shared,
    game: &Name,
    player: &str,
    who: &Who,
    f: &VacationForm,
) -> Result<(bool, String)> {
    let t = now();
    let now = rfc3339(t);
    let mut w = open_game(app, game, &now)?;
    let gate = Gate::open(app, game, &w, t);
    let record = crate::host::commands::lobby_record(&w);
    let command = match f.act.as_str() {
        "back" => Command::Back,
        _ => Command::Vacation {
            until: f.until.trim().to_string(),
            allowance: record
                .as_ref()
                .map_or(crate::host::lobby::seats::VACATION_DAYS, |r| {
                    r.vacation_days
                }),
            mode: record.as_ref().map(|r| r.vacation).unwrap_or_default(),
        },
    };
    let by = match who {
        Who::Address { address } => Requester::Session {
            address: address.clone(),
        },
        Who::Seat { .. } => Requester::Password {
            player: player.to_string(),
            password: f.password.clone(),
            claim: Claim::default(),
        },
    };
    let request = token();
    let req = game::Request {
        command,
        by,
        carrier: Carrier {
            id: format!("web:{}", &request[..24]),
            digest: sha256_hex(request.as_bytes()),
        },
    };
    let door = Door {
        budget: &gate.budget,
        bound: &gate.bound,
    };
    let out = game::run(&mut w, &door, &req, &now)?;
    gate.close(app, game)?;
    let (ok, words) = match &out.result {
        Ok(Done::Vacation(g)) => (true, crate::host::vacation::granted_text(g)),
        Ok(Done::Back(r)) => (true, crate::host::vacation::returned_text(r)),
        Ok(_) => (true, String::new()),
        Err(Refusal::Vacation(r)) => (false, crate::host::vacation::refusal_text(r, player)),
        Err(r) => (false, crate::host::commands::refusal_text(r, player)),
    };
    if ok {
        crate::host::commands::record_away(&w, player, &now);
    }
    app.log.line(
        "in",
        if ok { "command" } else { "refused" },
        &[
            ("game", game.as_str()),
            ("player", player),
            ("request", &req.carrier.id),
            ("via", "web"),
            ("what", if f.act == "back" { "back" } else { "vacation" }),
        ],
    );
    Ok((ok, words))
}
