//! Clock properties on random time controls and move times: time left never grows while a
//! side thinks and never goes below zero; a move is refused exactly when it comes after the
//! flag time the clock announced; replaying the same presses gives the same clocks.

use game::Side;
use proptest::prelude::*;
use referee::clock::{Clock, Stage, TimeControl};

fn control() -> impl Strategy<Value = TimeControl> {
    (
        0u64..4,
        1_000u64..120_000,
        0u64..5_000,
        proptest::option::of(1_000u64..60_000),
        proptest::option::of((1u32..4, 1_000u64..20_000)),
        proptest::option::of(1u32..5),
    )
        .prop_map(|(kind, time, extra, per_move, byoyomi, stage_moves)| {
            let mut c = match kind {
                0 => TimeControl::sudden_death(time),
                1 => TimeControl::fischer(time, extra),
                2 => TimeControl::bronstein(time, extra),
                _ => TimeControl::stages(vec![
                    Stage {
                        moves: stage_moves,
                        time,
                        increment: extra,
                        bronstein: 0,
                    },
                    Stage {
                        moves: None,
                        time: time / 2,
                        increment: 0,
                        bronstein: extra,
                    },
                ]),
            };
            c.per_move = per_move;
            c.byoyomi = byoyomi;
            c
        })
}

proptest! {
    #[test]
    fn clocks_behave(control in control(), thinks in proptest::collection::vec(0u64..40_000, 1..60)) {
        let mut clock = Clock::new(control);
        let mut now = 5_000u64;
        clock.start(Side::First, now);
        let mut presses = Vec::new();
        for think in thinks {
            let side = clock.running().unwrap();
            let before = clock.remaining(side, now);
            // Time left only falls while the side thinks.
            let mid = clock.remaining(side, now + think / 2);
            let end = clock.remaining(side, now + think);
            prop_assert!(mid.main <= before.main && end.main <= mid.main);
            prop_assert!(end.periods <= before.periods);
            let flag_time = clock.flag_time();
            let result = clock.press(now + think);
            match flag_time {
                Some(t) if now + think > t => {
                    prop_assert!(result.is_err());
                    prop_assert_eq!(result.unwrap_err().at, t);
                    break;
                }
                _ => prop_assert!(result.is_ok(), "{:?} at {} (flag {:?})", result, now + think, flag_time),
            }
            now += think;
            presses.push(now);
        }
        // The same presses replayed give the same clocks.
        let mut again = Clock::new(clock.control().clone());
        again.start(Side::First, 5_000);
        for &t in &presses {
            again.press(t).unwrap();
        }
        prop_assert_eq!(again, clock);
    }
}
