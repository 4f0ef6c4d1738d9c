//! A player's report from a loaded game: the header built from the head
//! record, the view from the game (the only source of what a player may
//! see), rendered by `report`, and the text signed with a witness block.

use super::loaded::Loaded;
use super::nmr;
use crate::board::picture::Frame;
use crate::chain::witness::Witness;
use crate::chain::Signer;
use crate::error::{Error, Result};
use crate::games::{AnyView, Seat};
use crate::report::{self, Header, Rendered};
use serde_json::Value;

/// The report header for `seat` (the rolls it may see), the deadline in
/// the player's time zone where they gave one.
pub fn header(g: &Loaded, seat: Seat) -> Header {
    let you = g
        .head()
        .players
        .get(seat)
        .map(|p| p.id.as_str())
        .unwrap_or("");
    header_in(g, seat, g.zones.get(you).map(String::as_str))
}

/// [`header`], the deadline shown in time zone `zone` too.
fn header_in(g: &Loaded, seat: Seat, zone: Option<&str>) -> Header {
    let h = g.head();
    let last = g.last_phase();
    let you = h.players.get(seat).map(|p| p.id.as_str()).unwrap_or("");
    let rolls = last
        .as_ref()
        .map(|p| {
            p.rolls
                .iter()
                .filter(|r| {
                    r.seen_by
                        .as_ref()
                        .is_none_or(|s| s.iter().any(|x| x == you))
                })
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    Header {
        id: h.id.clone(),
        title: g.entry.title.to_string(),
        name: g.entry.name.to_string(),
        ruleset_sha256: h.ruleset.sha256.clone(),
        turn: h.turn,
        phase: h.phase.clone(),
        awaiting: h.awaiting.clone(),
        deadline: h.deadline.clone(),
        over: h.outcome.is_some(),
        outcome: h.outcome.as_ref().map(|o| o.summary.clone()),
        seed_commitment: h.seed_commitment.clone(),
        seed: h.seed.clone(),
        players: h.player_ids(),
        missed: h.missed.clone(),
        last: last.as_ref().map(nmr::last_phase),
        rolls,
        nmr: nmr::policy(h, g.entry).name().to_string(),
        drop_after: h.drop_after,
        deadline_local: h
            .deadline
            .as_deref()
            .zip(zone)
            .and_then(|(d, z)| crate::time::shown_in(d, z)),
        zone: zone.map(str::to_string),
        left: h.deadline.as_deref().and_then(|d| left(g, d)),
        if_missed: if_missed(g, seat),
        key: h.key.clone(),
        chain_head: g.record.chain_head().to_string(),
        moderator: h.moderator.clone(),
        since: super::ending::since_last_phase(g),
        press: g
            .genesis
            .press
            .as_ref()
            .filter(|r| r.kind != "none")
            .map(super::press::describe),
        bots: h
            .players
            .iter()
            .filter_map(|p| Some((p.id.clone(), g.genesis.bot(&p.id)?.to_string())))
            .collect(),
        names: names(g),
    }
}

/// Each player as others read them (`red (Ann)`), where the name is not
/// the id, in a game begun at format 8 or later: an older game's reports
/// are made again byte for byte as they were signed (docs/trust.md,
/// "Format 8"). The names as the game stands: a new holder's from the
/// seat entry on.
pub fn names(g: &Loaded) -> std::collections::BTreeMap<String, String> {
    if g.genesis.format < crate::chain::NAMES_FORMAT {
        return Default::default();
    }
    g.head()
        .players
        .iter()
        .filter(|p| p.name != p.id)
        .map(|p| (p.id.clone(), p.shown()))
        .collect()
}

/// When the entry the game stands on was written: the moment its reports
/// are made on, the same each time they are made again.
fn made_at(g: &Loaded) -> Option<String> {
    use crate::chain::body::Body;
    Some(match g.record.entries.last()?.decode().ok()? {
        Body::Genesis(b) => b.created,
        Body::Phase(b) => b.resolved_at,
        Body::Passwd(b) => b.at,
        Body::Deadline(b) => b.at,
        Body::Reveal(b) => b.at,
        Body::Press(b) => b.at,
        Body::Seat(b) => b.at,
        Body::Vacation(b) => b.at,
        Body::Resign(b) => b.at,
        Body::Draw(b) => b.at,
    })
}

/// How long after the report was made the `deadline` comes ("0s" once
/// it has passed).
fn left(g: &Loaded, deadline: &str) -> Option<String> {
    let d = crate::time::parse_time(deadline).ok()?;
    let made = crate::time::parse_time(&made_at(g)?).ok()?;
    Some(crate::time::span_shown(
        (d - made).num_seconds().max(0).unsigned_abs(),
    ))
}

/// What happens to `seat` if no orders come by the deadline, in words:
/// what stands in for them under the game's policy now, and when they
/// drop out.
fn if_missed(g: &Loaded, seat: Seat) -> String {
    use crate::games::Nmr;
    let bot = "the game's bot gives your orders, choosing from what your report shows";
    let hold = || match g.rules.hold_orders(&g.state, seat) {
        Some(lines) if lines.is_empty() => {
            "herald holds for you: none of your pieces moves or acts".to_string()
        }
        Some(lines) => format!("herald sends `{}` for you", lines.join("`, `")),
        None => format!("nothing can hold now, so {bot}"),
    };
    let what = match nmr::policy(g.head(), g.entry) {
        Nmr::Hold => hold(),
        Nmr::Repeat => format!(
            "herald sends your last orders of this kind again where they are still legal; else {}",
            hold()
        ),
        Nmr::Bot => bot.to_string(),
    };
    match g.head().drop_after {
        0 => format!("{what}."),
        n => format!("{what}. After {n} missed in a row {}.", g.entry.drop_out),
    }
}

fn you(g: &Loaded, seat: Seat) -> &str {
    &g.head().players[seat].id
}

/// The text report, ending with its witness block when a signer is given
/// (the moderator's copy); without one, the text the block would sign.
pub fn text(g: &Loaded, seat: Seat, signer: Option<&Signer>) -> Result<String> {
    let header = header(g, seat);
    let view = view(g, seat)?;
    let board = g.rules.ascii_board(&view);
    let text = report::text(&header, you(g, seat), &g.rules.view_json(&view), &board)?;
    Ok(witnessed(text, |t| sign(g, seat, signer, t)).0)
}

/// The witness of report text `text` of `seat`, if there is a signer.
fn sign(g: &Loaded, seat: Seat, signer: Option<&Signer>, text: &str) -> Option<Witness> {
    let h = g.head();
    signer.map(|s| Witness::new(s, &h.id, you(g, seat), h.turn, g.record.chain_head(), text))
}

/// The report's text ends with a line end; the witness block follows it
/// and signs every byte above it. `witness` makes the block from the text.
fn witnessed(
    mut text: String,
    witness: impl FnOnce(&str) -> Option<Witness>,
) -> (String, Option<Witness>) {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let w = witness(&text);
    if let Some(w) = &w {
        text.push_str(&w.block());
    }
    (text, w)
}

/// What `seat` may see now: every form of the report is made from it.
fn view(g: &Loaded, seat: Seat) -> Result<AnyView> {
    g.rules
        .view(&g.state, &g.players(), seat, &g.events_for(seat))
        .map_err(Error::from)
}

/// The board as SVG: the whole board and its legend.
pub fn svg(g: &Loaded, seat: Seat) -> Result<String> {
    Ok(g.rules
        .svg_board(&view(g, seat)?, Frame::Full(g.head().turn)))
}

/// The picture a report mail carries, as SVG: sized for a phone, the part
/// of the board that matters to the player (`board::picture`).
pub fn mail_svg(g: &Loaded, seat: Seat) -> Result<String> {
    Ok(g.rules
        .svg_board(&view(g, seat)?, Frame::Mail(g.head().turn)))
}

/// The report mail's board as PNG (drawn on demand, never on the resolve
/// path): [`mail_svg`] rasterised.
pub fn png(g: &Loaded, seat: Seat) -> Result<Vec<u8>> {
    crate::board::svg::png_sized(&mail_svg(g, seat)?).map_err(Error::refused)
}

/// The whole board as PNG (`report --format png --full`).
pub fn png_full(g: &Loaded, seat: Seat) -> Result<Vec<u8>> {
    crate::board::svg::png_sized(&svg(g, seat)?).map_err(Error::refused)
}

/// The blank order form for the phase (`herald orders`, the HTML page,
/// reminders). The legal orders are listed above the form, as the report
/// lists them (the view's `legal`, one to copy a line, and its
/// `whole_set` rule), only for a player the phase awaits, so only their
/// view is worked out.
pub fn form(g: &Loaded, seat: Seat) -> Result<String> {
    let header = header(g, seat);
    let who = you(g, seat);
    let due = !header.over && header.awaiting.iter().any(|a| a == who);
    if !due {
        return form_under(g, seat, &header, &Value::Null);
    }
    let view = g.rules.view_json(&view(g, seat)?);
    form_under(g, seat, &header, &view)
}

/// [`form`], under a header made already, listing what `view` lists.
fn form_under(g: &Loaded, seat: Seat, header: &Header, view: &Value) -> Result<String> {
    let who = you(g, seat);
    let due = !header.over && header.awaiting.iter().any(|a| a == who);
    let legal: Vec<String> = match view.get("legal").and_then(Value::as_array) {
        Some(list) if due => list
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    let whole_set = view
        .get("whole_set")
        .and_then(Value::as_str)
        .filter(|_| due);
    report::blank_form(header, who, &legal, whole_set)
}

/// The machine-readable report (view.json): the header and the view, with
/// nothing else rendered.
pub fn json(g: &Loaded, seat: Seat) -> Result<String> {
    let header = header(g, seat);
    let view = g.rules.view_json(&view(g, seat)?);
    Ok(report::json(&header, you(g, seat), view, None))
}

/// One player's report in every form the reports folder keeps: the text
/// ends with its witness block and view.json carries the witness, when
/// there is a signer.
pub fn all(g: &Loaded, seat: Seat, signer: Option<&Signer>) -> Result<Rendered> {
    let zone = g.zones.get(you(g, seat)).map(String::as_str);
    all_with(g, seat, zone, |t| sign(g, seat, signer, t))
}

/// Every form of the report a player was sent with witness `w`, rendered
/// again from this game (`verify --witness`: a report is made again and
/// compared, and the witness's signature cannot be made without the key,
/// so the kept one is put where it stood). A witness that does not sign
/// this text still stands in it: the caller compares the text's hash.
///
/// `zone`: the time zone the kept report shows its deadline in (the
/// player's own, which the archive does not hold: it is private).
pub fn all_as_witnessed(
    g: &Loaded,
    seat: Seat,
    w: &Witness,
    zone: Option<&str>,
) -> Result<Rendered> {
    // The chain head the report was sent on: the entry's hash then (before
    // `convert` took the addresses out, the old chain's).
    let mut header = header_in(g, seat, zone);
    header.chain_head = w.chain_head.clone();
    all_from(g, seat, header, |_| Some(w.clone()))
}

fn all_with(
    g: &Loaded,
    seat: Seat,
    zone: Option<&str>,
    witness: impl FnOnce(&str) -> Option<Witness>,
) -> Result<Rendered> {
    all_from(g, seat, header_in(g, seat, zone), witness)
}

fn all_from(
    g: &Loaded,
    seat: Seat,
    header: Header,
    witness: impl FnOnce(&str) -> Option<Witness>,
) -> Result<Rendered> {
    let seen = view(g, seat)?;
    let board = g.rules.ascii_board(&seen);
    let svg = g.rules.svg_board(&seen, Frame::Full(g.head().turn));
    let view = g.rules.view_json(&seen);
    let text = report::text(&header, you(g, seat), &view, &board)?;
    let (text, w) = witnessed(text, witness);
    let h = g.head();
    let who = you(g, seat);
    let due = h.outcome.is_none() && h.awaiting.iter().any(|a| a == who);
    let page = report::compose::Page {
        game: g.entry.name,
        title: g.entry.title,
        id: &h.id,
        player: who,
        turn: h.turn,
        phase: &h.phase,
        moderator: h.moderator.as_deref(),
        subject: report::compose::subject(&h.id, h.turn),
        due,
        view: &view,
        orders: due.then(|| g.rules.compose(&g.state, seat)),
        mine: g.rules.own_cells(&seen),
        count: g.rules.count(&seen),
        turned: g.rules.turned(&seen),
        board_lines: report::compose::board_lines(&text, &board),
    };
    let html = report::html(
        &header,
        &text,
        &svg,
        &form_under(g, seat, &header, &view)?,
        &page,
    )?;
    Ok(Rendered {
        json: report::json(&header, you(g, seat), view, w.as_ref()),
        text,
        svg,
        html,
        press: String::new(),
    })
}

/// One form of one player's report: text, json, svg, html or png.
pub fn one(g: &Loaded, seat: Seat, format: &str, signer: Option<&Signer>) -> Result<Vec<u8>> {
    Ok(match format {
        "text" => text(g, seat, signer)?.into_bytes(),
        "svg" => svg(g, seat)?.into_bytes(),
        "png" => png(g, seat)?,
        "json" if signer.is_some() => all(g, seat, signer)?.json.into_bytes(),
        "json" => json(g, seat)?.into_bytes(),
        "html" => all(g, seat, signer)?.html.into_bytes(),
        other => {
            return Err(Error::usage(format!(
                "--format {other}: use text, json, svg, png, html or eml"
            )))
        }
    })
}
