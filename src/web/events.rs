//! The pages' live events (docs/web.md, "Live"): server-sent events for a
//! game's open pages and for the moderator's, without a poll per stream.
//!
//! One watcher per watched thing (a game folder, the status page) looks
//! at it once a second, by sizes and times, and tells every open stream
//! of it through one tokio broadcast channel: 600 open pages of a game
//! cost one look a second, not 600. The watcher starts with the first
//! stream and ends within a second of the last one's end, with a line in
//! the host's log (`web watch-ended`: what it watched, how many looks it
//! took, how many streams it served at most). A stream ends when its
//! client goes (hyper drops it), and gives back its place: at most
//! [`STREAMS_PER_SESSION`] streams of one session and [`MAX_STREAMS`] in
//! all are open at once; past either the answer is 429 with nothing
//! opened.
//!
//! A change of the game file is a `turn`, unless the records it gained
//! are all press (press is recorded there): then `press`, and the page
//! keeps its composer. The watcher looks rather than being told by the
//! server's own writes:
//! turns resolve, press arrives and orders come by mail in another
//! process (`herald host`), which only the folder shows.

use super::signin::{forbidden, session};
use super::Shared;
use crate::host::layout::HostDir;
use crate::names::Name;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// At most this many open streams of one session (a player's tabs and
/// devices signed in by one link).
pub const STREAMS_PER_SESSION: usize = 4;
/// At most this many open streams in all (below the server's
/// [`super::MAX_CONNECTIONS`], so pages and orders are served beside them).
pub const MAX_STREAMS: usize = 768;
/// How often a watcher looks.
const LOOK: Duration = Duration::from_secs(1);
/// A comment this often keeps a quiet stream open through proxies.
const ALIVE: Duration = Duration::from_secs(15);

/// What a watcher watches.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Watched {
    /// A game folder: its file, its stored orders, its press.
    Game { name: String, root: PathBuf },
    /// The host's status page (`DIR/index.html`).
    Status(PathBuf),
}

impl Watched {
    /// What the log calls it (a game's name; never a path).
    fn label(&self) -> &str {
        match self {
            Watched::Game { name, .. } => name,
            Watched::Status(_) => "status",
        }
    }
}

struct Watch {
    tx: broadcast::Sender<&'static str>,
    /// The most streams open at once, for the log.
    most: usize,
}

#[derive(Default)]
struct Inner {
    watches: BTreeMap<Watched, Watch>,
    open: usize,
    per_session: BTreeMap<String, usize>,
}

/// The server's watchers and its count of open streams.
#[derive(Default)]
pub struct Hub {
    inner: Mutex<Inner>,
    looks: AtomicU64,
}

/// Why a stream was not opened.
#[derive(Debug, PartialEq, Eq)]
pub enum Full {
    Session,
    Server,
}

/// An open stream's place, given back when the stream ends.
pub struct Place {
    hub: Arc<Hub>,
    session: String,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut i = self.hub.lock();
        i.open = i.open.saturating_sub(1);
        if let Some(n) = i.per_session.get_mut(&self.session) {
            *n -= 1;
            if *n == 0 {
                i.per_session.remove(&self.session);
            }
        }
    }
}

impl Hub {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many looks the watchers have taken since the server started.
    pub fn looks(&self) -> u64 {
        self.looks.load(Ordering::Relaxed)
    }

    /// How many streams are open.
    pub fn open(&self) -> usize {
        self.lock().open
    }

    /// A place for a stream of `session` watching `what`, and its
    /// receiver: the watcher of `what` started if none runs.
    pub fn subscribe(
        self: &Arc<Hub>,
        session: &str,
        what: Watched,
        log: Option<Shared>,
    ) -> Result<(Place, broadcast::Receiver<&'static str>), Full> {
        let mut i = self.lock();
        if i.per_session.get(session).copied().unwrap_or(0) >= STREAMS_PER_SESSION {
            return Err(Full::Session);
        }
        if i.open >= MAX_STREAMS {
            return Err(Full::Server);
        }
        let rx = match i.watches.get_mut(&what) {
            Some(w) => {
                let rx = w.tx.subscribe();
                w.most = w.most.max(w.tx.receiver_count());
                rx
            }
            None => {
                let (tx, rx) = broadcast::channel(16);
                i.watches.insert(
                    what.clone(),
                    Watch {
                        tx: tx.clone(),
                        most: 1,
                    },
                );
                tokio::spawn(watch(self.clone(), what, tx, log));
                rx
            }
        };
        i.open += 1;
        *i.per_session.entry(session.to_string()).or_default() += 1;
        Ok((
            Place {
                hub: self.clone(),
                session: session.to_string(),
            },
            rx,
        ))
    }

