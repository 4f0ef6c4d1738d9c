//! `herald verify --witness`: the receipts and reports a player kept,
//! checked against an archive, in every form a player keeps them
//! (docs/trust.md, "What players keep"):
//!
//! - a text report (`.txt`), or the text alone copied out of a mail;
//! - a report mail as sent (`.eml`): its text part (the report and its
//!   witness block), and the attachments it came with: the HTML page,
//!   view.json, the board as SVG and PNG, each made again from the archive
//!   and compared;
//! - the HTML page alone (its report, with the witness block, stands in its
//!   `<pre id="report">`; the whole page is made again and compared);
//! - view.json alone (its `witness` field; made again and compared);
//! - a reply to an order mail, with its receipt;
//! - a mail forwarded or replied back by the player quoting the report
//!   with `> ` (a report forwarded as an attachment is read inside it).
//!
//! A receipt is checked without the seed. A report is made again from the
//! archive, which needs the seed (revealed at the end, or `--seed`). Text
//! that a mail program changed only in its line ends, quote marks or
//! trailing spaces is compared line by line with the report made again;
//! one changed character of a fact is named with its line.

use super::loaded::Loaded;
use super::render;
use super::replay::replay;
use crate::chain::canon::sha256_hex;
use crate::chain::witness::{self, Above, Kept, Receipt, Witness};
use crate::error::Result;
use crate::report::Rendered;
use crate::store::limits;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Nested mails (a report forwarded as an attachment) are read this deep.
const MAX_DEPTH: usize = 4;

/// One thing a player kept, read out of a file.
#[derive(Debug, Clone)]
enum Item {
    /// A receipt, and the acknowledgement's words around it where the
    /// file holds them: its player and turn, and its echo of the orders
    /// ("herald read them as:").
    Receipt(Receipt, Option<Echo>),
    /// A text report: a `.txt`, a mail's text part, a report quoted in a
    /// mail.
    Text(Witness, Above),
    /// The HTML page: the witness in the report it shows, that report's
    /// text, and the whole page.
    Html(Witness, Above, String),
    /// view.json: its witness field and the whole document.
    Json(Witness, serde_json::Value),
    /// The board attached to a report mail, vouched for by that mail's
    /// witness.
    Board {
        witness: Witness,
        png: bool,
        bytes: Vec<u8>,
    },
}

impl Item {
    fn witness(&self) -> Option<&Witness> {
        match self {
            Item::Receipt(..) => None,
            Item::Text(w, _) | Item::Html(w, _, _) | Item::Json(w, _) => Some(w),
            Item::Board { witness, .. } => Some(witness),
        }
    }
}

/// An item and where it was found ("r.eml, attachment view.json").
struct Found {
    name: String,
    item: Item,
}

