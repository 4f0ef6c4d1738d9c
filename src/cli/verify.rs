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
    let (found, replayed) = replay::verify(&g, seed.as_deref())?;
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
    // What the file binds without showing: the addresses and each
    // press's text and sender, opened with the folder's private part.
    let sealed = pipeline::sealed::check(&g, &store).map_err(|e| fail(e.problems))?;
    if !sealed.problems.is_empty() {
        return Err(fail(sealed.problems));
    }
    for l in sealed.held {
        s.push_str(&format!("ok: {l}\n"));
    }
    for l in sealed.unchecked {
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
