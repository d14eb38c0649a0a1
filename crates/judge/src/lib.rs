//! The judge: given a game — a start position and its moves — whether it has ended, who won or
//! that it is drawn, why, at which ply and under which rule.
//!
//! - [`xiangqi`]: the rulesets `cxa` (default), `axf` and `simplified`: checkmate and stalemate
//!   lose, the repetition rules (棋例) with every move of the cycle classified, the natural move
//!   limit, dead positions.
//! - [`chess`]: FIDE on shakmaty: checkmate, stalemate, threefold/fivefold repetition, the
//!   50/75-move rules, dead positions.
//!
//! Both judges take moves one at a time ([`Judge::push`]), so the referee can rule live, and
//! [`judge_game`] judges a whole line. [`record`] takes a game record (or moves a user typed)
//! to the judged game, for `arbiter judge` and the server's review alike.

pub mod because;
pub mod chess;
mod forbidden;
pub mod record;
pub mod verdict;
pub mod xiangqi;

pub use because::{Because, Lang};
pub use forbidden::forbidden_moves;
pub use verdict::{CycleMove, MoveClass, Outcome, Reason, Repetition, SidePattern, Verdict};

use game::Game;

/// Why a move was not judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JudgeError {
    /// The move is not legal at this ply (1-based: the ply it would have been).
    Illegal { ply: usize, mv: String },
    /// The game had already ended at `ended_at`; the move at `ply` comes after the end.
    AfterEnd { ply: usize, ended_at: usize },
}

impl std::fmt::Display for JudgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JudgeError::Illegal { ply, mv } => write!(f, "ply {ply}: {mv} is not a legal move"),
            JudgeError::AfterEnd { ply, ended_at } => {
                write!(f, "ply {ply}: the game already ended at ply {ended_at}")
            }
        }
    }
}

impl std::error::Error for JudgeError {}

/// A game being judged move by move. A judge is cloned to take a game back (an arbiter's
/// corrections replay the moves that stand on a copy of the judge the game began with).
pub trait Judge: Clone {
    type Game: Game;

    /// The position now.
    fn position(&self) -> &Self::Game;

    /// Plies played so far.
    fn ply(&self) -> usize;

    /// Reads a move in the position now, as [`Game::parse_move`] does (same moves, same
    /// errors). A judge that already holds the position's legal moves looks the move up in
    /// them rather than work out its legality again.
    fn parse_move(&self, text: &str) -> Result<<Self::Game as Game>::Move, game::GameError> {
        self.position().parse_move(text)
    }

    /// The legal moves in the position now, when the judge keeps them listed (as both games'
    /// judges do, to check each move): callers need not generate them again.
    fn legal_moves_now(&self) -> Option<&[<Self::Game as Game>::Move]> {
        None
    }

    /// The ruleset's name.
    fn ruleset(&self) -> &str;

    /// Plays `m` and rules on the position it makes. Returns the verdict when the game ends
    /// by rule (automatically) with this move.
    fn push(&mut self, m: <Self::Game as Game>::Move) -> Result<Option<&Verdict>, JudgeError>;

    /// The verdict that ended the game, if it has ended by rule.
    fn verdict(&self) -> Option<&Verdict>;

    /// A draw the player to move (or either player) may claim now, if any (chess threefold and
    /// 50-move rules, including by announcing a move that makes them; claimable move limits).
    fn claimable(&self) -> Option<Verdict>;

    /// A draw claimable in the position on the board itself, not by announcing a move that
    /// would make it: what an engine-match runner claims for its engines (fastchess rules a
    /// repetition or the 50-move rule once it stands on the board; an engine that would play on
    /// past a draw it could claim by its next move must be let play on).
    fn claimable_now(&self) -> Option<Verdict> {
        self.claimable()
    }

    /// A ruling given but not yet in force: a side told to vary from a forbidden repetition,
    /// with the loss it faces if it does not.
    fn pending(&self) -> Option<&Verdict> {
        None
    }

    /// Whether `side` could still win by some series of legal moves: `Some(false)` only when
    /// proven impossible (a flag fall then draws instead of losing), `None` when unknown.
    fn can_win(&self, _side: game::Side) -> Option<bool> {
        None
    }

    /// The repetition keys of the positions that can still recur — every position since the
    /// last move that makes earlier ones unreachable — with the ply of the first; `None` when
    /// the judge does not keep them. [`forbidden_moves`] uses them to look only at the moves
    /// that repeat a position.
    fn recurrable(&self) -> Option<(usize, &[u64])> {
        None
    }

    /// The legal moves that bring back a position that can still recur ([`Judge::recurrable`]),
    /// each with that position's key, when the judge finds them without working out every
    /// legal move's key; `None` when it does not. [`forbidden_moves`] tries only these.
    fn moves_back(&self) -> Option<Vec<(<Self::Game as Game>::Move, u64)>> {
        None
    }
}

/// The ruling on a whole game: the verdict at the first ply where the game ended by rule;
/// otherwise a draw available by claim in the final position; otherwise `Ongoing` at the last
/// ply. Moves after an end, or an illegal move, are the error.
pub fn judge_game<J: Judge>(judge: &mut J, moves: &[<J::Game as Game>::Move]) -> Result<Verdict, JudgeError> {
    for &m in moves {
        if let Some(v) = judge.verdict() {
            return Err(JudgeError::AfterEnd {
                ply: judge.ply() + 1,
                ended_at: v.ply,
            });
        }
        judge.push(m)?;
    }
    Ok(final_verdict(judge))
}

/// A line of moves judged as far as the judge takes it (see [`judge_line`]).
#[derive(Debug, Clone)]
pub struct LineRuling {
    /// The verdict where judging stopped (see [`final_verdict`]).
    pub verdict: Verdict,
    /// A ruling waiting on a side told to vary, at the end of the moves.
    pub pending: Option<Verdict>,
    /// The move the judge refused (after the end of the game, or illegal), where judging stopped.
    pub stopped: Option<JudgeError>,
}

/// Judges `moves` one by one, stopping at the first the judge refuses — unlike
/// [`judge_game`], a record with moves after its end still gets the verdict at the end.
pub fn judge_line<J: Judge>(judge: &mut J, moves: &[<J::Game as Game>::Move]) -> LineRuling {
    let mut stopped = None;
    for &m in moves {
        if let Some(v) = judge.verdict() {
            stopped = Some(JudgeError::AfterEnd {
                ply: judge.ply() + 1,
                ended_at: v.ply,
            });
            break;
        }
        if let Err(e) = judge.push(m) {
            stopped = Some(e);
            break;
        }
    }
    ruling_now(judge, stopped)
}

/// The ruling in the judge's current state, judging having stopped at `stopped` (if anywhere).
pub fn ruling_now<J: Judge>(judge: &J, stopped: Option<JudgeError>) -> LineRuling {
    LineRuling {
        verdict: final_verdict(judge),
        pending: judge
            .pending()
            .filter(|p| !p.claim && judge.verdict().is_none())
            .cloned(),
        stopped,
    }
}

/// The verdict in the judge's current state (see [`judge_game`]).
pub fn final_verdict<J: Judge>(judge: &J) -> Verdict {
    if let Some(v) = judge.verdict() {
        return v.clone();
    }
    judge.claimable().unwrap_or_else(|| {
        Verdict::new(
            Outcome::Ongoing,
            Reason::NotOver,
            judge.ply(),
            judge.ruleset(),
            false,
            Because::NotOver,
        )
    })
}
