use crate::error::{Error, Result};
use crate::pipeline::{self, render, Loaded};
use crate::store::{write, Store};
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game folder (or its game.jsonl).
    pub game: PathBuf,
    /// The player whose report to render.
    #[arg(long, required_unless_present = "rebuild", value_name = "PLAYER")]
    pub player: Option<String>,
    /// What to write (each is described under "Possible values").
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// For png: the whole board with its legend, as the SVG draws it,
    /// instead of the mail's picture for a phone.
    #[arg(long)]
    pub full: bool,
    /// The report of an earlier turn, as it was sent (replayed from the
    /// log; needs the game folder's secrets).
    #[arg(long)]
    pub turn: Option<u32>,
    /// For eml: the time to date the mail with (RFC 3339; default: now).
    #[arg(long)]
    pub now: Option<String>,
    /// Write the report to this file instead of printing it (for png, the
    /// bytes go to standard output without it).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the current turn's reports in the game folder again.
    #[arg(long, conflicts_with_all = ["player", "turn", "out"])]
    pub rebuild: bool,
    #[command(flatten)]
    pub wait: super::values::Wait,
}

/// The forms of a report.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The report as text, its order form at the end.
    Text,
    /// The player's view as data.
    Json,
    /// The board as an SVG picture.
    Svg,
    /// The board as a report mail carries it, drawn now (with --full: the whole board).
    Png,
    /// One self-contained page: board, report and order form.
    Html,
    /// The report as a ready-to-send mail to the player's address.
    Eml,
}

impl Format {
    /// Its name, as `--format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Svg => "svg",
            Format::Png => "png",
            Format::Html => "html",
            Format::Eml => "eml",
        }
    }
}

/// Long (about 80 lines): one branch a way of asking (`--rebuild`, `--turn`,
/// each `--format`), in the order the command reads its flags, sharing the game
/// opened once.
pub fn run(a: Args, wait: Duration) -> Result<String> {
    if a.rebuild {
        let now = super::now(a.now.as_deref())?.to_rfc3339();
        let mut w = pipeline::open_to_write(&a.game, wait, &now)?;
        // An interrupted command's mails first (dated now), then every
        // report written again.
        w.complete(&now)?;
        let turn = w.game.head().turn;
        let _ = std::fs::remove_file(w.store.dir.reports_done(turn));
        pipeline::derived::finish(&w.store, &w.game, &w.signer, None)?;
        return Ok(format!(
            "rewrote the reports of turn {turn} in {}\n",
            w.store.dir.report_dir(turn).display()
        ));
    }
    if a.full && a.format != Format::Png {
        return Err(Error::usage(format!(
            "--full is for --format png (the whole board); --format {} has no other size",
            a.format.name()
        )));
    }
    let player = a.player.clone().unwrap_or_default();
    let (store, g) = pipeline::open(&a.game)?;
    // The moderator's copy signs the text report's witness block.
    let signer = store.signer().ok().filter(|s| s.public() == g.key);
    let g = match a.turn {
        Some(t) if t < g.head().turn => earlier(&store, &g, t)?,
        Some(t) if t > g.head().turn => {
            return Err(Error::usage(format!(
                "--turn {t}: the game is at turn {}",
                g.head().turn
            )))
        }
        _ => g,
    };
    let seat = g.seat_of(&player)?;
    // The page and the mail list the press the player got and carry the
    // box that writes one, as the host's do (docs/host.md, "In the
    // reports"); a game file without its folder's press texts beside it
    // (a published one) gives the report without them.
    let with_press = |r: &mut crate::report::Rendered| -> Result<()> {
        if store.dir.press().is_dir() || pipeline::press::entries(&store, &g)?.is_empty() {
            pipeline::press::fill_report(&store, &g, seat, r)?;
        }
        Ok(())
    };
    let bytes = match a.format {
        Format::Html => {
            let mut r = render::all(&g, seat, signer.as_ref())?;
            with_press(&mut r)?;
            r.html.into_bytes()
        }
        Format::Eml => {
            let now = super::now(a.now.as_deref())?.to_rfc3339();
            let mut r = render::all(&g, seat, signer.as_ref())?;
            with_press(&mut r)?;
            pipeline::derived::report_mail(&g, seat, &r, &now)
                .map(|(_, m)| m)
                .ok_or_else(|| {
                    Error::refused(format!(
                        "{player} has no mail address in this game (`herald new --email {player}=<address>`)"
                    ))
                })?
        }
        Format::Png if a.full => render::png_full(&g, seat)?,
        f => render::one(&g, seat, f.name(), signer.as_ref())?,
    };
    match (&a.out, a.format) {
        (Some(p), _) => {
            write::outside(p, &bytes)?;
            Ok(format!("wrote {}\n", p.display()))
        }
        (None, Format::Png) => {
            super::output::stdout(&bytes)?;
            Ok(String::new())
        }
        (None, _) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
    }
}

/// The game as it was after turn `turn`'s last entry, by replay.
fn earlier(store: &Store, g: &Loaded, turn: u32) -> Result<Loaded> {
    let seed = match &g.head().seed {
        Some(s) => s.clone(),
        None => store.secrets()?.seed,
    };
    let mut at = None;
    let n = g.record.entries.len();
    // The last entry before the phase of `turn` was resolved.
    pipeline::replay::replay(&g.record, &g.genesis, &seed, n, |r, i| {
        if r.head().turn == turn {
            at = Some(i + 1);
        }
        Ok(())
    })?
    .map_err(Error::all)?;
    let upto = at.ok_or_else(|| Error::usage(format!("--turn {turn}: no such turn")))?;
    pipeline::replay::replay(&g.record, &g.genesis, &seed, upto, |_, _| Ok(()))?.map_err(Error::all)
}
