//! Placings of a bracket, final once it is finished.
//!
//! A player's place is decided by the last node they took part in (played, or won by walkover):
//! the fewer matches between that node and the end of the bracket (the longest path to a node
//! no other follows), the better; players who went out equally far from the end share a place
//! (5th–8th for the quarter-finals' losers). Among the nodes at the very end (the final and the
//! third-place match) the later node ranks higher, and within a node its winner ranks first.

use std::cmp::Reverse;
use std::collections::BTreeMap;

use serde::Serialize;

use super::{Bracket, Decision, Slot, Source, State};

/// A place shared by one or more seeds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placing {
    /// 1 for the champion; a shared place is numbered by its best position (5 for 5th–8th).
    pub place: u32,
    /// The seeds holding it, in seed order.
    pub seeds: Vec<u32>,
}

pub(super) fn placings(bracket: &Bracket, states: &[State]) -> Option<Vec<Placing>> {
    if states.iter().any(|s| s.decision == Decision::Open) {
        return None;
    }
    Some(standing(bracket, states))
}

/// The placings so far: everyone still in shares the first place (the champion alone once the
/// bracket is finished), and those out follow, ranked as the final placings will rank them. A
/// place of those out counts everyone still in above it, so it may yet become a better shared
/// place (a semi-final's loser is 4th until the other semi-final is played, then 3rd–4th).
pub(super) fn standing(bracket: &Bracket, states: &[State]) -> Vec<Placing> {
    let nodes = &bracket.nodes;
    // The longest path from each node to the end, filled from the last node back.
    let mut to_end = vec![0usize; nodes.len()];
    for c in (0..nodes.len()).rev() {
        for s in [nodes[c].first, nodes[c].second] {
            if let Source::Winner(j) | Source::Loser(j) = s {
                if j < c {
                    to_end[j] = to_end[j].max(to_end[c] + 1);
                }
            }
        }
    }
    // Each seed's last node and whether they won it.
    let mut last: BTreeMap<u32, (usize, bool)> = BTreeMap::new();
    for node in nodes {
        for s in [node.first, node.second] {
            if let Source::Seed(p) = s {
                last.entry(p).or_insert((usize::MAX, false));
            }
        }
    }
    for (i, s) in states.iter().enumerate() {
        if matches!(s.decision, Decision::Played(_) | Decision::Walkover) {
            for side in [s.first, s.second] {
                if let Slot::Player(p) = side {
                    last.insert(p, (i, side == s.winner));
                }
            }
        }
    }
    // Those with a match still to come (a known side of an undecided node); once every node
    // is decided, the champion.
    let mut still_in: Vec<u32> = states
        .iter()
        .filter(|s| s.decision == Decision::Open)
        .flat_map(|s| [s.first, s.second])
        .filter_map(|side| match side {
            Slot::Player(p) => Some(p),
            _ => None,
        })
        .collect();
    if still_in.is_empty() {
        if let Some(Slot::Player(p)) = states.last().map(|s| s.winner) {
            still_in.push(p);
        }
    }
    still_in.sort_unstable();
    still_in.dedup();
    // (distance to the end, the node if at the very end, lost), never-placed seeds last.
    let key = |&(i, won): &(usize, bool)| match i {
        usize::MAX => (usize::MAX, Reverse(0), true),
        _ if to_end[i] == 0 => (0, Reverse(i), !won),
        _ => (to_end[i], Reverse(0), !won),
    };
    let mut groups: BTreeMap<_, Vec<u32>> = BTreeMap::new();
    for (&p, at) in &last {
        if still_in.binary_search(&p).is_err() {
            groups.entry(key(at)).or_default().push(p);
        }
    }
    let mut place = still_in.len() as u32 + 1;
    let mut out: Vec<Placing> = Vec::new();
    if !still_in.is_empty() {
        out.push(Placing {
            place: 1,
            seeds: still_in,
        });
    }
    for seeds in groups.into_values() {
        let n = seeds.len() as u32;
        out.push(Placing { place, seeds });
        place += n;
    }
    out
}
