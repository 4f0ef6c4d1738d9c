//! Checking order files against a game: envelope, password, turn, whose
//! turn, every order line, the orders together. Every problem is listed,
//! each naming the file, the line and the order.

use super::loaded::Loaded;
use crate::auth;
use crate::chain::canon::sha256_hex;
use crate::chain::OrderRecord;
use crate::error::{Error, Problem, Result};
use crate::games::{AnyOrder, Seat};
use crate::orders::{OrderFile, Zone};
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
    /// The time zones the files ask for (their `tz` lines), by player, in
    /// seat order: kept in the secrets file by whoever stores the orders,
    /// never in the log (README, "Time zones").
    pub zones: Vec<(String, Zone)>,
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

/// A file's envelope read: its order file, the seat of its player and the
/// slips of its envelope (the file as meant where it has some: it goes on
/// to be checked, and is refused with them), or the problems that stop it
/// there.
type Envelope = std::result::Result<(OrderFile, Seat, Vec<Problem>), Vec<Problem>>;

fn envelope(g: &Loaded, f: &Submitted) -> Envelope {
    let head = g.head();
    let (of, mut slips) = OrderFile::parse_as_meant(&f.name, &f.text)?;
    if of.game != head.id {
        slips.push(Problem::at(
            &f.name,
            of.lines.game,
            format!(
                "these orders are for game `{}`, but this is game `{}`",
                of.game, head.id
            ),
        ));
        return Err(slips);
    }
    let Some(seat) = head.player_index(&of.player) else {
        slips.push(Problem::at(
            &f.name,
            of.lines.player,
            g.not_a_player(&of.player),
        ));
        return Err(slips);
    };
    Ok((of, seat, slips))
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
    zone: Option<Zone>,
}

/// Check order files for the phase the game waits for, the files'
/// passwords hashed side by side first. Every problem of every file is
/// told; the orders are accepted only if there is none.
pub fn check_orders(g: &Loaded, files: &[Submitted]) -> Result<Accepted> {
    check_orders_of(g, files, false)
}