/// `herald verify --witness`: every receipt and report in `files` checked
/// against the archive `g`. Returns how many were found and each finding
/// (naming the file, the part and what differs).
///
/// Long (about 150 lines): every kept file read, each block checked against the
/// archive, then the reports made again where needed, in that order; the steps
/// share the index of the entries.
pub fn witnesses(
    g: &Loaded,
    seed: Option<&str>,
    files: &[PathBuf],
) -> Result<(usize, Vec<String>)> {
    let mut problems = Vec::new();
    let mut kept: Vec<Found> = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let bytes = limits::read(f, limits::MAIL, "a kept report or receipt")?;
        let before = kept.len();
        read_kept(&name, &bytes, 0, &mut kept, &mut problems);
        if kept.len() == before && press_in(&bytes).is_empty() && openings_in(&bytes).is_empty() {
            problems.push(format!(
                "{name}: holds no herald receipt or witness (a report, its page, view.json, a receipt, or a mail holding one)"
            ));
        }
    }
    // Every hash an entry has had: a game `convert` took the addresses out
    // of keeps what its players kept from before.
    let index: BTreeMap<String, usize> = g.entry_hashes();
    let key = g.head().key.clone();
    let phases: Vec<_> = g.phases_back().collect();
    // What needs the report made again: by entry.
    let mut again: BTreeMap<usize, Vec<(String, Item, bool)>> = BTreeMap::new();
    for Found { name, item } in &kept {
        let (game, sig_ok, k_key, chain_head) = match (item, item.witness()) {
            (Item::Receipt(r, _), _) => (&r.game, r.signature_ok(), &r.key, &r.chain_head),
            (_, Some(w)) => (&w.game, w.signature_ok(), &w.key, &w.chain_head),
            _ => unreachable!("every item but a receipt has a witness"),
        };
        if game != &g.head().id {
            problems.push(format!("{name}: is for game {game}, not {}", g.head().id));
            continue;
        }
        if k_key != &key {
            problems.push(format!(
                "{name}: signed with key {k_key}, but the archive's key is {key}"
            ));
            continue;
        }
        if !sig_ok {
            problems.push(format!(
                "{name}: the signature does not match what it signs (changed after it was sent)"
            ));
            continue;
        }
        let Some(&at) = index.get(chain_head.as_str()) else {
            problems.push(format!(
                "{name}: the archive has no entry with chain head {}: it was rewritten or cut short after this was sent",
                &chain_head[..16.min(chain_head.len())]
            ));
            continue;
        };
        match item {
            Item::Receipt(r, echo) => {
                if let Some(e) = echo
                    .as_ref()
                    .filter(|e| e.player != r.player || e.turn != r.turn)
                {
                    problems.push(format!(
                        "{name}: the acknowledgement says the orders of {} for turn {}, its receipt {} for turn {}: it was changed after it was sent",
                        e.player, e.turn, r.player, r.turn
                    ));
                    continue;
                }
                // The latest receipt a player holds for a turn is the one used.
                let later = kept.iter().any(|o| matches!(&o.item, Item::Receipt(x, _) if x.player == r.player && x.turn == r.turn && x.accepted > r.accepted));
                if later {
                    continue;
                }
                match phases.iter().find(|p| p.turn == r.turn) {
                    None => problems.push(format!(
                        "{name}: turn {} is not resolved in this archive yet",
                        r.turn
                    )),
                    Some(p) => match p.orders.iter().find(|o| o.player == r.player) {
                        // The echo is what herald read of these orders: the
                        // record's `read`, each line as it was told.
                        Some(o) if o.sha256 == r.orders_sha256 => {
                            if let Some(e) = echo {
                                if let Some(why) = echo_differs(&e.orders, &o.read) {
                                    problems.push(format!(
                                        "{name}: the acknowledgement's echo of the orders (\"herald read them as\") {why}: it was changed after it was sent"
                                    ));
                                }
                            }
                        }
                        Some(_) => problems.push(format!(
                            "{name}: the archive's orders of {} for turn {} are not the ones this receipt names (entry for turn {})",
                            r.player, r.turn, p.turn
                        )),
                        None => problems.push(format!(
                            "{name}: the archive has no orders of {} for turn {}",
                            r.player, r.turn
                        )),
                    },
                }
            }
            Item::Text(w, above) | Item::Html(w, above, _) => {
                let exact = above.holds(w);
                if !exact && seed.is_none() && g.head().seed.is_none() {
                    problems.push(format!(
                        "{name}: the report text above the witness block was changed after it was sent"
                    ));
                    continue;
                }
                again
                    .entry(at)
                    .or_default()
                    .push((name.clone(), item.clone(), exact));
            }
            Item::Json(..) | Item::Board { .. } => {
                again
                    .entry(at)
                    .or_default()
                    .push((name.clone(), item.clone(), true));
            }
        }
    }
    if !again.is_empty() {
        let Some(seed) = seed.map(str::to_string).or_else(|| g.head().seed.clone()) else {
            problems.push("reports can be checked once the seed is known: after the game (it is revealed), or with --seed".into());
            return Ok((kept.len(), problems));
        };
        let n = g.record.entries.len();
        let outcome = replay(&g.record, &g.genesis, &seed, n, |r, i| {
            let Some(list) = again.get(&i) else {
                return Ok(());
            };
            // Each report made once per witness (a mail's parts share it).
            let mut made: BTreeMap<(String, String), Rendered> = BTreeMap::new();
            for (name, item, exact) in list {
                let w = item.witness().expect("only reports are made again");
                let Some(seat) = r.head().player_index(&w.player) else {
                    problems.push(format!("{name}: `{}` is not a player", w.player));
                    continue;
                };
                let k = (w.player.clone(), w.signature.clone());
                if !made.contains_key(&k) {
                    // The player's time zone is private, so not in the
                    // archive: the report is made in the zone it shows.
                    let zone = match item {
                        Item::Text(_, above) | Item::Html(_, above, _) => {
                            crate::report::zone_in(&above.text)
                        }
                        Item::Json(_, v) => v["game"]["zone"].as_str().map(str::to_string),
                        _ => list.iter().find_map(|(_, i, _)| match i {
                            Item::Text(_, a) | Item::Html(_, a, _) => {
                                crate::report::zone_in(&a.text)
                            }
                            Item::Json(_, v) => v["game"]["zone"].as_str().map(str::to_string),
                            _ => None,
                        }),
                    };
                    made.insert(
                        k.clone(),
                        render::all_as_witnessed(r, seat, w, zone.as_deref())?,
                    );
                }
                let rendered = &made[&k];
                let text = rendered
                    .text
                    .strip_suffix(&w.block())
                    .unwrap_or(&rendered.text);
                if sha256_hex(text.as_bytes()) != w.report_sha256 {
                    if older_layout(r, i) {
                        if let Some(p) = compare_older(item, *exact, rendered)? {
                            problems.push(format!("{name}: {p}"));
                        }
                        continue;
                    }
                    problems.push(format!(
                        "{name}: the archive does not produce this report of {} for turn {} (entry {i} onwards differs from what was sent)",
                        w.player, w.turn
                    ));
                    continue;
                }
                if let Some(p) = compare(item, *exact, text, rendered, r, seat)? {
                    problems.push(format!("{name}: {p}"));
                }
            }
            Ok(())
        })?;
        if let Err(f) = outcome {
            problems.extend(f);
        }
    }
    Ok((kept.len(), problems))
}

