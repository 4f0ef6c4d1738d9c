//! A game in memory: its file checked by `chain::check::open`, its ruleset
//! loaded and its current state decoded — what every command works on.

use crate::chain::body::{Body, Genesis, Phase};
use crate::chain::check::{self, Opened};
use crate::chain::step::Step;
use crate::chain::{Head, PublicKey, Record};
use crate::error::{Error, Result};
use crate::games::{self, AnyState, Entry, Outcome, Rules, Seat};
use crate::store::{Found, GameDir, Name, Store};
use serde_json::Value;
use std::path::Path;
use std::sync::{Arc, Mutex};

pub struct Loaded {
    pub record: Record,
    pub genesis: Genesis,
    pub key: PublicKey,
    pub entry: &'static Entry,
    pub rules: Box<dyn Rules>,
    pub state: AnyState,
    /// The last phases the reports tell, decoded once for every player's
    /// report: see [`Loaded::recent`].
    pub recent: Recent,
    /// Each player's time zone, where they gave one (from the secrets
    /// file: private, never in the game file), for their reports' deadline.
    pub zones: std::collections::BTreeMap<String, String>,
}

/// The last phases of a log, newest first, with the chain head they were
/// read at (a log that grew since is read again).
#[derive(Default)]
pub struct Recent(Mutex<Option<(String, Arc<Vec<Phase>>)>>);

impl Loaded {
    /// Check and load a game file's text; `name` says where it came from
    /// in messages.
    pub fn from_text(text: &str, name: &str) -> Result<Loaded> {
        let Opened {
            record,
            genesis,
            key,
        } = check::open(text).map_err(|p| named(name, p))?;
        let entry = games::find(&record.head.game).ok_or_else(|| {
            Error::refused(format!(
                "{name}: head record: game `{}` is not one this herald knows ({})",
                record.head.game.escape_debug(),
                games::names().join(", ")
            ))
        })?;
        let specs = (entry.options)();
        for k in record.head.options.keys() {
            if !specs.iter().any(|s| s.name == k) {
                return Err(Error::refused(format!(
                    "{name}: head record: {} has no option `{k}`",
                    entry.title
                )));
            }
        }
        let rules = entry
            .load(&genesis.ruleset.text)
            .map_err(|e| Error::refused(format!("{name}: entry 0 (genesis): the ruleset: {e}")))?;
        let n = record.head.players.len();
        let (lo, hi) = rules.players();
        if n < lo || n > hi {
            return Err(Error::refused(format!(
                "{name}: head record: {n} players, where {} takes {lo} to {hi}",
                entry.title
            )));
        }
        let state = rules
            .decode(&record.head.state)
            .map_err(|e| Error::refused(format!("{name}: head record: state: {e}")))?;
        let loaded = Loaded {
            record,
            genesis,
            key,
            entry,
            rules,
            state,
            recent: Recent::default(),
            zones: Default::default(),
        };
        let (phase, awaiting, outcome) = loaded.summary();
        let h = &loaded.record.head;
        if phase != h.phase || awaiting != h.awaiting || outcome != h.outcome {
            return Err(Error::refused(format!(
                "{name}: head record: phase, awaiting or outcome does not match the game state"
            )));
        }
        Ok(loaded)
    }

    /// Read a game folder's file (no lock: a reader). A damaged file is
    /// refused with the copy to restore it from.
    pub fn open(store: &Store) -> Result<Loaded> {
        let text = store.read_game()?;
        let mut g = Loaded::from_text(&text, &store.dir.game_file().display().to_string())
            .map_err(|mut e| {
                let previous = store.dir.previous();
                if previous.exists() {
                    e.problems.push(format!(
                        "{}: the game file before its last change; if `herald verify` accepts it, copy it over game.jsonl to restore the game",
                        previous.display()
                    ));
                }
                e
            })?;
        g.fill_addresses(store)?;
        // The players' time zones, where the moderator's secrets file is
        // there to read (a published copy of the game has none).
        if let Ok(secrets) = store.secrets() {
            g.zones = secrets.zones;
        }
        Ok(g)
    }

