//! The level-and-points scheme of seed 001 (记分方法): levels 无级别 and 30级 … 1级, 100 points
//! a level; after each game points move by these rules, the loser losing exactly what the winner
//! gains (a draw moves the same amount from the higher to the lower):
//!
//! - draw: difference under 10, nothing; 10–99, the lower gains (10 + diff/10) / 2; 100 and more,
//!   diff/4;
//! - the lower-rated side wins: under 10, 10; 10–99, 10 + diff/10; 100 and more, diff/2;
//! - the higher-rated side wins: under 10, 10; 10–99, 10 − diff/12.5; 100–199, 2; 200 and more,
//!   nothing.
//!
//! The seed gives no rounding, so points are exact fractions ([`Points`]); it gives no level
//! thresholds either: [`level`] reads "100 points a level" as 30级 for 0–99 points up to 1级 for
//! 2,900 and more, and 无级别 for a player with no rated game or fewer than 0 points (the
//! reading `shared/specs/tournament.md` §8.3 calls natural; an open question there).
//!
//! ```
//! use ratings::levels::{game, Outcome, Points};
//!
//! let (a, b) = game(Points::from(1500), Points::from(1550), Outcome::FirstWins);
//! assert_eq!((a.to_string(), b.to_string()), ("15".to_string(), "-15".to_string()));
//! ```

use std::fmt;
use std::ops::{Add, Neg, Sub};

use serde::Serialize;

/// A game's result, for the first player named.
pub use ::game::Outcome;

/// An exact number of points: a fraction in lowest terms with a positive denominator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Points {
    num: i64,
    den: i64,
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

impl Points {
    pub const ZERO: Points = Points { num: 0, den: 1 };

    pub fn new(num: i64, den: i64) -> Points {
        assert!(den != 0, "a fraction needs a denominator");
        let g = gcd(num, den).max(1);
        let sign = if den < 0 { -1 } else { 1 };
        Points {
            num: sign * num / g,
            den: sign * den / g,
        }
    }

    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    fn scale(self, num: i64, den: i64) -> Points {
        Points::new(self.num * num, self.den * den)
    }

    fn abs(self) -> Points {
        Points::new(self.num.abs(), self.den)
    }
}

impl From<i64> for Points {
    fn from(n: i64) -> Points {
        Points { num: n, den: 1 }
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points::new(self.num * o.den + o.num * self.den, self.den * o.den)
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, o: Points) -> Points {
        self + -o
    }
}

impl Neg for Points {
    type Output = Points;
    fn neg(self) -> Points {
        Points::new(-self.num, self.den)
    }
}

impl PartialOrd for Points {
    fn partial_cmp(&self, o: &Points) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Points {
    fn cmp(&self, o: &Points) -> std::cmp::Ordering {
        (self.num as i128 * o.den as i128).cmp(&(o.num as i128 * self.den as i128))
    }
}

/// Whole numbers as they are; fractions as exact decimals when they end (`7.5`, `2.08`), else
/// `a/b`.
impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            return write!(f, "{}", self.num);
        }
        // den = 2^a 5^b ends as a decimal of max(a, b) digits.
        let (mut d, mut twos, mut fives) = (self.den, 0u32, 0u32);
        while d % 2 == 0 {
            d /= 2;
            twos += 1;
        }
        while d % 5 == 0 {
            d /= 5;
            fives += 1;
        }
        let digits = twos.max(fives);
        let scale = 10i128.checked_pow(digits);
        match scale {
            Some(scale) if d == 1 && digits <= 30 => {
                let v = self.num as i128 * (scale / self.den as i128);
                let sign = if v < 0 { "-" } else { "" };
                let v = v.unsigned_abs();
                let (int, frac) = (v / scale as u128, v % scale as u128);
                let frac = format!("{frac:0width$}", width = digits as usize);
                write!(f, "{sign}{int}.{}", frac.trim_end_matches('0'))
            }
            _ => write!(f, "{}/{}", self.num, self.den),
        }
    }
}

/// What the winner (or, in a draw, the lower player) gains, by the difference in points.
fn gain(diff: Points, case: Case) -> Points {
    let d = diff;
    let ten = Points::from(10);
    let hundred = Points::from(100);
    let two_hundred = Points::from(200);
    match case {
        Case::Draw if d < ten => Points::ZERO,
        Case::Draw if d < hundred => (ten + d.scale(1, 10)).scale(1, 2),
        Case::Draw => d.scale(1, 4),
        Case::LowerWins if d < ten => ten,
        Case::LowerWins if d < hundred => ten + d.scale(1, 10),
        Case::LowerWins => d.scale(1, 2),
        Case::HigherWins if d < ten => ten,
        Case::HigherWins if d < hundred => ten - d.scale(2, 25),
        Case::HigherWins if d < two_hundred => Points::from(2),
        Case::HigherWins => Points::ZERO,
    }
}

#[derive(Clone, Copy)]
enum Case {
    Draw,
    LowerWins,
    HigherWins,
}

