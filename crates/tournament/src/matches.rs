//! Matches of N games between two players: colours alternate, the match ends as soon as a
//! player cannot be caught, and a tie is broken by a play-off game or by drawing lots (seed 000
//! §6: 三局两胜制。若出现平局现象，双方选择加赛一局或以抽签方式分出胜负) — the lot drawn from a
//! seed and logged, so the draw can be audited and replayed.
//!
//! ```
//! use tournament::matches::{Match, Status, TieBreak};
//! use tournament::result::Score;
//!
//! let mut m = Match::new(3, TieBreak::Lots { seed: 7 });
//! assert_eq!(m.next_first(), Some(0)); // player 0 has red (moves first) in game 1
//! m.record(Score::Win);                // player 0 wins game 1
//! assert_eq!(m.next_first(), Some(1)); // colours alternate
//! m.record(Score::Win);                // player 1 wins game 2 with red
//! m.record(Score::Draw);
//! // 1.5 each: the lot decides, and says how.
//! assert!(matches!(m.status(), Status::Won { by_lot: true, .. }));
//! ```

use serde::Serialize;

use crate::lots::splitmix64;
use crate::result::Score;

/// How a tied match is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TieBreak {
    /// One more game (colours continue to alternate), and again while it is drawn.
    PlayOff,
    /// Up to `games` play-off games (colours continue to alternate), then lots drawn from
    /// `seed` if it is still tied: the issue's "play-off games with their own (faster) time
    /// control and then lots".
    PlayOffThenLots { games: u32, seed: u64 },
    /// Lots drawn from this seed.
    Lots { seed: u64 },
}

/// A match's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Status {
    /// The next game is to be played.
    Playing,
    /// Player `winner` (0 or 1) won; `by_lot` when lots decided, with the log of the draw.
    Won {
        winner: usize,
        by_lot: bool,
        log: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Match {
    /// Games in the match (3 for 三局两胜).
    pub games: u32,
    pub tie_break: TieBreak,
    /// Each game: which player moved first, and the game's score for that player.
    pub results: Vec<(usize, Score)>,
}

impl Match {
    pub fn new(games: u32, tie_break: TieBreak) -> Match {
        Match {
            games: games.max(1),
            tie_break,
            results: Vec::new(),
        }
    }

    /// Points of each player, in half points (a win 2, a draw 1).
    pub fn half_points(&self) -> [u32; 2] {
        let mut p = [0, 0];
        for &(first, score) in &self.results {
            match score {
                Score::Win => p[first] += 2,
                Score::Loss => p[1 - first] += 2,
                Score::Draw => {
                    p[0] += 1;
                    p[1] += 1;
                }
            }
        }
        p
    }

    pub fn status(&self) -> Status {
        let p = self.half_points();
        let played = self.results.len() as u32;
        let regular = played.min(self.games);
        // Half points still to play for in the regular games.
        let open = 2 * (self.games - regular);
        for w in 0..2 {
            if p[w] > p[1 - w] + open {
                return Status::Won {
                    winner: w,
                    by_lot: false,
                    log: None,
                };
            }
        }
        if played < self.games || p[0] != p[1] {
            return Status::Playing;
        }
        let seed = match self.tie_break {
            TieBreak::PlayOff => return Status::Playing,
            TieBreak::PlayOffThenLots { games, .. } if played < self.games + games => return Status::Playing,
            TieBreak::PlayOffThenLots { seed, .. } | TieBreak::Lots { seed } => seed,
        };
        let r = splitmix64(seed);
        let winner = (r & 1) as usize;
        Status::Won {
            winner,
            by_lot: true,
            log: Some(format!(
                "tied at {}-{}: lots drawn with splitmix64(seed {seed}) = {r:#018x}, lowest bit {winner}: player \
                 {winner} wins",
                p[0] as f32 / 2.0,
                p[1] as f32 / 2.0
            )),
        }
    }

    /// The player who moves first in the next game (`None` when the match is over): player 0
    /// in game 1, then alternating — play-off games included.
    pub fn next_first(&self) -> Option<usize> {
        matches!(self.status(), Status::Playing).then_some(self.results.len() % 2)
    }

    /// Records the next game's score for the player who moved first in it.
    pub fn record(&mut self, score: Score) {
        if let Some(first) = self.next_first() {
            self.results.push((first, score));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_of_three_ends_when_a_player_cannot_be_caught() {
        let mut m = Match::new(3, TieBreak::PlayOff);
        m.record(Score::Win); // player 0
        m.record(Score::Loss); // player 1 had red and lost: player 0 again
        assert_eq!(
            m.status(),
            Status::Won {
                winner: 0,
                by_lot: false,
                log: None
            }
        );
        assert_eq!(m.next_first(), None);
        m.record(Score::Win);
        assert_eq!(m.results.len(), 2, "no game after the end");
    }

    #[test]
    fn a_tie_goes_to_a_play_off_with_colours_alternating() {
        let mut m = Match::new(3, TieBreak::PlayOff);
        for o in [Score::Draw, Score::Draw, Score::Draw] {
            m.record(o);
        }
        assert_eq!((m.status(), m.next_first()), (Status::Playing, Some(1)));
        m.record(Score::Draw);
        assert_eq!(m.next_first(), Some(0));
        m.record(Score::Loss); // player 1 wins with black
        assert!(matches!(
            m.status(),
            Status::Won {
                winner: 1,
                by_lot: false,
                ..
            }
        ));
    }

    #[test]
    fn lots_are_seeded_and_logged() {
        let tied = |seed| {
            let mut m = Match::new(1, TieBreak::Lots { seed });
            m.record(Score::Draw);
            m.status()
        };
        assert_eq!(tied(1), tied(1));
        let winners: Vec<usize> = (0..32)
            .map(|s| match tied(s) {
                Status::Won {
                    winner,
                    by_lot: true,
                    log,
                } => {
                    assert!(log.unwrap().contains(&format!("seed {s}")));
                    winner
                }
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(winners.contains(&0) && winners.contains(&1));
    }
}
