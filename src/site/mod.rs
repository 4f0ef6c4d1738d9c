//! The replay site: a static folder a reader browses to follow a game
//! phase by phase and checks in the browser (`herald site`, issue 34).
//!
//! - [`build`]: replay the game from its genesis with the seed (so a site
//!   is only made of a game that replays), work out one *frame* per
//!   resolved phase (and one for the start) as the chosen reader may see
//!   it ([`Who`]), and write the folder ([`files`]).
//! - Who sees what: a finished game shows the whole truth
//!   ([`Who::Everything`], the games' `omniscient_view`), or one player's
//!   own views ([`Who::Player`]); a running game only a player's own views
//!   or the public one ([`Who::Public`]), and never carries the game file,
//!   whose head and entries hold what reports hide.
//! - A host's gallery of finished games (`herald site --host DIR`, and
//!   `herald host` after each pass) is `crate::host::gallery`: it builds
//!   these sites in paths of the host folder's layout.
//!
//! The page's script (`templates/site/site.js`) draws the frames, and
//! recomputes the chain from the game file the site carries: SHA-256 and
//! Ed25519 through the browser's Web Crypto, no request leaves the page.

pub mod files;
pub mod page;

use crate::board::picture::Seen;
use crate::chain::body::{Body, Phase};
use crate::error::{Error, Result};
use crate::games::{AnyView, Seat};
use crate::pipeline::loaded::summary;
use crate::pipeline::replay::replay;
use crate::pipeline::Loaded;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

/// Whose eyes a site shows the game through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// The whole truth: only for a game that is over.
    Everything,
    /// One player's own view of each phase, as their reports told it.
    Player(Seat),
    /// What every player is told: a board only where no player is told
    /// less than the whole truth, the rolls everyone sees, who sent orders.
    Public,
}

/// One phase as the site shows it (the first frame: the start).
///
/// A frame is numbered once, here, by herald's turn the game stands at
/// after it ([`Frame::turn`]): the number the reports of that turn carry
/// ("Turn 5, phase: move"), the one `herald report --turn N` takes, and
/// the one the frame's board says in its caption (`Frame::Site`). The
/// orders, events and dice it lists are those of the phase just resolved
/// ([`Frame::after`]: the turn before).
#[derive(Debug, Clone, Serialize)]
pub struct Frame {
    /// The log entry after which the game stands so (0: the genesis).
    pub entry: usize,
    /// herald's turn the game stands at: resolved phases so far.
    pub turn: u32,
    /// The phase the board waits for, or `the end`.
    pub phase: String,
    /// `turn 5: move`, `turn 0: the start`: the page's name of the frame.
    pub name: String,
    /// `turn-5`: its anchor on the replay page.
    pub anchor: String,
    /// The phase this frame resolved (`turn 4: move`); `None` for the start.
    pub after: Option<String>,
    /// Where to read the reports of this turn, and the command that prints
    /// them again (GAME: the game folder; needs its secrets while the game
    /// runs): for scripts; the page shows each reader's view instead
    /// ([`Frame::views`]).
    pub report: String,
    pub resolved_at: Option<String>,
    /// When it was resolved, as people read it (`2026-11-22 13:00 UTC`).
    pub when: Option<String>,
    /// The other views of this phase the page offers beside the frame's
    /// own (a finished game's: the public view and each player's own, as
    /// their report of the phase showed it; none for a running game's
    /// site, which shows one reader's view only).
    pub views: Vec<Lens>,
    /// The board as SVG, or `None` where this reader may not see it.
    #[serde(skip)]
    pub board: Option<String>,
    /// Why there is no board, when there is none.
    pub no_board: Option<String>,
    pub events: Vec<String>,
    pub orders: Vec<Orders>,
    pub rolls: Vec<Roll>,
    pub dropped: Vec<String>,
    /// What the game waits for after this phase, or how it ended.
    pub next: String,
}

/// One reader's view of a phase ([`Frame::views`]): the board and the
/// events as that reader was told them.
#[derive(Debug, Clone, Serialize)]
pub struct Lens {
    /// `public`, or the player's id.
    pub reader: String,
    /// "the public view", "north's report".
    pub label: String,
    /// The board as SVG, or `None` where this reader was shown none.
    #[serde(skip)]
    pub board: Option<String>,
    pub no_board: Option<String>,
    pub events: Vec<String>,
}

