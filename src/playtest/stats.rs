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

/// The 95% intervals of [`elo`]'s ratings (`ratings`, from the same
/// `pairs`), on the Elo scale: each rating ± 1.96 standard errors, the
/// errors from the inverse of the fit's Fisher information (the
/// Bradley–Terry log-likelihood's curvature at the fitted strengths, the
/// virtual draws counted as the fit counts them), the first player fixed
/// at 0 (its interval is (0, 0)). `None` for a player whose error cannot
/// be told (never met another, or the information is singular).
#[allow(clippy::needless_range_loop)]
pub fn elo_intervals(n: usize, pairs: &[Pair], ratings: &[f64]) -> Vec<Option<(f64, f64)>> {
    let mut games = vec![vec![0.0f64; n]; n];
    for p in pairs {
        games[p.a][p.b] += 1.0;
        games[p.b][p.a] += 1.0;
    }
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                games[i][j] += 1.0;
            }
        }
    }
    // θ in natural log-strength: Elo = 400 θ / ln 10.
    let scale = 400.0 / std::f64::consts::LN_10;
    let theta: Vec<f64> = ratings.iter().map(|r| r / scale).collect();
    // The information of the free strengths 1..n.
    let m = n.saturating_sub(1);
    let mut info = vec![vec![0.0f64; m]; m];
    for i in 1..n {
        for j in 0..n {
            if i == j || games[i][j] == 0.0 {
                continue;
            }
            let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
            let w = games[i][j] * p * (1.0 - p);
            info[i - 1][i - 1] += w;
            if j > 0 {
                info[i - 1][j - 1] -= w;
            }
        }
    }
    let cov = invert(info);
    (0..n)
        .map(|i| {
            if i == 0 {
                return Some((0.0, 0.0));
            }
            let v = cov.as_ref()?[i - 1][i - 1];
            (v.is_finite() && v > 0.0).then(|| {
                let half = 1.96 * scale * v.sqrt();
                (ratings[i] - half, ratings[i] + half)
            })
        })
        .collect()
}

/// The inverse of a small symmetric matrix by Gauss–Jordan elimination
/// with partial pivoting; `None` if it is singular.
#[allow(clippy::needless_range_loop)]
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        inv.swap(c, p);
        let d = a[c][c];
        for k in 0..n {
            a[c][k] /= d;
            inv[c][k] /= d;
        }
        for r in 0..n {
            if r != c {
                let f = a[r][c];
                for k in 0..n {
                    a[r][k] -= f * a[c][k];
                    inv[r][k] -= f * inv[c][k];
                }
            }
        }
    }
    Some(inv)
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: about 15 digits).
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The upper regularised incomplete gamma function Q(a, x) = Γ(a, x)/Γ(a):
/// the series below a + 1, the continued fraction (modified Lentz) above.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let ln_front = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * ln_front.exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (ln_front.exp() * h).clamp(0.0, 1.0)
    }
}

/// The chance that a χ² variable with `df` degrees of freedom is at least
/// `x`.
pub fn chi_square_p(x: f64, df: u64) -> f64 {
    gamma_q(df as f64 / 2.0, x / 2.0)
}

/// Pearson's χ² goodness of fit of `counts` against equal shares: the
/// statistic, its degrees of freedom and p-value. `None` with fewer than
/// two cells or no count.
pub fn chi_square_equal(counts: &[u64]) -> Option<(f64, u64, f64)> {
    let total: u64 = counts.iter().sum();
    if counts.len() < 2 || total == 0 {
        return None;
    }
    let expected = total as f64 / counts.len() as f64;
    let x: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let df = counts.len() as u64 - 1;
    Some((x, df, chi_square_p(x, df)))
}

