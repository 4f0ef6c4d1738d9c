use crate::chain::PublicKey;
use crate::error::{Error, Result};
use crate::pipeline::{self, replay, Loaded};
use crate::store::{limits, Found, GameDir};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A game folder, a game.jsonl (a published copy), or a game file of
    /// herald 0.1.
    pub game: PathBuf,
    /// The seed, if the game has not revealed it (the moderator's
    /// secrets.toml has it; the final reports reveal it).
    #[arg(long)]
    pub seed: Option<String>,
    /// The moderator's public key as printed in your reports
    /// (ed25519:…): the game file must be signed with it.
    #[arg(long)]
    pub key: Option<String>,
    /// Reports, receipts or mails a player kept: each is checked against
    /// the game file (what it names must be there, exactly).
    #[arg(long, num_args = 1..)]
    pub witness: Vec<PathBuf>,
}

/// Long (about 95 lines): the checks of `herald verify` in the order its report
/// tells them (the key, the chain, the replay, the press log, the witnesses),
/// each adding its lines to one text.
pub fn run(a: Args) -> Result<String> {
    let name = a.game.display().to_string();
    let fail = |problems: Vec<String>| {
        Error::all(
            problems
                .into_iter()
                .map(|p| format!("{name}: {p}"))
                .collect(),
        )
    };
    let (g, secrets_seed, store) = match GameDir::locate(&a.game)? {
        Found::Format1(p) => {
            // herald 0.1: replayed as `convert` would carry it over.
            let c =
                pipeline::convert::convert_file(&p, crate::chain::Signer::generate(), "verify")?;
            return Ok(format!(
                "ok: a game file of herald 0.1 (format 1); every turn replays to the same bytes.\nWhat format 1 does not prove:\n{}\nConvert it with `herald convert {} --out <folder>`.\n",
                c.unproven.iter().map(|u| format!("  - {u}")).collect::<Vec<_>>().join("\n"),
                p.display()
            ));
        }
        Found::Folder(dir) => {
            let text = limits::read_text(&dir.game_file(), limits::GAME_FILE, "a game file")?;
            let g = Loaded::from_text(&text, &name)?;
            pipeline::loaded::own_key(&crate::store::Store::reader(dir.clone()), &g)?;
            let seed = crate::store::Secrets::read(&dir.secrets())
                .ok()
                .map(|s| s.seed);
            (g, seed, crate::store::Store::reader(dir.clone()))
        }
    };
    if let Some(k) = &a.key {
        let want = PublicKey::parse(k).map_err(Error::usage)?;
        if want != g.key {
            return Err(fail(vec![format!(
                "signed with key {}, not {k}: this is not the moderator's file",
                g.key
            )]));
        }
    }
    let seed = a.seed.clone().or(secrets_seed);
    let (mut found, replayed) = replay::verify(&g, seed.as_deref())?;
    // A lobby's deal of the seats by the players' preferences, dealt
    // again (docs/host.md, "Seat preferences").
    if let Some(p) = seed
        .clone()
        .or_else(|| g.head().seed.clone())
        .and_then(|s| crate::community::preferences::check(&g.genesis, &s))
    {
        found.push(p);
    }
    if !found.is_empty() {
        return Err(fail(found));
    }
    let mut s = format!(
        "ok: {} entries, every hash and signature holds (key {})\n",
        g.record.entries.len(),
        g.key
    );
    for n in replay::notes(&g) {
        s.push_str(&format!("note: {n}\n"));
    }
    // The press log and rules beside the game file (press/).
    let press = pipeline::press::rules_of(&store, &g)
        .and_then(|_| pipeline::press::entries(&store, &g))
        .map_err(|e| fail(e.problems))?;
    if !press.is_empty() {
        s.push_str(&match pipeline::press::home(&store, &g) {
            pipeline::press::Home::GameFile => format!(
                "ok: {} press entries in the game file, numbered in order\n",
                press.len()
            ),
            pipeline::press::Home::Folder => format!(
                "ok: {} press entries, chained from the genesis entry and signed with the game's key\n",
                press.len()
            ),
        });
    }
    // The rules only the folder and its host can tell: a game whose press
    // rules are in its folder, the vacation allowance and the seats its
    // host's table offered.
    let (extra, told) = host_rules(&g, &store)?;
    if !extra.is_empty() {
        return Err(fail(extra));
    }
    // What the file binds without showing: the addresses and each
    // press's text and sender, opened with the folder's private part.
    let sealed = pipeline::sealed::check(&g, &store).map_err(|e| fail(e.problems))?;
    if !sealed.problems.is_empty() {
        return Err(fail(sealed.problems));
    }
    for l in sealed.held {
        s.push_str(&format!("ok: {l}\n"));
    }
    for l in sealed.unchecked.iter().chain(&told) {
        s.push_str(&format!("not checked: {l}\n"));
    }
    s.push_str(if replayed {
        "ok: every phase replays to the same bytes, every roll re-derived from the seed\n"
    } else {
        "not replayed: the seed is secret until the game ends (give --seed, or verify the moderator's game folder)\n"
    });
    if !a.witness.is_empty() {
        let (proved, mut problems) =
            pipeline::witness::press_witnesses(&g, Some(&store), &a.witness)?;
        let (n, others) = pipeline::witness::witnesses(&g, seed.as_deref(), &a.witness)?;
        problems.extend(others);
        if !problems.is_empty() {
            return Err(fail(problems));
        }
        if n > 0 || proved.is_empty() {
            s.push_str(&format!(
                "ok: the archive holds exactly what the {n} receipts and reports name\n"
            ));
        }
        for p in proved {
            s.push_str(&format!("ok: {p}\n"));
        }
    }
    Ok(s)
}

