//! Resign and draw from a game's page (docs/web.md, "Resign and draw";
//! docs/host.md, "Resign and draw"): the same requests as the mail's
//! `resign`, `offer draw`, `accept draw` and `decline draw`, through the
//! door (`requests::game::run` with `Command::Resign` or `Command::Draw`),
//! the other players told by mail at once as by mail
//! (`host::commands::tell_others`), the same log line. The page shows the
//! offer that stands and who agreed to it, and only the buttons the rules
//! would take from this player now (each tried against
//! `pipeline::ending`'s own rules); a resignation needs its box ticked,
//! so a tap alone never ends a game. Refusals are worded for the page:
//! the button to press where the mail's words give the line to send.

use super::gate::{failure, not_yours, now, open_game, rfc3339, seat_of, Gate};
use super::page::esc;
use super::sessions::{csrf_token, token, Who};
use super::signin::{csrf_ok, forbidden, session};
use super::Shared;
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Result};
use crate::names::Name;
use crate::pipeline::ending::{self, Act, Refusal as Why};
use crate::pipeline::Loaded;
use crate::requests::game::{self, Command, Done, Refusal};
use crate::requests::{Carrier, Claim, Door, Requester};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::Form;
use serde::Deserialize;

/// The game's own word for giving up where its mail takes one beside
/// `resign` (The Unfought Battle's `concede`): the page's button says it.
fn own_word(game: &str) -> Option<&'static str> {
    (game == "unfought-battle").then_some("concede")
}

/// The section of a game's page for `player` at `now`: the draw offer
/// standing and who agreed, and the forms that apply now; empty once the
/// game is over or the player is out of it.
pub fn section(g: &Loaded, player: &str, csrf: &str, password: bool, now: &str) -> String {
    if g.head().outcome.is_some() || !ending::still_in(g).iter().any(|p| p == player) {
        return String::new();
    }
    let game = esc(&g.head().id);
    let pw = match password {
        true => "<p><label>Your password <input type=\"password\" name=\"password\" autocomplete=\"current-password\" required></label></p>\n",
        false => "",
    };
    let offer = match ending::standing(g) {
        Some(agreed) => format!(
            "<p id=\"web-draw-standing\">{} offered a draw; agreed so far: {}. It is agreed when every player still in ({}) accepts, and lapses at the next turn resolved.</p>\n",
            esc(&agreed[0]),
            esc(&agreed.join(", ")),
            esc(&ending::still_in(g).join(", "))
        ),
        None => "<p id=\"web-draw-standing\" class=\"hint\">No draw is offered.</p>\n".into(),
    };
    let mut draw = String::new();
    for act in Act::ALL {
        if ending::draw_body(g, player, act, now).is_err() {
            continue;
        }
        let label = match act {
            Act::Offer => "Offer a draw",
            Act::Accept => "Accept the draw",
            Act::Decline if ending::standing(g).is_some_and(|a| a[0] == player) => {
                "Withdraw my offer"
            }
            Act::Decline => "Decline the draw",
        };
        draw.push_str(&format!(
            "<button type=\"submit\" name=\"act\" value=\"{}\" id=\"web-draw-{}\">{label}</button> ",
            act.name(),
            act.name()
        ));
    }
    let draw = match draw.is_empty() {
        // No draw to ask: say why when it is a bot seat still in.
        true => match ending::draw_body(g, player, Act::Offer, now) {
            Err(r @ Why::BotIn { .. }) => {
                format!("<p class=\"hint\">{}</p>\n", esc(&refusal(&r, player)))
            }
            _ => String::new(),
        },
        false => format!(
            "<form method=\"post\" action=\"/games/{game}/ending\" id=\"web-draw-form\">\n\
             <input type=\"hidden\" name=\"csrf\" value=\"{c}\">\n{pw}<p>{}</p>\n</form>\n",
            draw.trim_end(),
            c = esc(csrf)
        ),
    };
    let word = own_word(&g.entry.name).unwrap_or("resign");
    let resign = match ending::resign_body(g, player, now) {
        Ok(_) => format!(
            "<form method=\"post\" action=\"/games/{game}/ending\" id=\"web-resign-form\">\n\
             <input type=\"hidden\" name=\"csrf\" value=\"{c}\">\n{pw}\
             <p><label><input type=\"checkbox\" name=\"confirm\" value=\"yes\" required id=\"web-resign-confirm\"> Yes, I give up this game now</label> \
             <button type=\"submit\" name=\"act\" value=\"{word}\" id=\"web-resign\">{}</button></p>\n</form>\n",
            if word == "concede" { "Concede" } else { "Resign" },
            c = esc(csrf)
        ),
        Err(r) => format!("<p class=\"hint\">{}</p>\n", esc(&refusal(&r, player))),
    };
    format!("<section id=\"web-ending\">\n<h2>Resign or draw</h2>\n{offer}{draw}{resign}</section>")
}

