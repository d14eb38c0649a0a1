//! Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system"): a rating, its deviation and
//! its volatility, updated once per rating period from the period's games.
//!
//! ```
//! use ratings::glicko2::{update, Rating};
//!
//! let player = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
//! let games = [
//!     (Rating { rating: 1400.0, deviation: 30.0, volatility: 0.06 }, 1.0),
//!     (Rating { rating: 1550.0, deviation: 100.0, volatility: 0.06 }, 0.0),
//!     (Rating { rating: 1700.0, deviation: 300.0, volatility: 0.06 }, 0.0),
//! ];
//! let new = update(player, &games, 0.5);
//! assert!((new.rating - 1464.06).abs() < 0.02 && (new.deviation - 151.52).abs() < 0.01);
//! ```

use std::f64::consts::PI;

use serde::Serialize;

/// The Glicko-2 to Glicko scale factor.
const SCALE: f64 = 173.7178;
/// Convergence tolerance of the volatility iteration.
const EPSILON: f64 = 0.000_001;

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rating {
    pub rating: f64,
    /// RD.
    pub deviation: f64,
    /// σ.
    pub volatility: f64,
}

impl Rating {
    /// A new player: 1500, RD 350, σ 0.06.
    pub fn new() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::new()
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn e(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The player's rating after a period with `games` (opponent's rating at the period's start,
/// score 1 / 0.5 / 0), with system constant `tau` (0.3–1.2; 0.5 in the paper's example). With no
/// games only the deviation grows.
pub fn update(player: Rating, games: &[(Rating, f64)], tau: f64) -> Rating {
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
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for (opp, score) in games {
        let mu_j = (opp.rating - 1500.0) / SCALE;
        let phi_j = opp.deviation / SCALE;
        let ex = e(mu, mu_j, phi_j);
        let gj = g(phi_j);
        v_inv += gj * gj * ex * (1.0 - ex);
        sum += gj * (score - ex);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    let sigma_new = volatility(delta, phi, v, sigma, tau);
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * sum;
    Rating {
        rating: mu_new * SCALE + 1500.0,
        deviation: phi_new * SCALE,
        volatility: sigma_new,
    }
}

/// The rating after `periods` rating periods without games (fractions too, as a site counts
/// time away): only the deviation grows, φ² + t·σ² (step 6 of the paper, `t` periods at once),
/// never past a new player's 350.
///
/// ```
/// use ratings::glicko2::{widen, Rating};
///
/// let settled = Rating { rating: 1800.0, deviation: 50.0, volatility: 0.06 };
/// let back = widen(settled, 100.0);
/// assert_eq!(back.rating, 1800.0);
/// assert!((back.deviation - 115.6).abs() < 0.1);
/// assert_eq!(widen(settled, 1e9).deviation, 350.0);
/// ```
pub fn widen(player: Rating, periods: f64) -> Rating {
    if periods <= 0.0 {
        return player;
    }
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    let deviation = ((phi * phi + periods * sigma * sigma).sqrt() * SCALE).min(Rating::new().deviation);
    Rating {
        deviation: deviation.max(player.deviation),
        ..player
    }
}

/// The new volatility: the root of f by the Illinois variant of regula falsi (step 5 of the
/// paper).
fn volatility(delta: f64, phi: f64, v: f64, sigma: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2)) - (x - a) / (tau * tau)
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
    while (big_b - big_a).abs() > EPSILON {
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

    /// TV-GLICKO2 of shared/specs/tournament.md §8.2 (Glickman's example).
    #[test]
    fn the_papers_example() {
        let games = [(r(1400.0, 30.0), 1.0), (r(1550.0, 100.0), 0.0), (r(1700.0, 300.0), 0.0)];
        let new = update(r(1500.0, 200.0), &games, 0.5);
        assert!((new.rating - 1464.06).abs() < 0.02, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.01, "{new:?}");
        assert!((new.volatility - 0.05999).abs() < 0.00001, "{new:?}");
        // Full precision, as the spec's reference script gives.
        assert!((new.rating - 1464.0507).abs() < 0.001, "{new:?}");
        assert!((new.deviation - 151.5165).abs() < 0.001, "{new:?}");
    }

    #[test]
    fn no_games_only_widen_the_deviation() {
        let new = update(r(1500.0, 200.0), &[], 0.5);
        assert_eq!((new.rating, new.volatility), (1500.0, 0.06));
        assert!((new.deviation - 200.2714).abs() < 0.001, "{new:?}");
    }
}
