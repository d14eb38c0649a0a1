//! Direct Encounter (C.07 Article 6) in an individual Swiss, as FIDE's Gacrux reads it:
//!
//! - among players tied on every criterion before DE, each one's score is the points he made in
//!   the games played over the board against the others, in the event's point system (forfeits
//!   excluded; the average where two met more than once);
//! - if all of them met each other, that score ranks them; otherwise the best scorer is ranked
//!   first only if his score beats what any other could have made by winning every missing game
//!   (a win's points in the event's system), then the next one likewise, and all from the first
//!   who is not so are left tied;
//! - DE is applied again to every subgroup it leaves tied, counting only the games inside the
//!   subgroup, until it separates no more.

//!
//! The method is one ([`places`]) for every input that says who met whom with what score
//! ([`Encounters`]): a TRF's games here, a team event's matches in
//! [`crate::team::standings`].

use std::collections::{BTreeMap, HashSet};
use std::hash::Hash;

use crate::dutch::PointSystem;
use crate::event::{point_system, round_points};
use crate::trf::Trf;

/// Who met whom with what score: what DE is computed from.
pub(crate) trait Encounters {
    /// A player's or a team's number.
    type Id: Copy + Ord + Hash;
    /// Calls `f` with each encounter of `who` that counts for DE (played over the board): the
    /// opponent and the score `who` made against them.
    fn each(&self, who: Self::Id, f: impl FnMut(Self::Id, f64));
    /// A win's score: the most a missing encounter could have given.
    fn win_score(&self) -> f64;
}

/// A TRF's games played over the board, scored in the event's point system (tenths).
struct Games<'a> {
    trf: &'a Trf,
    ps: &'a PointSystem,
}

impl Encounters for Games<'_> {
    type Id = u32;

    fn each(&self, who: u32, mut f: impl FnMut(u32, f64)) {
        let rounds = self.trf.player(who).map_or(&[][..], |p| &p.rounds[..]);
        for r in rounds.iter().filter(|r| r.played()) {
            f(r.opponent, f64::from(round_points(self.ps, r)));
        }
    }

    fn win_score(&self) -> f64 {
        f64::from(self.ps.win)
    }
}

/// The DE of the players of `group` (tied on every criterion before DE), in its order: 1 for the
/// first and the same number for those it leaves tied (1, 2, 2, 4), or 0 for all when it
/// separates none — the numbers Gacrux reports, lower first.
pub fn direct_encounter(t: &Trf, group: &[u32]) -> Vec<u32> {
    direct_encounter_with(t, &point_system(t), group)
}

/// [`direct_encounter`] with the results counted in `ps` (the event's point system, read once by
/// the caller).
pub fn direct_encounter_with(t: &Trf, ps: &PointSystem, group: &[u32]) -> Vec<u32> {
    let places = places(&Games { trf: t, ps }, group);
    if places.iter().all(|&p| p == 0) {
        vec![0; group.len()]
    } else {
        places.iter().map(|&p| p as u32 + 1).collect()
    }
}

/// Places from 0 of the members of `group`, ties sharing the higher, after DE has been
/// re-applied to every tied subgroup.
pub(crate) fn places<E: Encounters>(e: &E, group: &[E::Id]) -> Vec<usize> {
    let first = one_pass(e, group);
    let mut placed = first.clone();
    let mut starts = first.clone();
    starts.sort_unstable();
    starts.dedup();
    if starts.len() < 2 {
        return placed;
    }
    for start in starts {
        let members: Vec<usize> = (0..group.len()).filter(|&i| first[i] == start).collect();
        if members.len() < 2 {
            continue;
        }
        let ids: Vec<E::Id> = members.iter().map(|&i| group[i]).collect();
        for (&i, sub) in members.iter().zip(places(e, &ids)) {
            placed[i] = start + sub;
        }
    }
    placed
}

/// A member's score against the rest of the group and how many of them it met (the average
/// against one met more than once).
fn tally<E: Encounters>(e: &E, group: &HashSet<E::Id>, who: E::Id) -> (f64, usize) {
    let mut met: BTreeMap<E::Id, (f64, u32)> = BTreeMap::new();
    e.each(who, |opponent, score| {
        if group.contains(&opponent) {
            let m = met.entry(opponent).or_default();
            m.0 += score;
            m.1 += 1;
        }
    });
    let score = met.values().map(|(points, n)| points / f64::from(*n)).sum();
    (score, met.len())
}