    /// One look at `what`, counted.
    fn look(&self, what: &Watched) -> [String; 3] {
        self.looks.fetch_add(1, Ordering::Relaxed);
        match what {
            Watched::Game { root, .. } => fingerprint(root),
            Watched::Status(p) => [meta(p), String::new(), String::new()],
        }
    }
}

/// The watcher of `what`: a look a second, each change told to every
/// stream; ends when no stream listens.
async fn watch(
    hub: Arc<Hub>,
    what: Watched,
    tx: broadcast::Sender<&'static str>,
    log: Option<Shared>,
) {
    let mut last = hub.look(&what);
    let mut turns = records_but_press(&what);
    let mut looks = 1u64;
    loop {
        tokio::time::sleep(LOOK).await;
        {
            let mut i = hub.lock();
            if tx.receiver_count() == 0 {
                let most = i.watches.remove(&what).map_or(0, |w| w.most);
                drop(i);
                if let Some(app) = &log {
                    app.log.line(
                        "web",
                        "watch-ended",
                        &[
                            ("watched", what.label()),
                            ("looks", &looks.to_string()),
                            ("streams", &most.to_string()),
                        ],
                    );
                }
                return;
            }
        }
        let now = hub.look(&what);
        looks += 1;
        let kind = if now[0] != last[0] {
            // The game file changed: press alone (recorded there since
            // format 3) updates the page's state; anything else is a turn.
            let before = turns;
            turns = records_but_press(&what);
            match (before, turns) {
                (Some(a), Some(b)) if a == b => Some("press"),
                _ => Some("turn"),
            }
        } else if now[1] != last[1] {
            Some("orders")
        } else if now[2] != last[2] {
            Some("press")
        } else {
            None
        };
        if let Some(k) = kind {
            let _ = tx.send(k);
        }
        last = now;
    }
}

/// How many records of a game's file are not press: read only when the
/// file changed, once for every stream of the game.
fn records_but_press(what: &Watched) -> Option<usize> {
    let Watched::Game { root, .. } = what else {
        return None;
    };
    let file = crate::store::GameDir::at(root).game_file();
    let text = crate::store::limits::read_text(&file, crate::store::limits::GAME_FILE, "game file")
        .ok()?;
    Some(
        text.lines()
            .filter(|l| !l.contains("\"kind\":\"press\""))
            .count(),
    )
}

fn meta(p: &std::path::Path) -> String {
    std::fs::metadata(p)
        .map(|m| format!("{}:{:?}", m.len(), m.modified().ok()))
        .unwrap_or_default()
}

/// What a watcher sees of a game: its file, its stored orders, its press,
/// by their sizes and times (no file is read).
fn fingerprint(root: &std::path::Path) -> [String; 3] {
    let dir = crate::store::GameDir::at(root);
    let mut orders = String::new();
    if let Ok(list) = std::fs::read_dir(dir.orders()) {
        let mut names: Vec<String> = list
            .flatten()
            .map(|e| format!("{}={}", e.file_name().to_string_lossy(), meta(&e.path())))
            .collect();
        names.sort();
        orders = names.join(",");
        for e in std::fs::read_dir(dir.orders())
            .into_iter()
            .flatten()
            .flatten()
        {
            if let Ok(inner) = std::fs::read_dir(e.path()) {
                orders.push_str(&format!("|{}", inner.count()));
            }
        }
    }
    [meta(&dir.game_file()), orders, meta(&dir.press_log())]
}

/// The stream of one page: each change its watcher tells, a comment when
/// quiet; its place given back when the client goes.
fn stream(place: Place, rx: broadcast::Receiver<&'static str>) -> Response {
    let s = futures_util::stream::unfold((place, rx), |(place, mut rx)| async move {
        let e = match tokio::time::timeout(ALIVE, rx.recv()).await {
            Ok(Ok(k)) => Event::default().event(k).data(k),
            // Missed some: the whole turn is fetched again.
            Ok(Err(broadcast::error::RecvError::Lagged(_))) => {
                Event::default().event("turn").data("turn")
            }
            Ok(Err(broadcast::error::RecvError::Closed)) => return None,
            Err(_) => Event::default().comment("alive"),
        };
        Some((Ok::<_, std::convert::Infallible>(e), (place, rx)))
    });
    Sse::new(s).into_response()
}