/// The text of a kept file where press blocks stand: a mail's text part,
/// or the text itself; `None` if it holds no press block.
fn press_text(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    if !text.contains("----- HERALD PRESS") {
        return None;
    }
    Some(if is_mail(&text) {
        mail_parser::MessageParser::default()
            .parse(bytes)
            .and_then(|m| m.body_text(0).map(|b| b.into_owned()))
            .unwrap_or_default()
    } else {
        text.into_owned()
    })
}

/// The press witnesses in a kept file: a relayed press mail (its text
/// part) or its text alone.
fn press_in(bytes: &[u8]) -> Vec<super::press::Witness> {
    press_text(bytes)
        .map(|t| super::press::witnesses_in(&t))
        .unwrap_or_default()
}

/// The openings of anonymous press's senders in a kept file: a sender's
/// copy of their press (the acknowledgement, or its text).
fn openings_in(bytes: &[u8]) -> Vec<super::press::Opening> {
    press_text(bytes)
        .map(|t| super::press::openings_in(&t))
        .unwrap_or_default()
}

/// `herald verify --witness` for press: each relayed press mail (or its
/// text) in `files` checked against the archive's press entries. Returns
/// what each proves, and each finding (naming the file).
pub fn press_witnesses(
    g: &Loaded,
    store: Option<&super::Store>,
    files: &[PathBuf],
) -> Result<(Vec<String>, Vec<String>)> {
    let (mut proved, mut problems) = (Vec::new(), Vec::new());
    let mut logged = None;
    // A mail kept from before `convert` took the addresses out names the
    // entry's hash of then: the entry's own now.
    let hashes = g.entry_hashes();
    let now_hash = |h: &str| match hashes.get(h) {
        Some(&i) => g.record.entries[i].hash.clone(),
        None => h.to_string(),
    };
    for f in files {
        let name = f.display().to_string();
        let bytes = limits::read(f, limits::MAIL, "a kept press mail")?;
        let found = press_in(&bytes);
        let opened = openings_in(&bytes);
        if found.is_empty() && opened.is_empty() {
            continue;
        }
        let Some(store) = store else {
            problems.push(format!("{name}: press is checked against the game folder's press log (press/log.jsonl): give the game folder"));
            continue;
        };
        if logged.is_none() {
            logged = Some(super::press::entries(store, g)?);
        }
        let logged = logged.as_deref().unwrap_or(&[]);
        for mut w in found {
            w.entry = now_hash(&w.entry);
            match super::press::check_witness(g, logged, &w) {
                Ok(p) => proved.push(format!("{name}: {p}")),
                Err(why) => problems.push(format!("{name}: press #{}: {why}", w.n)),
            }
        }
        for o in opened {
            match super::press::check_opening(g, logged, &o) {
                Ok(p) => proved.push(format!("{name}: {p}")),
                Err(why) => problems.push(format!("{name}: press #{}: {why}", o.n)),
            }
        }
    }
    Ok((proved, problems))
}

