//! A game's page for one of its players and the orders sent from it
//! (docs/web.md, "The game page"; its live events: [`super::events`]).
//!
//! The page is the report the player's mail carries (the game folder's
//! `reports/turn-N/<player>.html`: the board, the tap composer, the
//! report's words), with the server's parts set in: the bar to sign out,
//! the turn's state (the deadline, who has sent orders, never what), and
//! a form that sends the composed order file. Orders go through the door
//! (`requests::orders::submit`) as a mail's do, with the game's lock, its
//! budget of password checks and the host's bound on replies: the same
//! checks, the same receipt, the same words, which the page shows and
//! the host mails too when the player asks.

use super::gate::{failure, not_yours, now, open_game, rfc3339, seat_of, with_csp, Gate, Seat};
use super::page::esc;
use super::sessions::{csrf_token, token, Who};
use super::signin::{csrf_ok, forbidden, session};
use super::Shared;
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Result};
use crate::host::layout::HostDir;
use crate::names::Name;
use crate::pipeline::inbox::{self, Fate, Submission};
use crate::requests::orders::{self, Orders};
use crate::requests::{Answer, Carrier, Claim, Door, Requester};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;

/// `GET /games/{game}`: the player's page of the game.
pub async fn page(
    State(app): State<Shared>,
    Path(game): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Some((id, who)) = session(&app, &headers) else {
        return Redirect::to("/").into_response();
    };
    let Ok(game) = Name::new("game", &game) else {
        return not_yours();
    };
    let Some(seat) = seat_of(&app, &who, &game).await else {
        return not_yours();
    };
    let a = app.clone();
    let csrf = csrf_token(&id);
    let made = tokio::task::spawn_blocking(move || game_page(&a, &seat, &who, &csrf)).await;
    match made {
        Ok(Ok(html)) => with_csp(html),
        Ok(Err(e)) => failure(&app, &e),
        Err(e) => failure(&app, &Error::internal(e)),
    }
}

/// The turn's state as the page shows it: the deadline, who has sent
/// orders (never what), whose are awaited.
pub fn status_html(dir: &std::path::Path, seat: &Seat) -> Result<String> {
    let root = HostDir::at(dir).game(&seat.game).root().to_path_buf();
    let (store, g) = crate::pipeline::open(&root)?;
    let h = g.head();
    let sent: Vec<String> = crate::store::orders::waiting(&store.dir, h.turn)?
        .into_iter()
        .map(|s| s.player)
        .collect();
    let awaited: Vec<String> = g
        .rules
        .awaiting(&g.state)
        .into_iter()
        .map(|s| h.players[s].id.clone())
        .filter(|p| !sent.contains(p))
        .collect();
    let list = |v: &[String]| {
        if v.is_empty() {
            "no one".to_string()
        } else {
            esc(&v.join(", "))
        }
    };
    let deadline = match &h.deadline {
        Some(d) => format!(
            "<p>Deadline: <time id=\"web-deadline\" datetime=\"{}\">{}</time></p>",
            esc(d),
            esc(&crate::time::shown(d))
        ),
        None => "<p>No deadline.</p>".into(),
    };
    let over = match g.summary().2 {
        Some(_) => "<p><strong>The game is over.</strong></p>",
        None => "",
    };
    Ok(format!(
        "<section id=\"web-status\" data-turn=\"{turn}\">\n<h2>Turn {turn}</h2>\n{over}{deadline}\n\
         <p>Orders sent by: <span id=\"web-sent\">{}</span>. Awaited from: <span id=\"web-awaited\">{}</span>.</p>\n</section>",
        list(&sent),
        list(&awaited),
        turn = h.turn,
    ))
}

