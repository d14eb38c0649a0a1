//! A move: from one point to another. Captures are implied by the board.

use std::fmt;

use crate::Square;

/// A move from `from` to `to`. Two bytes; whether it captures, and what, is read off the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// ICCS coordinates without the hyphen (`h2e2`) as bytes: every move a referee or an
    /// engine match takes in is written so, and the formatting machinery costs more than this.
    #[inline]
    pub fn iccs_bytes(self) -> [u8; 4] {
        let sq = |s: Square| [s.file().char() as u8, b'0' + s.rank().index()];
        let (a, b) = (sq(self.from), sq(self.to));
        [a[0], a[1], b[0], b[1]]
    }
}

impl fmt::Display for Move {
    /// ICCS coordinates without the hyphen, as engines use them (`h2e2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.iccs_bytes();
        f.write_str(std::str::from_utf8(&b).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A list of moves on the stack. 256 is more than any position of the standard set can produce
/// (the record is in the low hundreds), so pushing never overflows.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MoveList::CAPACITY],
}

impl MoveList {
    pub const CAPACITY: usize = 256;

    #[inline]
    pub fn new() -> MoveList {
        const NULL: Move = Move {
            from: Square::new_unchecked(0),
            to: Square::new_unchecked(0),
        };
        MoveList {
            len: 0,
            moves: [NULL; MoveList::CAPACITY],
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        // Capacity is a proven bound for validated positions; never index out of range.
        if self.len < MoveList::CAPACITY {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn sort(&mut self) {
        self.moves[..self.len].sort_unstable();
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