/// Is the kept `item` the report the archive makes (`text`, the report's
/// text without its block; `rendered`, every form)? `exact`: its text was
/// already found to be exactly what the witness signs.
fn compare(
    item: &Item,
    exact: bool,
    text: &str,
    rendered: &Rendered,
    r: &Loaded,
    seat: usize,
) -> Result<Option<String>> {
    Ok(match item {
        Item::Receipt(..) => None,
        Item::Text(_, above) => (!exact)
            .then(|| tail_differs(&above.text, text))
            .flatten()
            .map(|d| {
                format!(
                    "the report text above the witness block was changed after it was sent: {d}"
                )
            }),
        Item::Html(_, above, page) => {
            if let Some(d) = (!exact).then(|| tail_differs(&above.text, text)).flatten() {
                Some(format!(
                    "the report in the page was changed after it was sent: {d}"
                ))
            } else if crate::report::pack::is_packed(page) {
                // a report mail's page: the page it holds, and the short
                // page around it made again from that
                match crate::report::pack::unpack(page) {
                    Err(why) => Some(format!("the page is not the one the archive makes: {why}")),
                    // (the press section left out, as for an unpacked page)
                    Ok((inner, same)) => lines_differ(
                        &crate::report::without_press(&inner),
                        &crate::report::without_press(&rendered.html),
                    )
                        .map(|d| format!("the page is not the one the archive makes: {d}"))
                        .or_else(|| {
                            (!same).then(|| {
                                "the page is not the one the archive makes: the page around its packed board was changed".to_string()
                            })
                        }),
                }
            } else {
                // The press section is the game folder's, not the file's:
                // each press it lists is proven by its own mail.
                lines_differ(
                    &crate::report::without_press(page),
                    &crate::report::without_press(&rendered.html),
                )
                .map(|d| format!("the page is not the one the archive makes: {d}"))
            }
        }
        Item::Json(_, v) => {
            let want: serde_json::Value = serde_json::from_str(&rendered.json).map_err(|e| {
                crate::error::Error::refused(format!("internal: view.json does not read: {e}"))
            })?;
            json_differs(v, &want, "").map(|at| {
                format!("view.json is not the one the archive makes: it differs at `{at}`")
            })
        }
        Item::Board {
            png: false, bytes, ..
        } => {
            let kept = String::from_utf8_lossy(bytes);
            lines_differ(&kept, &rendered.svg)
                .map(|d| format!("the board (SVG) is not the one the archive draws: {d}"))
        }
        Item::Board {
            png: true, bytes, ..
        } => (render::png(r, seat)? != *bytes)
            .then(|| "the board (PNG) is not the one the archive draws".to_string()),
    })
}

/// Was a report on entry `at` made by a herald older than format 5, whose
/// layout (the text's blocks, the page, the picture) this herald does not
/// make again byte for byte? The entries before a conversion to format 5
/// (`redacted.entries`), or any entry of a game still of an older format.
/// From format 5 on, a change of the reports' layout is a change of format.
fn older_layout(g: &Loaded, at: usize) -> bool {
    match &g.genesis.redacted {
        Some(r) => (at as u64) < r.entries,
        None => g.genesis.format < 5,
    }
}

/// A report of an older layout ([`older_layout`]) that this herald does
/// not make again as it was: its text must be exactly what its witness
/// signs (the signature, the key and the entry are checked already), and
/// its facts must agree with the archive's: every value of its view.json
/// at a key today's view.json also has (keys added since are absent from
/// it). Its page and picture are bound to the report only by the mail
/// they came in, and are not drawn again (docs/trust.md, "Reports of an
/// older herald").
fn compare_older(item: &Item, exact: bool, rendered: &Rendered) -> Result<Option<String>> {
    Ok(match item {
        Item::Receipt(..) | Item::Board { .. } => None,
        Item::Text(..) | Item::Html(..) => (!exact).then(|| {
            "the report text above the witness block was changed after it was sent (a report of an older herald is checked by its signature: it must be exactly the text signed)".to_string()
        }),
        Item::Json(_, v) => {
            let want: serde_json::Value = serde_json::from_str(&rendered.json).map_err(|e| {
                crate::error::Error::refused(format!("internal: view.json does not read: {e}"))
            })?;
            json_disagrees(v, &want, "").map(|at| {
                format!("view.json does not agree with the archive at `{at}` (a report of an older herald: each value it has is checked)")
            })
        }
    })
}

