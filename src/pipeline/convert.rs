//! `herald convert`: a game of herald 0.1 (format 1: `game.json` beside
//! `game.secrets.toml`, `game.orders/`, `game.outbox/`) into a game folder
//! of the current format. The old file is verified first by replaying it; its
//! phases are carried over as they were played (their dice marked as
//! drawn from the seed alone); its header begins the new chain; what the
//! old format could not prove is written into the genesis entry and told.
//! Orders waiting in the old order folder are checked once more against
//! their player's password and stored sealed, without it.

use super::check::{check_orders, Submitted};
use super::create::head_of;
use super::derived;
use super::loaded::{summary, Loaded};
use super::replay::replay;
use crate::chain::body::{Body, Converted, DeadlineSet, Genesis};
use crate::chain::canon::sha256_hex;
use crate::chain::witness::Receipt;
use crate::chain::{Record, Signer, FORMAT};
use crate::error::{Error, Result};
use crate::games;
use crate::store::v1::GameFile;
use crate::store::write::{self, Durability};
use crate::store::{limits, orders, GameDir, Name, Secrets};
use std::path::Path;

pub struct Conversion {
    pub loaded: Loaded,
    pub signer: Signer,
    pub seed: String,
    pub unproven: Vec<String>,
}

/// Verify an old file by replaying it, and build its record (the current format) in
/// memory, signed by `signer`.
///
/// Long (about 140 lines): one pass over the old log, each entry replayed
/// and re-recorded in order; the pass's state (the game, the record, what
/// is unproven) is shared by every step.
pub fn convert_file(path: &Path, signer: Signer, now: &str) -> Result<Conversion> {
    let bytes = limits::read(path, limits::GAME_FILE, "a game file")?;
    let old = GameFile::load(path)?;
    let seed = old.seed.clone().ok_or_else(|| {
        Error::refused(format!(
            "{}: this copy has no seed (a published copy); convert the moderator's copy",
            path.display()
        ))
    })?;
    let entry = games::find(&old.game).ok_or_else(|| {
        Error::refused(format!("{}: unknown game `{}`", path.display(), old.game))
    })?;
    for p in &old.players {
        Name::new("player id", &p.id)
            .map_err(|e| Error::refused(format!("{}: {e}", path.display())))?;
    }
    Name::new("game id", &old.id)
        .map_err(|e| Error::refused(format!("{}: {e}", path.display())))?;
    let phases: Vec<_> = old.log.iter().map(|e| e.to_phase()).collect();
    let mut unproven = vec![
        format!(
            "herald 0.1 did not chain the header: the players, their password hashes, the options, the deadlines and the missed-order policy are as the old file held them when it was converted ({now})"
        ),
    ];
    if !phases.is_empty() {
        unproven.push(format!(
            "the dice of the {} phases played before the conversion came from the seed alone, which the moderator knew; from now on each phase's dice come from the seed and its orders",
            phases.len()
        ));
    }
    let legacy: Vec<&str> = old
        .players
        .iter()
        .filter(|p| p.password.starts_with("sha256$"))
        .map(|p| p.id.as_str())
        .collect();
    if !legacy.is_empty() {
        unproven.push(format!(
            "the passwords of {} are salted SHA-256 hashes of herald 0.1; `herald passwd` issues Argon2id ones",
            legacy.join(", ")
        ));
    }
    let genesis = Genesis {
        format: FORMAT,
        herald: old.herald.clone(),
        game: old.game.clone(),
        id: old.id.clone(),
        created: old.created.clone(),
        players: old.players.clone(),
        options: old.options.clone(),
        ruleset: old.ruleset.clone(),
        setup: old.setup.clone(),
        seed_commitment: old.seed_commitment.clone(),
        key: signer.public().to_string(),
        deadline: phases
            .first()
            .map_or(old.deadline.clone(), |p| p.deadline.clone()),
        deadline_every: old.deadline_every,
        nmr: old
            .nmr
            .clone()
            .unwrap_or_else(|| entry.nmr[0].name().to_string()),
        drop_after: old.drop_after.unwrap_or(0),
        moderator: old.moderator.clone(),
        initial: old.initial.clone(),
        initial_sha256: old.initial_sha256.clone(),
        converted: Some(Converted {
            from_format: 1,
            old_head: old.chain_head(),
            old_sha256: sha256_hex(&bytes),
            at: now.to_string(),
            unproven: unproven.clone(),
        }),
        press: None,
    };
    let rules = entry.load(&genesis.ruleset.text).map_err(Error::from)?;
    let initial = rules.decode(&old.initial).map_err(Error::from)?;
    let players = old.player_ids();
    let (phase, awaiting, outcome) = summary(rules.as_ref(), &initial, &players);
    let mut record = Record::begin(
        &genesis,
        head_of(&genesis, phase, awaiting, outcome),
        &signer,
    );
    for p in &phases {
        record.append(&Body::Phase(p.clone()), &signer);
    }
    let n = record.entries.len();
    let mut g = replay(&record, &genesis, &seed, n, |_, _| Ok(()))?.map_err(|found| {
        Error::all(
            found
                .into_iter()
                .map(|f| {
                    format!(
                        "{}: does not replay, so it is not converted: {f}",
                        path.display()
                    )
                })
                .collect(),
        )
    })?;
    if old.outcome.is_some() {
        g.record.append(
            &Body::Reveal(crate::chain::body::Reveal {
                seed: seed.clone(),
                at: now.to_string(),
            }),
            &signer,
        );
        g.record.head.seed = Some(seed.clone());
        g.record.head.deadline = None;
    } else if g.record.head.deadline != old.deadline {
        // `herald deadline` changed it after the last resolve.
        g.record.append(
            &Body::Deadline(DeadlineSet {
                deadline: old.deadline.clone(),
                at: now.to_string(),
            }),
            &signer,
        );
        g.record.head.deadline = old.deadline.clone();
    }
    if crate::chain::canon::canonical(&g.record.head.state)
        != crate::chain::canon::canonical(&old.state)
    {
        return Err(Error::refused(format!(
            "{}: its current state is not the one its log ends in; not converted",
            path.display()
        )));
    }
    g.record.head.herald = env!("CARGO_PKG_VERSION").to_string();
    g.record.seal_with(&signer);
    Ok(Conversion {
        loaded: g,
        signer,
        seed,
        unproven,
    })
}

