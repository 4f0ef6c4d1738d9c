//! The playtest lab (issue 20): tournaments of view-only bots, one JSON
//! line per game, and their summaries (win rates with intervals, length,
//! decisiveness, lead changes, bot strength).
//!
//! Every game of a run is played from streams derived from the run's seed
//! and the game's number alone, so a run gives the same lines whatever the
//! number of threads (`--jobs`) and however it is cut into shards
//! (`--shard i/n` plays the games whose number is i-1 modulo n); the lines
//! of all the shards, sorted by game number, are the whole run's.

pub mod measures;
pub mod stats;
pub mod summary;
pub mod train;

use crate::bots::prior::{self, Group, Weights};
use crate::bots::{self, BotSpec};
use crate::games::{self, BotSupport, BuiltIn, Entry, Options, Seat, Seen, Visitor};
use crate::rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One game to play.
#[derive(Debug, Clone)]
pub struct Job {
    pub game: String,
    /// The ruleset file a variant run was given (`--rules`), for the record.
    pub rules: Option<String>,
    /// sha256 of the ruleset text played (the built-in one or the variant's).
    pub ruleset_sha256: String,
    /// The weight file a run was given (`--weights`), for the record.
    pub weights: Option<String>,
    /// sha256 of the weight file the `:prior` bots read (the game's own
    /// or the one given), where the game has one.
    pub weights_sha256: Option<String>,
    /// The game's number in the run, from 0.
    pub index: u64,
    /// The run's seed.
    pub seed: String,
    pub options: Options,
    /// The bot of each seat (already rotated for this game).
    pub bots: Vec<BotSpec>,
    /// Record each seat's evaluation after every phase.
    pub evals: bool,
    /// Record how many order sets each seat to move chose among.
    pub choices: bool,
    /// Record how many of the board's sites ever held a piece.
    pub coverage: bool,
    /// Phases after which a game still running is recorded unfinished.
    pub max_phases: u32,
}

/// One finished game: one line of `results.jsonl`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Record {
    pub game: String,
    /// A variant ruleset's file (`--rules`); absent for the built-in one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// sha256 of the ruleset text the game was played with (the built-in
    /// one, or the variant's): `summarize` tells a file played under rules
    /// that have changed since. Absent in files written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset_sha256: Option<String>,
    /// A weight file the run was given (`--weights`); absent for the
    /// game's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<String>,
    /// sha256 of the learned prior's weight file of the run (the game's
    /// own, or the one given): every line of a game that has one, so the
    /// suite tells a figure played with other weights. Absent in files
    /// written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights_sha256: Option<String>,
    /// The herald version that played the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub herald: Option<String>,
    pub options: BTreeMap<String, String>,
    /// The run's seed and this game's number: `herald playtest` with the
    /// same seed plays it again.
    pub seed: String,
    pub index: u64,
    /// Games are played in rounds of one game per seat rotation; the games
    /// of a round share the setup (board, shields) drawn for the round.
    pub round: u64,
    pub seats: usize,
    /// The bot of each seat.
    pub bots: Vec<String>,
    /// Winning seats (from 0); empty for a draw or an unfinished game.
    pub winners: Vec<usize>,
    pub draw: bool,
    /// `false`: stopped at the phase limit.
    pub finished: bool,
    /// Phases resolved (orders given and resolved once).
    pub length: u32,
    /// Each seat's score at the end in the game's own terms.
    pub scores: Vec<i32>,
    /// The leading score minus the next (0 when tied).
    pub margin: i32,
    /// How often the seat with the strictly highest score changed.
    pub lead_changes: u32,
    pub result: String,
    /// Each seat's evaluation after every phase, if asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evals: Option<Vec<Vec<i32>>>,
    /// For every phase, the number of order sets each seat to move chose
    /// among (the game's `BotSupport::candidate_orders` on the state the
    /// phase began with), in seat order, if asked for (`--choices`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<Vec<u32>>>,
    /// How many of the board's sites held a piece at some point of the
    /// game, the start included (`BotSupport::occupancy` on the true
    /// state), if asked for (`--coverage`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
}

