//! The draws a player may claim (FIDE 9.2, 9.3): now, or by announcing the move that makes
//! them. Each "by a move" search first asks a cheap question — could any move reach the count
//! at all? — so that the common ply costs nothing here.

use ::chess::shakmaty::zobrist::Zobrist64;
use ::chess::shakmaty::{EnPassantMode, Move, Position as _};
use game::Game;

use super::ChessJudge;
use crate::because::{Because, ChessClaim};
use crate::{Outcome, Reason, Verdict};

impl ChessJudge {
    /// The move rule's count is complete (FIDE 9.3.2).
    pub(super) fn move_rule_claim_now(&self) -> Option<Verdict> {
        let claim = self.rules.move_rule_claim_plies()?;
        (self.pos.halfmoves() >= claim).then(|| {
            let because = Because::ChessMoveRule {
                moves: claim / 2,
                how: ChessClaim::Now { by: self.mover() },
                article: self.rules.articles.move_rule_now,
            };
            self.ruling(Outcome::Draw, Reason::FiftyMoveRule, true, because)
        })
    }

    /// Whether some move could complete the move rule's count (before trying each).
    pub(super) fn move_rule_claim_by_any(&self) -> Option<Verdict> {
        let claim = self.rules.move_rule_claim_plies()?;
        if self.pos.halfmoves() + 1 < claim {
            return None;
        }
        self.moves.iter().find_map(|&m| self.move_rule_claim_by(m))
    }

    /// `m` completes the move rule's count (FIDE 9.3.1) and leaves the opponent a legal move
    /// (otherwise the move ends the game by mate or stalemate; python-chess asks the same).
    pub(super) fn move_rule_claim_by(&self, m: Move) -> Option<Verdict> {
        let claim = self.rules.move_rule_claim_plies()?;
        if m.is_zeroing() || self.pos.halfmoves() + 1 < claim {
            return None;
        }
        let mut after = self.pos.clone();
        after.play(m);
        if after.count_legal() == 0 {
            return None;
        }
        let because = Because::ChessMoveRule {
            moves: claim / 2,
            how: ChessClaim::ByMove {
                by: self.mover(),
                mv: self.pos.notation(m),
            },
            article: self.rules.articles.move_rule_by_move,
        };
        Some(self.ruling(Outcome::Draw, Reason::FiftyMoveRule, true, because))
    }

    /// The current position stands for the claim count's time (FIDE 9.2.1.2).
    pub(super) fn repetition_claim_now(&self) -> Option<Verdict> {
        let claim = self.rules.repetition_claim_count()?;
        (self.occurrences() >= claim).then(|| {
            let because = Because::ChessRepetition {
                count: claim,
                plies: self.plies_of_current(),
                how: ChessClaim::Now { by: self.mover() },
                article: self.rules.articles.repetition_now,
            };
            self.ruling(Outcome::Draw, Reason::ThreefoldRepetition, true, because)
        })
    }

    /// Whether some move could repeat a position often enough (before trying each).
    pub(super) fn repetition_claim_by_any(&self) -> Option<Verdict> {
        let claim = self.rules.repetition_claim_count()?;
        if self.history.most_at(self.ply + 1) + 1 < claim {
            return None;
        }
        self.moves.iter().find_map(|&m| self.repetition_claim_by(m))
    }

    /// The position `m` makes would stand for the claim count's time (FIDE 9.2.1.1).
    pub(super) fn repetition_claim_by(&self, m: Move) -> Option<Verdict> {
        let claim = self.rules.repetition_claim_count()?;
        let next = self.ply + 1;
        if m.is_zeroing() || self.history.most_at(next) + 1 < claim {
            return None;
        }
        let key = self.key_after(m);
        if self.history.count_at(key, next) < claim {
            return None;
        }
        let mut plies: Vec<usize> = self.history.plies_of(key, next).collect();
        plies.reverse();
        let because = Because::ChessRepetition {
            count: claim,
            plies,
            how: ChessClaim::ByMove {
                by: self.mover(),
                mv: self.pos.notation(m),
            },
            article: self.rules.articles.repetition_by_move,
        };
        Some(self.ruling(Outcome::Draw, Reason::ThreefoldRepetition, true, because))
    }

    /// The repetition key after the legal move `m`: updated in place where shakmaty can,
    /// recomputed otherwise (king moves, castling rights, en passant).
    fn key_after(&self, m: Move) -> u64 {
        let inner = self.pos.inner();
        match inner.update_zobrist_hash(Zobrist64(self.key), m, EnPassantMode::Legal) {
            Some(z) => z.0,
            None => {
                let mut after = self.pos.clone();
                after.play(m);
                after.repetition_key()
            }
        }
    }
}
