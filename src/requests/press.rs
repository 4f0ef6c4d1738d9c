//! Press and mutes through the door (docs/host.md, "Press", "Muting a
//! player"): a seat's press to other players, checked against the game's
//! press rules, the host's limits and the players' mutes, recorded
//! (`pipeline::relay::record`) and mailed to each recipient with an
//! address (`pipeline::relay::queue`: the relayed mails are the game's,
//! whatever carried the press); and a seat's mutes changed. The outcome
//! is typed ([`Relayed`], [`Muted`], or a [`Refusal`]); the sender's
//! acknowledgement and every refusal are worded at the edge
//! (`host::press` for mail).

use super::{Carrier, Door, Requester};
use crate::auth::{Guard, Verdict};
use crate::chain::body::PressRules;
use crate::error::Result;
use crate::pipeline::inbox::Fate;
use crate::pipeline::press::{self, Kept, To};
use crate::pipeline::Writing;

/// Press from a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Press {
    /// `None`: an answer to a press the seat got (`press reply`).
    pub to: Option<To>,
    pub anonymous: bool,
    /// Normalised (`pipeline::press::normalise`).
    pub text: String,
    /// The ids of what the press answers (a mail's In-Reply-To and
    /// References), and the `press #N` it names.
    pub refs: Vec<String>,
    pub subject_n: Option<u32>,
}

/// A seat's mutes changed: `on` (mute) or off, for `others` (none: only
/// say whom the seat has muted), or every mute off (`all`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mute {
    pub on: bool,
    pub others: Vec<String>,
    pub all: bool,
}

/// What a press request asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    Press(Press),
    Mute(Mute),
}

/// The seat a request names and the password it shows, where it shows
/// them itself (a mail's `player` and `password` lines); with no seat
/// named, the seat whose own address the requester's is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shown {
    pub player: Option<String>,
    pub password: Option<String>,
}

/// A press request from a requester.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub asked: Asked,
    pub by: Requester,
    pub shown: Shown,
    pub carrier: Carrier,
}

/// The host's limits on press (host.toml).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub per_day: u32,
    pub max_bytes: u64,
}

/// Press relayed: the kept press (its number, recipients, answer, the
/// withheld), its hash, and who was mailed or has no address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relayed {
    pub player: String,
    pub kept: Kept,
    pub hash: String,
    pub mailed: Vec<String>,
    pub not_mailed: Vec<String>,
}

/// A seat's mutes as they are now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Muted {
    pub player: String,
    pub muted: Vec<String>,
}

/// A name a mute cannot take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadName {
    Yourself(String),
    NotAPlayer(String),
}

/// Why press or a mute is refused (nothing relayed or changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// No seat named, and the requester's address is no one seat's own.
    WhoAreYou {
        players: Vec<String>,
    },
    NotAPlayer {
        named: String,
        players: Vec<String>,
    },
    PasswordMissing {
        player: String,
    },
    WrongPassword {
        player: String,
    },
    Throttled {
        player: String,
    },
    /// A mute in a game without press.
    NoPress {
        player: String,
        rules: PressRules,
    },
    /// A mute naming the seat itself or no player; `others` are the
    /// other players.
    BadNames {
        player: String,
        bad: Vec<BadName>,
        others: Vec<String>,
    },
    /// `press reply` answering no press the seat got.
    NotAnAnswer {
        player: String,
        players: Vec<String>,
    },
    NoText {
        player: String,
    },
    TooLong {
        player: String,
        bytes: usize,
        max: u64,
    },
    PerDay {
        player: String,
        sent: usize,
        per_day: u32,
    },
    /// The game's press rules refuse it (`pipeline::press::allowed`'s words).
    Rules {
        player: String,
        why: String,
    },
    /// Every recipient muted the sender.
    MutedBy {
        player: String,
        by: Vec<String>,
    },
    /// The game's files could not do it: the error's words.
    Failed {
        player: Option<String>,
        why: String,
    },
}

