//! Direct Encounter (C.07 Art. 6) between tied teams, on the primary score, read as the
//! individual one is ([`crate::tiebreak::direct_encounter`]):
//!
//! - each team's score is the primary score (match or game points) it made in the matches
//!   against the others of the group, the average where two met more than once; matches no
//!   board of which was played (every board forfeited) are not encounters;
//! - if all met, that score ranks them; otherwise the best scorer is ranked first only if his
//!   score beats what any other could have made by winning every missing match (a win's match
//!   points, or every board), then the next one likewise, and all from the first who is not so
//!   are left tied;
//! - DE is applied again to every subgroup it leaves tied, counting only the matches inside the
//!   subgroup, until it separates no more.

use std::collections::BTreeMap;

use super::Event;

impl Event<'_> {
    /// Places from 0 (ties sharing the higher) of the teams of `group` by DE.
    pub(super) fn direct_encounter(&self, group: &[usize]) -> Vec<usize> {
        let first = self.one_pass(group);
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
            let teams: Vec<usize> = members.iter().map(|&i| group[i]).collect();
            for (&i, sub) in members.iter().zip(self.direct_encounter(&teams)) {
                placed[i] = start + sub;
            }
        }
        placed
    }

    /// A team's primary score against the rest of the group and how many of them it met.
    fn tally(&self, group: &[usize], team: usize) -> (f64, usize) {
        let p = self.primary();
        let mut met: BTreeMap<usize, (f64, u32)> = BTreeMap::new();
        for e in self.entries[team].iter().filter(|e| e.played) {
            if let Some(o) = e.opponent.filter(|o| group.contains(o)) {
                let m = met.entry(o).or_default();
                m.0 += e.points(p);
                m.1 += 1;
            }
        }
        let score = met.values().map(|(points, n)| points / f64::from(*n)).sum();
        (score, met.len())
    }

    /// One application of DE to the group: places from 0.
    fn one_pass(&self, group: &[usize]) -> Vec<usize> {
        let k = group.len();
        let tallies: Vec<(f64, usize)> = group.iter().map(|&t| self.tally(group, t)).collect();
        let score = |i: usize| tallies[i].0;
        let win = self.win(self.primary());
        let best_case = |i: usize| tallies[i].0 + (k - 1 - tallies[i].1) as f64 * win;
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
}
