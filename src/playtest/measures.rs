//! Ludii's game measures over result lines (Browne's thesis, the Ludii
//! project's `metrics` package), each defined in docs/playtest/README.md
//! ("Ludii's measures") with the Ludii name it follows: how the games
//! ended (Completion, Drawishness, Timeouts, with games ended by the
//! rules' own turn limit counted apart), Balance; from the evaluations
//! (`--evals`): Lead Change, Decisiveness, Drama; from the choice counts
//! (`--choices`): Branching Factor and Decision Moves; from the sites
//! held (`--coverage`): Board Coverage Default.

use super::stats::{mean_interval, spread, wilson, Rate, Spread};
use super::{Coverage, Record};
use serde::Serialize;

/// The result texts of games that ended because the rules' own turn limit
/// was reached (the rules then judge the position), by game: the start of
/// the reason (the text after the winner, as `summary::ending` gives it).
/// Every other ending of a finished game was reached in play.
pub const TURN_LIMIT_ENDINGS: &[(&str, &str)] = &[
    // play.rs: "turn limit, royal piece nearer the centre", …
    ("hexwar", "turn limit"),
    // upkeep.rs: "the turn cap: turn 40 ended with both Sovereigns alive"
    ("unfought-battle", "the turn cap"),
    // phase.rs: "after turn 12 Orfburg does not hold Kaiserburg …"
    ("war-of-the-dukes", "after turn "),
];

/// Whether a finished game's result says the rules' turn limit ended it.
pub fn at_turn_limit(game: &str, result: &str) -> bool {
    let reason = ending(result);
    TURN_LIMIT_ENDINGS
        .iter()
        .any(|(g, start)| *g == game && reason.starts_with(start))
}

/// What each game's `BotSupport::candidate_orders` lists, and so what the
/// choice counts of `--choices` are: `true` where they are every legal
/// order set (the branching factor), `false` where they are a sample.
pub const CHOICES: &[(&str, bool, &str)] = &[
    ("norse-wars", true, "every legal move (or Shield hex)"),
    ("stack-wars", true, "every legal action but resigning"),
    (
        "hexwar",
        true,
        "every single action and the pass, and each move followed by its best facing: \
         a lower bound where a turn's template has several actions",
    ),
    (
        "war-of-the-dukes",
        false,
        "a sample (the empty set, the scripted player's sets, two random ones): a turn's \
         orders combine every unit's move and attack, too many to list, so the branching \
         factor cannot be counted",
    ),
    (
        "unfought-battle",
        false,
        "a sample (every force holding, the scripted player's sets, twelve random ones): \
         every force orders at once, too many combinations to list, so the branching factor \
         cannot be counted",
    ),
];

/// How the games ended.
#[derive(Debug, Clone, Serialize)]
pub struct Endings {
    /// Won by a win condition met before the rules' turn limit.
    pub won_in_play: Rate,
    /// Won when the rules' turn limit came and they judged the position.
    pub won_at_limit: Rate,
    /// Drawn at the rules' turn limit.
    pub drawn_at_limit: Rate,
    /// Drawn in play (Ludii's Drawishness counts these and the above).
    pub drawn_in_play: Rate,
    /// Stopped by the lab's `--max-phases` (Ludii's Timeouts).
    pub unfinished: Rate,
    /// Ludii's Completion: games with a winner.
    pub completion: Rate,
}

/// Measures on the seats' evaluations after every phase (`--evals`).
#[derive(Debug, Clone, Serialize)]
pub struct EvalMeasures {
    /// Games that carry evaluations.
    pub games: u64,
    /// Lead changes per game: phases after which the set of seats with
    /// the highest evaluation is not the one after the phase before.
    pub lead_changes: Spread,
    /// Ludii's Lead Change: a game's lead changes over its phases,
    /// averaged over the games.
    pub lead_change: f64,
    /// Games with a winner and at least one evaluation: the sample of the
    /// measures below.
    pub decided: u64,
    /// Ludii's Decisiveness Threshold: the highest evaluation a seat that
    /// did not win reached in the game.
    pub threshold: Spread,
    /// The phase after which a winner's evaluation first passed that
    /// threshold (the game's length if it never did).
    pub decisive_phase: Spread,
    /// Ludii's Decisiveness Moves: that phase over the game's length.
    pub decisiveness: Spread,
    /// Ludii's Drama (Average): per game, the mean over its phases of how
    /// far the winners' evaluation (their mean) stood below the highest.
    pub drama: Spread,
    /// Per game, the share of its phases the winners were behind.
    pub behind: Spread,
}

