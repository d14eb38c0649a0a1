//! The start position of an XQF file: the 32-slot piece table placed on a board, and the side
//! to move (which the header may get wrong).

use super::*;

/// XQF's x·10+y (x the file from red's left, y the rank from red's side) as a square.
pub(super) fn square(b: u8) -> Option<Square> {
    if b > 89 {
        return None;
    }
    Square::from_xy(i32::from(b / 10), i32::from(b % 10))
}

pub(super) fn place_pieces(table: &[u8; 32], issues: &mut Vec<Issue>) -> Board {
    let mut board = Board::empty();
    for (slot, &b) in table.iter().enumerate() {
        let Some(sq) = square(b) else { continue };
        let color = if slot < 16 { Color::Red } else { Color::Black };
        let piece = crate::record::PIECE_LIST_ROLES[slot % 16].of(color);
        if let Some(old) = board.set_piece_at(sq, piece) {
            issues.push(Issue {
                refused: None,
                ply: None,
                message: format!(
                    "piece table slot {slot} puts a {color} {} on {sq}, where a {} {} already stands; \
                     the later one is kept",
                    piece.role, old.color, old.role
                ),
            });
        }
    }
    board
}

pub(super) fn first_turn(who_plays: u8, board: &Board, first: Option<&RawRecord>, issues: &mut Vec<Issue>) -> Color {
    let header_turn = match who_plays {
        0 => Color::Red,
        1 => Color::Black,
        other => {
            issues.push(Issue {
                refused: None,
                ply: None,
                message: format!("header byte 0x32 (who moves first) is {other}; expected 0 (red) or 1 (black)"),
            });
            Color::Red
        }
    };
    let Some(piece) = first.and_then(|r| square(r.from)).and_then(|sq| board.piece_at(sq)) else {
        return header_turn;
    };
    if piece.color != header_turn && who_plays <= 1 {
        issues.push(Issue {
            refused: None,
            ply: None,
            message: format!(
                "header byte 0x32 says {header_turn} moves first, but the first move moves a {} {}; {} moves first",
                piece.color, piece.role, piece.color
            ),
        });
    }
    piece.color
}

pub(super) fn start_position(board: Board, turn: Color, issues: &mut Vec<Issue>) -> Result<Position, XqfError> {
    let setup = Setup {
        board,
        turn,
        halfmoves: 0,
        fullmoves: 1,
    };
    match Position::from_setup(setup) {
        Ok(pos) => Ok(pos),
        Err(e) => {
            let why = e.to_string();
            // Composed problems (排局) sometimes have extra pawns, advisors or elephants.
            let pos = e
                .ignore_too_many_pieces()
                .map_err(|e| XqfError::BadPosition(e.to_string()))?;
            issues.push(Issue {
                refused: None,
                ply: None,
                message: format!("start position kept as a composed problem although {why}"),
            });
            Ok(pos)
        }
    }
}
