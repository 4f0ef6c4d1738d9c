//! The Glicko-2 rating system, as Mark Glickman publishes it ("Example of
//! the Glicko-2 system", Boston University, 2022): one rating period's
//! update of a player from the games of that period. The steps' numbers
//! below are the paper's. Its worked example is the test.
//!
//! Floats are fine here: a rating is a figure derived from the game files
//! (docs/host.md, "Ratings"), never game state; it is computed in one
//! fixed order and printed rounded to whole points, so the last bits of
//! the arithmetic never show.

/// The scale factor between the Glicko and Glicko-2 scales (step 2).
const SCALE: f64 = 173.7178;

/// The convergence tolerance of step 5 (the paper's ε).
const EPSILON: f64 = 0.000_001;

/// A player's rating on the Glicko scale (1500 for a newcomer).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation (RD): how unsure the rating is.
    pub deviation: f64,
    /// The volatility σ: how erratic the player's results are.
    pub volatility: f64,
}

impl Rating {
    /// A newcomer's rating, as the paper suggests: 1500, RD 350, σ 0.06.
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };
}

/// The system constant τ, which bounds the volatility's change; the paper
/// suggests 0.3 to 1.2 and uses 0.5 in its example.
pub const TAU: f64 = 0.5;

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn e(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// `player` after one rating period with `games`: each an opponent's
/// rating before the period and the player's score against them (1 a win,
/// ½ a draw, 0 a loss). With no games only the deviation grows (step 6).
pub fn update(player: Rating, games: &[(Rating, f64)], tau: f64) -> Rating {
    // Step 2: to the Glicko-2 scale.
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating {
            deviation: phi_star * SCALE,
            ..player
        };
    }
    let opp: Vec<(f64, f64, f64)> = games
        .iter()
        .map(|(o, s)| ((o.rating - 1500.0) / SCALE, o.deviation / SCALE, *s))
        .collect();
    // Step 3: the estimated variance v.
    let v = 1.0
        / opp
            .iter()
            .map(|&(mj, pj, _)| {
                let ej = e(mu, mj, pj);
                g(pj) * g(pj) * ej * (1.0 - ej)
            })
            .sum::<f64>();
    // Step 4: the estimated improvement Δ.
    let outcome_sum: f64 = opp
        .iter()
        .map(|&(mj, pj, s)| g(pj) * (s - e(mu, mj, pj)))
        .sum();
    let delta = v * outcome_sum;
    // Step 5: the new volatility, by the Illinois algorithm.
    let sigma_new = volatility(delta, phi, v, sigma, tau);
    // Step 6: the pre-period deviation.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    // Step 7: the new deviation and rating.
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * outcome_sum;
    // Step 8: back to the Glicko scale.
    Rating {
        rating: SCALE * mu_new + 1500.0,
        deviation: SCALE * phi_new,
        volatility: sigma_new,
    }
}

/// Step 5: σ' by the Illinois algorithm (the paper's 5.1 to 5.5).
fn volatility(delta: f64, phi: f64, v: f64, sigma: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut fa = f(big_a);
    let mut fb = f(big_b);
    // Each step halves the bracket at least as bisection would; the bound
    // keeps a pathological input from looping for ever.
    for _ in 0..200 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// Glickman's worked example: a player rated 1500 (RD 200, σ 0.06)
    /// beats a 1400 (RD 30), loses to a 1550 (RD 100) and to a 1700 (RD
    /// 300); τ = 0.5. The paper's figures: r' = 1464.06, RD' = 151.52,
    /// σ' = 0.05999.
    #[test]
    fn the_papers_worked_example() {
        let after = update(
            r(1500.0, 200.0),
            &[
                (r(1400.0, 30.0), 1.0),
                (r(1550.0, 100.0), 0.0),
                (r(1700.0, 300.0), 0.0),
            ],
            0.5,
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let after = update(r(1500.0, 200.0), &[], 0.5);
        assert_eq!(after.rating, 1500.0);
        assert!((after.deviation - (200f64.powi(2) + (0.06 * SCALE).powi(2)).sqrt()).abs() < 1e-9);
    }

    #[test]
    fn a_win_raises_a_loss_lowers_and_a_draw_between_equals_keeps() {
        let n = Rating::NEW;
        assert!(update(n, &[(n, 1.0)], TAU).rating > 1500.0);
        assert!(update(n, &[(n, 0.0)], TAU).rating < 1500.0);
        let d = update(n, &[(n, 0.5)], TAU);
        assert!((d.rating - 1500.0).abs() < 1e-9);
        assert!(d.deviation < 350.0);
    }
}
