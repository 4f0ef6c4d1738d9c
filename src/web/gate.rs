//! What the pages of `herald serve` share below them: the seats a
//! session holds across the host, a game opened to write with its door
//! (the budget of password checks and the bound on replies), the clock,
//! and the answers every handler may give (not yours, not now, a page
//! with its CSP).

use super::sessions::Who;
use super::{status_page, Shared};
use crate::error::{Error, Result};
use crate::host::layout::HostDir;
use crate::host::state::GameState;
use crate::names::Name;
use crate::requests::bound::Bound;
use crate::requests::guard::Budget;
use crate::requests::{Claim, Requester};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use std::path::Path;
use std::time::Duration;

/// How long a request waits for a game another herald is writing.
const WAIT: Duration = Duration::from_secs(10);

pub(crate) fn not_yours() -> Response {
    status_page(
        StatusCode::NOT_FOUND,
        "Not found",
        "No game of yours has that name here.",
    )
}

/// The seat the session holds in `game`, if any.
pub(crate) async fn seat_of(app: &Shared, who: &Who, game: &Name) -> Option<Seat> {
    let (dir, who, game) = (app.dir.clone(), who.clone(), game.clone());
    tokio::task::spawn_blocking(move || seat_in(&dir, &who, &game))
        .await
        .ok()
        .flatten()
}

/// The seat `who` holds in the host's game `game`, if any: that game's
/// folder read alone (its first line and secrets), not every game's (the
/// first seat of [`seats_for`] in that game, found without the others).
pub fn seat_in(dir: &Path, who: &Who, game: &Name) -> Option<Seat> {
    if !crate::requests::seats::is_game(dir, game) {
        return None;
    }
    let player = match who {
        Who::Address { address } => {
            crate::requests::seats::seats_in(HostDir::at(dir).game(game).root(), address)
                .into_iter()
                .next()?
        }
        Who::Seat { game: g, player } if g == game.as_str() => player.clone(),
        Who::Seat { .. } => return None,
    };
    row(dir, game, &player)
}

/// A page, its CSP allowing its own inline scripts by their hashes.
pub(crate) fn with_csp(html: String) -> Response {
    let csp = super::csp(&super::page::script_hashes(&html));
    let mut res = Html(html).into_response();
    if let Ok(v) = HeaderValue::from_str(&csp) {
        res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
    }
    res
}

pub(crate) fn failure(app: &Shared, e: &Error) -> Response {
    app.log.line("web", "failure", &[("error", &e.to_string())]);
    status_page(
        StatusCode::SERVICE_UNAVAILABLE,
        "Not now",
        "The game could not be read or written just now (another herald may be writing it); nothing was changed. Try again in a moment.",
    )
}

/// The door's host-side state of one game, for one request: its budget of
/// password checks (from the host's state of the game) and the host's
/// bound on replies.
pub(crate) struct Gate {
    st: GameState,
    pub(crate) budget: Budget,
    pub(crate) bound: Bound,
}

impl Gate {
    pub(crate) fn open(app: &Shared, game: &Name, w: &crate::pipeline::Writing, now: i64) -> Gate {
        let mut st = GameState::load(&app.dir, game).unwrap_or_default();
        let budget = Budget::new(
            app.cfg.password_checks_per_hour,
            now,
            &w.game.head().players,
            &mut st.guard,
            &mut st.refusals_to,
        );
        let bound = Bound::open(
            &app.host().reply_bound(),
            app.cfg.trust.replies_per_hour,
            now,
        );
        Gate { st, budget, bound }
    }

    /// The counts put back into the game's state, saved.
    pub(crate) fn close(self, app: &Shared, game: &Name) -> Result<()> {
        let mut st = self.st;
        for f in self.budget.take_floods() {
            app.log.line(
                "web",
                "flood",
                &[("game", game.as_str()), ("player", &f.player)],
            );
        }
        (st.guard, st.refusals_to) = self.budget.into_counts();
        st.save(&app.dir, game)
    }
}

/// Unix seconds `t` as RFC 3339 (UTC).
pub(crate) fn rfc3339(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0)
        .unwrap_or_default()
        .fixed_offset()
        .to_rfc3339()
}

pub(crate) fn open_game(app: &Shared, game: &Name, now: &str) -> Result<crate::pipeline::Writing> {
    let root = HostDir::at(&app.dir).game(game).root().to_path_buf();
    let form = crate::pipeline::derived::MailForm {
        png: app.cfg.attach_png,
        web: app.cfg.web_url.clone(),
    };
    let mut w = crate::pipeline::open_to_write_with(&root, WAIT, now, form)?;
    w.complete(now)?;
    Ok(w)
}

