//! The lobby on the web (docs/web.md, "The tables"): the open tables and
//! the seats to take over, as `tables` answers by mail, and the forms
//! that join, leave, go on or off the standby list, take over a seat and
//! confirm a code, each through the door (`requests::lobby::run`) as the
//! mail adapter (`host::lobby::commands`) calls it, with the same
//! outcomes in the same words (`host::lobby::commands::words`).
//!
//! Who may ask: a session whose address a mailed link proved
//! (`Requester::Session`). Its request is done at once, with the checks a
//! confirmation makes: the session is the proof a code would give, so no
//! code is mailed (the ruling). A code mailed for a request made by mail
//! may be confirmed here too, from the address it was mailed to. A session
//! signed in by a game's password holds one seat, not an address: it sees
//! the tables and is asked to sign in by link to join.
//!
//! The lobby's records are changed under `DIR/state/lobby.lock`, which
//! the host's pass holds while it changes them too: one writer at a time.

use super::gate::{failure, now, rfc3339};
use super::page::{esc, frame, nav};
use super::sessions::{csrf_token, token, Who};
use super::signin::{csrf_ok, forbidden, session};
use super::Shared;
use crate::chain::canon::sha256_hex;
use crate::error::{Error, Result};
use crate::host::lobby::commands::{self, Ctx};
use crate::requests::lobby::seats::OfferStatus;
use crate::requests::lobby::{self as door, Command, Lobby, Outcome, Status};
use crate::requests::{Carrier, Claim, Requester};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use axum::Form;
use serde::Deserialize;
use std::time::Duration;

/// How long a request waits for the pass to finish with the lobby.
const WAIT: Duration = Duration::from_secs(20);

/// `GET /tables`: the open tables, the seats to take over, and (signed in
/// by a link) the forms.
pub async fn page(State(app): State<Shared>, headers: HeaderMap) -> Response {
    let signed = session(&app, &headers);
    let a = app.clone();
    let who = signed.as_ref().map(|(_, w)| w.clone());
    let body = tokio::task::spawn_blocking(move || listing(&a, who.as_ref())).await;
    let Ok(body) = body else {
        return failure(&app, &Error::internal("the tables page"));
    };
    let top = match &signed {
        Some((id, _)) => nav(&csrf_token(id)),
        None => "<nav id=\"web-nav\"><a href=\"/\">Sign in</a></nav>".into(),
    };
    let csrf = signed.as_ref().map(|(id, _)| csrf_token(id));
    let body = body.replace(CSRF_MARK, &esc(csrf.as_deref().unwrap_or("")));
    Html(frame("Tables", &format!("{top}\n<h1>Tables</h1>\n{body}"))).into_response()
}

/// Where each form's CSRF token goes (filled in by [`page`]).
const CSRF_MARK: &str = "\u{1}csrf\u{1}";

fn hidden_csrf() -> String {
    format!("<input type=\"hidden\" name=\"csrf\" value=\"{CSRF_MARK}\">")
}

