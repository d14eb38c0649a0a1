//! The Xiangqi judge: checkmate and stalemate (困毙) lose; repetitions are ruled by the
//! ruleset's table after classifying every move of the cycle; the natural move limit
//! (自然限着); dead positions.
//!
//! After each move, in this order (`xiangqi-rules.md` §2.5): the opponent has no legal move
//! (the mover wins); the position stands for the third time (the repetition ruling); the move
//! limit; both sides with only kings, advisors and elephants.
//!
//! ```
//! use judge::xiangqi::{Rules, XiangqiJudge};
//! use judge::{judge_game, Judge, Outcome, Reason};
//! use xiangqi::{notation::parse_iccs, Position};
//!
//! // Red checks on every move with one rook (长将).
//! let start = Position::from_fen("9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1").unwrap();
//! let moves: Vec<_> = "f5e5 e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8"
//!     .split(' ')
//!     .map(|m| parse_iccs(m).unwrap())
//!     .collect();
//! // As an automatic referee rules: red loses at the third occurrence.
//! let rules = Rules::cxa().at_trigger();
//! let verdict = judge_game(&mut XiangqiJudge::new(start.clone(), rules), &moves).unwrap();
//! assert_eq!((verdict.result, verdict.reason, verdict.ply), (Outcome::SecondWins, Reason::PerpetualCheck, 8));
//!
//! // As the rulebook says (the default): red is told to vary, and loses if it does not.
//! let mut judge = XiangqiJudge::new(start, Rules::cxa());
//! judge_game(&mut judge, &moves).unwrap();
//! assert!(judge.pending().unwrap().explanation.starts_with("red must vary"));
//! ```

mod classify;
mod cycle;
mod rules;

pub use rules::{ChaseNewness, CheckCounting, RepetitionRuling, Rules, Style, TemporaryLimit};

use game::{BySide, Kind, Side};
use xiangqi::{Bitboard, Color, Move, Position, Role};

use crate::because::{Because, Cycle, Effect, Part};
use crate::verdict::{Outcome, Reason, Repetition, Verdict};
use crate::{Judge, JudgeError};

/// Judges a Xiangqi game move by move under a ruleset.
#[derive(Debug, Clone)]
pub struct XiangqiJudge {
    rules: Rules,
    pos: Position,
    /// The position after the last capture (or the start): earlier positions cannot recur,
    /// and a repetition ruling replays the cycle from here.
    window: Position,
    window_ply: usize,
    moves: Vec<Move>,
    /// The legal moves in `pos`, listed once when it arises: whether the side to move has one,
    /// whether the next move is legal, what it is ([`Judge::parse_move`]), and which moves the
    /// rules forbid ([`crate::forbidden_moves`]) are all read from here.
    legal: Vec<Move>,
    /// Repetition keys of the positions since `window` (index 0 = `window`).
    keys: Vec<u64>,
    /// The occupied points of the same positions: a move can bring one back only where it
    /// differs from the position now in just the move's two points ([`Judge::moves_back`]).
    placements: Vec<Bitboard>,
    /// Plies toward the natural move limit since the last capture.
    counted: u32,
    /// Checks given by each side since the last capture, and whether the last move was a
    /// check beyond the counted number (its reply is not counted either).
    checks: BySide<u32>,
    uncounted_check: bool,
    verdict: Option<Verdict>,
    /// Under [`RepetitionRuling::MustVary`]: the repetition ruling at the trigger — an offender
    /// told to vary (with the loss it faces), or an innocent repetition that may be claimed.
    pending: Option<(Verdict, u64)>,
}

