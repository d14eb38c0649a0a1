//! Round robin by FIDE's Berger tables (C.05 Annex 1).
//!
//! For n players (n even; an odd field gets a dummy n + 1 whose opponent has the bye), round
//! r = 1 … n − 1: player n meets a = (r + 1) / 2 in odd rounds (n has black) and a = n/2 + r/2 in
//! even rounds (n has white); the other boards are (a + k, a − k) for k = 1 … n/2 − 1, numbers
//! reduced into 1 … n − 1, a + k with white. This gives FIDE's printed tables board by board.
//!
//! Each round is computed on its own ([`berger_round`]), so a round of a field of 10,000 costs
//! 5,000 boards, not the whole table.
//!
//! ```
//! use tournament::round_robin::{berger, berger_round, Pairing};
//!
//! let rounds = berger(4);
//! assert_eq!(rounds[0], vec![Pairing::Game(1, 4), Pairing::Game(2, 3)]);
//! assert_eq!(berger_round(4, 2), Some(rounds[1].clone()));
//! ```

use serde::Serialize;

/// A board of a round: white (or red) first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Pairing {
    Game(u32, u32),
    /// This player has no opponent this round.
    Bye(u32),
}

/// The rounds of a single round robin of `players`: n − 1 for an even field, n for an odd one
/// (everyone has one bye); none below two players.
pub fn rounds(players: u32) -> u32 {
    if players < 2 {
        0
    } else {
        // In u64: the dummy of an odd field of u32::MAX players does not fit a u32.
        (u64::from(players) + u64::from(players % 2) - 1) as u32
    }
}

/// Round `round` (1 … [`rounds`]) of the single round robin of `players`, FIDE board order;
/// `None` for a round the table does not have.
pub fn berger_round(players: u32, round: u32) -> Option<Vec<Pairing>> {
    if round == 0 || round > rounds(players) {
        return None;
    }
    // In u64: the dummy n + 1 of an odd field of u32::MAX players does not fit a u32.
    let field = u64::from(players);
    let n = field + field % 2;
    let m = n - 1;
    let r = u64::from(round);
    // Numbers in 1 … m; a − k is taken as a + (m − k) so that nothing goes below zero.
    let reduce = |x: u64| (x - 1) % m + 1;
    let a = reduce(if r % 2 == 1 { r.div_ceil(2) } else { n / 2 + r / 2 });
    let first = if r % 2 == 1 { (a, n) } else { (n, a) };
    let others = (1..n / 2).map(|k| (reduce(a + k), reduce(a + m - k)));
    // Every number but the dummy's is at most `players`, so the casts are exact.
    let board = |(w, b): (u64, u64)| {
        if w > field {
            Pairing::Bye(b as u32)
        } else if b > field {
            Pairing::Bye(w as u32)
        } else {
            Pairing::Game(w as u32, b as u32)
        }
    };
    Some(std::iter::once(first).chain(others).map(board).collect())
}

/// The rounds of a single round robin of `players` (numbers 1 … players), FIDE board order.
pub fn berger(players: u32) -> Vec<Vec<Pairing>> {
    (1..=rounds(players)).filter_map(|r| berger_round(players, r)).collect()
}

/// A double round robin as FIDE (C.05 Annex 1) and the spec (§4) have it: the second cycle is
/// the table again with colours reversed, and the last two rounds of the *first* cycle are
/// played in swapped order. The swap is FIDE's recommendation, not decoration: without it the
/// last round of cycle one and the first of cycle two give players 1 and n/2 + 1 a third game
/// running with one colour (player 1 of four: black, black, black in rounds 3-5). The second
/// cycle keeps the table's own order (the spec's vector: rounds 4-6 of four players are rounds
/// 1-3 reversed), so across both cycles nobody has three games running with one colour and the
/// colour difference never passes 2.
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

/// How a field gets its pairing numbers (the numbers of the Berger table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Numbering {
    /// The seeding order: the first seed is number 1. What organisers often do.
    Seeding,
    /// Drawn by lot, as FIDE C.05 has it: the numbers 1 … n shuffled by [`crate::lots`] with
    /// this seed (Fisher–Yates from the last place down on the splitmix64 stream of the seed);
    /// the entrant at index i of the seeding order gets the i-th number of the shuffle. Keep the
    /// seed in the event's log: it replays the draw.
    Lots(u64),
}

/// The pairing numbers of a field of `players` given in seeding order: `result[i]` is the
/// number of entrant i, and the numbers are 1 … players, each once.
pub fn pairing_numbers(players: u32, numbering: Numbering) -> Vec<u32> {
    let mut numbers: Vec<u32> = (1..=players).collect();
    if let Numbering::Lots(seed) = numbering {
        crate::lots::Stream::new(seed).shuffle(&mut numbers);
    }
    numbers
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
