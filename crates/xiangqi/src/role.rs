//! Piece kinds and pieces (a kind with a colour).

use std::fmt;
use std::ops::{Index, IndexMut};

use crate::Color;

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// 帅/将 (general)
    King = 0,
    /// 仕/士 (advisor, guard)
    Advisor = 1,
    /// 相/象 (elephant, minister)
    Elephant = 2,
    /// 马 (horse)
    Horse = 3,
    /// 车 (chariot, rook)
    Rook = 4,
    /// 炮 (cannon)
    Cannon = 5,
    /// 兵/卒 (pawn, soldier)
    Pawn = 6,
}

impl Role {
    pub const ALL: [Role; 7] = [
        Role::King,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Rook,
        Role::Cannon,
        Role::Pawn,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The most pieces of this kind a side has in the standard set.
    pub const fn max_count(self) -> usize {
        match self {
            Role::King => 1,
            Role::Pawn => 5,
            _ => 2,
        }
    }

    /// The FEN letter (upper case): K A B N R C P.
    pub const fn fen_char(self) -> char {
        match self {
            Role::King => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Rook => 'R',
            Role::Cannon => 'C',
            Role::Pawn => 'P',
        }
    }

    /// The WXF letter (upper case): K A E H R C P.
    pub const fn wxf_char(self) -> char {
        match self {
            Role::Elephant => 'E',
            Role::Horse => 'H',
            _ => self.fen_char(),
        }
    }

    /// Reads a piece letter in either case, accepting both the FEN letters and the WXF ones
    /// (E for elephant, H for horse) and the occasional G for the king.
    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' | 'G' => Role::King,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'R' => Role::Rook,
            'C' => Role::Cannon,
            'P' => Role::Pawn,
            _ => return None,
        })
    }

    pub const fn name(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Rook => "rook",
            Role::Cannon => "cannon",
            Role::Pawn => "pawn",
        }
    }

    #[inline]
    pub const fn of(self, color: Color) -> Piece {
        Piece { color, role: self }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value for each role, indexed by [`Role`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ByRole<T>(pub [T; 7]);

impl<T> Index<Role> for ByRole<T> {
    type Output = T;
    #[inline]
    fn index(&self, r: Role) -> &T {
        &self.0[r as usize]
    }
}

impl<T> IndexMut<Role> for ByRole<T> {
    #[inline]
    fn index_mut(&mut self, r: Role) -> &mut T {
        &mut self.0[r as usize]
    }
}

/// A piece: a role and its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// FEN letter: upper case for red, lower case for black.
    pub const fn fen_char(self) -> char {
        let c = self.role.fen_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter, accepting E/H as aliases of B/N.
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) if c.is_ascii_uppercase() && c != 'G' => Some(Piece {
                color: Color::Red,
                role,
            }),
            Some(role) if c.is_ascii_lowercase() && c != 'g' => Some(Piece {
                color: Color::Black,
                role,
            }),
            _ => None,
        }
    }

    /// A compact code 1..=14 (0 means empty), used by the board's mailbox.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + self.role as u8 + 7 * self.color as u8
    }

    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 || code > 14 {
            return None;
        }
        let c = code - 1;
        let color = if c >= 7 { Color::Black } else { Color::Red };
        Some(Piece {
            color,
            role: Role::ALL[(c % 7) as usize],
        })
    }

    /// The usual Chinese name: 帅仕相马车炮兵 for red, 将士象马车炮卒 for black.
    pub const fn chinese(self) -> char {
        match (self.color, self.role) {
            (Color::Red, Role::King) => '帅',
            (Color::Black, Role::King) => '将',
            (Color::Red, Role::Advisor) => '仕',
            (Color::Black, Role::Advisor) => '士',
            (Color::Red, Role::Elephant) => '相',
            (Color::Black, Role::Elephant) => '象',
            (_, Role::Horse) => '马',
            (_, Role::Rook) => '车',
            (_, Role::Cannon) => '炮',
            (Color::Red, Role::Pawn) => '兵',
            (Color::Black, Role::Pawn) => '卒',
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}