impl Refusal {
    /// The seat the refusal is of, where one was named or found.
    pub fn player(&self) -> Option<&str> {
        match self {
            Refusal::WhoAreYou { .. } | Refusal::NotAPlayer { .. } => None,
            Refusal::Failed { player, .. } => player.as_deref(),
            Refusal::PasswordMissing { player }
            | Refusal::WrongPassword { player }
            | Refusal::Throttled { player }
            | Refusal::NoPress { player, .. }
            | Refusal::BadNames { player, .. }
            | Refusal::NotAnAnswer { player, .. }
            | Refusal::NoText { player }
            | Refusal::TooLong { player, .. }
            | Refusal::PerDay { player, .. }
            | Refusal::Rules { player, .. }
            | Refusal::MutedBy { player, .. } => Some(player),
        }
    }

    /// The fate the door's budget and bound judge its answer by.
    pub fn fate(&self) -> Fate {
        match self {
            Refusal::Throttled { player } => Fate::Throttled {
                player: player.clone(),
            },
            _ => Fate::Refused {
                problems: Vec::new(),
            },
        }
    }
}

/// What the door made of a press request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Relayed(Relayed),
    Muted(Muted),
    Refused(Refusal),
}

fn failed(player: Option<&str>) -> impl Fn(crate::error::Error) -> Refusal + '_ {
    move |e| Refusal::Failed {
        player: player.map(str::to_string),
        why: e.to_string(),
    }
}

/// Decide a press request for a game opened to write, at `now`: the
/// seat checked through the door's budget, then the press relayed or the
/// mutes changed. Whether the requester is told is the caller's to ask
/// the door ([`Door::answer`], with `check.proven()`): the check is
/// returned for it.
pub fn run<'d>(
    w: &mut Writing,
    door: &'d Door,
    req: &Request,
    now: &str,
    limits: Limits,
    game_addr: &str,
) -> (super::guard::Check<'d>, Outcome) {
    let check = door.budget.for_request(&req.by);
    let out = match seat(w, req, &check) {
        Err(r) => Outcome::Refused(r),
        Ok(player) => match &req.asked {
            Asked::Mute(m) => match set_mutes(w, m, &player) {
                Ok(muted) => Outcome::Muted(muted),
                Err(r) => Outcome::Refused(r),
            },
            Asked::Press(p) => match relay(w, p, &player, &req.carrier, now, limits, game_addr) {
                Ok(r) => Outcome::Relayed(r),
                Err(r) => Outcome::Refused(r),
            },
        },
    };
    (check, out)
}

/// The seat a press request acts for, checked: a session's own seat (the
/// one named, or its only one), else the seat named or the one whose own
/// address the requester's is, with its password through `guard`.
fn seat(w: &Writing, req: &Request, guard: &dyn Guard) -> std::result::Result<String, Refusal> {
    let from = req.by.claim().address;
    let (named, password) = match &req.by {
        Requester::Password {
            player, password, ..
        } => (Some(player.clone()), Some(password.clone())),
        Requester::Session { .. } => (req.shown.player.clone(), Some(String::new())),
        _ => (req.shown.player.clone(), req.shown.password.clone()),
    };
    let typed = match named {
        Some(p) => p,
        None => own_seat(w, &from)?,
    };
    // Ids are lowercase: `Red` is red.
    let player = typed.to_ascii_lowercase();
    let h = w.game.head();
    let Some(seat) = h.player_index(&player) else {
        return Err(Refusal::NotAPlayer {
            named: typed,
            players: w.game.players(),
        });
    };
    let Some(password) = password else {
        return Err(Refusal::PasswordMissing { player });
    };
    match guard.check(&player, &from, &password, &h.players[seat].password) {
        Verdict::Right => Ok(player),
        Verdict::Wrong => Err(Refusal::WrongPassword { player }),
        Verdict::Throttled => Err(Refusal::Throttled { player }),
    }
}

/// The one seat whose own address is `from`.
fn own_seat(w: &Writing, from: &str) -> std::result::Result<String, Refusal> {
    let h = w.game.head();
    let own: Vec<&str> = h
        .players
        .iter()
        .filter(|p| {
            p.email
                .as_deref()
                .is_some_and(|e| !from.is_empty() && e.eq_ignore_ascii_case(from))
        })
        .map(|p| p.id.as_str())
        .collect();
    match own.as_slice() {
        [one] => Ok(one.to_string()),
        _ => Err(Refusal::WhoAreYou {
            players: w.game.players(),
        }),
    }
}

