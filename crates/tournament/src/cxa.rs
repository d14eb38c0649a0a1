//! The Chinese Xiangqi Association's scoring and tie-breaks for a one-game Swiss (rules 2011,
//! art. 13–14): a win 2, a draw 1, a loss 0; then 对手分 (the opponents' scores), 累进分 (the sum
//! of the running score after each round) and 累进分 with the first rounds removed, 胜局 (games
//! won), 后走局数 (games played with black, i.e. moving second) and 小分 (the scores of the
//! opponents beaten plus half of those drawn).
//!
//! Readings where the text is silent, as `shared/specs/tournament.md` §7.3 (TV-CXA-1) states
//! them: a pairing-allocated bye is a win whose 对手分 is the lowest non-zero score in the event;
//! a forfeit counts its scheduled opponent's score in 对手分 and a forfeit win as a game won;
//! 后走局数 counts games played over the board.
//!
//! Points: the event's point system when the file states one (a 积分编排制 event is created with
//! `162  W 2.0    D 1.0`, and regulations may choose 3/1/0), counted as the FIDE tie-breaks
//! count them ([`crate::tiebreak`]); 2/1/0 ([`CXA_POINTS`]) when it states none. A "win" is a
//! round scoring a win's points, a "draw" one scoring a draw's.

use serde::Serialize;

use crate::dutch::PointSystem;
use crate::event::{round_points, stated_point_system, CXA_POINTS};
use crate::result::{Bye, RoundResult};
use crate::trf::{Colour, Trf};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CxaValues {
    pub number: u32,
    pub score: f64,
    /// 对手分.
    pub opponents: f64,
    /// 累进分.
    pub progressive: f64,
    /// 累进分 with round 1 removed from every running total (去首轮).
    pub progressive_cut1: f64,
    /// 胜局.
    pub wins: u32,
    /// 后走局数.
    pub black_games: u32,
    /// 小分: the scores of the opponents beaten plus half of those drawn.
    pub small_points: f64,
}

/// The points the CXA orders count: the file's point system, 2/1/0 if it states none.
pub fn point_system(t: &Trf) -> PointSystem {
    stated_point_system(t).unwrap_or(CXA_POINTS)
}

pub fn compute(t: &Trf) -> Vec<CxaValues> {
    let ps = point_system(t);
    // Tenths of a point throughout (小分 in twentieths, for the halves).
    let points = |r| u64::from(round_points(&ps, r));
    let score = |n: u32| t.player(n).map_or(0, |p| p.rounds.iter().map(points).sum::<u64>());
    let tenths = |x: u64| x as f64 / 10.0;
    let lowest_nonzero = t
        .players
        .iter()
        .map(|p| score(p.number))
        .filter(|&s| s > 0)
        .min()
        .unwrap_or(0);
    let (win, draw) = (u64::from(ps.win), u64::from(ps.draw));
    t.players
        .iter()
        .map(|p| {
            let mut running = 0;
            let cumulative: Vec<u64> = p
                .rounds
                .iter()
                .map(|r| {
                    running += points(r);
                    running
                })
                .collect();
            let first = cumulative.first().copied().unwrap_or(0);
            let opponents = p
                .rounds
                .iter()
                .map(|r| match r.result {
                    RoundResult::Bye(Bye::PairingAllocated | Bye::Full) if r.opponent == 0 => lowest_nonzero,
                    _ if r.opponent != 0 => score(r.opponent),
                    _ => 0,
                })
                .sum();
            let small: u64 = p
                .rounds
                .iter()
                .filter(|r| r.opponent != 0)
                .map(|r| match points(r) {
                    x if x == win => 2 * score(r.opponent),
                    x if x == draw => score(r.opponent),
                    _ => 0,
                })
                .sum();
            CxaValues {
                number: p.number,
                score: tenths(score(p.number)),
                opponents: tenths(opponents),
                progressive: tenths(cumulative.iter().sum()),
                progressive_cut1: tenths(cumulative.iter().skip(1).map(|c| c - first).sum()),
                wins: p.rounds.iter().filter(|r| points(r) == win).count() as u32,
                black_games: p
                    .rounds
                    .iter()
                    .filter(|r| r.played() && r.colour == Colour::Black)
                    .count() as u32,
                small_points: small as f64 / 20.0,
            }
        })
        .collect()
}
