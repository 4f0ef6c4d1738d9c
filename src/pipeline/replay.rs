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
    let rules = entry.load(&genesis.ruleset.text).map_err(Error::from)?;
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
        zones: Default::default(),
    };
    sync_log(&mut g.record);
    visit(&g, 0)?;
    let mut press_seen = 0u32;
    for (i, line) in source.entries.iter().enumerate().take(upto).skip(1) {
        let body = match line.decode() {
            Ok(b) => b,
            Err(e) => return Ok(Err(vec![format!("{}: {e}", line.describe(i))])),
        };
        let ended = g.record.head.outcome.is_some();
        if ended && !matches!(body, Body::Reveal(_) | Body::Passwd(_) | Body::Press(_)) {
            return Ok(Err(vec![format!(
                "{}: comes after the game ended (entry {}), where only the seed's reveal (and press) follows",
                line.describe(i),
                i - 1
            )]));
        }
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
            Body::Seat(c) => {
                let now = source.head.players.iter().find(|p| p.id == c.player);
                let head = &mut g.record.head;
                match head.players.iter_mut().find(|x| x.id == c.player) {
                    Some(x) => {
                        x.name = c.name;
                        x.password = c.password;
                        // The address is checked against the entry's hash
                        // when the file is opened (chain::check).
                        if let Some(now) = now {
                            x.email = now.email.clone();
                            x.file_email = now.file_email.clone();
                            x.address_sha256 = now.address_sha256.clone();
                        }
                    }
                    None => {
                        return Ok(Err(vec![format!(
                            "{}: `{}` is not a player",
                            line.describe(i),
                            c.player
                        )]))
                    }
                }
                if let Some(m) = head.missed.iter_mut().find(|m| m.player == c.player) {
                    m.in_a_row = 0;
                    m.dropped = false;
                }
            }
            Body::Vacation(v) => {
                if g.record.head.player_index(&v.player).is_none() {
                    return Ok(Err(vec![format!(
                        "{}: `{}` is not a player",
                        line.describe(i),
                        v.player
                    )]));
                }
            }
            Body::Resign(_) | Body::Draw(_) => {
                if let Err(why) = super::ending::replay_entry(&mut g, &body) {
                    return Ok(Err(vec![format!("{}: {why}", line.describe(i))]));
                }
            }
            Body::Press(p) => {
                press_seen += 1;
                if let Err(why) = press_entry(&g.record.head, &p, press_seen) {
                    return Ok(Err(vec![format!("{}: {why}", line.describe(i))]));
                }
            }
            Body::Reveal(r) => {
                if !ended {
                    return Ok(Err(vec![format!(
                        "{}: reveals the seed of a game that is not over",
                        line.describe(i)
                    )]));
                }
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
///
/// Long (about 120 lines): one phase produced again and compared part by part
/// (the deadline, the orders, the stand-ins, the dice, the state, the reports),
/// each step on what the one before made.
fn replay_phase(
    g: &mut Loaded,
    p: &Phase,
    seed: &str,
    line: &EntryLine,
    i: usize,
) -> std::result::Result<(), Findings> {
    let what = line.describe(i);
    // The phase's deadline is the one the log gives at this point (the
    // genesis, a `deadline` entry, or the last resolve plus
    // `deadline_every`): it decides whether stand-ins may play.
    if p.deadline != g.record.head.deadline {
        return Err(vec![format!(
            "{what}: its deadline {} is not the one the log gives at that point ({})",
            p.deadline.as_deref().unwrap_or("none"),
            g.record.head.deadline.as_deref().unwrap_or("none")
        )]);
    }
    // The players' own orders are checked again; the stand-ins are made
    // again, by the missed-order policy at `resolved_at`, and must be the
    // recorded ones (orders relabelled as a stand-in, or a stand-in before
    // the deadline, differ). Phases carried over from format 1 keep their
    // labels as recorded.
    // A bot seat's orders are made again too, from its view (a forged
    // one differs; one sent as the player's is refused as not herald's).
    let own = |o: &&crate::chain::OrderRecord| p.dice == 1 || (o.nmr.is_none() && o.bot.is_none());
    let files: Vec<Submitted> = p
        .orders
        .iter()
        .filter(own)
        .map(|o| Submitted {
            name: format!("turn {} orders of {}", p.turn, o.player),
            text: o.text.clone(),
            check_password: false,
            received: o.received.clone(),
        })
        .collect();
    let refused = |e: Error| {
        vec![format!(
            "{what}: the recorded orders are refused on replay: {}",
            e.problems.join("; ")
        )]
    };
    let mut accepted = if p.dice == 1 {
        let mut a = check_orders(g, &files).map_err(refused)?;
        for r in &mut a.records {
            if let Some(o) = p.orders.iter().find(|o| o.player == r.player) {
                r.nmr = o.nmr.clone();
            }
        }
        a
    } else {
        super::resolve::accept_all(g, &files, &p.resolved_at, seed).map_err(refused)?
    };
    accepted.excused = p.excused.clone();

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
    for o in &p.orders {
        let made = body.orders.iter().find(|m| m.player == o.player);
        match (&o.nmr, made) {
            (Some(n), Some(m)) if m.nmr.as_ref() != Some(n) || m.text != o.text => found.push(format!(
                "{what}: the orders of {} are labelled a stand-in (`{n}`) but are not what the missed-order policy gives at {}",
                o.player, p.resolved_at
            )),
            (Some(n), None) => found.push(format!(
                "{what}: the orders of {} are labelled a stand-in (`{n}`), but no stand-in plays for them at {}",
                o.player, p.resolved_at
            )),
            _ => {}
        }
        match (&o.bot, made) {
            (Some(b), Some(m)) if m.bot.as_ref() != Some(b) || m.text != o.text => found.push(format!(
                "{what}: the orders of {} are labelled the bot's (`{b}`) but are not what the seat's bot makes from its view on turn {}",
                o.player, p.turn
            )),
            (Some(b), None) => found.push(format!(
                "{what}: the orders of {} are labelled the bot's (`{b}`), but no bot plays {} on turn {}",
                o.player, o.player, p.turn
            )),
            _ => {}
        }
    }
    for m in &body.orders {
        if m.nmr.is_some() && !p.orders.iter().any(|o| o.player == m.player) {
            found.push(format!(
                "{what}: no orders of {} are recorded, where the deadline {} had passed and a stand-in plays",
                m.player,
                p.deadline.as_deref().unwrap_or("none")
            ));
        }
    }
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
    differs("players excused for a vacation", body.excused == p.excused);
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
    found.extend(crate::chain::fields::problems(&g.record, &g.genesis));
    found.extend(crate::chain::rules::problems(
        &g.record,
        &g.genesis,
        g.genesis.press.as_ref(),
        None,
    ));
    found.extend(game_rules(g));
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
    if replayed.record.head.outcome.is_some() && replayed.record.head.seed.is_none() {
        found.push(
            "the game is over, but its seed is not revealed: herald appends the reveal in the commit that ends it".into(),
        );
    }
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

/// The genesis's fields that only the game's own rules can check: the
/// missed-order policy is one the game offers, the options are ones its
/// `new` takes with values it takes, the ruleset is named as the game.
fn game_rules(g: &Loaded) -> Findings {
    let mut out = Vec::new();
    let gen = &g.genesis;
    let at = "entry 0 (genesis)";
    if !crate::games::Nmr::parse(&gen.nmr).is_some_and(|p| g.entry.nmr.contains(&p)) {
        let offered: Vec<&str> = g.entry.nmr.iter().map(|p| p.name()).collect();
        out.push(format!(
            "{at}: nmr `{}` is not a missed-order policy {} offers ({})",
            gen.nmr.escape_debug(),
            g.entry.title,
            offered.join(", ")
        ));
    }
    if gen.ruleset.name != g.entry.name {
        out.push(format!(
            "{at}: ruleset.name `{}` is not the game `{}`",
            gen.ruleset.name.escape_debug(),
            g.entry.name
        ));
    }
    let options: Vec<String> = gen
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let players: Vec<String> = gen.players.iter().map(|p| p.id.clone()).collect();
    if let Err(e) = g.entry.check_new(g.rules.as_ref(), &players, &options) {
        for p in e.problems {
            out.push(format!(
                "{at}: {}",
                p.replace("--option ", "option ")
                    .replace("--players", "players")
            ));
        }
    }
    out
}

/// What `verify` says beside its findings, without failing: the ruleset
/// is not one herald has shipped (a moderator's own, given to `new
/// --rules`), and where it differs from herald's.
pub fn notes(g: &Loaded) -> Vec<String> {
    let gen = &g.genesis;
    if shipped(g.entry, &gen.ruleset.sha256) {
        return Vec::new();
    }
    let own = g.entry.ruleset;
    let first = gen
        .ruleset
        .text
        .lines()
        .zip(own.lines())
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| {
            format!(
                " (first difference at line {}: `{}` where herald's has `{}`)",
                i + 1,
                a.trim(),
                b.trim()
            )
        })
        .unwrap_or_default();
    vec![format!(
        "the ruleset (sha256 {}) is not a ruleset herald has shipped for {}: a moderator's own (`new --rules`), replayed as the game file holds it{first}",
        &gen.ruleset.sha256[..16],
        g.entry.title
    )]
}

/// The sha256 of every ruleset text herald has shipped (each game's
/// `games/<game>.toml` at each of its versions in the repository's
/// history): a game begun with one of them played herald's own rules. A
/// change to a built-in ruleset adds its new sha256 here, and keeps the
/// old (the test `every_shipped_ruleset_is_known` says so).
pub const SHIPPED_RULESETS: [(&str, &str); 6] = [
    (
        "hexwar",
        "08265236b3f8174236d7b66dd564f015850a1dee0733724bddef99ccdd9cc708",
    ),
    (
        "norse-wars",
        "197fc0eb6db1cd2cd6088600f73c3d1fb8cb1587b5dad94a1e0fe84f01486989",
    ),
    (
        "stack-wars",
        "afe0bbac22a6a3b4d9da8dc478075573e1a3a61bb18216946db37f1576f5613d",
    ),
    (
        "unfought-battle",
        "c94ae2ca03bd2d03859c30022a78911f92ebb3ca72f1e481c6d7f5001a5ff644",
    ),
    (
        "war-of-the-dukes",
        "c9f1e1b33238013a9fb120cac37cbbe9d59b2a30544a2cb3d17f7dbbe64f4def",
    ),
    (
        "war-of-the-dukes",
        "47e04b0bd18abc89eaf3ecbdbe724d6c6308eb19d59dfbbc675a1dfca5c0ba6c",
    ),
];

/// Is `sha256` a ruleset herald shipped for `entry` (or the one built in
/// now)?
pub fn shipped(entry: &games::Entry, sha256: &str) -> bool {
    SHIPPED_RULESETS
        .iter()
        .any(|(g, h)| *g == entry.name && *h == sha256)
        || sha256_hex(entry.ruleset.as_bytes()) == sha256
}

/// A press entry's fields against the game as it stood: its number in
/// sequence, the turn, the players it names, its hashes' shapes.
fn press_entry(
    h: &crate::chain::head::Head,
    p: &crate::chain::body::PressEntry,
    n: u32,
    // A String error: the problem line `verify` prints for this entry.
) -> std::result::Result<(), String> {
    use crate::chain::canon::is_digest;
    if h.format < 3 {
        return Err(format!(
            "a press entry in a game file of format {}: press entries need format 3 (`herald convert`)",
            h.format
        ));
    }
    if p.n != n {
        return Err(format!("press number {} where {n} comes next", p.n));
    }
    if p.turn != h.turn {
        return Err(format!(
            "press of turn {} while the game waited for turn {}",
            p.turn, h.turn
        ));
    }
    if p.id.len() != 32
        || !p
            .id
            .bytes()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
    {
        return Err("its id is not 32 lowercase hex digits".into());
    }
    if !is_digest(&p.text_sha256) {
        return Err("text_sha256 is not a sha256 digest".into());
    }
    match (&p.from, &p.sender_sha256, &p.sender_commitment) {
        (Some(f), None, None) if h.player_index(f).is_some() => {}
        (Some(f), None, None) => {
            return Err(format!("from `{}` is not a player", f.escape_debug()))
        }
        (None, Some(s), None) | (None, None, Some(s)) if is_digest(s) => {}
        _ => {
            return Err(
                "a press names its sender (from) or, anonymous, a sender_commitment (sender_sha256 in formats 3 and 4): exactly one"
                    .into(),
            )
        }
    }
    for t in &p.to {
        if h.player_index(t).is_none() {
            return Err(format!("to `{}` is not a player", t.escape_debug()));
        }
        if p.from.as_ref() == Some(t) {
            return Err(format!("{t} writes to themselves"));
        }
    }
    Ok(())
}