/// [`check_orders`]; `bots`: the files are herald's own for bot seats
/// (`resolve::accept_all`), which any other file for such a seat is
/// refused as not being.
pub(super) fn check_orders_of(g: &Loaded, files: &[Submitted], bots: bool) -> Result<Accepted> {
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
        let result = envelope.and_then(|(of, seat, slips)| {
            if let Some(spec) = g.genesis.bot(&of.player).filter(|_| !bots) {
                return Err(vec![Problem::at(
                    &f.name,
                    of.lines.player,
                    format!(
                        "{} is a bot seat (bot `{spec}`): herald makes its orders from its view, and takes none sent for it",
                        of.player
                    ),
                )]);
            }
            let taken = checked.iter().any(|c| c.seat == seat);
            // A password line with a slip of its own is told by that slip
            // alone: the password it was meant to hold is not known, so it
            // is neither called wrong nor lets the orders be checked (they
            // tell of the seat, and nothing proves the sender holds it).
            if verdict == Some(false) && slips.iter().any(|p| p.line == Some(of.lines.password)) {
                return Err(slips);
            }
            match check_file(
                g,
                &awaiting,
                f,
                &of,
                seat,
                verdict,
                taken,
                !slips.is_empty(),
            ) {
                Ok(c) if slips.is_empty() => Ok(c),
                Ok(_) => Err(slips),
                Err(p) => Err(slips.into_iter().chain(p).collect()),
            }
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
    let zones = checked
        .iter_mut()
        .filter_map(|c| Some((c.record.player.clone(), c.zone.take()?)))
        .collect();
    Ok(Accepted {
        orders: checked.into_iter().map(|c| (c.seat, c.orders)).collect(),
        records,
        summary,
        excused: Vec::new(),
        zones,
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
    envelopes: &'a [Envelope],
) -> Vec<Option<(&'a str, &'a str)>> {
    let head = g.head();
    files
        .iter()
        .zip(envelopes)
        .map(|(f, e)| match e {
            Ok((of, seat, _)) if f.check_password => {
                Some((of.password.as_str(), head.players[*seat].password.as_str()))
            }
            _ => None,
        })
        .collect()
}

/// One file whose envelope was read: its password's `verdict`, its turn,
/// whether its player's orders are due (and not `taken` by an earlier
/// file), then each order line and the orders together. `as_meant`: the
/// file was read as meant past slips of its envelope, so lines of it may
/// be missing: only each order's own problems are told, not the orders'
/// as a whole (a move missing, a cost too high).
///
/// Long (about 90 lines): the checks in the order their refusals are told,
/// each stopping the file where what follows would mean nothing (a wrong
/// password, another turn, a player not due), then every order line.
#[allow(clippy::too_many_arguments)]
fn check_file(
    g: &Loaded,
    awaiting: &[Seat],
    f: &Submitted,
    of: &OrderFile,
    seat: Seat,
    verdict: Option<bool>,
    taken: bool,
    as_meant: bool,
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
    let read = parse_orders(g, name, of, seat);
    let mut problems = read.problems.clone();
    // The lines that read are checked together as if those that do not
    // were not there, so that one reply names every slip; a file none of
    // whose lines reads has nothing to check together.
    if !read.orders.is_empty() || problems.is_empty() {
        let together = check_together(g, name, of, seat, &read);
        problems.extend(
            together
                .into_iter()
                .filter(|p| !as_meant || p.line.is_some()),
        );
    }
    if !problems.is_empty() {
        // In the order of the file; problems of the file as a whole last.
        problems.sort_by_key(|p| (p.line.is_none(), p.line));
        return Err(problems);
    }
    let orders = read.orders;
    let text = of.redacted();
    let record = OrderRecord {
        player: of.player.clone(),
        sha256: sha256_hex(text.as_bytes()),
        read: orders.iter().map(|o| o.text.clone()).collect(),
        text,
        nmr: None,
        bot: None,
        received: f.received.clone(),
    };
    Ok(Checked {
        seat,
        orders,
        record,
        zone: of.tz.clone(),
    })
}

/// A file's order lines as the game's rules read them.
struct Read {
    /// The lines that read, in the file's order.
    orders: Vec<AnyOrder>,
    /// For each of `orders`, its index in the file's order lines.
    kept: Vec<usize>,
    /// The file lines (1-based) of the order lines that do not read.
    unread: Vec<usize>,
    /// Each line that does not read, told.
    problems: Vec<Problem>,
}

/// Each order line read by the game's rules; every line it cannot read
/// told.
fn parse_orders(g: &Loaded, name: &str, of: &OrderFile, seat: Seat) -> Read {
    let mut read = Read {
        orders: Vec::new(),
        kept: Vec::new(),
        unread: Vec::new(),
        problems: Vec::new(),
    };
    for (k, line) in of.orders.iter().enumerate() {
        match g.rules.parse_order(&g.state, seat, &line.text) {
            Ok(o) => {
                read.orders.push(o);
                read.kept.push(k);
            }
            Err(e) => {
                read.unread.push(line.line);
                read.problems.push(Problem::at(
                    name,
                    line.line,
                    format!("\"{}\": {e}", line.text),
                ));
            }
        }
    }
    read
}

/// "as if line 6, refused, were not there": how an order checked without
/// earlier refused lines is told (`None` without any).
fn as_if_not_there(lines: &[usize], told: &str) -> Option<String> {
    let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
    let (word, list) = match lines.split_last() {
        Some((last, [])) => ("line", last.clone()),
        Some((last, rest)) => ("lines", format!("{} and {last}", rest.join(", "))),
        None => return None,
    };
    Some(format!("as if {word} {list}, {told}, were not there"))
}

/// " (checked as if …)", or nothing.
fn checked_as_if(lines: &[usize], told: &str) -> String {
    as_if_not_there(lines, told)
        .map(|s| format!(" (checked {s})"))
        .unwrap_or_default()
}

/// The orders that read, checked together by the game's rules: each
/// problem told at its order's line, or for the file. An order checked as
/// if an earlier refused one it builds on were not there says so, refused
/// or not; so does a problem of the file as a whole where some lines did
/// not read.
fn check_together(g: &Loaded, name: &str, of: &OrderFile, seat: Seat, read: &Read) -> Vec<Problem> {
    let found = g.rules.check(&g.state, seat, &read.orders);
    let refused: std::collections::BTreeSet<usize> = found.iter().filter_map(|p| p.order).collect();
    let line_of = |i: usize| read.kept.get(i).and_then(|&k| of.orders.get(k));
    // The file lines of the refused orders order `i` builds on.
    let behind = |i: usize| -> Vec<usize> {
        let mut on = g.rules.builds_on(&g.state, &read.orders, i);
        on.retain(|j| *j != i && refused.contains(j));
        on.sort_unstable();
        on.dedup();
        on.iter()
            .filter_map(|&j| line_of(j))
            .map(|o| o.line)
            .collect()
    };
    // Every refused line, for a problem of the file as a whole.
    let mut refused_lines: Vec<usize> = read.unread.clone();
    refused_lines.extend(refused.iter().filter_map(|&i| line_of(i)).map(|o| o.line));
    refused_lines.sort_unstable();
    refused_lines.dedup();
    let mut out = Vec::new();
    let mut noted = std::collections::BTreeSet::new();
    for p in &found {
        match p.order.and_then(|i| line_of(i).map(|o| (i, o))) {
            Some((i, o)) => {
                let mut why = format!("\"{}\": {}", o.text, p.why);
                if noted.insert(i) {
                    why.push_str(&checked_as_if(&behind(i), "refused"));
                }
                out.push(Problem::at(name, o.line, why));
            }
            None => out.push(Problem::in_file(
                name,
                format!("{}{}", p.why, checked_as_if(&refused_lines, "refused")),
            )),
        }
    }
    for i in (0..read.orders.len()).filter(|i| !refused.contains(i)) {
        let as_if = as_if_not_there(&behind(i), "refused");
        if let (Some(as_if), Some(o)) = (as_if, line_of(i)) {
            out.push(Problem::at(
                name,
                o.line,
                format!(
                    "\"{}\": builds on a refused order, so it was checked {as_if}; look at it again once that one is put right",
                    o.text
                ),
            ));
        }
    }
    out
}
