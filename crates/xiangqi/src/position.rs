//! A validated, playable position: board, side to move and counters.

use std::fmt;

use crate::movegen::{Any, Counter};
use crate::{zobrist, Bitboard, Board, Color, Fen, Move, MoveList, Piece, Role, Setup, Square};

/// A legal Xiangqi position. Made from a [`Setup`] by [`Position::from_setup`], which rejects
/// impossible arrangements, so everything here may assume one king per side and so on.
///
/// ```
/// use xiangqi::{Position, Move};
/// let pos = Position::start();
/// assert_eq!(pos.legal_moves().len(), 44);
/// let m: Move = xiangqi::notation::parse_iccs("h2e2").unwrap();
/// let pos = pos.play(m).unwrap();
/// assert_eq!(pos.fen().to_string(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    turn: Color,
    halfmoves: u32,
    fullmoves: u32,
}

/// What [`Position::do_move`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    halfmoves: u32,
}

/// One thing wrong with a setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PositionErrorKind {
    MissingKing(Color),
    TooManyKings(Color),
    /// 帅/将 outside its palace (九宫).
    KingOutsidePalace(Color, Square),
    /// An advisor (仕/士) on a point it can never reach: not one of its 5 palace points.
    AdvisorUnreachable(Color, Square),
    /// An elephant (相/象) on a point it can never reach: not one of its 7 points.
    ElephantUnreachable(Color, Square),
    /// A pawn behind its starting rank, or on a file it cannot reach before crossing the river.
    PawnUnreachable(Color, Square),
    /// More pieces of one kind than a side owns (2 of each, 5 pawns).
    TooManyPieces(Color, Role, usize),
    /// The side that is not to move is in check: the previous move would have been illegal.
    OppositeCheck(Color),
    /// The kings face each other on an open file (帅将对面).
    KingsFacing,
}

impl fmt::Display for PositionErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionErrorKind::MissingKing(c) => write!(f, "{c} has no king"),
            PositionErrorKind::TooManyKings(c) => write!(f, "{c} has more than one king"),
            PositionErrorKind::KingOutsidePalace(c, s) => write!(f, "{c} king on {s} is outside its palace"),
            PositionErrorKind::AdvisorUnreachable(c, s) => write!(f, "{c} advisor on {s} can never stand there"),
            PositionErrorKind::ElephantUnreachable(c, s) => write!(f, "{c} elephant on {s} can never stand there"),
            PositionErrorKind::PawnUnreachable(c, s) => write!(f, "{c} pawn on {s} can never stand there"),
            PositionErrorKind::TooManyPieces(c, r, n) => {
                write!(f, "{c} has {n} {r}s; at most {} allowed", r.max_count())
            }
            PositionErrorKind::OppositeCheck(c) => write!(f, "{c} is in check but it is not {c}'s move"),
            PositionErrorKind::KingsFacing => write!(f, "the kings face each other on an open file"),
        }
    }
}

/// Why a setup is not a legal position: every problem found, in board order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal position: {}", .kinds.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct PositionError {
    pub kinds: Vec<PositionErrorKind>,
    setup: Box<Setup>,
}

impl PositionError {
    /// Accepts a composed position (排局) that only breaks the piece-count limits for pawns,
    /// advisors or elephants, as XQStudio problems sometimes do.
    pub fn ignore_too_many_pieces(self) -> Result<Position, PositionError> {
        let fatal = self.kinds.iter().any(|k| match k {
            PositionErrorKind::TooManyPieces(_, r, n) => {
                !matches!(r, Role::Pawn | Role::Advisor | Role::Elephant) || *n > 16
            }
            _ => true,
        });
        if fatal {
            Err(self)
        } else {
            Ok(Position::from_setup_unchecked(*self.setup))
        }
    }
}

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv} in {fen}")]
pub struct PlayError {
    pub mv: Move,
    pub fen: String,
}

/// The state of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has legal moves.
    Ongoing,
    /// 将死: no legal move while in check. The side to move loses.
    Checkmate,
    /// 困毙: no legal move without being in check. In Xiangqi the side to move loses too.
    Stalemate,
}

