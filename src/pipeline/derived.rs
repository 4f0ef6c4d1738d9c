//! What follows from a committed game file, completed by whichever command
//! comes next if a crash cut it short: the current turn's reports (every
//! form, each player's text signed), the report mails queued in the outbox
//! for players with an address, the clearing of orders the log now holds,
//! and the trimming of the previous turn's reports to their text.
//!
//! `reports/turn-NNNN/done` is written last and holds the chain head the
//! reports were made on: a turn whose `done` is missing, or names an older
//! head, is (re)written. Mails are queued only for a turn that had no
//! `done` at all, before `done` is written: a crash in between queues the
//! same mails again under the same names, and nothing can have been sent
//! in between, since sending takes the game's lock and finishes this first.

use super::loaded::Loaded;
use super::render;
use crate::chain::Signer;
use crate::error::Result;
use crate::mail::eml;
use crate::report::Rendered;
use crate::store::write::{self, Durability};
use crate::store::{orders, GameDir, Name, Store};
use std::path::PathBuf;

/// The forms every turn's report folder keeps for the current turn; older
/// turns keep only the text.
const FORMS: [&str; 4] = ["txt", "json", "svg", "html"];

/// How report mails are built. Every report mail carries the board as
/// PNG (mail programs show a PNG inline, an SVG often not): the picture
/// drawn for a phone (`board::picture`, `Frame::Mail`), whoever queues the
/// mail (`herald new`, `resolve`, the host, `report --format eml`; issue
/// 49). It is drawn only for players with an address, so a game without
/// addresses draws none on its resolve path (issue 17); a host may leave
/// it out (`attach_png = false`). The board's SVG is in the mail once,
/// inside `report.html`, which travels packed (`report::pack`: deflated,
/// unpacked by its own script into the page `report --format html`
/// writes), and view.json without its indentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailForm {
    /// Attach `board.png`, the board as drawn for a phone, to each report
    /// mail.
    pub png: bool,
    /// The address players reach `herald serve` at (host.toml's
    /// `web_url`, no trailing `/`): each report mail carries the link to
    /// the player's game page there. None: no link.
    pub web: Option<String>,
}

impl Default for MailForm {
    fn default() -> MailForm {
        MailForm {
            png: true,
            web: None,
        }
    }
}

/// Does the game folder miss something that follows from its game file:
/// what [`finish`] would do? (An interrupted command's reports, mails,
/// clearing or trimming.) Reads only file names and `done`.
pub fn unfinished(store: &Store, g: &Loaded) -> Result<bool> {
    let dir = &store.dir;
    let head = g.head();
    let turn = head.turn;
    let done = std::fs::read_to_string(dir.reports_done(turn)).ok();
    if done.as_deref().map(str::trim) != Some(g.record.chain_head()) {
        return Ok(true);
    }
    let names = g.player_names()?;
    let whole = names
        .iter()
        .all(|n| FORMS.iter().all(|ext| dir.report(turn, n, ext).exists()));
    let later = dir.report_dir(turn + 1).exists();
    let resolved_orders = turn > 0 && dir.orders_dir(turn - 1).exists();
    let untrimmed = turn > 0
        && names.iter().any(|n| {
            ["json", "svg", "html", "png"]
                .iter()
                .any(|ext| dir.report(turn - 1, n, ext).exists())
        });
    Ok(!whole || later || resolved_orders || untrimmed)
}

/// Complete the derived files of the current turn. `now` dates the report
/// mails; without it none are queued (a conversion). Returns whether
/// anything was missing (an interrupted command completed now).
pub fn finish(store: &Store, g: &Loaded, signer: &Signer, now: Option<&str>) -> Result<bool> {
    finish_with(store, g, signer, now, MailForm::default())
}

/// [`finish`], with report mails built as `form` says.
pub fn finish_with(
    store: &Store,
    g: &Loaded,
    signer: &Signer,
    now: Option<&str>,
    form: MailForm,
) -> Result<bool> {
    finish_rendered(store, g, signer, now, form, None)
}