/// The exact two-sided binomial test of `hits` in `of` trials against the
/// chance `p`: the probability, under p, of an outcome no likelier than
/// the one seen (the usual definition, as R's `binom.test`).
pub fn binomial_p(hits: u64, of: u64, p: f64) -> f64 {
    if of == 0 {
        return 1.0;
    }
    let ln_pmf = |k: u64| {
        let (k, n) = (k as f64, of as f64);
        ln_gamma(n + 1.0) - ln_gamma(k + 1.0) - ln_gamma(n - k + 1.0)
            + k * p.ln()
            + (n - k) * (1.0 - p).ln()
    };
    let seen = ln_pmf(hits);
    // A relative tolerance, as binom.test's, so that outcomes exactly as
    // likely as the one seen count despite rounding.
    let limit = seen + (1.0 + 1e-7f64).ln();
    let p: f64 = (0..=of)
        .map(ln_pmf)
        .filter(|&l| l <= limit)
        .map(f64::exp)
        .sum();
    p.min(1.0)
}

/// What an interval says about a seat's share against the fair one.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The whole interval is above the fair share.
    Favoured,
    /// The whole interval is below it.
    Disfavoured,
    /// The interval lies within the fair share ± the margin.
    Balanced,
    /// The interval holds the fair share but reaches past the margin:
    /// more games are needed to say.
    Undecided,
}

/// Points (of 100) around the fair share within which a seat is called
/// balanced: its whole 95% interval must lie inside.
pub const BALANCE_MARGIN: f64 = 0.05;

/// The verdict on a share `r` against `fair`, given the exact binomial
/// test's `p` of the same counts, one of `tests` such verdicts read
/// together (the seats of one table): a side is named only when the
/// Wilson interval excludes the fair share *and* the test rejects it at
/// 5% shared among the tests (Bonferroni: p < 0.05 / tests). The two can
/// disagree on small samples: 4 of 4 has an interval above a half but
/// p = 0.125. Without the correction one of six fair seats is called
/// favoured or disfavoured in about a quarter of all tables.
pub fn verdict(r: &Rate, fair: f64, p: f64, tests: usize) -> Verdict {
    let alpha = 0.05 / tests.max(1) as f64;
    if r.low > fair && p < alpha {
        Verdict::Favoured
    } else if r.high < fair && p < alpha {
        Verdict::Disfavoured
    } else if r.low >= fair - BALANCE_MARGIN && r.high <= fair + BALANCE_MARGIN {
        Verdict::Balanced
    } else {
        Verdict::Undecided
    }
}

/// Pearson's χ² test of homogeneity of two rows of counts (the seats'
/// wins in two sets of games): the statistic, degrees of freedom and
/// p-value. Columns empty in both rows are left out; `None` when fewer
/// than two columns or either row is empty.
pub fn chi_square_homogeneity(a: &[u64], b: &[u64]) -> Option<(f64, u64, f64)> {
    let cols: Vec<(f64, f64)> = a
        .iter()
        .zip(b)
        .filter(|(x, y)| **x + **y > 0)
        .map(|(x, y)| (*x as f64, *y as f64))
        .collect();
    let (ra, rb): (f64, f64) = (
        cols.iter().map(|c| c.0).sum(),
        cols.iter().map(|c| c.1).sum(),
    );
    if cols.len() < 2 || ra == 0.0 || rb == 0.0 {
        return None;
    }
    let total = ra + rb;
    let mut x = 0.0;
    for (ca, cb) in &cols {
        let col = ca + cb;
        let (ea, eb) = (ra * col / total, rb * col / total);
        x += (ca - ea).powi(2) / ea + (cb - eb).powi(2) / eb;
    }
    let df = cols.len() as u64 - 1;
    Some((x, df, chi_square_p(x, df)))
}

/// The 95% interval of a mean (the normal approximation): (low, high).
pub fn mean_interval(s: &Spread) -> (f64, f64) {
    let se = if s.n > 0 {
        s.sd / (s.n as f64).sqrt()
    } else {
        0.0
    };
    (s.mean - Z95 * se, s.mean + Z95 * se)
}

/// The difference of two means with its 95% interval (Welch: the normal
/// approximation with each side's own variance): (difference, low, high).
pub fn mean_difference(a: &Spread, b: &Spread) -> (f64, f64, f64) {
    let d = a.mean - b.mean;
    let se = if a.n > 0 && b.n > 0 {
        (a.sd * a.sd / a.n as f64 + b.sd * b.sd / b.n as f64).sqrt()
    } else {
        0.0
    };
    (d, d - Z95 * se, d + Z95 * se)
}
