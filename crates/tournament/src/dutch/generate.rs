//! A random tournament generator (what FIDE's endorsement calls an RTG): players with random
//! ratings, every round paired by the Dutch system, results drawn from the rating difference,
//! with forfeits, requested half-point byes and withdrawals at chosen rates. Seeded: the same
//! settings give the same file.

use super::{pair_next, PairError};
use crate::lots::splitmix64;
use crate::result::{Bye, RoundResult};
use crate::trf::{Colour, Player, Round, Trf};

#[derive(Debug, Clone)]
pub struct Settings {
    pub players: usize,
    pub rounds: usize,
    pub seed: u64,
    /// Percent of games drawn between equal players.
    pub draws: u32,
    /// Chances in a thousand, per player and round.
    pub forfeits: u32,
    pub half_byes: u32,
    pub withdrawals: u32,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = splitmix64(self.0);
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn per_mille(&mut self, p: u32) -> bool {
        self.below(1000) < p as u64
    }
}

/// A whole event as a TRF (`XXR` and `XXC` included, so any round can be paired again).
pub fn generate(s: &Settings) -> Result<Trf, PairError> {
    let mut rng = Rng(s.seed);
    let mut ratings: Vec<u32> = (0..s.players).map(|_| 1400 + rng.below(1400) as u32).collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let initial = if rng.below(2) == 0 { "white1" } else { "black1" };
    let mut trf = Trf {
        players: ratings
            .iter()
            .enumerate()
            .map(|(i, &rating)| Player {
                number: i as u32 + 1,
                name: format!("Player {:04}", i + 1),
                rating,
                federation: String::new(),
                points: 0.0,
                rounds: Vec::new(),
                written: 0,
            })
            .collect(),
        other: vec![
            format!("012 arbiter random tournament {}", s.seed),
            format!("XXR {}", s.rounds),
            format!("XXC {initial}"),
        ],
    };
    let mut withdrawn = vec![false; s.players];
    for round in 0..s.rounds {
        // Who will not be paired: withdrawn players, and requested half-point byes.
        for (i, p) in trf.players.iter_mut().enumerate() {
            withdrawn[i] |= round > 0 && rng.per_mille(s.withdrawals);
            let absent = if withdrawn[i] {
                Some(Bye::Zero)
            } else if round + 1 < s.rounds && rng.per_mille(s.half_byes) {
                Some(Bye::Half)
            } else {
                None
            };
            if let Some(bye) = absent {
                p.rounds.push(Round::bye(RoundResult::Bye(bye)));
            }
            p.written = p.rounds.len();
        }
        let pairing = pair_next(&trf)?;
        for &(w, b) in &pairing.boards {
            let (rw, rb) = (trf.players[w as usize - 1].rating, trf.players[b as usize - 1].rating);
            let (rw_res, rb_res) = if rng.per_mille(s.forfeits) {
                if rng.below(2) == 0 {
                    (RoundResult::ForfeitWin, RoundResult::ForfeitLoss)
                } else {
                    (RoundResult::ForfeitLoss, RoundResult::ForfeitWin)
                }
            } else {
                let expected = 1.0 / (1.0 + 10f64.powf((rb as f64 - rw as f64) / 400.0));
                let draw = s.draws as f64 / 100.0 * (1.0 - (2.0 * expected - 1.0).abs());
                let x = rng.below(1_000_000) as f64 / 1_000_000.0;
                if x < draw {
                    (RoundResult::DRAW, RoundResult::DRAW)
                } else if x < draw + (1.0 - draw) * expected {
                    (RoundResult::WIN, RoundResult::LOSS)
                } else {
                    (RoundResult::LOSS, RoundResult::WIN)
                }
            };
            trf.players[w as usize - 1].rounds.push(Round {
                opponent: b,
                colour: Colour::White,
                result: rw_res,
            });
            trf.players[b as usize - 1].rounds.push(Round {
                opponent: w,
                colour: Colour::Black,
                result: rb_res,
            });
        }
        if let Some(p) = pairing.bye {
            trf.players[p as usize - 1]
                .rounds
                .push(Round::bye(RoundResult::Bye(Bye::PairingAllocated)));
        }
        for p in &mut trf.players {
            p.written = p.rounds.len();
            p.points = p.rounds.iter().map(Round::points).sum();
        }
    }
    Ok(trf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_events_check_and_repeat() {
        for seed in 0..12 {
            let s = Settings {
                players: 9 + (seed as usize * 7) % 40,
                rounds: 5 + seed as usize % 5,
                seed,
                draws: 30,
                forfeits: 20,
                half_byes: 30,
                withdrawals: 10,
            };
            let trf = generate(&s).unwrap();
            let text = trf.write(|_| None);
            let again = Trf::parse(&text).unwrap();
            assert!(super::super::check(&again).is_empty(), "seed {seed}");
            assert_eq!(generate(&s).unwrap().write(|_| None), text);
        }
    }
}