/// [`finish_with`], given the reports if they were rendered already from
/// `g` ([`render_all`]; a commit renders them while the game file is
/// being synced).
///
/// Long (about 90 lines): the steps after a commit, in the order a crash
/// must find them done (reports, their `done` marker, mails, the clearing of
/// resolved orders).
pub fn finish_rendered(
    store: &Store,
    g: &Loaded,
    signer: &Signer,
    now: Option<&str>,
    form: MailForm,
    rendered: Option<Vec<Rendered>>,
) -> Result<bool> {
    let dir = &store.dir;
    let head = g.head();
    let turn = head.turn;
    let done = dir.reports_done(turn);
    let chain_head = g.record.chain_head();
    let previous = std::fs::read_to_string(&done).ok();
    let mut completed = false;
    let names = g.player_names()?;
    // The previous turn keeps its text report only: trimmed first, so that
    // a disk near full has the room for this turn's.
    if turn > 0 {
        for name in &names {
            for ext in ["json", "svg", "html", "png"] {
                let p = dir.report(turn - 1, name, ext);
                if p.exists() {
                    let _ = std::fs::remove_file(&p);
                }
            }
        }
    }
    // An undo gives back a file whose `done` still stands, but whose
    // reports were trimmed to their text: every form must be there too.
    let whole = names
        .iter()
        .all(|n| FORMS.iter().all(|ext| dir.report(turn, n, ext).exists()));
    if previous.as_deref().map(str::trim) != Some(chain_head) || !whole {
        completed = previous.is_none();
        let mut rendered = match rendered {
            Some(r) => r,
            None => render_all(g, signer)?,
        };
        // The press each player got: in their page and above their
        // report in the mail (the texts are in the folder, not the file).
        super::press::fill_reports(store, g, &mut rendered)?;
        dir.ensure_parent(&done)?;
        let files: Vec<(PathBuf, &[u8])> = names
            .iter()
            .zip(&rendered)
            .flat_map(|(name, r)| forms(r).map(|(ext, bytes)| (dir.report(turn, name, ext), bytes)))
            .collect();
        write_side_by_side(&files)?;
        if let (None, Some(now)) = (&previous, now) {
            let addressed = g.head().players.iter().any(|p| p.email.is_some());
            let pngs = if form.png && addressed {
                pictures(g, rendered.len())?
            } else {
                vec![None; rendered.len()]
            };
            // Each mail is ~150 KB of quoted-printable text to encode:
            // built side by side, then written and synced together (the
            // outbox folder synced once, not once per mail).
            use rayon::prelude::*;
            let mails: Vec<Option<(String, Vec<u8>)>> = rendered
                .par_iter()
                .zip(pngs)
                .enumerate()
                .map(|(seat, (r, png))| report_mail_png(g, seat, r, now, png, form.web.as_deref()))
                .collect::<Result<_>>()?;
            // Queued by Message-ID: a mail the outbox sent already (a
            // report completed again after a crash) is not queued again.
            crate::store::outbox::queue_all(
                &dir.outbox_dir(),
                mails.into_iter().flatten().collect(),
            )?;
        }
        write::atomic(
            &done,
            format!("{chain_head}\n").as_bytes(),
            Durability::Replaceable,
        )?;
    }
    // A later turn's reports can only be an undone turn's: they would mislead.
    let undone = dir.report_dir(turn + 1);
    if undone.exists() {
        std::fs::remove_dir_all(&undone).map_err(|e| crate::error::Error::io(&undone, e))?;
    }
    // Orders of resolved turns are in the log now.
    if turn > 0 && dir.orders_dir(turn - 1).exists() {
        orders::clear(dir, turn - 1)?;
        completed = true;
    }
    Ok(completed)
}

/// Write report files on two threads: each is a temporary file created,
/// written and renamed, mostly time in the file system (a 6-player
/// resolve's 24 files: ~1.5 ms on one thread, ~1.0 ms on two).
fn write_side_by_side(files: &[(PathBuf, &[u8])]) -> Result<()> {
    let (a, b) = files.split_at(files.len() / 2);
    let write = |part: &[(PathBuf, &[u8])]| -> Result<()> {
        for (path, bytes) in part {
            write::atomic(path, bytes, Durability::Replaceable)?;
        }
        Ok(())
    };
    let (first, second) = std::thread::scope(|s| {
        let first = s.spawn(|| write(a));
        let second = write(b);
        (first.join(), second)
    });
    first.map_err(|_| crate::error::Error::internal("a writing thread failed"))??;
    second
}

