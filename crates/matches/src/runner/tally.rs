//! The match's count of results: each finished game ([`Finished`]), the scores as games come in
//! ([`Tally`]: per engine, and the first engine's by game and by pair for the SPRT), and how the
//! match went ([`Summary`]).

use std::collections::HashMap;
use std::time::Duration;

use judge::Outcome;
use ratings::sprt::{Pentanomial, Status, Trinomial};
use serde::{Deserialize, Serialize};

use super::Job;

/// A finished game as the match counts it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finished {
    pub number: u32,
    pub first: String,
    pub second: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    pub termination: String,
}

/// Results counted as the match goes: every engine's, and the first engine's against the
/// others by game and by pair.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Per engine: wins, draws, losses.
    pub standings: Vec<Trinomial>,
    /// The first engine's games.
    pub trinomial: Trinomial,
    /// The first engine's finished pairs.
    pub pentanomial: Pentanomial,
    /// Halves of pairs waiting for their other game: (pair, encounter) → the first engine's
    /// score in the game played.
    halves: HashMap<(usize, u32), f64>,
}

impl Tally {
    pub(super) fn new(engines: usize) -> Tally {
        Tally {
            standings: vec![Trinomial::default(); engines],
            ..Tally::default()
        }
    }

    pub(super) fn add(&mut self, job: &Job, result: Outcome) {
        let first_score = match result {
            Outcome::FirstWins => 1.0,
            Outcome::SecondWins => 0.0,
            Outcome::Draw => 0.5,
            Outcome::Ongoing => return,
        };
        for (engine, score) in [(job.first, first_score), (job.second, 1.0 - first_score)] {
            count(&mut self.standings[engine], score);
        }
        // The first engine's view (engine 0); pairs without it are not counted.
        let zero = if job.first == 0 {
            first_score
        } else if job.second == 0 {
            1.0 - first_score
        } else {
            return;
        };
        count(&mut self.trinomial, zero);
        let key = (job.pair, job.encounter);
        match self.halves.remove(&key) {
            Some(other) => self.pentanomial.add_pair(other, zero),
            None => {
                self.halves.insert(key, zero);
            }
        }
    }
}

/// Counts a game scored `score` (0, ½ or 1).
fn count(t: &mut Trinomial, score: f64) {
    if score > 0.75 {
        t.wins += 1;
    } else if score < 0.25 {
        t.losses += 1;
    } else {
        t.draws += 1;
    }
}

/// How a match went.
#[derive(Debug, Clone)]
pub struct Summary {
    pub tally: Tally,
    /// Games finished, including those of an earlier run when resumed.
    pub finished: Vec<Finished>,
    /// Games played by this run.
    pub played: u32,
    pub plies: u64,
    pub overhead: Duration,
    /// The part of the overhead in the runner's own code (see [`crate::play::Played::work`]).
    pub work: Duration,
    pub engine_time: Duration,
    pub wall: Duration,
    /// The runner process's own CPU time over the match, user and system (all its threads,
    /// never the engines'), where the system tells it (Linux: see `cpu::CpuTime`).
    pub cpu: Option<(Duration, Duration)>,
    pub sprt: Option<(f64, Status)>,
    /// Terminations by code, with counts.
    pub terminations: Vec<(String, u32)>,
}

impl Summary {
    /// The runner's own cost per ply, in microseconds.
    pub fn overhead_per_ply_us(&self) -> f64 {
        if self.plies == 0 {
            0.0
        } else {
            self.overhead.as_secs_f64() * 1e6 / self.plies as f64
        }
    }

    /// The runner's own code per ply, in microseconds (without pipes and wake-ups).
    pub fn work_per_ply_us(&self) -> f64 {
        if self.plies == 0 {
            0.0
        } else {
            self.work.as_secs_f64() * 1e6 / self.plies as f64
        }
    }

    pub fn games_per_minute(&self) -> f64 {
        let mins = self.wall.as_secs_f64() / 60.0;
        if mins > 0.0 {
            self.played as f64 / mins
        } else {
            0.0
        }
    }
}

pub(super) fn outcome_of(pgn: &str) -> Outcome {
    match pgn {
        "1-0" => Outcome::FirstWins,
        "0-1" => Outcome::SecondWins,
        "1/2-1/2" => Outcome::Draw,
        _ => Outcome::Ongoing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::schedule;

    #[test]
    fn pairs_are_counted_when_both_games_are_in() {
        let jobs = schedule(2, false, 4, 1);
        let mut t = Tally::new(2);
        t.add(&jobs[0], Outcome::FirstWins);
        assert_eq!(t.pentanomial.pairs(), 0);
        t.add(&jobs[1], Outcome::Draw);
        assert_eq!(t.pentanomial.counts, [0, 0, 0, 1, 0]);
        t.add(&jobs[3], Outcome::FirstWins);
        t.add(&jobs[2], Outcome::FirstWins);
        // Engine 0 won as first and lost as second: one point in the pair.
        assert_eq!(t.pentanomial.counts, [0, 0, 1, 1, 0]);
        assert_eq!((t.trinomial.wins, t.trinomial.draws, t.trinomial.losses), (2, 1, 1));
        assert_eq!(t.standings[1].wins, 1);
    }
}
