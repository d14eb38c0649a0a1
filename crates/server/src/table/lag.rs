//! The lag a side's moves may be credited, within a quota.

use game::{BySide, Side};
use referee::clock::Millis;

use crate::live::Live;

/// Lag each side may still be credited (ms), as lichess's quota (scalachess `LagTracker`): a
/// side starts with 3 gains, gains one a move and holds at most 7, so a client claiming lag on
/// every move gains at most one gain a move, while one real spike is covered in full. The gain
/// is 2/5 of the game's estimated seconds (main time + 40 increments) in centiseconds plus 15,
/// at most 1 s.
pub(crate) struct LagQuota {
    quota: BySide<Millis>,
    gain: Millis,
}

impl LagQuota {
    pub(crate) fn new(control: &referee::clock::TimeControl) -> LagQuota {
        let estimated_s = control.stages.first().map_or(0, |s| (s.time + 40 * s.increment) / 1000);
        let gain = (estimated_s * 4 + 150).min(1000);
        LagQuota {
            quota: BySide::both(3 * gain),
            gain,
        }
    }

    /// Whether a move by `side` now is one the quota counts: the side to move's, once the game
    /// has started (the first move starts the clocks and is charged nothing).
    pub(crate) fn applies(&self, live: &Live, side: Side) -> bool {
        side == live.turn() && live.commands() > 0
    }

    /// The credit for a move reporting `lag`, which cannot exceed the `elapsed` turn.
    pub(crate) fn credit(&mut self, side: Side, lag: Millis, elapsed: Millis) -> Millis {
        let q = &mut self.quota[side];
        *q = (*q + self.gain).min(7 * self.gain);
        let credit = lag.min(*q).min(elapsed);
        *q -= credit;
        credit
    }

    /// How long after its flag time a side may still move in time (its next credit, at most
    /// 2 s, as lichess's grace).
    pub(crate) fn grace(&self, side: Side) -> Millis {
        (self.quota[side] + self.gain).min(7 * self.gain).min(2000)
    }
}