/// One application of DE to the group: places from 0.
fn one_pass<E: Encounters>(e: &E, group: &[E::Id]) -> Vec<usize> {
    let k = group.len();
    let members: HashSet<E::Id> = group.iter().copied().collect();
    let tallies: Vec<(f64, usize)> = group.iter().map(|&n| tally(e, &members, n)).collect();
    let score = |i: usize| tallies[i].0;
    let best_case = |i: usize| tallies[i].0 + (k - 1 - tallies[i].1) as f64 * e.win_score();
    let all_met = tallies.iter().all(|x| x.1 + 1 == k);
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&a, &b| {
        score(b)
            .total_cmp(&score(a))
            .then(best_case(b).total_cmp(&best_case(a)))
            .then(group[a].cmp(&group[b]))
    });
    // The best case of anyone from the i-th of the order on.
    let mut best_after = vec![f64::NEG_INFINITY; k + 1];
    for i in (0..k).rev() {
        best_after[i] = best_after[i + 1].max(best_case(order[i]));
    }
    let mut places = vec![0; k];
    let mut separated = true;
    for i in 1..k {
        let (above, this) = (order[i - 1], order[i]);
        let own = if all_met {
            score(above) > score(this)
        } else {
            separated = separated && score(above) > best_after[i];
            separated
        };
        places[this] = if own { i } else { places[above] };
    }
    places
}

#[cfg(test)]
mod tests {
    use super::direct_encounter;
    use crate::result::{Bye, RoundResult};
    use crate::trf::{Colour, Player, Round, Trf};

    const WIN: RoundResult = RoundResult::WIN;
    const LOSS: RoundResult = RoundResult::LOSS;
    const DRAW: RoundResult = RoundResult::DRAW;

    /// Players 1..=n, one game a round: (white, black, white's result); the others sit out.
    fn trf(n: u32, games: &[(u32, u32, RoundResult)]) -> Trf {
        let flip = |r: RoundResult| r.reversed().expect("a game's result");
        let players = (1..=n)
            .map(|number| {
                let rounds: Vec<Round> = games
                    .iter()
                    .map(|&(w, b, res)| match number {
                        _ if number == w => Round {
                            opponent: b,
                            colour: Colour::White,
                            result: res,
                        },
                        _ if number == b => Round {
                            opponent: w,
                            colour: Colour::Black,
                            result: flip(res),
                        },
                        _ => Round {
                            opponent: 0,
                            colour: Colour::None,
                            result: RoundResult::Bye(Bye::Zero),
                        },
                    })
                    .collect();
                Player {
                    number,
                    name: format!("P{number}"),
                    rating: 0,
                    federation: String::new(),
                    points: rounds.iter().map(Round::points).sum(),
                    written: rounds.len(),
                    rounds,
                }
            })
            .collect();
        Trf {
            players,
            other: Vec::new(),
        }
    }

    #[test]
    fn all_met_ranks_by_the_score_between_them_then_again_inside_each_tie() {
        // 1 and 2 make 2 points among the four, 3 and 4 one; then 1 beat 2 and 4 beat 3.
        let games = [
            (1, 2, WIN),
            (3, 1, WIN),
            (1, 4, WIN),
            (2, 3, WIN),
            (2, 4, WIN),
            (3, 4, LOSS),
        ];
        let t = trf(4, &games);
        assert_eq!(direct_encounter(&t, &[1, 2, 3, 4]), [1, 2, 4, 3]);
        // 3 and 4 only: one game.
        assert_eq!(direct_encounter(&t, &[3, 4]), [2, 1]);
    }

    #[test]
    fn a_draw_or_a_cycle_leaves_the_tie() {
        let t = trf(3, &[(1, 2, DRAW), (2, 3, WIN), (3, 1, WIN), (1, 2, WIN)]);
        // 1 v 2 drawn then won by 1: the average, ¾ against ¼.
        assert_eq!(direct_encounter(&t, &[1, 2]), [1, 2]);
        let cycle = trf(3, &[(1, 2, WIN), (2, 3, WIN), (3, 1, WIN)]);
        assert_eq!(direct_encounter(&cycle, &[1, 2, 3]), [0, 0, 0]);
        assert_eq!(direct_encounter(&trf(2, &[(1, 2, DRAW)]), &[1, 2]), [0, 0]);
    }

    #[test]
    fn not_all_met_ranks_first_only_who_no_one_could_have_caught() {
        // 1 beat 2 and 3, who did not meet: 1 first whatever 2 v 3 would have been.
        let t = trf(3, &[(1, 2, WIN), (3, 1, LOSS)]);
        assert_eq!(direct_encounter(&t, &[1, 2, 3]), [1, 2, 2]);
        // 1 beat 2 only: 3 could still have made a point against each.
        let t = trf(3, &[(1, 2, WIN)]);
        assert_eq!(direct_encounter(&t, &[1, 2, 3]), [0, 0, 0]);
        assert_eq!(direct_encounter(&t, &[2, 1]), [2, 1]);
        // A lone player, and one who never met the other.
        assert_eq!(direct_encounter(&t, &[3]), [0]);
        assert_eq!(direct_encounter(&t, &[1, 3]), [0, 0]);
    }

    #[test]
    fn forfeits_are_not_encounters() {
        let t = trf(2, &[(1, 2, RoundResult::ForfeitWin)]);
        assert_eq!(direct_encounter(&t, &[1, 2]), [0, 0]);
    }
}