/// One player's orders of a phase, as far as the reader may see them.
#[derive(Debug, Clone, Serialize)]
pub struct Orders {
    pub player: String,
    /// The player as the page names them: `red (Ann)`, the display name
    /// beside the id (the holder's at this phase), or the id alone.
    pub shown: String,
    /// The orders as herald read them; `None`: hidden from this reader
    /// (that orders came in is public).
    pub lines: Option<Vec<String>>,
    /// The missed-order policy that stood in, if herald did.
    pub nmr: Option<String>,
    /// The bot seat's bot (its spec), where a bot made the orders.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

/// A die and what it decided.
#[derive(Debug, Clone, Serialize)]
pub struct Roll {
    pub sides: u32,
    pub value: u32,
    pub what: String,
}

/// One press message as a site shows it: only in the site of a finished
/// game whose rules reveal its press at the end ([`revealed_press`]).
#[derive(Debug, Clone, Serialize)]
pub struct Press {
    pub n: u32,
    pub turn: u32,
    pub at: String,
    /// `red (Ann)`; anonymous press as `red (Ann), sent anonymously`: a
    /// site shows press only where the game's rules reveal it, and then
    /// its sender too.
    pub from: String,
    /// The players it was relayed to, or for an answer to anonymous press
    /// "the anonymous sender of press #N".
    pub to: String,
    pub text: String,
    /// What proves it against the game file: the text, the block with the
    /// nonce, and for anonymous press the opening of its sender commitment
    /// (as the sender's own copy holds them): the site's `press.txt`.
    #[serde(skip)]
    pub proof: String,
}

/// Player `id` as a page names them: `red (Ann)` (the display name of
/// the seat's holder as `g` stands), or the id alone.
pub fn shown(g: &Loaded, id: &str) -> String {
    g.head()
        .players
        .iter()
        .find(|p| p.id == id)
        .map_or_else(|| id.to_string(), |p| p.shown())
}

/// The press a site of `g` through `who`'s eyes shows, and how many press
/// entries the game has: texts only for [`Who::Everything`] of a finished
/// game whose rules say `reveal = end` (chosen at `new`: `--press-reveal
/// end`), read from the game folder's kept press. Never for a running
/// game, a player's view or the public one, and never for a game whose
/// rules say `never`. Built from a published game file alone (no
/// `press/` beside it) a site has none either: the texts are only in the
/// moderator's folder.
pub fn revealed_press(
    store: &crate::store::Store,
    g: &Loaded,
    who: Who,
) -> Result<(Vec<Press>, usize)> {
    let logged = crate::pipeline::press::entries(store, g)?.len();
    let rules = crate::pipeline::press::rules_of(store, g)?;
    if who != Who::Everything
        || g.head().outcome.is_none()
        || rules.reveal != "end"
        || logged == 0
        || !store.dir.press().is_dir()
    {
        return Ok((Vec::new(), logged));
    }
    let shown = crate::pipeline::press::all_kept(g, store)?
        .into_iter()
        .map(|(k, hash)| Press {
            n: k.entry.n,
            turn: k.entry.turn,
            at: k.entry.at.clone(),
            from: crate::pipeline::press::revealed_sender(g, &k),
            proof: crate::pipeline::press::proof(g, &k, &hash),
            to: match (k.entry.to.is_empty(), k.answers) {
                (true, Some(n)) => format!("the anonymous sender of press #{n}"),
                (true, None) => "nobody".into(),
                (false, _) => crate::pipeline::press::shown_to(g, &k),
            },
            text: k.text,
        })
        .collect();
    Ok((shown, logged))
}

/// What [`build`] made.
pub struct Built {
    pub frames: usize,
    pub files: Vec<(String, usize)>,
    pub over: bool,
    pub who: Who,
}

/// Who may read the files of a site once written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// A finished game's site on its own (`herald site`): world-readable
    /// (0644, folders 0755), to publish; a running game's stays private.
    ByGame,
    /// Always the owner's alone (0600, 0700): a site inside a host folder,
    /// where every file is (docs/host.md); the moderator copies it out.
    Private,
}

/// `herald site`: replay `g` with `seed` and write its site into `out`.
/// `press`: what [`revealed_press`] allows (none for any other site).
pub fn build(
    g: &Loaded,
    seed: &str,
    who: Who,
    out: &Path,
    access: Access,
    press: &[Press],
) -> Result<Built> {
    let over = g.head().outcome.is_some();
    if who == Who::Everything && !over {
        return Err(Error::usage(format!(
            "{} is still running: its site shows one player's own view (--player PLAYER) or the public view, never a hidden fact before the end",
            g.head().id
        )));
    }
    if !press.is_empty() && (who != Who::Everything || !over) {
        return Err(Error::internal(
            "press texts offered to a site that is not of a finished game's whole truth",
        ));
    }
    let frames = frames(g, seed, who)?;
    let site = files::Site::new(g, who, &frames, press);
    let written = files::write(&site, out, over, over && access == Access::ByGame)?;
    Ok(Built {
        frames: frames.len(),
        files: written,
        over,
        who,
    })
}