/// The page's body: what anyone may see (the open tables, the seats to
/// take over, as `tables` answers), and for an address's session the
/// forms and where it stands.
///
/// Long (about 120 lines): the page's five sections in their order, each
/// a loop over the records it shows.
fn listing(app: &Shared, who: Option<&Who>) -> String {
    let host = app.host();
    let (tables, _) = door::all(&host);
    let address = match who {
        Some(Who::Address { address }) => Some(address.as_str()),
        _ => None,
    };
    let mut s = String::new();
    match who {
        None => s.push_str("<p class=\"hint\" id=\"web-tables-signin\"><a href=\"/\">Sign in</a> with a link mailed to your address to join a table; or write <code>join TABLE</code> to the host's address.</p>\n"),
        Some(Who::Seat { .. }) => s.push_str("<p class=\"hint\" id=\"web-tables-signin\">A game's password signs in to that one seat. To join a table, sign out and sign in with a link mailed to your address.</p>\n"),
        Some(Who::Address { address }) => s.push_str(&format!("<p class=\"hint\">signed in as {}</p>\n", esc(address))),
    }
    let open: Vec<&door::Table> = tables
        .iter()
        .filter(|t| t.status == Status::Open && t.seats.len() < t.max)
        .collect();
    s.push_str("<section id=\"web-tables\">\n<h2>Open tables</h2>\n");
    if open.is_empty() {
        s.push_str("<p>There is no open table with a free seat on this host now.</p>\n");
    }
    for t in open {
        let sides = crate::community::preferences::nameable(&t.game, t.max + t.bots.len());
        let n = esc(&t.name);
        s.push_str(&format!(
            "<article class=\"web-table\" id=\"table-{n}\">\n<h3>{n}</h3>\n<p>{}</p>\n<p>press: {}</p>\n<p>sides: {}</p>\n",
            esc(&t.describe()),
            esc(&t.press_words()),
            esc(&sides.join(", "))
        ));
        if address.is_some() {
            s.push_str(&format!(
                "<form method=\"post\" action=\"/tables/join\" class=\"web-join\">\n{}\n\
                 <input type=\"hidden\" name=\"table\" value=\"{n}\">\n\
                 <p><label>Your display name<br><input type=\"text\" name=\"name\" maxlength=\"40\" autocomplete=\"nickname\"></label></p>\n\
                 <p><label><input type=\"checkbox\" name=\"public\" value=\"yes\"> Show my address on the public tables page</label></p>\n\
                 <p><label>Sides you would rather play, best first (optional)<br><input type=\"text\" name=\"prefer\" placeholder=\"{}\"></label></p>\n\
                 <p><button type=\"submit\">Join {n}</button></p>\n</form>\n",
                hidden_csrf(),
                esc(&sides.join(","))
            ));
        }
        s.push_str("</article>\n");
    }
    s.push_str("</section>\n");
    if let Some(from) = address {
        let store = door::confirm::Store::load(&host).unwrap_or_default();
        let mine: Vec<&door::Table> = tables
            .iter()
            .filter(|t| {
                t.status == Status::Open
                    && (t.seats_of(from) > 0
                        || store.waiting().any(|r| {
                            r.from(from)
                                && matches!(&r.action, door::confirm::Action::Join { table, .. } if *table == t.name)
                        }))
            })
            .collect();
        s.push_str("<section id=\"web-yours\">\n<h2>Your seats at open tables</h2>\n");
        if mine.is_empty() {
            s.push_str("<p>This address holds no seat at an open table.</p>\n");
        }
        for t in mine {
            s.push_str(&format!(
                "<form method=\"post\" action=\"/tables/leave\" class=\"web-leave\">{}\
                 <input type=\"hidden\" name=\"table\" value=\"{n}\">\
                 <p>{}<br><button type=\"submit\">Leave {n}</button></p></form>\n",
                hidden_csrf(),
                esc(&t.describe()),
                n = esc(&t.name)
            ));
        }
        s.push_str("</section>\n");
    }
    s.push_str("<section id=\"web-takeover\">\n<h2>Seats to take over</h2>\n");
    let mut any = false;
    for g in door::seats::all(&host) {
        for o in g.offers.iter().filter(|o| o.status == OfferStatus::Open) {
            any = true;
            let (gn, pn) = (esc(&g.game), esc(&o.player));
            s.push_str(&format!(
                "<article class=\"web-offer\"><p>game {gn} seat {pn} (freed: {})</p>\n",
                esc(crate::host::lobby::seats::why_words(&o.why))
            ));
            if address.is_some() {
                s.push_str(&format!(
                    "<form method=\"post\" action=\"/tables/takeover\">{}\
                     <input type=\"hidden\" name=\"game\" value=\"{gn}\"><input type=\"hidden\" name=\"player\" value=\"{pn}\">\n\
                     <p><label>Your display name<br><input type=\"text\" name=\"name\" maxlength=\"40\"></label></p>\n\
                     <p><button type=\"submit\">Take over {pn} in {gn}</button></p></form>\n",
                    hidden_csrf()
                ));
            }
            s.push_str("</article>\n");
        }
    }
    if !any {
        s.push_str("<p>There is no seat to take over now.</p>\n");
    }
    s.push_str("</section>\n");
    if let Some(from) = address {
        let on = door::seats::standby(&host)
            .map(|l| l.list.iter().any(|e| e.address.eq_ignore_ascii_case(from)))
            .unwrap_or(false);
        s.push_str(&format!(
            "<section id=\"web-standby\">\n<h2>Standby</h2>\n<p>{}</p>\n\
             <form method=\"post\" action=\"/tables/standby\">{}<input type=\"hidden\" name=\"on\" value=\"{}\">\
             <button type=\"submit\">{}</button></form>\n</section>\n",
            if on {
                "This address is on the standby list: it is mailed when a seat here is free to take over."
            } else {
                "Be mailed when a seat of a game here is free to take over."
            },
            hidden_csrf(),
            if on { "off" } else { "on" },
            if on {
                "Take me off the standby list"
            } else {
                "Put me on the standby list"
            }
        ));
        s.push_str(&format!(
            "<section id=\"web-confirm\">\n<h2>A code by mail</h2>\n\
             <p class=\"hint\">A request you made by mail waits for the code the host mailed back; it can be given here as well as by reply.</p>\n\
             <form method=\"post\" action=\"/tables/confirm\">{}\
             <p><label>Code<br><input type=\"text\" name=\"code\" required autocomplete=\"off\" maxlength=\"40\"></label></p>\n\
             <p><button type=\"submit\">Confirm</button></p></form>\n</section>\n",
            hidden_csrf()
        ));
    }
    s
}

