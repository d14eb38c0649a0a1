//! Double elimination: a winners' bracket (an ordinary seeded single elimination), a losers'
//! bracket that every winners'-bracket loser drops into, and a grand final with a reset when the
//! losers'-bracket champion wins the first final (both then have one loss).
//!
//! The losers' bracket alternates a "minor" round (its survivors against the losers dropping
//! from the next winners' round, in reversed order to avoid early rematches) and a "major" round
//! (its survivors among themselves). [`play`] runs a whole event given who wins each match, so
//! the bracket is the same code for a live event and for a test.
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

use crate::knockout::{seeded_first_round, Slot};

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
    pub matches: Vec<Match>,
    pub winners_rounds: u32,
    pub losers_rounds: u32,
    pub champion: u32,
}

/// Runs a double elimination of `players` (seeds 1 … n) where `winner(a, b)` decides each match.
pub fn play(players: u32, mut winner: impl FnMut(u32, u32) -> u32) -> Event {
    let mut matches = Vec::new();
    let mut game = |stage: Stage, a: u32, b: u32| -> (u32, u32) {
        let w = winner(a, b);
        matches.push(Match { stage, a, b, winner: w });
        (w, if w == a { b } else { a })
    };
    // Winners' bracket round 1, byes advancing.
    let mut alive: Vec<u32> = Vec::new();
    let mut dropped: Vec<u32> = Vec::new();
    for (a, b) in seeded_first_round(players) {
        match (a, b) {
            (Slot::Player(a), Slot::Player(b)) => {
                let (w, l) = game(Stage::Winners(1), a, b);
                alive.push(w);
                dropped.push(l);
            }
            (Slot::Player(p), Slot::Bye) | (Slot::Bye, Slot::Player(p)) => alive.push(p),
            _ => {}
        }
    }
    let mut wb_round = 1;
    let mut lb_round = 0;
    // Losers' bracket round 1: the first droppers among themselves (a lone one waits).
    let mut lb = if dropped.len() > 1 {
        lb_round += 1;
        pair_up(&dropped, Stage::Losers(lb_round), &mut game)
    } else {
        dropped
    };
    while alive.len() > 1 {
        wb_round += 1;
        let mut next = Vec::new();
        let mut losers = Vec::new();
        for c in alive.chunks(2) {
            if let [a, b] = *c {
                let (w, l) = game(Stage::Winners(wb_round), a, b);
                next.push(w);
                losers.push(l);
            } else {
                next.push(c[0]);
            }
        }
        alive = next;
        // Minor round: survivors against the new droppers, reversed.
        losers.reverse();
        lb_round += 1;
        let mut minor = Vec::new();
        for i in 0..lb.len().max(losers.len()) {
            match (lb.get(i), losers.get(i)) {
                (Some(&a), Some(&b)) => minor.push(game(Stage::Losers(lb_round), a, b).0),
                (Some(&a), None) | (None, Some(&a)) => minor.push(a),
                (None, None) => {}
            }
        }
        lb = minor;
        // Major round while more than one survivor remains and the winners' final is not done.
        if lb.len() > 1 && alive.len() > 1 {
            lb_round += 1;
            lb = pair_up(&lb, Stage::Losers(lb_round), &mut game);
        }
    }
    // Grand final: the winners' champion against the losers' champion; a reset if the latter wins.
    let wb_champion = alive[0];
    let champion = match lb.first() {
        None => wb_champion,
        Some(&lb_champion) => {
            let (w, _) = game(Stage::GrandFinal, wb_champion, lb_champion);
            if w == wb_champion {
                w
            } else {
                game(Stage::Reset, wb_champion, lb_champion).0
            }
        }
    };
    Event {
        matches,
        winners_rounds: wb_round,
        losers_rounds: lb_round,
        champion,
    }
}

/// Plays `pool` off in pairs (a lone last one goes through).
fn pair_up(pool: &[u32], stage: Stage, game: &mut impl FnMut(Stage, u32, u32) -> (u32, u32)) -> Vec<u32> {
    pool.chunks(2)
        .map(|c| if let [a, b] = *c { game(stage, a, b).0 } else { c[0] })
        .collect()
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