pub struct Converted2 {
    pub dir: GameDir,
    pub unproven: Vec<String>,
    pub orders: Vec<String>,
    pub mails: usize,
}

/// Convert the old game at `path` (and the folders beside it) into the
/// new game folder `out`.
///
/// Long (about 150 lines): the steps of a conversion in the order a killed
/// `convert` must find them done (secrets, key, game file, waiting orders,
/// unsent mails, reports, the rename into place).
pub fn convert(path: &Path, out: &Path, key: Option<&Path>, now: &str) -> Result<Converted2> {
    if out.exists()
        && std::fs::read_dir(out)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        return Err(Error::usage(format!(
            "{} exists and is not an empty folder; convert into a new folder",
            out.display()
        )));
    }
    let signer = match key {
        Some(k) => Signer::from_file(&limits::read_text(k, limits::SECRETS_FILE, "a key file")?)
            .map_err(|e| Error::refused(format!("{}: {e}", k.display())))?,
        None => Signer::generate(),
    };
    let c = convert_file(path, signer, now)?;
    let beside = crate::store::v1::Beside::of(path);
    // The passwords as issued, if the old secrets file is there.
    let mut passwords = std::collections::BTreeMap::new();
    let old_secrets = beside.secrets();
    if old_secrets.exists() {
        let t = limits::read_text(&old_secrets, limits::SECRETS_FILE, "a secrets file")?;
        let v: toml::Table = toml::from_str(&t)
            .map_err(|e| Error::refused(format!("{}: {}", old_secrets.display(), e.message())))?;
        if let Some(toml::Value::Table(p)) = v.get("passwords") {
            for (k, v) in p {
                if let Some(s) = v.as_str() {
                    passwords.insert(k.clone(), s.to_string());
                }
            }
        }
    }
    let (tmp, store) = crate::store::building(out, crate::store::BUILDING[1])?;
    let dir = store.dir.clone();
    let head = c.loaded.head().clone();
    Secrets {
        zones: Default::default(),
        seed: c.seed.clone(),
        passwords,
    }
    .write(&dir.secrets(), &head.id)?;
    write::atomic(
        &dir.key(),
        c.signer.to_file().as_bytes(),
        Durability::Synced,
    )?;
    store.commit(&c.loaded.record.to_text())?;
    // Orders waiting in the old order folder: checked, then sealed.
    let mut carried = Vec::new();
    let waiting = beside.orders_dir(head.turn);
    if waiting.is_dir() && head.outcome.is_none() {
        let mut files: Vec<_> = std::fs::read_dir(&waiting)
            .map_err(|e| Error::io(&waiting, e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "toml")
                    && !p.to_string_lossy().ends_with(".mail.toml")
            })
            .collect();
        files.sort();
        for f in files {
            let text = limits::read_text(&f, limits::ORDER_FILE, "an order file")?;
            let note = crate::store::v1::Beside::mail_note(&f);
            let (received, from, message_id) = if note.exists() {
                let t: toml::Table = toml::from_str(&limits::read_text(
                    &note,
                    limits::STORED_FILE,
                    "a mail note",
                )?)
                .map_err(|e| Error::refused(format!("{}: {}", note.display(), e.message())))?;
                let get = |k: &str| t.get(k).and_then(|v| v.as_str()).map(str::to_string);
                (get("received"), get("from"), get("message_id"))
            } else {
                (None, None, None)
            };
            let mut sub = Submitted::file(f.display().to_string(), text);
            sub.received = received.clone();
            let a = check_orders(&c.loaded, &[sub]).map_err(|e| {
                Error::all(
                    e.problems
                        .into_iter()
                        .map(|p| format!("{p} (an order file waiting in the old folder; remove it to convert)"))
                        .collect(),
                )
            })?;
            let Some(rec) = a.records.into_iter().next() else {
                continue;
            };
            let name = Name::new("player", &rec.player).map_err(Error::refused)?;
            let accepted = received.clone().unwrap_or_else(|| now.to_string());
            let r = Receipt::new(
                &c.signer,
                &head.id,
                &rec.player,
                head.turn,
                &rec.sha256,
                c.loaded.record.chain_head(),
                &accepted,
            );
            orders::put(
                &dir,
                &name,
                &orders::Stored {
                    game: head.id.clone(),
                    player: rec.player.clone(),
                    turn: head.turn,
                    text: rec.text,
                    sha256: rec.sha256,
                    received,
                    from,
                    message_id,
                    mail_sha256: None,
                    chain_head: r.chain_head,
                    accepted: r.accepted,
                    signature: r.signature,
                    replaced: None,
                },
            )?;
            carried.push(rec.player);
        }
    }
    // Mails not yet sent.
    let mut mails = 0;
    let outbox = beside.outbox();
    if outbox.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(&outbox)
            .map_err(|e| Error::io(&outbox, e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .collect();
        files.sort();
        for f in files {
            let bytes = limits::read(&f, limits::MAIL, "a mail")?;
            let p = dir.outbox_mail(&sha256_hex(&bytes)[..32]);
            dir.ensure_parent(&p)?;
            write::atomic(&p, &bytes, Durability::Synced)?;
            mails += 1;
        }
    }
    derived::finish(&store, &c.loaded, &c.signer, None)?;
    crate::store::built(tmp, store, out)?;
    Ok(Converted2 {
        dir: GameDir::at(out),
        unproven: c.unproven,
        orders: carried,
        mails,
    })
}