    /// Each player's address, where the game file binds it without holding
    /// it (format 5): from the folder's `secrets.toml`, the last address
    /// kept for the player that opens the head's `address_sha256`. A
    /// folder without its secrets file (a copy) leaves them unknown; a
    /// secrets file that opens none of a player's is refused.
    pub fn fill_addresses(&mut self, store: &Store) -> Result<()> {
        if !self
            .record
            .head
            .players
            .iter()
            .any(|p| p.email.is_none() && p.address_sha256.is_some())
        {
            return Ok(());
        }
        let path = store.dir.secrets();
        if std::fs::symlink_metadata(&path).is_err() {
            return Ok(());
        }
        let secrets = crate::store::Secrets::read(&path)?;
        let mut missing = Vec::new();
        for p in &mut self.record.head.players {
            let Some(c) = &p.address_sha256 else { continue };
            match secrets.address_of(&p.id, c) {
                Some(a) => p.email = Some(a.address.clone()),
                None => missing.push(p.id.clone()),
            }
        }
        if missing.is_empty() {
            return Ok(());
        }
        Err(Error::refused(format!(
            "{}: holds no address for {} that the game file binds (address_sha256): the file was changed or replaced; restore it from your backup",
            path.display(),
            missing.join(", ")
        )))
    }

    /// Player `id`'s mail address, if the game holds one (the game file's
    /// in formats 4 and older, the secrets file's from 5 on).
    pub fn address(&self, id: &str) -> Option<&str> {
        self.record
            .head
            .players
            .iter()
            .find(|p| p.id == id)
            .and_then(|p| p.email.as_deref())
    }

    /// The hash of the game's first genesis entry: entry 0's, or, where
    /// `convert` took the addresses out of it, the one before
    /// (`redacted.genesis`). What `press/rules.json` and the press log of
    /// the folder are chained from.
    pub fn first_genesis(&self) -> String {
        match &self.genesis.redacted {
            Some(r) => r.genesis.clone(),
            None => self
                .record
                .entries
                .first()
                .map(|e| e.hash.clone())
                .unwrap_or_default(),
        }
    }

    /// Every hash an entry of the game has had, with the entry's index:
    /// each entry's own, and, where `convert` took the addresses out, the
    /// one it had before (receipts and witnesses kept from before name
    /// those).
    pub fn entry_hashes(&self) -> std::collections::BTreeMap<String, usize> {
        let mut m: std::collections::BTreeMap<String, usize> = self
            .record
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.hash.clone(), i))
            .collect();
        if let Some(r) = &self.genesis.redacted {
            for (i, h) in self.record.old_hashes(r).into_iter().enumerate() {
                m.entry(h).or_insert(i);
            }
        }
        m
    }

    pub fn head(&self) -> &Head {
        &self.record.head
    }

    pub fn players(&self) -> Vec<String> {
        self.record.head.player_ids()
    }

    /// The seat of player `id`, or a usage error saying who the players
    /// are (a player named on the command line).
    /// Ids are lowercase (`names::RULE`), so `Red` is red.
    pub fn seat_of(&self, id: &str) -> Result<Seat> {
        self.head()
            .player_index(&id.to_ascii_lowercase())
            .ok_or_else(|| Error::usage(self.not_a_player(id)))
    }

    /// "`id` is not a player of this game (red, blue)", with "did you
    /// mean `red`?" when one id is a slip away: the one wording, for a
    /// player named on the command line or in an order file.
    pub fn not_a_player(&self, id: &str) -> String {
        not_a_player(id, &self.players())
    }

    /// The player ids as names, for the paths of their reports: every id
    /// is a valid name (a check the head record already passed; this gives
    /// the names their type).
    pub fn player_names(&self) -> Result<Vec<Name>> {
        self.record
            .head
            .players
            .iter()
            .map(|p| Name::new("player id", &p.id).map_err(Error::refused))
            .collect()
    }

    pub fn summary(&self) -> (String, Vec<String>, Option<Outcome>) {
        summary(self.rules.as_ref(), &self.state, &self.players())
    }

    /// Phase entries from the newest back, decoded one by one (other
    /// entries, the genesis with its ruleset among them, are only peeked at).
    pub fn phases_back(&self) -> impl Iterator<Item = Phase> + '_ {
        self.record
            .entries
            .iter()
            .rev()
            .filter(|e| matches!(Step::read(&e.body), Ok(Step::Phase(_))))
            .filter_map(|e| match e.decode() {
                Ok(Body::Phase(p)) => Some(p),
                _ => None,
            })
    }

    /// The last phases, newest first, as many as the game has players:
    /// all that any report tells ([`Loaded::events_for`], the header's last
    /// phase). Decoded once per state of the log, however many reports
    /// are rendered from it, on however many threads.
    pub fn recent(&self) -> Arc<Vec<Phase>> {
        let at = self.record.chain_head();
        let mut kept = self.recent.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((head, phases)) = kept.as_ref() {
            if head == at {
                return phases.clone();
            }
        }
        let phases: Arc<Vec<Phase>> = Arc::new(
            self.phases_back()
                .take(self.record.head.players.len().max(1))
                .collect(),
        );
        *kept = Some((at.to_string(), phases.clone()));
        phases
    }

    /// The last resolved phase, if any.
    pub fn last_phase(&self) -> Option<Phase> {
        self.recent().first().cloned()
    }

    /// Events a player's report tells: those since the player's last
    /// orders (the result of their own last orders included), at most one
    /// phase per player back, so a player who sends no orders (eliminated,
    /// or never asked) gets the last round, not the whole game.
    pub fn events_for(&self, seat: Seat) -> Vec<(u32, Value)> {
        let id = &self.record.head.players[seat].id;
        let recent = self.recent();
        let mut phases = Vec::new();
        for p in recent.iter() {
            phases.push(p);
            if p.orders.iter().any(|o| &o.player == id) {
                break;
            }
        }
        phases
            .into_iter()
            .rev()
            .flat_map(|p| p.events.iter().map(move |v| (p.turn, v.clone())))
            .collect()
    }
}

