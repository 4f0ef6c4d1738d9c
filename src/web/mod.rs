//! `herald serve DIR`: the host folder over HTTP, beside the mail host
//! (docs/web.md). A player signs in with a link the host mails to their
//! address, then sees their games, their report with the board and the
//! tap composer, and sends orders through the same door as a mail
//! (`crate::requests`): checked, sealed, receipted and answered the same
//! way, the answer shown on the page (and mailed if asked).
//!
//! The shape: a current-thread tokio runtime accepts connections and
//! serves each with hyper's HTTP/1 (headers read within a time limit, at
//! most [`MAX_CONNECTIONS`] at once); axum's router (a value, built by
//! [`router`]) hands each request to a handler whose extractors are
//! types; tower-http's layers bound the body and the time of a request;
//! every response carries the security headers ([`headers`]) and every
//! request a line of the host's log ([`logged`]). Work that touches the
//! disk or hashes (a game opened, a password checked) runs on tokio's
//! blocking threads, so a slow game never holds the others.
//!
//! - [`sessions`]: sign-in links and sessions, kept as digests in
//!   `DIR/state/web-sessions.json` (0600);
//! - [`signin`]: asking for a link, following it, signing out;
//! - [`gate`]: what the handlers share: the seats a session holds, a game
//!   opened to write with its door, the clock;
//! - [`games`]: the player's games found by their proven address;
//! - [`game`]: a game's page, its orders through the door;
//! - [`events`]: the pages' live events, one watcher per game shared by
//!   every open stream of it, the streams capped;
//! - [`press`]: press written on a game's page, through the door;
//! - [`vacation`]: away until a day, or back, from a game's page;
//! - [`ending`]: resign, and offer, accept or decline a draw, from a
//!   game's page;
//! - [`tables`]: the lobby: open tables, join, leave, standby, takeover;
//! - [`moderator`]: the host's status page, live, for its moderator;
//! - [`page`]: the HTML around them, every player-written text escaped.

pub mod ending;
pub mod events;
pub mod game;
pub mod games;
pub mod gate;
pub mod moderator;
pub mod page;
pub mod press;
pub mod sessions;
pub mod signin;
pub mod tables;
pub mod vacation;

use crate::error::{Error, Result};
use crate::host::config::HostConfig;
use crate::host::layout::HostDir;
use crate::host::log::Log;
use axum::extract::{Request, State};
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// At most this many connections are served at once; the next waits to be
/// accepted until one closes. Room for every player of a large host with
/// a game page open (its live events hold a connection, at most
/// [`events::MAX_STREAMS`] of them) and the requests beside them; the
/// server raises its limit of open files to fit (`open_files`).
pub const MAX_CONNECTIONS: usize = 1024;
/// A request's headers must arrive within this time (a slow client
/// cannot hold a connection by sending them a byte at a time).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// A request's body must arrive, and its answer be made, within this time.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest request body read (an order file is far smaller; an
/// order file is limited to `store::limits` again by the door).
pub const MAX_BODY: usize = 64 * 1024;
/// The largest request head (line and headers) read.
pub const MAX_HEAD: usize = 16 * 1024;

/// What `herald serve` is given.
#[derive(Debug, Clone)]
pub struct Options {
    /// The host folder.
    pub dir: PathBuf,
    /// Where to listen (`127.0.0.1:8080`; port 0: any free port, printed).
    pub listen: SocketAddr,
    /// The address players reach the server at, for the links mailed
    /// (`https://play.example.org`); default `http://` + the listening
    /// address. An `https` URL marks the session cookie `Secure`.
    pub url: Option<String>,
}

/// What every handler shares.
pub struct App {
    pub dir: PathBuf,
    pub cfg: HostConfig,
    pub log: Log,
    /// The public URL, without a trailing `/`.
    pub url: String,
    /// Cookies marked `Secure` (the URL is https).
    pub secure: bool,
    pub sessions: sessions::Sessions,
    /// The watchers of the pages' live events and their open streams.
    pub events: Arc<events::Hub>,
}

