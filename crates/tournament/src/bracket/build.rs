//! The brackets: single elimination (with a third-place match if asked) and double elimination.

use super::{Bracket, Node, Source};
use crate::knockout::{seeded_first_round, Slot};

impl Bracket {
    fn push(&mut self, label: String, first: Source, second: Source) -> usize {
        self.nodes.push(Node {
            label,
            first,
            second,
            reset: false,
        });
        self.nodes.len() - 1
    }

    /// The first round of a seeded bracket (byes to the top seeds), labelled `{prefix}1.m`.
    fn seeded_round(&mut self, players: u32, prefix: &str) -> Vec<usize> {
        let source = |s: Slot| match s {
            Slot::Player(p) => Source::Seed(p),
            Slot::Bye => Source::Bye,
        };
        seeded_first_round(players)
            .into_iter()
            .enumerate()
            .map(|(m, (a, b))| self.push(format!("{prefix}1.{}", m + 1), source(a), source(b)))
            .collect()
    }

    /// A round pairing the winners of `previous` in order, labelled `{prefix}{round}.m`.
    fn winners_round(&mut self, previous: &[usize], prefix: &str, round: u32) -> Vec<usize> {
        previous
            .chunks(2)
            .enumerate()
            .map(|(m, c)| {
                let label = format!("{prefix}{round}.{}", m + 1);
                self.push(label, Source::Winner(c[0]), Source::Winner(c[1]))
            })
            .collect()
    }
}

/// A seeded single elimination of `players` (seeds 1 … n): the bracket is the next power of two
/// and its byes go to the top seeds ([`seeded_first_round`]); round r pairs the winners of round
/// r − 1 in bracket order, so seeds 1 and 2 can meet only in the final. With `third_place`, the
/// semi-finals' losers play `3P.1`, placed just before the final (a bracket of two has no
/// semi-finals and so no third-place match).
pub fn single(players: u32, third_place: bool) -> Bracket {
    let mut b = Bracket::default();
    let mut round = b.seeded_round(players, "");
    let mut r = 1;
    while round.len() > 1 {
        r += 1;
        if third_place && round.len() == 2 {
            b.push("3P.1".to_string(), Source::Loser(round[0]), Source::Loser(round[1]));
        }
        round = b.winners_round(&round, "", r);
    }
    b
}

/// A double elimination of `players` (seeds 1 … n) in a bracket of S = 2^k.
///
/// - Winners' bracket `W1` … `Wk`: the seeded single elimination of [`single`].
/// - Losers' bracket `L1` … `L(2k−2)`: `L1` pairs the losers of `W1` (matches 1–2, 3–4, …); then
///   for each winners' round r = 2 … k a "minor" round `L(2r−2)` sets the losers'-bracket
///   survivors (in order) against the losers dropping from `Wr` in reversed order, which keeps
///   early rematches away, and, below the last, a "major" round `L(2r−1)` pairs the survivors.
///   The loser of a walkover is nobody, so byes in `W1` give walkovers, not games, further on.
/// - `GF.1`: the winners'-bracket champion (first) against the losers'-bracket champion; `GF.2`,
///   the reset, is played only if the losers'-bracket champion wins `GF.1`.
///
/// Nodes come in the order W1, L1, W2, L2, L3, W3, L4, L5, …, Wk, L(2k−2), GF.1, GF.2.
pub fn double(players: u32) -> Bracket {
    let mut b = Bracket::default();
    let mut wb = b.seeded_round(players, "W");
    let k = wb.len().trailing_zeros() + 1;
    // The losers' bracket's survivors, as sources (the losers of W1 when k = 1).
    let mut lb: Vec<Source> = wb.iter().map(|&i| Source::Loser(i)).collect();
    if k > 1 {
        let l1: Vec<usize> = lb
            .chunks(2)
            .enumerate()
            .map(|(m, c)| b.push(format!("L1.{}", m + 1), c[0], c[1]))
            .collect();
        lb = l1.into_iter().map(Source::Winner).collect();
    }
    for r in 2..=k {
        wb = b.winners_round(&wb, "W", r);
        let minor: Vec<usize> = lb
            .iter()
            .zip(wb.iter().rev())
            .enumerate()
            .map(|(m, (&survivor, &drop))| b.push(format!("L{}.{}", 2 * r - 2, m + 1), survivor, Source::Loser(drop)))
            .collect();
        lb = if r < k {
            b.winners_round(&minor, "L", 2 * r - 1)
                .into_iter()
                .map(Source::Winner)
                .collect()
        } else {
            minor.into_iter().map(Source::Winner).collect()
        };
    }
    let gf = b.push("GF.1".to_string(), Source::Winner(wb[0]), lb[0]);
    b.nodes.push(super::Node {
        label: "GF.2".to_string(),
        first: Source::Loser(gf),
        second: Source::Winner(gf),
        reset: true,
    });
    b
}
