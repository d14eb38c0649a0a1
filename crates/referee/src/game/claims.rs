//! Claims: a draw the rules let a player claim (the judge says whether one stands), and a
//! win on time. A false draw claim costs what the rules say; [`Referee::claimable`] tells
//! whether one would be false.

use game::Side;
use judge::{Judge, Verdict};

use super::{Phase, Referee};
use crate::clock::Millis;
use crate::events::{EventKind, FoulKind};
use crate::why::Why;

impl<J: Judge> Referee<J> {
    /// The draw that may be claimed now, with the judge's grounds (a repetition, the fifty-move
    /// rule, a natural-move limit), or `None`: outside a game in play, and when nothing may be.
    /// A false claim costs what the rules say, so a client offers a claim only when this is
    /// `Some`.
    pub fn claimable(&self) -> Option<Verdict> {
        if self.phase != Phase::Playing {
            return None;
        }
        self.judge.claimable()
    }

    pub(super) fn claim_draw(&mut self, at: Millis, side: Side) {
        if let Some(v) = self.judge.claimable() {
            self.end_ruled(at, v, Some(side));
            return;
        }
        let reason = "no draw can be claimed in this position".to_string();
        self.emit(
            at,
            EventKind::ClaimRejected {
                by: side,
                reason: reason.clone(),
                code: Why::FalseClaim,
            },
        );
        if let Some(bonus) = self.rules.false_claim_bonus {
            self.clock.add_time(!side, bonus);
            let what = format!(
                "false claim: {} s added to the opponent's clock (FIDE 9.5.3)",
                bonus / 1000
            );
            let code = Why::FalseClaimBonus;
            self.emit(at, EventKind::Warning { side, what, code });
        }
        // A false claim of the move limit: a foul, and where false claims are counted apart,
        // the second in the same phase loses.
        let kind = self.rules.false_claim_counts_as;
        if kind == FoulKind::FalseClaim {
            let phase = self.phase_start;
            let f = &mut self.fouls[side];
            if f.claim_phase != phase {
                f.claim_phase = phase;
                f.counts[FoulKind::FalseClaim.index()] = 0;
            }
        }
        self.foul(at, side, kind, Why::FalseClaim, reason);
    }

    pub(super) fn claim_time(&mut self, at: Millis, side: Side) {
        match self.clock.flag(at) {
            Some(flag) if flag.side != side => self.flag_fell(flag),
            _ => self.emit(
                at,
                EventKind::ClaimRejected {
                    by: side,
                    reason: "the opponent's flag has not fallen".into(),
                    code: Why::FlagNotFallen,
                },
            ),
        }
    }
}