fn forms(r: &Rendered) -> [(&'static str, &[u8]); 4] {
    let [t, j, s, h] = FORMS;
    [
        (t, r.text.as_bytes()),
        (j, r.json.as_bytes()),
        (s, r.svg.as_bytes()),
        (h, r.html.as_bytes()),
    ]
}

/// Every player's report, in seat order, on both cores.
pub fn render_all(g: &Loaded, signer: &Signer) -> Result<Vec<Rendered>> {
    let n = g.head().players.len();
    let half = n.div_ceil(2);
    let (a, b) = std::thread::scope(|s| {
        let first = s.spawn(|| {
            (0..half)
                .map(|seat| render::all(g, seat, Some(signer)))
                .collect::<Vec<_>>()
        });
        let second: Vec<_> = (half..n)
            .map(|seat| render::all(g, seat, Some(signer)))
            .collect();
        (first.join().unwrap_or_default(), second)
    });
    if a.len() != half {
        return Err(crate::error::Error::internal("a report thread failed"));
    }
    a.into_iter().chain(b).collect()
}

/// The report files of the current turn (for messages).
pub fn report_files(dir: &GameDir, g: &Loaded) -> Vec<PathBuf> {
    let turn = g.head().turn;
    g.head()
        .players
        .iter()
        .filter_map(|p| Name::new("player", &p.id).ok())
        .flat_map(|n| FORMS.iter().map(move |ext| (n.clone(), *ext)))
        .map(|(n, ext)| dir.report(turn, &n, ext))
        .collect()
}

/// A player's report as a mail: To their address, the text report as the
/// body, view.json, the board as PNG and the HTML page (the board as SVG,
/// the order composer and the form, for a browser) attached. `None` if the
/// game has no address for them. Returns the Message-ID and the bytes.
pub fn report_mail(g: &Loaded, seat: usize, r: &Rendered, now: &str) -> Option<(String, Vec<u8>)> {
    g.head().players.get(seat)?.email.as_ref()?;
    let png = render::png(g, seat).ok();
    report_mail_png(g, seat, r, now, png, None).unwrap_or(None)
}

/// [`report_mail`] built as `form` says (`board.png` attached only when
/// it asks: host.toml's `attach_png`).
pub fn report_mail_as(
    g: &Loaded,
    seat: usize,
    r: &Rendered,
    now: &str,
    form: MailForm,
) -> Option<(String, Vec<u8>)> {
    g.head().players.get(seat)?.email.as_ref()?;
    let png = form.png.then(|| render::png(g, seat).ok()).flatten();
    report_mail_png(g, seat, r, now, png, form.web.as_deref()).unwrap_or(None)
}

/// [`report_mail`] with the board as PNG attached (`board.png`), as the
/// host sends it.
pub fn report_mail_with_png(
    g: &Loaded,
    seat: usize,
    r: &Rendered,
    now: &str,
) -> Result<Option<(String, Vec<u8>)>> {
    let png = render::png(g, seat)?;
    report_mail_png(g, seat, r, now, Some(png), None)
}

/// Every player's mail board as PNG, each distinct picture drawn once and
/// the distinct ones drawn side by side, for the players a mail goes to
/// (those with an address). Pictures are titled for their player, so two
/// players share one only when their SVGs are the same bytes.
fn pictures(g: &Loaded, players: usize) -> Result<Vec<Option<Vec<u8>>>> {
    use rayon::prelude::*;
    let h = g.head();
    let svgs: Vec<Option<String>> = (0..players)
        .map(|seat| {
            let mailed = h.players.get(seat).is_some_and(|p| p.email.is_some());
            mailed.then(|| render::mail_svg(g, seat)).transpose()
        })
        .collect::<Result<_>>()?;
    let mut distinct: Vec<&str> = svgs.iter().flatten().map(String::as_str).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let drawn: Vec<Vec<u8>> = distinct
        .par_iter()
        .map(|svg| crate::board::svg::png_sized(svg).map_err(crate::error::Error::refused))
        .collect::<Result<_>>()?;
    Ok(svgs
        .iter()
        .map(|svg| {
            let i = distinct.binary_search(&svg.as_deref()?).ok()?;
            Some(drawn[i].clone())
        })
        .collect())
}

/// The link to a player's game page on `herald serve` at `web`: the
/// report mail's first line, and a line of its page's short page.
pub fn game_link(web: &str, game: &str) -> String {
    format!("{}/games/{game}", web.trim_end_matches('/'))
}

/// [`report_mail`] with `board.png` attached when there is one, and the
/// link to the game's page at `web` when the host has a web address.
fn report_mail_png(
    g: &Loaded,
    seat: usize,
    r: &Rendered,
    now: &str,
    png: Option<Vec<u8>>,
    web: Option<&str>,
) -> Result<Option<(String, Vec<u8>)>> {
    let h = g.head();
    let p = &h.players[seat];
    let Some(to) = p.email.clone() else {
        return Ok(None);
    };
    let turn = h.turn.to_string();
    let has_png = png.is_some();
    let link = web.map(|w| game_link(w, &h.id));
    // `red (Ann)` where the game names its players (format 8), as the
    // report does.
    let names = render::names(g);
    let who = names.get(&p.id).unwrap_or(&p.id);
    let subject = match &h.outcome {
        Some(_) => format!("[{}] {}: final report for {who}", h.id, g.entry.title),
        None => format!(
            "[{}] {}: turn {} report for {who}",
            h.id, g.entry.title, h.turn
        ),
    };
    let message_id = eml::message_id(&h.id, &["report", &turn, &p.id, g.record.chain_head()]);
    let mut attachments = vec![eml::Attachment {
        name: "view.json".into(),
        mime: "application/json".into(),
        // the same JSON without its indentation (a third of its bytes)
        bytes: crate::report::pack::compact_json(&r.json).into_bytes(),
    }];
    if let Some(png) = png {
        attachments.push(eml::Attachment {
            name: "board.png".into(),
            mime: "image/png".into(),
            bytes: png,
        });
    }
    attachments.push(eml::Attachment {
        name: "report.html".into(),
        mime: "text/html".into(),
        // the page packed: unpacked by its own script, it is `report
        // --format html`'s page byte for byte (report::pack)
        bytes: crate::report::pack::pack_linked(&r.html, has_png, link.as_deref()).into_bytes(),
    });
    let mail = eml::Mail {
        from: h
            .moderator
            .clone()
            .unwrap_or_else(|| eml::NO_MODERATOR.into()),
        to,
        subject,
        date: now.to_string(),
        message_id: message_id.clone(),
        in_reply_to: None,
        text: format!(
            "{}{}{}",
            link.as_deref()
                .map_or(String::new(), |l| format!("Your game on the web: {l}\n\n")),
            r.press,
            r.text
        ),
        attachments,
    };
    Ok(Some((message_id, eml::build(&mail))))
}
