//! Chess behind the arbiter's one game face ([`game::Game`]). The rules are shakmaty's; this
//! crate only adapts them: FEN with the castling mode it implies, UCI and SAN moves, and the
//! FIDE identity of positions for repetition (placement, side to move, castling rights and an
//! en-passant capture only when one is legal).

pub use shakmaty;

use game::{Game, GameError, Kind, Side};
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position as _};

/// A chess position and the castling notation it is played with (Chess960 starts need
/// king-takes-rook castling moves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pos: Chess,
    mode: CastlingMode,
}

impl Position {
    pub fn new(pos: Chess, mode: CastlingMode) -> Position {
        Position { pos, mode }
    }

    /// The shakmaty position, for what the face does not cover.
    pub fn inner(&self) -> &Chess {
        &self.pos
    }

    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// Plies since the last capture or pawn move (the 50- and 75-move rules' counter).
    pub fn halfmoves(&self) -> u32 {
        self.pos.halfmoves()
    }
}

impl From<Chess> for Position {
    fn from(pos: Chess) -> Position {
        Position::new(pos, CastlingMode::Standard)
    }
}

fn side(c: Color) -> Side {
    match c {
        Color::White => Side::First,
        Color::Black => Side::Second,
    }
}

impl Game for Position {
    type Move = Move;

    const KIND: Kind = Kind::Chess;

    fn start() -> Position {
        Chess::default().into()
    }

    /// Reads standard FEN; a start whose castling rights name rooks that standard castling
    /// cannot (X-FEN, Shredder-FEN) is read as Chess960.
    fn from_fen(fen: &str) -> Result<Position, GameError> {
        let parsed: Fen = fen.trim().parse().map_err(|e| GameError(format!("{fen:?}: {e}")))?;
        match parsed.clone().into_position::<Chess>(CastlingMode::Standard) {
            Ok(pos) => Ok(Position::new(pos, CastlingMode::Standard)),
            Err(standard) => parsed
                .into_position::<Chess>(CastlingMode::Chess960)
                .map(|pos| Position::new(pos, CastlingMode::Chess960))
                .map_err(|_| GameError(format!("{fen:?}: {standard}"))),
        }
    }