/// The game page: the report of the player's current turn with the
/// server's parts set in.
///
/// Long (about 100 lines): the page's parts in the order they stand (the
/// report with its press, the turn's state, the forms), each a step.
fn game_page(app: &Shared, seat: &Seat, who: &Who, csrf: &str) -> Result<String> {
    let dir = HostDir::at(&app.dir).game(&seat.game);
    let player = Name::new("player", &seat.player).map_err(Error::refused)?;
    let stored = (0..=seat.turn)
        .rev()
        .map(|t| dir.report(t, &player, "html"))
        .find(|p| p.exists())
        .map(|p| std::fs::read_to_string(&p).map_err(|e| Error::io(&p, e)))
        .transpose()?;
    let (store, loaded) = crate::pipeline::open(dir.root())?;
    let at = loaded
        .head()
        .player_index(&seat.player)
        .ok_or_else(|| Error::refused(format!("{}: no player {}", seat.game, seat.player)))?;
    // The press the player got, as the report mail shows it.
    let report = match stored {
        Some(html) => {
            let mut r = crate::report::Rendered {
                text: String::new(),
                json: String::new(),
                svg: String::new(),
                html,
                press: String::new(),
            };
            if store.dir.press().is_dir() {
                crate::pipeline::press::fill_report(&store, &loaded, at, &mut r)?;
            }
            Some(r.html)
        }
        None => None,
    };
    let rules = crate::pipeline::press::rules_of(&store, &loaded)?;
    let press_open = rules.kind != "none" && (!seat.over || rules.after_end);
    let press = match press_open {
        true => {
            let others: Vec<String> = loaded
                .head()
                .player_ids()
                .into_iter()
                .filter(|p| *p != seat.player)
                .collect();
            super::press::form(
                seat.game.as_str(),
                csrf,
                &others,
                matches!(who, Who::Seat { .. }),
            )
        }
        false => String::new(),
    };
    let away = match seat.over {
        true => String::new(),
        false => super::vacation::form(seat.game.as_str(), csrf, matches!(who, Who::Seat { .. })),
    };
    let ending = super::ending::section(
        &loaded,
        &seat.player,
        csrf,
        matches!(who, Who::Seat { .. }),
        &rfc3339(super::gate::now()),
    );
    let status = status_html(&app.dir, seat)?;
    let g = esc(seat.game.as_str());
    let send = if seat.due && !seat.over {
        format!(
            "<section id=\"web-send\">\n<h2>Send your orders</h2>\n\
             <form method=\"post\" action=\"/games/{g}/orders\" id=\"web-send-form\">\n\
             <input type=\"hidden\" name=\"csrf\" value=\"{}\">\n\
             <textarea name=\"file\" id=\"web-file\" spellcheck=\"false\" placeholder=\"The composer above fills this in as you tap; or paste an order file.\"></textarea>\n\
             <p><label><input type=\"checkbox\" name=\"mail\" value=\"1\"> Mail me the answer too</label></p>\n\
             <p><button type=\"submit\" id=\"web-send-button\">Send these orders</button></p>\n</form>\n</section>",
            esc(csrf)
        )
    } else {
        String::new()
    };
    let parts = format!(
        "<div id=\"web-parts\" data-events=\"/games/{g}/events\" data-password=\"{}\">\n{status}\n{send}\n{press}\n{away}\n{ending}\n</div>",
        if matches!(who, Who::Seat { .. }) { "yes" } else { "no" }
    );
    let nav = super::page::nav(csrf);
    let Some(report) = report else {
        return Ok(super::page::frame(
            &format!("{} {}", seat.title, seat.game),
            &format!(
                "{nav}\n<h1>{} {g}</h1>\n{parts}\n<script src=\"/static/web.js\"></script>",
                esc(&seat.title)
            ),
        ));
    };
    let mut html = report.replacen("<body>", &format!("<body>\n{nav}"), 1);
    html = match html.find("<!--herald:press-->") {
        Some(at) => format!("{}{parts}\n{}", &html[..at], &html[at..]),
        None => html.replacen("<body>", &format!("<body>\n{parts}"), 1),
    };
    if let Some(at) = html.rfind("</body>") {
        html.insert_str(at, "<script src=\"/static/web.js\"></script>\n");
    }
    Ok(html)
}

#[derive(Deserialize)]
pub struct OrdersForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    file: String,
    #[serde(default)]
    mail: Option<String>,
}

