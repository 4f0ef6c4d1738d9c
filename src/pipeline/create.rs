//! `herald new`: a game folder, made whole in a temporary folder beside
//! its destination and renamed into place, so a killed `new` leaves no
//! half game and can simply be run again (the next `new` or `convert`
//! beside it removes the folder it was building). Every argument is
//! checked before the first byte is written.

use super::derived;
use super::loaded::{summary, Loaded};
use crate::auth;
use crate::chain::body::{Genesis, Missed, Player, Ruleset};
use crate::chain::canon::{canonical, sha256_hex};
use crate::chain::head::{LogRef, RulesetRef};
use crate::chain::{Head, Record, Signer, FORMAT};
use crate::error::{Error, Result};
use crate::games::{self, Nmr};
use crate::rng;
use crate::store::write::{self, Durability};
use crate::store::{limits, GameDir, Name, Secrets};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct NewGame {
    pub game: String,
    pub rules: Option<PathBuf>,
    pub players: Vec<String>,
    pub seed: Option<String>,
    pub options: Vec<String>,
    pub setup: Option<PathBuf>,
    pub id: Option<String>,
    /// The game folder to create: missing, or an empty folder.
    pub out: PathBuf,
    /// A host-wide signing key (`herald keygen`) instead of a new one.
    pub key: Option<PathBuf>,
    pub now: chrono::DateTime<chrono::FixedOffset>,
    /// Demos only: derive passwords, salts and the key from the seed, so
    /// the whole demo is reproducible. Never for real games.
    pub secrets_from_seed: bool,
    /// Hash passwords with [`auth::Cost::Light`] (demos and tests that play
    /// thousands of games); real games use the standard cost.
    pub light_passwords: bool,
    pub mail: MailSettings,
}

/// `new`'s settings for running a game by mail.
#[derive(Debug, Clone, Default)]
pub struct MailSettings {
    /// `--deadline-every`, e.g. "72h", "3d", "90m".
    pub deadline_every: Option<String>,
    /// `--deadline`: the first phase's deadline (RFC 3339).
    pub deadline: Option<String>,
    /// `--nmr`: hold, repeat or bot (default: the game's first policy).
    pub nmr: Option<String>,
    /// `--drop-after`: missed phases in a row before a player drops out
    /// (0: never; default 3).
    pub drop_after: Option<u32>,
    /// `--moderator`: the From address of herald's mails.
    pub moderator: Option<String>,
    /// `--email player=address`.
    pub emails: Vec<String>,
    /// `--tz player=Zone`: a player's time zone (an IANA name), for the
    /// deadline in their reports; kept in the secrets file.
    pub zones: Vec<String>,
    /// `--press`, `--press-while-resolving`, `--press-after-end`,
    /// `--press-reveal` (docs/host.md, "Press").
    pub press: super::press::Settings,
    /// `--bot SEAT=SPEC`: the seats herald's bots play (docs/bots.md,
    /// "Bot seats"), each with a spec as the lab names bots.
    pub bots: Vec<String>,
    /// The sides each player asked for (a lobby's table; format 7): kept
    /// in the genesis as given, for `verify` to deal again.
    pub preferences: BTreeMap<String, Vec<String>>,
    /// `--name player=Name`: a player's display name (a lobby's seat's
    /// name; format 8), which reports and press show beside the id.
    pub names: Vec<String>,
}

/// Missed phases in a row after which a player drops out, unless `new` says.
pub const DEFAULT_DROP_AFTER: u32 = 3;

pub struct Created {
    pub dir: GameDir,
    pub head: Head,
    pub passwords: Vec<(String, String)>,
    pub notes: Vec<String>,
    pub reports: Vec<PathBuf>,
    /// The press rules chosen (`None`: no press).
    pub press: Option<crate::chain::body::PressRules>,
    /// The bot seats: player id to the bot's spec.
    pub bots: BTreeMap<String, String>,
}

/// A game in memory, not yet on disk: what `new` writes, and what tests and
/// playouts play without a disk.
pub struct Begun {
    pub loaded: Loaded,
    pub seed: String,
    pub signer: Signer,
    pub passwords: Vec<(String, String)>,
    pub notes: Vec<String>,
    /// The press rules `new` chose (`None`: no press).
    pub press: Option<crate::chain::body::PressRules>,
    /// The players' addresses and the salts that bind them in the game
    /// file (format 5): for `secrets.toml`.
    pub addresses: Vec<crate::store::secrets::Address>,
}