/// One game's board coverage: `covered` of the board's `sites` held a
/// piece at some point (Ludii's Board Coverage Default is their ratio).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
pub struct Coverage {
    pub covered: u32,
    pub sites: u32,
}

/// The board's sites that held a piece so far in a game: each state's
/// `BotSupport::occupancy` added in turn, a site counted once however
/// often it was held.
#[derive(Debug, Clone, Default)]
pub struct SitesHeld {
    held: Vec<bool>,
}

impl SitesHeld {
    /// Mark the sites `occupancy` shows occupied as held.
    pub fn add(&mut self, occupancy: &[bool]) {
        if self.held.len() < occupancy.len() {
            self.held.resize(occupancy.len(), false);
        }
        for (h, &o) in self.held.iter_mut().zip(occupancy) {
            *h |= o;
        }
    }

    /// The coverage so far.
    pub fn coverage(&self) -> Coverage {
        Coverage {
            covered: self.held.iter().filter(|&&h| h).count() as u32,
            sites: self.held.len() as u32,
        }
    }
}

/// The CPU time the bots of one game spent choosing: kept out of the
/// result lines, which must be the same bytes whatever the machine, its
/// load, `--jobs` and `--shard` (docs/playtest/README.md, "Time per move").
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    /// The bot of each seat.
    pub bots: Vec<String>,
    /// Decisions each seat's bot made.
    pub decisions: Vec<u64>,
    /// CPU seconds each seat's bot spent on them (its thread's CPU clock).
    pub cpu: Vec<f64>,
    /// The longest single decision of each seat, CPU seconds.
    pub longest: Vec<f64>,
}

/// CPU time per decision of each bot over a run: (bot, decisions, CPU
/// seconds in all, longest decision), bots in order of first appearance.
pub fn time_per_move(timings: &[Timing]) -> Vec<(String, u64, f64, f64)> {
    let mut out: Vec<(String, u64, f64, f64)> = Vec::new();
    for t in timings {
        for (s, b) in t.bots.iter().enumerate() {
            let i = match out.iter().position(|x| x.0 == *b) {
                Some(i) => i,
                None => {
                    out.push((b.clone(), 0, 0.0, 0.0));
                    out.len() - 1
                }
            };
            out[i].1 += t.decisions[s];
            out[i].2 += t.cpu[s];
            out[i].3 = out[i].3.max(t.longest[s]);
        }
    }
    out
}

/// This thread's CPU clock, seconds: what a decision costs one core
/// whatever else the machine runs.
fn thread_cpu() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given, nothing else.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// A whole run, or one shard of it.
#[derive(Debug, Clone)]
pub struct Run {
    pub game: String,
    /// A variant ruleset: its file name and text (`--rules`).
    pub rules: Option<(String, String)>,
    /// Weights for the `:prior` bots other than the game's own: a weight
    /// file's name and text (`--weights`).
    pub weights: Option<(String, String)>,
    pub games: u64,
    pub bots: Vec<BotSpec>,
    pub options: Options,
    pub seed: String,
    pub jobs: usize,
    /// `(i, n)`: play the games whose number is `i - 1` modulo `n`.
    pub shard: (u64, u64),
    pub evals: bool,
    pub choices: bool,
    pub coverage: bool,
    pub max_phases: u32,
}

impl Run {
    /// The bots of game `index`: seat s gets bot (s + index) mod n, so
    /// over every n consecutive games each bot sits in each seat once.
    pub fn rotated(&self, index: u64) -> Vec<BotSpec> {
        let n = self.bots.len();
        (0..n)
            .map(|s| self.bots[(s + index as usize) % n].clone())
            .collect()
    }

    pub fn indices(&self) -> Vec<u64> {
        let (i, n) = self.shard;
        (0..self.games).filter(|g| g % n == i - 1).collect()
    }
}

