//! A FEN that does not read, as a problem with its place in the FEN for arguments: from the
//! xiangqi crate's typed error, and from shakmaty's for chess.

use chess::shakmaty::fen::{Fen, ParseFenError};
use chess::shakmaty::{CastlingMode, Chess};
use xiangqi::{FenError, ParseFenError as XiangqiParse, PositionErrorKind as Illegal};

use super::Problem;
use crate::error::ApiError;

/// Why the xiangqi `fen` does not read or is no legal position, or `None` where it is one;
/// `english` writes the error's English from the xiangqi crate's.
pub fn xiangqi_fen(fen: &str, english: impl FnOnce(&FenError) -> String) -> Option<ApiError> {
    let e = xiangqi::Position::from_fen(fen).err()?;
    let text = english(&e);
    let said = |p| ApiError::bad(p, text.clone());
    Some(match &e {
        FenError::Parse(p) => match p {
            XiangqiParse::Empty => said(Problem::FenEmpty),
            XiangqiParse::RankCount(n) => said(Problem::FenRanks).arg("ranks", *n),
            XiangqiParse::RankWidth { rank, files } => {
                said(Problem::FenRankWidth).arg("rank", *rank).arg("files", *files)
            }
            XiangqiParse::BadChar { rank, ch } => said(Problem::FenCharacter)
                .arg("rank", *rank)
                .arg("character", ch.to_string()),
            XiangqiParse::BadTurn(t) => said(Problem::FenTurn).arg("turn", t.as_str()),
            // The field by its place (5: the half-move clock, 6: the move number), which
            // needs no translation.
            XiangqiParse::BadNumber { field, value } => said(Problem::FenNumber)
                .arg("field", if field.starts_with("half") { 5 } else { 6 })
                .arg("value", value.as_str()),
            XiangqiParse::TooManyFields(n) => said(Problem::FenFields).arg("fields", *n),
        },
        // The first problem: one sentence a person can act on; the English lists them all.
        FenError::Position(p) => match p.kinds.first() {
            Some(Illegal::MissingKing(c)) => said(Problem::FenNoKing).arg("side", c.name()),
            Some(Illegal::TooManyKings(c)) => said(Problem::FenKings).arg("side", c.name()),
            Some(Illegal::KingOutsidePalace(c, s)) => said(Problem::FenKingOutsidePalace)
                .arg("side", c.name())
                .arg("square", s.to_string()),
            Some(Illegal::AdvisorUnreachable(c, s)) => said(Problem::FenAdvisor)
                .arg("side", c.name())
                .arg("square", s.to_string()),
            Some(Illegal::ElephantUnreachable(c, s)) => said(Problem::FenElephant)
                .arg("side", c.name())
                .arg("square", s.to_string()),
            Some(Illegal::PawnUnreachable(c, s)) => said(Problem::FenPawn)
                .arg("side", c.name())
                .arg("square", s.to_string()),
            Some(Illegal::TooManyPieces(c, r, n)) => said(Problem::FenPieces)
                .arg("side", c.name())
                .arg("piece", r.of(*c).fen_char().to_string())
                .arg("count", *n)
                .arg("max", r.max_count()),
            Some(Illegal::OppositeCheck(c)) => said(Problem::FenOppositeCheck).arg("side", c.name()),
            Some(Illegal::KingsFacing) => said(Problem::FenKingsFacing),
            None => said(Problem::BadRequest).arg("detail", text.clone()),
        },
    })
}

/// Why the start of a `position …` line (the review's `moves` form) does not read, or `None`;
/// `english` is the error's English.
pub fn fen_moves_start(line: &str, english: String) -> Option<ApiError> {
    match records::files::fen_moves_parts(line) {
        ("startpos", _, _) => None,
        (fen, true, _) => chess_fen(fen, |_| english),
        (fen, false, _) => xiangqi_fen(fen, |_| english),
    }
}

/// Why the chess `fen` does not read or is no legal position (in standard chess nor in
/// Chess960, as the chess crate reads it), or `None` where it is one; `english` writes the
/// error's English from shakmaty's.
pub fn chess_fen(fen: &str, english: impl FnOnce(&str) -> String) -> Option<ApiError> {
    let parsed = match Fen::from_ascii(fen.trim().as_bytes()) {
        Ok(parsed) => parsed,
        Err(e) => {
            let problem = match e {
                ParseFenError::InvalidBoard => Problem::ChessFenBoard,
                ParseFenError::InvalidTurn => Problem::ChessFenTurn,
                ParseFenError::InvalidCastling => Problem::ChessFenCastling,
                ParseFenError::InvalidEpSquare => Problem::ChessFenEnPassant,
                ParseFenError::InvalidHalfmoveClock | ParseFenError::InvalidFullmoves => Problem::ChessFenNumber,
                _ => Problem::ChessFen,
            };
            return Some(ApiError::bad(problem, english(&e.to_string())));
        }
    };
    let standard = parsed.clone().into_position::<Chess>(CastlingMode::Standard).err()?;
    parsed.into_position::<Chess>(CastlingMode::Chess960).err()?;
    let detail = standard.to_string();
    Some(ApiError::bad(Problem::ChessPosition, english(&detail)).arg("detail", detail))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(e: Option<ApiError>) -> (String, serde_json::Value) {
        let body = e.expect("an error").body();
        (body["why"].as_str().unwrap().to_string(), body["args"].clone())
    }

    #[test]
    fn a_xiangqi_fen_says_where_it_fails() {
        let english = |e: &FenError| format!("fen: {e}");
        assert!(xiangqi_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", english).is_none());
        let (code, args) = why(xiangqi_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
            english,
        ));
        assert_eq!(code, "fen_rank_width");
        assert_eq!(args, serde_json::json!({"rank": 10, "files": 8}));
        let (code, args) = why(xiangqi_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAxABNR w",
            english,
        ));
        assert_eq!((code.as_str(), &args["character"]), ("fen_character", &"x".into()));
        let (code, args) = why(xiangqi_fen("4k4/9/9/9/9/9/9/9/9/4K4 w", english));
        assert_eq!((code.as_str(), args), ("fen_kings_facing", serde_json::Value::Null));
        let (code, args) = why(xiangqi_fen("3k5/9/9/9/9/9/9/9/9/RRR1K4 w", english));
        assert_eq!(code, "fen_pieces");
        assert_eq!(
            args,
            serde_json::json!({"side": "red", "piece": "R", "count": 3, "max": 2})
        );
    }

    #[test]
    fn a_chess_fen_says_which_field_fails() {
        let english = |e: &str| format!("fen: {e}");
        assert!(chess_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", english).is_none());
        let (code, _) = why(chess_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            english,
        ));
        assert_eq!(code, "chess_fen_turn");
        let (code, args) = why(chess_fen("8/8/8/8/8/8/8/8 w - - 0 1", english));
        assert_eq!(code, "chess_position");
        assert!(args["detail"].as_str().is_some_and(|d| !d.is_empty()));
    }
}