/// The phase, who is awaited and the outcome, as the game sees its state.
pub fn summary(
    rules: &dyn Rules,
    state: &AnyState,
    players: &[String],
) -> (String, Vec<String>, Option<Outcome>) {
    let outcome = rules.outcome(state, players);
    let awaiting = if outcome.is_some() {
        Vec::new()
    } else {
        rules
            .awaiting(state)
            .into_iter()
            .filter_map(|s| players.get(s).cloned())
            .collect()
    };
    (rules.phase(state), awaiting, outcome)
}

fn named(name: &str, problems: Vec<String>) -> Error {
    Error::all(
        problems
            .into_iter()
            .map(|p| format!("{name}: {p}"))
            .collect(),
    )
}

/// A moderator's game folder holds the game's signing key: a game file
/// signed with another key (every line re-signed by someone else) is
/// refused, by readers as by writers. A copy without the key file (a
/// published one) is checked with `verify --key` instead.
pub fn own_key(store: &Store, g: &Loaded) -> Result<()> {
    let p = store.dir.key();
    if std::fs::symlink_metadata(&p).is_err() {
        return Ok(());
    }
    let signer = store.signer()?;
    if signer.public() != g.key {
        return Err(Error::refused(format!(
            "{}: signed with key {}, but the key there is not this game's ({}): the game file was re-signed by someone else",
            store.dir.game_file().display(),
            g.key.fingerprint(),
            p.display()
        )));
    }
    Ok(())
}

/// The game folder a command was given (a folder or its `game.jsonl`). A
/// herald 0.1 game file is refused with the command that converts it.
pub fn folder(arg: &Path) -> Result<GameDir> {
    match GameDir::locate(arg)? {
        Found::Folder(d) => Ok(d),
        Found::Format1(p) => Err(Error::refused(format!(
            "{}: a game file of herald 0.1 (format 1); convert it once with `herald convert {} --out <new folder>` (README, \"Upgrading\")",
            p.display(),
            p.display()
        ))),
    }
}

/// "`id` is not a player of this game (red, blue)", and "did you mean
/// `red`?" when one of `ids` is at most two slips (a letter added, left
/// out, changed or swapped with its neighbour) from `id`, case aside.
pub fn not_a_player(id: &str, ids: &[String]) -> String {
    let shown: String = id.chars().take(32).collect();
    let low = id.to_ascii_lowercase();
    let near: Vec<&String> = ids
        .iter()
        .filter(|p| crate::orders::distance(&low, p) <= 2.min(p.len() / 2))
        .collect();
    match near.as_slice() {
        [one] => format!(
            "`{shown}` is not a player of this game; did you mean `{one}`? (the players: {})",
            ids.join(", ")
        ),
        _ => format!(
            "`{shown}` is not a player of this game ({})",
            ids.join(", ")
        ),
    }
}
