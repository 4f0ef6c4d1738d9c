//! Signing in without a new password (docs/web.md, "Signing in"): a
//! player asks for a link for their address; if the address holds a seat
//! of the host, the host queues a mail with a one-time link in its
//! outbox (sent by `herald host` as every mail it sends), within the
//! host's bound on replies to one address (`requests::bound`, shared with
//! the mail path). The answer on the page is the same either way: the
//! page tells no one which addresses play here.
//!
//! Following the link shows a button; pressing it (a POST, so a mail
//! program's preview that fetches links uses nothing) uses the link up
//! and starts a session: a fresh id in an HttpOnly, SameSite=Lax cookie
//! (Secure where the server's URL is https). A game's own password signs
//! in to that one seat, each try one check of the game's budget of
//! password checks (`requests::guard`), as a mail's.

use super::gate::now;
use super::sessions::{self, Who};
use super::{status_page, Shared};
use crate::chain::canon::sha256_hex;
use crate::error::Result;
use crate::names::Name;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use serde::Deserialize;

/// The session cookie's name.
pub const COOKIE: &str = "herald_session";

/// The session id the request's cookie carries, if any.
pub fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_string())
        .filter(|v| v.len() == 64 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The signed-in session of a request: its id and whom it acts for.
pub fn session(app: &Shared, headers: &HeaderMap) -> Option<(String, Who)> {
    let id = cookie(headers)?;
    let who = app.sessions.who(&id, now())?;
    Some((id, who))
}

/// Whether a form's CSRF token is the session's.
pub fn csrf_ok(id: &str, given: &str) -> bool {
    sessions::same(&sessions::csrf_token(id), given)
}

fn set_cookie(app: &Shared, id: &str) -> String {
    format!(
        "{COOKIE}={id}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{}",
        sessions::SESSION_LIFE,
        if app.secure { "; Secure" } else { "" }
    )
}

fn clear_cookie(app: &Shared) -> String {
    format!(
        "{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{}",
        if app.secure { "; Secure" } else { "" }
    )
}

#[derive(Deserialize)]
pub struct AskForm {
    address: String,
}

/// Whether `a` can be a mail address at all (the rest is the mail
/// server's to judge).
fn plausible(a: &str) -> bool {
    a.len() <= 254
        && a.split_once('@')
            .is_some_and(|(l, d)| !l.is_empty() && d.contains('.'))
        && a.chars()
            .all(|c| c.is_ascii_graphic() && !"<>\"(),;:\\[]".contains(c))
}

/// `POST /signin`: a link for an address; the same answer whoever asks.
pub async fn ask(State(app): State<Shared>, Form(f): Form<AskForm>) -> Response {
    let address = f.address.trim().to_ascii_lowercase();
    let a = app.clone();
    let sent = if plausible(&address) {
        tokio::task::spawn_blocking(move || mail_link(&a, &address))
            .await
            .unwrap_or_else(|e| Err(crate::error::Error::internal(e)))
    } else {
        Ok("not an address")
    };
    let what = match sent {
        Ok(w) => w,
        Err(e) => {
            app.log.line(
                "web",
                "failure",
                &[("what", "sign-in link"), ("error", &e.to_string())],
            );
            "failed"
        }
    };
    app.log.line("web", "sign-in-link", &[("outcome", what)]);
    Html(super::page::frame(
        "Sign-in link",
        "<h1>Look in your mail</h1>\n<p>If that address plays a game here, or the host has a table or a seat to take, a sign-in link is on its way to it. \
         Follow it within 15 minutes; it works once.</p>\n<p><a href=\"/\">Back</a></p>",
    ))
    .into_response()
}

/// Queue the sign-in mail for `address` if it holds a seat and the bound
/// on replies allows; what became of it, for the log (no address).
fn mail_link(app: &Shared, address: &str) -> Result<&'static str> {
    let moderator = app
        .cfg
        .moderator
        .as_deref()
        .is_some_and(|m| m.trim().eq_ignore_ascii_case(address));
    if !moderator
        && super::gate::seats_of(&app.dir, address).is_empty()
        && !super::gate::on_offer(&app.host())
    {
        return Ok("no seat");
    }
    let t = now();
    let bound = crate::requests::bound::Bound::open(
        &app.host().reply_bound(),
        app.cfg.trust.replies_per_hour,
        t,
    );
    let request = sessions::token();
    let grant = bound.grant(address, &sha256_hex(request.as_bytes()))?;
    if grant == crate::requests::bound::Grant::Held {
        return Ok("held: the bound of replies an hour to this address is reached");
    }
    let token = app.sessions.new_link(address, t)?;
    let message_id =
        crate::mail::eml::message_id("host", &["web-signin", &sha256_hex(token.as_bytes())]);
    let date = chrono::DateTime::from_timestamp(t, 0)
        .unwrap_or_default()
        .fixed_offset()
        .to_rfc3339();
    let mail = crate::mail::eml::Mail {
        from: app.cfg.address.plain(),
        to: address.to_string(),
        subject: "Your herald sign-in link".into(),
        date,
        message_id: message_id.clone(),
        in_reply_to: None,
        text: format!(
            "Someone (you, we hope) asked to sign in to herald at {url} with this address.\n\n\
             Follow this link within 15 minutes to sign in; it works once:\n\n{url}/signin/{token}\n\n\
             If you did not ask, ignore this mail: nothing happens, and no one is signed in.\n",
            url = app.url
        ),
        attachments: Vec::new(),
    };
    crate::store::outbox::queue(
        &crate::store::OutboxDir::at(app.host().outbox()),
        &message_id,
        &crate::mail::eml::build(&mail),
    )?;
    Ok("queued")
}

