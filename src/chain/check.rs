//! The one answer to "is this game file valid?", used by every command.
//!
//! [`open`] is what every command runs: the layout of every line, every
//! entry's hash and link to the one before (one pass of SHA-256 over the
//! file's bytes), the head record's seal, the genesis entry and the
//! current state against the head, and the head record derived again from
//! the log's bodies and compared field by field. Any edit anywhere breaks
//! one of these; a file that passes was written, as it stands, by the
//! holder of the game's key, and its head says what its log says. When
//! something is broken, [`open`] goes on to find the first entry or field
//! that differs and names it.
//!
//! [`walk`] is what `verify` adds: every entry's signature checked, the
//! order files' hashes and players. Replaying the rules is the pipeline's
//! part of `verify`: an edit of a log entry's body that its key holder
//! signed again is found there (and by the witnesses players keep).

use super::body::{Body, Genesis, Missed, Player};
use super::canon::{canonical, is_digest, sha256_hex};
use super::head::{kind_format, Head, ADDRESS_FORMAT, EXCUSED_FORMAT, FORMAT, OLDEST};
use super::keys::PublicKey;
use super::record::{Record, ZERO};
use super::step::{PhaseStep, Step};
use crate::names;

/// A game file that passed [`open`].
#[derive(Debug, Clone)]
pub struct Opened {
    pub record: Record,
    pub genesis: Genesis,
    pub key: PublicKey,
}

