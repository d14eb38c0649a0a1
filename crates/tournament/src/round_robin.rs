//! Round robin by FIDE's Berger tables (C.05 Annex 1).
//!
//! For n players (n even; an odd field gets a dummy n + 1 whose opponent has the bye), round
//! r = 1 … n − 1: player n meets a = (r + 1) / 2 in odd rounds (n has black) and a = n/2 + r/2 in
//! even rounds (n has white); the other boards are (a + k, a − k) for k = 1 … n/2 − 1, numbers
//! reduced into 1 … n − 1, a + k with white. This gives FIDE's printed tables board by board.
//!
//! ```
//! use tournament::round_robin::{berger, Pairing};
//!
//! let rounds = berger(4);
//! assert_eq!(rounds[0], vec![Pairing::Game(1, 4), Pairing::Game(2, 3)]);
//! ```

use serde::Serialize;

/// A board of a round: white (or red) first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Pairing {
    Game(u32, u32),
    /// This player has no opponent this round.
    Bye(u32),
}

/// The rounds of a single round robin of `players` (numbers 1 … players), FIDE board order.
pub fn berger(players: u32) -> Vec<Vec<Pairing>> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2;
    let m = n - 1;
    let reduce = |x: i64| -> u32 { ((x - 1).rem_euclid(i64::from(m)) + 1) as u32 };
    (1..=m)
        .map(|r| {
            let a = if r % 2 == 1 { r.div_ceil(2) } else { n / 2 + r / 2 };
            let a = reduce(i64::from(a));
            let first = if r % 2 == 1 { (a, n) } else { (n, a) };
            let mut round = vec![first];
            for k in 1..n / 2 {
                let w = reduce(i64::from(a) + i64::from(k));
                let b = reduce(i64::from(a) - i64::from(k));
                round.push((w, b));
            }
            round
                .into_iter()
                .map(|(w, b)| {
                    if w > players {
                        Pairing::Bye(b)
                    } else if b > players {
                        Pairing::Bye(w)
                    } else {
                        Pairing::Game(w, b)
                    }
                })
                .collect()
        })
        .collect()
}

/// A double round robin: the first cycle with its last two rounds swapped (so no one plays
/// three games running with one colour, as FIDE recommends), then the original rounds again
/// with colours reversed.
pub fn double_berger(players: u32) -> Vec<Vec<Pairing>> {
    let single = berger(players);
    let mut first = single.clone();
    let len = first.len();
    if len >= 2 {
        first.swap(len - 1, len - 2);
    }
    let reversed = single.into_iter().map(|round| {
        round
            .into_iter()
            .map(|p| match p {
                Pairing::Game(w, b) => Pairing::Game(b, w),
                bye => bye,
            })
            .collect::<Vec<_>>()
    });
    first.into_iter().chain(reversed).collect()
}

/// Seeds dealt into `groups` groups in snake order (蛇形): groups 1…G get seeds 1…G, then G…1
/// get G+1…2G, and so on. Players are given in seeding order (strongest first).
pub fn snake_groups<T: Clone>(seeded: &[T], groups: usize) -> Vec<Vec<T>> {
    let mut out = vec![Vec::new(); groups.max(1)];
    let g = out.len();
    for (i, p) in seeded.iter().enumerate() {
        let row = i / g;
        let col = i % g;
        let group = if row % 2 == 0 { col } else { g - 1 - col };
        out[group].push(p.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(round: &[Pairing]) -> String {
        round
            .iter()
            .map(|p| match p {
                Pairing::Game(w, b) => format!("{w}-{b}"),
                Pairing::Bye(p) => format!("{p}-bye"),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// TV-BERGER of shared/specs/tournament.md §4.
    #[test]
    fn fide_tables() {
        let t = |n: u32| berger(n).iter().map(|r| text(r)).collect::<Vec<_>>();
        assert_eq!(t(4), ["1-4 2-3", "4-3 1-2", "2-4 3-1"]);
        assert_eq!(
            t(6),
            [
                "1-6 2-5 3-4",
                "6-4 5-3 1-2",
                "2-6 3-1 4-5",
                "6-5 1-4 2-3",
                "3-6 4-2 5-1"
            ]
        );
        assert_eq!(
            t(8),
            [
                "1-8 2-7 3-6 4-5",
                "8-5 6-4 7-3 1-2",
                "2-8 3-1 4-7 5-6",
                "8-6 7-5 1-4 2-3",
                "3-8 4-2 5-1 6-7",
                "8-7 1-6 2-5 3-4",
                "4-8 5-3 6-2 7-1"
            ]
        );
        let ten = t(10);
        assert_eq!(ten[0], "1-10 2-9 3-8 4-7 5-6");
        assert_eq!(ten[1], "10-6 7-5 8-4 9-3 1-2");
        assert_eq!(ten[8], "5-10 6-4 7-3 8-2 9-1");
        let twelve = t(12);
        assert_eq!(twelve[1], "12-7 8-6 9-5 10-4 11-3 1-2");
        assert_eq!(twelve[10], "6-12 7-5 8-4 9-3 10-2 11-1");
        assert_eq!(
            t(5),
            [
                "1-bye 2-5 3-4",
                "4-bye 5-3 1-2",
                "2-bye 3-1 4-5",
                "5-bye 1-4 2-3",
                "3-bye 4-2 5-1"
            ]
        );
    }

    #[test]
    fn double_round_robin() {
        let t: Vec<String> = double_berger(4).iter().map(|r| text(r)).collect();
        assert_eq!(t, ["1-4 2-3", "2-4 3-1", "4-3 1-2", "4-1 3-2", "3-4 2-1", "4-2 1-3"]);
    }

    #[test]
    fn everyone_meets_everyone_once() {
        for n in 2..=21u32 {
            let mut met = std::collections::HashSet::new();
            for round in berger(n) {
                let mut seen = std::collections::HashSet::new();
                for p in round {
                    match p {
                        Pairing::Game(w, b) => {
                            assert!(seen.insert(w) && seen.insert(b), "n={n}");
                            assert!(met.insert((w.min(b), w.max(b))), "n={n}: {w}-{b} twice");
                        }
                        Pairing::Bye(p) => assert!(seen.insert(p)),
                    }
                }
                assert_eq!(seen.len() as u32, n);
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2);
        }
    }

    #[test]
    fn snake_seeding_into_groups() {
        let seeds: Vec<u32> = (1..=16).collect();
        let g = snake_groups(&seeds, 4);
        assert_eq!(
            g,
            [
                vec![1, 8, 9, 16],
                vec![2, 7, 10, 15],
                vec![3, 6, 11, 14],
                vec![4, 5, 12, 13]
            ]
        );
    }
}
