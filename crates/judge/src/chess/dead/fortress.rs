//! Static proof for locked pawn structures: when no pawn can ever move, every piece stays in
//! the part of the board its own moves can reach around the pawns, and if no piece of a side
//! can ever attack a square the other king can ever stand on, that side can never give check,
//! let alone mate.
//!
//! The regions are over-approximations: they ignore every piece but the pawns (pieces block
//! and capture, which only shrinks what is reachable), so what they exclude is excluded in
//! every position reachable from here, by induction over the moves, as long as no pawn moves
//! and none is captured. The analysis gives up (returns `None`) wherever that could happen.

use ::chess::shakmaty::attacks::{self, king_attacks};
use ::chess::shakmaty::{Bitboard, ByColor, Chess, Color, Piece, Position, Role, Square};

/// A locked structure: no pawn can ever move, capture or be captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Locked {
    /// For each side, whether it is proven never to give check (and so never to mate).
    pub(crate) never_checks: ByColor<bool>,
    /// At most how many positions are reachable: the product of the pieces' regions, times
    /// two for the side to move. A search of every one of them is affordable when this is
    /// small.
    pub(crate) positions: u64,
}

/// The locked structure of `pos`, or `None` when a pawn can move or capture, or be captured.
///
/// Castling needs no exception: the squares a castling king crosses and lands on are empty and
/// unattacked, so king steps reach them too, and the rook's path is empty; both stay in their
/// regions.
pub(crate) fn locked(pos: &Chess) -> Option<Locked> {
    let board = pos.board();
    let pawns = board.pawns();
    if pawns.is_empty() || !pushes_blocked(pos) || pos.legal_ep_square().is_some() {
        return None;
    }
    let pawns_of = ByColor::new_with(|c| pawns & board.by_color(c));
    let pawn_attacks = pawns_of.as_ref().zip_color().map(|(c, &ps)| {
        ps.into_iter()
            .fold(Bitboard::EMPTY, |a, sq| a | attacks::pawn_attacks(c, sq))
    });
    if Color::ALL.iter().any(|&c| (pawn_attacks[c] & pawns_of[!c]).any()) {
        return None;
    }
    // What each side could ever attack (for check), and where each king could ever stand.
    let mut reach = pawn_attacks;
    let mut king_region = ByColor::new_with(|_| Bitboard::EMPTY);
    let mut positions: u64 = 2;
    for (sq, piece) in board.iter().filter(|(_, p)| p.role != Role::Pawn) {
        let c = piece.color;
        let (theirs, hostile) = (pawns_of[!c], pawn_attacks[!c]);
        let region = if piece.role == Role::King {
            let passable = !pawns & !hostile;
            let region = flood(sq, |s| king_attacks(s) & passable);
            // An unprotected pawn next to the region could be taken.
            if (around(region, king_attacks) & theirs & !hostile).any() {
                return None;
            }
            king_region[c] = region;
            region
        } else {
            let region = flood(sq, |s| piece_attacks(s, piece, pawns) & !pawns);
            let attacked = around(region, |s| piece_attacks(s, piece, pawns));
            // A pawn could take the piece, or the piece a pawn.
            if (region & hostile).any() || (attacked & theirs).any() {
                return None;
            }
            reach[c] |= attacked;
            region
        };
        positions = positions.saturating_mul(region.count() as u64);
    }
    Some(Locked {
        never_checks: ByColor::new_with(|c| (reach[c] & king_region[!c]).is_empty()),
        positions,
    })
}

/// Whether every pawn has a pawn right in front of it (which, if no pawn can ever capture, it
/// always will).
pub(crate) fn pushes_blocked(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    let white = pawns & board.white();
    let black = pawns & board.black();
    ((white.shift(8) | black.shift(-8)) & !pawns).is_empty()
}

fn piece_attacks(sq: Square, piece: Piece, occupied: Bitboard) -> Bitboard {
    attacks::attacks(sq, piece, occupied)
}

/// The squares reachable from `start` by repeated `step`s.
fn flood(start: Square, step: impl Fn(Square) -> Bitboard) -> Bitboard {
    let mut region = Bitboard::from_square(start);
    let mut frontier = region;
    while frontier.any() {
        let next = around(frontier, &step) & !region;
        region |= next;
        frontier = next;
    }
    region
}

/// The union of `f` over `squares`.
fn around(squares: Bitboard, f: impl Fn(Square) -> Bitboard) -> Bitboard {
    squares.into_iter().fold(Bitboard::EMPTY, |a, sq| a | f(sq))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::chess::shakmaty::fen::Fen;
    use ::chess::shakmaty::CastlingMode;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn proven(fen: &str) -> Option<(bool, bool)> {
        locked(&pos(fen)).map(|l| (l.never_checks.white, l.never_checks.black))
    }

    #[test]
    fn a_wall_of_locked_pawns_keeps_the_kings_apart() {
        assert_eq!(
            proven("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"),
            Some((true, true))
        );
        // A bishop on the colour of its own blocked pawns stays behind them.
        assert_eq!(
            proven("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/2B5 w - - 0 1"),
            Some((true, true))
        );
        // Each king has the 24 squares of its three ranks, the bishop 12: 2 * 24 * 24 * 12.
        let l = locked(&pos("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/2B5 w - - 0 1")).unwrap();
        assert_eq!(l.positions, 2 * 24 * 24 * 12);
    }

    #[test]
    fn gives_up_when_anything_can_change() {
        // A pawn that can be pushed.
        assert_eq!(proven("8/8/4k3/1p1p1p2/1P1P1P1P/4K3/8/8 w - - 0 1"), None);
        // A bishop that can attack the black pawns.
        assert_eq!(proven("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/3B4 w - - 0 1"), None);
        // A king that can reach an unprotected pawn (through the open a- to c-files).
        assert_eq!(proven("8/8/4k3/3p1p1p/3P1P1P/4K3/8/8 w - - 0 1"), None);
        // With the b-pawns locked too, neither king gets through.
        assert_eq!(
            proven("8/8/4k3/3p1p1p/1p1P1P1P/1P2K3/8/8 w - - 0 1"),
            Some((true, true))
        );
        // A knight jumps the wall and can be taken by a pawn.
        assert_eq!(proven("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/6N1 w - - 0 1"), None);
    }
}