/// Play `run` (its shard) on `jobs` threads; the records in game order.
pub fn run(entry: &Entry, run: &Run) -> Result<Vec<Record>, String> {
    Ok(run_timed(entry, run)?.into_iter().map(|(r, _)| r).collect())
}

/// sha256 of the game's own weight file (`games/<game>.weights`, built
/// into herald), or `None` for a game without a learned prior: what a
/// result line's `weights_sha256` must be for its `:prior` bots' figures
/// to describe today's weights.
pub fn builtin_weights_sha256(entry: &Entry) -> Option<String> {
    struct Sha;
    impl Visitor for Sha {
        type Output = Option<String>;
        fn visit<G: BuiltIn>(self, _: &G::Ruleset) -> Self::Output {
            (!G::WEIGHTS.is_empty()).then(|| crate::chain::canon::sha256_hex(G::WEIGHTS.as_bytes()))
        }
    }
    let rules = entry.load(entry.ruleset).ok()?;
    games::visit(rules.as_ref(), Sha)
}

/// [`run`], with the CPU time each game's bots spent choosing.
pub fn run_timed(entry: &Entry, run: &Run) -> Result<Vec<(Record, Timing)>, String> {
    let (rules, text) = match &run.rules {
        Some((name, text)) => (
            entry.load(text).map_err(|e| format!("{name}: {e}"))?,
            text.as_str(),
        ),
        None => (
            entry.load(entry.ruleset).map_err(|e| e.to_string())?,
            entry.ruleset,
        ),
    };
    let ruleset_sha256 = crate::chain::canon::sha256_hex(text.as_bytes());
    let jobs: Vec<Job> = run
        .indices()
        .into_iter()
        .map(|index| Job {
            game: run.game.clone(),
            rules: run.rules.as_ref().map(|r| r.0.clone()),
            ruleset_sha256: ruleset_sha256.clone(),
            weights: run.weights.as_ref().map(|w| w.0.clone()),
            weights_sha256: None,
            index,
            seed: run.seed.clone(),
            options: run.options.clone(),
            bots: run.rotated(index),
            evals: run.evals,
            choices: run.choices,
            coverage: run.coverage,
            max_phases: run.max_phases,
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.jobs.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", run.jobs))?;
    /// The games of a run, played on the game's own types.
    struct Tournament<'a> {
        jobs: &'a [Job],
        pool: &'a rayon::ThreadPool,
        weights: Option<&'a (String, String)>,
    }
    impl Visitor for Tournament<'_> {
        // A String error: a game the lab could not play (a bot's failure), told to the designer as is.
        type Output = Vec<Result<(Record, Timing), String>>;
        fn visit<G: BuiltIn>(self, ruleset: &G::Ruleset) -> Self::Output {
            let jobs = match with_weights::<G>(self.jobs, self.weights) {
                Ok(j) => j,
                Err(e) => return vec![Err(e)],
            };
            self.pool.install(|| {
                jobs.par_iter()
                    .map(|j| play_timed::<G>(ruleset, j))
                    .collect()
            })
        }
    }
    let results = games::visit(
        rules.as_ref(),
        Tournament {
            jobs: &jobs,
            pool: &pool,
            weights: run.weights.as_ref(),
        },
    );
    results.into_iter().collect()
}

/// The jobs with the weights of game `G` they play with: the weight file
/// given (its name and text), read for `G`'s features and handed to every
/// `:prior` bot, or the game's own; its hash in each job, where the game
/// has weights.
// A String error: a weight file the lab cannot use, told to the designer as is.
fn with_weights<G: BotSupport>(
    jobs: &[Job],
    given: Option<&(String, String)>,
) -> Result<Vec<Job>, String> {
    let weights = match given {
        Some((name, text)) => Some(Arc::new(
            Weights::parse(text, G::NAME, G::FEATURES).map_err(|e| format!("{name}: {e}"))?,
        )),
        None => None,
    };
    let sha = match &weights {
        Some(w) => Some(w.sha256.clone()),
        None if G::WEIGHTS.is_empty() => None,
        None => Some(crate::chain::canon::sha256_hex(G::WEIGHTS.as_bytes())),
    };
    Ok(jobs
        .iter()
        .map(|j| {
            let mut j = j.clone();
            j.weights_sha256 = sha.clone();
            if let Some(w) = &weights {
                for b in &mut j.bots {
                    if let BotSpec::Mcts(s) = b {
                        if s.prior.is_some() {
                            s.prior = Some(prior::Source::Given(w.clone()));
                        }
                    }
                }
            }
            j
        })
        .collect())
}

