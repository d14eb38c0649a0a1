//! FIDE Elo (Rating Regulations B.02, 2024, with the amendment of 1 October 2025).
//!
//! The expected score comes from FIDE's table of rating differences, not the logistic formula
//! (they differ by up to 0.01). A difference of more than 400 counts as 400 — since October
//! 2025 only for a player rated below 2650, so the two sides of a game can change by different
//! amounts. A period's changes are summed and rounded to a whole number.
//!
//! ```
//! use ratings::elo::{change, expected};
//!
//! assert_eq!(expected(2000, 2420), 0.08); // capped at 400
//! assert!((change(2000, 2420, 1.0, 20) - 18.4).abs() < 1e-9);
//! ```

/// Upper bounds of |D| for each scoring probability of the higher-rated player, .50 to .99
/// (above the last: 1.00).
const TABLE: [u16; 50] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162, 170, 179, 188, 197,
    206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374, 391, 411, 432, 456, 484, 517, 559, 619,
    735,
];

/// The rating difference a fractional score stands for (FIDE's dp table, p = .50 … 1.00).
const DP: [u16; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166, 175, 184, 193,
    202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589,
    677, 800,
];

/// The scoring probability of the higher-rated player for a difference `d` (its absolute value),
/// uncapped: FIDE's table.
pub fn table_expectation(d: u32) -> f64 {
    pd(d)
}

fn pd(d: u32) -> f64 {
    let hundredths = TABLE.iter().position(|&b| d <= u32::from(b)).unwrap_or(TABLE.len());
    (50 + hundredths) as f64 / 100.0
}

/// The difference used for a player rated `own` against `opponent`: capped at 400 unless the
/// player is rated 2650 or more (B.02 8.3.1, as amended on 1 October 2025).
pub fn difference(own: u32, opponent: u32) -> i64 {
    let d = i64::from(own) - i64::from(opponent);
    if own < 2650 {
        d.clamp(-400, 400)
    } else {
        d
    }
}

/// The expected score of a player rated `own` against `opponent`.
pub fn expected(own: u32, opponent: u32) -> f64 {
    let d = difference(own, opponent);
    let p = pd(d.unsigned_abs() as u32);
    // Table values are hundredths; keep them exact in f64 terms.
    if d >= 0 {
        p
    } else {
        ((1.0 - p) * 100.0).round() / 100.0
    }
}

/// The unrounded change for one game: K × (W − We).
pub fn change(own: u32, opponent: u32, score: f64, k: u32) -> f64 {
    f64::from(k) * (score - expected(own, opponent))
}

/// A player's K (B.02 8.3.3): 40 until 30 games are completed, and for a player under 18 rated
/// below 2300; 20 while rated below 2400; 10 once the published rating has reached 2400.
pub fn k_factor(rating: u32, games_completed: u32, under_18: bool, ever_2400: bool) -> u32 {
    if ever_2400 {
        10
    } else if games_completed < 30 || (under_18 && rating < 2300) {
        40
    } else if rating < 2400 {
        20
    } else {
        10
    }
}

/// K lowered so that K × games ≤ 700 for a period with many games (B.02 8.3.3).
pub fn capped_k(k: u32, games: u32) -> u32 {
    if games == 0 || k * games <= 700 {
        k
    } else {
        700 / games
    }
}

/// A rating period: the games' changes summed and rounded (halves away from zero).
pub fn period_change(own: u32, games: &[(u32, f64)], k: u32) -> i64 {
    let k = capped_k(k, games.len() as u32);
    let sum: f64 = games.iter().map(|&(opp, score)| change(own, opp, score, k)).sum();
    // Settle the sum of hundredths first (0.1 + 0.2 style error), then round.
    ((sum * 1e6).round() / 1e6).round() as i64
}

/// The rating difference a fractional score `p` (0 … 1) stands for, rounded to hundredths as
/// the table is (for performance ratings).
pub fn dp(p: f64) -> i64 {
    let hundredths = (p.clamp(0.0, 1.0) * 100.0).round() as i64;
    if hundredths >= 50 {
        i64::from(DP[(hundredths - 50) as usize])
    } else {
        -i64::from(DP[(50 - hundredths) as usize])
    }
}

/// A tournament performance rating: average opponent rating plus dp(score / games).
pub fn performance(opponents: &[u32], score: f64) -> Option<i64> {
    if opponents.is_empty() {
        return None;
    }
    let avg = opponents.iter().map(|&r| f64::from(r)).sum::<f64>() / opponents.len() as f64;
    Some(avg.round() as i64 + dp(score / opponents.len() as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// TV-ELO of shared/specs/tournament.md §8.1.
    #[test]
    fn the_spec_test_vectors() {
        assert_eq!(expected(2000, 2420), 0.08);
        assert!(close(change(2000, 2420, 1.0, 20), 18.4));
        assert_eq!(expected(2400, 2000), 0.92);
        assert!(close(change(2400, 2000, 0.5, 10), -4.2));
        assert!(close(change(2600, 2100, 1.0, 10), 0.8));
        // 2650 and above: no cap, D = 550.
        assert_eq!(expected(2750, 2200), 0.97);
        assert!(close(change(2750, 2200, 1.0, 10), 0.3));
        // The 2200 player keeps the cap.
        assert_eq!(expected(2200, 2750), 0.08);
        assert!(close(change(2200, 2750, 0.0, 20), -1.6));
        assert!(close(change(1500, 1500, 0.5, 40), 0.0));
        for (d, p) in [(3, 0.50), (4, 0.51), (735, 0.99), (736, 1.00)] {
            assert_eq!(pd(d), p, "D={d}");
        }
    }

    #[test]
    fn k_and_its_cap() {
        assert_eq!(k_factor(1800, 10, false, false), 40);
        assert_eq!(k_factor(2100, 100, true, false), 40);
        assert_eq!(k_factor(2350, 100, true, false), 20);
        assert_eq!(k_factor(2350, 100, false, false), 20);
        assert_eq!(k_factor(2410, 100, false, false), 10);
        assert_eq!(k_factor(2300, 100, false, true), 10);
        assert_eq!(capped_k(40, 17), 40);
        assert_eq!(capped_k(20, 30), 20);
        assert_eq!(capped_k(40, 20), 35);
    }

    #[test]
    fn periods_round_and_performance_uses_dp() {
        // +18.4 and -4.2 style games summed then rounded.
        assert_eq!(period_change(2000, &[(2420, 1.0), (2000, 0.0)], 20), 18 - 10);
        assert_eq!(period_change(2000, &[(2000, 0.5)], 20), 0);
        assert_eq!(dp(0.875), 336); // .88
        assert_eq!(dp(0.5), 0);
        assert_eq!(dp(0.0), -800);
        // The spec's hand check: ARO 1937.75 -> 1938, 3.5/4 -> +336 -> 2274.
        assert_eq!(performance(&[1756, 1897, 1972, 2126], 3.5), Some(2274));
    }
}
