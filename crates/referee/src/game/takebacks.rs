//! Takebacks, as online play has them: a side asks to take back its last move (with the
//! opponent's reply, if made), the opponent accepts or declines. Competition rules have none,
//! nor does an event's game whatever its rules, nor a rated game. Accepted, the position and the moves go back; the clocks keep what
//! they show (no time is given back, as online servers do it: a takeback is a courtesy, not a
//! way to win time), and the side to move then has its clock running.

use game::{Game, Side};
use judge::Judge;

use super::{Phase, Referee};
use crate::clock::Millis;
use crate::events::EventKind;
use crate::why::Why;

impl<J: Judge> Referee<J> {
    /// Why takebacks are off in this game, if they are.
    pub(super) fn takebacks_off(&self) -> Option<(Why, &'static str)> {
        if self.rated {
            Some((Why::TakebacksRated, "no takebacks in a rated game"))
        } else if self.competition || !self.rules.takebacks {
            Some((Why::TakebacksOff, "no takebacks in competition games"))
        } else {
            None
        }
    }

    /// The position a takeback by `side` goes back to (plies from the start): before its last
    /// move, which is the last ply if the opponent is to move, else the one before.
    pub(super) fn takeback_target(&self, side: Side) -> Option<usize> {
        let back = if self.judge.position().turn() == side { 2 } else { 1 };
        self.played.len().checked_sub(back)
    }

    pub(super) fn propose_takeback(&mut self, at: Millis, side: Side) {
        if let Some((code, reason)) = self.takebacks_off() {
            self.refuse(at, side, code, reason.into());
            return;
        }
        match self.takeback {
            // Asking while the opponent's request stands is agreeing to it.
            Some((by, _)) if by != side => return self.accept_takeback(at, side),
            Some(_) => return,
            None => {}
        }
        let Some(back_to) = self.takeback_target(side) else {
            let reason = "no move of this side's to take back".to_string();
            self.refuse(at, side, Why::NothingToTakeBack, reason);
            return;
        };
        self.takeback = Some((side, back_to));
        let plies = self.played.len() - back_to;
        self.emit(
            at,
            EventKind::TakebackProposed {
                by: side,
                plies,
                back_to,
            },
        );
    }

    pub(super) fn accept_takeback(&mut self, at: Millis, side: Side) {
        let Some((_, back_to)) = self.takeback.filter(|&(by, _)| by != side) else {
            let reason = "no takeback is asked for".to_string();
            self.refuse(at, side, Why::NoTakebackPending, reason);
            return;
        };
        let plies = self.played.len() - back_to;
        // A takeback is no correction: a declined draw offer stays declined.
        let may_offer = self.may_offer;
        self.take_back_to(at, back_to);
        self.may_offer = may_offer;
        if self.phase != Phase::Playing {
            // A flag fell at the very moment: the game ended before the takeback.
            return;
        }
        let clocks = game::BySide::new(|s| self.clock.remaining(s, at));
        self.emit(
            at,
            EventKind::TakenBack {
                by: side,
                plies,
                back_to,
                clocks,
            },
        );
    }

    pub(super) fn decline_takeback(&mut self, at: Millis, side: Side) {
        if self.takeback.is_some_and(|(by, _)| by != side) {
            self.takeback = None;
            self.emit(at, EventKind::TakebackDeclined { by: side });
        } else {
            let reason = "no takeback is asked for".to_string();
            self.refuse(at, side, Why::NoTakebackPending, reason);
        }
    }
}
