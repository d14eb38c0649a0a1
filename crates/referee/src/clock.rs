//! Time controls and the two clocks that run under them.
//!
//! All times are milliseconds. A clock only ever reads the times it is given: `start` when a
//! side's turn begins, `press` when it moves, `flag_time` to learn when the side to move runs out
//! — so a server schedules one timer per game, and a replayed log gives the same clocks.
//!
//! ```
//! use referee::clock::{Clock, TimeControl};
//! use game::{BySide, Side};
//!
//! // 5 minutes and 3 seconds a move.
//! let mut clock = Clock::new(TimeControl::fischer(300_000, 3_000));
//! clock.start(Side::First, 0);
//! clock.press(10_000).unwrap(); // white moved after 10 s
//! assert_eq!(clock.remaining(Side::First, 10_000).main, 293_000);
//! assert_eq!(clock.flag_time(), Some(10_000 + 300_000)); // black's flag, if black never moves
//! ```

use game::{BySide, Side};
use serde::Serialize;

/// Milliseconds.
pub type Millis = u64;

/// One stage of a time control: `moves` moves (or the rest of the game) in `time`, with
/// `increment` added after each move and `delay` before the clock starts counting each move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Stage {
    /// Moves to make in this stage; `None`: the rest of the game.
    pub moves: Option<u32>,
    pub time: Millis,
    /// Fischer increment, added after each move of the stage.
    pub increment: Millis,
    /// Bronstein delay: after each move, what was used of it is given back (at most `delay`).
    pub bronstein: Millis,
}

/// How much time the players have.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TimeControl {
    /// The stages in order; the last one lasts the rest of the game. Time left over from a stage
    /// carries into the next ("N moves in T, then …"; a side that has not made the stage's
    /// moves when its time runs out loses: "在规定时限内未走满规定着数").
    pub stages: Vec<Stage>,
    /// A limit on every single move, besides or instead of the stages (seed 000: "每方走一着棋的
    /// 时间不得超过 N 秒，超时判负").
    pub per_move: Option<Millis>,
    /// Byo-yomi after the main time: this many periods of `period` each; a move made within a
    /// period keeps it, a period that runs out is used up, and the flag falls in the last one.
    pub byoyomi: Option<(u32, Millis)>,
}

impl TimeControl {
    /// All moves in `time`.
    pub fn sudden_death(time: Millis) -> TimeControl {
        TimeControl::stages(vec![Stage {
            moves: None,
            time,
            increment: 0,
            bronstein: 0,
        }])
    }

    /// `time`, plus `increment` after every move.
    pub fn fischer(time: Millis, increment: Millis) -> TimeControl {
        TimeControl::stages(vec![Stage {
            moves: None,
            time,
            increment,
            bronstein: 0,
        }])
    }

    /// `time`, with up to `delay` of each move's time given back.
    pub fn bronstein(time: Millis, delay: Millis) -> TimeControl {
        TimeControl::stages(vec![Stage {
            moves: None,
            time,
            increment: 0,
            bronstein: delay,
        }])
    }

    /// Only a limit per move: each move within `limit`, nothing accumulates.
    pub fn per_move(limit: Millis) -> TimeControl {
        TimeControl {
            stages: Vec::new(),
            per_move: Some(limit),
            byoyomi: None,
        }
    }

    pub fn stages(stages: Vec<Stage>) -> TimeControl {
        TimeControl {
            stages,
            per_move: None,
            byoyomi: None,
        }
    }

    /// Main time `time`, then `periods` byo-yomi periods of `period`.
    pub fn byoyomi(time: Millis, periods: u32, period: Millis) -> TimeControl {
        TimeControl {
            byoyomi: Some((periods, period)),
            ..TimeControl::sudden_death(time)
        }
    }

    /// No clock at all.
    pub fn unlimited() -> TimeControl {
        TimeControl {
            stages: Vec::new(),
            per_move: None,
            byoyomi: None,
        }
    }

    fn first_stage_time(&self) -> Millis {
        self.stages.first().map_or(0, |s| s.time)
    }

    /// Whether the stages limit the game's time at all.
    fn has_main_time(&self) -> bool {
        !self.stages.is_empty()
    }
}