/// The events `seat`'s report would tell: those since the seat's last
/// orders (the result of them included), at most one phase per player
/// back — as the engine gives a report.
fn events_for<E: Clone>(log: &[(u32, Vec<Seat>, Vec<E>)], seat: Seat, n: usize) -> Vec<Seen<E>> {
    let own = log.iter().rposition(|e| e.1.contains(&seat)).unwrap_or(0);
    let from = own.max(log.len().saturating_sub(n));
    log[from..]
        .iter()
        .flat_map(|(turn, _, ev)| {
            ev.iter().map(move |e| Seen {
                turn: *turn,
                event: e.clone(),
            })
        })
        .collect()
}

/// The seat with the strictly highest score, if one.
fn leader(scores: &[i32]) -> Option<usize> {
    let best = *scores.iter().max()?;
    let mut at = scores.iter().enumerate().filter(|(_, s)| **s == best);
    let first = at.next()?.0;
    at.next().is_none().then_some(first)
}

/// Play one game with view-only bots.
// A String error: a game the lab could not play (a bot's failure), told to the designer as is.
pub fn play<G: BotSupport>(rules: &G::Ruleset, job: &Job) -> Result<Record, String> {
    Ok(play_timed::<G>(rules, job)?.0)
}

/// [`play`], with the CPU time its bots spent choosing.
pub fn play_timed<G: BotSupport>(
    rules: &G::Ruleset,
    job: &Job,
    // A String error: a game the lab could not play (a bot's failure), told to the designer as is.
) -> Result<(Record, Timing), String> {
    play_inner::<G>(rules, job, None)
}

/// [`play`], with every searching bot's root decisions recorded (each
/// candidate's features and visits): the training's data.
pub fn play_recorded<G: BotSupport>(
    rules: &G::Ruleset,
    job: &Job,
    // A String error: a game the lab could not play (a bot's failure), told to the designer as is.
) -> Result<(Record, Vec<Group>), String> {
    let record = RefCell::new(Vec::new());
    let (r, _) = play_inner::<G>(rules, job, Some(&record))?;
    Ok((r, record.into_inner()))
}

/// One game; the searches' root decisions into `record` where given.
fn play_inner<G: BotSupport>(
    rules: &G::Ruleset,
    job: &Job,
    record: Option<&RefCell<Vec<Group>>>,
    // A String error: a game the lab could not play (a bot's failure), told to the designer as is.
) -> Result<(Record, Timing), String> {
    let n = job.bots.len();
    let ids = bots::seat_ids(n);
    let round = job.index / n as u64;
    let mut setup_rng = rng::phase_rng(&job.seed, "playtest", round as u32, "setup");
    let mut st = G::setup(rules, &ids, &job.options, None, &mut setup_rng)
        .map_err(|e| format!("{}: {e}", G::TITLE))?
        .state;
    let gid = format!("playtest game {}", job.index);
    let mut log: Vec<(u32, Vec<Seat>, Vec<G::Event>)> = Vec::new();
    let mut played = Played {
        turn: 0,
        finished: true,
        lead_changes: 0,
        lead: None,
        evals: Vec::new(),
        choices: Vec::new(),
        held: SitesHeld::default(),
    };
    if job.coverage {
        played.held.add(&G::occupancy(rules, &st));
    }
    let mut timing = Timing {
        bots: job.bots.iter().map(|b| b.to_string()).collect(),
        decisions: vec![0; n],
        cpu: vec![0.0; n],
        longest: vec![0.0; n],
    };
    loop {
        let turn = played.turn;
        let awaiting = G::awaiting(rules, &st);
        if awaiting.is_empty() {
            break;
        }
        if turn >= job.max_phases {
            played.finished = false;
            break;
        }
        if job.choices {
            played
                .choices
                .push(choice_counts::<G>(rules, &st, &awaiting, job, &gid, turn));
        }
        let phase = Phase {
            ids: &ids,
            log: &log,
            gid: &gid,
            turn,
            record,
        };
        let orders = phase_orders::<G>(rules, &st, &awaiting, job, &phase, &mut timing)?;
        let mut r = rng::phase_rng(&job.seed, &gid, turn, "resolve");
        let (next, events) = G::resolve(rules, &st, &orders, &mut crate::rng::Dice::quiet(&mut r));
        log.push((turn, awaiting, events));
        st = next;
        played.after_phase::<G>(rules, &st, job);
    }
    Ok((record_of::<G>(rules, &st, &ids, job, played), timing))
}

