//! Xiangqi's face as a [`game::Game`], for the judge, the referee and everything above them.

use game::{Game, GameError, Kind, Side};

use crate::notation::{parse_any, parse_chinese, parse_fsf, parse_iccs, parse_wxf, to_chinese, to_iccs, NotationError};
use crate::{Color, Move, Position};

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Red => Side::First,
            Color::Black => Side::Second,
        }
    }
}

impl Game for Position {
    type Move = Move;

    const KIND: Kind = Kind::Xiangqi;

    fn start() -> Position {
        Position::start()
    }

    fn from_fen(fen: &str) -> Result<Position, GameError> {
        Position::from_fen(fen).map_err(|e| GameError(e.to_string()))
    }

    fn fen(&self) -> String {
        Position::fen(self).to_string()
    }

    fn turn(&self) -> Side {
        Position::turn(self).into()
    }

    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self).as_slice().to_vec()
    }

    fn count_legal(&self) -> usize {
        Position::count_legal(self)
    }

    fn is_legal(&self, m: Move) -> bool {
        Position::is_legal(self, m)
    }

    fn play(&mut self, m: Move) {
        self.play_unchecked(m);
    }

    fn is_check(&self) -> bool {
        Position::is_check(self)
    }

    fn is_zeroing(&self, m: Move) -> bool {
        self.is_capture(m)
    }

    fn repetition_key(&self) -> u64 {
        self.key()
    }

    fn key_after(&self, m: Move) -> u64 {
        Position::key_after(self, m)
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        parse_any(self, text).map_err(|e| GameError(e.to_string()))
    }

    fn parse_self_check(&self, text: &str) -> Option<Move> {
        match parse_any(self, text) {
            Err(NotationError::Illegal { self_check, .. }) => self_check,
            _ => None,
        }
    }

    /// Each reader tells a text it cannot read (a syntax error) from a move it read but finds
    /// no legal move for.
    fn reads_as_move(&self, text: &str) -> bool {
        let t = text.trim();
        let read = |r: Result<Move, NotationError>| !matches!(r, Err(NotationError::Syntax { .. }));
        parse_iccs(t).is_ok() || parse_fsf(t).is_ok() || read(parse_wxf(self, t)) || read(parse_chinese(self, t))
    }

    const NOTATIONS: &'static str =
        "ICCS coordinates (h2e2, H2-E2), Fairy-Stockfish coordinates (h3e3), WXF (C2.5, H8+7) or Chinese (炮二平五)";

    fn coordinate(&self, m: Move) -> String {
        to_iccs(m)
    }

    fn coordinate_inline(&self, m: Move) -> game::CompactString {
        let b = m.iccs_bytes();
        // ICCS is four ASCII bytes.
        game::CompactString::from_utf8(b).unwrap_or_default()
    }

    fn notation(&self, m: Move) -> String {
        to_chinese(self, m)
    }
}
