//! The chess judge: the FIDE Laws of Chess (2023) on shakmaty's move rules.
//!
//! After each move, in this order: checkmate (5.1.1), stalemate (5.2.1), the automatic draws by
//! fivefold repetition (9.6.1) and seventy-five moves (9.6.2, after checkmate, which takes
//! precedence), and a dead position (5.2.2, see [`dead`]). The draws a player may claim —
//! threefold repetition (9.2) and fifty moves (9.3), now or by announcing the move that makes
//! them — are what [`Judge::claimable`] reports; [`ChessJudge::status`] gives either.
//!
//! Positions are the same for repetition when their [`game::Game::repetition_key`]s are
//! (FIDE 9.2.2: placement, side to move, castling rights, and an en-passant capture only when
//! one is legal). They are counted since the last capture or pawn move, before which no
//! position can recur; a game from FEN counts its start as the first occurrence.
//!
//! Each ply costs one legal-move generation (which also checks the next move's legality), an
//! incremental key update and a scan of the positions since the last capture or pawn move; the
//! dead-position tests run only after captures and pawn moves (and a declined en-passant
//! capture), and their search only for small locked pawn structures.

mod claims;
pub mod dead;
mod history;
mod rules;

pub use dead::{can_checkmate, can_checkmate_within, dead_position, Dead, Mate, Proof, SEARCH_BUDGET};
pub use rules::{Articles, ChessRules};

use ::chess::shakmaty::uci::UciMove;
use ::chess::shakmaty::zobrist::Zobrist64;
use ::chess::shakmaty::{EnPassantMode, Move, Position as _};
use ::chess::Position;
use game::Game;

use crate::because::{Because, ChessClaim, DeadWhy};
use crate::{Judge, JudgeError, Outcome, Reason, Verdict};
use history::History;

/// A chess game judged move by move under a [`ChessRules`].
#[derive(Debug, Clone)]
pub struct ChessJudge {
    rules: ChessRules,
    pos: Position,
    ply: usize,
    /// The current position's repetition key.
    key: u64,
    /// The current position's legal moves: the next move is checked against them. (In a `Vec`
    /// rather than shakmaty's fixed-capacity list, which would make the judge 2 KiB to clone;
    /// the per-ply cost measured the same.)
    moves: Vec<Move>,
    history: History,
    verdict: Option<Verdict>,
    /// The dead-position proof for the current material and pawns, if any.
    dead: Option<Dead>,
}

impl ChessJudge {
    /// A judge for a game from `start`, which is ruled on at once (a start that is already
    /// mate, stalemate or dead has its verdict at ply 0).
    pub fn new(start: Position, rules: ChessRules) -> ChessJudge {
        let key = start.repetition_key();
        let moves = start.inner().legal_moves().to_vec();
        let mut judge = ChessJudge {
            rules,
            pos: start,
            ply: 0,
            key,
            moves,
            history: History::new(key),
            verdict: None,
            dead: None,
        };
        judge.verdict = judge.rule(1, true);
        judge
    }

    pub fn rules(&self) -> &ChessRules {
        &self.rules
    }

    /// The legal moves in the current position.
    pub fn legal_moves(&self) -> &[Move] {
        &self.moves
    }

    /// How often the current position has stood (counting now).
    pub fn occurrences(&self) -> u32 {
        self.history.count_at(self.key, self.ply)
    }

    /// The proof that the current position is dead, if one was found.
    pub fn dead(&self) -> Option<Dead> {
        self.dead
    }

    /// The game's state now: the verdict if it has ended by rule, else a draw the player to
    /// move may claim, else `None`.
    ///
    /// This answers what python-chess's `board.outcome(claim_draw=True)` does, with two
    /// differences in the reason only: python-chess tests insufficient material before
    /// stalemate and seventy-five moves before fivefold repetition; and it knows dead
    /// positions only as insufficient material, where this judge also proves locked pawn
    /// structures dead (statically, or by a search of all their positions).
    pub fn status(&self) -> Option<Verdict> {
        self.verdict.clone().or_else(|| self.claimable())
    }

