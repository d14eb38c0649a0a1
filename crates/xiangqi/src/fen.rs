//! Xiangqi FEN (xqbase "FEN文件格式"): read leniently, written in the standard form.
//!
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`
//!
//! Accepted variants: `E`/`H` for elephant/horse, side `w`/`r`/`red` or `b`/`black`, 2 to 6
//! fields (Pikafish and cchess print only the first two).

use std::fmt;
use std::str::FromStr;

use crate::{Board, Color, Piece, Square};

/// An arrangement read from text, not yet checked for legality: a board, the side to move, the
/// plies since the last capture and the move number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    /// Plies since the last capture (the natural-move counter).
    pub halfmoves: u32,
    /// Move number, starting at 1 and increasing after black moves.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Fen::START.parse::<Fen>().expect("start FEN").into_setup()
    }
}

/// A FEN string, parsed. Displaying it prints the standard six-field form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fen(pub Setup);

impl Fen {
    pub const START: &'static str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    pub fn into_setup(self) -> Setup {
        self.0
    }

    pub fn from_setup(setup: Setup) -> Fen {
        Fen(setup)
    }

    /// Only the placement and side, the form used as a position identity.
    pub fn board_and_turn(&self) -> String {
        let s = self.to_string();
        s.split(' ').take(2).collect::<Vec<_>>().join(" ")
    }
}

/// Why a FEN string could not be read. Each variant says where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseFenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN board has {0} ranks; expected 10 separated by '/'")]
    RankCount(usize),
    #[error("FEN rank {rank} (counting from the top, 1-10) describes {files} files; expected 9")]
    RankWidth { rank: usize, files: usize },
    #[error("unexpected character {ch:?} in FEN rank {rank} (counting from the top, 1-10)")]
    BadChar { rank: usize, ch: char },
    #[error("unknown side to move {0:?}; expected w, r, red, b or black")]
    BadTurn(String),
    #[error("bad {field} field {value:?}; expected a number")]
    BadNumber { field: &'static str, value: String },
    #[error("FEN has {0} fields; expected at most 6")]
    TooManyFields(usize),
}

impl FromStr for Fen {
    type Err = ParseFenError;

    fn from_str(s: &str) -> Result<Fen, ParseFenError> {
        let fields: Vec<&str> = s.split_ascii_whitespace().collect();
        let placement = *fields.first().ok_or(ParseFenError::Empty)?;
        if fields.len() > 6 {
            return Err(ParseFenError::TooManyFields(fields.len()));
        }
        let board = parse_placement(placement)?;
        let turn = match fields.get(1).map(|t| t.to_ascii_lowercase()) {
            None => Color::Red,
            Some(t) => match t.as_str() {
                "w" | "r" | "red" => Color::Red,
                "b" | "black" => Color::Black,
                _ => return Err(ParseFenError::BadTurn(t)),
            },
        };
        // Fields 3 and 4 (castling, en passant) are always "-" in Xiangqi; tolerate anything.
        let number = |i: usize, field: &'static str, default: u32| -> Result<u32, ParseFenError> {
            match fields.get(i) {
                None => Ok(default),
                Some(v) => v.parse().map_err(|_| ParseFenError::BadNumber {
                    field,
                    value: v.to_string(),
                }),
            }
        };
        let halfmoves = number(4, "halfmove clock", 0)?;
        let fullmoves = number(5, "move number", 1)?.max(1);
        Ok(Fen(Setup {
            board,
            turn,
            halfmoves,
            fullmoves,
        }))
    }
}

fn parse_placement(s: &str) -> Result<Board, ParseFenError> {
    let ranks: Vec<&str> = s.split('/').collect();
    if ranks.len() != 10 {
        return Err(ParseFenError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = 9 - i as i32;
        let mut file = 0usize;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 {
                    return Err(ParseFenError::BadChar { rank: i + 1, ch });
                }
                file += d as usize;
            } else if let Some(p) = Piece::from_fen_char(ch) {
                if file < 9 {
                    let sq = Square::from_xy(file as i32, rank).expect("on board");
                    board.set_piece_at(sq, p);
                }
                file += 1;
            } else {
                return Err(ParseFenError::BadChar { rank: i + 1, ch });
            }
        }
        if file != 9 {
            return Err(ParseFenError::RankWidth {
                rank: i + 1,
                files: file,
            });
        }
    }
    Ok(board)
}

/// Writes the placement part of a FEN.
pub(crate) fn write_placement(board: &Board, f: &mut impl fmt::Write) -> fmt::Result {
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            let sq = Square::from_xy(file, rank).expect("on board");
            match board.piece_at(sq) {
                Some(p) => {
                    if empty > 0 {
                        write!(f, "{empty}")?;
                        empty = 0;
                    }
                    f.write_char(p.fen_char())?;
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            write!(f, "{empty}")?;
        }
        if rank > 0 {
            f.write_char('/')?;
        }
    }
    Ok(())
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.0;
        write_placement(&s.board, f)?;
        write!(f, " {} - - {} {}", s.turn.fen_char(), s.halfmoves, s.fullmoves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_start() {
        let fen: Fen = Fen::START.parse().unwrap();
        assert_eq!(fen.to_string(), Fen::START);
    }

    #[test]
    fn variants_accepted() {
        let a: Fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r"
            .parse()
            .unwrap();
        assert_eq!(a.to_string(), Fen::START);
        let b: Fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12"
            .parse()
            .unwrap();
        assert_eq!((b.0.turn, b.0.halfmoves, b.0.fullmoves), (Color::Black, 7, 12));
    }

    #[test]
    fn errors_say_where() {
        assert_eq!("".parse::<Fen>(), Err(ParseFenError::Empty));
        assert_eq!("9/9".parse::<Fen>(), Err(ParseFenError::RankCount(2)));
        assert_eq!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/8/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".parse::<Fen>(),
            Err(ParseFenError::RankWidth { rank: 5, files: 8 })
        );
        assert_eq!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w".parse::<Fen>(),
            Err(ParseFenError::BadChar { rank: 10, ch: 'X' })
        );
        assert!(matches!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x".parse::<Fen>(),
            Err(ParseFenError::BadTurn(_))
        ));
    }
}
