//! `herald playtest GAME …` plays a tournament of view-only bots;
//! `herald playtest summarize FILE…` sums up result files.

use crate::bots::BotSpec;
use crate::error::{Error, Result};
use crate::games::{self, Options};
use crate::playtest::{self, summary, Run};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub sub: Option<Sub>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(clap::Subcommand, Debug)]
pub enum Sub {
    /// Win rates with 95% intervals, lengths, lead changes, bot strength.
    Summarize(SummarizeArgs),
    /// Learn the searches' prior from self-play: a weight file
    /// (games/<game>.weights; docs/bots.md, "The learned prior").
    Train(TrainArgs),
}

#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// The game (see `herald games`).
    pub game: String,
    /// The search that plays itself and whose visits the prior learns
    /// (mcts or ismcts, without `:prior`).
    #[arg(long, default_value = "mcts:1000")]
    pub bot: String,
    /// Self-play games a generation.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Generations: each after the first searches with the prior the one
    /// before it fitted.
    #[arg(long, default_value_t = 3)]
    pub generations: u32,
    /// A game option, key=value (repeatable), as for `herald new`.
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// The seed: the same command writes the same file.
    #[arg(long, default_value = "1")]
    pub seed: String,
    /// Threads (the file does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Phases after which a self-play game is stopped.
    #[arg(long, default_value_t = 5000)]
    pub max_phases: u32,
    /// Write the weight file here (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The ruleset to play (see `herald games`).
    #[arg(value_name = "RULESET", value_parser = super::values::rulesets())]
    pub game: Option<String>,
    /// How many games to play (a multiple of the seat count keeps seats even).
    #[arg(long, default_value_t = 10)]
    pub games: u64,
    /// One bot per seat: random, greedy, mcts[:ITER][:greedy][:dDEPTH],
    /// ismcts[:…]. Seats are rotated from game to game.
    #[arg(long, value_delimiter = ',', default_value = "greedy,random")]
    pub bots: Vec<String>,
    /// A variant ruleset (a modified copy of `games/<game>.toml`).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Weights for the `:prior` bots other than the game's own
    /// (games/<game>.weights), e.g. a file `herald playtest train` wrote.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// A game option, key=value (repeatable), as for `herald new`.
    #[arg(long = "option")]
    pub options: Vec<String>,
    /// The run's seed: every game's dice and bots derive from it and the
    /// game's number.
    #[arg(long, default_value = "1")]
    pub seed: String,
    /// Threads (the results do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Play only shard i of n: the games whose number is i-1 modulo n.
    #[arg(long, default_value = "1/1")]
    pub shard: String,
    /// Write one JSON line per game here (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Record every seat's evaluation after each phase (for the
    /// evaluation measures and plot of `summarize`).
    #[arg(long)]
    pub evals: bool,
    /// Record how many order sets each seat to move chose among (for the
    /// branching factor of `summarize`).
    #[arg(long)]
    pub choices: bool,
    /// Record how many of the board's sites held a piece at some point of
    /// each game (for the board coverage of `summarize`).
    #[arg(long)]
    pub coverage: bool,
    /// Phases after which a game is recorded unfinished.
    #[arg(long, default_value_t = 5000)]
    pub max_phases: u32,
}

#[derive(clap::Args, Debug)]
pub struct SummarizeArgs {
    /// Result files written by `herald playtest GAME --out FILE`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// What to write.
    #[arg(long, value_enum, default_value_t = SummaryFormat::Text)]
    pub format: SummaryFormat,
    /// Compare with these result files (the standard rules, say, when
    /// FILES hold a variant's games): the two side by side.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub against: Vec<PathBuf>,
    /// Also write the win rate by seat as an SVG plot here (both sides
    /// with --against).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Also write the games' lengths, by how they ended, as an SVG plot.
    #[arg(long)]
    pub plot_length: Option<PathBuf>,
    /// Also write the seats' evaluations over the game as an SVG plot
    /// (result files written with --evals).
    #[arg(long)]
    pub plot_evals: Option<PathBuf>,
}

/// The forms of a summary.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SummaryFormat {
    /// Tables to read.
    Text,
    /// The same numbers as data.
    Json,
}

pub fn run(a: Args) -> Result<String> {
    match a.sub {
        Some(Sub::Summarize(s)) => summarize(s),
        Some(Sub::Train(t)) => train(t),
        None => tournament(a.run),
    }
}

