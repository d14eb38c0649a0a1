//! Draw offers by the seeds' etiquette: with one's own move where the rules say so, no new
//! offer after a declined one until the opponent has offered, a repeated offer penalised.

use game::Side;
use judge::{Judge, Outcome};

use super::Referee;
use crate::clock::Millis;
use crate::events::{EndReason, EventKind, FoulKind};
use crate::rules::OfferPenalty;
use crate::why::Why;

impl<J: Judge> Referee<J> {
    /// Whether `side` may offer now; a refused offer costs what the rules say.
    pub(super) fn may_offer(&mut self, at: Millis, side: Side) -> bool {
        if self.may_offer[side] {
            return true;
        }
        let reason = "an offer was declined: no new offer until the opponent has offered".to_string();
        self.emit(
            at,
            EventKind::OfferRefused {
                by: side,
                reason: reason.clone(),
                code: Why::RepeatedOffer,
            },
        );
        match self.rules.repeated_offer {
            OfferPenalty::TechnicalFoul => self.foul(
                at,
                side,
                FoulKind::Technical,
                Why::RepeatedOffer,
                format!("repeated draw offer ({reason})"),
            ),
            OfferPenalty::Warning => self.emit(
                at,
                EventKind::Warning {
                    side,
                    what: format!("repeated draw offer ({reason})"),
                    code: Why::RepeatedOffer,
                },
            ),
        }
        false
    }

    pub(super) fn make_offer(&mut self, at: Millis, side: Side) {
        self.offer = Some(side);
        // The opponent may offer again once this side has offered.
        self.may_offer[!side] = true;
        self.emit(at, EventKind::DrawOffered { by: side });
    }

    pub(super) fn offer(&mut self, at: Millis, side: Side) {
        if self.rules.offer_with_move {
            let reason = "a draw is offered together with one's own move".to_string();
            self.emit(
                at,
                EventKind::OfferRefused {
                    by: side,
                    reason,
                    code: Why::OfferWithMove,
                },
            );
            return;
        }
        if self.offer == Some(side) {
            return;
        }
        if self.may_offer(at, side) {
            self.make_offer(at, side);
        }
    }

    pub(super) fn accept(&mut self, at: Millis, side: Side) {
        if self.offer == Some(!side) {
            let by = Self::name(side);
            self.end(
                at,
                Outcome::Draw,
                EndReason::Agreement,
                format!("{by} accepted the draw offer"),
                None,
            );
        } else {
            self.refuse(at, side, Why::NoOfferStands, "no draw offer stands".into());
        }
    }

    pub(super) fn decline(&mut self, at: Millis, side: Side) {
        if self.offer == Some(!side) {
            self.offer = None;
            self.may_offer[!side] = false;
            self.emit(at, EventKind::DrawDeclined { by: side });
        }
    }
}