impl Position {
    pub fn start() -> Position {
        Position::from_setup(Setup::default()).expect("start position is legal")
    }

    /// Validates a setup: every problem is reported, not just the first.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let kinds = validate(&setup);
        if kinds.is_empty() {
            Ok(Position::from_setup_unchecked(setup))
        } else {
            Err(PositionError {
                kinds,
                setup: Box::new(setup),
            })
        }
    }

    fn from_setup_unchecked(setup: Setup) -> Position {
        Position {
            board: setup.board,
            turn: setup.turn,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
        }
    }

    /// Parses and validates a FEN in one step.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fen: Fen = fen.parse()?;
        Ok(Position::from_setup(fen.into_setup())?)
    }

    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    pub fn fen(&self) -> Fen {
        Fen::from_setup(self.to_setup())
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture (the natural-move counter, 自然限着).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The repetition key: Zobrist hash of the placement and the side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.board.key() ^ zobrist::side_key(self.turn)
    }

    /// The key after the legal move `m`, without playing it: what [`Position::key`] would say
    /// after [`Position::do_move`].
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let code = self.board.code_at(m.from);
        let captured = self.board.code_at(m.to);
        let mut key = self.board.key() ^ zobrist::code_key(code, m.from) ^ zobrist::code_key(code, m.to);
        if captured != 0 {
            key ^= zobrist::code_key(captured, m.to);
        }
        key ^ zobrist::side_key(!self.turn)
    }

    /// The key recomputed from nothing; always equal to [`Position::key`].
    pub fn compute_key(&self) -> u64 {
        self.board.compute_key() ^ zobrist::side_key(self.turn)
    }

    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.board.king_of(color).expect("validated position has a king")
    }

    /// Enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        self.king_safety(self.turn).checkers
    }

    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Pieces of `color` that may not move freely because their king would be exposed: pinned
    /// against a rook or the other king, one of two screens before a cannon, or a horse's leg.
    pub fn pinned(&self, color: Color) -> Bitboard {
        self.king_safety(color).pinned
    }

    /// Pieces of `by` attacking `sq` on the current board (pseudo-legally: a pinned attacker
    /// still counts). A king attacks its palace steps and, along an open file, the other king.
    pub fn attackers(&self, sq: Square, by: Color) -> Bitboard {
        self.board
            .attackers_to_with(sq, by, self.board.occupied().0, self.board.occupied_transposed())
    }

    /// Pieces of the same colour as the piece on `sq` that could recapture there if it were
    /// taken (protectors, 根), counted pseudo-legally. Empty if `sq` is empty.
    pub fn defenders(&self, sq: Square) -> Bitboard {
        match self.board.piece_at(sq) {
            Some(p) => self.attackers(sq, p.color),
            None => Bitboard::EMPTY,
        }
    }

    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// The number of legal moves, counted without listing them (perft's bulk count).
    pub fn count_legal(&self) -> usize {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }

    /// Whether the side to move has a legal move (generation stops at the first).
    pub fn has_legal_move(&self) -> bool {
        let mut any = Any(false);
        self.generate(&mut any);
        any.0
    }

    pub fn is_legal(&self, m: Move) -> bool {
        self.is_legal_move(m)
    }

    pub fn status(&self) -> Status {
        if self.has_legal_move() {
            Status::Ongoing
        } else if self.is_check() {
            Status::Checkmate
        } else {
            Status::Stalemate
        }
    }

    /// Whether the move captures (an enemy piece stands on its destination).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board.piece_at(m.to).is_some()
    }

    /// Plays a move after checking it is legal.
    pub fn play(mut self, m: Move) -> Result<Position, PlayError> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(self)
        } else {
            Err(PlayError {
                mv: m,
                fen: self.fen().to_string(),
            })
        }
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]); the hot path.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        self.do_move(m);
    }

    /// Plays a legal move and returns what [`Position::undo_move`] needs to take it back.
    #[inline]
    pub fn do_move(&mut self, m: Move) -> Undo {
        let undo = Undo {
            captured: self.board.code_at(m.to),
            halfmoves: self.halfmoves,
        };
        self.board.move_piece(m.from, m.to);
        self.halfmoves = if undo.captured != 0 { 0 } else { self.halfmoves + 1 };
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !self.turn;
        undo
    }

    /// Takes back `m`, which must be the last move played with [`Position::do_move`].
    #[inline]
    pub fn undo_move(&mut self, m: Move, undo: Undo) {
        self.turn = !self.turn;
        if self.turn == Color::Black {
            self.fullmoves -= 1;
        }
        self.halfmoves = undo.halfmoves;
        self.board.unmove_piece(m.from, m.to, undo.captured);
    }

    /// The same placement with the other side to move: what the side that just moved would
    /// threaten if its opponent passed. Used to analyse moves (checks, chases, mate threats in
    /// the repetition rules); the result may have the side not to move in check, which no game
    /// reaches, and is not meant to be played on beyond such analysis.
    pub fn null_move(&self) -> Position {
        Position {
            board: self.board.clone(),
            turn: !self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The piece captured by `m`, if any.
    pub fn captured_by(&self, m: Move) -> Option<Piece> {
        self.board.piece_at(m.to)
    }

    /// Whether `color`'s king is attacked on the current board.
    pub(crate) fn in_check(&self, color: Color) -> bool {
        self.king_safety(color).checkers.any()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

/// A FEN that could not be read or is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error(transparent)]
    Parse(#[from] crate::ParseFenError),
    #[error(transparent)]
    Position(#[from] PositionError),
}

const RED_ADVISOR: [&str; 5] = ["d0", "f0", "e1", "d2", "f2"];
const RED_ELEPHANT: [&str; 7] = ["c0", "g0", "a2", "e2", "i2", "c4", "g4"];

fn home_points(points: &[&str], color: Color) -> Bitboard {
    points
        .iter()
        .map(|s| s.parse::<Square>().expect("square"))
        .map(|s| if color == Color::Red { s } else { s.flip_vertical() })
        .collect()
}

fn validate(setup: &Setup) -> Vec<PositionErrorKind> {
    use PositionErrorKind::*;
    let b = &setup.board;
    let mut kinds = Vec::new();
    for color in Color::ALL {
        let kings = b.by_piece(Role::King.of(color));
        match kings.count() {
            0 => kinds.push(MissingKing(color)),
            1 => {}
            _ => kinds.push(TooManyKings(color)),
        }
        for sq in kings {
            if !sq.in_palace_of(color) {
                kinds.push(KingOutsidePalace(color, sq));
            }
        }
        let advisor_ok = home_points(&RED_ADVISOR, color);
        for sq in b.by_piece(Role::Advisor.of(color)) & !advisor_ok {
            kinds.push(AdvisorUnreachable(color, sq));
        }
        let elephant_ok = home_points(&RED_ELEPHANT, color);
        for sq in b.by_piece(Role::Elephant.of(color)) & !elephant_ok {
            kinds.push(ElephantUnreachable(color, sq));
        }
        for sq in b.by_piece(Role::Pawn.of(color)) {
            let r = sq.rank().relative_to(color);
            let f = sq.file().index();
            // Before the river a pawn only goes straight, so it stays on its start file.
            if r < 3 || (r < 5 && f % 2 == 1) {
                kinds.push(PawnUnreachable(color, sq));
            }
        }
        for role in Role::ALL {
            let n = b.by_piece(role.of(color)).count() as usize;
            if role != Role::King && n > role.max_count() {
                kinds.push(TooManyPieces(color, role, n));
            }
        }
    }
    let one_king_each = Color::ALL.iter().all(|&c| b.by_piece(Role::King.of(c)).count() == 1);
    if one_king_each {
        // Checked whatever else is wrong, so that ignoring a piece-count error never lets an
        // attacked king through.
        let pos = Position::from_setup_unchecked(setup.clone());
        let (rk, bk) = (pos.king(Color::Red), pos.king(Color::Black));
        if rk.file() == bk.file() && (crate::attacks::between(rk, bk) & b.occupied()).is_empty() {
            kinds.push(KingsFacing);
        } else if pos.in_check(!setup.turn) {
            kinds.push(OppositeCheck(!setup.turn));
        }
    }
    kinds
}
