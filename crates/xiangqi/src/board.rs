//! The placement of pieces: a mailbox for "what stands here" and bitboards for "where are they".

use std::fmt;

use crate::attacks::{self, transposed_bit};
use crate::{zobrist, Bitboard, ByColor, Color, Piece, Role, Square};

/// Where every piece stands. Any arrangement is representable; [`crate::Position`] is the
/// validated, playable form.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// Piece codes by square; entry 90 is a permanently occupied sentinel so that off-board
    /// horse legs and elephant eyes read as blocked.
    mailbox: [u8; 91],
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 7],
    /// The occupancy again, file-major (`file * 10 + rank`), for file attacks.
    occ_t: u128,
    /// Zobrist key of the placement alone.
    key: u64,
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    pub fn empty() -> Board {
        let mut mailbox = [0u8; 91];
        mailbox[attacks::OFF as usize] = 0xff;
        Board {
            mailbox,
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 7],
            occ_t: 0,
            key: 0,
        }
    }

    /// The standard starting arrangement.
    pub fn start() -> Board {
        crate::fen::Fen::START
            .parse::<crate::Fen>()
            .expect("start FEN")
            .into_setup()
            .board
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.mailbox[sq.index()])
    }

    #[inline]
    pub(crate) fn code_at(&self, sq: Square) -> u8 {
        self.mailbox[sq.index()]
    }

    #[inline]
    pub(crate) fn mailbox(&self) -> &[u8; 91] {
        &self.mailbox
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub(crate) fn occupied_transposed(&self) -> u128 {
        self.occ_t
    }

    #[inline]
    pub fn by_color(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    #[inline]
    pub fn by_role(&self, r: Role) -> Bitboard {
        self.by_role[r.index()]
    }

    #[inline]
    pub fn by_piece(&self, p: Piece) -> Bitboard {
        self.by_color[p.color.index()] & self.by_role[p.role.index()]
    }

    /// The king of `color`, if there is exactly one.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(Role::King.of(color)).single()
    }

    /// Zobrist key of the placement (the side to move is added by the position).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Puts `piece` on `sq`, replacing what stood there. Returns the replaced piece.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) -> Option<Piece> {
        let old = self.remove_piece_at(sq);
        self.put(sq, piece.code());
        old
    }

    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let code = self.mailbox[sq.index()];
        if code != 0 {
            self.take(sq, code);
        }
        Piece::from_code(code)
    }

    #[inline]
    fn put(&mut self, sq: Square, code: u8) {
        let p = Piece::from_code(code).expect("piece code");
        self.mailbox[sq.index()] = code;
        let b = Bitboard::from_square(sq);
        self.by_color[p.color.index()] |= b;
        self.by_role[p.role.index()] |= b;
        self.occ_t |= transposed_bit(sq);
        self.key ^= zobrist::code_key(code, sq);
    }

    #[inline]
    fn take(&mut self, sq: Square, code: u8) {
        let p = Piece::from_code(code).expect("piece code");
        self.mailbox[sq.index()] = 0;
        let b = Bitboard::from_square(sq);
        self.by_color[p.color.index()] ^= b;
        self.by_role[p.role.index()] ^= b;
        self.occ_t ^= transposed_bit(sq);
        self.key ^= zobrist::code_key(code, sq);
    }

    /// Moves the piece on `from` to `to`, capturing what is there; returns the captured code.
    /// Kept branch-light: it is the inner loop of every search and replay.
    #[inline]
    pub(crate) fn move_piece(&mut self, from: Square, to: Square) -> u8 {
        let code = self.mailbox[from.index()];
        let captured = self.mailbox[to.index()];
        if captured != 0 {
            self.take(to, captured);
        }
        let c = ((code - 1) / 7) as usize;
        let r = ((code - 1) % 7) as usize;
        let fb = Bitboard::from_square(from);
        let tb = Bitboard::from_square(to);
        self.mailbox[from.index()] = 0;
        self.mailbox[to.index()] = code;
        self.by_color[c] ^= fb | tb;
        self.by_role[r] ^= fb | tb;
        self.occ_t ^= transposed_bit(from) | transposed_bit(to);
        self.key ^= zobrist::code_key(code, from) ^ zobrist::code_key(code, to);
        captured
    }

    /// Reverses [`Board::move_piece`].
    #[inline]
    pub(crate) fn unmove_piece(&mut self, from: Square, to: Square, captured: u8) {
        let code = self.mailbox[to.index()];
        let c = ((code - 1) / 7) as usize;
        let r = ((code - 1) % 7) as usize;
        let fb = Bitboard::from_square(from);
        let tb = Bitboard::from_square(to);
        self.mailbox[to.index()] = 0;
        self.mailbox[from.index()] = code;
        self.by_color[c] ^= fb | tb;
        self.by_role[r] ^= fb | tb;
        self.occ_t ^= transposed_bit(from) | transposed_bit(to);
        self.key ^= zobrist::code_key(code, from) ^ zobrist::code_key(code, to);
        if captured != 0 {
            self.put(to, captured);
        }
    }

    /// The key computed from scratch; equal to [`Board::key`] at all times.
    pub fn compute_key(&self) -> u64 {
        Square::all()
            .filter_map(|sq| self.piece_at(sq).map(|p| zobrist::piece_key(p, sq)))
            .fold(0, |a, b| a ^ b)
    }

    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .map(move |sq| (sq, self.piece_at(sq).expect("occupied")))
    }

    /// Pieces of `by` that attack `sq` — that could capture a piece standing there — given
    /// occupancy `occ`. The king counts as attacking along an open file toward the other king
    /// (flying general, 帅将对面) as well as its palace steps.
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let occ_t = occ.fold(0, |t, s| t | transposed_bit(s));
        self.attackers_to_with(sq, by, occ.0, occ_t)
    }

    #[inline]
    pub(crate) fn attackers_to_with(&self, sq: Square, by: Color, occ: u128, occ_t: u128) -> Bitboard {
        let theirs = self.by_color(by) & Bitboard(occ);
        let line = attacks::rook_attacks(sq, occ, occ_t);
        let kings = self.by_role(Role::King);
        let flying = if kings.contains(sq) { kings } else { Bitboard::EMPTY };
        (line & (self.by_role(Role::Rook) | flying)
            | attacks::cannon_captures(sq, occ, occ_t) & self.by_role(Role::Cannon)
            | attacks::horse_attackers(sq, occ) & self.by_role(Role::Horse)
            | attacks::pawn_attackers(by, sq) & self.by_role(Role::Pawn)
            | attacks::king_attacks(sq) & kings
            | attacks::advisor_attacks(sq) & self.by_role(Role::Advisor)
            | elephant_attackers(sq, by, occ) & self.by_role(Role::Elephant))
            & theirs
    }
}

/// Elephants attacking `sq`: the elephant move is symmetric, so the points an elephant on `sq`
/// could reach with the same eyes are the ones that reach it.
#[inline]
fn elephant_attackers(sq: Square, by: Color, occ: u128) -> Bitboard {
    if sq.is_on_side_of(by) {
        attacks::elephant_attacks(sq, by, occ)
    } else {
        Bitboard::EMPTY
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9 {
                let sq = Square::from_xy(file, rank).expect("on board");
                let c = self.piece_at(sq).map_or('.', Piece::fen_char);
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  abcdefghi")
    }
}

/// Counts of each piece, handy for validation and material rules.
pub fn material(board: &Board) -> ByColor<[u8; 7]> {
    ByColor::new_with(|c| {
        let mut m = [0u8; 7];
        for r in Role::ALL {
            m[r.index()] = board.by_piece(r.of(c)).count() as u8;
        }
        m
    })
}
