//! Replaying a game from its genesis: `verify` (every entry produced again
//! and compared byte for byte, every roll re-derived from the seed),
//! `undo` (the game as it was before its last phase), `export` and the
//! checking of witnesses, which re-render reports as they were sent.

use super::check::{check_orders, Submitted};
use super::create::head_of;
use super::loaded::{summary, Loaded};
use super::resolve::step;
use crate::chain::body::{Body, Genesis, Phase};
use crate::chain::canon::{canonical, sha256_hex};
use crate::chain::check;
use crate::chain::record::EntryLine;
use crate::chain::Record;
use crate::error::{Error, Result};
use crate::games;
use crate::rng;

/// Where a replay departed from the record, in order; empty: it did not.
pub type Findings = Vec<String>;

/// Replay `source`'s log from its genesis with `seed` through its first
/// `upto` entries, checking each produced entry against the recorded one.
/// `visit` sees the game after the genesis and after each entry (with the
/// entry's index). `Ok(Err(findings))` when the replay departs.
///
/// Long (about 100 lines): one loop rebuilding each entry and comparing it
/// with the recorded one, field by field, so each departure names its field.
pub fn replay(
    source: &Record,
    genesis: &Genesis,
    seed: &str,
    upto: usize,
    mut visit: impl FnMut(&Loaded, usize) -> Result<()>,
) -> Result<std::result::Result<Loaded, Findings>> {
    if sha256_hex(seed.as_bytes()) != genesis.seed_commitment {
        return Ok(Err(vec![
            "the seed does not match the commitment printed in every report".into(),
        ]));
    }
    let entry = games::find(&genesis.game)
        .ok_or_else(|| Error::refused(format!("unknown game `{}`", genesis.game)))?;
    let rules = entry.load(&genesis.ruleset.text).map_err(Error::refused)?;
    let players: Vec<String> = genesis.players.iter().map(|p| p.id.clone()).collect();
    let mut setup_rng = rng::phase_rng(seed, &genesis.id, 0, "setup");
    let state = match rules.setup(
        &players,
        &genesis.options,
        genesis.setup.as_deref(),
        &mut setup_rng,
    ) {
        Ok((s, _)) => s,
        Err(e) => {
            return Ok(Err(vec![format!(
                "entry 0 (genesis): the setup does not replay: {e}"
            )]))
        }
    };
    let value = rules.encode(&state);
    if sha256_hex(canonical(&value).as_bytes()) != genesis.initial_sha256 {
        return Ok(Err(vec![
            "entry 0 (genesis): the seed and options do not give the recorded initial state".into(),
        ]));
    }
    let (phase, awaiting, outcome) = summary(rules.as_ref(), &state, &players);
    let mut head = head_of(genesis, phase, awaiting, outcome);
    head.herald = source.head.herald.clone();
    let Some(first) = source.entries.first() else {
        return Ok(Err(vec!["the log is empty".into()]));
    };
    let mut g = Loaded {
        record: Record {
            head,
            head_raw: String::new(),
            seal: String::new(),
            entries: vec![first.clone()],
        },
        genesis: genesis.clone(),
        key: crate::chain::PublicKey::parse(&genesis.key).map_err(Error::refused)?,
        entry,
        rules,
        state,
        recent: Default::default(),
    };
    sync_log(&mut g.record);
    visit(&g, 0)?;
    for (i, line) in source.entries.iter().enumerate().take(upto).skip(1) {
        let body = match line.decode() {
            Ok(b) => b,
            Err(e) => return Ok(Err(vec![format!("{}: {e}", line.describe(i))])),
        };
        match body {
            Body::Phase(p) => {
                if let Err(found) = replay_phase(&mut g, &p, seed, line, i) {
                    return Ok(Err(found));
                }
            }
            Body::Passwd(p) => match g.record.head.players.iter_mut().find(|x| x.id == p.player) {
                Some(x) => x.password = p.password,
                None => {
                    return Ok(Err(vec![format!(
                        "{}: `{}` is not a player",
                        line.describe(i),
                        p.player
                    )]))
                }
            },
            Body::Deadline(d) => g.record.head.deadline = d.deadline,
            Body::Reveal(r) => {
                if r.seed != seed {
                    return Ok(Err(vec![format!(
                        "{}: reveals another seed",
                        line.describe(i)
                    )]));
                }
                g.record.head.seed = Some(r.seed);
                g.record.head.deadline = None;
            }
            Body::Genesis(_) => {
                return Ok(Err(vec![format!("entry {i} is a second genesis entry")]))
            }
        }
        g.record.entries.push(line.clone());
        sync_log(&mut g.record);
        visit(&g, i)?;
    }
    Ok(Ok(g))
}

