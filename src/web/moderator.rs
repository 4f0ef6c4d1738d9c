//! The moderator's page (docs/web.md, "The moderator's page"): the host's
//! status page (`DIR/index.html`, written by every pass of `herald host`:
//! the same facts as `herald host status`), served live to a session
//! whose address is host.toml's `moderator`, signed in by a mailed link
//! like a player. It holds players' addresses and problems, so no one
//! else is shown it: to anyone else the route does not exist (404).

use super::gate::{is_moderator, with_csp};
use super::sessions::csrf_token;
use super::signin::session;
use super::Shared;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};

/// The status page's own CSP meta element: the server's header says the
/// same and lets the page's live script run.
const META_CSP: &str = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">";

/// `GET /moderator`.
pub async fn page(State(app): State<Shared>, headers: HeaderMap) -> Response {
    let Some((id, who)) = session(&app, &headers) else {
        return Redirect::to("/").into_response();
    };
    if !is_moderator(&app, &who) {
        return super::page::not_found().await;
    }
    let path = app.host().status_html();
    let html = match std::fs::read_to_string(&path) {
        Ok(h) => h,
        Err(_) => super::page::frame(
            "Status",
            "<h1>No status page yet</h1>\n<p>Each pass of <code>herald host</code> writes it.</p>",
        ),
    };
    let parts = format!(
        "{}\n<div id=\"web-parts\" data-events=\"/moderator/events\"></div>",
        super::page::nav(&csrf_token(&id))
    );
    let mut html =
        html.replacen(META_CSP, "", 1)
            .replacen("<body>", &format!("<body>\n{parts}"), 1);
    if let Some(at) = html.rfind("</body>") {
        html.insert_str(at, "<script src=\"/static/web.js\"></script>\n");
    }
    with_csp(html)
}