/// Measures on the choice counts (`--choices`).
#[derive(Debug, Clone, Serialize)]
pub struct ChoiceMeasures {
    pub games: u64,
    /// Decisions counted (one seat to move in one phase).
    pub decisions: u64,
    /// Whether the counts are every legal order set (false: a sample).
    pub exact: bool,
    /// What the counts are, in this game.
    pub what: String,
    /// Ludii's Branching Factor (Average): per game, the mean count of its
    /// decisions; over the games.
    pub per_game: Spread,
    /// Every decision's count (its max is Ludii's Branching Factor Max).
    pub per_decision: Spread,
    /// Ludii's Decision Moves: per game, the share of decisions with more
    /// than one choice; over the games.
    pub decision_moves: Spread,
    /// By phase range: (first phase, last phase, the counts there).
    pub by_phase: Vec<(u32, u32, Spread)>,
}

/// Ludii's Board Coverage Default over the games that carry their
/// coverage (`--coverage`).
#[derive(Debug, Clone, Serialize)]
pub struct CoverageMeasures {
    pub games: u64,
    /// The board's sites (the same in every game of a table but where a
    /// game's board is not the same at every start).
    pub sites: Spread,
    /// Per game, the sites that held a piece at some point.
    pub covered: Spread,
    /// Ludii's Board Coverage Default: per game, covered over sites; over
    /// the games.
    pub share: Spread,
    /// The 95% interval of the mean share (the normal approximation).
    pub share_interval: (f64, f64),
}

pub fn coverage_measures(rs: &[&Record]) -> Option<CoverageMeasures> {
    let with: Vec<Coverage> = rs
        .iter()
        .filter_map(|r| r.coverage)
        .filter(|c| c.sites > 0)
        .collect();
    if with.is_empty() {
        return None;
    }
    let f = |g: fn(&Coverage) -> f64| spread(&with.iter().map(g).collect::<Vec<f64>>());
    let share = f(|c| c.covered as f64 / c.sites as f64);
    Some(CoverageMeasures {
        games: with.len() as u64,
        sites: f(|c| c.sites as f64),
        covered: f(|c| c.covered as f64),
        share_interval: mean_interval(&share),
        share,
    })
}

/// Ludii's Balance: 1 − the widest gap between two seats' win rates over
/// all the games (1 when every seat wins as often, 0 when one always wins).
pub fn balance_index(rs: &[&Record], seats: usize) -> f64 {
    if rs.is_empty() || seats < 2 {
        return 1.0;
    }
    let rates: Vec<f64> = (0..seats)
        .map(|s| rs.iter().filter(|r| r.winners.contains(&s)).count() as f64 / rs.len() as f64)
        .collect();
    let hi = rates.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let lo = rates.iter().cloned().fold(f64::INFINITY, f64::min);
    1.0 - (hi - lo)
}

pub fn endings(rs: &[&Record]) -> Endings {
    let n = rs.len() as u64;
    let count = |f: &dyn Fn(&Record) -> bool| wilson(rs.iter().filter(|r| f(r)).count() as u64, n);
    let limit = |r: &Record| r.finished && at_turn_limit(&r.game, &r.result);
    Endings {
        won_in_play: count(&|r| r.finished && !r.winners.is_empty() && !limit(r)),
        won_at_limit: count(&|r| !r.winners.is_empty() && limit(r)),
        drawn_at_limit: count(&|r| r.winners.is_empty() && limit(r)),
        drawn_in_play: count(&|r| r.finished && r.winners.is_empty() && !limit(r)),
        unfinished: count(&|r| !r.finished),
        completion: count(&|r| r.finished && !r.winners.is_empty()),
    }
}

