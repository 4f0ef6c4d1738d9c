//! Resign and draw by agreement, in every game (issue 52; docs/host.md,
//! "Resign and draw"): a player's `resign` at any time, and a draw
//! offered, accepted or declined among the players still in. Each is a
//! signed entry of the game file (format 6: `resign`, `draw`); the state
//! after a resignation, and after the accept that makes every player still
//! in agree, is the game's own ([`crate::games::Game::resign`],
//! [`crate::games::Game::agree_draw`]), so the outcome, the reports, the
//! replay site and `verify` read it as they read any ending.
//!
//! The rules of the offer, written in docs/host.md: an offer stands until
//! it is declined (by anyone still in, its offerer withdrawing it
//! included), until the next phase is resolved, or until a player resigns
//! (the players still in are no longer those who were asked); one offer
//! at a time; the draw needs every player still in. Entries are made
//! from these rules alone ([`resign_body`], [`draw_body`]), so `verify`
//! makes each again from the log before it and compares
//! ([`replay_entry`]).

use super::loaded::{summary, Loaded};
use crate::chain::body::{Body, DrawEntry, Resign, Reveal};
use crate::chain::canon::{canonical, sha256_hex};
use crate::chain::step::Step;
use crate::chain::Signer;
use crate::error::Result;
use crate::games::{AnyState, Outcome};
use std::fmt;

/// What a player asks of a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    Offer,
    Accept,
    Decline,
}

impl Act {
    pub const ALL: [Act; 3] = [Act::Offer, Act::Accept, Act::Decline];

    /// The word in the entry and in the mail (`offer draw …`).
    pub fn name(self) -> &'static str {
        match self {
            Act::Offer => "offer",
            Act::Accept => "accept",
            Act::Decline => "decline",
        }
    }

    pub fn parse(s: &str) -> Option<Act> {
        Act::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
    }
}

/// Why a resignation or a draw request is refused: typed, and said with
/// the exact line to send where one would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The game file's format is older than the entries need.
    Format { has: u32 },
    /// The game is over.
    Over,
    /// Not a player of this game.
    NotAPlayer {
        player: String,
        players: Vec<String>,
    },
    /// The player is out of the game already (eliminated, resigned).
    NotIn { player: String },
    /// The game takes no resignation now (Norse Wars' Shield draft).
    NotNow { player: String },
    /// `accept` or `decline` with no offer standing.
    NoOffer { player: String },
    /// `offer` while one stands.
    OfferStands { player: String, by: String },
    /// `accept` from a player who agreed already.
    Agreed { player: String },
    /// `offer` while a bot seat is still in: a bot never accepts a draw
    /// (docs/host.md, "Resign and draw").
    BotIn { player: String, bots: Vec<String> },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Format { has } => write!(
                f,
                "this game's file is format {has}, which cannot record a resignation or a draw; the moderator can run `herald convert` on it (format {} records them)",
                crate::chain::FORMAT
            ),
            Refusal::Over => f.write_str("the game is over"),
            Refusal::NotAPlayer { player, players } => write!(
                f,
                "`{}` is not a player of this game ({})",
                player.chars().take(32).collect::<String>(),
                players.join(", ")
            ),
            Refusal::NotIn { player } => write!(f, "{player} is out of the game already"),
            Refusal::NotNow { player } => write!(
                f,
                "the game takes no resignation in this phase (Norse Wars: nobody leaves during the Shield draft); send `resign {player} YOUR-PASSWORD` again once the first move is due"
            ),
            Refusal::NoOffer { player } => write!(
                f,
                "no draw is offered now; to offer one send `offer draw {player} YOUR-PASSWORD`"
            ),
            Refusal::OfferStands { player, by } => write!(
                f,
                "{by} offered a draw already; to agree send `accept draw {player} YOUR-PASSWORD`, or `decline draw {player} YOUR-PASSWORD` to turn it down"
            ),
            Refusal::BotIn { player, bots } => write!(
                f,
                "a draw needs every player still in to accept it, and {} (herald's bot) never accepts one: play on, or send `resign {player} YOUR-PASSWORD` to give the game up",
                bots.join(" and ")
            ),
            Refusal::Agreed { player } => write!(
                f,
                "you agreed to this draw already; it is agreed when every player still in accepts (to take your agreement back send `decline draw {player} YOUR-PASSWORD`)"
            ),
        }
    }
}