/// Every lobby form's fields (each form sends those it has).
#[derive(Deserialize)]
pub struct LobbyForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    table: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    public: String,
    #[serde(default)]
    prefer: String,
    #[serde(default)]
    game: String,
    #[serde(default)]
    player: String,
    #[serde(default)]
    on: String,
    #[serde(default)]
    code: String,
}

/// The forms' actions, each the mail command of the same word.
#[derive(Debug, Clone, Copy)]
enum Act {
    Join,
    Leave,
    Standby,
    Takeover,
    Confirm,
}

/// The door's request a form makes, its fields read as a mail's words
/// are (a table and a game lowercased, a display name cut to 40
/// characters, a code's spaces out).
fn request_of(act: Act, f: &LobbyForm, address: &str, carrier: Carrier) -> door::Request {
    let session = Requester::Session {
        address: address.to_string(),
    };
    let lower = |s: &str| s.trim().to_ascii_lowercase();
    let (command, by) = match act {
        Act::Join => (
            Command::Join {
                table: lower(&f.table),
                name: commands::typed_name(&f.name),
                public: !f.public.is_empty(),
                prefer: Some(f.prefer.trim())
                    .filter(|p| !p.is_empty())
                    .map(|p| p.chars().take(200).collect()),
            },
            session,
        ),
        Act::Leave => (
            Command::Leave {
                table: lower(&f.table),
            },
            session,
        ),
        Act::Standby => (Command::Standby { on: f.on != "off" }, session),
        Act::Takeover => (
            Command::Takeover {
                game: lower(&f.game),
                player: lower(&f.player),
                name: commands::typed_name(&f.name),
            },
            session,
        ),
        Act::Confirm => (
            Command::Confirm,
            Requester::Code {
                code: f.code.split_whitespace().collect(),
                // The session proved the address: a code it shows spends
                // no budget (it could do the request itself, at once).
                claim: Claim {
                    address: address.to_string(),
                    vouched: true,
                },
            },
        ),
    };
    door::Request {
        command,
        by,
        carrier,
    }
}