/// What a side has left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Remaining {
    /// Main time (0 with no stages).
    pub main: Millis,
    /// Byo-yomi periods left, and what is left of the current one.
    pub periods: u32,
    pub period: Millis,
}

/// A side ran out of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Flag {
    pub side: Side,
    /// When the flag fell.
    pub at: Millis,
    /// Which limit: the main time (with its byo-yomi), or the limit per move.
    pub per_move: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SideClock {
    main: Millis,
    periods: u32,
    /// Moves made in the current stage, and the stage's index.
    stage: usize,
    stage_moves: u32,
    moves: u32,
}

/// The two clocks of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    sides: BySide<SideClock>,
    /// The side whose clock runs, and since when.
    running: Option<(Side, Millis)>,
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        let side = SideClock {
            main: control.first_stage_time(),
            periods: control.byoyomi.map_or(0, |(n, _)| n),
            stage: 0,
            stage_moves: 0,
            moves: 0,
        };
        Clock {
            control,
            sides: BySide::both(side),
            running: None,
        }
    }

    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(s, _)| s)
    }

    /// Starts `side`'s clock at `now` (the game's start, or after a pause).
    pub fn start(&mut self, side: Side, now: Millis) {
        self.running = Some((side, now));
    }

    /// Stops the clocks (adjournment, the end of the game); the running side is charged up to
    /// `now`. Returns its flag if it had already fallen.
    pub fn stop(&mut self, now: Millis) -> Result<(), Flag> {
        let Some((side, since)) = self.running.take() else {
            return Ok(());
        };
        let used = now.saturating_sub(since);
        let flag = self.flag_after(side, used, since);
        let (main, periods, _) = self.charge(self.sides[side], used);
        let c = &mut self.sides[side];
        c.main = main;
        c.periods = periods;
        flag.map_or(Ok(()), Err)
    }

    /// What is left at `now` of the per-move limit (the seeds' 每步限时) for the running side's
    /// current move; `None` without such a limit or with no clock running.
    pub fn move_left(&self, now: Millis) -> Option<Millis> {
        let limit = self.control.per_move?;
        let (_, since) = self.running?;
        Some(limit.saturating_sub(now.saturating_sub(since)))
    }

    /// What `side` has left at `now`.
    pub fn remaining(&self, side: Side, now: Millis) -> Remaining {
        let c = self.sides[side];
        let used = match self.running {
            Some((s, since)) if s == side => now.saturating_sub(since),
            _ => 0,
        };
        let (main, periods, period) = self.charge(c, used);
        Remaining { main, periods, period }
    }

    /// The time `c` has left after using `used` on the current move: main time, periods, and
    /// what is left of the current period. Bronstein delay is given back only after the move.
    fn charge(&self, c: SideClock, used: Millis) -> (Millis, u32, Millis) {
        if !self.control.has_main_time() {
            return (0, 0, 0);
        }
        if used <= c.main {
            let period = self.control.byoyomi.map_or(0, |(_, p)| p);
            return (c.main - used, c.periods, period);
        }
        let over = used - c.main;
        match self.control.byoyomi {
            Some((_, p)) if p > 0 && c.periods > 0 => {
                let spent = (over / p) as u32;
                if spent >= c.periods {
                    (0, 0, 0)
                } else {
                    (0, c.periods - spent, p - over % p)
                }
            }
            _ => (0, 0, 0),
        }
    }

    /// How long `side` may think, from the start of its turn, before a flag falls: the main
    /// time and byo-yomi, and the limit per move, whichever is less. `None`: no limit.
    fn allowance(&self, side: Side) -> Option<(Millis, bool)> {
        let c = self.sides[side];
        let main = self
            .control
            .has_main_time()
            .then(|| c.main + self.control.byoyomi.map_or(0, |(_, p)| p * u64::from(c.periods)));
        match (main, self.control.per_move) {
            (Some(m), Some(p)) if p < m => Some((p, true)),
            (Some(m), _) => Some((m, false)),
            (None, Some(p)) => Some((p, true)),
            (None, None) => None,
        }
    }

    fn flag_after(&self, side: Side, used: Millis, since: Millis) -> Option<Flag> {
        let (allowed, per_move) = self.allowance(side)?;
        (used > allowed).then_some(Flag {
            side,
            at: since + allowed,
            per_move,
        })
    }

    /// When the running side's flag falls if it does not move: the one time a server needs
    /// to wake up for.
    pub fn flag_time(&self) -> Option<Millis> {
        let (side, since) = self.running?;
        self.allowance(side).map(|(a, _)| since + a)
    }

    /// The running side's flag, if it has fallen by `now`.
    pub fn flag(&self, now: Millis) -> Option<Flag> {
        self.flag_lagged(now, 0)
    }

    /// The running side's flag, if it had fallen `lag` ms before `now`.
    pub fn flag_lagged(&self, now: Millis, lag: Millis) -> Option<Flag> {
        let (side, since) = self.running?;
        self.flag_after(side, now.saturating_sub(since).saturating_sub(lag), since)
    }

    /// The running side moved at `now`: its clock stops (with increment or delay credited and
    /// stage time added when the stage's moves are made) and the other side's starts. A move
    /// after the flag fell is refused with the flag, and the clocks stay as they were.
    pub fn press(&mut self, now: Millis) -> Result<(), Flag> {
        self.press_lagged(now, 0)
    }

    /// As [`Clock::press`] for a move made `lag` ms before it arrived at `now`: the mover is
    /// charged up to `now - lag` (not before its turn began), the other side's clock starts at
    /// `now`.
    pub fn press_lagged(&mut self, now: Millis, lag: Millis) -> Result<(), Flag> {
        let Some((side, since)) = self.running else {
            return Ok(());
        };
        let used = now.saturating_sub(since).saturating_sub(lag);
        if let Some(flag) = self.flag_after(side, used, since) {
            return Err(flag);
        }
        let (main, periods, _) = self.charge(self.sides[side], used);
        let control = &self.control;
        let c = &mut self.sides[side];
        let in_byoyomi = control.has_main_time() && used > c.main;
        c.periods = periods;
        c.main = main;
        c.moves += 1;
        if let Some(stage) = control.stages.get(c.stage).copied() {
            if !in_byoyomi {
                c.main += stage.increment + used.min(stage.bronstein);
            }
            c.stage_moves += 1;
            if stage.moves == Some(c.stage_moves) {
                if let Some(next) = control.stages.get(c.stage + 1) {
                    c.stage += 1;
                    c.stage_moves = 0;
                    c.main += next.time;
                } else {
                    // The last stage repeats ("40 in 2 h, then 40 in 2 h …" is one stage).
                    c.stage_moves = 0;
                    c.main += stage.time;
                }
            }
        }
        self.running = Some((!side, now));
        Ok(())
    }

    /// Adds `ms` to `side`'s main time (an arbiter's penalty for the other side: FIDE 9.5.3
    /// gives two minutes after a false claim).
    pub fn add_time(&mut self, side: Side, ms: Millis) {
        if self.control.has_main_time() {
            self.sides[side].main += ms;
        }
    }

    /// Sets `side`'s main time to `ms` at `now` (an arbiter's time correction); a running clock
    /// is charged up to `now` first and runs on from there. Nothing with no main time.
    pub fn set_main(&mut self, side: Side, ms: Millis, now: Millis) {
        if !self.control.has_main_time() {
            return;
        }
        if let Some((running, since)) = self.running {
            if running == side {
                let (_, periods, _) = self.charge(self.sides[side], now.saturating_sub(since));
                self.sides[side].periods = periods;
                self.running = Some((side, now));
            }
        }
        self.sides[side].main = ms;
    }

    /// Moves made by `side`.
    pub fn moves(&self, side: Side) -> u32 {
        self.sides[side].moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: Side = Side::First;
    const B: Side = Side::Second;

    #[test]
    fn sudden_death_runs_down_and_flags() {
        let mut c = Clock::new(TimeControl::sudden_death(60_000));
        c.start(W, 1_000);
        assert_eq!(c.flag_time(), Some(61_000));
        c.press(21_000).unwrap();
        assert_eq!(c.remaining(W, 50_000).main, 40_000);
        assert_eq!(c.remaining(B, 50_000).main, 31_000);
        assert_eq!(c.flag(80_000), None);
        assert_eq!(
            c.press(81_001),
            Err(Flag {
                side: B,
                at: 81_000,
                per_move: false
            })
        );
        assert_eq!(c.remaining(B, 90_000).main, 0);
    }

    #[test]
    fn fischer_adds_after_each_move_and_bronstein_gives_back_what_was_used() {
        let mut c = Clock::new(TimeControl::fischer(10_000, 2_000));
        c.start(W, 0);
        c.press(3_000).unwrap();
        assert_eq!(c.remaining(W, 3_000).main, 9_000);
        let mut c = Clock::new(TimeControl::bronstein(10_000, 2_000));
        c.start(W, 0);
        c.press(3_000).unwrap(); // used 3 s, 2 s given back
        assert_eq!(c.remaining(W, 3_000).main, 9_000);
        c.press(4_000).unwrap();
        c.press(5_000).unwrap(); // used 1 s, 1 s given back
        assert_eq!(c.remaining(W, 5_000).main, 9_000);
    }

    #[test]
    fn a_limit_per_move_flags_a_slow_move_whatever_the_main_time() {
        // Seed 000: each move within N seconds.
        let mut c = Clock::new(TimeControl::per_move(30_000));
        c.start(W, 0);
        c.press(29_000).unwrap();
        assert_eq!(c.flag_time(), Some(59_000));
        assert_eq!(
            c.press(59_500),
            Err(Flag {
                side: B,
                at: 59_000,
                per_move: true
            })
        );
        let mut both = TimeControl::sudden_death(600_000);
        both.per_move = Some(30_000);
        let mut c = Clock::new(both);
        c.start(W, 0);
        assert_eq!(c.flag_time(), Some(30_000));
    }

    #[test]
    fn stages_add_time_when_the_moves_are_made() {
        // 2 moves in 10 s, then 5 s for the rest.
        let control = TimeControl::stages(vec![
            Stage {
                moves: Some(2),
                time: 10_000,
                increment: 0,
                bronstein: 0,
            },
            Stage {
                moves: None,
                time: 5_000,
                increment: 0,
                bronstein: 0,
            },
        ]);
        let mut c = Clock::new(control);
        c.start(W, 0);
        c.press(4_000).unwrap(); // W 6 s left
        c.press(4_000).unwrap();
        c.press(8_000).unwrap(); // W's second move: 2 s left + 5 s
        assert_eq!(c.remaining(W, 8_000).main, 7_000);
        // Black has not made its two moves when its 10 s run out: it loses on time.
        c.press(8_000).unwrap();
        assert!(c.flag(8_000 + 10_001).is_some());
    }

    #[test]
    fn byoyomi_keeps_a_period_for_a_move_made_within_it() {
        let mut c = Clock::new(TimeControl::byoyomi(10_000, 3, 5_000));
        c.start(W, 0);
        assert_eq!(c.flag_time(), Some(25_000));
        // Main time and 4 s of the first period used: the period is kept.
        c.press(14_000).unwrap();
        assert_eq!(
            c.remaining(W, 14_000),
            Remaining {
                main: 0,
                periods: 3,
                period: 5_000
            }
        );
        c.press(14_000).unwrap();
        // 7 s into byo-yomi: one period used up, 3 s left of the second.
        assert_eq!(
            c.remaining(W, 21_000),
            Remaining {
                main: 0,
                periods: 2,
                period: 3_000
            }
        );
        c.press(21_000).unwrap();
        assert_eq!(c.remaining(W, 21_000).periods, 2);
        c.press(21_000).unwrap();
        assert_eq!(c.flag_time(), Some(31_000));
        assert!(c.press(31_001).is_err());
    }

    #[test]
    fn stopping_charges_the_running_side() {
        let mut c = Clock::new(TimeControl::sudden_death(10_000));
        c.start(W, 0);
        assert_eq!(c.stop(4_000), Ok(()));
        assert_eq!(c.running(), None);
        assert_eq!(c.remaining(W, 99_000).main, 6_000);
        c.start(W, 100_000);
        assert!(c.stop(107_000).is_err());
        let mut u = Clock::new(TimeControl::unlimited());
        u.start(W, 0);
        assert_eq!(u.flag_time(), None);
        assert_eq!(u.press(1 << 40), Ok(()));
    }
}
