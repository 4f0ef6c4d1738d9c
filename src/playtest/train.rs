//! `herald playtest train GAME`: the learned prior's weights, from
//! self-play (issue 53; Expert Iteration with a linear apprentice).
//!
//! A generation plays `games` games of the search against itself, every
//! seat recording at each of its decisions the root's candidates (their
//! features, `BotSupport::features`) and how often the search visited
//! each. The prior is then fitted to those visit shares: the weights that
//! minimise the cross-entropy of the visit shares under the softmax of
//! the weighted features, plus a small ridge (`RIDGE`), by Newton's
//! method. The next generation searches with the prior just fitted (its
//! visits are the better targets), and so on. The weights are rounded to
//! integers (`SCALE` per unit of logit) after every generation, so what a
//! generation plays with is what the file holds.
//!
//! Everything is deterministic: each game is played from streams derived
//! from the seed, the generation and its number (so `--jobs` changes
//! nothing), the groups are summed in game order, and the arithmetic is
//! + − × ÷ and herald's own exponential and logarithm. The same command
//! writes the same file, byte for byte, on any machine.

use super::{play_recorded, Job};
use crate::bots::prior::{self, Group, Source, Weights};
use crate::bots::{self, BotSpec};
use crate::games::{self, BotSupport, BuiltIn, Entry, Options, Visitor};
use rayon::prelude::*;
use std::sync::Arc;

/// A weight file's scale: a weight of `SCALE` adds 1 to a candidate's
/// logit per unit of its feature.
pub const SCALE: i32 = 100;

/// The ridge: `RIDGE / 2 × |w|²` (w in logits per unit of feature) is
/// added to the summed cross-entropy, so a feature that never varies gets
/// weight 0 and the fit stays defined.
pub const RIDGE: f64 = 1.0;

/// Newton steps a fit takes at most (it stops earlier once a step changes
/// no weight by more than a millionth).
pub const NEWTON_STEPS: u32 = 30;

/// What `herald playtest train` was asked.
#[derive(Debug, Clone)]
pub struct Training {
    /// The search to imitate, without `:prior` (each generation after
    /// the first adds the prior fitted last).
    pub bot: BotSpec,
    /// Self-play games a generation.
    pub games: u64,
    pub generations: u32,
    pub options: Options,
    pub seed: String,
    pub jobs: usize,
    pub max_phases: u32,
    /// The command line, written at the top of the file.
    pub command: String,
}

/// One generation's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Generation {
    pub games: u64,
    /// Decisions recorded (a per-piece search records one per piece).
    pub decisions: u64,
    /// Their candidates, summed.
    pub candidates: u64,
    /// Mean cross-entropy of the visit shares under a uniform prior, and
    /// under the prior fitted (rounded as stored), nats a decision.
    pub uniform: f64,
    pub fitted: f64,
    /// Share of the decisions whose most visited candidate is the fitted
    /// prior's favourite.
    pub agree: f64,
}

/// The trained file and what each generation did.
#[derive(Debug, Clone)]
pub struct Trained {
    pub text: String,
    pub generations: Vec<Generation>,
}

/// Train the weights of `entry`'s game as `t` says.
// A String error: a game the lab could not play, or a search without features, told as is.
pub fn train(entry: &Entry, t: &Training) -> Result<Trained, String> {
    let BotSpec::Mcts(search) = &t.bot else {
        return Err(format!(
            "--bot {}: train a searching bot (mcts or ismcts)",
            t.bot
        ));
    };
    if search.prior.is_some() {
        return Err(format!(
            "--bot {}: name the search without `:prior` (each generation adds the prior fitted before it)",
            t.bot
        ));
    }
    let rules = entry.load(entry.ruleset).map_err(|e| e.to_string())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(t.jobs.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", t.jobs))?;
    struct Train<'a> {
        t: &'a Training,
        pool: &'a rayon::ThreadPool,
        ruleset_sha256: String,
    }
    impl Visitor for Train<'_> {
        // A String error: as `train`'s.
        type Output = Result<Trained, String>;
        fn visit<G: BuiltIn>(self, ruleset: &G::Ruleset) -> Self::Output {
            generations::<G>(ruleset, self.t, self.pool, &self.ruleset_sha256)
        }
    }
    games::visit(
        rules.as_ref(),
        Train {
            t,
            pool: &pool,
            ruleset_sha256: crate::chain::canon::sha256_hex(entry.ruleset.as_bytes()),
        },
    )
}