pub async fn join(s: State<Shared>, h: HeaderMap, f: Form<LobbyForm>) -> Response {
    act(s, h, f, Act::Join).await
}
pub async fn leave(s: State<Shared>, h: HeaderMap, f: Form<LobbyForm>) -> Response {
    act(s, h, f, Act::Leave).await
}
pub async fn standby(s: State<Shared>, h: HeaderMap, f: Form<LobbyForm>) -> Response {
    act(s, h, f, Act::Standby).await
}
pub async fn takeover(s: State<Shared>, h: HeaderMap, f: Form<LobbyForm>) -> Response {
    act(s, h, f, Act::Takeover).await
}
pub async fn confirm(s: State<Shared>, h: HeaderMap, f: Form<LobbyForm>) -> Response {
    act(s, h, f, Act::Confirm).await
}

/// `POST /tables/{join,leave,standby,takeover,confirm}`: a signed-in
/// address's request through the door; the page shows the words a mail's
/// reply would carry.
async fn act(
    State(app): State<Shared>,
    headers: HeaderMap,
    Form(f): Form<LobbyForm>,
    act: Act,
) -> Response {
    let Some((id, who)) = session(&app, &headers) else {
        return forbidden();
    };
    if !csrf_ok(&id, &f.csrf) {
        return forbidden();
    }
    let Who::Address { address } = who else {
        return super::status_page(
            axum::http::StatusCode::FORBIDDEN,
            "Sign in by link",
            "A game's password signs in to that one seat. To join a table or take over a seat, sign in with a link mailed to your address.",
        );
    };
    let a = app.clone();
    let done = tokio::task::spawn_blocking(move || ask(&a, act, &f, &address)).await;
    let (ok, words) = match done {
        Ok(Ok(x)) => x,
        Ok(Err(e)) => return failure(&app, &e),
        Err(e) => return failure(&app, &Error::internal(e)),
    };
    Html(frame(
        "Tables",
        &format!(
            "{}\n<h1>{}</h1>\n<pre id=\"web-answer\">{}</pre>\n<p><a href=\"/tables\" id=\"web-back\">Back to the tables</a></p>",
            nav(&csrf_token(&id)),
            if ok { "Done" } else { "Refused" },
            esc(&words)
        ),
    ))
    .into_response()
}

/// The request decided under the lobby's lock, its log line written as a
/// mail's (`in lobby`, with the request's id and `via=web`, never the
/// address): whether it was done, and the words of the reply.
fn ask(app: &Shared, act: Act, f: &LobbyForm, address: &str) -> Result<(bool, String)> {
    let host = app.host();
    let t = now();
    let now = rfc3339(t);
    crate::store::write::create_dir(&host.state())?;
    let _lock = crate::store::lock::Lock::acquire_for(&host.lobby_lock(), WAIT, |pid, w| {
        format!("the lobby is busy (pid {pid}; waited {w} s)")
    })?;
    let request = token();
    let carrier = Carrier {
        id: format!("web:{}", &request[..24]),
        digest: sha256_hex(request.as_bytes()),
    };
    let req = request_of(act, f, address, carrier);
    let never = |_: &str, _: &str| Ok(false);
    let lobby = Lobby {
        host: host.clone(),
        now: now.clone(),
        seats_per_address: app.cfg.trust.seats_per_address,
        // A session's request mails no code (it is done at once).
        may_mail_code: &never,
        tries: None,
    };
    let outcome = door::run(&lobby, &req)?;
    let game_address = |g: &str| app.cfg.address.for_game(g);
    let cx = Ctx {
        host: host.clone(),
        from: app.cfg.address.plain(),
        game_address: &game_address,
        now,
        seats_per_address: app.cfg.trust.seats_per_address,
        may_mail_code: &never,
    };
    let (tables, _) = door::all(&host);
    let (what, words) = commands::words(&cx, &tables, &outcome, address);
    app.log.line(
        "in",
        "lobby",
        &[
            ("request", &req.carrier.id),
            ("via", "web"),
            ("command", &what),
        ],
    );
    let ok = !matches!(outcome, Outcome::Refused(_) | Outcome::Held);
    Ok((ok, words))
}