    /// The claim a player makes by announcing the legal move `m` (FIDE 9.2.1.1, 9.3.1): the
    /// position it makes stands for the claim count's time, or it completes the fifty moves
    /// (and leaves the opponent a move, as python-chess requires).
    pub fn claim_with(&self, m: Move) -> Option<Verdict> {
        if self.verdict.is_some() || !self.moves.contains(&m) {
            return None;
        }
        self.move_rule_claim_by(m).or_else(|| self.repetition_claim_by(m))
    }

    /// Rules on the position just reached, `count` times seen; `recheck` when whether it is
    /// dead may have changed (material, pawns, an en-passant capture).
    fn rule(&mut self, count: u32, recheck: bool) -> Option<Verdict> {
        let articles = self.rules.articles;
        let pos = self.pos.inner();
        let to_move = self.pos.turn();
        let game = game::Kind::Chess;
        if self.moves.is_empty() {
            return Some(if pos.is_check() {
                let because = Because::Checkmate {
                    game,
                    loser: to_move,
                    article: Some(articles.checkmate),
                };
                self.ruling(Outcome::win(!to_move), Reason::Checkmate, false, because)
            } else {
                let because = Because::Stalemate {
                    game,
                    side: to_move,
                    article: Some(articles.stalemate),
                };
                self.ruling(Outcome::Draw, Reason::Stalemate, false, because)
            });
        }
        if count >= self.rules.repetition_auto {
            let reason = if count >= 5 {
                Reason::FivefoldRepetition
            } else {
                Reason::ThreefoldRepetition
            };
            let because = Because::ChessRepetition {
                count,
                plies: self.plies_of_current(),
                how: ChessClaim::Automatic,
                article: articles.repetition_auto,
            };
            return Some(self.ruling(Outcome::Draw, reason, false, because));
        }
        let auto = self.rules.move_rule_auto;
        if pos.halfmoves() >= auto {
            let reason = if auto >= 150 {
                Reason::SeventyFiveMoveRule
            } else {
                Reason::FiftyMoveRule
            };
            let because = Because::ChessMoveRule {
                moves: auto / 2,
                how: ChessClaim::Automatic,
                article: articles.move_rule_auto,
            };
            return Some(self.ruling(Outcome::Draw, reason, false, because));
        }
        if recheck {
            self.dead = dead::judge_dead(pos);
            if self.rules.dead_position_auto {
                return self.dead_ruling(false);
            }
        }
        None
    }

    fn ruling(&self, result: Outcome, reason: Reason, claim: bool, because: Because) -> Verdict {
        Verdict::new(result, reason, self.ply, self.rules.name, claim, because)
    }

    fn dead_ruling(&self, claim: bool) -> Option<Verdict> {
        let dead = self.dead?;
        let pos = self.pos.inner();
        let why = match (dead.white, dead.black) {
            (Proof::InsufficientMaterial, Proof::InsufficientMaterial) => DeadWhy::Insufficient {
                material: dead::material(pos),
            },
            (w, b) if w == b => DeadWhy::Both { proof: w },
            (white, black) => DeadWhy::Each { white, black },
        };
        let because = Because::ChessDead {
            why,
            claim,
            article: self.rules.articles.dead_position,
        };
        Some(self.ruling(Outcome::Draw, Reason::DeadPosition, claim, because))
    }

    /// The plies at which the current position stood, earliest first.
    fn plies_of_current(&self) -> Vec<usize> {
        let mut plies: Vec<usize> = self.history.plies_of(self.key, self.ply).collect();
        plies.reverse();
        plies
    }

    fn mover(&self) -> game::Side {
        self.pos.turn()
    }
}

impl Judge for ChessJudge {
    type Game = Position;

    fn position(&self) -> &Position {
        &self.pos
    }

    fn ply(&self) -> usize {
        self.ply
    }

    fn legal_moves_now(&self) -> Option<&[Move]> {
        Some(&self.moves)
    }