fn sync_log(r: &mut Record) {
    r.head.log.entries = r.entries.len() as u64;
    r.head.log.head = r.chain_head().to_string();
}

/// Produce the recorded phase again and compare.
fn replay_phase(
    g: &mut Loaded,
    p: &Phase,
    seed: &str,
    line: &EntryLine,
    i: usize,
) -> std::result::Result<(), Findings> {
    let what = line.describe(i);
    let files: Vec<Submitted> = p
        .orders
        .iter()
        .map(|o| Submitted {
            name: format!("turn {} orders of {}", p.turn, o.player),
            text: o.text.clone(),
            check_password: false,
            received: o.received.clone(),
        })
        .collect();
    let mut accepted = match check_orders(g, &files) {
        Ok(a) => a,
        Err(e) => {
            return Err(vec![format!(
                "{what}: the recorded orders are refused on replay: {}",
                e.problems.join("; ")
            )])
        }
    };
    for r in &mut accepted.records {
        if let Some(o) = p.orders.iter().find(|o| o.player == r.player) {
            r.nmr = o.nmr.clone();
        }
    }
    g.record.head.deadline = p.deadline.clone();
    let (next, mut body) = step(
        g.rules.as_ref(),
        &mut g.record.head,
        &g.state,
        seed,
        accepted,
        &p.resolved_at,
        p.dice,
    );
    if p.dice == 1 {
        // herald 0.1 kept no roll log, nor the orders as read.
        body.rolls.clear();
        for r in &mut body.orders {
            r.read.clear();
        }
    }
    g.state = next;
    let produced = canonical(&Body::Phase(body.clone()));
    if produced == line.body {
        return Ok(());
    }
    let mut found = Vec::new();
    let mut differs = |name: &str, same: bool| {
        if !same {
            found.push(format!(
                "{what}: the replayed {name} differ from the recorded ones"
            ));
        }
    };
    differs("orders", canonical(&body.orders) == canonical(&p.orders));
    differs("events", canonical(&body.events) == canonical(&p.events));
    differs("rolls", body.rolls == p.rolls);
    differs("drop-outs", body.dropped == p.dropped);
    differs("state", body.state_sha256 == p.state_sha256);
    differs("phase name", body.phase == p.phase);
    if found.is_empty() {
        found.push(format!(
            "{what}: the replayed entry differs from the recorded one"
        ));
    }
    Err(found)
}

/// Everything `verify` checks beyond `chain::check::open`: the walk, and
/// the replay with the seed (`seed`, else the revealed one). Without a
/// seed the rules cannot be replayed: `Ok((findings, false))`.
pub fn verify(g: &Loaded, seed: Option<&str>) -> Result<(Findings, bool)> {
    let opened = check::Opened {
        record: g.record.clone(),
        genesis: g.genesis.clone(),
        key: g.key.clone(),
    };
    let mut found = check::walk(&opened);
    if !found.is_empty() {
        return Ok((found, false));
    }
    let Some(seed) = seed.map(str::to_string).or_else(|| g.head().seed.clone()) else {
        return Ok((found, false));
    };
    let n = g.record.entries.len();
    let replayed = match replay(&g.record, &g.genesis, &seed, n, |_, _| Ok(()))? {
        Ok(r) => r,
        Err(f) => return Ok((f, true)),
    };
    let (a, b) = (&replayed.record.head, g.head());
    let mut differs = |name: &str, same: bool| {
        if !same {
            found.push(format!(
                "head record: the replayed {name} differs from the recorded one"
            ));
        }
    };
    differs("state", canonical(&a.state) == canonical(&b.state));
    differs("phase", a.phase == b.phase);
    differs("awaiting", a.awaiting == b.awaiting);
    differs("outcome", a.outcome == b.outcome);
    differs("missed counts", a.missed == b.missed);
    differs("deadline", a.deadline == b.deadline);
    differs("players", a.players == b.players);
    differs("turn", a.turn == b.turn);
    Ok((found, true))
}