/// Check every argument and set the game up in memory; nothing is written.
/// Every problem of the arguments is told at once.
pub fn begin(req: &NewGame) -> Result<Begun> {
    begin_after(req, Vec::new())
}

/// [`begin`], with the problems the caller found already (`create`'s
/// destination) told with the others.
///
/// Long (about 230 lines): every check of `herald new`'s arguments, in the
/// order their problems are told, then the game set up from them; the
/// checks share the arguments read so far. A candidate for splitting into
/// the checks and the set-up.
fn begin_after(req: &NewGame, mut problems: Vec<String>) -> Result<Begun> {
    let Some(entry) = games::find(&req.game) else {
        problems.insert(
            0,
            format!(
                "no game called `{}`; herald knows: {}",
                req.game,
                games::names().join(", ")
            ),
        );
        return Err(Error {
            kind: crate::error::Kind::Usage,
            problems,
        });
    };
    let rules_text = match &req.rules {
        Some(p) => limits::read_text(p, limits::SETUP_FILE, "a ruleset")?,
        None => entry.ruleset.to_string(),
    };
    let rules = entry.load(&rules_text).map_err(|e| {
        Error::refused(format!(
            "{}: {e}",
            req.rules
                .as_deref()
                .unwrap_or(Path::new("ruleset"))
                .display()
        ))
    })?;
    // Every problem of the arguments is gathered before any is told.
    let options = match entry.check_new(rules.as_ref(), &req.players, &req.options) {
        Ok(o) => o,
        Err(e) => {
            problems.extend(e.problems);
            games::Options::new()
        }
    };
    let nmr = match &req.mail.nmr {
        None => entry.nmr[0],
        Some(n) => match Nmr::parse(n).filter(|p| entry.nmr.contains(p)) {
            Some(p) => p,
            None => {
                let offered: Vec<&str> = entry.nmr.iter().map(|p| p.name()).collect();
                problems.push(format!(
                    "--nmr {n}: {} offers {} (see games/{}.md)",
                    entry.title,
                    offered.join(", "),
                    entry.name
                ));
                entry.nmr[0]
            }
        },
    };
    let deadline_every = match &req.mail.deadline_every {
        None => None,
        Some(d) => match crate::time::parse_span(d) {
            Ok(secs) => Some(secs),
            Err(e) => {
                problems.push(format!("--deadline-every {d}: {e}"));
                None
            }
        },
    };
    let first_deadline = match (&req.mail.deadline, deadline_every) {
        (Some(d), _) => match crate::time::parse_when(d, &req.now) {
            Ok(t) => Some(t.to_rfc3339()),
            Err(e) => {
                problems.push(format!("--deadline {d}: {e}"));
                None
            }
        },
        (None, Some(secs)) => Some(crate::time::after(&req.now, secs)),
        (None, None) => None,
    };
    let press = match req.mail.press.rules() {
        Ok(r) => r,
        Err(why) => {
            problems.extend(why);
            None
        }
    };
    let mut emails = BTreeMap::new();
    for e in &req.mail.emails {
        match e.split_once('=') {
            Some((p, a)) if req.players.iter().any(|x| x == p.trim()) && a.contains('@') => {
                emails.insert(p.trim().to_string(), a.trim().to_string());
            }
            Some((p, _)) if !req.players.iter().any(|x| x == p.trim()) => problems.push(format!(
                "--email {e}: `{}` is not one of the players ({})",
                p.trim(),
                req.players.join(", ")
            )),
            _ => problems.push(format!(
                "--email {e}: write it as player=address, e.g. red=red@example.org"
            )),
        }
    }
    let mut zones = BTreeMap::new();
    for z in &req.mail.zones {
        match z.split_once('=') {
            Some((p, _)) if !req.players.iter().any(|x| x == p.trim()) => problems.push(format!(
                "--tz {z}: `{}` is not one of the players ({})",
                p.trim(),
                req.players.join(", ")
            )),
            Some((p, name)) => match crate::time::zone(name) {
                Ok(tz) => {
                    zones.insert(p.trim().to_string(), tz.name().to_string());
                }
                Err(e) => problems.push(format!("--tz {z}: {e}")),
            },
            None => problems.push(format!(
                "--tz {z}: write it as player=zone, e.g. red=Europe/Berlin"
            )),
        }
    }
    let bots = bot_seats(rules.as_ref(), req, &mut problems);
    let names = display_names(req, &bots, &mut problems);
    if let Some(id) = &req.id {
        if let Err(e) = Name::new("--id", id) {
            problems.push(e);
        }
    }
    // The files named are read now, so that one that is not there is told
    // with the rest (what they hold is checked once the arguments are right).
    let setup_text = match &req.setup {
        Some(p) => match limits::read_text(p, limits::SETUP_FILE, "a position file") {
            Ok(t) => Some(t),
            Err(e) => {
                problems.extend(e.problems);
                None
            }
        },
        None => None,
    };
    let key_text = match &req.key {
        Some(p) => match limits::read_text(p, limits::SECRETS_FILE, "a key file") {
            Ok(t) => Some(t),
            Err(e) => {
                problems.extend(e.problems);
                None
            }
        },
        None => None,
    };
    if !problems.is_empty() {
        return Err(Error {
            kind: crate::error::Kind::Usage,
            problems,
        });
    }
    let seed = req.seed.clone().unwrap_or_else(|| rng::os_hex(32));
    let commitment = sha256_hex(seed.as_bytes());
    let id = match &req.id {
        Some(id) => id.clone(),
        None => format!(
            "{}-{}-{}",
            abbreviation(entry.name),
            req.now.format("%Y-%m-%d"),
            &commitment[..6]
        ),
    };
    let mut setup_rng = rng::phase_rng(&seed, &id, 0, "setup");
    let (state, notes) = rules
        .setup(
            &req.players,
            &options,
            setup_text.as_deref(),
            &mut setup_rng,
        )
        .map_err(|e| {
            let place = req
                .setup
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "setup".into());
            Error::all(
                e.to_string()
                    .lines()
                    .map(|l| format!("{place}: {l}"))
                    .collect(),
            )
        })?;
    let value = rules.encode(&state);
    let cost = if req.light_passwords || req.secrets_from_seed {
        auth::Cost::Light
    } else {
        auth::Cost::Standard
    };
    let mut secret_rng = req
        .secrets_from_seed
        .then(|| rng::phase_rng(&seed, &id, 0, "demo secrets"));
    let signer = match (&req.key, &key_text, secret_rng.as_mut()) {
        (Some(p), Some(text), _) => {
            Signer::from_file(text).map_err(|e| Error::refused(format!("{}: {e}", p.display())))?
        }
        (_, _, Some(_)) => {
            // A stream of its own, so a demo's passwords are those herald
            // 0.1 derived from the same seed.
            let mut r = rng::phase_rng(&seed, &id, 0, "demo key");
            let mut b = [0u8; 32];
            b.iter_mut()
                .for_each(|x| *x = rng::below(&mut r, 256) as u8);
            Signer::from_bytes(b)
        }
        _ => Signer::generate(),
    };
    let mut passwords = Vec::new();
    let mut addresses = Vec::new();
    let players: Vec<Player> = req
        .players
        .iter()
        .map(|p| {
            if bots.contains_key(p) {
                // A bot seat: no password, no address (its orders are
                // herald's own; nobody plays it by mail).
                return Player {
                    id: p.clone(),
                    name: p.clone(),
                    email: None,
                    file_email: None,
                    address_sha256: None,
                    password: crate::chain::body::BOT_PASSWORD.to_string(),
                };
            }
            let (pw, salt) = auth::new_secret(secret_rng.as_mut());
            passwords.push((p.clone(), pw.clone()));
            // The address stays in secrets.toml; the game file binds it.
            let address = emails.get(p).cloned();
            let bound = address.as_ref().map(|a| {
                let salt = crate::chain::body::address_salt(&signer, &id, p);
                let c = crate::chain::body::address_sha256(&salt, a);
                addresses.push(crate::store::secrets::Address {
                    player: p.clone(),
                    address: a.clone(),
                    salt,
                });
                c
            });
            Player {
                id: p.clone(),
                name: names.get(p).unwrap_or(p).clone(),
                email: address,
                file_email: None,
                address_sha256: bound,
                password: auth::hash(&pw, &salt, cost),
            }
        })
        .collect();
    let initial_sha256 = sha256_hex(canonical(&value).as_bytes());
    let genesis = Genesis {
        format: FORMAT,
        herald: env!("CARGO_PKG_VERSION").to_string(),
        game: entry.name.to_string(),
        id: id.clone(),
        created: req.now.to_rfc3339(),
        players: players.clone(),
        options: options.clone(),
        ruleset: Ruleset {
            name: entry.name.to_string(),
            sha256: sha256_hex(rules_text.as_bytes()),
            text: rules_text,
        },
        setup: setup_text,
        seed_commitment: commitment,
        key: signer.public().to_string(),
        deadline: first_deadline,
        deadline_every,
        nmr: nmr.name().to_string(),
        drop_after: req.mail.drop_after.unwrap_or(DEFAULT_DROP_AFTER),
        moderator: req.mail.moderator.clone(),
        initial: value.clone(),
        initial_sha256: initial_sha256.clone(),
        converted: None,
        press: press.clone(),
        redacted: None,
        bots: bots.clone(),
        preferences: req.mail.preferences.clone(),
    };
    let (phase, awaiting, outcome) = summary(rules.as_ref(), &state, &req.players);
    let head = head_of(&genesis, phase, awaiting, outcome);
    let record = Record::begin(&genesis, head, &signer);
    let loaded = Loaded {
        key: signer.public(),
        record,
        genesis,
        entry,
        rules,
        state,
        recent: Default::default(),
        zones: zones.clone(),
    };
    Ok(Begun {
        loaded,
        seed,
        signer,
        passwords,
        notes,
        press,
        addresses,
    })
}

