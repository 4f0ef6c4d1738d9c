//! Checking order files against a game: envelope, password, turn, whose
//! turn, every order line, the orders together. Every problem is listed,
//! each naming the file, the line and the order.

use super::loaded::Loaded;
use crate::auth;
use crate::chain::canon::sha256_hex;
use crate::chain::OrderRecord;
use crate::error::{Error, Result};
use crate::games::{AnyOrder, Seat};
use crate::orders::OrderFile;
use std::collections::BTreeMap;

/// An order file to check: where it came from, its text, and whether its
/// password must still be checked.
pub struct Submitted {
    pub name: String,
    pub text: String,
    /// `false` for files whose password was checked on arrival (stored
    /// sealed, their password removed) and for herald's own stand-ins.
    pub check_password: bool,
    /// When the mail carrying it was sent, if it came by mail.
    pub received: Option<String>,
}

impl Submitted {
    /// A file given on the command line: its password is checked.
    pub fn file(name: impl Into<String>, text: impl Into<String>) -> Submitted {
        Submitted {
            name: name.into(),
            text: text.into(),
            check_password: true,
            received: None,
        }
    }
}

/// Orders that passed every check, ready to resolve.
pub struct Accepted {
    pub orders: BTreeMap<Seat, Vec<AnyOrder>>,
    /// In seat order.
    pub records: Vec<OrderRecord>,
    /// For messages: each file with its player and parsed orders.
    pub summary: Vec<(String, String, Vec<String>)>,
}

/// Whether each password matches its stored hash (`None` where there is
/// nothing to check), the hashes worked out side by side on every core:
/// an Argon2id check costs ~25 ms of one core, and a phase where every
/// player moves at once brings one order file per player.
fn hash_side_by_side(checks: &[Option<(&str, &str)>]) -> Vec<Option<bool>> {
    let one =
        |c: &Option<(&str, &str)>| c.map(|(password, stored)| auth::matches(password, stored));
    if checks.iter().flatten().count() < 2 {
        return checks.iter().map(one).collect();
    }
    use rayon::prelude::*;
    checks.par_iter().map(one).collect()
}

/// A file's envelope read: its order file and the seat of its player, or
/// the problems that stop it there.
fn envelope(
    g: &Loaded,
    ids: &[String],
    f: &Submitted,
) -> std::result::Result<(OrderFile, Seat), Vec<String>> {
    let head = g.head();
    let name = &f.name;
    let of = OrderFile::parse(name, &f.text)?;
    if of.game != head.id {
        return Err(vec![format!(
            "{name}:{}: these orders are for game `{}`, but this is game `{}`",
            of.lines.game, of.game, head.id
        )]);
    }
    let Some(seat) = ids.iter().position(|p| *p == of.player) else {
        return Err(vec![format!(
            "{name}:{}: `{}` is not a player of this game ({})",
            of.lines.player,
            of.player,
            ids.join(", ")
        )]);
    };
    Ok((of, seat))
}

/// The refusal of an order file (`name`, its password on `line`) whose
/// password is not `player`'s.
pub fn wrong_password(name: &str, line: usize, player: &str) -> String {
    format!("{name}:{line}: wrong password for {player}; nothing from this file is used")
}

/// Check order files for the phase the game waits for, the files'
/// passwords hashed side by side first.
pub fn check_orders(g: &Loaded, files: &[Submitted]) -> Result<Accepted> {
    let head = g.head();
    if let Some(o) = &head.outcome {
        let why = format!(
            "game {} is over ({}); no more orders are taken",
            head.id, o.summary
        );
        let mut problems: Vec<String> =
            files.iter().map(|f| format!("{}: {why}", f.name)).collect();
        if problems.is_empty() {
            problems.push(why);
        }
        return Err(Error::all(problems));
    }
    let ids = g.players();
    // Every envelope read first, so that the files' passwords are hashed
    // together; each file is then told what it would be told alone.
    let envelopes: Vec<_> = files.iter().map(|f| envelope(g, &ids, f)).collect();
    let checks: Vec<Option<(&str, &str)>> = files
        .iter()
        .zip(&envelopes)
        .map(|(f, e)| match e {
            Ok((of, seat)) if f.check_password => {
                Some((of.password.as_str(), head.players[*seat].password.as_str()))
            }
            _ => None,
        })
        .collect();
    let verdicts = hash_side_by_side(&checks);
    let mut problems = Vec::new();
    let mut orders: BTreeMap<Seat, Vec<AnyOrder>> = BTreeMap::new();
    let mut records = Vec::new();
    let mut summary = Vec::new();
    let awaiting = g.session.awaiting(&g.state);
    for ((f, envelope), verdict) in files.iter().zip(&envelopes).zip(verdicts) {
        let name = &f.name;
        let (of, seat) = match envelope {
            Ok((of, seat)) => (of, *seat),
            Err(p) => {
                problems.extend(p.iter().cloned());
                continue;
            }
        };
        if verdict == Some(false) {
            problems.push(wrong_password(name, of.lines.password, &of.player));
            continue;
        }
        if of.turn != head.turn {
            let why = if of.turn < head.turn {
                "stale: that turn is resolved"
            } else {
                "not yet"
            };
            problems.push(format!(
                "{name}:{}: these orders are for turn {} ({why}); the game waits for turn {}",
                of.lines.turn, of.turn, head.turn
            ));
            continue;
        }
        if !awaiting.contains(&seat) {
            let who: Vec<&str> = awaiting
                .iter()
                .filter_map(|&s| ids.get(s).map(String::as_str))
                .collect();
            problems.push(format!(
                "{name}: {} has no orders due on turn {}; the game waits for {}",
                of.player,
                head.turn,
                who.join(", ")
            ));
            continue;
        }
        if orders.contains_key(&seat) {
            problems.push(format!(
                "{name}: a second order file for {} on turn {}; send one file per player",
                of.player, head.turn
            ));
            continue;
        }
        let mut parsed = Vec::new();
        let mut lines = Vec::new();
        let mut bad = false;
        for line in &of.orders {
            match g.session.parse_order(&g.state, seat, &line.text) {
                Ok(o) => {
                    lines.push(line.line);
                    parsed.push(o);
                }
                Err(e) => {
                    bad = true;
                    problems.push(format!("{name}:{}: \"{}\": {e}", line.line, line.text));
                }
            }
        }
        if bad {
            continue;
        }
        let found = g.session.check(&g.state, seat, &parsed);
        for p in &found {
            match p
                .order
                .and_then(|i| Some((lines.get(i)?, of.orders.get(i)?)))
            {
                Some((line, o)) => {
                    problems.push(format!("{name}:{line}: \"{}\": {}", o.text, p.message))
                }
                None => problems.push(format!("{name}: {}", p.message)),
            }
        }
        if !found.is_empty() {
            continue;
        }
        summary.push((
            name.clone(),
            of.player.clone(),
            parsed.iter().map(|o| o.text.clone()).collect(),
        ));
        let text = of.redacted();
        records.push((
            seat,
            OrderRecord {
                player: of.player.clone(),
                sha256: sha256_hex(text.as_bytes()),
                read: parsed.iter().map(|o| o.text.clone()).collect(),
                text,
                nmr: None,
                received: f.received.clone(),
            },
        ));
        orders.insert(seat, parsed);
    }
    if !problems.is_empty() {
        return Err(Error::all(problems));
    }
    records.sort_by_key(|(seat, _)| *seat);
    Ok(Accepted {
        orders,
        records: records.into_iter().map(|(_, r)| r).collect(),
        summary,
    })
}