/// Every frame of the game as `who` may see it, by replaying it.
pub fn frames(g: &Loaded, seed: &str, who: Who) -> Result<Vec<Frame>> {
    let n = g.record.entries.len();
    let mut frames = Vec::new();
    let players = g.players();
    let replayed = replay(&g.record, &g.genesis, seed, n, |at, i| {
        let phase = if i == 0 {
            None
        } else {
            match at.record.entries[i].decode() {
                Ok(Body::Phase(p)) => Some(p),
                Ok(Body::Resign(r)) => Some(step(
                    r.turn,
                    format!("{} resigned", r.player),
                    r.events,
                    r.state_sha256,
                    r.at,
                )),
                Ok(Body::Draw(d)) => match (d.events, d.state_sha256) {
                    (Some(events), Some(state)) => Some(step(
                        d.turn,
                        "drawn by agreement".into(),
                        events,
                        state,
                        d.at,
                    )),
                    _ => return Ok(()),
                },
                _ => return Ok(()),
            }
        };
        let mut f = frame(at, i, phase.as_ref(), &players, who)?;
        // A resignation taken in the turn of a frame before it: its own anchor.
        if frames.iter().any(|x: &Frame| x.anchor == f.anchor) {
            f.anchor = format!("{}-entry-{i}", f.anchor);
        }
        frames.push(f);
        Ok(())
    })?;
    if let Err(found) = replayed {
        return Err(Error::all(
            found
                .into_iter()
                .map(|p| format!("the log does not replay: {p}"))
                .collect(),
        ));
    }
    Ok(frames)
}

/// A resignation, or the accept that ended a game in a draw, as a step
/// of the replay (docs/host.md, "Resign and draw"): no orders, no dice,
/// its events (a Norse Wars Jarl and Warriors taken off the board), named
/// by what it did. A resignation that leaves the game going (Norse Wars
/// with three or more) changes the board as a phase does, and the replay
/// shows each.
fn step(turn: u32, what: String, events: Vec<Value>, state: String, at: String) -> Phase {
    Phase {
        turn,
        phase: what,
        orders: Vec::new(),
        dice: 0,
        rolls: Vec::new(),
        events,
        dropped: Vec::new(),
        excused: Vec::new(),
        state_sha256: state,
        resolved_at: at,
        deadline: None,
    }
}

