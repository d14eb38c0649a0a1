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

use serde::Serialize;

use crate::trf::{Colour, Round, Trf};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CxaValues {
    pub number: u32,
    pub score: u32,
    /// 对手分.
    pub opponents: u32,
    /// 累进分.
    pub progressive: u32,
    /// 累进分 with round 1 removed from every running total (去首轮).
    pub progressive_cut1: u32,
    /// 胜局.
    pub wins: u32,
    /// 后走局数.
    pub black_games: u32,
    /// 小分, in halves (a half counts a drawn opponent's score).
    pub small_points_halves: u32,
}

/// 2 for a win (a bye or forfeit too), 1 for a draw or half-point bye, 0 otherwise.
fn points(r: &Round) -> u32 {
    (r.points() * 2.0) as u32
}

pub fn compute(t: &Trf) -> Vec<CxaValues> {
    let score = |n: u32| t.player(n).map_or(0, |p| p.rounds.iter().map(points).sum::<u32>());
    let lowest_nonzero = t
        .players
        .iter()
        .map(|p| score(p.number))
        .filter(|&s| s > 0)
        .min()
        .unwrap_or(0);
    t.players
        .iter()
        .map(|p| {
            let mut running = 0;
            let cumulative: Vec<u32> = p
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
                    'U' | 'F' if r.opponent == 0 => lowest_nonzero,
                    _ if r.opponent != 0 => score(r.opponent),
                    _ => 0,
                })
                .sum();
            let small = p
                .rounds
                .iter()
                .filter(|r| r.opponent != 0)
                .map(|r| match points(r) {
                    2 => 2 * score(r.opponent),
                    1 => score(r.opponent),
                    _ => 0,
                })
                .sum();
            CxaValues {
                number: p.number,
                score: score(p.number),
                opponents,
                progressive: cumulative.iter().sum(),
                progressive_cut1: cumulative.iter().skip(1).map(|c| c - first).sum(),
                wins: p.rounds.iter().filter(|r| points(r) == 2).count() as u32,
                black_games: p
                    .rounds
                    .iter()
                    .filter(|r| r.played() && r.colour == Colour::Black)
                    .count() as u32,
                small_points_halves: small,
            }
        })
        .collect()
}
