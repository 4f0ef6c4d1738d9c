//! Checking order files against a game: envelope, password, turn, whose
//! turn, every order line, the orders together. Every problem is listed,
//! each naming the file, the line and the order.

use super::loaded::Loaded;
use crate::auth;
use crate::chain::canon::sha256_hex;
use crate::chain::OrderRecord;
use crate::error::{Error, Problem, Result};
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
    /// Players on vacation whose missed orders a stand-in plays without
    /// counting them as missed (the host's stand-in vacation mode).
    pub excused: Vec<String>,
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
fn envelope(g: &Loaded, f: &Submitted) -> std::result::Result<(OrderFile, Seat), Vec<Problem>> {
    let head = g.head();
    let of = OrderFile::parse(&f.name, &f.text)?;
    if of.game != head.id {
        return Err(vec![Problem::at(
            &f.name,
            of.lines.game,
            format!(
                "these orders are for game `{}`, but this is game `{}`",
                of.game, head.id
            ),
        )]);
    }
    let Some(seat) = head.player_index(&of.player) else {
        return Err(vec![Problem::at(
            &f.name,
            of.lines.player,
            g.not_a_player(&of.player),
        )]);
    };
    Ok((of, seat))
}

/// The refusal of an order file (`name`, its password on `line`) whose
/// password is not `player`'s.
pub fn wrong_password(name: &str, line: usize, player: &str) -> Problem {
    Problem::at(
        name,
        line,
        format!("wrong password for {player}; nothing from this file is used"),
    )
}

/// An order file that passed every check.
struct Checked {
    seat: Seat,
    orders: Vec<AnyOrder>,
    record: OrderRecord,
}

/// Check order files for the phase the game waits for, the files'
/// passwords hashed side by side first. Every problem of every file is
/// told; the orders are accepted only if there is none.
pub fn check_orders(g: &Loaded, files: &[Submitted]) -> Result<Accepted> {
    takes_orders(g, files)?;
    // Every envelope read first, so that the files' passwords are hashed
    // together; each file is then told what it would be told alone.
    let envelopes: Vec<_> = files.iter().map(|f| envelope(g, f)).collect();
    let verdicts = hash_side_by_side(&password_checks(g, files, &envelopes));
    let awaiting = g.rules.awaiting(&g.state);
    let mut problems = Vec::new();
    let mut checked: Vec<Checked> = Vec::new();
    let mut summary = Vec::new();
    for ((f, envelope), verdict) in files.iter().zip(envelopes).zip(verdicts) {
        let result = envelope.and_then(|(of, seat)| {
            let taken = checked.iter().any(|c| c.seat == seat);
            check_file(g, &awaiting, f, &of, seat, verdict, taken)
        });
        match result {
            Ok(c) => {
                summary.push((
                    f.name.clone(),
                    c.record.player.clone(),
                    c.record.read.clone(),
                ));
                checked.push(c);
            }
            Err(p) => problems.extend(p),
        }
    }
    if !problems.is_empty() {
        return Err(Error::from_problems(problems));
    }
    checked.sort_by_key(|c| c.seat);
    let records = checked.iter().map(|c| c.record.clone()).collect();
    Ok(Accepted {
        orders: checked.into_iter().map(|c| (c.seat, c.orders)).collect(),
        records,
        summary,
        excused: Vec::new(),
    })
}

/// Refused, naming every file, if the game is over.
fn takes_orders(g: &Loaded, files: &[Submitted]) -> Result<()> {
    let head = g.head();
    let Some(o) = &head.outcome else {
        return Ok(());
    };
    let why = format!(
        "game {} is over ({}); no more orders are taken",
        head.id, o.summary
    );
    if files.is_empty() {
        return Err(Error::refused(why));
    }
    Err(Error::from_problems(
        files
            .iter()
            .map(|f| Problem::in_file(&f.name, why.clone()))
            .collect(),
    ))
}