/// The display names `--name player=Name` gives (format 8): each a
/// person's seat once, a display name as the lobby takes one (1 to 40
/// characters, no control character, no space at either end).
fn display_names(
    req: &NewGame,
    bots: &BTreeMap<String, String>,
    problems: &mut Vec<String>,
) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for n in &req.mail.names {
        let Some((p, name)) = n.split_once('=') else {
            problems.push(format!("--name {n}: write it as player=name, e.g. red=Ann"));
            continue;
        };
        let (p, name) = (p.trim(), name.trim());
        if !req.players.iter().any(|x| x == p) {
            problems.push(format!(
                "--name {n}: `{p}` is not one of the players ({})",
                req.players.join(", ")
            ));
        } else if bots.contains_key(p) {
            problems.push(format!(
                "--name {n}: `{p}` is a bot seat, which its bot's spec names"
            ));
        } else if !crate::chain::rules::is_display_name(name) {
            problems.push(format!(
                "--name {n}: a display name is 1 to {} characters with no control character",
                crate::chain::rules::NAME_CHARS
            ));
        } else if names.insert(p.to_string(), name.to_string()).is_some() {
            problems.push(format!("--name {n}: `{p}` is named twice"));
        }
    }
    names
}

/// `--bot SEAT=SPEC` read: each seat one of the players, once, with a
/// bot this game takes (`bots::seat_spec`; its canonical name kept), no
/// `--email` or `--tz` for it, and a person left to play. Problems are
/// added to `problems`.
fn bot_seats(
    rules: &dyn games::Rules,
    req: &NewGame,
    problems: &mut Vec<String>,
) -> BTreeMap<String, String> {
    let mut bots = BTreeMap::new();
    for b in &req.mail.bots {
        let Some((seat, spec)) = b.split_once('=') else {
            problems.push(format!(
                "--bot {b}: write it as seat=bot, e.g. --bot {}=mcts:1000",
                req.players.last().map_or("blue", String::as_str)
            ));
            continue;
        };
        let seat = seat.trim();
        if !req.players.iter().any(|p| p == seat) {
            problems.push(format!(
                "--bot {b}: `{seat}` is not one of the players ({})",
                req.players.join(", ")
            ));
            continue;
        }
        if bots.contains_key(seat) {
            problems.push(format!("--bot {b}: {seat} has a bot already"));
            continue;
        }
        match crate::bots::seat_spec(rules, spec.trim()) {
            Ok(bot) => {
                bots.insert(seat.to_string(), bot.to_string());
            }
            Err(e) => problems.push(format!("--bot {b}: {e}")),
        }
    }
    let given = |list: &[String], flag: &str, problems: &mut Vec<String>| {
        for x in list {
            if let Some((p, _)) = x.split_once('=') {
                if bots.contains_key(p.trim()) {
                    problems.push(format!(
                        "{flag} {x}: {} is a bot seat, which gets no mail",
                        p.trim()
                    ));
                }
            }
        }
    };
    given(&req.mail.emails, "--email", problems);
    given(&req.mail.zones, "--tz", problems);
    if !bots.is_empty() && req.players.iter().all(|p| bots.contains_key(p)) {
        problems.push(
            "--bot: every seat is a bot's; leave at least one to a player (`herald playtest` plays bots against each other)".into(),
        );
    }
    bots
}

