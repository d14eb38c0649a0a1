//! The arbiter's corrections ([`crate::corrections`]) as the seeds rule them, and time
//! corrections. A correction made after the game is refused by the dispatch, as both seeds
//! say (5.8 局后不受理; 纠正失误: 赛后才发现，那么对局的结果有效).

use game::{BySide, Game, Side};
use judge::Judge;

use super::{Phase, Referee};
use crate::clock::{Clock, Millis};
use crate::corrections::{Correction, Straightening};
use crate::events::EventKind;
use crate::touch::Touch;
use crate::why::Why;

impl<J: Judge> Referee<J> {
    /// Seed 000 5.6: straightening with notice on one's own time, or a plain accident, is no
    /// touch; anything else counts as touching the piece.
    pub(super) fn straighten(&mut self, at: Millis, side: Side, touch: Touch, how: Straightening) {
        let square = match &touch {
            Touch::Own(s) | Touch::Opponent(s) => s.clone(),
        };
        let own_time = self.judge.position().turn() == side;
        let ruling = match how {
            Straightening::Accidental => format!("the piece on {square} was plainly knocked by mistake: not a touch"),
            Straightening::WithNotice if own_time => {
                format!("the piece on {square} straightened with notice on its own time: not a touch")
            }
            _ if !self.rules.touch_move => {
                format!("the piece on {square} straightened: touch-move does not apply under these rules")
            }
            _ if !own_time => {
                // A touch binds the side to move only: straightening on the opponent's time is
                // a breach of 5.6 the arbiter warns of, with nothing to oblige yet.
                let what = format!("straightened the piece on {square} on the opponent's time (5.6)");
                let code = Why::StraightenedOnOpponentsTime;
                self.emit(at, EventKind::Warning { side, what, code });
                return;
            }
            _ => {
                let ruling = format!("the piece on {square} straightened without notice: counts as touched");
                self.emit(
                    at,
                    EventKind::Corrected {
                        side,
                        article: "5.6",
                        ruling,
                        back_to: None,
                    },
                );
                self.touch(at, side, touch);
                return;
            }
        };
        self.emit(
            at,
            EventKind::Corrected {
                side,
                article: "5.6",
                ruling,
                back_to: None,
            },
        );
    }

    pub(super) fn correct(&mut self, at: Millis, side: Side, correction: Correction) {
        let article = correction.article();
        let (ruling, back_to) = match correction {
            Correction::RestoreTo(ply) => {
                let now = self.played.len();
                if ply >= now {
                    let reason = format!("no move to take back: {now} plies stand, the position after {ply} asked for");
                    self.refuse(at, side, Why::NothingToRestore, reason);
                    return;
                }
                self.take_back_to(at, ply);
                (
                    format!(
                        "the position put right: back to the last correct one, after ply {ply} ({} taken back)",
                        now - ply
                    ),
                    Some(ply),
                )
            }
            Correction::BoardTurned => (
                "the board was turned the wrong way: the position is moved to a board set right, play goes on".into(),
                None,
            ),
            Correction::ColoursSwapped => {
                let elapsed = self.playing_time(at);
                match self.quarter_of_first_period() {
                    Some(quarter) if elapsed > quarter => (
                        format!(
                            "colours swapped, found after {} s, past a quarter of the first time period ({} s): play goes on",
                            elapsed / 1000,
                            quarter / 1000
                        ),
                        None,
                    ),
                    _ => {
                        self.restart(at);
                        (
                            format!(
                                "colours swapped, found after {} s, within a quarter of the first time period: the pieces are exchanged and the game starts again",
                                elapsed / 1000
                            ),
                            Some(0),
                        )
                    }
                }
            }
        };
        self.emit(
            at,
            EventKind::Corrected {
                side,
                article,
                ruling,
                back_to,
            },
        );
    }

    /// Playing time since the start: adjournments do not count.
    fn playing_time(&self, at: Millis) -> Millis {
        at.saturating_sub(self.started_at).saturating_sub(self.paused)
    }

    /// A quarter of the first time period: the first stage's time, else the limit per move;
    /// `None` without a time limit.
    fn quarter_of_first_period(&self) -> Option<Millis> {
        let control = self.clock.control();
        let first = control.stages.first().map(|s| s.time).or(control.per_move)?;
        Some(first / 4)
    }

    /// The position after the first `ply` standing moves: replayed on the judge the game began
    /// with. The clocks stand as they are (the arbiter corrects them apart, with a reason); the
    /// side to move then has the move, and its clock runs from `at`.
    pub(super) fn take_back_to(&mut self, at: Millis, ply: usize) {
        let mut judge = self.initial.clone();
        let mut phase_start = 0;
        let mut stood = 0;
        for &m in &self.played[..ply] {
            let zeroing = judge.position().is_zeroing(m);
            // These moves were accepted from these very positions: they are accepted again.
            if judge.push(m).is_err() {
                break;
            }
            stood += 1;
            if zeroing {
                phase_start = judge.ply();
            }
        }
        self.judge = judge;
        self.played.truncate(stood);
        self.phase_start = phase_start;
        self.clear_pending();
        if self.phase != Phase::Playing {
            return;
        }
        if let Err(flag) = self.clock.stop(at) {
            self.flag_fell(flag);
            return;
        }
        self.clock.start(self.judge.position().turn(), at);
    }

    /// A new game from the start: fresh clocks and foul counts; both players are at the board,
    /// so lateness is over.
    fn restart(&mut self, at: Millis) {
        self.judge = self.initial.clone();
        self.played.clear();
        self.clock = Clock::new(self.rules.time.clone());
        self.fouls = BySide::default();
        self.phase_start = 0;
        self.started_at = at;
        self.paused = 0;
        self.moved = BySide::both(true);
        self.clear_pending();
        if self.phase == Phase::Playing {
            self.clock.start(self.judge.position().turn(), at);
        } else {
            // Adjourned: the game restarts when play resumes.
            self.adjourned_at = Some(at);
        }
    }

    /// Touches, offers and a ruling waiting on a side belong to the position left behind.
    fn clear_pending(&mut self) {
        self.touches.clear();
        self.offer = None;
        self.may_offer = BySide::both(true);
        self.told_to_vary = false;
        self.takeback = None;
    }

    /// An arbiter's time correction: `ms` added to `side`'s main time, or its main time set
    /// to `ms`.
    pub(super) fn correct_time(&mut self, at: Millis, side: Side, ms: Millis, add: bool, reason: &str) {
        if self.clock.control().stages.is_empty() {
            let reason = "this game's clock has no main time to correct".to_string();
            self.refuse(at, side, Why::NoMainTime, reason);
            return;
        }
        if add {
            self.clock.add_time(side, ms);
        } else {
            self.clock.set_main(side, ms, at);
        }
        let clocks = BySide::new(|s| self.clock.remaining(s, at));
        let reason = reason.to_string();
        self.emit(at, EventKind::TimeCorrected { side, clocks, reason });
    }
}