fn parse_shard(s: &str) -> Result<(u64, u64)> {
    let bad = || {
        Error::usage(format!(
            "--shard {s}: write it as i/n with 1 <= i <= n, e.g. 2/8"
        ))
    };
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let i: u64 = i.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// `herald playtest run`: its arguments checked and its output written in
/// the order they are printed.
fn tournament(a: RunArgs) -> Result<String> {
    let entry = game_entry(a.game.as_deref())?;
    let bots = bot_specs(&a.bots)?;
    let options = run_options(entry, &a.options)?;
    if a.jobs == 0 || a.jobs > 256 {
        return Err(Error::usage("--jobs: 1 to 256 threads"));
    }
    let shard = parse_shard(&a.shard)?;
    let rules = match &a.rules {
        Some(p) => Some((
            p.display().to_string(),
            std::fs::read_to_string(p).map_err(|e| Error::io(p, e))?,
        )),
        None => None,
    };
    let weights = match &a.weights {
        Some(p) => Some((
            p.display().to_string(),
            std::fs::read_to_string(p).map_err(|e| Error::io(p, e))?,
        )),
        None => None,
    };
    let run = Run {
        game: entry.name.to_string(),
        rules,
        weights,
        games: a.games,
        bots,
        options,
        seed: a.seed,
        jobs: a.jobs,
        shard,
        evals: a.evals,
        choices: a.choices,
        coverage: a.coverage,
        max_phases: a.max_phases,
    };
    let timed = playtest::run_timed(entry, &run).map_err(Error::refused)?;
    let timings: Vec<playtest::Timing> = timed.iter().map(|t| t.1.clone()).collect();
    let records: Vec<playtest::Record> = timed.into_iter().map(|t| t.0).collect();
    written(entry, &records, &timings, a.out)
}

/// `herald playtest train GAME`: the weight file, written to `--out` (a
/// line per generation printed) or printed.
fn train(a: TrainArgs) -> Result<String> {
    let entry = game_entry(Some(&a.game))?;
    let bot = BotSpec::parse(&a.bot).map_err(|e| Error::usage(format!("--bot: {e}")))?;
    let options = run_options(entry, &a.options)?;
    if a.jobs == 0 || a.jobs > 256 {
        return Err(Error::usage("--jobs: 1 to 256 threads"));
    }
    if a.games == 0 || a.generations == 0 {
        return Err(Error::usage("--games and --generations: at least 1"));
    }
    let mut command = format!(
        "herald playtest train {} --bot {bot} --games {} --generations {} --seed {}",
        entry.name, a.games, a.generations, a.seed
    );
    for o in &a.options {
        command.push_str(&format!(" --option {o}"));
    }
    if a.max_phases != 5000 {
        command.push_str(&format!(" --max-phases {}", a.max_phases));
    }
    if let Some(p) = &a.out {
        command.push_str(&format!(" --out {}", p.display()));
    }
    let t = playtest::train::Training {
        bot,
        games: a.games,
        generations: a.generations,
        options,
        seed: a.seed,
        jobs: a.jobs,
        max_phases: a.max_phases,
        command,
    };
    let trained = playtest::train::train(entry, &t).map_err(Error::refused)?;
    match a.out {
        Some(p) => {
            crate::store::write::atomic(
                &p,
                trained.text.as_bytes(),
                crate::store::write::Durability::Synced,
            )?;
            let mut s = format!("weights of {} written to {}\n", entry.name, p.display());
            for l in trained
                .text
                .lines()
                .filter(|l| l.starts_with("# generation"))
            {
                s.push_str(&format!("  {}\n", &l[2..]));
            }
            Ok(s)
        }
        None => Ok(trained.text),
    }
}

/// The game `--game` names, or a usage error listing the games.
fn game_entry(game: Option<&str>) -> Result<&'static games::Entry> {
    let Some(game) = game else {
        return Err(Error::usage(format!(
            "say which game: `herald playtest GAME` ({}), or `herald playtest summarize FILE…`",
            games::names().join(", ")
        )));
    };
    games::find(game).ok_or_else(|| {
        Error::usage(format!(
            "no game called `{game}`; herald knows: {}",
            games::names().join(", ")
        ))
    })
}

/// One bot a seat, as `--bots` gives them.
fn bot_specs(given: &[String]) -> Result<Vec<BotSpec>> {
    let mut bots = Vec::new();
    for b in given {
        bots.push(BotSpec::parse(b).map_err(|e| Error::usage(format!("--bots: {e}")))?);
    }
    if bots.is_empty() {
        return Err(Error::usage(
            "--bots: give one bot per seat, e.g. `--bots mcts:1000,random`",
        ));
    }
    Ok(bots)
}

/// `--option key=value`s, each a key the game has.
fn run_options(entry: &games::Entry, given: &[String]) -> Result<Options> {
    let specs = (entry.options)();
    let mut options = Options::new();
    for o in given {
        let Some((k, v)) = o.split_once('=') else {
            return Err(Error::usage(format!("--option {o}: write it as key=value")));
        };
        if !specs.iter().any(|s| s.name == k) {
            let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
            return Err(Error::usage(format!(
                "--option {k}: {} has no such option; it has: {}",
                entry.name,
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )));
        }
        options.insert(k.to_string(), v.to_string());
    }
    Ok(options)
}