/// `POST /games/{game}/orders`: the order file through the door; the
/// answer shown (and mailed, if asked).
pub async fn orders(
    State(app): State<Shared>,
    Path(game): Path<String>,
    headers: HeaderMap,
    Form(f): Form<OrdersForm>,
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
    let mail = f.mail.is_some();
    let done =
        tokio::task::spawn_blocking(move || send_orders(&a, &seat, &who, &f.file, mail)).await;
    match done {
        Ok(Ok(sent)) => {
            let g = esc(game.as_str());
            Html(super::page::frame(
                "Your orders",
                &format!(
                    "{}\n<h1>{}</h1>\n<pre id=\"web-answer\">{}</pre>\n<p><a href=\"/games/{g}\" id=\"web-back\">Back to {g}</a></p>",
                    super::page::nav(&csrf_token(&id)),
                    if sent.accepted { "Orders accepted" } else { "Orders not accepted" },
                    esc(&sent.words)
                ),
            ))
            .into_response()
        }
        Ok(Err(e)) => failure(&app, &e),
        Err(e) => failure(&app, &Error::internal(e)),
    }
}

/// What orders sent from the page came to.
pub struct Sent {
    pub accepted: bool,
    /// The answer's words: a mail's, byte for byte.
    pub words: String,
}

/// Orders from the page of `seat` through the door, under the game's
/// lock: judged as a mail's (a session proves its address's seats; a
/// seat signed in by password has its order file's password checked as
/// a mail's), the orders kept, then the answer queued to the player's
/// address if `mail`, the request logged (no address).
///
/// Long (about 85 lines): the request made, judged, kept, answered and
/// logged, each a step in the order a crash must meet them.
pub fn send_orders(app: &Shared, seat: &Seat, who: &Who, text: &str, mail: bool) -> Result<Sent> {
    let t = now();
    let now = rfc3339(t);
    let mut w = open_game(app, &seat.game, &now)?;
    let gate = Gate::open(app, &seat.game, &w, t);
    let address = w.game.address(&seat.player).unwrap_or_default().to_string();
    let by = match who {
        Who::Address { address } => Requester::Session {
            address: address.clone(),
        },
        Who::Seat { .. } => Requester::Anyone(Claim::default()),
    };
    let request = token();
    let carrier = Carrier {
        id: format!("web:{}", &request[..24]),
        digest: sha256_hex(format!("{request}\0{text}").as_bytes()),
    };
    let sub = Submission {
        text: text.to_string(),
        label: format!("the page of {} ({})", seat.player, crate::time::shown(&now)),
        place: "the order box".into(),
        outside: Vec::new(),
        sent: now.clone(),
        from: address.clone(),
        message_id: carrier.id.clone(),
        digest: carrier.digest.clone(),
    };
    let req = Orders {
        file: Ok(sub),
        by,
        carrier: carrier.clone(),
    };
    let door = Door {
        budget: &gate.budget,
        bound: &gate.bound,
    };
    let mut out = orders::submit(&w, &door, &req, &now)?;
    let words = inbox::reply_words(&w, &out.ruling, Some(crate::host::commands::HELP));
    // The orders kept first, then the answer queued: a POST is never
    // taken again as a mail is after a crash, so a server killed between
    // the two must leave kept orders without their mail (the page shows
    // them sent), never a mail that says ACCEPTED for orders not kept.
    inbox::keep_or_take_back(&mut w, out.take_keep(), None)?;
    let reply = match (mail, out.answer) {
        (true, Answer::Tell) if !address.is_empty() => inbox::queue_reply(
            &w,
            inbox::Reply {
                to: &address,
                subject: None,
                in_reply_to: &carrier.id,
                digest: &carrier.digest,
                text: words.clone(),
                now: &now,
                from: Some(&app.cfg.address.for_game(seat.game.as_str())),
            },
        )
        .map_err(|e| {
            let what = [("what", "answer mail"), ("error", &e.to_string() as &str)];
            app.log.line("web", "failure", &what);
        })
        .ok(),
        _ => None,
    };
    gate.close(app, &seat.game)?;
    let (event, accepted) = match &out.ruling.fate {
        Fate::Accepted { .. } => ("accepted", true),
        Fate::Throttled { .. } => ("throttled", false),
        _ => ("refused", false),
    };
    app.log.line(
        "in",
        event,
        &[
            ("game", seat.game.as_str()),
            ("player", &seat.player),
            ("request", &carrier.id),
            ("via", "web"),
            ("mailed", if reply.is_some() { "yes" } else { "no" }),
        ],
    );
    Ok(Sent { accepted, words })
}