/// The first place where `kept` holds a value `want` holds otherwise, at a
/// key both have (keys one of them lacks aside), or `None`.
fn json_disagrees(kept: &serde_json::Value, want: &serde_json::Value, at: &str) -> Option<String> {
    use serde_json::Value;
    let path = |k: &str| {
        if at.is_empty() {
            k.to_string()
        } else {
            format!("{at}.{k}")
        }
    };
    match (kept, want) {
        (Value::Object(x), Value::Object(y)) => x
            .iter()
            .filter_map(|(k, u)| Some((k, u, y.get(k)?)))
            .find_map(|(k, u, v)| json_disagrees(u, v, &path(k))),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (u, v))| json_disagrees(u, v, &format!("{at}[{i}]"))),
        (u, v) if u == v => None,
        _ => Some(if at.is_empty() {
            "(the whole document)".to_string()
        } else {
            at.to_string()
        }),
    }
}

/// Where `kept` (a text a mail program may have passed on: CR LF line
/// ends, trailing spaces dropped, other words above the report) does not
/// end with the lines of `want`; `None` if it does.
fn tail_differs(kept: &str, want: &str) -> Option<String> {
    let k: Vec<&str> = kept.lines().map(str::trim_end).collect();
    let w: Vec<&str> = want.lines().map(str::trim_end).collect();
    if k.len() < w.len() {
        return Some(format!(
            "it has {} lines above the block, the report {}",
            k.len(),
            w.len()
        ));
    }
    let off = k.len() - w.len();
    w.iter().zip(&k[off..]).position(|(a, b)| a != b).map(|j| {
        format!(
            "line {} reads `{}`; the report has `{}`",
            off + j + 1,
            clip(k[off + j]),
            clip(w[j])
        )
    })
}

/// The first line where two texts differ (line ends and trailing spaces
/// aside), or `None`.
fn lines_differ(kept: &str, want: &str) -> Option<String> {
    let k: Vec<&str> = kept.lines().map(str::trim_end).collect();
    let w: Vec<&str> = want.lines().map(str::trim_end).collect();
    let j = k
        .iter()
        .zip(&w)
        .position(|(a, b)| a != b)
        .unwrap_or(k.len().min(w.len()));
    if k.len() == w.len() && j == k.len() {
        return None;
    }
    Some(match (k.get(j), w.get(j)) {
        (Some(a), Some(b)) => format!(
            "line {} reads `{}`; it should be `{}`",
            j + 1,
            clip(a),
            clip(b)
        ),
        (Some(_), None) => format!("it has {} lines, {} too many", k.len(), k.len() - w.len()),
        _ => format!(
            "it ends at line {}, {} lines early",
            k.len(),
            w.len() - k.len()
        ),
    })
}

/// A line cut to 80 characters for a message.
fn clip(s: &str) -> String {
    let t = s.trim();
    match t.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_string(),
    }
}

/// The path of the first place two JSON documents differ, or `None`.
fn json_differs(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> Option<String> {
    use serde_json::Value;
    let here = || {
        if at.is_empty() {
            "(the whole document)".into()
        } else {
            at.to_string()
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in y {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                match x.get(k) {
                    Some(u) => {
                        if let Some(d) = json_differs(u, v, &path) {
                            return Some(d);
                        }
                    }
                    None => return Some(path),
                }
            }
            x.keys().find(|k| !y.contains_key(*k)).map(|k| {
                if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                }
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                if let Some(d) = json_differs(u, v, &format!("{at}[{i}]")) {
                    return Some(d);
                }
            }
            (x.len() != y.len()).then(here)
        }
        _ => (a != b).then(here),
    }
}

/// Read what a kept file holds into `out` (problems with blocks that do
/// not read into `problems`). `depth`: how deep in forwarded mails.
fn read_kept(
    name: &str,
    bytes: &[u8],
    depth: usize,
    out: &mut Vec<Found>,
    problems: &mut Vec<String>,
) {
    let text = String::from_utf8_lossy(bytes);
    if depth < MAX_DEPTH && is_mail(&text) {
        if let Some(m) = mail_parser::MessageParser::default().parse(bytes) {
            read_mail(name, &m, depth, out, problems);
            return;
        }
    }
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('{') {
        read_json(name, t, out, problems);
    } else if is_page(t) {
        read_page(name, &text, out, problems);
    } else {
        read_text(name, &text, out, problems);
    }
}

/// What an acknowledgement of accepted orders says besides its receipt:
/// "Your orders as P for turn T are ACCEPTED." and, under "herald read
/// them as:", each order as herald read it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Echo {
    player: String,
    turn: u32,
    orders: Vec<String>,
}

