//! Press from a game's page (docs/web.md, "Press"): the form's message
//! through the door (`requests::press::run`) under the game's press
//! rules, the host's limits (`press_per_day`, `press_max_bytes`) and the
//! players' mutes; recorded and mailed to each recipient with an address
//! by the door itself, as press by mail is. The page shows the words the
//! mail's acknowledgement or refusal would have (`host::press`). Press
//! the player got is on the page as in the report mail (the report's
//! press section); every text in it escaped by its template.

use super::gate::{now, open_game, rfc3339, seat_of, Gate};
use super::page::esc;
use super::sessions::{csrf_token, token, Who};
use super::signin::{csrf_ok, forbidden, session};
use super::Shared;
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Result};
use crate::names::Name;
use crate::pipeline::press::To;
use crate::requests::press::{self, Asked, Outcome, Press, Request, Shown};
use crate::requests::{Carrier, Claim, Door, Requester};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::Form;

/// What the press form sent: `to` (repeated: players, or `all`), `text`,
/// `anonymous`, `password` (a seat signed in by password), `csrf`.
struct Written {
    csrf: String,
    to: Vec<String>,
    text: String,
    anonymous: bool,
    password: String,
}

fn written(pairs: Vec<(String, String)>) -> Written {
    let mut w = Written {
        csrf: String::new(),
        to: Vec::new(),
        text: String::new(),
        anonymous: false,
        password: String::new(),
    };
    for (k, v) in pairs {
        match k.as_str() {
            "csrf" => w.csrf = v,
            "to" => w.to.push(v.trim().to_ascii_lowercase()),
            "text" => w.text = v,
            "anonymous" => w.anonymous = true,
            "password" => w.password = v,
            _ => {}
        }
    }
    w
}

/// The form that writes press, for a page whose game allows it: the
/// other players to choose from.
pub fn form(game: &str, csrf: &str, others: &[String], password: bool) -> String {
    let boxes: String = std::iter::once("all".to_string())
        .chain(others.iter().cloned())
        .map(|o| {
            format!(
                "<label><input type=\"checkbox\" name=\"to\" value=\"{o}\"> {o}</label> ",
                o = esc(&o)
            )
        })
        .collect();
    let pw = match password {
        true => "<p><label>Your password <input type=\"password\" name=\"password\" autocomplete=\"current-password\"></label></p>\n",
        false => "",
    };
    format!(
        "<section id=\"web-press\">\n<h2>Write press</h2>\n\
         <form method=\"post\" action=\"/games/{g}/press\" id=\"web-press-form\">\n\
         <input type=\"hidden\" name=\"csrf\" value=\"{}\">\n\
         <fieldset><legend>To</legend>{boxes}\
         <label><input type=\"checkbox\" name=\"anonymous\" value=\"1\"> anonymous (where the game allows)</label></fieldset>\n\
         {pw}<textarea name=\"text\" id=\"web-press-text\" spellcheck=\"true\" placeholder=\"Your message\"></textarea>\n\
         <p><button type=\"submit\" id=\"web-press-button\">Send press</button></p>\n</form>\n</section>",
        esc(csrf),
        g = esc(game),
    )
}

/// `POST /games/{game}/press`.
pub async fn send(
    State(app): State<Shared>,
    Path(game): Path<String>,
    headers: HeaderMap,
    Form(pairs): Form<Vec<(String, String)>>,
) -> Response {
    let Some((id, who)) = session(&app, &headers) else {
        return forbidden();
    };
    let f = written(pairs);
    if !csrf_ok(&id, &f.csrf) {
        return forbidden();
    }
    let Ok(game) = Name::new("game", &game) else {
        return super::gate::not_yours();
    };
    let Some(seat) = seat_of(&app, &who, &game).await else {
        return super::gate::not_yours();
    };
    let a = app.clone();
    let player = seat.player.clone();
    let done = tokio::task::spawn_blocking(move || relay(&a, &game, &player, &who, &f)).await;
    let (title, words) = match done {
        Ok(Ok(x)) => x,
        Ok(Err(e)) => return super::gate::failure(&app, &e),
        Err(e) => return super::gate::failure(&app, &Error::internal(e)),
    };
    let g = esc(seat.game.as_str());
    Html(super::page::frame(
        title,
        &format!(
            "{}\n<h1>{title}</h1>\n<pre id=\"web-answer\">{}</pre>\n<p><a href=\"/games/{g}\" id=\"web-back\">Back to {g}</a></p>",
            super::page::nav(&csrf_token(&id)),
            esc(&words)
        ),
    ))
    .into_response()
}

/// The press through the door under the game's lock: the page's title
/// and the words a mail's answer would carry.
fn relay(
    app: &Shared,
    game: &Name,
    player: &str,
    who: &Who,
    f: &Written,
) -> Result<(&'static str, String)> {
    let t = now();
    let now = rfc3339(t);
    let mut w = open_game(app, game, &now)?;
    let gate = Gate::open(app, game, &w, t);
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
    let to = match f.to.iter().any(|t| t == "all") || f.to.is_empty() {
        true => To::All,
        false => To::Players(f.to.clone()),
    };
    let req = Request {
        asked: Asked::Press(Press {
            to: Some(to),
            anonymous: f.anonymous,
            text: crate::pipeline::press::normalise(&f.text),
            refs: Vec::new(),
            subject_n: None,
        }),
        by,
        shown: Shown {
            player: Some(player.to_string()),
            password: None,
        },
        carrier: Carrier {
            id: format!("web:{}", &request[..24]),
            digest: sha256_hex(format!("{request}\0{}", f.text).as_bytes()),
        },
    };
    let door = Door {
        budget: &gate.budget,
        bound: &gate.bound,
    };
    let limits = press::Limits {
        per_day: app.cfg.press_per_day,
        max_bytes: app.cfg.press_max_bytes,
    };
    let game_addr = app.cfg.address.for_game(game.as_str());
    let (check, out) = press::run(&mut w, &door, &req, &now, limits, &game_addr);
    drop(check);
    gate.close(app, game)?;
    let (event, title, words) = match &out {
        Outcome::Relayed(r) => (
            "press",
            "Press sent",
            crate::host::press::acknowledgement(&w, &r.kept, &r.hash, &r.not_mailed),
        ),
        Outcome::Refused(r) => (
            "refused",
            "Press not sent",
            crate::host::press::refusal_text(&w, r, "press"),
        ),
        Outcome::Muted(_) => ("command", "Mutes", String::new()),
    };
    app.log.line(
        "in",
        event,
        &[
            ("game", game.as_str()),
            ("request", &req.carrier.id),
            ("via", "web"),
        ],
    );
    Ok((title, words))
}
