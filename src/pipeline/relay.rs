//! Relaying a press (docs/host.md, "Press"): recording it under the
//! game's lock (its kept file, then its entry: the commit point) and
//! queueing its mails. The reading side (rules, entries, kept texts,
//! witnesses, the reports' lists) is `press`, which the reports use.

use super::press::{
    entries, fill_reports, genesis_hash, home, id_of, log_lines, message_id, opening, read_kept,
    relayed_text, sender_commitment, text_sha256, EntryLine, Home, Kept,
};
use super::Writing;
use crate::chain::body::{Body, PressEntry};
use crate::chain::canon::sha256_hex;
use crate::chain::keys::Domain;
use crate::error::{Error, Result};
use crate::mail::eml;
use crate::store::write::{self, Durability};

/// What to relay.
pub struct Relay<'a> {
    pub sender: &'a str,
    pub to: Vec<String>,
    pub anonymous: bool,
    pub answers: Option<u32>,
    /// Normalised ([`normalise`]).
    pub text: &'a str,
    pub mail_sha256: &'a str,
    /// Named but not relayed to: they had muted the sender.
    pub withheld: Vec<String>,
}

/// Record press `r` at `now`: its file, then its entry (committed). A
/// press the log records already (the same mail judged again after a
/// crash) is returned as it was recorded. The caller queues the mails.
///
/// Long (about 100 lines): the steps of recording press in the order a crash
/// may cut them (found again if recorded, the text's file, then its entry
/// committed).
pub fn record(w: &mut Writing, r: &Relay, now: &str) -> Result<(Kept, String)> {
    let id = id_of(r.mail_sha256);
    let logged = entries(&w.store, &w.game)?;
    if let Some((e, hash)) = logged.iter().find(|(e, _)| e.id == id).cloned() {
        return match read_kept(&w.store, &id)? {
            Some(k) if k.entry == e => Ok((k, hash)),
            _ => Err(Error::refused(format!(
                "{}: missing or changed: the log records press #{} there",
                w.store.dir.press_file(&id).display(),
                e.n
            ))),
        };
    }
    let home = home(&w.store, &w.game);
    if home == Home::GameFile {
        if w.game.head().format < 3 {
            return Err(Error::refused(format!(
                "{}: a game file of format {} holds no press; run `herald convert {}` first",
                w.store.dir.game_file().display(),
                w.game.head().format,
                w.store.dir.root().display()
            )));
        }
        super::forward_in_time(&w.game, now)?;
        w.complete(now)?;
    }
    // The press log goes forward in time, as the game's does.
    if let (Some((last, _)), Ok(t)) = (logged.last(), crate::time::parse_time(now)) {
        if crate::time::parse_time(&last.at).is_ok_and(|l| t < l) {
            return Err(Error::usage(format!(
                "{now} is before press #{} ({}): the press log goes forward in time",
                last.n, last.at
            )));
        }
    }
    let h = w.game.head();
    if r.anonymous && h.format < crate::chain::ADDRESS_FORMAT {
        // Formats 3 and 4 salt the sender's hash with the nonce its
        // recipients get: any of them would name the sender.
        return Err(Error::refused(format!(
            "anonymous press in game {} needs its game file brought to format {} first (format {} cannot keep its sender from its recipients): the moderator runs `herald convert {}`",
            h.id,
            crate::chain::ADDRESS_FORMAT,
            h.format,
            w.store.dir.root().display()
        )));
    }
    let n = logged.len() as u32 + 1;
    let prev = logged
        .last()
        .map(|(_, hash)| hash.clone())
        .unwrap_or_else(|| genesis_hash(&w.game));
    let nonce = sha256_hex(
        w.signer
            .sign(Domain::PressNonce, format!("{}\n{id}\n", h.id).as_bytes())
            .as_bytes(),
    )[..32]
        .to_string();
    let opening = r.anonymous.then(|| opening(&w.signer, &h.id, &id));
    let entry = PressEntry {
        n,
        id: id.clone(),
        turn: h.turn,
        from: (!r.anonymous).then(|| r.sender.to_string()),
        sender_sha256: None,
        sender_commitment: opening.as_deref().map(|o| sender_commitment(o, r.sender)),
        to: r.to.clone(),
        text_sha256: text_sha256(&nonce, r.text),
        at: now.to_string(),
    };
    let kept = Kept {
        entry: entry.clone(),
        sender: r.sender.to_string(),
        anonymous: r.anonymous,
        answers: r.answers,
        nonce,
        opening,
        text: r.text.to_string(),
        mail_sha256: r.mail_sha256.to_string(),
        withheld: r.withheld.clone(),
    };
    let path = w.store.dir.press_file(&id);
    w.store.dir.ensure_parent(&path)?;
    let mut json =
        serde_json::to_string_pretty(&kept).map_err(|e| Error::internal(e.to_string()))?;
    json.push('\n');
    write::atomic(&path, json.as_bytes(), Durability::Synced)?;
    if home == Home::GameFile {
        // The commit point: the game file with the entry appended, as
        // every change to the game is committed (its reports, which list
        // the press each player got, are made again).
        w.game.record.append(&Body::Press(entry), &w.signer);
        w.game.record.seal_with(&w.signer);
        let hash = w.game.record.chain_head().to_string();
        w.commit(now)?;
        return Ok((kept, hash));
    }
    // The commit point: the log with the new line, written whole (synced).
    let line = EntryLine::new(&Body::Press(entry), &prev, &w.signer);
    let mut text: String = log_lines(&w.store)?
        .iter()
        .map(|l| format!("{}\n", l.text()))
        .collect();
    text.push_str(&line.text());
    text.push('\n');
    write::atomic(
        &w.store.dir.press_log(),
        text.as_bytes(),
        Durability::Synced,
    )?;
    // The game file did not change, so its reports are not made again by
    // a commit: the pages, which list the press each player got, are.
    refresh_pages(w)?;
    Ok((kept, line.hash))
}

