//! Fouls: counted per side and kind, each kind against its limit in the rules; reaching a
//! limit loses.

use game::Side;
use judge::{Judge, Outcome};

use super::Referee;
use crate::clock::Millis;
use crate::events::{EndReason, EventKind, FoulKind};
use crate::rules::RefereeRules;
use crate::touch::Rule;
use crate::why::Why;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Fouls {
    /// Per [`FoulKind`], in its order.
    pub(super) counts: [u32; 4],
    /// The capture phase of the last false claim (false claims count per phase).
    pub(super) claim_phase: usize,
}

impl FoulKind {
    pub(super) fn index(self) -> usize {
        self as usize
    }

    /// The rules' limit for this kind, and the ending it brings.
    pub(super) fn limit(self, rules: &RefereeRules) -> (Option<u32>, EndReason) {
        match self {
            FoulKind::IllegalMove => (rules.illegal_moves_lose_at, EndReason::IllegalMoves),
            FoulKind::Technical => (rules.technical_fouls_lose_at, EndReason::TechnicalFouls),
            FoulKind::ClockPress => (rules.clock_presses_lose_at, EndReason::ClockPresses),
            FoulKind::FalseClaim => (rules.false_limit_claims_lose_at, EndReason::FalseClaims),
        }
    }
}

impl<J: Judge> Referee<J> {
    /// Counts a foul and ends the game when its limit is reached.
    pub(super) fn foul(&mut self, at: Millis, side: Side, kind: FoulKind, code: Why, what: String) {
        self.foul_touching(at, side, kind, code, what, None);
    }

    /// A foul, with the touch-move rule it is about (broken, or the touch itself a foul).
    pub(super) fn foul_touching(
        &mut self,
        at: Millis,
        side: Side,
        kind: FoulKind,
        code: Why,
        what: String,
        touch: Option<Rule>,
    ) {
        let count = {
            let c = &mut self.fouls[side].counts[kind.index()];
            *c += 1;
            *c
        };
        let (limit, reason) = kind.limit(&self.rules);
        self.emit(
            at,
            EventKind::Foul {
                side,
                kind,
                count,
                limit,
                what: what.clone(),
                code,
                touch,
            },
        );
        if limit.is_some_and(|l| count >= l) {
            let name = Self::name(side);
            self.end(
                at,
                Outcome::win(!side),
                reason,
                format!("{name}: {what} — {count} of {count}, the limit: loses"),
                None,
            );
        }
    }
}
