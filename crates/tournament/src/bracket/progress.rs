//! A bracket being played: its states kept up to date one result at a time, so a result costs
//! the few nodes it feeds rather than a pass over the whole bracket.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use super::{is_ready, Bracket, BracketError, Decision, Slot, Source, State, Winner};

/// A bracket and its results, resolved as [`Bracket::resolve`] would resolve them.
#[derive(Debug, Clone)]
pub struct Progress<'a> {
    bracket: &'a Bracket,
    winners: Vec<Option<Winner>>,
    states: Vec<State>,
    /// The later nodes that take node i's winner or loser (or repeat it):
    /// `feeds[feed_at[i]..feed_at[i + 1]]`.
    feeds: Vec<usize>,
    feed_at: Vec<usize>,
    ready: BTreeSet<usize>,
    open: usize,
}

impl<'a> Progress<'a> {
    /// The bracket with the results so far (`winners[i]` for node i; missing ones are `None`).
    pub fn new(bracket: &'a Bracket, mut winners: Vec<Option<Winner>>) -> Progress<'a> {
        winners.resize(bracket.nodes.len(), None);
        let states = bracket.resolve(&winners);
        let mut edges: Vec<(usize, usize)> = Vec::with_capacity(2 * bracket.nodes.len());
        for (c, node) in bracket.nodes.iter().enumerate() {
            for s in [node.first, node.second] {
                if let Source::Winner(j) | Source::Loser(j) = s {
                    if j < c {
                        edges.push((j, c));
                    }
                }
            }
        }
        edges.sort_unstable();
        edges.dedup();
        let mut feed_at = vec![0; bracket.nodes.len() + 1];
        for &(j, _) in &edges {
            feed_at[j + 1] += 1;
        }
        for i in 0..bracket.nodes.len() {
            feed_at[i + 1] += feed_at[i];
        }
        let feeds = edges.into_iter().map(|(_, c)| c).collect();
        let ready = (0..states.len()).filter(|&i| is_ready(&states[i])).collect();
        let open = states.iter().filter(|s| s.decision == Decision::Open).count();
        Progress {
            bracket,
            winners,
            states,
            feeds,
            feed_at,
            ready,
            open,
        }
    }

    /// Records node `node`'s result if it is ready (see [`Bracket::record`]); otherwise refuses
    /// and changes nothing.
    pub fn record(&mut self, node: usize, winner: Winner) -> Result<(), BracketError> {
        let label = &self
            .bracket
            .nodes
            .get(node)
            .ok_or(BracketError::NoSuchNode(node))?
            .label;
        if !self.ready.contains(&node) {
            return Err(BracketError::NotReady(label.clone()));
        }
        self.winners[node] = Some(winner);
        // Recompute in node order, so each node after the nodes it takes from.
        let mut todo = BinaryHeap::from([Reverse(node)]);
        let mut done = None;
        while let Some(Reverse(i)) = todo.pop() {
            if done.replace(i) == Some(i) {
                continue;
            }
            let state = self.bracket.state(i, &self.states, &self.winners);
            if state == self.states[i] {
                continue;
            }
            let was = std::mem::replace(&mut self.states[i], state);
            self.open =
                self.open + usize::from(state.decision == Decision::Open) - usize::from(was.decision == Decision::Open);
            if is_ready(&state) {
                self.ready.insert(i);
            } else {
                self.ready.remove(&i);
            }
            let feeds = &self.feeds[self.feed_at[i]..self.feed_at[i + 1]];
            todo.extend(feeds.iter().map(|&c| Reverse(c)));
        }
        Ok(())
    }

    /// The nodes to be played now, in node order.
    pub fn ready(&self) -> impl Iterator<Item = usize> + '_ {
        self.ready.iter().copied()
    }

    /// Every node's state, as [`Bracket::resolve`] gives it.
    pub fn states(&self) -> &[State] {
        &self.states
    }

    /// The results so far, one per node.
    pub fn winners(&self) -> &[Option<Winner>] {
        &self.winners
    }

    /// The champion once decided: the winner of the last node.
    pub fn champion(&self) -> Option<u32> {
        match self.states.last()?.winner {
            Slot::Player(p) => Some(p),
            _ => None,
        }
    }

    /// Whether every node is decided.
    pub fn is_finished(&self) -> bool {
        self.open == 0
    }
}