    fn fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }

    fn turn(&self) -> Side {
        side(self.pos.turn())
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.pos.legal_moves().to_vec()
    }

    fn count_legal(&self) -> usize {
        self.pos.legal_moves().len()
    }

    fn is_legal(&self, m: Move) -> bool {
        self.pos.is_legal(m)
    }

    fn play(&mut self, m: Move) {
        self.pos.play_unchecked(m);
    }

    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    fn is_zeroing(&self, m: Move) -> bool {
        m.is_zeroing()
    }

    fn repetition_key(&self) -> u64 {
        let h: Zobrist64 = self.pos.zobrist_hash(EnPassantMode::Legal);
        h.0
    }

    /// UCI first (`e2e4`, `e7e8q`), then SAN (`Nf3`, `O-O`, `exd8=Q+`).
    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let t = text.trim();
        if let Ok(uci) = t.parse::<UciMove>() {
            if let Ok(m) = uci.to_move(&self.pos) {
                return Ok(m);
            }
        }
        let san: San = t
            .parse::<SanPlus>()
            .map(|s| s.san)
            .map_err(|_| GameError(format!("cannot read {t:?}: expected a UCI or SAN move")))?;
        san.to_move(&self.pos)
            .map_err(|e| GameError(format!("{t:?} is not a legal move here: {e}")))
    }

    fn reads_as_move(&self, text: &str) -> bool {
        let t = text.trim();
        t.parse::<UciMove>().is_ok() || t.parse::<SanPlus>().is_ok()
    }

    const NOTATIONS: &'static str = "UCI coordinates (e2e4, e7e8q) or SAN (Nf3, O-O, exd8=Q+)";

    fn coordinate(&self, m: Move) -> String {
        self.coordinate_inline(m).into_string()
    }

    fn coordinate_inline(&self, m: Move) -> game::CompactString {
        // Written by hand: this runs for every move a referee or an engine match takes in,
        // and the formatting machinery costs more than the move.
        let mut out = game::CompactString::const_new("");
        match m.to_uci(self.mode) {
            UciMove::Normal { from, to, promotion } => {
                for sq in [from, to] {
                    out.push(sq.file().char());
                    out.push(sq.rank().char());
                }
                if let Some(role) = promotion {
                    out.push(role.char());
                }
            }
            other => out.push_str(&other.to_string()),
        }
        out
    }

    fn notation(&self, m: Move) -> String {
        // `SanPlus::from_move` asks after every move whether the game is over (`outcome()`, a
        // full move generation, the most of a referee's work a ply). In standard chess a move
        // ends the game only by mate, and only a check can be one: moves are generated then.
        let san = San::from_move(&self.pos, m);
        let mut after = self.pos.clone();
        after.play_unchecked(m);
        let suffix = after.checkers().any().then(|| {
            if after.legal_moves().is_empty() {
                Suffix::Checkmate
            } else {
                Suffix::Check
            }
        });
        let mut out = String::with_capacity(8);
        SanPlus { san, suffix }.append_to_string(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_are_shakmatys_uci() {
        // Castling both ways and in both modes, promotions, en passant.
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "1k6/6P1/8/3pP3/8/8/1p6/4K3 w - d6 0 1",
            "1k6/6P1/8/8/8/8/1p6/4K3 b - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let moves = pos.legal_moves();
            assert!(!moves.is_empty(), "{fen}");
            for m in moves {
                assert_eq!(pos.coordinate(m), m.to_uci(pos.castling_mode()).to_string(), "{fen}");
                assert_eq!(pos.coordinate_inline(m), pos.coordinate(m), "{fen}");
                assert_eq!(pos.parse_move(&pos.coordinate(m)).unwrap(), m, "{fen}");
            }
        }
    }

    #[test]
    fn moves_read_in_both_notations_and_write_back() {
        let mut pos = Position::start();
        for (text, uci, san) in [("e2e4", "e2e4", "e4"), ("Nf6", "g8f6", "Nf6"), ("Bc4", "f1c4", "Bc4")] {
            let m = pos.parse_move(text).unwrap();
            assert_eq!(pos.coordinate(m), uci);
            assert_eq!(pos.notation(m), san);
            pos.play(m);
        }
        assert!(pos.parse_move("Ke3").is_err());
        assert!(pos.parse_move("zz").is_err());
    }

    #[test]
    fn notation_is_shakmatys_san_plus() {
        // Every legal move along random games (and the perft positions' moves) written as
        // shakmaty's own `SanPlus::from_move` writes it: checks, mates, disambiguation,
        // castling in both modes, promotions, en passant.
        let mate = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2").unwrap();
        assert_eq!(mate.notation(mate.parse_move("d8h4").unwrap()), "Qh4#");
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "1k6/6P1/8/3pP3/8/8/1p6/4K3 w - d6 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let (mut checked, mut checks, mut mates) = (0, 0, 0);
        for game in 0..240 {
            let mut pos = Position::from_fen(starts[game % starts.len()]).unwrap();
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let want = SanPlus::from_move(pos.pos.clone(), m).to_string();
                    assert_eq!(pos.notation(m), want, "{} {m:?}", pos.fen());
                    checked += 1;
                    checks += usize::from(want.ends_with('+'));
                    mates += usize::from(want.ends_with('#'));
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                pos.play(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
        assert!(
            checked > 500_000 && checks > 10_000 && mates > 100,
            "{checked} {checks} {mates}"
        );
    }

    #[test]
    fn repetition_key_ignores_an_en_passant_square_without_a_capture() {
        // After 1. e4 the FEN names e3, but no black pawn can take: same position as with "-".
        let a = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        let b = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(a.repetition_key(), b.repetition_key());
        // With a pawn that can take, it differs.
        let c = Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        let d = Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_ne!(c.repetition_key(), d.repetition_key());
    }

    #[test]
    fn chess960_fen_reads() {
        let p = Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").unwrap();
        assert_eq!(p.castling_mode(), CastlingMode::Chess960);
        assert!(Position::from_fen("not a fen").is_err());
    }
}