/// What was done: the words every player is told, and the outcome if it
/// ended the game.
#[derive(Debug, Clone)]
pub struct Done {
    pub told: String,
    pub ended: Option<Outcome>,
}

/// The offer standing now: the players who agreed to it, its offerer
/// first; `None` when none stands. An offer lapses at the next phase
/// resolved, at a resignation, and when declined.
pub fn standing(g: &Loaded) -> Option<Vec<String>> {
    standing_in(&g.record.entries)
}

fn standing_in(entries: &[crate::chain::record::EntryLine]) -> Option<Vec<String>> {
    let mut acts = Vec::new();
    for e in entries.iter().rev() {
        if !(e.body.contains("\"kind\":\"draw\"")
            || e.body.contains("\"kind\":\"phase\"")
            || e.body.contains("\"kind\":\"resign\"")
            || e.body.contains("\"kind\":\"genesis\""))
        {
            continue;
        }
        match Step::read(&e.body) {
            Ok(Step::Draw { player, act, .. }) => acts.push((player, act)),
            Ok(_) => break,
            Err(_) => continue,
        }
    }
    let mut agreed: Option<Vec<String>> = None;
    for (player, act) in acts.into_iter().rev() {
        match act.as_str() {
            "offer" => agreed = Some(vec![player]),
            "accept" => {
                if let Some(a) = agreed.as_mut() {
                    a.push(player)
                }
            }
            _ => agreed = None,
        }
    }
    agreed
}

/// The players still in, by id.
pub fn still_in(g: &Loaded) -> Vec<String> {
    let ids = g.players();
    g.rules
        .still_in(&g.state, ids.len())
        .into_iter()
        .filter_map(|s| ids.get(s).cloned())
        .collect()
}

/// The checks both kinds share: the format, the game running, the player
/// a player still in.
fn may(g: &Loaded, player: &str) -> std::result::Result<usize, Refusal> {
    let h = g.head();
    if h.format < crate::chain::kind_format("resign") {
        return Err(Refusal::Format { has: h.format });
    }
    if h.outcome.is_some() {
        return Err(Refusal::Over);
    }
    let Some(seat) = h.player_index(player) else {
        return Err(Refusal::NotAPlayer {
            player: player.to_string(),
            players: g.players(),
        });
    };
    if !still_in(g).iter().any(|p| p == player) {
        return Err(Refusal::NotIn {
            player: player.to_string(),
        });
    }
    Ok(seat)
}

/// The entry `player` resigning at `now` makes, and the state after it.
pub fn resign_body(
    g: &Loaded,
    player: &str,
    now: &str,
) -> std::result::Result<(Body, AnyState), Refusal> {
    let seat = may(g, player)?;
    let Some((next, events)) = g.rules.resign(&g.state, seat) else {
        return Err(Refusal::NotNow {
            player: player.to_string(),
        });
    };
    let value = g.rules.encode(&next);
    let body = Body::Resign(Resign {
        player: player.to_string(),
        turn: g.head().turn,
        events,
        state_sha256: sha256_hex(canonical(&value).as_bytes()),
        at: now.to_string(),
    });
    Ok((body, next))
}