impl App {
    pub fn host(&self) -> HostDir {
        HostDir::at(&self.dir)
    }
}

/// The shared state as handlers take it.
pub type Shared = Arc<App>;

/// The routes, as one value: every path the server answers.
pub fn router(app: Shared) -> Router {
    Router::new()
        .route("/", get(games::home))
        .route("/signin", post(signin::ask))
        .route(
            "/signin/{token}",
            get(signin::confirm_page).post(signin::follow),
        )
        .route("/signin-password", post(signin::with_password))
        .route("/signout", post(signin::sign_out))
        .route("/signout-everywhere", post(signin::sign_out_everywhere))
        .route("/games/{game}", get(game::page))
        .route("/games/{game}/orders", post(game::orders))
        .route("/games/{game}/press", post(press::send))
        .route("/games/{game}/vacation", post(vacation::send))
        .route("/games/{game}/ending", post(ending::send))
        .route("/games/{game}/events", get(events::game))
        .route("/moderator", get(moderator::page))
        .route("/moderator/events", get(events::moderator))
        .route("/static/web.js", get(page::script))
        // The lobby (docs/web.md, "The tables").
        .route("/tables", get(tables::page))
        .route("/tables/join", post(tables::join))
        .route("/tables/leave", post(tables::leave))
        .route("/tables/standby", post(tables::standby))
        .route("/tables/takeover", post(tables::takeover))
        .route("/tables/confirm", post(tables::confirm))
        .fallback(page::not_found)
        // Inside out: the limits first, so that what they refuse is
        // logged and carries the headers like any answer.
        .layer(tower_http::limit::RequestBodyLimitLayer::new(MAX_BODY))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            REQUEST_TIMEOUT,
        ))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(axum::middleware::from_fn_with_state(app.clone(), logged))
        .layer(axum::middleware::from_fn(headers))
        .with_state(app)
}

/// The Content-Security-Policy of a page whose inline scripts hash to
/// `hashes` (base64 sha256): no script but those and the server's own,
/// no request outside the host, no frame, no plugin, forms only to the
/// host. Styles may be inline (the report's own `<style>`; player text is
/// always escaped, so none is a player's).
pub fn csp(hashes: &[String]) -> String {
    let scripts: String = hashes.iter().map(|h| format!(" 'sha256-{h}'")).collect();
    format!(
        "default-src 'none'; script-src 'self'{scripts}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; connect-src 'self'; font-src 'self'; form-action 'self'; \
         frame-ancestors 'none'; base-uri 'none'"
    )
}

/// The security headers on every response: a page that set its own CSP
/// (with its scripts' hashes) keeps it, any other gets the strictest.
async fn headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        if let Ok(v) = HeaderValue::from_str(&csp(&[])) {
            h.insert(header::CONTENT_SECURITY_POLICY, v);
        }
    }
    let fixed: [(HeaderName, &str); 5] = [
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
        (header::CACHE_CONTROL, "no-store"),
    ];
    for (k, v) in fixed {
        h.insert(k, HeaderValue::from_static(v));
    }
    res
}

/// One line of the host's log per request, as each mail has one: the
/// method, the route's shape (a sign-in token is never written: its
/// place says `{token}`), the status. No address, no cookie, no secret.
async fn logged(State(app): State<Shared>, req: Request, next: Next) -> Response {
    let method = req.method().to_string();
    let path = req.uri().path().to_string();
    let res = next.run(req).await;
    let status = res.status().as_u16().to_string();
    app.log.line(
        "web",
        "request",
        &[
            ("method", &method),
            ("route", &route_shape(&path)),
            ("status", &status),
        ],
    );
    res
}