/// The password to check for each file, with the stored hash it must
/// match (`None` where the envelope was refused or nothing is checked).
fn password_checks<'a>(
    g: &'a Loaded,
    files: &[Submitted],
    envelopes: &'a [std::result::Result<(OrderFile, Seat), Vec<Problem>>],
) -> Vec<Option<(&'a str, &'a str)>> {
    let head = g.head();
    files
        .iter()
        .zip(envelopes)
        .map(|(f, e)| match e {
            Ok((of, seat)) if f.check_password => {
                Some((of.password.as_str(), head.players[*seat].password.as_str()))
            }
            _ => None,
        })
        .collect()
}

/// One file whose envelope was read: its password's `verdict`, its turn,
/// whether its player's orders are due (and not `taken` by an earlier
/// file), then each order line and the orders together.
fn check_file(
    g: &Loaded,
    awaiting: &[Seat],
    f: &Submitted,
    of: &OrderFile,
    seat: Seat,
    verdict: Option<bool>,
    taken: bool,
) -> std::result::Result<Checked, Vec<Problem>> {
    let head = g.head();
    let name = f.name.as_str();
    let refused = |p: Problem| Err(vec![p]);
    if verdict == Some(false) {
        return refused(wrong_password(name, of.lines.password, &of.player));
    }
    if of.turn != head.turn {
        let why = if of.turn < head.turn {
            "stale: that turn is resolved"
        } else {
            "not yet"
        };
        return refused(Problem::at(
            name,
            of.lines.turn,
            format!(
                "these orders are for turn {} ({why}); the game waits for turn {}",
                of.turn, head.turn
            ),
        ));
    }
    if !awaiting.contains(&seat) {
        let ids = g.players();
        let who: Vec<&str> = awaiting
            .iter()
            .filter_map(|&s| ids.get(s).map(String::as_str))
            .collect();
        return refused(Problem::in_file(
            name,
            format!(
                "{} has no orders due on turn {}; the game waits for {}",
                of.player,
                head.turn,
                who.join(", ")
            ),
        ));
    }
    if taken {
        return refused(Problem::in_file(
            name,
            format!(
                "a second order file for {} on turn {}; send one file per player",
                of.player, head.turn
            ),
        ));
    }
    let orders = parse_orders(g, name, of, seat)?;
    check_together(g, name, of, seat, &orders)?;
    let text = of.redacted();
    let record = OrderRecord {
        player: of.player.clone(),
        sha256: sha256_hex(text.as_bytes()),
        read: orders.iter().map(|o| o.text.clone()).collect(),
        text,
        nmr: None,
        received: f.received.clone(),
    };
    Ok(Checked {
        seat,
        orders,
        record,
    })
}

/// Each order line read by the game's rules; every line it cannot read
/// told.
fn parse_orders(
    g: &Loaded,
    name: &str,
    of: &OrderFile,
    seat: Seat,
) -> std::result::Result<Vec<AnyOrder>, Vec<Problem>> {
    let mut parsed = Vec::new();
    let mut problems = Vec::new();
    for line in &of.orders {
        match g.rules.parse_order(&g.state, seat, &line.text) {
            Ok(o) => parsed.push(o),
            Err(e) => problems.push(Problem::at(
                name,
                line.line,
                format!("\"{}\": {e}", line.text),
            )),
        }
    }
    if problems.is_empty() {
        Ok(parsed)
    } else {
        Err(problems)
    }
}

/// The orders checked together by the game's rules (the file's lines
/// all read): each problem told at its order's line, or for the file.
fn check_together(
    g: &Loaded,
    name: &str,
    of: &OrderFile,
    seat: Seat,
    orders: &[AnyOrder],
) -> std::result::Result<(), Vec<Problem>> {
    let found = g.rules.check(&g.state, seat, orders);
    if found.is_empty() {
        return Ok(());
    }
    Err(found
        .iter()
        .map(|p| match p.order.and_then(|i| of.orders.get(i)) {
            Some(o) => Problem::at(name, o.line, format!("\"{}\": {}", o.text, p.why)),
            None => Problem::in_file(name, p.why.to_string()),
        })
        .collect())
}