/// The entry `player`'s `act` at `now` makes, and the state after it
/// where it ended the game.
pub fn draw_body(
    g: &Loaded,
    player: &str,
    act: Act,
    now: &str,
) -> std::result::Result<(Body, Option<AnyState>), Refusal> {
    may(g, player)?;
    let standing = standing(g);
    let who = || player.to_string();
    let mut next = None;
    match (act, &standing) {
        (Act::Offer, Some(by)) => {
            return Err(Refusal::OfferStands {
                player: who(),
                by: by[0].clone(),
            })
        }
        (Act::Offer, None) => {
            let bots: Vec<String> = still_in(g)
                .into_iter()
                .filter(|p| g.genesis.bots.contains_key(p))
                .collect();
            if !bots.is_empty() {
                return Err(Refusal::BotIn {
                    player: who(),
                    bots,
                });
            }
        }
        (Act::Accept | Act::Decline, None) => return Err(Refusal::NoOffer { player: who() }),
        (Act::Accept, Some(agreed)) if agreed.iter().any(|p| p == player) => {
            return Err(Refusal::Agreed { player: who() })
        }
        (Act::Accept, Some(agreed)) => {
            let all = still_in(g)
                .iter()
                .all(|p| p == player || agreed.contains(p));
            if all {
                let Some(n) = g.rules.agree_draw(&g.state) else {
                    return Err(Refusal::Over);
                };
                next = Some(n);
            }
        }
        _ => {}
    }
    let (events, state_sha256) = match &next {
        Some((state, events)) => {
            let value = g.rules.encode(state);
            (
                Some(events.clone()),
                Some(sha256_hex(canonical(&value).as_bytes())),
            )
        }
        None => (None, None),
    };
    let body = Body::Draw(DrawEntry {
        player: player.to_string(),
        act: act.name().to_string(),
        turn: g.head().turn,
        events,
        state_sha256,
        at: now.to_string(),
    });
    Ok((body, next.map(|(s, _)| s)))
}

/// The head brought up to date with a state a `resign` or `draw` entry
/// gave (the entry itself appended by the caller).
fn take(g: &mut Loaded, next: AnyState) {
    let value = g.rules.encode(&next);
    let players = g.players();
    let (phase, awaiting, outcome) = summary(g.rules.as_ref(), &next, &players);
    let h = &mut g.record.head;
    h.state_sha256 = sha256_hex(canonical(&value).as_bytes());
    h.state = value;
    h.phase = phase;
    h.awaiting = awaiting;
    h.outcome = outcome;
    g.state = next;
}

/// Append `body` (with the state after it, if it changed the game), and
/// the seed's reveal if the game ended, sealed with `signer`. In memory:
/// the caller commits.
fn append(
    g: &mut Loaded,
    body: Body,
    next: Option<AnyState>,
    now: &str,
    seed: &str,
    signer: &Signer,
) {
    if let Some(n) = next {
        take(g, n);
    }
    g.record.append(&body, signer);
    if g.record.head.outcome.is_some() {
        g.record.append(
            &Body::Reveal(Reveal {
                seed: seed.to_string(),
                at: now.to_string(),
            }),
            signer,
        );
        g.record.head.seed = Some(seed.to_string());
        g.record.head.deadline = None;
    }
    g.record.head.herald = env!("CARGO_PKG_VERSION").to_string();
    g.record.seal_with(signer);
}

/// `player` resigns at `now`: the entry appended in memory (the caller
/// commits), or why not.
pub fn resign(
    g: &mut Loaded,
    player: &str,
    now: &str,
    seed: &str,
    signer: &Signer,
) -> Result<std::result::Result<Done, Refusal>> {
    super::forward_in_time(g, now)?;
    let (body, next) = match resign_body(g, player, now) {
        Ok(x) => x,
        Err(r) => return Ok(Err(r)),
    };
    append(g, body, Some(next), now, seed, signer);
    let ended = g.head().outcome.clone();
    let told = match &ended {
        Some(o) => format!("{player} resigned. The game is over: {}.", o.summary),
        None => format!(
            "{player} resigned and leaves the game; it goes on with {}.",
            still_in(g).join(", ")
        ),
    };
    Ok(Ok(Done { told, ended }))
}

/// `player`'s `act` on a draw at `now`: the entry appended in memory (the
/// caller commits), or why not.
pub fn draw(
    g: &mut Loaded,
    player: &str,
    act: Act,
    now: &str,
    seed: &str,
    signer: &Signer,
) -> Result<std::result::Result<Done, Refusal>> {
    super::forward_in_time(g, now)?;
    let before = standing(g);
    let (body, next) = match draw_body(g, player, act, now) {
        Ok(x) => x,
        Err(r) => return Ok(Err(r)),
    };
    append(g, body, next, now, seed, signer);
    let ended = g.head().outcome.clone();
    Ok(Ok(Done {
        told: told(g, player, act, before.as_deref(), ended.as_ref()),
        ended,
    }))
}

