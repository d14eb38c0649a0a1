//! The match's schedule: which engines meet in which game, in what order, on which opening
//! ([`schedule`]), the openings shuffled reproducibly and checked as start positions, and the
//! PGN round each game is written in.

use game::Game;
use tournament::round_robin::{berger, Pairing};

use super::{MatchError, Start};

/// A game of the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// 1-based, in schedule order (the progress lines' game number).
    pub number: u32,
    /// Index of the pair of engines (in schedule order of pairs).
    pub pair: usize,
    /// The pair's encounter: games `2k` and `2k + 1` of a pair share an opening.
    pub encounter: u32,
    pub first: usize,
    pub second: usize,
    pub opening: usize,
    /// The event's round, 1-based: in a round robin the Berger round (every pairing of it
    /// plays all its games), in a gauntlet the encounter.
    pub round: u32,
    /// The TRF round the game is written in, 1-based (see [`crate::event`]): each engine has at
    /// most one game a TRF round.
    pub trf_round: u32,
}

/// The schedule. A round robin is played as a round-robin event: round by round in the order
/// of FIDE's Berger tables ([`tournament::round_robin::berger`]; an odd field has a bye a
/// round), each pairing of a round playing its `games` games in a row, colours alternating
/// from the table's (game `2k` and `2k + 1` share the `k`-th opening). A gauntlet goes
/// encounter by encounter: each opponent of the first engine plays two games on the
/// encounter's opening, the second with colours reversed.
pub fn schedule(engines: usize, gauntlet: bool, games: u32, openings: usize) -> Vec<Job> {
    let opening = |encounter: u32| {
        if openings == 0 {
            0
        } else {
            encounter as usize % openings
        }
    };
    let mut jobs: Vec<Job> = Vec::new();
    if gauntlet {
        let encounters = games.div_ceil(2);
        for r in 0..encounters {
            for p in 0..engines.saturating_sub(1) {
                for k in 0..2 {
                    if 2 * r + k >= games {
                        break;
                    }
                    let (first, second) = if k == 0 { (0, p + 1) } else { (p + 1, 0) };
                    let number = jobs.len() as u32 + 1;
                    jobs.push(Job {
                        number,
                        pair: p,
                        encounter: r,
                        first,
                        second,
                        opening: opening(r),
                        round: r + 1,
                        // The first engine plays every game.
                        trf_round: number,
                    });
                }
            }
        }
        return jobs;
    }
    let mut pair = 0;
    for (r, boards) in berger(engines as u32).iter().enumerate() {
        for board in boards {
            let Pairing::Game(white, black) = *board else {
                continue;
            };
            let (a, b) = (white as usize - 1, black as usize - 1);
            for g in 0..games {
                let (first, second) = if g % 2 == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    number: jobs.len() as u32 + 1,
                    pair,
                    encounter: g / 2,
                    first,
                    second,
                    opening: opening(g / 2),
                    round: r as u32 + 1,
                    trf_round: r as u32 * games + g + 1,
                });
            }
            pair += 1;
        }
    }
    jobs
}

/// splitmix64, for shuffling openings reproducibly.
pub(super) fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    for i in (1..items.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// The PGN `Round` of a game, as fastchess numbers them: two engines (and a gauntlet) count
/// encounters, the pair of games on one opening sharing a round; a round robin of three or
/// more gives the event's round (Berger tables), which every pairing of it plays.
pub(super) fn pgn_round(job: &Job, engines: usize, gauntlet: bool) -> u32 {
    if engines == 2 || gauntlet {
        job.encounter + 1
    } else {
        job.round
    }
}

/// The openings' own start positions (the FEN, or the standard start), each checked with its
/// moves played. An opening whose FEN or moves the game does not accept is an error naming
/// its source.
pub(super) fn start_positions<G: Game>(openings: &[Start]) -> Result<Vec<G>, MatchError> {
    if openings.is_empty() {
        return Ok(vec![G::start()]);
    }
    openings
        .iter()
        .map(|o| {
            let root = match &o.fen {
                Some(f) => G::from_fen(f).map_err(|e| MatchError::Config(format!("{}: bad FEN: {e}", o.source)))?,
                None => G::start(),
            };
            let mut pos = root.clone();
            for (i, text) in o.moves.iter().enumerate() {
                match pos.parse_move(text) {
                    Ok(m) if pos.is_legal(m) => pos.play(m),
                    _ => {
                        return Err(MatchError::Config(format!(
                            "{}: move {} ({text}) is not legal",
                            o.source,
                            i + 1
                        )))
                    }
                }
            }
            Ok(root)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules() {
        let jobs = schedule(2, false, 5, 2);
        let colours: Vec<(usize, usize, usize)> = jobs.iter().map(|j| (j.first, j.second, j.opening)).collect();
        assert_eq!(colours, [(0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1), (0, 1, 0)]);
        assert_eq!(jobs.last().unwrap().number, 5);
        assert_eq!(schedule(4, false, 2, 1).len(), 12);
        // Four engines go by the Berger rounds 1-4 2-3 | 4-3 1-2 | 2-4 3-1, each pairing's games
        // in a row from the table's colours; game k of a round's pairings is TRF round k.
        let rr: Vec<(usize, usize, u32, u32)> = schedule(4, false, 2, 1)
            .iter()
            .map(|j| (j.first, j.second, j.round, j.trf_round))
            .collect();
        assert_eq!(
            rr,
            [
                (0, 3, 1, 1),
                (3, 0, 1, 2),
                (1, 2, 1, 1),
                (2, 1, 1, 2),
                (3, 2, 2, 3),
                (2, 3, 2, 4),
                (0, 1, 2, 3),
                (1, 0, 2, 4),
                (1, 3, 3, 5),
                (3, 1, 3, 6),
                (2, 0, 3, 5),
                (0, 2, 3, 6)
            ]
        );
        let gauntlet = schedule(4, true, 2, 1);
        assert_eq!(gauntlet.len(), 6);
        assert!(gauntlet.iter().all(|j| j.first == 0 || j.second == 0));
    }

    #[test]
    fn shuffles_are_reproducible() {
        let mut a: Vec<u32> = (0..20).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, (0..20).collect::<Vec<_>>());
        assert_eq!(crate::runner::pgn_date().len(), 10);
    }
}