/// Change `player`'s mutes (`press/mutes.json`, written whole); whom they
/// have muted now. The outcome says the state, not the change, so a
/// request judged again after a crash gets the same answer.
fn set_mutes(w: &Writing, req: &Mute, player: &str) -> std::result::Result<Muted, Refusal> {
    let rules = press::rules_of(&w.store, &w.game).map_err(failed(None))?;
    if rules.kind == "none" {
        return Err(Refusal::NoPress {
            player: player.to_string(),
            rules,
        });
    }
    check_names(w, req, player)?;
    let internal = failed(Some(player));
    let mut mutes = crate::pipeline::mutes::Mutes::load(&w.store, &w.game).map_err(&internal)?;
    let others = if req.all {
        mutes.of(player)
    } else {
        req.others.clone()
    };
    let before = mutes.clone();
    mutes.set(player, &others, req.on);
    if mutes != before {
        mutes.save(&w.store).map_err(&internal)?;
    }
    Ok(Muted {
        player: player.to_string(),
        muted: mutes.of(player),
    })
}

/// Refuse a mute naming the seat itself or anyone who is not a player.
fn check_names(w: &Writing, req: &Mute, player: &str) -> std::result::Result<(), Refusal> {
    let players = w.game.players();
    let bad: Vec<BadName> = req
        .others
        .iter()
        .filter_map(|o| {
            if o == player {
                Some(BadName::Yourself(o.clone()))
            } else if !players.contains(o) {
                Some(BadName::NotAPlayer(o.clone()))
            } else {
                None
            }
        })
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    Err(Refusal::BadNames {
        player: player.to_string(),
        bad,
        others: players.into_iter().filter(|p| p != player).collect(),
    })
}

/// The press a `press reply` answers: the one whose mail to `player` it
/// names (In-Reply-To, References), else `press #N` if that press went
/// to `player`.
fn answered(w: &Writing, req: &Press, player: &str) -> Result<std::result::Result<Kept, Refusal>> {
    let h = w.game.head();
    let all = press::all_kept(&w.game, &w.store)?;
    let went_to = |k: &Kept| {
        let answered = k
            .answers
            .and_then(|n| all.iter().find(|(a, _)| a.entry.n == n).map(|(a, _)| a));
        press::recipients(k, answered).iter().any(|r| r == player)
    };
    for r in &req.refs {
        let r = r.trim_matches(['<', '>']);
        if let Some((k, _)) = all
            .iter()
            .find(|(k, _)| press::message_id(&h.id, k, player) == r)
        {
            return Ok(Ok(k.clone()));
        }
    }
    if let Some(n) = req.subject_n {
        if let Some((k, _)) = all.iter().find(|(k, _)| k.entry.n == n && went_to(k)) {
            return Ok(Ok(k.clone()));
        }
    }
    Ok(Err(Refusal::NotAnAnswer {
        player: player.to_string(),
        players: w.game.players(),
    }))
}

/// Relay press of `player` (checked): the press rules, limits and mutes
/// checked, the press recorded, one mail queued to each recipient with an
/// address. A request recorded already (a pass cut short after the
/// record) is queued again, not checked again.
fn relay(
    w: &mut Writing,
    req: &Press,
    player: &str,
    carrier: &Carrier,
    now: &str,
    limits: Limits,
    game_addr: &str,
) -> std::result::Result<Relayed, Refusal> {
    let internal = failed(None);
    let id = press::id_of(&carrier.digest);
    let recorded = press::entries(&w.store, &w.game)
        .map_err(&internal)?
        .into_iter()
        .any(|(e, _)| e.id == id);
    // The press this one answers, and its recipients.
    let (answers, answered_kept) = match &req.to {
        None => match answered(w, req, player).map_err(&internal)? {
            Ok(k) => (Some(k.entry.n), Some(k)),
            Err(r) => return Err(r),
        },
        Some(_) => (None, None),
    };
    let (to_entry, to_real, withheld) = if recorded {
        (Vec::new(), Vec::new(), Vec::new())
    } else {
        within_limits(w, req, player, now, limits)?;
        new_recipients(w, req, player, answered_kept.as_ref(), now)?
    };
    let (kept, hash) = crate::pipeline::relay::record(
        w,
        &crate::pipeline::relay::Relay {
            sender: player,
            to: to_entry,
            anonymous: req.anonymous,
            answers,
            text: &req.text,
            mail_sha256: &carrier.digest,
            withheld: withheld.clone(),
        },
        now,
    )
    .map_err(&internal)?;
    let real = if recorded {
        let all = press::all_kept(&w.game, &w.store).map_err(&internal)?;
        let a = kept.answers.and_then(|n| {
            all.into_iter()
                .find(|(a, _)| a.entry.n == n)
                .map(|(a, _)| a)
        });
        press::recipients(&kept, a.as_ref())
    } else {
        to_real
    };
    let (mailed, not_mailed) =
        crate::pipeline::relay::queue(w, &kept, &hash, &real, game_addr).map_err(&internal)?;
    Ok(Relayed {
        player: player.to_string(),
        kept,
        hash,
        mailed,
        not_mailed,
    })
}