impl XiangqiJudge {
    /// A judge for a game from `start`, which is itself judged (a position with no legal move
    /// or a dead position has a verdict at ply 0). The FEN's capture counter starts the move
    /// limit.
    pub fn new(start: Position, rules: Rules) -> XiangqiJudge {
        let mut j = XiangqiJudge {
            counted: start.halfmoves(),
            keys: vec![start.key()],
            placements: vec![start.board().occupied()],
            window: start.clone(),
            window_ply: 0,
            pos: start,
            rules,
            moves: Vec::new(),
            legal: Vec::new(),
            checks: BySide::default(),
            uncounted_check: false,
            verdict: None,
            pending: None,
        };
        j.list_legal();
        j.verdict = j
            .no_moves()
            .or_else(|| j.dead())
            .or_else(|| j.move_limit(false))
            .or_else(|| j.temporary_limit());
        j
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    fn ply_now(&self) -> usize {
        self.moves.len()
    }

    fn make(&self, result: Outcome, reason: Reason, claim: bool, because: Because) -> Verdict {
        Verdict::new(result, reason, self.ply_now(), self.rules.name, claim, because)
    }

    fn list_legal(&mut self) {
        self.legal.clear();
        self.legal.extend_from_slice(self.pos.legal_moves().as_slice());
    }

    /// The side to move has no legal move: it loses, in check (将死) or not (困毙).
    fn no_moves(&self) -> Option<Verdict> {
        if !self.legal.is_empty() {
            return None;
        }
        let loser: Side = self.pos.turn().into();
        let game = Kind::Xiangqi;
        let (reason, because) = if self.pos.is_check() {
            let because = Because::Checkmate {
                game,
                loser,
                article: None,
            };
            (Reason::Checkmate, because)
        } else {
            let because = Because::Stalemate {
                game,
                side: loser,
                article: None,
            };
            (Reason::Stalemate, because)
        };
        Some(self.make(Outcome::win(loser.other()), reason, false, because))
    }

    /// Both sides with only kings, advisors and elephants: no side can ever give check.
    fn dead(&self) -> Option<Verdict> {
        if !self.rules.dead_position_draw {
            return None;
        }
        let b = self.pos.board();
        let attackers =
            b.by_role(Role::Rook) | b.by_role(Role::Horse) | b.by_role(Role::Cannon) | b.by_role(Role::Pawn);
        attackers
            .is_empty()
            .then(|| self.make(Outcome::Draw, Reason::DeadPosition, false, Because::NoAttackers))
    }

    /// The natural move limit, automatic or (with `claims`) by claim where the ruleset says so.
    fn move_limit(&self, claims: bool) -> Option<Verdict> {
        if self.counted < self.rules.natural_limit || self.rules.natural_limit_claim != claims {
            return None;
        }
        let because = Because::MoveLimit {
            rounds: self.rules.natural_limit / 2,
            claim: claims,
        };
        Some(self.make(Outcome::Draw, Reason::NaturalMoveLimit, claims, because))
    }

    /// A referee's temporary move limit (临时限着) run out with no side mated: drawn (seed 002
    /// 六(1): "有的棋经临时限着后，着数到了又未能杀棋，亦作和").
    fn temporary_limit(&self) -> Option<Verdict> {
        let t = self.rules.temporary_limit?;
        let end = t.from_ply as usize + t.plies as usize;
        (self.ply_now() >= end && self.ply_now() > t.from_ply as usize).then(|| {
            self.make(
                Outcome::Draw,
                Reason::NaturalMoveLimit,
                false,
                Because::TemporaryLimit {
                    rounds: t.plies / 2,
                    from_ply: t.from_ply,
                    end,
                },
            )
        })
    }

    /// The repetition ruling when the position now stands for the ruleset's n-th time since
    /// the last capture.
    fn repetition(&self) -> Option<Verdict> {
        let n = self.keys.len() - 1;
        let key = self.keys[n];
        // Same side to move: every second position back to the last capture. Counted without
        // allocating; the list is made only for a ruling.
        let earlier = (0..n).rev().skip(1).step_by(2).filter(|&i| self.keys[i] == key);
        if (earlier.clone().count() as u32) + 1 < self.rules.repetition_count {
            return None;
        }
        // The span is always the last `repetition_count` occurrences: a fourth occurrence is
        // judged on the moves since the second.
        let seen: Vec<usize> = std::iter::once(n).chain(earlier).collect();
        // The span from the first of the counted occurrences to now.
        let mut first = seen[self.rules.repetition_count as usize - 1];
        if self.rules.span_from_move_before && first > 0 {
            first -= 1;
        }
        let mut start = self.window.clone();
        for &m in &self.moves[self.window_ply..self.window_ply + first] {
            start.play_unchecked(m);
        }
        let first_ply = self.window_ply + first;
        let span = &self.moves[first_ply..];
        let (moves, red, black) = cycle::analyse(&start, first_ply, span, &self.rules);
        let (result, reason, table) = cycle::rule(&red, &black);
        let part = |s: &cycle::SideRuling| Part {
            pattern: s.pattern.name.clone(),
            forbidden: s.forbidden,
        };
        let because = Because::Repetition(Box::new(Cycle {
            // Every occurrence since the last capture, oldest first: as many as the ordinal says.
            occurrences: seen.iter().rev().map(|&i| self.window_ply + i).collect(),
            judged: (seen.len() as u32 > self.rules.repetition_count)
                .then_some((self.rules.repetition_count, first_ply)),
            red: part(&red),
            black: part(&black),
            article: cycle::article(&self.rules),
            table,
            effect: Effect::Ruled,
        }));
        let mut v = self.make(result, reason, false, because);
        v.repetition = Some(Repetition {
            first_ply,
            moves,
            first: red.pattern,
            second: black.pattern,
        });
        Some(v)
    }

    /// Plays `m`, which exposes the mover's king, and rules the loss.
    fn self_check(&mut self, m: Move) -> &Verdict {
        let loser: Side = self.pos.turn().into();
        let text = xiangqi::notation::to_iccs(m);
        self.pos.play_unchecked(m);
        self.list_legal();
        self.moves.push(m);
        let v = self.make(
            Outcome::win(loser.other()),
            Reason::SelfCheck,
            false,
            Because::SelfCheck { loser, mv: text },
        );
        self.verdict.insert(v)
    }

    /// The repetition ruling in force now, by the ruleset's [`RepetitionRuling`]. Under
    /// `MustVary` a ruling at the trigger is kept as pending; the offender loses when the
    /// position comes again with the offence unchanged, and a pending draw may be claimed.
    fn rule_repetition(&mut self) -> Option<Verdict> {
        let mut v = self.repetition()?;
        let loser = match v.result {
            Outcome::FirstWins => Some(Side::Second),
            Outcome::SecondWins => Some(Side::First),
            _ => None,
        };
        if self.rules.repetition_ruling == RepetitionRuling::AtTrigger {
            if let Some(loser) = loser {
                with_effect(&mut v, Effect::AtOnce { loser });
            }
            return Some(v);
        }
        // The position of the warning comes round again with the same side offending: the
        // offender did not vary. Another position of the same cycle repeating in between is
        // the same offence, not a second warning.
        let key = self.pos.key();
        if let Some((p, k)) = &self.pending {
            if p.result == v.result && v.result != Outcome::Draw {
                if *k == key {
                    if let Some(loser) = loser {
                        with_effect(&mut v, Effect::NotVaried { loser, warned: p.ply });
                    }
                    return Some(v);
                }
                return None;
            }
        }
        let effect = match loser {
            Some(side) => Effect::MustVary { side },
            None => Effect::DrawClaimable,
        };
        with_effect(&mut v, effect);
        v.claim = loser.is_none();
        self.pending = Some((v, key));
        None
    }

    /// Updates the move-limit count for `m`, just played; `check` is whether it gave check.
    fn count_move(&mut self, mover: Color, check: bool) {
        let reply_to_uncounted = std::mem::take(&mut self.uncounted_check);
        match self.rules.check_counting {
            CheckCounting::All => self.counted += 1,
            CheckCounting::Beyond(limit) => {
                let side = Side::from(mover);
                if check {
                    self.checks[side] += 1;
                }
                if check && self.checks[side] > limit {
                    self.uncounted_check = true;
                } else if !reply_to_uncounted {
                    self.counted += 1;
                }
            }
        }
    }
}

/// A repetition verdict with its ruling taking effect as `effect` says.
fn with_effect(v: &mut Verdict, effect: Effect) {
    if let Because::Repetition(c) = &*v.because {
        let mut c = c.clone();
        c.effect = effect;
        v.set_because(Because::Repetition(c));
    }
}

impl Judge for XiangqiJudge {
    type Game = Position;