/// The seats with the highest value.
fn leaders(e: &[i32]) -> Vec<usize> {
    let Some(&best) = e.iter().max() else {
        return Vec::new();
    };
    (0..e.len()).filter(|&s| e[s] == best).collect()
}

/// One game's lead changes on its evaluations.
pub fn lead_changes(evals: &[Vec<i32>]) -> u32 {
    evals
        .windows(2)
        .filter(|w| leaders(&w[0]) != leaders(&w[1]))
        .count() as u32
}

/// One won game's decisiveness: (threshold, decisive phase from 1,
/// phase over length), or `None` with no winner or no evaluation.
pub fn decisiveness(evals: &[Vec<i32>], winners: &[usize]) -> Option<(i32, u32, f64)> {
    if winners.is_empty() || evals.is_empty() {
        return None;
    }
    let threshold = evals
        .iter()
        .flat_map(|e| {
            e.iter()
                .enumerate()
                .filter(|(s, _)| !winners.contains(s))
                .map(|(_, v)| *v)
        })
        .max()?;
    let len = evals.len() as u32;
    let phase = evals
        .iter()
        .position(|e| {
            winners
                .iter()
                .any(|&w| e.get(w).is_some_and(|v| *v > threshold))
        })
        .map_or(len, |i| i as u32 + 1);
    Some((threshold, phase, phase as f64 / len as f64))
}

/// One won game's drama: (mean deficit of the winners below the highest
/// evaluation, share of phases they were behind).
pub fn drama(evals: &[Vec<i32>], winners: &[usize]) -> Option<(f64, f64)> {
    if winners.is_empty() || evals.is_empty() {
        return None;
    }
    let mut sum = 0.0;
    let mut behind = 0;
    for e in evals {
        let best = *e.iter().max()? as f64;
        let mean = winners
            .iter()
            .map(|&w| e.get(w).copied().unwrap_or(0) as f64)
            .sum::<f64>()
            / winners.len() as f64;
        let d = best - mean;
        sum += d;
        if d > 0.0 {
            behind += 1;
        }
    }
    let n = evals.len() as f64;
    Some((sum / n, behind as f64 / n))
}

pub fn eval_measures(rs: &[&Record]) -> Option<EvalMeasures> {
    let with: Vec<(&Record, &Vec<Vec<i32>>)> = rs
        .iter()
        .filter_map(|r| r.evals.as_ref().map(|e| (*r, e)))
        .collect();
    if with.is_empty() {
        return None;
    }
    let lc: Vec<f64> = with.iter().map(|(_, e)| lead_changes(e) as f64).collect();
    let rate: Vec<f64> = with
        .iter()
        .filter(|(_, e)| !e.is_empty())
        .map(|(_, e)| lead_changes(e) as f64 / e.len() as f64)
        .collect();
    let mut threshold = Vec::new();
    let mut phase = Vec::new();
    let mut share = Vec::new();
    let mut dr = Vec::new();
    let mut behind = Vec::new();
    for (r, e) in &with {
        if !r.finished {
            continue;
        }
        if let Some((t, p, f)) = decisiveness(e, &r.winners) {
            threshold.push(t as f64);
            phase.push(p as f64);
            share.push(f);
        }
        if let Some((d, b)) = drama(e, &r.winners) {
            dr.push(d);
            behind.push(b);
        }
    }
    Some(EvalMeasures {
        games: with.len() as u64,
        lead_changes: spread(&lc),
        lead_change: spread(&rate).mean,
        decided: share.len() as u64,
        threshold: spread(&threshold),
        decisive_phase: spread(&phase),
        decisiveness: spread(&share),
        drama: spread(&dr),
        behind: spread(&behind),
    })
}