fn full(why: Full) -> Response {
    let mut res = super::status_page(
        StatusCode::TOO_MANY_REQUESTS,
        "Too many open pages",
        match why {
            Full::Session => {
                "This sign-in has too many pages open that follow a game live; close one."
            }
            Full::Server => {
                "The server follows as many open pages as it can just now; reload later."
            }
        },
    );
    res.headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from_static("30"));
    res
}

/// A stream of `what` for the session `id`, or 429.
fn open(app: &Shared, id: &str, what: Watched) -> Response {
    match app.events.subscribe(id, what, Some(app.clone())) {
        Ok((place, rx)) => stream(place, rx),
        Err(why) => full(why),
    }
}

/// `GET /games/{game}/events`: `turn` when the game file changed (a turn
/// resolved, a deadline moved), `orders` when orders were stored or
/// cleared, `press` when press arrived; a comment every 15 s.
pub async fn game(
    State(app): State<Shared>,
    Path(game): Path<String>,
    headers: HeaderMap,
) -> Response {
    let Some((id, who)) = session(&app, &headers) else {
        return forbidden();
    };
    let Ok(game) = Name::new("game", &game) else {
        return super::gate::not_yours();
    };
    if super::gate::seat_of(&app, &who, &game).await.is_none() {
        return super::gate::not_yours();
    }
    let root = HostDir::at(&app.dir).game(&game).root().to_path_buf();
    let what = Watched::Game {
        name: game.as_str().to_string(),
        root,
    };
    open(&app, &id, what)
}

/// `GET /moderator/events`: `turn` whenever a pass wrote the status page
/// again (the page is written over in place).
pub async fn moderator(State(app): State<Shared>, headers: HeaderMap) -> Response {
    let Some((id, who)) = session(&app, &headers) else {
        return forbidden();
    };
    if !super::gate::is_moderator(&app, &who) {
        return super::page::not_found().await;
    }
    let what = Watched::Status(app.host().status_html());
    open(&app, &id, what)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 600 streams of one game share one watcher: a look a second in all,
    /// each change told to every stream; the places are given back.
    #[test]
    fn streams_share_one_watcher() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        rt.block_on(async {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path().join("g1");
            std::fs::create_dir_all(&root).unwrap();
            let hub = Arc::new(Hub::default());
            let what = Watched::Game {
                name: "g1".into(),
                root: root.clone(),
            };
            let mut subs = Vec::new();
            for k in 0..600 {
                subs.push(hub.subscribe(&format!("s{k}"), what.clone(), None).unwrap());
            }
            assert_eq!(hub.open(), 600);
            tokio::time::sleep(Duration::from_millis(2_500)).await;
            let looks = hub.looks();
            assert!((2..=4).contains(&looks), "{looks} looks in 2.5 s");
            std::fs::write(crate::store::GameDir::at(&root).game_file(), "x").unwrap();
            let t = std::time::Instant::now();
            while subs[0].1.is_empty() && t.elapsed() < Duration::from_secs(10) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            for (_, rx) in subs.iter_mut() {
                assert_eq!(rx.try_recv(), Ok("turn"));
            }
            drop(subs);
            assert_eq!(hub.open(), 0);
            let t = std::time::Instant::now();
            while !hub.lock().watches.is_empty() && t.elapsed() < Duration::from_secs(10) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            assert!(hub.lock().watches.is_empty(), "the watcher did not end");
        });
    }

    #[test]
    fn a_session_and_the_server_have_a_cap() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        rt.block_on(async {
            let hub = Arc::new(Hub::default());
            let what = Watched::Status(PathBuf::from("/nonexistent/index.html"));
            let mut kept = Vec::new();
            for _ in 0..STREAMS_PER_SESSION {
                kept.push(hub.subscribe("a", what.clone(), None).unwrap());
            }
            assert_eq!(
                hub.subscribe("a", what.clone(), None).err(),
                Some(Full::Session)
            );
            kept.pop();
            kept.push(hub.subscribe("a", what.clone(), None).unwrap());
            for k in STREAMS_PER_SESSION..MAX_STREAMS {
                kept.push(hub.subscribe(&format!("s{k}"), what.clone(), None).unwrap());
            }
            assert_eq!(
                hub.subscribe("b", what.clone(), None).err(),
                Some(Full::Server)
            );
        });
    }
}
