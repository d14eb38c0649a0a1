//! Double elimination: a winners' bracket (an ordinary seeded single elimination), a losers'
//! bracket that every winners'-bracket loser drops into, and a grand final with a reset when the
//! losers'-bracket champion wins the first final (both then have one loss).
//!
//! The losers' bracket alternates a "minor" round (its survivors against the losers dropping
//! from the next winners' round, in reversed order to avoid early rematches) and a "major" round
//! (its survivors among themselves). The bracket is [`crate::bracket::double`]; [`play`] runs a
//! whole event on it given who wins each match, so a live event and a test share one bracket.
//!
//! ```
//! use tournament::double_elimination::play;
//!
//! // The lower number always wins: 8 players, 14 matches, no reset.
//! let event = play(8, |a, b| a.min(b));
//! assert_eq!((event.winners_rounds, event.losers_rounds, event.matches.len()), (3, 4, 14));
//! assert_eq!(event.champion, 1);
//! ```

use serde::Serialize;

use crate::bracket::{self, Progress, Slot, Winner};

/// Which part of the event a match belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Stage {
    Winners(u32),
    Losers(u32),
    GrandFinal,
    Reset,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Match {
    pub stage: Stage,
    pub a: u32,
    pub b: u32,
    pub winner: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    /// The matches in the order played, round after round.
    pub matches: Vec<Match>,
    /// The winners' bracket's rounds.
    pub winners_rounds: u32,
    /// The losers' bracket's rounds in which a match was played (byes can leave some without).
    pub losers_rounds: u32,
    pub champion: u32,
}

/// Runs a double elimination of `players` (seeds 1 … n) where `winner(a, b)` decides each match
/// (any answer but `a` counts as `b`), on the bracket of [`bracket::double`]: round after round,
/// every ready match is played. With no players the champion is 0.
pub fn play(players: u32, mut winner: impl FnMut(u32, u32) -> u32) -> Event {
    let bracket = bracket::double(players);
    let mut progress = Progress::new(&bracket, Vec::new());
    let mut matches = Vec::new();
    loop {
        let ready: Vec<usize> = progress.ready().collect();
        if ready.is_empty() {
            break;
        }
        for i in ready {
            let state = progress.states()[i];
            let (Slot::Player(a), Slot::Player(b)) = (state.first, state.second) else {
                unreachable!("a ready match has two players");
            };
            let (w, side) = if winner(a, b) == a {
                (a, Winner::First)
            } else {
                (b, Winner::Second)
            };
            progress.record(i, side).expect("a ready match takes its result");
            matches.push(Match {
                stage: stage(&bracket.nodes[i]),
                a,
                b,
                winner: w,
            });
        }
    }
    let rounds = |stages: &mut dyn Iterator<Item = Stage>, losers: bool| {
        let rounds = stages.filter_map(|s| match s {
            Stage::Winners(r) if !losers => Some(r),
            Stage::Losers(r) if losers => Some(r),
            _ => None,
        });
        rounds.collect::<std::collections::BTreeSet<u32>>().len() as u32
    };
    Event {
        winners_rounds: rounds(&mut bracket.nodes.iter().map(stage), false),
        losers_rounds: rounds(&mut matches.iter().map(|m| m.stage), true),
        champion: progress.champion().unwrap_or(0),
        matches,
    }
}

/// A node's stage, read from its label (`Wr.m`, `Lr.m`, `GF.1`, the reset `GF.2`).
fn stage(node: &bracket::Node) -> Stage {
    let round = |rest: &str| rest.split('.').next().and_then(|r| r.parse().ok()).unwrap_or(0);
    if node.reset {
        Stage::Reset
    } else if let Some(rest) = node.label.strip_prefix('W') {
        Stage::Winners(round(rest))
    } else if let Some(rest) = node.label.strip_prefix('L') {
        Stage::Losers(round(rest))
    } else {
        Stage::GrandFinal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TV-KO: n = 8: 3 winners' rounds, 4 losers' rounds, 14 matches, 15 with a reset.
    #[test]
    fn eight_players() {
        let e = play(8, |a, b| a.min(b));
        assert_eq!(
            (e.winners_rounds, e.losers_rounds, e.matches.len(), e.champion),
            (3, 4, 14, 1)
        );
        assert_eq!(e.matches.last().unwrap().stage, Stage::GrandFinal);
    }

    #[test]
    fn a_reset_when_the_losers_champion_wins_the_final() {
        // Seed 2 loses to 1 in the winners' final and wins every later match.
        let mut met = 0;
        let e = play(8, |a, b| {
            if a.min(b) == 1 && a.max(b) == 2 {
                met += 1;
                if met == 1 {
                    1
                } else {
                    2
                }
            } else {
                a.min(b)
            }
        });
        assert_eq!(e.matches.len(), 15);
        assert_eq!(e.matches.last().unwrap().stage, Stage::Reset);
        assert_eq!(e.champion, 2);
    }

    #[test]
    fn every_player_but_the_champion_loses_twice_and_matches_are_2n_minus_2() {
        for n in 2..=33u32 {
            let e = play(n, |a, b| a.min(b));
            let mut losses = vec![0u32; n as usize + 1];
            for m in &e.matches {
                losses[(if m.winner == m.a { m.b } else { m.a }) as usize] += 1;
            }
            assert_eq!(e.matches.len() as u32, 2 * n - 2, "n={n}");
            for p in 2..=n {
                assert_eq!(losses[p as usize], 2, "n={n}: player {p}");
            }
            assert_eq!(losses[1], 0);
        }
    }
}