/// The head record of a game that has just begun.
pub fn head_of(
    g: &Genesis,
    phase: String,
    awaiting: Vec<String>,
    outcome: Option<games::Outcome>,
) -> Head {
    Head {
        format: FORMAT,
        herald: env!("CARGO_PKG_VERSION").to_string(),
        game: g.game.clone(),
        id: g.id.clone(),
        created: g.created.clone(),
        players: g.players.clone(),
        options: g.options.clone(),
        ruleset: RulesetRef {
            name: g.ruleset.name.clone(),
            sha256: g.ruleset.sha256.clone(),
        },
        seed_commitment: g.seed_commitment.clone(),
        key: g.key.clone(),
        deadline_every: g.deadline_every,
        nmr: g.nmr.clone(),
        drop_after: g.drop_after,
        moderator: g.moderator.clone(),
        turn: 0,
        phase,
        awaiting,
        outcome,
        deadline: g.deadline.clone(),
        missed: Missed::none_yet(&g.players),
        state: g.initial.clone(),
        state_sha256: g.initial_sha256.clone(),
        log: LogRef {
            entries: 0,
            head: String::new(),
        },
        seed: None,
    }
}

pub fn abbreviation(name: &str) -> String {
    name.split('-').filter_map(|w| w.chars().next()).collect()
}

