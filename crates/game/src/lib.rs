//! The one face both games show to everything above them — the judge, the referee, the server,
//! the engine runner — so that each of those is written once.
//!
//! A game is a position type implementing [`Game`]: it knows its legal moves, plays them, tells
//! check, gives the key under which repetitions are counted, and reads and writes moves in the
//! game's coordinate notation (ICCS, UCI) and its standard notation (Chinese, SAN).

use std::fmt;
use std::hash::Hash;

mod vocabulary;
pub use vocabulary::{BySide, Outcome};

/// A short text held inline (up to 24 bytes): coordinate moves, which a referee writes into
/// every accepted move's event and an engine match sends every ply, without an allocation.
pub use compact_str::CompactString;

/// Which game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Xiangqi,
    Chess,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Xiangqi => "xiangqi",
            Kind::Chess => "chess",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Kind {
    type Err = String;
    fn from_str(s: &str) -> Result<Kind, String> {
        match s.to_ascii_lowercase().as_str() {
            "xiangqi" | "xq" | "chinese-chess" => Ok(Kind::Xiangqi),
            "chess" => Ok(Kind::Chess),
            _ => Err(format!("unknown game {s:?} (expected xiangqi or chess)")),
        }
    }
}

/// A side: the one that moves first (red in Xiangqi, white in chess) or second (black).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// Both sides, the first first.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// The side's name in `kind`: red/black or white/black.
    pub fn name(self, kind: Kind) -> &'static str {
        match (self, kind) {
            (Side::First, Kind::Xiangqi) => "red",
            (Side::First, Kind::Chess) => "white",
            (Side::Second, _) => "black",
        }
    }
}

impl std::ops::Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.other()
    }
}

/// A move or position the game could not read, with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError(pub String);

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GameError {}

/// A position of a game and its rules of movement.
///
/// The methods are what code above the rules needs; the hot loops of a game (move generation
/// for perft, search) stay on the concrete types.
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;

    const KIND: Kind;

    /// The standard start.
    fn start() -> Self;

    /// A position from FEN (the game's own FEN dialect), validated.
    fn from_fen(fen: &str) -> Result<Self, GameError>;

    fn fen(&self) -> String;

    /// The side to move.
    fn turn(&self) -> Side;

    fn legal_moves(&self) -> Vec<Self::Move>;

    /// The number of legal moves (without listing them where the rules allow).
    fn count_legal(&self) -> usize {
        self.legal_moves().len()
    }

    fn is_legal(&self, m: Self::Move) -> bool;

    /// Plays a legal move.
    fn play(&mut self, m: Self::Move);

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool;

    /// Whether `m` makes earlier positions unreachable and restarts the move counters: a
    /// capture in Xiangqi; a capture or pawn move in chess.
    fn is_zeroing(&self, m: Self::Move) -> bool;

    /// The key under which positions are identical for repetition: placement and side to move,
    /// and in chess castling rights and a legal en-passant capture too.
    fn repetition_key(&self) -> u64;

    /// The repetition key of the position after the legal move `m`, without playing it where
    /// the game can tell (a Zobrist key is updated by the move alone).
    fn key_after(&self, m: Self::Move) -> u64 {
        let mut next = self.clone();
        next.play(m);
        next.repetition_key()
    }

    /// Reads a move in any notation the game accepts (coordinates first). The move is legal:
    /// a text that names no legal move here is an error.
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;

    /// Reads a move that obeys the pieces' movement but may leave the mover's own king
    /// attacked, where the rules make that a loss rather than an illegal move (Xiangqi 自杀).
    /// `None` where the game has no such moves or the text is not one.
    fn parse_self_check(&self, _text: &str) -> Option<Self::Move> {
        None
    }

    /// Whether `text` is written as a move in a notation the game reads, legal here or not:
    /// what tells a move that breaks the rules of movement from a text that is no move at all
    /// (a typo, a word meant as a command).
    fn reads_as_move(&self, text: &str) -> bool;

    /// The notations [`Game::parse_move`] reads, each with an example: the hint given for a
    /// text that is no move.
    const NOTATIONS: &'static str;

    /// The move in coordinates: ICCS (`h2e2`) or UCI (`e2e4`).
    fn coordinate(&self, m: Self::Move) -> String;

    /// [`Game::coordinate`], held inline: what a referee puts in each accepted move's event.
    fn coordinate_inline(&self, m: Self::Move) -> CompactString {
        CompactString::from(self.coordinate(m))
    }

    /// The move in the game's standard notation for people: Chinese (`炮二平五`) or SAN (`Nf3`).
    fn notation(&self, m: Self::Move) -> String;
}