/// Check a game file's text. `Err` lists what is wrong, the first broken
/// entry or field named.
pub fn open(text: &str) -> Result<Opened, Vec<String>> {
    let record = Record::parse(text)?;
    let head = &record.head;
    if !(OLDEST..=FORMAT).contains(&head.format) {
        return Err(vec![format!(
            "head record: format {} is not one this herald reads (it reads formats {OLDEST} to {FORMAT}; format 1 with `herald convert`)",
            head.format
        )]);
    }
    let key = PublicKey::parse(&head.key).map_err(|e| vec![format!("head record: key: {e}")])?;
    let mut problems = chain_problems(&record);
    if problems.is_empty() && !record.seal_ok(&key) {
        problems = unsealed(&record, &key);
    }
    if problems.is_empty() {
        // The seal binds the entries' hashes, not their signatures: each
        // is checked too, so a signature zeroed or copied from another
        // entry is refused here, by every command.
        problems = signature_problems(&record, &key);
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let genesis = match record.entries[0].decode() {
        Ok(Body::Genesis(g)) => g,
        Ok(other) => {
            return Err(vec![format!(
                "entry 0 is a {} entry, not the genesis",
                other.kind()
            )])
        }
        Err(e) => return Err(vec![format!("entry 0 (genesis): {e}")]),
    };
    let mut problems = genesis_problems(&genesis, head);
    problems.extend(head_problems(head, &genesis));
    if problems.is_empty() {
        // The state the log ends in: the last phase's, or the initial one.
        let last =
            record
                .entries
                .iter()
                .enumerate()
                .rev()
                .find_map(|(i, e)| match Step::read(&e.body) {
                    Ok(Step::Genesis) if i == 0 => Some(Ok(genesis.initial_sha256.clone())),
                    Ok(Step::Genesis) => Some(Err(format!("entry {i} is a second genesis entry"))),
                    Ok(s) => s.state_after().map(|h| Ok(h.to_string())),
                    Err(err) => Some(Err(format!("{}: {err}", e.describe(i)))),
                });
        match last {
            Some(Ok(h)) if h == head.state_sha256 => {}
            Some(Ok(_)) => {
                problems.push("head record: state_sha256 is not the state the log ends in".into())
            }
            Some(Err(e)) => problems.push(e),
            None => problems.push("the log holds no genesis entry".into()),
        }
    }
    if problems.is_empty() {
        // The head record is what the log says: a field the moderator's
        // key re-sealed after an edit is refused here, as `verify` does.
        match derive_from(&record, &genesis) {
            Ok(d) => problems.extend(compare(&d, head)),
            Err(p) => problems.extend(p),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Opened {
        record,
        genesis,
        key,
    })
}

/// Every line's hash and link, and the head's reference to the last one.
fn chain_problems(r: &Record) -> Vec<String> {
    let mut out = Vec::new();
    if r.entries.is_empty() {
        return vec!["the log is empty: a game file holds at least its genesis entry".into()];
    }
    let mut prev = ZERO;
    for (i, e) in r.entries.iter().enumerate() {
        if e.prev != prev {
            out.push(format!(
                "{} does not follow the entry before it (entries removed, inserted or reordered)",
                e.describe(i)
            ));
            return out;
        }
        if !e.hash_ok() {
            out.push(format!(
                "{} does not match its hash: it was changed after herald wrote it",
                e.describe(i)
            ));
            return out;
        }
        prev = &e.hash;
    }
    if r.head.log.entries != r.entries.len() as u64 {
        out.push(format!(
            "the log holds {} entries but the head record says {} (truncated, or entries added)",
            r.entries.len(),
            r.head.log.entries
        ));
    } else if r.head.log.head != prev {
        out.push("the head record's log.head is not the last entry's hash".into());
    }
    out
}

/// Every entry's signature, checked side by side (an Ed25519 check costs
/// ~60 µs; a 400-phase game's take ~12 ms on two cores). The first entry
/// whose signature fails is named.
fn signature_problems(r: &Record, key: &PublicKey) -> Vec<String> {
    use rayon::prelude::*;
    let bad = r
        .entries
        .par_iter()
        .enumerate()
        .with_min_len(32)
        .filter(|(_, e)| !e.sig_ok(key))
        .map(|(i, _)| i)
        .min();
    match bad {
        None => Vec::new(),
        Some(i) => vec![format!(
            "{} is not signed by the game's key ({}): its signature was changed after herald wrote it",
            r.entries[i].describe(i),
            key.fingerprint()
        )],
    }
}

/// The chain holds but the seal does not: someone re-hashed an edit. Name
/// the first entry whose signature fails, or else the head record's fields
/// that differ from what the log says.
fn unsealed(r: &Record, key: &PublicKey) -> Vec<String> {
    for (i, e) in r.entries.iter().enumerate() {
        if !e.sig_ok(key) {
            return vec![format!(
                "{} is not signed by the game's key ({}): it was changed and re-hashed after herald wrote it",
                e.describe(i),
                key.fingerprint()
            )];
        }
    }
    let mut out = vec![format!(
        "the head record (line 1) is not sealed by the game's key ({}): it was changed after herald wrote it",
        key.fingerprint()
    )];
    if let Ok(derived) = derive(r) {
        out.extend(compare(&derived, &r.head));
    }
    out
}

/// The genesis's own rules, checked by every command that opens the game.
///
/// Long (about 85 lines): one rule a field of the genesis, in the order of
/// its fields; a table of cases.
fn genesis_problems(g: &Genesis, head: &Head) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = |name: &str, ok: bool| {
        if !ok {
            out.push(format!(
                "entry 0 (genesis): {name} does not match the head record"
            ));
        }
    };
    field("game", g.game == head.game);
    field("id", g.id == head.id);
    field("key", g.key == head.key);
    field("created", g.created == head.created);
    field(
        "ruleset",
        g.ruleset.name == head.ruleset.name && g.ruleset.sha256 == head.ruleset.sha256,
    );
    field("seed_commitment", g.seed_commitment == head.seed_commitment);
    if sha256_hex(g.ruleset.text.as_bytes()) != g.ruleset.sha256 {
        out.push("entry 0 (genesis): the ruleset text does not match its sha256".into());
    }
    if sha256_hex(canonical(&g.initial).as_bytes()) != g.initial_sha256 {
        out.push("entry 0 (genesis): the initial state does not match its sha256".into());
    }
    // A game begun in format 2 keeps its genesis when `convert` brings
    // its head to 3; a head never says less than its genesis.
    if !(OLDEST..=head.format).contains(&g.format) {
        out.push(format!(
            "entry 0 (genesis): format {} is not {OLDEST} to {} (the head's format)",
            g.format, head.format
        ));
    }
    if let Some(p) = &g.press {
        if g.format < 3 {
            out.push(format!(
                "entry 0 (genesis): press rules in a genesis of format {} (they came with format 3)",
                g.format
            ));
        }
        if !super::body::PRESS_KINDS.contains(&p.kind.as_str())
            || !super::body::PRESS_REVEALS.contains(&p.reveal.as_str())
        {
            out.push(format!(
                "entry 0 (genesis): press rules `{}`, reveal `{}`: the kinds are {}, the reveals {}",
                p.kind.escape_debug(),
                p.reveal.escape_debug(),
                super::body::PRESS_KINDS.join(", "),
                super::body::PRESS_REVEALS.join(", ")
            ));
        }
    }
    if g.format.max(head.format) >= ADDRESS_FORMAT {
        for (i, p) in g.players.iter().enumerate() {
            if p.file_email.is_some() {
                out.push(format!(
                    "entry 0 (genesis): players[{i}] ({}) holds a mail address, which a game file of format {} never does (it binds it by address_sha256; `herald convert` takes the addresses out of an older game)",
                    p.id.escape_debug(),
                    g.format.max(head.format)
                ));
            }
        }
    }
    if g.format < super::body::BOTS_FORMAT && !g.bots.is_empty() {
        out.push(format!(
            "entry 0 (genesis): bots came with format {}, and this genesis says {}",
            super::body::BOTS_FORMAT,
            g.format
        ));
    }
    if g.format < super::body::PREFERENCES_FORMAT && !g.preferences.is_empty() {
        out.push(format!(
            "entry 0 (genesis): preferences came with format {}, and this genesis says {}",
            super::body::PREFERENCES_FORMAT,
            g.format
        ));
    }
    if g.format < ADDRESS_FORMAT
        && (g.redacted.is_some() || g.players.iter().any(|p| p.address_sha256.is_some()))
    {
        out.push(format!(
            "entry 0 (genesis): `redacted` and players' address_sha256 came with format {ADDRESS_FORMAT}, and this genesis says {}",
            g.format
        ));
    }
    if !is_time(&g.created) {
        out.push("entry 0 (genesis): created is not a time (RFC 3339)".into());
    }
    if g.deadline.as_deref().is_some_and(|d| !is_time(d)) {
        out.push("entry 0 (genesis): deadline is not a time (RFC 3339)".into());
    }
    out
}

/// What must hold of a head record on its own: names that become paths,
/// digests, the state's hash.
///
/// Long (about 85 lines): one rule a field of the head, in the order of
/// its fields; a table of cases.
fn head_problems(h: &Head, g: &Genesis) -> Vec<String> {
    let mut out = Vec::new();
    if !names::valid(&h.id) {
        out.push(format!(
            "head record: game id `{}` is not a valid name ({})",
            h.id.escape_debug(),
            names::RULE
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for p in &h.players {
        if h.format >= ADDRESS_FORMAT && p.file_email.is_some() {
            out.push(format!(
                "head record: player `{}` holds a mail address, which a game file of format {} never does",
                p.id.escape_debug(),
                h.format
            ));
        }
        if !names::valid(&p.id) {
            out.push(format!(
                "head record: player id `{}` is not a valid name ({})",
                p.id.escape_debug(),
                names::RULE
            ));
        }
        if !seen.insert(&p.id) {
            out.push(format!("head record: player id `{}` appears twice", p.id));
        }
    }
    if h.players.is_empty() {
        out.push("head record: the game has no players".into());
    }
    for k in h.options.keys() {
        if !names::valid(k) {
            out.push(format!(
                "head record: option `{}` is not a valid name",
                k.escape_debug()
            ));
        }
    }
    for a in h.awaiting.iter().chain(h.missed.iter().map(|m| &m.player)) {
        if !h.players.iter().any(|p| &p.id == a) {
            out.push(format!(
                "head record: `{}` is not a player of this game",
                a.escape_debug()
            ));
        }
    }
    // A bot seat's password is empty, as its genesis has it (`compare`).
    for (i, p) in h
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| !g.bots.contains_key(&p.id))
    {
        if let Err(why) = crate::auth::check_stored(&p.password) {
            out.push(format!(
                "head record: players[{i}].password ({}): {why}",
                p.id.escape_debug()
            ));
        }
    }
    if let Some(d) = &h.deadline {
        if !is_time(d) {
            out.push(format!(
                "head record: deadline `{}` is not a time (RFC 3339)",
                d.escape_debug()
            ));
        }
    }
    if !is_digest(&h.seed_commitment) {
        out.push("head record: seed_commitment is not a sha256".into());
    }
    if sha256_hex(canonical(&h.state).as_bytes()) != h.state_sha256 {
        out.push("head record: the state does not match state_sha256".into());
    }
    if let Some(seed) = &h.seed {
        if sha256_hex(seed.as_bytes()) != h.seed_commitment {
            out.push("head record: the revealed seed does not match the commitment".into());
        }
    }
    out
}

/// The head record's fields that follow from the log alone (the state's
/// phase, awaiting and outcome follow from the state, which the pipeline
/// checks). Returned as a Head whose other fields are copied.
pub fn derive(r: &Record) -> Result<Head, Vec<String>> {
    let Some(first) = r.entries.first() else {
        return Err(vec![
            "the log is empty: a game file holds at least its genesis entry".into(),
        ]);
    };
    match first.decode() {
        Ok(Body::Genesis(g)) => derive_from(r, &g),
        Ok(b) => Err(vec![format!(
            "entry 0 is a {} entry, not the genesis",
            b.kind()
        )]),
        Err(err) => Err(vec![format!("{}: {err}", first.describe(0))]),
    }
}

/// [`derive`] with the genesis entry already decoded. The entries after
/// it are read as [`Step`]s: only the fields the head follows from.
///
/// Long (about 140 lines): the head taken field by field from the genesis, then
/// one pass over the entries with one branch a kind of entry, each checking it
/// and bringing the head up to date; a table of cases.
fn derive_from(r: &Record, g: &Genesis) -> Result<Head, Vec<String>> {
    let mut h = r.head.clone();
    let mut problems = Vec::new();
    h.game = g.game.clone();
    h.id = g.id.clone();
    h.created = g.created.clone();
    h.players = g.players.clone();
    h.options = g.options.clone();
    h.ruleset.name = g.ruleset.name.clone();
    h.ruleset.sha256 = g.ruleset.sha256.clone();
    h.seed_commitment = g.seed_commitment.clone();
    h.key = g.key.clone();
    h.deadline_every = g.deadline_every;
    h.nmr = g.nmr.clone();
    h.drop_after = g.drop_after;
    h.moderator = g.moderator.clone();
    h.deadline = g.deadline.clone();
    h.state_sha256 = g.initial_sha256.clone();
    h.seed = None;
    h.missed = Missed::none_yet(&g.players);
    let mut turn = 0u32;
    // The last change of hands of each seat: the head's address for the
    // player must be the one whose salted hash it keeps.
    let mut holders: std::collections::BTreeMap<String, (usize, String, String)> =
        Default::default();
    for (i, e) in r.entries.iter().enumerate().skip(1) {
        let step = match Step::read(&e.body) {
            Ok(s) => s,
            Err(err) => {
                problems.push(format!("{}: {err}", e.describe(i)));
                return Err(problems);
            }
        };
        if kind_format(step.kind()) > h.format {
            problems.push(format!(
                "entry {i} is a `{}` entry, which game files of format {} do not hold (it came with format {}, and the head says {})",
                step.kind(),
                h.format,
                kind_format(step.kind()),
                h.format
            ));
        }
        match step {
            Step::Genesis => problems.push(format!("entry {i} is a second genesis entry")),
            Step::Phase(p) => {
                if !p.excused.is_empty() && h.format < EXCUSED_FORMAT {
                    problems.push(format!(
                        "entry {i} is a phase entry naming players a stand-in played for (`excused`), which game files of format {} do not hold (it came with format {EXCUSED_FORMAT})",
                        h.format
                    ));
                }
                if p.turn != turn {
                    problems.push(format!(
                        "entry {i} resolves turn {} where turn {turn} was due (phases out of order or missing)",
                        p.turn
                    ));
                }
                if h.seed.is_some() {
                    problems.push(format!(
                        "entry {i} resolves a phase after the seed was revealed"
                    ));
                }
                apply_phase(&mut h, &p);
                turn += 1;
            }
            Step::Passwd { player, password } => {
                match h.players.iter_mut().find(|x| x.id == player) {
                    Some(x) => x.password = password,
                    None => {
                        problems.push(format!("entry {i} (passwd): `{player}` is not a player"))
                    }
                }
            }
            Step::Deadline(d) => {
                if let Some(t) = d.as_deref().filter(|t| !is_time(t)) {
                    problems.push(format!(
                        "entry {i} (deadline): `{}` is not a time (RFC 3339)",
                        t.escape_debug()
                    ));
                }
                h.deadline = d
            }
            Step::Reveal(seed) => {
                if sha256_hex(seed.as_bytes()) != h.seed_commitment {
                    problems.push(format!(
                        "entry {i} (reveal): the seed does not match the commitment"
                    ));
                }
                h.seed = Some(seed);
                h.deadline = None;
            }
            Step::Seat {
                player,
                name,
                password,
                salt,
                holder_sha256,
            } => match h.players.iter_mut().find(|x| x.id == player) {
                Some(x) => {
                    x.name = name;
                    x.password = password;
                    if let Some(m) = h.missed.iter_mut().find(|m| m.player == player) {
                        m.in_a_row = 0;
                        m.dropped = false;
                    }
                    match (salt, h.format >= ADDRESS_FORMAT) {
                        // The head binds the new holder's address by the
                        // entry's own commitment (format 5).
                        (_, true) => x.address_sha256 = Some(holder_sha256),
                        (Some(salt), false) => {
                            holders.insert(player, (i, salt, holder_sha256));
                        }
                        (None, false) => problems.push(format!(
                            "entry {i} (seat): no salt: a seat entry keeps its salt secret from format {ADDRESS_FORMAT} on, and the head says {}",
                            h.format
                        )),
                    }
                }
                None => problems.push(format!("entry {i} (seat): `{player}` is not a player")),
            },
            Step::Vacation { player } => {
                if h.player_index(&player).is_none() {
                    problems.push(format!("entry {i} (vacation): `{player}` is not a player"));
                }
            }
            Step::Press => {}
            Step::Resign {
                player,
                state_sha256,
            } => {
                if h.player_index(&player).is_none() {
                    problems.push(format!("entry {i} (resign): `{player}` is not a player"));
                }
                if h.seed.is_some() {
                    problems.push(format!("entry {i} (resign): after the seed was revealed"));
                }
                h.state_sha256 = state_sha256;
            }
            Step::Draw {
                player,
                act,
                state_sha256,
            } => {
                if h.player_index(&player).is_none() {
                    problems.push(format!("entry {i} (draw): `{player}` is not a player"));
                }
                if !super::body::DRAW_ACTS.contains(&act.as_str()) {
                    problems.push(format!(
                        "entry {i} (draw): act `{}` is not one of {}",
                        act.escape_debug(),
                        super::body::DRAW_ACTS.join(", ")
                    ));
                }
                if h.seed.is_some() {
                    problems.push(format!("entry {i} (draw): after the seed was revealed"));
                }
                if let Some(s) = state_sha256 {
                    h.state_sha256 = s;
                }
            }
        }
    }
    for (player, (i, salt, holder)) in holders {
        let email = r
            .head
            .players
            .iter()
            .find(|p| p.id == player)
            .and_then(|p| p.file_email.clone());
        match email {
            Some(e) if super::body::SeatChange::holder(&salt, &e) == holder => {
                if let Some(x) = h.players.iter_mut().find(|x| x.id == player) {
                    x.email = Some(e.clone());
                    x.file_email = Some(e);
                }
            }
            _ => problems.push(format!(
                "entry {i} (seat): the head's address for `{player}` is not the one the entry's holder_sha256 names"
            )),
        }
    }
    h.turn = turn;
    if problems.is_empty() {
        Ok(h)
    } else {
        Err(problems)
    }
}

/// Is `t` a time as herald writes them (RFC 3339)?
pub fn is_time(t: &str) -> bool {
    chrono::DateTime::parse_from_rfc3339(t).is_ok()
}

/// What a resolved phase changes in the head: turn, deadline, missed
/// counts, drop-outs, the state's hash.
pub fn apply_phase(h: &mut Head, p: &PhaseStep) {
    for (player, stood_in) in &p.orders {
        if *stood_in && p.excused.contains(player) {
            // Away on vacation, a stand-in played: neither a miss nor a
            // phase played.
            continue;
        }
        if let Some(m) = h.missed.iter_mut().find(|m| &m.player == player) {
            if *stood_in {
                m.total += 1;
                m.in_a_row += 1;
            } else {
                m.in_a_row = 0;
            }
        }
    }
    for d in &p.dropped {
        if let Some(m) = h.missed.iter_mut().find(|m| &m.player == d) {
            m.dropped = true;
        }
    }
    h.state_sha256 = p.state_sha256.clone();
    h.deadline = h
        .deadline_every
        .and_then(|secs| deadline_after(&p.resolved_at, secs));
}

/// The deadline `secs` after a resolution at `at` (RFC 3339, in `at`'s
/// offset): how `--deadline-every` sets each phase's deadline.
pub fn deadline_after(at: &str, secs: u64) -> Option<String> {
    let t = chrono::DateTime::parse_from_rfc3339(at).ok()?;
    let secs = i64::try_from(secs).ok()?;
    t.checked_add_signed(chrono::Duration::try_seconds(secs)?)
        .map(|t| t.to_rfc3339())
}

/// The head record's fields that differ from the derived ones, named.
fn compare(derived: &Head, head: &Head) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = |name: &str, same: bool| {
        if !same {
            out.push(format!("head record: `{name}` is not what the log says"));
        }
    };
    field("game", derived.game == head.game);
    field("id", derived.id == head.id);
    field("created", derived.created == head.created);
    if derived.players.len() != head.players.len() {
        field("players", false);
    } else {
        for (i, (a, b)) in derived.players.iter().zip(&head.players).enumerate() {
            let Player {
                id,
                name,
                email: _,
                file_email,
                address_sha256,
                password,
            } = a;
            field(&format!("players[{i}].id"), *id == b.id);
            field(&format!("players[{i}].name"), *name == b.name);
            field(&format!("players[{i}].email"), *file_email == b.file_email);
            field(
                &format!("players[{i}].address_sha256"),
                *address_sha256 == b.address_sha256,
            );
            field(&format!("players[{i}].password"), *password == b.password);
        }
    }
    field("options", derived.options == head.options);
    field("ruleset", derived.ruleset == head.ruleset);
    field(
        "seed_commitment",
        derived.seed_commitment == head.seed_commitment,
    );
    field("key", derived.key == head.key);
    field(
        "deadline_every",
        derived.deadline_every == head.deadline_every,
    );
    field("nmr", derived.nmr == head.nmr);
    field("drop_after", derived.drop_after == head.drop_after);
    field("moderator", derived.moderator == head.moderator);
    field("turn", derived.turn == head.turn);
    field("deadline", derived.deadline == head.deadline);
    field("missed", derived.missed == head.missed);
    field("state_sha256", derived.state_sha256 == head.state_sha256);
    field("seed", derived.seed == head.seed);
    if sha256_hex(canonical(&head.state).as_bytes()) != derived.state_sha256 {
        out.push("head record: `state` is not the state the log ends in".into());
    }
    out
}

/// `verify`'s part of the check beyond [`open`]: every entry's signature
/// and body, the order of entries, the order files' hashes, and the head
/// record derived again from the log.
pub fn walk(o: &Opened) -> Vec<String> {
    let r = &o.record;
    let mut out = Vec::new();
    for (i, e) in r.entries.iter().enumerate() {
        if !e.sig_ok(&o.key) {
            out.push(format!(
                "{} is not signed by the game's key ({})",
                e.describe(i),
                o.key.fingerprint()
            ));
        }
        if let Ok(Body::Phase(p)) = e.decode() {
            for rec in &p.orders {
                if sha256_hex(rec.text.as_bytes()) != rec.sha256 {
                    out.push(format!(
                        "{}: the order file of {} does not match its sha256",
                        e.describe(i),
                        rec.player
                    ));
                }
                if !r.head.players.iter().any(|p| p.id == rec.player) {
                    out.push(format!(
                        "{}: `{}` is not a player",
                        e.describe(i),
                        rec.player
                    ));
                }
            }
        }
    }
    match derive(r) {
        Ok(d) => out.extend(compare(&d, &r.head)),
        Err(p) => out.extend(p),
    }
    out
}