/// A path as the log shows it: the sign-in token left out, anything
/// long or strange cut to what is safe to write.
pub fn route_shape(path: &str) -> String {
    if path.starts_with("/signin/") {
        return "/signin/{token}".into();
    }
    let safe: String = path
        .chars()
        .take(120)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "/-_.".contains(c) {
                c
            } else {
                '?'
            }
        })
        .collect();
    safe
}

/// A plain answer with a status (the page around it: [`page::plain`]).
pub fn status_page(code: StatusCode, title: &str, words: &str) -> Response {
    (code, page::plain(title, words)).into_response()
}

/// `herald serve DIR`: serve until SIGTERM or SIGINT (or forever). Prints
/// `serving DIR on http://ADDR` first, with the port actually bound.
pub fn serve(opts: Options) -> Result<()> {
    let cfg = HostConfig::load(&opts.dir)?;
    let log = Log::open(
        cfg.log_file.as_deref(),
        cfg.log_stderr || cfg.log_file.is_none(),
    )?;
    let host = HostDir::at(&opts.dir);
    crate::store::write::create_dir(&host.state())?;
    // One server per host folder: the only writer of its sessions.
    let _lock = crate::store::lock::Lock::acquire_for(
        &host.state().join("serve.lock"),
        Duration::from_secs(0),
        |pid, _| {
            format!(
                "{} is served already (pid {pid}): one `herald serve` per host folder",
                opts.dir.display()
            )
        },
    )?;
    let listener = std::net::TcpListener::bind(opts.listen)
        .map_err(|e| Error::usage(format!("--listen {}: {e}", opts.listen)))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::internal(format!("listening socket: {e}")))?;
    let bound = listener
        .local_addr()
        .map_err(|e| Error::internal(format!("listening socket: {e}")))?;
    let url = opts
        .url
        .clone()
        .or_else(|| cfg.web_url.clone())
        .unwrap_or_else(|| format!("http://{bound}"))
        .trim_end_matches('/')
        .to_string();
    let sessions = sessions::Sessions::open(&host.state().join(sessions::FILE))?;
    let app = Arc::new(App {
        dir: opts.dir.clone(),
        secure: url.starts_with("https://"),
        url: url.clone(),
        cfg,
        log,
        sessions,
        events: Arc::default(),
    });
    app.log.line(
        "web",
        "serving",
        &[("listen", &bound.to_string()), ("url", &url)],
    );
    println!(
        "serving {} on http://{bound} (players reach it at {url})",
        opts.dir.display()
    );
    open_files(MAX_CONNECTIONS as u64 + 256);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .max_blocking_threads(4)
        .build()
        .map_err(|e| Error::internal(format!("the server's runtime: {e}")))?;
    rt.block_on(accept(listener, app))
}

/// Raise the process's limit of open files to `want` where the hard
/// limit allows (a default soft limit of 1,024 is below
/// [`MAX_CONNECTIONS`] and the files a request opens beside them).
fn open_files(want: u64) {
    let mut l = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the one struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) == 0 && l.rlim_cur < want {
            l.rlim_cur = want.min(l.rlim_max);
            libc::setrlimit(libc::RLIMIT_NOFILE, &l);
        }
    }
}

/// Accept connections for ever, each served on its own task: HTTP/1 only,
/// its head read within [`HEADER_TIMEOUT`] and [`MAX_HEAD`] bytes.
async fn accept(listener: std::net::TcpListener, app: Shared) -> Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let listener = tokio::net::TcpListener::from_std(listener)
        .map_err(|e| Error::internal(format!("listening socket: {e}")))?;
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let service = router(app);
    loop {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            return Ok(());
        };
        let (stream, _) = match listener.accept().await {
            Ok(s) => s,
            Err(_) => {
                // Out of descriptors, or a connection reset before it was
                // taken: pause, then go on accepting.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let svc = hyper_util::service::TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .max_buf_size(MAX_HEAD)
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), svc);
            let _ = conn.await;
            drop(permit);
        });
    }
}
