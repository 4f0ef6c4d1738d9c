//! A player's requests of one game besides orders and press, through the
//! door: `help`, `status` (no secret needed), and for a seat (its
//! password, or a session holding its address) `form`, `report`,
//! `withdraw`, `vacation` and `back`. Each is decided here into a typed
//! outcome ([`Done`] or [`Refusal`]) with whether the requester is told;
//! the words are the edge's (`host::commands` for mail).

use super::vacation::{self, Granted, Returned, VacationMode};
use super::{Answer, Carrier, Door, Requester};
use crate::auth::{Guard, Verdict};
use crate::chain::body::PressRules;
use crate::error::{Error, Result};
use crate::names::Name;
use crate::pipeline::inbox::Fate;
use crate::pipeline::{render, Writing};

/// What a requester asks of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// What the game accepts (and its press rules).
    Help,
    /// Where the game stands, as any player may see it.
    Status,
    /// The seat's blank order form for the turn.
    Form,
    /// The seat's current report again.
    Report,
    /// Delete the seat's stored orders of the turn, before the deadline.
    Withdraw,
    /// Away until `until` (as the requester wrote it), within the game's
    /// `allowance` of days; what a vacation does at a deadline is `mode`
    /// (both the table's settings, `host::lobby::seats`).
    Vacation {
        until: String,
        allowance: u32,
        mode: VacationMode,
    },
    /// Back from a vacation early.
    Back,
    /// Give up the game (`pipeline::ending`; a format-6 entry).
    Resign,
    /// Offer, accept or decline a draw by agreement.
    Draw { act: crate::pipeline::ending::Act },
}

impl Command {
    /// Whether the command acts for a seat (a password or a session).
    pub fn needs_seat(&self) -> bool {
        !matches!(self, Command::Help | Command::Status)
    }
}

/// A command from a requester, and what carried it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub command: Command,
    pub by: Requester,
    pub carrier: Carrier,
}

/// What a command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Done {
    /// The game's press rules, if it allows press.
    Help {
        press: Option<PressRules>,
    },
    /// The status as a player sees it (`pipeline::status::text_for_mail`).
    Status(String),
    /// The blank order form of `player` for `turn`.
    Form {
        player: String,
        turn: u32,
        form: String,
    },
    /// The current report of `player` for `turn`, as text.
    Report {
        player: String,
        turn: u32,
        text: String,
    },
    /// The stored orders of `player` for `turn` removed.
    Withdrawn {
        player: String,
        turn: u32,
    },
    Vacation(Granted),
    Back(Returned),
    /// A resignation or a draw act committed: `told` is what every player
    /// is told (the others at once, by the adapter), `ended` whether it
    /// ended the game; the stored orders it set aside are gone.
    Ending {
        player: String,
        told: String,
        ended: bool,
    },
}

/// Why a command is refused (nothing written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The player named is not one of the game's (`players`).
    NotAPlayer {
        named: String,
        players: Vec<String>,
    },
    /// The requester shows no seat of this game (a session whose address
    /// holds none).
    NoSeat {
        players: Vec<String>,
    },
    WrongPassword {
        player: String,
    },
    /// The player's budget of password checks is spent for now.
    Throttled {
        player: String,
    },
    /// The game is over.
    Over,
    /// The deadline of `turn` (RFC 3339) has passed.
    DeadlinePassed {
        turn: u32,
        deadline: String,
    },
    /// No orders of `player` are stored for `turn`.
    NoneStored {
        player: String,
        turn: u32,
    },
    /// A vacation or `back` refused.
    Vacation(vacation::Refusal),
    /// A resignation or draw act refused (its words give the line to send).
    Ending(crate::pipeline::ending::Refusal),
    /// The game could not do it (a file that does not read, a failed
    /// render): the error's own words.
    Failed(String),
}

/// What the door made of a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub result: std::result::Result<Done, Refusal>,
    /// The seat the command acted for or named, if any.
    pub player: Option<String>,
    /// Whether the requester is told by mail.
    pub answer: Answer,
}

impl Outcome {
    /// The outcome as the door's budget and bound judge answers: a spent
    /// budget, a refusal, or done.
    pub fn fate(&self) -> Fate {
        fate_of(&self.result, self.player.as_deref())
    }
}