    fn position(&self) -> &Position {
        &self.pos
    }

    fn ply(&self) -> usize {
        self.ply_now()
    }

    /// ICCS, the form engines send, is looked up among the legal moves; any other form, and a
    /// move that is not legal with its error, is the position's to read.
    fn parse_move(&self, text: &str) -> Result<Move, game::GameError> {
        if let Ok(m) = xiangqi::notation::parse_iccs(text.trim()) {
            if self.legal.contains(&m) {
                return Ok(m);
            }
        }
        game::Game::parse_move(&self.pos, text)
    }

    fn legal_moves_now(&self) -> Option<&[Move]> {
        Some(&self.legal)
    }

    fn ruleset(&self) -> &str {
        self.rules.name
    }

    fn push(&mut self, m: Move) -> Result<Option<&Verdict>, JudgeError> {
        let ply = self.ply_now() + 1;
        if let Some(v) = &self.verdict {
            return Err(JudgeError::AfterEnd { ply, ended_at: v.ply });
        }
        if !self.legal.contains(&m) {
            if self.rules.self_check_loses && self.pos.is_pseudo_legal(m) {
                return Ok(Some(self.self_check(m)));
            }
            return Err(JudgeError::Illegal {
                ply,
                mv: xiangqi::notation::to_iccs(m),
            });
        }
        let mover = self.pos.turn();
        let capture = self.pos.is_capture(m);
        self.pos.play_unchecked(m);
        self.list_legal();
        self.moves.push(m);
        if capture {
            self.window = self.pos.clone();
            self.window_ply = self.moves.len();
            self.keys.clear();
            self.placements.clear();
            self.counted = 0;
            self.checks = BySide::default();
            self.uncounted_check = false;
        } else {
            let check = matches!(self.rules.check_counting, CheckCounting::Beyond(_)) && self.pos.is_check();
            self.count_move(mover, check);
        }
        self.keys.push(self.pos.key());
        self.placements.push(self.pos.board().occupied());
        if capture {
            self.pending = None;
        }
        self.verdict = self
            .no_moves()
            .or_else(|| if capture { None } else { self.rule_repetition() })
            .or_else(|| self.move_limit(false))
            .or_else(|| self.temporary_limit())
            .or_else(|| if capture { self.dead() } else { None });
        Ok(self.verdict.as_ref())
    }