/// The generations of [`train`] in game `G`.
fn generations<G: BotSupport>(
    ruleset: &G::Ruleset,
    t: &Training,
    pool: &rayon::ThreadPool,
    ruleset_sha256: &str,
) -> Result<Trained, String> {
    let k = G::FEATURES.len();
    if k == 0 {
        return Err(format!(
            "{}: the game gives its searches no features",
            G::TITLE
        ));
    }
    let mut w = vec![0.0f64; k];
    let mut stored: Option<Arc<Weights>> = None;
    let mut figures = Vec::new();
    for gen in 0..t.generations {
        let spec = match (&t.bot, &stored) {
            (BotSpec::Mcts(s), Some(weights)) => {
                let mut s = s.clone();
                s.prior = Some(Source::Given(weights.clone()));
                BotSpec::Mcts(s)
            }
            (b, _) => b.clone(),
        };
        let jobs: Vec<Job> = (0..t.games)
            .map(|index| Job {
                game: G::NAME.to_string(),
                rules: None,
                ruleset_sha256: ruleset_sha256.to_string(),
                weights: None,
                weights_sha256: None,
                index,
                seed: format!("{} generation {gen}", t.seed),
                options: t.options.clone(),
                bots: vec![spec.clone(), spec.clone()],
                evals: false,
                choices: false,
                coverage: false,
                max_phases: t.max_phases,
            })
            .collect();
        let played: Vec<Result<Vec<Group>, String>> = pool.install(|| {
            jobs.par_iter()
                .map(|j| play_recorded::<G>(ruleset, j).map(|(_, g)| g))
                .collect()
        });
        let mut groups = Vec::new();
        for p in played {
            groups.extend(p?.into_iter().filter(|g| g.visits.len() > 1));
        }
        w = fit(&groups, k, &w);
        let ints: Vec<i32> = w
            .iter()
            .map(|x| round(x * SCALE as f64).clamp(-prior::MAX_WEIGHT, prior::MAX_WEIGHT) as i32)
            .collect();
        w = ints.iter().map(|&x| x as f64 / SCALE as f64).collect();
        figures.push(measure(&groups, k, &w, t.games));
        let text = Weights::text(G::NAME, SCALE, G::FEATURES, &ints, "");
        stored = Some(Arc::new(
            Weights::parse(&text, G::NAME, G::FEATURES).map_err(|e| e.to_string())?,
        ));
    }
    let ints: Vec<i32> = stored.as_ref().map(|s| s.prior.clone()).unwrap_or_default();
    let header = header(G::TITLE, &t.command, &figures);
    Ok(Trained {
        text: Weights::text(G::NAME, SCALE, G::FEATURES, &ints, &header),
        generations: figures,
    })
}

/// The weight file's head: what it is, the command that wrote it and each
/// generation's figures.
fn header(title: &str, command: &str, figures: &[Generation]) -> String {
    let mut header = format!(
        "The learned prior of {title}'s searches (docs/bots.md, \"The learned prior\").\nWritten by: {command}\n"
    );
    for (i, g) in figures.iter().enumerate() {
        header.push_str(&format!(
            "generation {}: {} games, {} decisions, {:.1} candidates a decision; cross-entropy of the visits {:.4} uniform, {:.4} fitted; favourite most visited in {:.1}%\n",
            i + 1,
            g.games,
            g.decisions,
            g.candidates as f64 / g.decisions.max(1) as f64,
            g.uniform,
            g.fitted,
            100.0 * g.agree
        ));
    }
    header.trim_end().to_string()
}

/// Round half away from zero, without the maths library.
fn round(x: f64) -> i64 {
    if x >= 0.0 {
        (x + 0.5) as i64
    } else {
        -((-x + 0.5) as i64)
    }
}

/// One group's softmax under `w`: the logits, their log-sum-exp.
fn softmax(g: &Group, k: usize, w: &[f64]) -> (Vec<f64>, f64) {
    let z: Vec<f64> = g
        .features
        .chunks(k)
        .map(|f| f.iter().zip(w).map(|(&x, &y)| x as f64 * y).sum())
        .collect();
    let top = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = z.iter().map(|&x| prior::exp(x - top)).sum();
    let lse = top + bots::ln(sum);
    (z, lse)
}

/// The weights (logits per unit of feature) minimising the summed
/// cross-entropy of the groups' visit shares plus the ridge, by Newton's
/// method from `start`, each step halved until the loss does not rise.
fn fit(groups: &[Group], k: usize, start: &[f64]) -> Vec<f64> {
    let loss = |w: &[f64]| -> f64 {
        let mut l = RIDGE / 2.0 * w.iter().map(|x| x * x).sum::<f64>();
        for g in groups {
            let total: u64 = g.visits.iter().map(|&v| v as u64).sum();
            if total == 0 {
                continue;
            }
            let (z, lse) = softmax(g, k, w);
            for (zi, &v) in z.iter().zip(&g.visits) {
                l -= v as f64 / total as f64 * (zi - lse);
            }
        }
        l
    };
    let mut w = start.to_vec();
    let mut now = loss(&w);
    for _ in 0..NEWTON_STEPS {
        let mut grad: Vec<f64> = w.iter().map(|x| RIDGE * x).collect();
        let mut hess = vec![0.0f64; k * k];
        for i in 0..k {
            hess[i * k + i] = RIDGE;
        }
        for g in groups {
            let total: u64 = g.visits.iter().map(|&v| v as u64).sum();
            if total == 0 {
                continue;
            }
            let (z, lse) = softmax(g, k, &w);
            let p: Vec<f64> = z.iter().map(|&x| prior::exp(x - lse)).collect();
            let mut mu = vec![0.0f64; k];
            for (f, &pi) in g.features.chunks(k).zip(&p) {
                for i in 0..k {
                    mu[i] += pi * f[i] as f64;
                }
            }
            for ((f, &pi), &v) in g.features.chunks(k).zip(&p).zip(&g.visits) {
                let target = v as f64 / total as f64;
                for i in 0..k {
                    let fi = f[i] as f64;
                    grad[i] += (pi - target) * fi;
                    if fi == 0.0 || pi == 0.0 {
                        continue;
                    }
                    for j in 0..k {
                        hess[i * k + j] += pi * fi * f[j] as f64;
                    }
                }
            }
            for i in 0..k {
                for j in 0..k {
                    hess[i * k + j] -= mu[i] * mu[j];
                }
            }
        }
        let Some(step) = solve(hess, grad, k) else {
            break;
        };
        let mut scale = 1.0;
        let mut moved = false;
        for _ in 0..20 {
            let next: Vec<f64> = w.iter().zip(&step).map(|(a, d)| a - scale * d).collect();
            let l = loss(&next);
            if l <= now {
                moved = step.iter().any(|d| (scale * d).abs() > 1e-6);
                w = next;
                now = l;
                break;
            }
            scale /= 2.0;
        }
        if !moved {
            break;
        }
    }
    w
}