fn fate_of(result: &std::result::Result<Done, Refusal>, player: Option<&str>) -> Fate {
    match (result, player) {
        (Err(Refusal::Throttled { .. }), Some(p)) => Fate::Throttled {
            player: p.to_string(),
        },
        (Ok(_), _) => Fate::AlreadyRead,
        (Err(_), _) => Fate::Refused {
            problems: Vec::new(),
        },
    }
}

/// Decide `req` for a game opened to write (its lock held) at `now`: the
/// seat's password checked through the door's budget, then the command
/// done; and whether the requester is told ([`Door::answer`]).
pub fn run(w: &mut Writing, door: &Door, req: &Request, now: &str) -> Result<Outcome> {
    let check = door.budget.for_request(&req.by);
    let (player, result) = if req.command.needs_seat() {
        match seat(w, &req.by, &check) {
            (player, Ok(seat)) => (player, for_seat(w, &req.command, seat, now)?),
            (player, Err(r)) => (player, Err(r)),
        }
    } else {
        (None, open(w, &req.command, now))
    };
    let fate = fate_of(&result, player.as_deref());
    let answer = door.answer(&req.by.claim().address, &fate, check.proven(), &req.carrier);
    Ok(Outcome {
        result,
        player,
        answer,
    })
}

/// The seat the requester acts for, checked: the player named and their
/// password through `guard`, or the seat a session's address holds.
/// Returns the player named (even when refused) and the seat.
fn seat(
    w: &Writing,
    by: &Requester,
    guard: &dyn Guard,
) -> (Option<String>, std::result::Result<usize, Refusal>) {
    let h = w.game.head();
    let (player, password) = match by {
        Requester::Password {
            player, password, ..
        } => (player.clone(), password.as_str()),
        Requester::Session { address } => {
            let Some(p) = h.players.iter().find(|p| {
                p.email
                    .as_deref()
                    .is_some_and(|e| e.eq_ignore_ascii_case(address.trim()))
            }) else {
                return (None, Err(no_seat(w)));
            };
            (p.id.clone(), "")
        }
        Requester::Anyone(_) | Requester::Code { .. } => return (None, Err(no_seat(w))),
    };
    // Ids are lowercase: `Red` is red.
    let typed = player;
    let player = typed.to_ascii_lowercase();
    let Some(seat) = h.player_index(&player) else {
        return (
            Some(typed.clone()),
            Err(Refusal::NotAPlayer {
                named: typed,
                players: w.game.players(),
            }),
        );
    };
    let from = by.claim().address;
    let verdict = guard.check(&player, &from, password, &h.players[seat].password);
    let r = match verdict {
        Verdict::Right => Ok(seat),
        Verdict::Wrong => Err(Refusal::WrongPassword {
            player: player.clone(),
        }),
        Verdict::Throttled => Err(Refusal::Throttled {
            player: player.clone(),
        }),
    };
    (Some(player), r)
}

fn no_seat(w: &Writing) -> Refusal {
    Refusal::NoSeat {
        players: w.game.players(),
    }
}

fn failed(e: Error) -> Refusal {
    Refusal::Failed(e.to_string())
}

/// `help` and `status`: no seat needed.
fn open(w: &Writing, c: &Command, now: &str) -> std::result::Result<Done, Refusal> {
    match c {
        Command::Help => {
            let rules = crate::pipeline::press::rules_of(&w.store, &w.game).map_err(failed)?;
            Ok(Done::Help {
                press: (rules.kind != "none").then_some(rules),
            })
        }
        _ => {
            let t = crate::time::parse_time(now)
                .map_err(|e| Refusal::Failed(format!("internal: {e}")))?;
            crate::pipeline::status::text_for_mail(&w.store, &w.game, &t)
                .map(Done::Status)
                .map_err(failed)
        }
    }
}