fn token_ok(t: &str) -> bool {
    t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit())
}

fn link_gone() -> Response {
    status_page(
        StatusCode::GONE,
        "Link used or expired",
        "This sign-in link was used already or has expired. Ask for a new one.",
    )
}

/// `GET /signin/{token}`: a button to use the link (fetching the page
/// uses nothing).
pub async fn confirm_page(State(app): State<Shared>, Path(token): Path<String>) -> Response {
    if !token_ok(&token) || !app.sessions.link_open(&token, now()) {
        return link_gone();
    }
    Html(super::page::frame(
        "Sign in",
        &format!(
            "<h1>Sign in to herald</h1>\n<form method=\"post\" action=\"/signin/{}\">\
             <button type=\"submit\" id=\"web-signin\">Sign in</button></form>",
            super::page::esc(&token)
        ),
    ))
    .into_response()
}

/// `POST /signin/{token}`: the link used, a new session set.
pub async fn follow(State(app): State<Shared>, Path(token): Path<String>) -> Response {
    if !token_ok(&token) {
        return link_gone();
    }
    let a = app.clone();
    let made = tokio::task::spawn_blocking(move || a.sessions.follow(&token, now())).await;
    match made {
        Ok(Ok(Some(id))) => {
            app.log.line("web", "signed-in", &[("by", "link")]);
            (
                [(header::SET_COOKIE, set_cookie(&app, &id))],
                Redirect::to("/"),
            )
                .into_response()
        }
        Ok(Ok(None)) => link_gone(),
        Ok(Err(e)) => failure(&app, &e.to_string()),
        Err(e) => failure(&app, &e.to_string()),
    }
}

fn failure(app: &Shared, e: &str) -> Response {
    app.log.line("web", "failure", &[("error", e)]);
    status_page(
        StatusCode::INTERNAL_SERVER_ERROR,
        "Not done",
        "Something failed on the server; nothing was changed. Try again later.",
    )
}

#[derive(Deserialize)]
pub struct PasswordForm {
    game: String,
    player: String,
    password: String,
}

/// `POST /signin-password`: a game's password signs in to its seat, each
/// try one check of the game's budget.
pub async fn with_password(State(app): State<Shared>, Form(f): Form<PasswordForm>) -> Response {
    let (Ok(game), Ok(player)) = (Name::new("game", &f.game), Name::new("player", &f.player))
    else {
        return refused_password();
    };
    let a = app.clone();
    let right = tokio::task::spawn_blocking(move || {
        super::gate::check_password(&a, &game, player.as_str(), &f.password)
            .map(|ok| ok.then(|| a.sessions.for_seat(game.as_str(), player.as_str(), now())))
    })
    .await;
    match right {
        Ok(Ok(Some(Ok(id)))) => {
            app.log.line("web", "signed-in", &[("by", "password")]);
            (
                [(header::SET_COOKIE, set_cookie(&app, &id))],
                Redirect::to("/"),
            )
                .into_response()
        }
        Ok(Ok(None)) => refused_password(),
        Ok(Ok(Some(Err(e)))) | Ok(Err(e)) => failure(&app, &e.to_string()),
        Err(e) => failure(&app, &e.to_string()),
    }
}

fn refused_password() -> Response {
    status_page(
        StatusCode::FORBIDDEN,
        "Not signed in",
        "No such game and player, or a wrong password, or too many tries for this seat this hour.",
    )
}

#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

/// Refused: no session, or a form without the session's token.
pub fn forbidden() -> Response {
    status_page(
        StatusCode::FORBIDDEN,
        "Refused",
        "This form was not sent from your signed-in page (its token is missing or wrong). Nothing was done.",
    )
}

/// `POST /signout`.
pub async fn sign_out(
    State(app): State<Shared>,
    headers: HeaderMap,
    Form(f): Form<CsrfForm>,
) -> Response {
    end(app, headers, f, false).await
}

/// `POST /signout-everywhere`: every session of the same address (or seat).
pub async fn sign_out_everywhere(
    State(app): State<Shared>,
    headers: HeaderMap,
    Form(f): Form<CsrfForm>,
) -> Response {
    end(app, headers, f, true).await
}

async fn end(app: Shared, headers: HeaderMap, f: CsrfForm, all: bool) -> Response {
    let Some((id, _)) = session(&app, &headers) else {
        return forbidden();
    };
    if !csrf_ok(&id, &f.csrf) {
        return forbidden();
    }
    let a = app.clone();
    let done = tokio::task::spawn_blocking(move || match all {
        true => a.sessions.end_all(&id, now()),
        false => a.sessions.end(&id, now()),
    })
    .await;
    match done {
        Ok(Ok(())) => (
            [(header::SET_COOKIE, clear_cookie(&app))],
            Redirect::to("/"),
        )
            .into_response(),
        Ok(Err(e)) => failure(&app, &e.to_string()),
        Err(e) => failure(&app, &e.to_string()),
    }
}