/// `a x = b` for a symmetric positive definite `a` (k × k, row after
/// row), by Gaussian elimination with partial pivoting; `None` where it is
/// singular.
fn solve(mut a: Vec<f64>, mut b: Vec<f64>, k: usize) -> Option<Vec<f64>> {
    for c in 0..k {
        let p = (c..k).max_by(|&i, &j| a[i * k + c].abs().total_cmp(&a[j * k + c].abs()))?;
        if a[p * k + c].abs() < 1e-12 {
            return None;
        }
        if p != c {
            for j in 0..k {
                a.swap(p * k + j, c * k + j);
            }
            b.swap(p, c);
        }
        for r in c + 1..k {
            let m = a[r * k + c] / a[c * k + c];
            if m == 0.0 {
                continue;
            }
            for j in c..k {
                a[r * k + j] -= m * a[c * k + j];
            }
            b[r] -= m * b[c];
        }
    }
    let mut x = vec![0.0f64; k];
    for c in (0..k).rev() {
        let mut s = b[c];
        for j in c + 1..k {
            s -= a[c * k + j] * x[j];
        }
        x[c] = s / a[c * k + c];
    }
    Some(x)
}

/// A generation's figures for the weights `w` on its groups.
fn measure(groups: &[Group], k: usize, w: &[f64], games: u64) -> Generation {
    let (mut uniform, mut fitted, mut agree) = (0.0, 0.0, 0u64);
    let mut decisions = 0u64;
    let mut candidates = 0u64;
    for g in groups {
        let total: u64 = g.visits.iter().map(|&v| v as u64).sum();
        if total == 0 {
            continue;
        }
        decisions += 1;
        candidates += g.visits.len() as u64;
        let (z, lse) = softmax(g, k, w);
        let n = g.visits.len() as f64;
        for (zi, &v) in z.iter().zip(&g.visits) {
            let t = v as f64 / total as f64;
            fitted -= t * (zi - lse);
            uniform += t * bots::ln(n);
        }
        let most = crate::bots::rollout::most_visited(g.visits.iter().map(|&v| (v, 0)));
        let fav = z
            .iter()
            .enumerate()
            .fold(None, |b: Option<(usize, f64)>, (i, &x)| match b {
                Some((_, y)) if y >= x => b,
                _ => Some((i, x)),
            })
            .map(|(i, _)| i);
        if most == fav {
            agree += 1;
        }
    }
    let d = decisions.max(1) as f64;
    Generation {
        games,
        decisions,
        candidates,
        uniform: uniform / d,
        fitted: fitted / d,
        agree: agree as f64 / d,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_finds_the_weights_that_made_the_visits() {
        // Two features; visits drawn in proportion to exp(2 f0 - f1).
        let mut groups = Vec::new();
        // Enough decisions that the ridge (one unit against their summed
        // cross-entropy) moves the fit by less than the tolerance.
        for d in 0..3000 {
            let feats: Vec<i32> = (0..4).flat_map(|c| [(c + d) % 3, (c * d) % 2]).collect();
            let z: Vec<f64> = feats
                .chunks(2)
                .map(|f| 2.0 * f[0] as f64 - f[1] as f64)
                .collect();
            let s: f64 = z.iter().map(|x| x.exp()).sum();
            let visits = z.iter().map(|x| (10_000.0 * x.exp() / s) as u32).collect();
            groups.push(Group {
                features: feats,
                visits,
            });
        }
        let w = fit(&groups, 2, &[0.0, 0.0]);
        assert!((w[0] - 2.0).abs() < 0.1, "{w:?}");
        assert!((w[1] + 1.0).abs() < 0.1, "{w:?}");
        let g = measure(&groups, 2, &w, 1);
        assert!(g.fitted < g.uniform);
        let x = solve(vec![2.0, 1.0, 1.0, 3.0], vec![3.0, 5.0], 2).unwrap();
        assert!(
            (x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12,
            "{x:?}"
        );
    }
}
