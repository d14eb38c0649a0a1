//! How a game ends: the ending recorded and announced, and the endings time brings — a flag
//! fall (a draw when the other side can no longer win) and lateness.

use game::{Game, Side};
use judge::{Judge, Lang, Outcome, Verdict};

use super::{Phase, Referee};
use crate::clock::{Flag, Millis};
use crate::events::{EndReason, Ending, EventKind};

impl<J: Judge> Referee<J> {
    pub(super) fn lateness_deadline(&self) -> Option<Millis> {
        let limit = self.rules.lateness?;
        let side = self.judge.position().turn();
        (!self.moved[side]).then_some(self.started_at + limit)
    }

    pub(super) fn end(
        &mut self,
        at: Millis,
        result: Outcome,
        reason: EndReason,
        explanation: String,
        verdict: Option<Verdict>,
    ) {
        self.finish(at, result, reason, (explanation, None), verdict);
    }

    /// Ends the game by the judge's verdict `v`: by rule, or (`claimed_by`) by a correct claim.
    pub(super) fn end_ruled(&mut self, at: Millis, v: Verdict, claimed_by: Option<Side>) {
        let (reason, explanation, zh) = match claimed_by {
            None => (EndReason::Rules, v.explanation.clone(), v.explain(Lang::Zh)),
            Some(side) => (
                EndReason::Claim,
                format!("{} claimed: {}", Self::name(side), v.explanation),
                format!("{}要求作和：{}", Self::name_zh(side), v.explain(Lang::Zh)),
            ),
        };
        self.finish(at, v.result, reason, (explanation, Some(zh)), Some(v));
    }

    /// The side's name in Chinese: 红方, 白方, 黑方.
    pub(super) fn name_zh(side: Side) -> &'static str {
        match (side, <J::Game as Game>::KIND) {
            (Side::First, game::Kind::Xiangqi) => "红方",
            (Side::First, game::Kind::Chess) => "白方",
            (Side::Second, _) => "黑方",
        }
    }

    fn finish(
        &mut self,
        at: Millis,
        result: Outcome,
        reason: EndReason,
        (explanation, explanation_zh): (String, Option<String>),
        verdict: Option<Verdict>,
    ) {
        let _ = self.clock.stop(at);
        let ending = Ending {
            result,
            reason,
            ply: self.judge.ply(),
            at,
            explanation,
            explanation_zh,
            verdict,
        };
        self.ending = Some(ending.clone());
        self.phase = Phase::Over;
        self.emit(at, EventKind::GameOver(ending));
    }

    /// Rules lateness and flags at `at`, the running side's flag `credit` ms earlier.
    pub(super) fn rule_time(&mut self, at: Millis, credit: Millis) {
        if let Some(deadline) = self.lateness_deadline().filter(|&d| at > d) {
            let late = self.judge.position().turn();
            let _ = self.clock.stop(deadline);
            self.end(
                deadline,
                Outcome::win(!late),
                EndReason::Lateness,
                format!(
                    "{} did not start playing within the lateness limit (迟到判负)",
                    Self::name(late)
                ),
                None,
            );
            return;
        }
        if let Some(flag) = self.clock.flag_lagged(at, credit) {
            self.flag_fell(flag);
        }
    }

    pub(super) fn flag_fell(&mut self, flag: Flag) {
        let name = Self::name(flag.side);
        let how = if flag.per_move {
            "the time for one move"
        } else {
            "its time"
        };
        if self.judge.can_win(!flag.side) == Some(false) {
            self.end(
                flag.at,
                Outcome::Draw,
                EndReason::Time,
                format!(
                    "{name} ran out of {how}, but the other side can no longer win by any series of legal moves: drawn"
                ),
                None,
            );
        } else {
            self.end(
                flag.at,
                Outcome::win(!flag.side),
                EndReason::Time,
                format!("{name} ran out of {how} (超时判负)"),
                None,
            );
        }
    }
}