#[derive(Deserialize)]
pub struct EndingForm {
    #[serde(default)]
    csrf: String,
    /// `resign` (or the game's own word), `offer`, `accept`, `decline`.
    #[serde(default)]
    act: String,
    /// The resignation's box: `yes` when ticked.
    #[serde(default)]
    confirm: String,
    #[serde(default)]
    password: String,
}

/// `POST /games/{game}/ending`.
pub async fn send(
    State(app): State<Shared>,
    Path(game): Path<String>,
    headers: HeaderMap,
    Form(f): Form<EndingForm>,
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
        "Resign or draw",
        &format!(
            "{}\n<h1>{}</h1>\n<pre id=\"web-answer\">{}</pre>\n<p><a href=\"/games/{g}\" id=\"web-back\">Back to {g}</a></p>",
            super::page::nav(&csrf_token(&id)),
            if ok { "Done" } else { "Not done" },
            esc(&words)
        ),
    ))
    .into_response()
}

/// The mail's command for the form's act (its words for the log), or
/// why the form asks nothing the door takes.
fn command_of(f: &EndingForm, player: &str) -> std::result::Result<Command, String> {
    let act = f.act.trim().to_ascii_lowercase();
    match act.as_str() {
        "resign" | "concede" if f.confirm == "yes" => Ok(Command::Resign),
        "resign" | "concede" => Err(
            "to resign, tick \"Yes, I give up this game now\" beside the button: nothing was done"
                .into(),
        ),
        _ => match Act::parse(&act) {
            Some(act) => Ok(Command::Draw { act }),
            None => Err(format!(
                "the page asks `resign`, or `offer`, `accept` or `decline` a draw, for {player}: nothing was done"
            )),
        },
    }
}

/// The mail's words for the command (`resign black`, `offer draw
/// white`), made by the mail's own `describe`: the log says the same.
fn described(command: &Command, player: &str) -> String {
    match command {
        Command::Draw { act } => crate::host::commands::Command::Draw {
            act: *act,
            player: player.into(),
            password: String::new(),
        },
        _ => crate::host::commands::Command::Resign {
            player: player.into(),
            password: String::new(),
        },
    }
    .describe()
}

/// The request through the door under the game's lock; the others told
/// at once; the log line the mail's would be. Whether it was done, and
/// the words.
fn ask(
    app: &Shared,
    game: &Name,
    player: &str,
    who: &Who,
    f: &EndingForm,
) -> Result<(bool, String)> {
    let command = match command_of(f, player) {
        Ok(c) => c,
        Err(why) => return Ok((false, why)),
    };
    let described = described(&command, player);
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
    if let Ok(Done::Ending { player, told, .. }) = &out.result {
        crate::host::commands::tell_others(
            &w,
            player,
            &described,
            told,
            &now,
            &app.cfg.address.for_game(game.as_str()),
        )?;
    }
    gate.close(app, game)?;
    let throttled = matches!(out.result, Err(Refusal::Throttled { .. }));
    let (ok, words, what) = match &out.result {
        Ok(Done::Ending { told, .. }) => (true, told.clone(), format!("command: {described}")),
        Ok(_) => (true, String::new(), format!("command: {described}")),
        Err(r) => (
            false,
            page_refusal(r, player),
            format!("command: {described}: refused"),
        ),
    };
    app.log.line(
        "in",
        if throttled { "throttled" } else { "command" },
        &[
            ("game", game.as_str()),
            ("player", player),
            ("request", &req.carrier.id),
            ("via", "web"),
            ("what", &what),
        ],
    );
    Ok((ok, words))
}

/// A refusal of the door in the page's words.
fn page_refusal(r: &Refusal, player: &str) -> String {
    match r {
        Refusal::Ending(e) => refusal(e, player),
        r => crate::host::commands::refusal_text(r, player),
    }
}

/// A resignation's or a draw's refusal in the page's words: the button
/// to press where the mail's words give the line to send.
fn refusal(r: &Why, player: &str) -> String {
    match r {
        Why::NoOffer { .. } => {
            "no draw is offered now; \"Offer a draw\" on the game's page offers one".into()
        }
        Why::OfferStands { by, .. } => format!(
            "{by} offered a draw already; \"Accept the draw\" on the game's page agrees to it, \"Decline the draw\" turns it down"
        ),
        Why::BotIn { bots, .. } => format!(
            "a draw needs every player still in to accept it, and {} (herald's bot) never accepts one: play on, or resign on the game's page to give the game up",
            bots.join(" and ")
        ),
        Why::Agreed { .. } => "you agreed to this draw already; it is agreed when every player still in accepts (\"Decline the draw\" on the game's page takes your agreement back)".into(),
        Why::NotNow { .. } => "the game takes no resignation in this phase (Norse Wars: nobody leaves during the Shield draft); resign again once the first move is due".into(),
        Why::NotIn { .. } => format!("{player} is out of the game already"),
        Why::Format { .. } | Why::Over | Why::NotAPlayer { .. } => r.to_string(),
    }
}
