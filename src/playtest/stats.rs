//! The statistics of a tournament: Wilson intervals, means and spreads, and
//! bot strength on the Elo scale from a Bradley–Terry fit. Floats are fine
//! here (they never reach a game state); every output is printed with a
//! fixed number of decimals, so the same records give the same bytes.

use serde::Serialize;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Rate {
    pub hits: u64,
    pub of: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// `hits` out of `of`, with the Wilson interval (better than the normal
/// approximation near 0, 1 and for small counts).
pub fn wilson(hits: u64, of: u64) -> Rate {
    if of == 0 {
        return Rate {
            hits,
            of,
            rate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let n = of as f64;
    let p = hits as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Rate {
        hits,
        of,
        rate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

impl Rate {
    /// `58.0% [52.3, 63.5]`
    pub fn text(&self) -> String {
        format!(
            "{:5.1}% [{:5.1}, {:5.1}]",
            self.rate * 100.0,
            self.low * 100.0,
            self.high * 100.0
        )
    }
}

/// Mean and (sample) standard deviation, min and max.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Default)]
pub struct Spread {
    pub n: u64,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
}

pub fn spread(xs: &[f64]) -> Spread {
    if xs.is_empty() {
        return Spread::default();
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    Spread {
        n: xs.len() as u64,
        mean,
        sd: var.sqrt(),
        min: xs.iter().cloned().fold(f64::INFINITY, f64::min),
        max: xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
    }
}

/// One pairwise result for the strength fit: `a` scored `score` (1 a win,
/// ½ a draw, 0 a loss) against `b`.
#[derive(Debug, Clone, Copy)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    pub score: f64,
}

/// Elo-scale ratings of `n` players from pairwise results: a Bradley–Terry
/// fit by the minorisation–maximisation iteration (fixed count, so the
/// output is reproducible), with one virtual draw between every two
/// players who met so that an unbeaten or winless player gets a finite
/// rating. Scaled to Elo (400 × log10 of the strength) with the first
/// player at 0.
#[allow(clippy::needless_range_loop)]
pub fn elo(n: usize, pairs: &[Pair]) -> Vec<f64> {
    let mut wins = vec![0.0f64; n];
    let mut games = vec![vec![0.0f64; n]; n];
    for p in pairs {
        wins[p.a] += p.score;
        wins[p.b] += 1.0 - p.score;
        games[p.a][p.b] += 1.0;
        games[p.b][p.a] += 1.0;
    }
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                // The virtual draw, seen from i: half a point, one game
                // (j's side is added when the loop reaches (j, i)).
                wins[i] += 0.5;
                games[i][j] += 1.0;
            }
        }
    }
    let mut gamma = vec![1.0f64; n];
    for _ in 0..500 {
        let mut next = gamma.clone();
        for i in 0..n {
            let denom: f64 = (0..n)
                .filter(|&j| j != i && games[i][j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            if denom > 0.0 {
                next[i] = wins[i] / denom;
            }
        }
        let g0 = next[0];
        if g0 > 0.0 {
            for g in &mut next {
                *g /= g0;
            }
        }
        gamma = next;
    }
    gamma.iter().map(|g| 400.0 * g.max(1e-12).log10()).collect()
}