/// A command for `seat`, its requester checked. The outer `Err` is a
/// failure of the game's files (the command not done, nothing answered).
fn for_seat(
    w: &mut Writing,
    c: &Command,
    seat: usize,
    now: &str,
) -> Result<std::result::Result<Done, Refusal>> {
    let h = w.game.head();
    let (player, turn) = (h.players[seat].id.clone(), h.turn);
    Ok(match c {
        Command::Form if h.outcome.is_some() => Err(Refusal::Over),
        Command::Form => render::form(&w.game, seat)
            .map(|form| Done::Form { player, turn, form })
            .map_err(failed),
        Command::Report => report(w, seat).map(|text| Done::Report { player, turn, text }),
        Command::Withdraw => withdraw(w, &player, now),
        Command::Vacation {
            until,
            allowance,
            mode,
        } => vacation::request(w, &player, until, now, *allowance, *mode)?
            .map(Done::Vacation)
            .map_err(Refusal::Vacation),
        Command::Back => vacation::back(w, &player, now)?
            .map(Done::Back)
            .map_err(Refusal::Vacation),
        Command::Resign | Command::Draw { .. } => ending(w, c, &player, now)?,
        Command::Help | Command::Status => open(w, c, now),
    })
}

/// The seat's report of the turn as text: the one the turn's mail
/// carried, or made again.
fn report(w: &Writing, seat: usize) -> std::result::Result<String, Refusal> {
    let h = w.game.head();
    let name =
        Name::new("player", &h.players[seat].id).map_err(|e| Refusal::Failed(e.to_string()))?;
    let path = w.store.dir.report(h.turn, &name, "txt");
    Ok(match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(_) => String::from_utf8_lossy(
            &render::one(&w.game, seat, "text", Some(&w.signer)).map_err(failed)?,
        )
        .into_owned(),
    })
}

/// `withdraw`: the player's stored orders of this turn removed, before
/// the deadline.
fn withdraw(w: &Writing, player: &str, now: &str) -> std::result::Result<Done, Refusal> {
    let h = w.game.head();
    if h.outcome.is_some() {
        return Err(Refusal::Over);
    }
    if let Some(d) = &h.deadline {
        let (d, n) = (
            crate::time::parse_time(d)
                .map_err(|e| Refusal::Failed(format!("the deadline: {e}")))?,
            crate::time::parse_time(now).map_err(|e| Refusal::Failed(format!("internal: {e}")))?,
        );
        if n >= d {
            return Err(Refusal::DeadlinePassed {
                turn: h.turn,
                deadline: h.deadline.clone().unwrap_or_default(),
            });
        }
    }
    let name = Name::new("player", player).map_err(|e| Refusal::Failed(e.to_string()))?;
    let path = w.store.dir.stored_order(h.turn, &name);
    match std::fs::remove_file(&path) {
        Ok(()) => {
            if let Some(dir) = path.parent() {
                if let Ok(f) = std::fs::File::open(dir) {
                    let _ = f.sync_all();
                }
            }
            Ok(Done::Withdrawn {
                player: player.to_string(),
                turn: h.turn,
            })
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Refusal::NoneStored {
            player: player.to_string(),
            turn: h.turn,
        }),
        Err(e) => Err(failed(Error::io(&path, e))),
    }
}

/// `resign` and `offer`/`accept`/`decline draw` (pipeline::ending): the
/// entry committed, the player's stored orders of the turn set aside (all
/// of them if the game ended).
fn ending(
    w: &mut Writing,
    c: &Command,
    player: &str,
    now: &str,
) -> Result<std::result::Result<Done, Refusal>> {
    use crate::pipeline::ending;
    let seed = w.seed()?;
    let done = match c {
        Command::Draw { act } => ending::draw(&mut w.game, player, *act, now, &seed, &w.signer)?,
        _ => ending::resign(&mut w.game, player, now, &seed, &w.signer)?,
    };
    let done = match done {
        Ok(d) => d,
        Err(r) => return Ok(Err(Refusal::Ending(r))),
    };
    let turn = w.game.head().turn;
    let set_aside: Vec<String> = if done.ended.is_some() {
        w.game.players()
    } else if matches!(c, Command::Resign) {
        vec![player.to_string()]
    } else {
        Vec::new()
    };
    for p in &set_aside {
        if let Ok(name) = crate::names::Name::new("player", p) {
            let _ = std::fs::remove_file(w.store.dir.stored_order(turn, &name));
        }
    }
    w.commit(now)?;
    Ok(Ok(Done::Ending {
        player: player.to_string(),
        told: done.told,
        ended: done.ended.is_some(),
    }))
}