/// What a game's loop counted as it played.
struct Played {
    /// Phases played.
    turn: u32,
    /// Whether the game ended before `--max-phases`.
    finished: bool,
    lead_changes: u32,
    /// The seat that last had the strictly highest score.
    lead: Option<usize>,
    /// Each seat's evaluation after each phase (`--evals`).
    evals: Vec<Vec<i32>>,
    /// Each awaited seat's count of choices in each phase (`--choices`).
    choices: Vec<Vec<u32>>,
    /// The board's sites that held a piece so far (`--coverage`).
    held: SitesHeld,
}

impl Played {
    /// Count a phase played to `st`: the lead on the score, and what the
    /// run asked to record (the evaluations, the sites held).
    fn after_phase<G: BotSupport>(&mut self, rules: &G::Ruleset, st: &G::State, job: &Job) {
        let n = job.bots.len();
        self.turn += 1;
        let now = leader(&scores_of::<G>(rules, st, n));
        if let (Some(a), Some(b)) = (self.lead, now) {
            if a != b {
                self.lead_changes += 1;
            }
        }
        if now.is_some() {
            self.lead = now;
        }
        if job.evals {
            self.evals
                .push((0..n).map(|s| G::evaluate(rules, st, s)).collect());
        }
        if job.coverage {
            self.held.add(&G::occupancy(rules, st));
        }
    }
}

/// Where a game stands when its bots choose: the seats' ids, the log of
/// phases so far, the game's name for its random streams, the phase.
struct Phase<'a, E> {
    ids: &'a [String],
    log: &'a [(u32, Vec<Seat>, Vec<E>)],
    gid: &'a str,
    turn: u32,
    /// Where the searches' root decisions go (the training), if anywhere.
    record: Option<&'a RefCell<Vec<Group>>>,
}

/// The scores of the seats, or their evaluations where the game keeps no
/// score for each.
fn scores_of<G: BotSupport>(rules: &G::Ruleset, st: &G::State, n: usize) -> Vec<i32> {
    let s = G::scores(rules, st);
    if s.len() == n {
        s
    } else {
        (0..n).map(|seat| G::evaluate(rules, st, seat)).collect()
    }
}

/// How many sets of orders each awaited seat chooses among.
fn choice_counts<G: BotSupport>(
    rules: &G::Ruleset,
    st: &G::State,
    awaiting: &[Seat],
    job: &Job,
    gid: &str,
    turn: u32,
) -> Vec<u32> {
    // On a stream of its own: counting leaves the bots' and the
    // dice's streams as they are.
    awaiting
        .iter()
        .map(|&s| {
            let mut r = rng::phase_rng(&job.seed, gid, turn, &format!("choices {s}"));
            G::candidate_orders(rules, st, s, &mut r).len() as u32
        })
        .collect()
}