/// The acknowledgement's words in `text` (`pipeline::inbox::reply_text`),
/// quote marks taken off; `None` where the text holds none.
fn echo_in(text: &str) -> Option<Echo> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_end_matches('\r').trim_start_matches(['>', ' ']))
        .collect();
    let (player, turn) = lines.iter().find_map(|l| {
        let rest = l.strip_prefix("Your orders as ")?;
        let (player, rest) = rest.split_once(" for turn ")?;
        let (turn, _) = rest.split_once(" are ACCEPTED")?;
        Some((player.to_string(), turn.parse().ok()?))
    })?;
    let at = lines
        .iter()
        .position(|l| l.trim_end() == "herald read them as:")?;
    let orders = lines[at + 1..]
        .iter()
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .filter(|l| l != "(no orders)")
        .collect();
    Some(Echo {
        player,
        turn,
        orders,
    })
}

/// How an echo of the orders differs from what the log says herald read,
/// if it does (trailing spaces do not count).
fn echo_differs(kept: &[String], read: &[String]) -> Option<String> {
    for (i, (a, b)) in kept.iter().zip(read).enumerate() {
        if a.trim() != b.trim() {
            return Some(format!(
                "reads `{}` where the archive holds `{}` (order {})",
                clip(a),
                clip(b),
                i + 1
            ));
        }
    }
    match kept.len().cmp(&read.len()) {
        std::cmp::Ordering::Equal => None,
        _ => Some(format!(
            "lists {} orders where the archive holds {}",
            kept.len(),
            read.len()
        )),
    }
}

/// The blocks of a text (a report, a mail's text, a reply with a receipt).
fn read_text(name: &str, text: &str, out: &mut Vec<Found>, problems: &mut Vec<String>) {
    let (blocks, bad) = witness::find(text);
    problems.extend(bad.into_iter().map(|p| format!("{name}: {p}")));
    let echo = echo_in(text);
    for b in blocks {
        let item = match b {
            Kept::Receipt(r) => Item::Receipt(r, echo.clone()),
            Kept::Report(w, above) => Item::Text(w, above),
        };
        out.push(Found {
            name: name.to_string(),
            item,
        });
    }
}

/// view.json: its `witness` field.
fn read_json(name: &str, text: &str, out: &mut Vec<Found>, problems: &mut Vec<String>) {
    let v: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            problems.push(format!("{name}: is not JSON ({e})"));
            return;
        }
    };
    match v
        .get("witness")
        .map(|w| serde_json::from_value::<Witness>(w.clone()))
    {
        Some(Ok(w)) => out.push(Found {
            name: name.to_string(),
            item: Item::Json(w, v),
        }),
        Some(Err(e)) => problems.push(format!("{name}: its witness does not read ({e})")),
        None => {}
    }
}

/// The HTML page: the witness in its report (`<pre id="report">`).
fn read_page(name: &str, page: &str, out: &mut Vec<Found>, problems: &mut Vec<String>) {
    let Some(report) = report_in_page(page) else {
        return;
    };
    let (blocks, bad) = witness::find(&report);
    problems.extend(bad.into_iter().map(|p| format!("{name}: {p}")));
    for b in blocks {
        if let Kept::Report(w, above) = b {
            out.push(Found {
                name: name.to_string(),
                item: Item::Html(w, above, page.replace("\r\n", "\n")),
            });
        }
    }
}

