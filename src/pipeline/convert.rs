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
use crate::chain::body::{Body, Converted, DeadlineSet, Genesis, Player};
use crate::chain::canon::sha256_hex;
use crate::chain::record::EntryLine;
use crate::chain::witness::Receipt;
use crate::chain::{Record, Signer, FORMAT};
use crate::error::{Error, Result};
use crate::games;
use crate::store::secrets::Address;
use crate::store::v1::GameFile;
use crate::store::write::{self, Durability};
use crate::store::{limits, orders, GameDir, Name, Secrets};
use std::path::Path;

pub struct Conversion {
    pub loaded: Loaded,
    pub signer: Signer,
    pub seed: String,
    pub unproven: Vec<String>,
    /// The players' addresses and their salts, for `secrets.toml` (the
    /// new file binds them, format 5).
    pub addresses: Vec<Address>,
}

/// The players of an old file as a game file of format 5 keeps them: each
/// address taken out and bound by its commitment (the salt made from the
/// game's key), and the addresses with their salts, for `secrets.toml`.
fn bound(players: &[Player], signer: &Signer, game: &str) -> (Vec<Player>, Vec<Address>) {
    let mut addresses = Vec::new();
    let players = players
        .iter()
        .map(|p| {
            let mut p = p.clone();
            if let Some(a) = p.file_email.take() {
                let salt = crate::chain::body::address_salt(signer, game, &p.id);
                p.address_sha256 = Some(crate::chain::body::address_sha256(&salt, &a));
                p.email = Some(a.clone());
                addresses.push(Address {
                    player: p.id.clone(),
                    address: a,
                    salt,
                });
            }
            p
        })
        .collect();
    (players, addresses)
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
    let (players, addresses) = bound(&old.players, &signer, &old.id);
    let genesis = Genesis {
        format: FORMAT,
        herald: old.herald.clone(),
        game: old.game.clone(),
        id: old.id.clone(),
        created: old.created.clone(),
        players,
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
        redacted: None,
        bots: Default::default(),
        preferences: Default::default(),
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
    for p in &mut g.record.head.players {
        p.email = addresses
            .iter()
            .find(|a| a.player == p.id)
            .map(|a| a.address.clone());
    }
    g.record.seal_with(&signer);
    Ok(Conversion {
        loaded: g,
        signer,
        seed,
        unproven,
        addresses,
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
        addresses: c.addresses.clone(),
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
    /// What the game file held and holds no more, and what stays, in
    /// words (empty: the head's format was all that changed).
    pub told: Vec<String>,
}

/// A game file of format 4 or older as format 5 keeps it ([`redact`]).
pub struct Redaction {
    pub record: Record,
    /// The addresses the file held, each with the salt that binds it now.
    pub addresses: Vec<Address>,
    /// Whether the genesis changed (the entries were chained and signed
    /// again), or only the head.
    pub genesis: bool,
    /// What to tell of it.
    pub told: Vec<String>,
}

/// The game file of `g` (of format 4 or older) as format 5 keeps it, signed
/// with `signer` (the game's key): no player's address in it.
///
/// A genesis that holds no address keeps its bytes, and only the head
/// changes: its `format`, and for a player whose seat changed hands its
/// address replaced by the seat entry's `holder_sha256`. A genesis that
/// holds addresses is written again with each replaced by its
/// `address_sha256` (the salt made from the key) and a `redacted` field
/// naming the genesis before; every later entry follows it with its body
/// unchanged, linked and signed again. The hashes the entries had before
/// follow from `redacted` and the bodies, so the receipts and witnesses
/// players kept still name entries of the new file (docs/trust.md,
/// "Format 5").
///
/// Long (about 90 lines): the genesis, the head and the addresses made
/// together, player by player, and the chain carried over entry by entry.
pub fn redact(g: &Loaded, signer: &Signer) -> Result<Redaction> {
    let head = g.head();
    let old_genesis = &g.genesis;
    // The last seat entry of each player: its commitment now binds the
    // seat's address (its salt, in formats 3 and 4, is in the entry).
    let mut seats: std::collections::BTreeMap<String, (Option<String>, String)> =
        Default::default();
    let mut grey_before = 0;
    for e in g.record.entries.iter().skip(1) {
        match e.decode() {
            Ok(Body::Seat(c)) => {
                seats.insert(c.player.clone(), (c.salt.clone(), c.holder_sha256.clone()));
            }
            Ok(Body::Press(p)) if p.sender_sha256.is_some() => grey_before += 1,
            _ => {}
        }
    }
    let rewrite = old_genesis.players.iter().any(|p| p.file_email.is_some());
    let (players, mut addresses) = bound(&old_genesis.players, signer, &head.id);
    let mut record = if rewrite {
        let mut genesis = old_genesis.clone();
        genesis.players = players.clone();
        genesis.format = FORMAT;
        genesis.redacted = Some(crate::chain::body::Redacted {
            from_format: old_genesis.format,
            genesis: g.record.entries[0].hash.clone(),
            entries: g.record.entries.len() as u64,
        });
        let mut r = Record::begin(&genesis, head.clone(), signer);
        for e in g.record.entries.iter().skip(1) {
            let line = EntryLine::of_text(e.body.clone(), r.chain_head(), signer);
            r.entries.push(line);
        }
        r
    } else {
        g.record.clone()
    };
    let mut h = head.clone();
    h.format = FORMAT;
    for (i, p) in h.players.iter_mut().enumerate() {
        let address = p.file_email.take();
        p.email = address.clone();
        match (seats.get(&p.id), address) {
            (Some((salt, holder)), address) => {
                p.address_sha256 = Some(holder.clone());
                if let (Some(salt), Some(a)) = (salt, address) {
                    addresses.push(Address {
                        player: p.id.clone(),
                        address: a,
                        salt: salt.clone(),
                    });
                }
            }
            (None, _) => p.address_sha256 = players[i].address_sha256.clone(),
        }
    }
    record.head = h;
    record.seal_with(signer);
    let mut told = Vec::new();
    if !addresses.is_empty() {
        told.push(format!(
            "{} mail addresses taken out of the game file (kept in secrets.toml, bound by salted commitments)",
            addresses.len()
        ));
    }
    if rewrite {
        told.push(format!(
            "the genesis written again without them, and the {} entries after it linked and signed again with their bodies unchanged; receipts and witnesses kept from before still verify (the genesis before is named in `redacted`)",
            g.record.entries.len() - 1
        ));
    }
    if grey_before > 0 {
        told.push(format!(
            "{grey_before} anonymous press entries relayed before format 5 keep their sender_sha256: their recipients hold the nonce that can name the sender (docs/trust.md); press relayed from now on cannot be"
        ));
    }
    Ok(Redaction {
        record,
        addresses,
        genesis: rewrite,
        told,
    })
}

/// `herald convert GAME` on a game folder of format 2 to 7: its game
/// file brought to [`FORMAT`] by [`redact`], the addresses written to
/// `secrets.toml` first (bound already, so a run cut short after it finds
/// them and writes the same), then the game file (the commit point); the
/// reports are made again on the new chain head (not mailed). A game
/// already of the current format is left as it is (a re-run after a crash
/// finds nothing to do).
pub fn upgrade(arg: &Path, wait: std::time::Duration, now: &str) -> Result<Upgraded> {
    let mut w = super::open_to_write(arg, wait, now)?;
    let from = w.game.head().format;
    let dir = w.store.dir.root().to_path_buf();
    let id = w.game.head().id.clone();
    if from >= FORMAT {
        return Ok(Upgraded {
            id,
            from,
            dir,
            told: Vec::new(),
        });
    }
    // What an interrupted command left undone is done first, as by every
    // command that changes a game.
    w.complete(now)?;
    let r = redact(&w.game, &w.signer)?;
    if !r.addresses.is_empty() {
        let mut secrets = w.store.secrets()?;
        for a in &r.addresses {
            secrets.bind(a.clone());
        }
        secrets.write(&w.store.dir.secrets(), &id)?;
    }
    let mut g = Loaded::from_text(&r.record.to_text(), &dir.display().to_string())?;
    g.fill_addresses(&w.store)?;
    w.game = g;
    if r.genesis {
        // A new chain head: the reports are made again on it.
        w.commit(now)?;
    } else {
        w.store.commit(&w.game.record.to_text())?;
    }
    Ok(Upgraded {
        id,
        from,
        dir,
        told: r.told,
    })
}

/// Does the game file hold a player's mail address (a game of format 4 or
/// older that named its players' addresses)?
pub fn holds_addresses(g: &Loaded) -> bool {
    g.genesis.players.iter().any(|p| p.file_email.is_some())
        || g.head().players.iter().any(|p| p.file_email.is_some())
}

/// The game as it may be published (a site, the gallery): `g` itself if
/// its file holds no address, else its file as format 5 keeps it
/// ([`redact`], signed with the folder's key), in memory only; without
/// the key, refused with the command that makes a copy without addresses.
pub fn publishable(store: &crate::store::Store, g: Loaded) -> Result<Loaded> {
    if !holds_addresses(&g) {
        return Ok(g);
    }
    let signer = store.signer().map_err(|e| {
        Error::refused(format!(
            "{}: a game file of format {} holding the players' mail addresses, which are never published; build from the game folder (its key takes them out), or make a copy without them first: `herald convert {} --out FILE --key moderator.key` ({})",
            store.dir.game_file().display(),
            g.head().format,
            store.dir.game_file().display(),
            e.problems.join("; ")
        ))
    })?;
    let r = redact(&g, &signer)?;
    Loaded::from_text(
        &r.record.to_text(),
        &store.dir.game_file().display().to_string(),
    )
}

/// `herald convert GAME --out FILE`: the game file of GAME (a game folder,
/// or a published game file of format 4 or older, with the game's key)
/// written to `out` as format 5 keeps it ([`redact`]): no address in it.
/// GAME is left as it is. The file is world-readable: it is for
/// publishing.
pub fn strip(arg: &Path, key: Option<&Path>, out: &Path) -> Result<Vec<String>> {
    let store = crate::store::Store::reader(super::loaded::folder(arg)?);
    let text = store.read_game()?;
    let g = Loaded::from_text(&text, &store.dir.game_file().display().to_string())?;
    let signer = match key {
        Some(k) => Signer::from_file(&limits::read_text(k, limits::SECRETS_FILE, "a key file")?)
            .map_err(|e| Error::refused(format!("{}: {e}", k.display())))?,
        None => store.signer().map_err(|e| {
            Error::usage(format!(
                "{}; give the game's key with --key (its moderator.key)",
                e.problems.join("; ")
            ))
        })?,
    };
    if signer.public() != g.key {
        return Err(Error::refused(format!(
            "the key given is not the key game {} is signed with ({}): only the game's own key signs its file again",
            g.head().id,
            g.key.fingerprint()
        )));
    }
    if g.head().format >= crate::chain::ADDRESS_FORMAT {
        return Err(Error::usage(format!(
            "{} is of format {} already: it holds no address; publish it as it is",
            store.dir.game_file().display(),
            g.head().format
        )));
    }
    if std::fs::symlink_metadata(out).is_ok() {
        return Err(Error::usage(format!(
            "{} exists; give a new file to write the copy without addresses to",
            out.display()
        )));
    }
    let r = redact(&g, &signer)?;
    write::outside(out, r.record.to_text().as_bytes())?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(out, std::fs::Permissions::from_mode(0o644))
        .map_err(|e| Error::io(out, e))?;
    Ok(r.told)
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
