//! The HTML the server makes around a game's report: the frame of every
//! page, the sign-in forms, the list of games. Every text that is not
//! herald's own (an address, a player's name, a game's title, an answer
//! quoting an order file) goes through [`esc`]; the report page itself is
//! the one the mail carries, made by `crate::report` with its template's
//! escaping.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// The page's own script (the send form, the live updates), served from
/// the host as `/static/web.js`.
pub const SCRIPT: &str = include_str!("../../templates/web/web.js");

/// Text made safe for HTML, in an element or a quoted attribute.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

const STYLE: &str = "body{margin:0 auto;max-width:44rem;padding:0.75rem;background:#f4efe1;color:#2b2b2b;font-family:system-ui,sans-serif}\
h1{font-size:1.25rem}h2{font-size:1.1rem}h3{font-size:1rem}input,button,textarea{font:inherit;font-size:1rem;min-height:2.75rem;box-sizing:border-box}\
input[type=checkbox]{min-height:0;width:1.2rem;height:1.2rem;vertical-align:middle}\
input[type=email],input[type=text],input[type=password]{width:100%;max-width:24rem;padding:0.4rem}\
button{padding:0.3rem 0.8rem;border:1px solid #6b5a3a;border-radius:0.4rem;background:#fffdf6;cursor:pointer;margin:0.2rem 0}\
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#fffdf6;padding:0.5rem;border:1px solid #d8ccb0}\
table{border-collapse:collapse}td,th{border-bottom:1px solid #d8ccb0;padding:0.3rem 0.5rem;text-align:left}\
.hint{color:#5a5a5a;font-size:0.9rem}nav{display:flex;gap:0.5rem;align-items:center;flex-wrap:wrap}nav form{display:inline}";

/// A whole page: `title` (escaped here) and `body` (HTML, escaped by
/// whoever made it).
pub fn frame(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n",
        esc(title)
    )
}

/// A page of a title and a paragraph of words (both escaped).
pub fn plain(title: &str, words: &str) -> axum::response::Html<String> {
    axum::response::Html(frame(
        title,
        &format!(
            "<h1>{}</h1>\n<p>{}</p>\n<p><a href=\"/\">herald</a></p>",
            esc(title),
            esc(words)
        ),
    ))
}

/// The sign-in page: a link by mail, or a game's password.
pub fn sign_in(host_address: &str) -> String {
    frame(
        "Sign in",
        &format!(
            "<h1>Sign in to herald</h1>\n\
             <form method=\"post\" action=\"/signin\">\n\
             <p><label>Your mail address<br><input type=\"email\" name=\"address\" required autocomplete=\"email\"></label></p>\n\
             <p><button type=\"submit\">Mail me a sign-in link</button></p>\n\
             <p class=\"hint\">The link comes from {} and can be followed once, within 15 minutes. No password to remember.</p>\n\
             </form>\n\
             <h2>Or with a game's password</h2>\n\
             <form method=\"post\" action=\"/signin-password\">\n\
             <p><label>Game<br><input type=\"text\" name=\"game\" required autocomplete=\"off\"></label></p>\n\
             <p><label>Player<br><input type=\"text\" name=\"player\" required autocomplete=\"off\"></label></p>\n\
             <p><label>Password<br><input type=\"password\" name=\"password\" required autocomplete=\"current-password\"></label></p>\n\
             <p><button type=\"submit\">Sign in to this game</button></p>\n\
             </form>",
            esc(host_address)
        ),
    )
}

/// The bar at the top of a signed-in page: the games, sign out (here,
/// everywhere), each form with the session's CSRF token.
pub fn nav(csrf: &str) -> String {
    let t = esc(csrf);
    format!(
        "<nav id=\"web-nav\"><a href=\"/\">My games</a><a href=\"/tables\">Tables</a>\
         <form method=\"post\" action=\"/signout\"><input type=\"hidden\" name=\"csrf\" value=\"{t}\"><button type=\"submit\">Sign out</button></form>\
         <form method=\"post\" action=\"/signout-everywhere\"><input type=\"hidden\" name=\"csrf\" value=\"{t}\"><button type=\"submit\">Sign out everywhere</button></form></nav>"
    )
}

/// `GET /static/web.js`.
pub async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
        .into_response()
}

/// Any path the server does not answer.
pub async fn not_found() -> Response {
    super::status_page(
        StatusCode::NOT_FOUND,
        "Not found",
        "There is no such page here.",
    )
}

/// The base64 sha256 of each inline `<script>` (with no attribute) of
/// `html`: what the page's CSP allows to run.
pub fn script_hashes(html: &str) -> Vec<String> {
    use base64::Engine;
    use sha2::Digest;
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("<script>") {
        let body = &rest[at + "<script>".len()..];
        let Some(end) = body.find("</script>") else {
            break;
        };
        let h = sha2::Sha256::digest(body[..end].as_bytes());
        out.push(base64::engine::general_purpose::STANDARD.encode(h));
        rest = &body[end..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_in_elements_and_attributes() {
        assert_eq!(
            esc("<script>alert('x')</script>&\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;"
        );
    }

    #[test]
    fn only_inline_scripts_are_hashed() {
        let h = script_hashes(
            "<script type=\"application/json\">{}</script><script>\nrun()\n</script>",
        );
        assert_eq!(h.len(), 1);
    }
}