/// The words for a draw entry, as every player is told.
fn told(
    g: &Loaded,
    player: &str,
    act: Act,
    before: Option<&[String]>,
    ended: Option<&Outcome>,
) -> String {
    let offerer = before.and_then(|b| b.first()).map(String::as_str);
    let waiting = || -> String {
        let agreed = standing(g).unwrap_or_default();
        still_in(g)
            .into_iter()
            .filter(|p| !agreed.contains(p))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (act, ended) {
        (_, Some(o)) => format!(
            "{player} accepted the draw: every player still in agreed. The game is over: {}.",
            o.summary
        ),
        (Act::Offer, None) => format!(
            "{player} offers a draw. It is agreed when every player still in accepts (waiting for {}); the offer lapses when turn {} is resolved or when it is declined.",
            waiting(),
            g.head().turn
        ),
        (Act::Accept, None) => format!(
            "{player} accepted the draw {} offered (still waiting for {}).",
            offerer.unwrap_or("another player"),
            waiting()
        ),
        (Act::Decline, None) if offerer == Some(player) => {
            format!("{player} withdrew their offer of a draw: the game goes on.")
        }
        (Act::Decline, None) => format!(
            "{player} declined the draw {} offered: the offer is off, the game goes on.",
            offerer.unwrap_or("another player")
        ),
    }
}

/// What the players are told of the resignations and draw offers since
/// the last phase was resolved, one line each, for every report.
pub fn since_last_phase(g: &Loaded) -> Vec<String> {
    let mut lines = Vec::new();
    for e in g.record.entries.iter().rev() {
        if e.body.contains("\"kind\":\"phase\"") || e.body.contains("\"kind\":\"genesis\"") {
            break;
        }
        if !(e.body.contains("\"kind\":\"draw\"") || e.body.contains("\"kind\":\"resign\"")) {
            continue;
        }
        match e.decode() {
            Ok(Body::Resign(r)) => lines.push(format!("{} resigned ({}).", r.player, shown(&r.at))),
            Ok(Body::Draw(d)) => lines.push(match (d.act.as_str(), d.state_sha256.is_some()) {
                (_, true) => format!(
                    "{} accepted the draw and every player still in agreed ({}).",
                    d.player,
                    shown(&d.at)
                ),
                ("offer", _) => format!(
                    "{} offered a draw ({}): every player still in may send `accept draw PLAYER PASSWORD` or `decline draw PLAYER PASSWORD`.",
                    d.player,
                    shown(&d.at)
                ),
                ("accept", _) => format!("{} accepted the draw offered ({}).", d.player, shown(&d.at)),
                _ => format!("{} declined the draw offered ({}).", d.player, shown(&d.at)),
            }),
            _ => {}
        }
    }
    lines.reverse();
    lines
}

fn shown(t: &str) -> String {
    crate::time::shown(t)
}

/// `verify`'s replay of a `resign` or `draw` entry: made again from the
/// log before it and compared byte for byte, the game brought up to date
/// with it. `Err` names what differs.
// A String error: a replay's finding, printed beside the entry.
pub fn replay_entry(g: &mut Loaded, recorded: &Body) -> std::result::Result<(), String> {
    let (made, next) = match recorded {
        Body::Resign(r) => resign_body(g, &r.player, &r.at)
            .map(|(b, s)| (b, Some(s)))
            .map_err(|why| format!("{} could not resign then: {why}", r.player))?,
        Body::Draw(d) => {
            let act = Act::parse(&d.act)
                .ok_or_else(|| format!("act `{}` is not a draw's", d.act.escape_debug()))?;
            draw_body(g, &d.player, act, &d.at)
                .map_err(|why| format!("{} could not {} a draw then: {why}", d.player, d.act))?
        }
        _ => return Err("not a resign or draw entry".into()),
    };
    if canonical(&made) != canonical(recorded) {
        return Err(format!(
            "the {} entry is not what the rules make of it (made again: {})",
            recorded.kind(),
            canonical(&made)
        ));
    }
    if let Some(n) = next {
        take(g, n);
    }
    Ok(())
}