/// `herald new`: check, set up, and write the game folder.
pub fn create(req: NewGame) -> Result<Created> {
    // The destination is checked first: nothing is set up for a folder
    // that cannot be made.
    let out = &req.out;
    let mut problems = Vec::new();
    if let Ok(meta) = std::fs::symlink_metadata(out) {
        let empty = meta.is_dir()
            && std::fs::read_dir(out)
                .map(|mut d| d.next().is_none())
                .unwrap_or(false);
        if !empty {
            problems.push(format!(
                "{} exists and is not an empty folder; `new` makes a new game folder and never writes into another game's",
                out.display()
            ));
        }
    }
    let begun = begin_after(&req, problems)?;
    let (tmp, store) = crate::store::building(out, crate::store::BUILDING[0])?;
    let building = store.dir.clone();
    let secrets = Secrets {
        seed: begun.seed.clone(),
        passwords: begun.passwords.iter().cloned().collect(),
        addresses: begun.addresses.clone(),
        zones: begun.loaded.zones.clone(),
    };
    let head = &begun.loaded.record.head;
    secrets.write(&building.secrets(), &head.id)?;
    write::atomic(
        &building.key(),
        begun.signer.to_file().as_bytes(),
        Durability::Synced,
    )?;
    store.commit(&begun.loaded.record.to_text())?;
    derived::finish(
        &store,
        &begun.loaded,
        &begun.signer,
        Some(&req.now.to_rfc3339()),
    )?;
    crate::store::built(tmp, store, out)?;
    let dir = GameDir::at(out.clone());
    let reports = derived::report_files(&dir, &begun.loaded);
    Ok(Created {
        dir,
        head: begun.loaded.record.head.clone(),
        passwords: begun.passwords,
        notes: begun.notes,
        reports,
        press: begun.press.clone(),
        bots: begun.loaded.genesis.bots.clone(),
    })
}