    /// UCI, the form engines and the server send, is looked up among the legal moves worked
    /// out when the position arose (the check a referee makes of every move, at no cost);
    /// anything else — SAN, the other castling form, a move that is not legal and its error —
    /// is the position's to read.
    fn parse_move(&self, text: &str) -> Result<Move, game::GameError> {
        if let Ok(uci) = text.trim().parse::<UciMove>() {
            let mode = self.pos.castling_mode();
            if let Some(&m) = self.moves.iter().find(|m| m.to_uci(mode) == uci) {
                return Ok(m);
            }
        }
        self.pos.parse_move(text)
    }

    fn ruleset(&self) -> &str {
        self.rules.name
    }

    fn push(&mut self, m: Move) -> Result<Option<&Verdict>, JudgeError> {
        let ply = self.ply + 1;
        if let Some(v) = &self.verdict {
            return Err(JudgeError::AfterEnd { ply, ended_at: v.ply });
        }
        if !self.moves.contains(&m) {
            return Err(JudgeError::Illegal {
                ply,
                mv: self.pos.coordinate(m),
            });
        }
        let zeroing = m.is_zeroing();
        // An en-passant capture that was possible and was not made can unlock a dead position
        // without a capture or pawn move.
        let recheck = zeroing || self.pos.inner().maybe_ep_square().is_some();
        let key = self
            .pos
            .inner()
            .update_zobrist_hash(Zobrist64(self.key), m, EnPassantMode::Legal);
        self.pos.play(m);
        self.key = key.map_or_else(|| self.pos.repetition_key(), |z| z.0);
        self.ply = ply;
        self.moves.clear();
        self.moves.extend_from_slice(&self.pos.inner().legal_moves());
        let count = self.history.push(self.key, zeroing);
        self.verdict = self.rule(count, recheck);
        Ok(self.verdict.as_ref())
    }

    fn verdict(&self) -> Option<&Verdict> {
        self.verdict.as_ref()
    }

    /// In python-chess's order: fifty moves now or by a move, then threefold repetition now or
    /// by a move; then, under rules where a dead position is a claim, that.
    /// Proven by [`dead::can_checkmate`] (insufficient material, locked pawns, or a search of
    /// every reachable position within its budget).
    fn can_win(&self, side: game::Side) -> Option<bool> {
        let color = match side {
            game::Side::First => chess::shakmaty::Color::White,
            game::Side::Second => chess::shakmaty::Color::Black,
        };
        match dead::can_checkmate(self.pos.inner(), color) {
            dead::Mate::Yes => Some(true),
            dead::Mate::No(_) => Some(false),
            dead::Mate::Unknown => None,
        }
    }

    fn claimable(&self) -> Option<Verdict> {
        if self.verdict.is_some() {
            return None;
        }
        self.move_rule_claim_now()
            .or_else(|| self.move_rule_claim_by_any())
            .or_else(|| self.repetition_claim_now())
            .or_else(|| self.repetition_claim_by_any())
            .or_else(|| self.dead_ruling(true).filter(|_| !self.rules.dead_position_auto))
    }

    fn claimable_now(&self) -> Option<Verdict> {
        if self.verdict.is_some() {
            return None;
        }
        self.move_rule_claim_now()
            .or_else(|| self.repetition_claim_now())
            .or_else(|| self.dead_ruling(true).filter(|_| !self.rules.dead_position_auto))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random games with many quiet moves (so that positions repeat): the incrementally kept
    /// key is the position's own, and the occurrence count is a count over every earlier
    /// position of the game.
    #[test]
    fn keys_and_counts_agree_with_a_recount() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..200 {
            let mut j = ChessJudge::new(Position::start(), ChessRules::fide());
            let mut keys = vec![j.key];
            while j.verdict.is_none() && j.ply < 200 {
                let quiet: Vec<Move> = j.moves.iter().copied().filter(|m| !m.is_zeroing()).collect();
                let pool = if !quiet.is_empty() && next(10) < 9 {
                    quiet
                } else {
                    j.moves.clone()
                };
                j.push(pool[next(pool.len())]).unwrap();
                assert_eq!(j.key, j.pos.repetition_key(), "{}", j.pos.fen());
                keys.push(j.key);
                let recount = keys.iter().filter(|&&k| k == j.key).count() as u32;
                assert_eq!(j.occurrences(), recount, "{}", j.pos.fen());
            }
        }
    }
}