/// The rules of the log's entries that need what is beside the game file
/// (`chain::rules`): the press rules of a game that keeps them in its
/// folder, and, for a game of a host, its table's vacation allowance and
/// the seats the lobby offered (`lobby/games/GAME.json`). Returns the
/// problems, and what could not be checked here.
fn host_rules(g: &Loaded, store: &crate::store::Store) -> Result<(Vec<String>, Vec<String>)> {
    let mut told = Vec::new();
    let press = match (&g.genesis.press, pipeline::press::home(store, g)) {
        (None, pipeline::press::Home::Folder) => Some(pipeline::press::rules_of(store, g)?),
        _ => None,
    };
    let root = store.dir.root();
    let host = root
        .parent()
        .filter(|p| p.join("host.toml").is_file())
        .map(crate::host::layout::HostDir::at);
    let has_vacations = g
        .record
        .entries
        .iter()
        .any(|e| e.body.contains("\"kind\":\"vacation\""));
    let has_seats = g
        .record
        .entries
        .iter()
        .any(|e| e.body.contains("\"kind\":\"seat\""));
    let record = match &host {
        Some(h) => {
            let name = crate::names::Name::new("game", &g.head().id).map_err(Error::refused)?;
            Some(crate::host::lobby::seats::load(h, &name)?)
        }
        None => None,
    };
    let allowance = match &record {
        Some(Some(r)) => Some(r.vacation_days),
        // A game of a host without a lobby record: the host's default.
        Some(None) => Some(crate::host::lobby::seats::VACATION_DAYS),
        None => {
            if has_vacations {
                told.push("the vacation allowance is the host table's (its lobby record, beside the game's folder in the host folder): the days charged are checked against the vacations' own spans only".into());
            }
            None
        }
    };
    let mut problems = Vec::new();
    if press.is_some() || allowance.is_some() {
        let already =
            crate::chain::rules::problems(&g.record, &g.genesis, g.genesis.press.as_ref(), None);
        problems.extend(
            crate::chain::rules::problems(
                &g.record,
                &g.genesis,
                press.as_ref().or(g.genesis.press.as_ref()),
                allowance,
            )
            .into_iter()
            .filter(|p| !already.contains(p)),
        );
    }
    // Each change of hands is a seat the lobby offered and saw taken.
    match &record {
        Some(Some(r)) => {
            for (i, e) in g.record.entries.iter().enumerate() {
                if let Ok(crate::chain::Body::Seat(c)) = e.decode() {
                    let offered = r.offers.iter().any(|o| {
                        o.player == c.player
                            && o.why == c.why
                            && o.status == crate::host::lobby::seats::OfferStatus::Done
                    });
                    if !offered {
                        problems.push(format!(
                            "{}: the host's lobby never offered {}'s seat ({}) and saw it taken over",
                            e.describe(i),
                            c.player,
                            c.why
                        ));
                    }
                }
            }
        }
        _ if has_seats => told.push("whether each seat that changed hands was offered by a host's lobby (its record is beside the game's folder in the host folder)".into()),
        _ => {}
    }
    Ok((problems, told))
}