/// Every part of a mail: text parts (the report, a receipt, a report
/// quoted in a reply or forward), the HTML page, view.json and the board
/// attached to a report mail, a mail forwarded as an attachment. An HTML
/// body is read only when no text part held a block (a reply's HTML is its
/// text again).
///
/// Long (about 85 lines): one branch a kind of mail part (text, HTML,
/// view.json, the board, a forwarded mail), sharing what was found so far.
fn read_mail(
    name: &str,
    m: &mail_parser::Message,
    depth: usize,
    out: &mut Vec<Found>,
    problems: &mut Vec<String>,
) {
    use mail_parser::{MimeHeaders, PartType};
    let start = out.len();
    let mut boards: Vec<(String, bool, Vec<u8>)> = Vec::new();
    let mut html_bodies: Vec<(String, String)> = Vec::new();
    for part in &m.parts {
        let file = part.attachment_name().map(str::to_string);
        let label = match &file {
            Some(f) => format!("{name}, attachment {f}"),
            None => name.to_string(),
        };
        let lower = file.as_deref().unwrap_or("").to_ascii_lowercase();
        let ct = part
            .content_type()
            .map(|c| {
                format!("{}/{}", c.ctype(), c.subtype().unwrap_or_default()).to_ascii_lowercase()
            })
            .unwrap_or_default();
        match &part.body {
            PartType::Text(_) => {
                let text = crate::mail::extract::part_text(part).unwrap_or_default();
                read_text(&label, &text, out, problems);
            }
            PartType::Html(h) => {
                if is_page(h) {
                    read_page(&label, h, out, problems);
                } else if file.is_none() {
                    html_bodies.push((label, h.to_string()));
                }
            }
            PartType::Binary(b) | PartType::InlineBinary(b) => {
                if lower.ends_with(".json") || ct.ends_with("json") {
                    read_json(&label, &String::from_utf8_lossy(b), out, problems);
                } else if lower.ends_with(".svg") || ct == "image/svg+xml" {
                    boards.push((label, false, b.to_vec()));
                } else if lower.ends_with(".png") || ct == "image/png" {
                    boards.push((label, true, b.to_vec()));
                } else if lower.ends_with(".eml")
                    || lower.ends_with(".txt")
                    || lower.ends_with(".html")
                {
                    read_kept(&label, b, depth + 1, out, problems);
                }
            }
            PartType::Message(nested) => {
                let label = format!("{name}, the mail forwarded in it");
                read_mail(&label, nested, depth + 1, out, problems);
            }
            PartType::Multipart(_) => {}
        }
    }
    let found_text = out[start..]
        .iter()
        .any(|f| matches!(f.item, Item::Text(..) | Item::Receipt(..)));
    if !found_text {
        for (label, h) in html_bodies {
            let text = crate::mail::extract::html_text(&h);
            read_text(&label, &text, out, problems);
        }
    }
    // The board came with the report in the mail's text part.
    let mail_witness = out[start..].iter().find_map(|f| match &f.item {
        Item::Text(w, a) if !a.quoted => Some(w.clone()),
        _ => None,
    });
    if let Some(w) = mail_witness {
        for (label, png, bytes) in boards {
            out.push(Found {
                name: label,
                item: Item::Board {
                    witness: w.clone(),
                    png,
                    bytes,
                },
            });
        }
    }
}

/// Is this herald's report page (its report in `<pre id="report">`)?
fn is_page(t: &str) -> bool {
    let head: String = t.chars().take(200).collect::<String>().to_ascii_lowercase();
    (head.contains("<!doctype html") || head.contains("<html")) && t.contains("<pre id=\"report\">")
}

/// The report shown in a page, its HTML escapes undone.
fn report_in_page(page: &str) -> Option<String> {
    let open = "<pre id=\"report\">";
    let from = page.find(open)? + open.len();
    let to = from + page[from..].find("</pre>")?;
    Some(unescape(&page[from..to].replace("\r\n", "\n")))
}

/// HTML's character references undone (`&amp;`, `&lt;`, `&#x27;`, `&#39;`).
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let Some(end) = rest[..rest.len().min(12)].find(';') else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let name = &rest[1..end];
        let c = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some('\u{a0}'),
            n if n.starts_with("#x") || n.starts_with("#X") => u32::from_str_radix(&n[2..], 16)
                .ok()
                .and_then(char::from_u32),
            n if n.starts_with('#') => n[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Does `text` start as a whole mail (header lines, a blank line, a
/// body), with at least one header every mail has?
fn is_mail(text: &str) -> bool {
    let mut known = false;
    for line in text.lines() {
        if line.is_empty() {
            break;
        }
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let Some((name, _)) = line.split_once(':') else {
            return false;
        };
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return false;
        }
        known |= [
            "from",
            "date",
            "message-id",
            "subject",
            "mime-version",
            "received",
            "return-path",
            "delivered-to",
            "to",
            "content-type",
        ]
        .contains(&name.to_ascii_lowercase().as_str());
    }
    known
}
