//! The 90 points of the board, named in ICCS: files `a`–`i` from red's left, ranks `0`–`9`
//! from red's side.

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// A file (column), `a` to `i` from red's left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    pub const COUNT: u8 = 9;

    #[inline]
    pub const fn new(index: u8) -> Option<File> {
        if index < 9 {
            Some(File(index))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    pub fn from_char(c: char) -> Option<File> {
        let c = c.to_ascii_lowercase();
        if ('a'..='i').contains(&c) {
            Some(File(c as u8 - b'a'))
        } else {
            None
        }
    }

    /// The file number a side uses in Chinese and WXF notation: 1–9 counted from that side's
    /// own right. Red's 1 is file `i`, black's 1 is file `a`.
    #[inline]
    pub const fn number_for(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self.0,
            Color::Black => self.0 + 1,
        }
    }

    /// Inverse of [`File::number_for`].
    pub const fn from_number(number: u8, color: Color) -> Option<File> {
        if number < 1 || number > 9 {
            return None;
        }
        Some(match color {
            Color::Red => File(9 - number),
            Color::Black => File(number - 1),
        })
    }
}

/// A rank (row), `0` to `9` from red's side. Ranks 0–4 are red's half, 5–9 black's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const COUNT: u8 = 10;

    #[inline]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 10 {
            Some(Rank(index))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The rank counted from `color`'s own back rank (0 = its back rank).
    #[inline]
    pub const fn relative_to(self, color: Color) -> u8 {
        match color {
            Color::Red => self.0,
            Color::Black => 9 - self.0,
        }
    }
}

/// One of the 90 points, indexed `rank * 9 + file`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 90;

    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// For indexes known to be on the board (from bit scans and tables); checked in debug builds.
    #[inline]
    pub(crate) const fn new_unchecked(index: u8) -> Square {
        debug_assert!(index < 90);
        Square(index)
    }

    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 9 + file.0)
    }

    /// From zero-based file and rank numbers, if both are on the board.
    #[inline]
    pub const fn from_xy(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> File {
        File(self.0 % 9)
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }

    /// Whether this point is on `color`'s half of the board (before the river, from its view).
    #[inline]
    pub const fn is_on_side_of(self, color: Color) -> bool {
        match color {
            Color::Red => self.0 < 45,
            Color::Black => self.0 >= 45,
        }
    }

    /// Whether this point is inside `color`'s palace (九宫).
    pub const fn in_palace_of(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = self.rank().relative_to(color);
        f >= 3 && f <= 5 && r <= 2
    }

    /// Mirror across the river (red's view becomes black's).
    pub const fn flip_vertical(self) -> Square {
        Square((9 - self.0 / 9) * 9 + self.0 % 9)
    }

    /// Mirror left to right.
    pub const fn flip_horizontal(self) -> Square {
        Square((self.0 / 9) * 9 + 8 - self.0 % 9)
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..90).map(Square)
    }

    /// Parses ICCS (`e0`, `E0`) or, with `one_based_rank`, Fairy-Stockfish's form (`e1`, `e10`).
    /// Returns the square and the number of bytes used.
    pub(crate) fn parse_prefix(s: &[u8], one_based_rank: bool) -> Option<(Square, usize)> {
        let file = File::from_char(*s.first()? as char)?;
        let d1 = s.get(1)?;
        if !d1.is_ascii_digit() {
            return None;
        }
        let (n, used) = match s.get(2) {
            Some(d2) if one_based_rank && d2.is_ascii_digit() => (u32::from(d1 - b'0') * 10 + u32::from(d2 - b'0'), 3),
            _ => (u32::from(d1 - b'0'), 2),
        };
        let rank = if one_based_rank { n.checked_sub(1)? } else { n };
        let rank = Rank::new(u8::try_from(rank).ok()?)?;
        Some((Square::from_coords(file, rank), used))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().0)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The text was not an ICCS square such as `e0`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?}: expected a file a-i and a rank 0-9, e.g. e0")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match Square::parse_prefix(s.as_bytes(), false) {
            Some((sq, n)) if n == s.len() => Ok(sq),
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}
