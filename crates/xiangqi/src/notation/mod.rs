//! Move notations: parse a move written for a position, and write one.
//!
//! - [`iccs`]: coordinates, `h2e2` / `H2-E2`, and Fairy-Stockfish's 1–10 ranks (`h3e3`).
//! - [`wxf`]: `C2.5`, `H8+7`, tandem pieces `R+.3`, pawn files `3+.4`.
//! - [`chinese`]: `炮二平五`, `马８进７`, `前车进一`, simplified or traditional.
//!
//! WXF and Chinese describe a move relative to the mover, so both need the position; they share
//! one model ([`describe`]), and a written move is matched against the descriptions of the legal
//! moves, which is how real records that leave out 前/后 still read.

pub mod chinese;
mod describe;
pub mod iccs;
pub mod wxf;

pub use chinese::{parse_chinese, to_chinese};
pub use iccs::{parse_fsf, parse_iccs, to_fsf, to_iccs, to_iccs_pgn};
pub use wxf::{parse_wxf, to_wxf};

use crate::{Move, Position};

/// A move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("{text:?} is not a move in this notation: expected {expected}")]
    Syntax { text: String, expected: &'static str },
    #[error("{text:?} is not a legal move here: no piece can make it")]
    NoMatch { text: String },
    #[error("{text:?} is ambiguous: it fits {candidates}")]
    Ambiguous { text: String, candidates: String },
    #[error("{text:?} is not a legal move here{}", why_illegal(self_check))]
    Illegal {
        text: String,
        /// The move the text names when a piece can make it and only the mover's own king
        /// forbids it (left in check, or facing the other king): a move some rules rule on
        /// (a loss under CXA) rather than refuse.
        self_check: Option<Move>,
    },
}

impl NotationError {
    /// Whether the text is not a move in the notation at all (as against a move that is not
    /// legal in the position).
    pub fn is_syntax(&self) -> bool {
        matches!(self, NotationError::Syntax { .. })
    }

    /// An error for `m`, read from `text`, which is not legal in `pos`.
    pub fn illegal(pos: &Position, text: &str, m: Move) -> NotationError {
        NotationError::Illegal {
            text: text.to_string(),
            self_check: pos.is_pseudo_legal(m).then_some(m),
        }
    }
}

fn why_illegal(self_check: &Option<Move>) -> &'static str {
    match self_check {
        Some(_) => ": it leaves the mover's king in check or facing the other king",
        None => "",
    }
}

/// The notations a move can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Notation {
    /// `h2e2`
    Iccs,
    /// `h3e3` (Fairy-Stockfish ranks 1–10)
    Fsf,
    /// `C2.5`
    Wxf,
    /// `炮二平五`
    Chinese,
}

impl std::str::FromStr for Notation {
    type Err = String;
    fn from_str(s: &str) -> Result<Notation, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "iccs" | "uci" | "ucci" => Notation::Iccs,
            "fsf" | "fairy" => Notation::Fsf,
            "wxf" => Notation::Wxf,
            "chinese" | "zh" | "cn" => Notation::Chinese,
            _ => return Err(format!("unknown notation {s:?}; expected iccs, fsf, wxf or chinese")),
        })
    }
}

impl Notation {
    /// Writes `m`, a legal move of `pos`.
    pub fn write(self, pos: &Position, m: Move) -> String {
        match self {
            Notation::Iccs => to_iccs(m),
            Notation::Fsf => to_fsf(m),
            Notation::Wxf => to_wxf(pos, m),
            Notation::Chinese => to_chinese(pos, m),
        }
    }

    /// Reads a move written in this notation; the result is legal in `pos`.
    pub fn parse(self, pos: &Position, text: &str) -> Result<Move, NotationError> {
        let m = match self {
            Notation::Iccs => parse_iccs(text)?,
            Notation::Fsf => parse_fsf(text)?,
            Notation::Wxf => return parse_wxf(pos, text),
            Notation::Chinese => return parse_chinese(pos, text),
        };
        if pos.is_legal(m) {
            Ok(m)
        } else {
            Err(NotationError::illegal(pos, text, m))
        }
    }
}

/// Reads a move in any notation: coordinates first, then WXF, then Chinese. An error says the
/// most it can: that the text names an illegal move in some notation before that it reads in
/// none.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    if let Ok(m) = parse_iccs(t) {
        return if pos.is_legal(m) {
            Ok(m)
        } else {
            Err(NotationError::illegal(pos, t, m))
        };
    }
    if t.is_ascii() {
        if let Ok(m) = parse_wxf(pos, t) {
            return Ok(m);
        }
        if let Ok(m) = parse_fsf(t) {
            if pos.is_legal(m) {
                return Ok(m);
            }
        }
    }
    match parse_chinese(pos, t) {
        Err(e) if e.is_syntax() => {}
        read => return read,
    }
    match parse_wxf(pos, t) {
        Err(e) if e.is_syntax() => Err(NotationError::Syntax {
            text: t.to_string(),
            expected: ANY,
        }),
        read => read,
    }
}

/// What [`parse_any`] reads.
const ANY: &str = "a move in coordinates (h2e2), WXF (C2.5) or Chinese notation (炮二平五)";