/// The result lines written to `--out` (and a line saying so) or given
/// back for standard output; the bots' time per decision beside them.
fn written(
    entry: &games::Entry,
    records: &[playtest::Record],
    timings: &[playtest::Timing],
    out: Option<PathBuf>,
) -> Result<String> {
    let lines = playtest::jsonl(records);
    let times = time_text(timings);
    match out {
        Some(p) => {
            crate::store::write::atomic(
                &p,
                lines.as_bytes(),
                crate::store::write::Durability::Synced,
            )?;
            let unfinished = records.iter().filter(|r| !r.finished).count();
            Ok(format!(
                "{} games of {} written to {}{}\n{times}",
                records.len(),
                entry.name,
                p.display(),
                if unfinished > 0 {
                    format!(" ({unfinished} unfinished at the phase limit)")
                } else {
                    String::new()
                }
            ))
        }
        None => {
            // Standard output holds the result lines alone; the times go
            // after them to standard error when a person reads it (a
            // terminal), never into a pipe or file that takes the lines'
            // diagnostics, and not at all when the reader of the lines
            // has gone (`| head`).
            super::output::stdout(lines.as_bytes())?;
            if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                super::output::stderr(&times);
            }
            Ok(String::new())
        }
    }
}

/// The bots' CPU time per decision over the run: printed, never written
/// into the result lines (docs/playtest/README.md, "Time per move").
fn time_text(timings: &[playtest::Timing]) -> String {
    let mut o = String::from(
        "CPU time per decision (this run on this machine; not in the result lines):\n",
    );
    for (bot, decisions, cpu, longest) in playtest::time_per_move(timings) {
        let mean = if decisions > 0 {
            cpu / decisions as f64
        } else {
            0.0
        };
        o.push_str(&format!(
            "  {bot:<22} {:.3} ms mean, {:.3} ms longest, over {decisions} decisions\n",
            mean * 1000.0,
            longest * 1000.0
        ));
    }
    o
}

fn read_all(files: &[PathBuf]) -> Result<Vec<playtest::Record>> {
    let mut records = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| Error::io(f, e))?;
        records.extend(summary::read(&f.display().to_string(), &text).map_err(Error::refused)?);
    }
    if records.is_empty() {
        return Err(Error::refused(format!(
            "no result lines in {}",
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(records)
}

fn write_svg(p: &std::path::Path, svg: &str) -> Result<()> {
    crate::store::write::atomic(p, svg.as_bytes(), crate::store::write::Durability::Synced)?;
    Ok(())
}

/// The one table a plot or a side of --against needs, or a usage error
/// saying what tells the tables apart.
fn one_table<'a>(tables: &'a [summary::Table], what: &str) -> Result<&'a summary::Table> {
    match tables {
        [t] => Ok(t),
        _ => Err(Error::usage(format!(
            "{what} draws one kind of game; these files hold {}: {}. Summarize them apart, \
             or compare two of them with `herald playtest summarize A.jsonl --against B.jsonl`",
            tables.len(),
            summary::differences(tables)
        ))),
    }
}

fn summarize(a: SummarizeArgs) -> Result<String> {
    let records = read_all(&a.files)?;
    let tables = summary::tables(&records).map_err(Error::refused)?;
    if !a.against.is_empty() {
        let other = read_all(&a.against)?;
        let others = summary::tables(&other).map_err(Error::refused)?;
        let ta = one_table(&tables, "--against")?;
        let tb = one_table(&others, "--against")?;
        let cmp = summary::compare(ta, tb).map_err(Error::usage)?;
        if let Some(p) = &a.plot {
            write_svg(p, &summary::plot_against(ta, tb))?;
        }
        if let Some(p) = &a.plot_length {
            write_svg(p, &summary::plot_length(&[ta, tb]))?;
        }
        if let Some(p) = &a.plot_evals {
            write_svg(p, &summary::plot_evals(&[ta, tb]).map_err(Error::refused)?)?;
        }
        return match a.format {
            SummaryFormat::Text => Ok(summary::compare_text(&cmp).trim_end().to_string() + "\n"),
            SummaryFormat::Json => {
                Ok(serde_json::to_string_pretty(&cmp).expect("a comparison serialises") + "\n")
            }
        };
    }
    if let Some(p) = &a.plot {
        write_svg(p, &summary::plot(one_table(&tables, "--plot")?))?;
    }
    if let Some(p) = &a.plot_length {
        write_svg(
            p,
            &summary::plot_length(&[one_table(&tables, "--plot-length")?]),
        )?;
    }
    if let Some(p) = &a.plot_evals {
        let t = one_table(&tables, "--plot-evals")?;
        write_svg(p, &summary::plot_evals(&[t]).map_err(Error::refused)?)?;
    }
    match a.format {
        SummaryFormat::Text => Ok(summary::text(&tables).trim_end().to_string() + "\n"),
        SummaryFormat::Json => Ok(summary::json(&tables)),
    }
}