/// The game after entry `i` (a phase, a resignation, the accept that
/// ended it in a draw, or the genesis) as `who` sees it.
///
/// Long (about 150 lines): the board, the orders, the dice and the names
/// of one frame, each as far as `who` may see it.
fn frame(
    g: &Loaded,
    i: usize,
    phase: Option<&Phase>,
    players: &[String],
    who: Who,
) -> Result<Frame> {
    let rules = g.rules.as_ref();
    let events: Vec<(u32, Value)> = phase
        .map(|p| p.events.iter().map(|e| (p.turn, e.clone())).collect())
        .unwrap_or_default();
    let err = Error::from;
    let seen: Option<AnyView> = match who {
        Who::Everything => Some(
            g.rules
                .omniscient_view(&g.state, players, 0, &events)
                .map_err(err)?,
        ),
        Who::Player(seat) => Some(rules.view(&g.state, players, seat, &events).map_err(err)?),
        Who::Public => public_view(g, players, &events)?,
    };
    let (board, told) = drawn(g, seen.as_ref(), who);
    let no_board = board.is_none().then(|| HIDDEN.to_string());
    // a finished game's other views of the phase: the public one and each
    // player's own (never while it runs: a site shows one reader's view)
    let mut views = Vec::new();
    if who == Who::Everything {
        let public = public_view(g, players, &events)?;
        let (board, events_told) = drawn(g, public.as_ref(), Who::Public);
        views.push(Lens {
            reader: "public".into(),
            label: "the public view".into(),
            no_board: board.is_none().then(|| HID.to_string()),
            board,
            events: events_told,
        });
        for (s, p) in players.iter().enumerate() {
            let v = rules.view(&g.state, players, s, &events).map_err(err)?;
            let (board, events_told) = drawn(g, Some(&v), Who::Player(s));
            views.push(Lens {
                reader: p.clone(),
                label: format!("{}'s report", shown(g, p)),
                board,
                no_board: None,
                events: events_told,
            });
        }
    }
    let reader = match who {
        Who::Player(s) => Some(players[s].as_str()),
        _ => None,
    };
    let orders = phase
        .map(|p| {
            p.orders
                .iter()
                .map(|o| Orders {
                    player: o.player.clone(),
                    shown: shown(g, &o.player),
                    lines: (who == Who::Everything || reader == Some(o.player.as_str())).then(
                        || {
                            if o.read.is_empty() {
                                // herald 0.1 kept the file, not the orders as read
                                vec![o.text.clone()]
                            } else {
                                o.read.clone()
                            }
                        },
                    ),
                    nmr: o.nmr.clone(),
                    bot: o.bot.clone(),
                })
                .collect()
        })
        .unwrap_or_default();
    let rolls = phase
        .map(|p| {
            p.rolls
                .iter()
                .filter(|r| match (&r.seen_by, who) {
                    (None, _) | (_, Who::Everything) => true,
                    (Some(by), Who::Player(s)) => by.iter().any(|x| *x == players[s]),
                    (Some(_), Who::Public) => false,
                })
                .map(|r| Roll {
                    sides: r.sides,
                    value: r.value,
                    what: r.what.clone(),
                })
                .collect()
        })
        .unwrap_or_default();
    let (phase_now, awaiting, outcome) = summary(rules, &g.state, players);
    let turn = g.head().turn;
    let phase_name = match (i, &outcome) {
        (0, _) => "the start".to_string(),
        (_, Some(_)) => "the end".to_string(),
        _ => phase_now.clone(),
    };
    let report = match who {
        Who::Player(s) => format!(
            "{p}'s report of turn {turn} showed this board: herald report GAME --player {p} --turn {turn}",
            p = players[s]
        ),
        _ => format!(
            "Each player's report of turn {turn}, as it was sent: herald report GAME --player PLAYER --turn {turn}"
        ),
    };
    let next = match outcome {
        Some(o) => format!("the game is over: {}", o.summary),
        None if awaiting.is_empty() => format!("next: {phase_now}"),
        None => format!(
            "next: {phase_now}, awaiting {}",
            awaiting
                .iter()
                .map(|p| shown(g, p))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Ok(Frame {
        entry: i,
        turn,
        name: format!("turn {turn}: {phase_name}"),
        anchor: format!("turn-{turn}"),
        phase: phase_name,
        after: phase.map(|p| format!("turn {}: {}", p.turn, p.phase)),
        report,
        resolved_at: phase.map(|p| p.resolved_at.clone()),
        when: phase.map(|p| crate::time::shown(&p.resolved_at)),
        views,
        board,
        no_board,
        events: told,
        orders,
        rolls,
        dropped: phase.map(|p| p.dropped.clone()).unwrap_or_default(),
        next,
    })
}

/// Why a finished game's public view of a phase shows no board.
const HID: &str = "this game hid something from its players while it ran, so no board was shown to everyone: each player saw their own (pick their report), and the whole truth is this site's own view";

/// Why a frame shows no board.
const HIDDEN: &str = "this game hides something from its players while it runs: each player sees the board in their own reports (a site --player PLAYER), and everyone sees it when the game ends";

/// The public view of `g` now: a view only where no player is told less
/// than the whole truth (then it is everybody's), else none.
fn public_view(g: &Loaded, players: &[String], events: &[(u32, Value)]) -> Result<Option<AnyView>> {
    let rules = g.rules.as_ref();
    for s in 0..players.len() {
        let told = rules
            .view(&g.state, players, s, events)
            .map_err(Error::from)?;
        let all = rules
            .omniscient_view(&g.state, players, s, events)
            .map_err(Error::from)?;
        if rules.view_json(&told) != rules.view_json(&all) {
            return Ok(None);
        }
    }
    Ok(Some(
        rules
            .view(&g.state, players, 0, events)
            .map_err(Error::from)?,
    ))
}

/// A view's board as `who` sees it, and the events it tells; nothing for
/// no view. The caption says whose view it is: a player's own names them
/// "you", the others are seen by no one player.
fn drawn(g: &Loaded, seen: Option<&AnyView>, who: Who) -> (Option<String>, Vec<String>) {
    let rules = g.rules.as_ref();
    match seen {
        Some(v) => (
            Some(rules.svg_board(
                v,
                crate::board::picture::Frame::Site(
                    match who {
                        Who::Everything => Seen::Everything,
                        Who::Public => Seen::Public,
                        Who::Player(_) => Seen::Player,
                    },
                    g.head().turn,
                ),
            )),
            event_texts(&rules.view_json(v)),
        ),
        None => (None, Vec::new()),
    }
}

/// The events a view tells, as text: every game's view lists them as
/// `events: [{turn, text, …}]`.
fn event_texts(view: &Value) -> Vec<String> {
    view["events"]
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|e| e["text"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