/// Whether `password` is `player`'s of `game`: one check of the game's
/// budget, as a mail's from no player's address.
pub fn check_password(app: &Shared, game: &Name, player: &str, password: &str) -> Result<bool> {
    if !crate::requests::seats::is_game(&app.dir, game) {
        return Ok(false);
    }
    let t = now();
    let now = rfc3339(t);
    let w = open_game(app, game, &now)?;
    let Some(seat) = w.game.head().player_index(player) else {
        return Ok(false);
    };
    let gate = Gate::open(app, game, &w, t);
    let by = Requester::Password {
        player: player.into(),
        password: password.into(),
        claim: Claim::default(),
    };
    let check = gate.budget.for_request(&by);
    let v = crate::auth::Guard::check(
        &check,
        player,
        "",
        password,
        &w.game.head().players[seat].password,
    );
    drop(check);
    gate.close(app, game)?;
    Ok(v == crate::auth::Verdict::Right)
}

/// One seat of a player, as the list shows it.
#[derive(Debug, Clone)]
pub struct Seat {
    pub game: Name,
    pub player: String,
    pub title: String,
    pub turn: u32,
    pub deadline: Option<String>,
    /// The player's orders are awaited now.
    pub due: bool,
    /// Orders of the player's are stored for this turn.
    pub sent: bool,
    pub over: bool,
}

/// Every seat of the host's games whose address is `address`: the door's
/// one answer to which seats a proven address holds
/// ([`crate::requests::seats::held_by`], the secrets' addresses), each
/// read as the page shows it.
pub fn seats_of(dir: &Path, address: &str) -> Vec<Seat> {
    crate::requests::seats::held_by(&HostDir::at(dir), address)
        .into_iter()
        .filter_map(|h| row(dir, &h.game, &h.player))
        .collect()
}

/// The seat `player` of `game`, if the host has that game and player.
pub fn seat(dir: &Path, game: &Name, player: &str) -> Option<Seat> {
    let (games, _) = crate::host::route::list_games(dir);
    let g = games.into_iter().find(|g| g == game)?;
    row(dir, &g, player)
}

/// The seat `player` of the host's game `game`, read as the page shows
/// it (the game known to be the host's: listed, or found by the door).
fn row(dir: &Path, game: &Name, player: &str) -> Option<Seat> {
    let root = HostDir::at(dir).game(game).root().to_path_buf();
    let (store, loaded) = crate::pipeline::open(&root).ok()?;
    let seat = loaded.head().player_index(player)?;
    Some(seat_row(game, &store, &loaded, seat))
}

/// The seats a session acts for.
pub fn seats_for(dir: &Path, who: &Who) -> Vec<Seat> {
    match who {
        Who::Address { address } => seats_of(dir, address),
        Who::Seat { game, player } => Name::new("game", game)
            .ok()
            .and_then(|g| seat(dir, &g, player))
            .into_iter()
            .collect(),
    }
}

fn seat_row(
    game: &Name,
    store: &crate::store::Store,
    loaded: &crate::pipeline::Loaded,
    seat: usize,
) -> Seat {
    let h = loaded.head();
    let player = h.players[seat].id.clone();
    let awaited = loaded.rules.awaiting(&loaded.state);
    let sent = crate::store::orders::waiting(&store.dir, h.turn)
        .map(|w| w.iter().any(|s| s.player == player))
        .unwrap_or(false);
    Seat {
        game: game.clone(),
        title: loaded.entry.title.to_string(),
        turn: h.turn,
        deadline: h.deadline.clone(),
        due: awaited.contains(&seat),
        sent,
        over: loaded.summary().2.is_some(),
        player,
    }
}

/// Whether the session acts for the host's moderator.
pub fn is_moderator(app: &Shared, who: &Who) -> bool {
    match (who, &app.cfg.moderator) {
        (Who::Address { address }, Some(m)) => address.eq_ignore_ascii_case(m.trim()),
        _ => false,
    }
}

/// Unix seconds now: the server's clock (the web has no `--now`).
pub fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Whether the lobby has something for a newcomer: an open table with a
/// free seat, or a seat to take over. Then a sign-in link goes to any
/// address that asks (within the bound on replies to it), as a `join` by
/// mail gets a code mailed to any address; else only to the host's
/// players and its moderator.
pub fn on_offer(host: &crate::host::layout::HostDir) -> bool {
    let (tables, _) = crate::requests::lobby::all(host);
    tables
        .iter()
        .any(|t| t.status == crate::requests::lobby::Status::Open && t.seats.len() < t.max)
        || crate::requests::lobby::seats::all(host).iter().any(|g| {
            g.offers
                .iter()
                .any(|o| o.status == crate::requests::lobby::seats::OfferStatus::Open)
        })
}