/// The change of each player's points after a game between `a` and `b` (none for a game
/// without a result).
pub fn game(a: Points, b: Points, result: Outcome) -> (Points, Points) {
    let diff = (a - b).abs();
    let a_lower = a < b;
    let (case, a_gains) = match result {
        Outcome::Draw => (Case::Draw, a_lower),
        Outcome::FirstWins => (if a_lower { Case::LowerWins } else { Case::HigherWins }, true),
        Outcome::SecondWins => (if a_lower { Case::HigherWins } else { Case::LowerWins }, false),
        // A game without a result moves no points.
        Outcome::Ongoing => return (Points::ZERO, Points::ZERO),
    };
    let g = gain(diff, case);
    if a_gains {
        (g, -g)
    } else {
        (-g, g)
    }
}

/// A level: 无级别 (unranked) or 30级 … 1级.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Level {
    Unranked,
    /// 30 (lowest) to 1 (highest).
    Ranked(u8),
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Unranked => f.write_str("无级别"),
            Level::Ranked(n) => write!(f, "{n}级"),
        }
    }
}

/// The level of a player with `points` after `games` rated games (see the module's reading).
pub fn level(points: Points, games: u32) -> Level {
    if games == 0 || points < Points::ZERO {
        return Level::Unranked;
    }
    let hundreds = (points.num / points.den / 100).clamp(0, 29) as u8;
    Level::Ranked(30 - hundreds)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(n: i64) -> Points {
        Points::from(n)
    }

    /// TV-LEVELS of shared/specs/tournament.md §8.3, exact.
    #[test]
    fn the_spec_test_vectors() {
        use Outcome::*;
        let rows: [(i64, i64, Outcome, &str, &str); 12] = [
            (1500, 1505, Draw, "0", "0"),
            (1500, 1550, Draw, "7.5", "-7.5"),
            (1500, 1700, Draw, "50", "-50"),
            (1500, 1505, FirstWins, "10", "-10"),
            (1500, 1550, FirstWins, "15", "-15"),
            (1500, 1700, FirstWins, "100", "-100"),
            (1505, 1500, FirstWins, "10", "-10"),
            (1550, 1500, FirstWins, "6", "-6"),
            (1650, 1500, FirstWins, "2", "-2"),
            (1750, 1500, FirstWins, "0", "0"),
            (1500, 1550, SecondWins, "-6", "6"),
            (1700, 1500, SecondWins, "-100", "100"),
        ];
        for (a, b, r, da, db) in rows {
            let (x, y) = game(p(a), p(b), r);
            assert_eq!(
                (x.to_string(), y.to_string()),
                (da.to_string(), db.to_string()),
                "{a} {b} {r:?}"
            );
        }
    }

    #[test]
    fn boundaries() {
        // (diff, higher wins, lower wins, draw)
        for (diff, hi, lo, draw) in [
            (9, "10", "10", "0"),
            (10, "9.2", "11", "5.5"),
            (99, "2.08", "19.9", "9.95"),
            (100, "2", "50", "25"),
            (199, "2", "99.5", "49.75"),
            (200, "0", "100", "50"),
        ] {
            let (h, _) = game(p(1000 + diff), p(1000), Outcome::FirstWins);
            let (_, l) = game(p(1000 + diff), p(1000), Outcome::SecondWins);
            let (_, d) = game(p(1000 + diff), p(1000), Outcome::Draw);
            assert_eq!(
                (h.to_string(), l.to_string(), d.to_string()),
                (hi.into(), lo.into(), draw.into()),
                "{diff}"
            );
        }
    }

    #[test]
    fn a_game_without_a_result_moves_no_points() {
        assert_eq!(game(p(1500), p(1000), Outcome::Ongoing), (Points::ZERO, Points::ZERO));
    }

    #[test]
    fn exact_fractions_accumulate_and_levels_follow_the_points() {
        // Fractions that do not end in decimals stay exact.
        let a = Points::new(1, 3) + Points::new(1, 6);
        assert_eq!(a.to_string(), "0.5");
        assert_eq!(Points::new(2, 3).to_string(), "2/3");
        assert_eq!(level(p(0), 0), Level::Unranked);
        assert_eq!(level(p(-5), 10), Level::Unranked);
        assert_eq!(level(p(99), 3), Level::Ranked(30));
        assert_eq!(level(p(100), 3), Level::Ranked(29));
        assert_eq!(level(p(2950), 50), Level::Ranked(1));
        assert_eq!(level(p(99_999), 50), Level::Ranked(1));
        assert_eq!(Level::Ranked(12).to_string(), "12级");
        // The loser always pays what the winner gains.
        for (a, b) in [(0, 0), (17, 430), (1999, 2000), (3000, 1)] {
            for r in [Outcome::FirstWins, Outcome::SecondWins, Outcome::Draw] {
                let (x, y) = game(p(a), p(b), r);
                assert_eq!(x + y, Points::ZERO);
            }
        }
    }
}