pub fn choice_measures(rs: &[&Record]) -> Option<ChoiceMeasures> {
    let with: Vec<&Vec<Vec<u32>>> = rs.iter().filter_map(|r| r.choices.as_ref()).collect();
    if with.is_empty() {
        return None;
    }
    let game = &rs[0].game;
    let (exact, what) = CHOICES
        .iter()
        .find(|c| c.0 == game)
        .map_or((false, "the game's candidate order sets"), |c| (c.1, c.2));
    let mut all = Vec::new();
    let mut per_game = Vec::new();
    let mut dm = Vec::new();
    let longest = with.iter().map(|c| c.len()).max().unwrap_or(0) as u32;
    let width = longest.div_ceil(10).max(1);
    let mut buckets: Vec<Vec<f64>> = vec![Vec::new(); longest.div_ceil(width) as usize];
    for c in &with {
        let counts: Vec<f64> = c.iter().flatten().map(|&k| k as f64).collect();
        if counts.is_empty() {
            continue;
        }
        per_game.push(spread(&counts).mean);
        dm.push(counts.iter().filter(|&&k| k > 1.0).count() as f64 / counts.len() as f64);
        for (i, phase) in c.iter().enumerate() {
            for &k in phase {
                buckets[i / width as usize].push(k as f64);
            }
        }
        all.extend(counts);
    }
    let by_phase = buckets
        .iter()
        .enumerate()
        .filter(|(_, b)| !b.is_empty())
        .map(|(i, b)| {
            let first = i as u32 * width + 1;
            (first, (first + width - 1).min(longest), spread(b))
        })
        .collect();
    Some(ChoiceMeasures {
        games: with.len() as u64,
        decisions: all.len() as u64,
        exact,
        what: what.to_string(),
        per_game: spread(&per_game),
        per_decision: spread(&all),
        decision_moves: spread(&dm),
        by_phase,
    })
}

/// One phase of [`evals_by_phase`]: per seat (mean, lower quartile, upper
/// quartile), and the number of games that reached it.
pub type PhaseEvals = (Vec<(f64, f64, f64)>, u64);

/// The seats' evaluations by phase over the games that lasted so long:
/// per phase (from 1), per seat, (mean, lower quartile, upper quartile),
/// and the number of games; up to the last phase at least a tenth of the
/// games (and at least one) reached.
pub fn evals_by_phase(rs: &[&Record], seats: usize) -> Vec<PhaseEvals> {
    let with: Vec<&Vec<Vec<i32>>> = rs.iter().filter_map(|r| r.evals.as_ref()).collect();
    let floor = (with.len() as u64).div_ceil(10).max(1);
    let mut out = Vec::new();
    for k in 0.. {
        let at: Vec<&Vec<i32>> = with.iter().filter_map(|e| e.get(k)).collect();
        if (at.len() as u64) < floor {
            break;
        }
        let per_seat = (0..seats)
            .map(|s| {
                let mut v: Vec<f64> = at
                    .iter()
                    .filter_map(|e| e.get(s))
                    .map(|x| *x as f64)
                    .collect();
                if v.is_empty() {
                    return (0.0, 0.0, 0.0);
                }
                v.sort_by(f64::total_cmp);
                let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
                (spread(&v).mean, q(0.25), q(0.75))
            })
            .collect();
        out.push((per_seat, at.len() as u64));
    }
    out
}

/// The reason part of a result line: after the first `: `, without what
/// stands in brackets (the pieces that made it so), digits as `#`.
pub fn ending(result: &str) -> String {
    let reason = result.split_once(": ").map_or(result, |(_, r)| r);
    let mut out = String::new();
    let mut last_hash = false;
    let mut depth = 0;
    for c in reason.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ => {}
        }
        if depth > 0 || c == ')' {
            continue;
        }
        if c.is_ascii_digit() {
            if !last_hash {
                out.push('#');
            }
            last_hash = true;
        } else {
            out.push(c);
            last_hash = false;
        }
    }
    out.trim_end().to_string()
}
