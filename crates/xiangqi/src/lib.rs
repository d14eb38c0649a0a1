//! Xiangqi (中国象棋) rules: the board, legal moves, FEN and the move notations in use
//! (ICCS, engine UCI forms, WXF and Chinese), with perft for testing and benchmarking.
//!
//! ```
//! use xiangqi::{Position, Status};
//!
//! // Generate moves.
//! let pos = Position::start();
//! assert_eq!(pos.legal_moves().len(), 44);
//!
//! // Play one written in Chinese notation.
//! let m = xiangqi::notation::parse_chinese(&pos, "炮二平五").unwrap();
//! let pos = pos.play(m).unwrap();
//! assert_eq!(xiangqi::notation::to_wxf(&pos, pos.legal_moves()[0]).len(), 4);
//!
//! // Detect the end: no legal move loses, checkmate or stalemate alike.
//! let mated = Position::from_fen("3k5/9/3RR4/9/9/9/9/9/9/4K4 b").unwrap();
//! assert_eq!(mated.status(), Status::Checkmate);
//! ```

pub mod attacks;
mod bitboard;
mod board;
mod color;
pub mod fen;
mod game;
mod movegen;
mod mv;
pub mod notation;
pub mod perft;
mod position;
mod role;
mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{material, Board};
pub use color::{ByColor, Color};
pub use fen::{Fen, ParseFenError, Setup};
pub use mv::{Move, MoveList};
pub use position::{FenError, PlayError, Position, PositionError, PositionErrorKind, Status, Undo};
pub use role::{ByRole, Piece, Role};
pub use square::{File, ParseSquareError, Rank, Square};