/// Refuse press with no text, longer than the host relays, or past the
/// sender's press of the last 24 hours.
fn within_limits(
    w: &Writing,
    req: &Press,
    player: &str,
    now: &str,
    limits: Limits,
) -> std::result::Result<(), Refusal> {
    let player_s = player.to_string();
    if req.text.is_empty() {
        return Err(Refusal::NoText { player: player_s });
    }
    if req.text.len() as u64 > limits.max_bytes {
        return Err(Refusal::TooLong {
            player: player_s,
            bytes: req.text.len(),
            max: limits.max_bytes,
        });
    }
    let day = crate::time::parse_time(now).map_err(|why| Refusal::Failed { player: None, why })?;
    let sent = press::all_kept(&w.game, &w.store)
        .map_err(failed(None))?
        .iter()
        .filter(|(k, _)| {
            k.sender == player
                && crate::time::parse_time(&k.entry.at)
                    .is_ok_and(|t| (day - t).num_seconds() < 86_400)
        })
        .count();
    if sent as u64 >= limits.per_day as u64 {
        return Err(Refusal::PerDay {
            player: player_s,
            sent,
            per_day: limits.per_day,
        });
    }
    Ok(())
}

/// The players a press entry names, those it is mailed to, and those
/// who muted the sender (and get nothing).
type Recipients = (Vec<String>, Vec<String>, Vec<String>);

/// Whom new press goes to, by the game's press rules and the players'
/// mutes ([`Recipients`]).
fn new_recipients(
    w: &Writing,
    req: &Press,
    player: &str,
    answered_kept: Option<&Kept>,
    now: &str,
) -> std::result::Result<Recipients, Refusal> {
    let internal = failed(None);
    let to = match (&req.to, answered_kept) {
        (Some(t), _) => t.clone(),
        (None, Some(k)) => To::Players(vec![k.sender.clone()]),
        (None, None) => To::All,
    };
    let rules = press::rules_of(&w.store, &w.game).map_err(&internal)?;
    let real = match press::allowed(&w.game, &rules, player, &to, req.anonymous, now) {
        Ok(r) => r,
        // Answering one's own anonymous press: refused without saying why
        // it is one's own to anyone else (only the sender reads this).
        Err(why) => {
            return Err(Refusal::Rules {
                player: player.to_string(),
                why,
            })
        }
    };
    // Mutes (docs/host.md, "Muting a player"): a player who muted the
    // sender gets nothing from them, anonymous or not.
    let mutes = crate::pipeline::mutes::Mutes::load(&w.store, &w.game).map_err(&internal)?;
    let (withheld, real): (Vec<String>, Vec<String>) =
        real.into_iter().partition(|r| mutes.muted(r, player));
    match answered_kept {
        // An answer to anonymous press: its entry names nobody, and its
        // writer is told nothing of a mute, which would tell them who the
        // anonymous sender is. It is kept, and not relayed.
        Some(k) if k.anonymous => Ok((Vec::new(), real, withheld)),
        // Otherwise the sender is told plainly, and the entry names only
        // the players it was relayed to: a muting player, who may read
        // the game file, finds no press to them they never got (which
        // would tell them who an anonymous one came from).
        _ if real.is_empty() => Err(Refusal::MutedBy {
            player: player.to_string(),
            by: withheld,
        }),
        _ => Ok((real.clone(), real, withheld)),
    }
}