    fn verdict(&self) -> Option<&Verdict> {
        self.verdict.as_ref()
    }

    /// Proven only where it is certain: a side with no rook, horse, cannon or pawn can never
    /// give check (advisors and elephants stay home), and can stalemate the other side only if
    /// that side's own pieces jam its king — which a side with only king, advisors and
    /// elephants cannot do (its king always keeps a palace point that neither its advisors and
    /// elephants can stand on nor the other king can watch). Otherwise unknown.
    fn can_win(&self, side: Side) -> Option<bool> {
        let attackers = |color: Color| {
            let b = self.pos.board();
            [Role::Rook, Role::Horse, Role::Cannon, Role::Pawn]
                .iter()
                .any(|&r| b.by_piece(r.of(color)).any())
        };
        let color = match side {
            Side::First => Color::Red,
            Side::Second => Color::Black,
        };
        (!attackers(color) && !attackers(!color)).then_some(false)
    }

    /// Under `MustVary`: the repetition ruling given at the last trigger and not yet decided —
    /// a side told to vary, with the loss it faces, or a draw that may be claimed.
    fn pending(&self) -> Option<&Verdict> {
        self.pending.as_ref().map(|(v, _)| v)
    }

    fn recurrable(&self) -> Option<(usize, &[u64])> {
        Some((self.window_ply, &self.keys))
    }

    /// Found from the placements, not the keys: after a move the other side is to move, so
    /// only every second position back can come again, and one does only if the points it
    /// occupies differ from those occupied now in exactly two — the move's from (occupied now)
    /// and to (empty now). That names the one move that could bring it back, whose key then
    /// decides (the same points, the same pieces). So a look at the moves costs a comparison a
    /// position, instead of a key worked out for each legal move.
    fn moves_back(&self) -> Option<Vec<(Move, u64)>> {
        let mut out: Vec<(Move, u64)> = Vec::new();
        let now = self.pos.board().occupied();
        for i in (0..self.keys.len().saturating_sub(1)).rev().step_by(2) {
            let then = self.placements[i];
            let diff = now ^ then;
            if diff.count() != 2 {
                continue;
            }
            let (Some(from), Some(to)) = ((diff & now).single(), (diff & then).single()) else {
                continue;
            };
            let m = Move::new(from, to);
            let key = self.keys[i];
            if self.legal.contains(&m) && self.pos.key_after(m) == key && !out.iter().any(|&(x, _)| x == m) {
                out.push((m, key));
            }
        }
        Some(out)
    }

    fn claimable(&self) -> Option<Verdict> {
        if self.verdict.is_some() {
            return None;
        }
        // An innocent repetition just ruled may be claimed while its position stands.
        let repetition = self
            .pending
            .as_ref()
            .filter(|(p, key)| p.claim && *key == self.pos.key() && p.ply == self.ply_now())
            .map(|(p, _)| p.clone());
        repetition.or_else(|| self.move_limit(true))
    }
}
