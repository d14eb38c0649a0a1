//! Moves: read, checked against the board and any touch-move obligation, timed, and handed
//! to the judge, whose ruling (an ending, or a side told to vary) follows the move.

use game::{BySide, Game, Side};
use judge::{Judge, Outcome};

use super::{Phase, Referee};
use crate::clock::Millis;
use crate::events::{EventKind, FoulKind};
use crate::touch::{obligation, Rule, Touch};
use crate::why::Why;

impl<J: Judge> Referee<J> {
    pub(super) fn play(&mut self, at: Millis, side: Side, text: &str, offering: bool, lag: Millis) {
        if self.not_your_turn(at, side) {
            if let Some(kind) = self.rules.extra_move_counts_as {
                self.foul(
                    at,
                    side,
                    kind,
                    Why::ExtraMove,
                    format!("an extra move {text}, out of turn"),
                );
            }
            return;
        }
        // Read by the judge, which may hold the legal moves already (a chess judge does).
        let m = match self.judge.parse_move(text) {
            Ok(m) => m,
            Err(e) => {
                let pos = self.judge.position().clone();
                // A move exposing one's own king: the judge rules it where the rules make it a
                // loss (CXA 4.1.3 走棋后形成"自杀"); elsewhere it is an illegal move.
                if pos.parse_self_check(text).is_some_and(|m| self.judge_self_check(at, m)) {
                    return;
                }
                // Only a text that reads as a move is an illegal move; anything else (a typo, a
                // command sent as a move) is not understood, and costs nothing where people play.
                if !pos.reads_as_move(text) {
                    let notations = <J::Game as Game>::NOTATIONS;
                    let reason = format!("not understood: {text:?} is not a move; moves are written in {notations}");
                    self.reject(at, side, text, Why::NotUnderstood, reason);
                    if let Some(kind) = self.rules.unreadable_move_counts_as {
                        self.foul(at, side, kind, Why::NotUnderstood, format!("{text:?} is not a move"));
                    }
                    return;
                }
                self.reject(at, side, text, Why::IllegalMove, e.to_string());
                let kind = self.rules.illegal_move_counts_as;
                self.foul(at, side, kind, Why::IllegalMove, format!("illegal move {text}"));
                // Seed 001 纠正失误 (3): a move that ignored a check is taken back; the piece
                // moved must answer the check if it can.
                if self.phase == Phase::Playing && self.rules.check_reply_with_same_piece && pos.is_check() {
                    if let Some(sq) = crate::touch::from_square(text) {
                        let touch = Touch::Own(sq);
                        let o = obligation(&pos, std::slice::from_ref(&touch));
                        if o.allowed.is_some() {
                            self.touches = vec![touch];
                            let rule = format!("answer the check with the same piece: {}", o.rule);
                            let article = "纠正失误 (3)";
                            let touch = Rule {
                                code: "answer_check_with",
                                article,
                                then: Some(o.said.code),
                                ..o.said
                            };
                            self.emit(
                                at,
                                EventKind::Obligation {
                                    side,
                                    article,
                                    rule,
                                    touch,
                                },
                            );
                        }
                    }
                }
                return;
            }
        };
        // Touches are only entered where touch-move applies; a correction's obligation always.
        if !self.touches.is_empty() {
            let o = obligation(self.judge.position(), &self.touches);
            if !o.permits(m) {
                self.reject_touching(at, side, text, Why::TouchMove, o.rule.clone(), Some(o.said.clone()));
                self.foul_touching(
                    at,
                    side,
                    FoulKind::Technical,
                    Why::TouchMove,
                    format!("{text} breaks touch-move: {}", o.rule),
                    Some(o.said),
                );
                return;
            }
        }
        if let Err(flag) = self.clock.press_lagged(at, lag) {
            self.flag_fell(flag);
            return;
        }
        let pos = self.judge.position();
        let coordinate = pos.coordinate_inline(m);
        let notation = if self.live_notation {
            pos.notation(m)
        } else {
            String::new()
        };
        let zeroing = pos.is_zeroing(m);
        let ruled = match self.judge.push(m) {
            Ok(v) => v.cloned(),
            Err(e) => {
                self.reject(at, side, text, Why::IllegalMove, e.to_string());
                return;
            }
        };
        self.moved[side] = true;
        self.played.push(m);
        // A takeback asked for belongs to the position it was asked in.
        self.takeback = None;
        self.touches.clear();
        if zeroing {
            self.phase_start = self.judge.ply();
        }
        // Moving answers a standing offer of the opponent's: declined.
        if self.offer == Some(!side) {
            self.offer = None;
            self.may_offer[!side] = false;
            self.emit(at, EventKind::DrawDeclined { by: side });
        }
        let clocks = BySide::new(|side| self.clock.remaining(side, at));
        let offers_draw = offering && self.may_offer[side];
        self.emit(
            at,
            EventKind::MoveAccepted {
                ply: self.judge.ply(),
                side,
                coordinate,
                notation,
                clocks,
                offers_draw,
            },
        );
        if offers_draw {
            self.make_offer(at, side);
        } else if offering {
            self.may_offer(at, side);
        }
        if let Some(v) = ruled {
            self.end_ruled(at, v, None);
            return;
        }
        let pending = self.judge.pending().filter(|p| !p.claim).cloned();
        match pending {
            Some(p) if !self.told_to_vary => {
                self.told_to_vary = true;
                let offender = if p.result == Outcome::FirstWins {
                    Side::Second
                } else {
                    Side::First
                };
                self.emit(
                    at,
                    EventKind::MustVary {
                        side: offender,
                        explanation_zh: p.explain(judge::Lang::Zh),
                        explanation: p.explanation,
                    },
                );
            }
            None => self.told_to_vary = false,
            _ => {}
        }
    }

    pub(super) fn reject(&mut self, at: Millis, side: Side, text: &str, code: Why, reason: String) {
        self.reject_touching(at, side, text, code, reason, None);
    }

    /// A move refused, with the touch-move rule it broke.
    fn reject_touching(&mut self, at: Millis, side: Side, text: &str, code: Why, reason: String, touch: Option<Rule>) {
        let text = text.to_string();
        self.emit(
            at,
            EventKind::MoveRejected {
                side,
                text,
                reason,
                code,
                touch,
            },
        );
    }

    /// Offers a self-exposing move to the judge; true when the judge ruled on it (the mover lost).
    pub(super) fn judge_self_check(&mut self, at: Millis, m: <J::Game as Game>::Move) -> bool {
        match self.judge.push(m) {
            Ok(Some(v)) => {
                let v = v.clone();
                self.end_ruled(at, v, None);
                true
            }
            _ => false,
        }
    }

    pub(super) fn touch(&mut self, at: Millis, side: Side, t: Touch) {
        if !self.rules.touch_move || self.not_your_turn(at, side) {
            return;
        }
        self.touches.push(t);
        let o = obligation(self.judge.position(), &self.touches);
        self.emit(
            at,
            EventKind::Obligation {
                side,
                article: o.article,
                rule: o.rule.clone(),
                touch: o.said,
            },
        );
        if let Some((what, touch)) = o.foul {
            self.foul_touching(at, side, FoulKind::Technical, Why::TouchMove, what, Some(touch));
        }
    }
}