/// What [`upgrade`] did.
pub struct Upgraded {
    pub id: String,
    /// The head's format before.
    pub from: u32,
    /// The game folder, as it was given.
    pub dir: std::path::PathBuf,
}

/// `herald convert GAME` on a game folder of format 2 or 3: its head's
/// `format` becomes [`FORMAT`], and the head is sealed again with the
/// game's key.
/// The genesis, every entry and every signature stay as they are, so every
/// witness and receipt a player keeps still holds; nothing derived from the
/// game (reports, mails) changes. A game already of the current format is left as it
/// is (a re-run after a crash finds nothing to do).
pub fn upgrade(arg: &Path, wait: std::time::Duration, now: &str) -> Result<Upgraded> {
    let mut w = super::open_to_write(arg, wait, now)?;
    let from = w.game.head().format;
    let dir = w.store.dir.root().to_path_buf();
    let id = w.game.head().id.clone();
    if from >= FORMAT {
        return Ok(Upgraded { id, from, dir });
    }
    // What an interrupted command left undone is done first, as by every
    // command that changes a game.
    w.complete(now)?;
    w.game.record.head.format = FORMAT;
    w.game.record.seal_with(&w.signer);
    w.store.commit(&w.game.record.to_text())?;
    Ok(Upgraded { id, from, dir })
}

/// Refuse to append an entry of `kind` to a game whose head's format is
/// older than the kind needs, with the exact command that brings it up.
pub fn need_format(g: &Loaded, dir: &Path, kind: &str) -> Result<()> {
    let need = crate::chain::kind_format(kind);
    let has = g.head().format;
    if has >= need {
        return Ok(());
    }
    Err(Error::refused(format!(
        "game {} is a game file of format {has}, and a `{kind}` entry needs format {need}: run `herald convert {}` once (it rewrites only the head's format and seals it again; the log and every signature stay as they are), then try again",
        g.head().id,
        dir.display()
    )))
}
