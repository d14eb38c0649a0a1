//! What engine games are played under: a time control as match runners write it ([`Tc`]),
//! each engine's limits ([`Control`]), and the referee's rules for engine games
//! ([`engine_rules`]).

use referee::clock::{Millis, Stage, TimeControl};
use referee::{FoulKind, OfferPenalty, RefereeRules};

/// A time control as match runners write it: `40/60+0.6` (40 moves in 60 s, 0.6 s a move
/// added), `10+0.1`, `60`. Times are milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tc {
    /// Moves per period (the period repeats); `None`: the whole game.
    pub moves: Option<u32>,
    pub time: Millis,
    pub increment: Millis,
}

impl Tc {
    /// Reads `[moves/]time[+increment]`, times in seconds (`1:30` for minutes and seconds).
    pub fn parse(s: &str) -> Result<Tc, String> {
        let bad = || format!("bad time control {s:?} (expected e.g. 40/60+0.6, 10+0.1 or 60)");
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (Some(m.trim().parse::<u32>().map_err(|_| bad())?), r),
            None => (None, s),
        };
        let (time, inc) = match rest.split_once('+') {
            Some((t, i)) => (t, Some(i)),
            None => (rest, None),
        };
        let time = match time.split_once(':') {
            Some((m, sec)) => seconds(m).ok_or_else(bad)? * 60 + seconds(sec).ok_or_else(bad)?,
            None => seconds(time).ok_or_else(bad)?,
        };
        let increment = inc.map(|i| seconds(i).ok_or_else(bad)).transpose()?.unwrap_or(0);
        if moves == Some(0) {
            return Err(bad());
        }
        Ok(Tc { moves, time, increment })
    }
}

/// Seconds (a decimal) as milliseconds.
pub fn seconds(s: &str) -> Option<Millis> {
    let v: f64 = s.trim().parse().ok()?;
    (v.is_finite() && v >= 0.0).then(|| (v * 1000.0).round() as Millis)
}

/// What limits an engine's moves: a clock, a fixed time per move, nodes, depth (any mix: all
/// are sent to the engine; the clock and the time per move are the referee's too).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Control {
    pub tc: Option<Tc>,
    /// `st`: milliseconds per move.
    pub movetime: Option<Millis>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    /// How far past its time an engine may answer without losing on time (fastchess's
    /// `timemargin`): a move within the margin is charged only the time that was left.
    pub margin: Millis,
    /// The longest wait for a move when no clock limits it (nodes or depth only).
    pub timeout: Millis,
}

impl Default for Control {
    fn default() -> Control {
        Control {
            tc: None,
            movetime: None,
            nodes: None,
            depth: None,
            margin: 100,
            timeout: 30_000,
        }
    }
}

impl Control {
    /// The referee's time control for this control.
    pub fn time_control(&self) -> TimeControl {
        let mut tc = match self.tc {
            Some(tc) => TimeControl::stages(vec![Stage {
                moves: tc.moves,
                time: tc.time,
                increment: tc.increment,
                bronstein: 0,
            }]),
            None => TimeControl::unlimited(),
        };
        tc.per_move = self.movetime;
        tc
    }
}

/// The referee's rules for engine games: the match's time control, one illegal move loses,
/// offers go with a move (UCCI `bestmove … draw`), no touch-move or lateness.
pub fn engine_rules(time: TimeControl) -> RefereeRules {
    RefereeRules {
        name: "engine",
        description: "engine match: the first illegal move loses, offers with a move, no touch-move",
        time,
        illegal_moves_lose_at: Some(1),
        technical_fouls_lose_at: None,
        clock_presses_lose_at: None,
        false_limit_claims_lose_at: None,
        illegal_move_counts_as: FoulKind::IllegalMove,
        extra_move_counts_as: None,
        false_claim_counts_as: FoulKind::FalseClaim,
        // A `bestmove` that is no move loses, as cutechess and fastchess rule it.
        unreadable_move_counts_as: Some(FoulKind::IllegalMove),
        false_claim_bonus: None,
        offer_with_move: true,
        repeated_offer: OfferPenalty::Warning,
        touch_move: false,
        check_reply_with_same_piece: false,
        lateness: None,
        takebacks: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            Tc::parse("40/60+0.6").unwrap(),
            Tc {
                moves: Some(40),
                time: 60_000,
                increment: 600
            }
        );
        assert_eq!(
            Tc::parse("10+0.1").unwrap(),
            Tc {
                moves: None,
                time: 10_000,
                increment: 100
            }
        );
        assert_eq!(Tc::parse("1:30").unwrap().time, 90_000);
        assert!(Tc::parse("0/10").is_err() && Tc::parse("x").is_err());
    }
}
