//! The words every crate above the games shares: a game's [`Outcome`] and a value for each side,
//! [`BySide`].

use std::ops::{Index, IndexMut};

use crate::{Kind, Side};

/// How a game ended — or that it has no result yet: one of the four PGN result tokens.
///
/// The fourth variant is a value of its own (not an `Option<Outcome>`) because a game's result
/// has four states wherever it is written: a judge's verdict on a game still going, a record
/// whose `Result` tag is `*`, and a referee's aborted game all read and write `*`.
///
/// ```
/// use game::{Kind, Outcome, Side};
///
/// assert_eq!(Outcome::win(Side::Second), Outcome::SecondWins);
/// assert_eq!(Outcome::SecondWins.winner(), Some(Side::Second));
/// assert_eq!(Outcome::from_pgn("1/2-1/2"), Some(Outcome::Draw));
/// assert_eq!(Outcome::Ongoing.pgn(), "*");
/// assert_eq!(Outcome::FirstWins.name(Kind::Xiangqi), "red");
/// assert!(!Outcome::Ongoing.is_over());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Red (Xiangqi) or white (chess) wins: `1-0`.
    FirstWins,
    /// Black wins: `0-1`.
    SecondWins,
    /// `1/2-1/2`.
    Draw,
    /// Not over, or not known (an unfinished record, an aborted game): `*`.
    Ongoing,
}

impl Outcome {
    /// The win of `side`.
    pub fn win(side: Side) -> Outcome {
        match side {
            Side::First => Outcome::FirstWins,
            Side::Second => Outcome::SecondWins,
        }
    }

    /// The side that won, if one did.
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::FirstWins => Some(Side::First),
            Outcome::SecondWins => Some(Side::Second),
            Outcome::Draw | Outcome::Ongoing => None,
        }
    }

    /// Whether the game has a result: a win or a draw.
    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }

    /// `red`, `black`, `white`, `draw` or `ongoing`.
    pub fn name(self, kind: Kind) -> &'static str {
        match self {
            Outcome::FirstWins => Side::First.name(kind),
            Outcome::SecondWins => Side::Second.name(kind),
            Outcome::Draw => "draw",
            Outcome::Ongoing => "ongoing",
        }
    }

    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::FirstWins => "1-0",
            Outcome::SecondWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Ongoing => "*",
        }
    }

    /// The outcome a PGN result token names (`½-½` too), or `None` for anything else.
    pub fn from_pgn(s: &str) -> Option<Outcome> {
        Some(match s.trim() {
            "1-0" => Outcome::FirstWins,
            "0-1" => Outcome::SecondWins,
            "1/2-1/2" | "½-½" => Outcome::Draw,
            "*" => Outcome::Ongoing,
            _ => return None,
        })
    }
}

/// A value for each side — clocks, fouls, offers, names — indexed by [`Side`].
///
/// It serialises as the pair `[first, second]`, the shape the referee's events and the server
/// have always sent.
///
/// ```
/// use game::{BySide, Side};
///
/// let mut fouls = BySide::new(|_| 0u32);
/// fouls[Side::Second] += 1;
/// assert_eq!(fouls, BySide { first: 0, second: 1 });
/// assert_eq!(fouls, BySide::from([0, 1]));
/// assert_eq!(fouls.map(|n| n * 2)[Side::Second], 2);
/// let names = BySide::new(|side| format!("{side:?}"));
/// assert_eq!(names.iter().map(|(_, n)| n.as_str()).collect::<Vec<_>>(), ["First", "Second"]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(from = "[T; 2]", into = "[T; 2]")]
#[serde(bound(
    serialize = "T: Clone + serde::Serialize",
    deserialize = "T: serde::Deserialize<'de>"
))]
pub struct BySide<T> {
    pub first: T,
    pub second: T,
}

impl<T> BySide<T> {
    /// Each side's value from `f`, the first side's first.
    pub fn new(mut f: impl FnMut(Side) -> T) -> BySide<T> {
        let first = f(Side::First);
        BySide {
            first,
            second: f(Side::Second),
        }
    }

    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySide<U> {
        let first = f(self.first);
        BySide {
            first,
            second: f(self.second),
        }
    }

    /// The same value for both sides.
    pub fn both(value: T) -> BySide<T>
    where
        T: Clone,
    {
        BySide {
            first: value.clone(),
            second: value,
        }
    }

    /// The sides' values by reference.
    pub fn as_ref(&self) -> BySide<&T> {
        BySide {
            first: &self.first,
            second: &self.second,
        }
    }

    /// The sides and their values, the first side's first.
    pub fn iter(&self) -> impl Iterator<Item = (Side, &T)> {
        [(Side::First, &self.first), (Side::Second, &self.second)].into_iter()
    }
}

impl<T> From<[T; 2]> for BySide<T> {
    /// The pair `[first, second]`.
    fn from([first, second]: [T; 2]) -> BySide<T> {
        BySide { first, second }
    }
}

impl<T> From<BySide<T>> for [T; 2] {
    fn from(b: BySide<T>) -> [T; 2] {
        [b.first, b.second]
    }
}

impl<T> Index<Side> for BySide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        match side {
            Side::First => &self.first,
            Side::Second => &self.second,
        }
    }
}

impl<T> IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::First => &mut self.first,
            Side::Second => &mut self.second,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_side_travels_as_the_pair_it_replaced() {
        let b = BySide { first: 3u32, second: 4 };
        let json = serde_json::to_string(&b).unwrap();
        assert_eq!(json, serde_json::to_string(&[3u32, 4]).unwrap());
        assert_eq!(serde_json::from_str::<BySide<u32>>(&json).unwrap(), b);
    }

    #[test]
    fn every_pgn_token_reads_back() {
        for o in [Outcome::FirstWins, Outcome::SecondWins, Outcome::Draw, Outcome::Ongoing] {
            assert_eq!(Outcome::from_pgn(o.pgn()), Some(o));
        }
        assert_eq!(Outcome::from_pgn("½-½"), Some(Outcome::Draw));
        assert_eq!(Outcome::from_pgn("2-0"), None);
    }
}