/// Queue press `k`'s mail to each recipient who has an address, From
/// `from` (the game's address at the host), dated at the press. Returns
/// the players mailed and those without an address.
pub fn queue(
    w: &Writing,
    k: &Kept,
    hash: &str,
    to: &[String],
    from: &str,
) -> Result<(Vec<String>, Vec<String>)> {
    let h = w.game.head();
    let (mut mailed, mut not) = (Vec::new(), Vec::new());
    let mut mails = Vec::new();
    for r in to {
        let Some(addr) = h
            .players
            .iter()
            .find(|p| &p.id == r)
            .and_then(|p| p.email.clone())
        else {
            not.push(r.clone());
            continue;
        };
        // "from red (Ann)": the id players write to, the name beside it
        // (`shown_sender`, as the mail's text and the reports say).
        let subject = format!(
            "[{}] press #{} from {}",
            h.id,
            k.entry.n,
            super::press::shown_sender(&w.game, k)
        );
        let message_id = message_id(&h.id, k, r);
        let mail = eml::Mail {
            from: from.to_string(),
            to: addr,
            subject,
            date: k.entry.at.clone(),
            message_id: message_id.clone(),
            in_reply_to: None,
            text: relayed_text(&w.game, k, hash, r),
            attachments: Vec::new(),
        };
        mails.push((message_id, eml::build(&mail)));
        mailed.push(r.clone());
    }
    crate::store::outbox::queue_all(&w.store.dir.outbox_dir(), mails)?;
    Ok((mailed, not))
}

/// Write the current turn's report pages again with the press each player
/// got (a game whose press is in the folder: its game file, and so its
/// reports' other forms, did not change).
fn refresh_pages(w: &Writing) -> Result<()> {
    let mut rendered = super::derived::render_all(&w.game, &w.signer)?;
    fill_reports(&w.store, &w.game, &mut rendered)?;
    let turn = w.game.head().turn;
    for (name, r) in w.game.player_names()?.iter().zip(&rendered) {
        let path = w.store.dir.report(turn, name, "html");
        if path.exists() {
            write::atomic(&path, r.html.as_bytes(), Durability::Replaceable)?;
        }
    }
    Ok(())
}