/// Each awaited seat's bot's orders on its own view, timed; refused when
/// the rules refuse them.
fn phase_orders<G: BotSupport>(
    rules: &G::Ruleset,
    st: &G::State,
    awaiting: &[Seat],
    job: &Job,
    phase: &Phase<G::Event>,
    timing: &mut Timing,
) -> Result<BTreeMap<Seat, Vec<G::Order>>, String> {
    let (n, gid, turn) = (job.bots.len(), phase.gid, phase.turn);
    let mut orders = BTreeMap::new();
    for &s in awaiting {
        let events = events_for(phase.log, s, n);
        let view = G::view(rules, st, phase.ids, s, &events);
        let mut r = rng::phase_rng(&job.seed, gid, turn, &format!("bot {s}"));
        let started = thread_cpu();
        let o = bots::choose_recording::<G>(rules, &view, s, n, &job.bots[s], &mut r, phase.record)
            .map_err(|e| format!("game {}, phase {turn}, seat {s}: {e}", job.index))?;
        let spent = (thread_cpu() - started).max(0.0);
        timing.decisions[s] += 1;
        timing.cpu[s] += spent;
        timing.longest[s] = timing.longest[s].max(spent);
        let problems = G::check(rules, st, s, &o);
        if !problems.is_empty() {
            let lines: Vec<String> = o.iter().map(|x| x.to_string()).collect();
            let why: Vec<String> = problems.iter().map(|p| p.why.to_string()).collect();
            return Err(format!(
                "game {}, phase {turn}: bot {} (seat {s}) gave orders the rules refuse: {:?}: {}",
                job.index,
                job.bots[s],
                lines,
                why.join("; ")
            ));
        }
        orders.insert(s, o);
    }
    Ok(orders)
}

/// The record of a game played to `st`.
fn record_of<G: BotSupport>(
    rules: &G::Ruleset,
    st: &G::State,
    ids: &[String],
    job: &Job,
    played: Played,
) -> Record {
    let n = job.bots.len();
    let Played {
        turn,
        finished,
        lead_changes,
        evals,
        choices,
        held,
        ..
    } = played;
    let outcome = G::outcome(rules, st, ids);
    let winners: Vec<usize> = outcome
        .as_ref()
        .map(|o| {
            o.winners
                .iter()
                .filter_map(|w| w.parse::<usize>().ok())
                .collect()
        })
        .unwrap_or_default();
    let scores = scores_of::<G>(rules, st, n);
    let mut sorted = scores.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let margin = if sorted.len() >= 2 {
        sorted[0] - sorted[1]
    } else {
        0
    };
    // The result names seats as the summaries do, from 1 ("seat 1
    // (Black) won"): the same outcome told with those names (the ids are
    // the seats from 0, which lines written before this show).
    let seats: Vec<String> = (1..=ids.len()).map(|s| format!("seat {s}")).collect();
    let result = match G::outcome(rules, st, &seats) {
        Some(o) => o.summary,
        None => format!("unfinished after {turn} phases"),
    };
    Record {
        game: job.game.clone(),
        rules: job.rules.clone(),
        ruleset_sha256: Some(job.ruleset_sha256.clone()),
        weights: job.weights.clone(),
        weights_sha256: job.weights_sha256.clone(),
        herald: Some(env!("CARGO_PKG_VERSION").to_string()),
        options: job.options.clone(),
        seed: job.seed.clone(),
        index: job.index,
        round: job.index / n as u64,
        seats: n,
        bots: job.bots.iter().map(|b| b.to_string()).collect(),
        draw: finished && outcome.is_some() && winners.is_empty(),
        winners,
        finished: finished && outcome.is_some(),
        length: turn,
        scores,
        margin,
        lead_changes,
        result,
        evals: job.evals.then_some(evals),
        choices: job.choices.then_some(choices),
        coverage: job.coverage.then(|| held.coverage()),
    }
}

/// The records as JSON lines.
pub fn jsonl(records: &[Record]) -> String {
    let mut out = String::new();
    for r in records {
        out.push_str(&serde_json::to_string(r).expect("a record serialises"));
        out.push('\n');
    }
    out
}
