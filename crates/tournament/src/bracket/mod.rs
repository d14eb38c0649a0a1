//! Knockout brackets as data: a graph of matches (nodes) whose entrants come from seeds, byes, or
//! the winner or loser of an earlier node, so an event can be played one result at a time and
//! asked at any moment which matches are ready.
//!
//! The results are a slice beside the bracket (`winners[i]` is node i's result), and every
//! question is answered from the bracket and that slice alone: an event stores results, not
//! bracket state.
//!
//! - Byes: a node with a missing side (a [`Source::Bye`], or the loser of a walkover, who is
//!   nobody) is a walkover, won by the present side without play; [`Bracket::ready`] never
//!   returns it and a result given for it is ignored.
//! - Node order: a node's sources always name earlier nodes, so one pass in order resolves the
//!   bracket, and the final (or, in double elimination, the reset) is the last node.
//! - Labels of [`single`]: `r.m` (round r, match m, both from 1) and `3P.1` for the third-place
//!   match. Labels of [`double`]: `Wr.m` in the winners' bracket, `Lr.m` in the losers'
//!   bracket, `GF.1` for the grand final and `GF.2` for its reset.
//!
//! ```
//! use tournament::bracket::{single, Slot, Winner};
//!
//! // 3 players: seed 1 has a bye, 2 and 3 play, then the final.
//! let b = single(3, false);
//! let mut results = vec![None; b.nodes.len()];
//! assert_eq!(b.ready(&results), vec![1]);
//! b.record(&mut results, 1, Winner::Second).unwrap(); // seed 3 beats seed 2
//! assert_eq!(b.entrants(&results)[2], (Slot::Player(1), Slot::Player(3)));
//! b.record(&mut results, 2, Winner::First).unwrap();
//! assert_eq!(b.champion(&results), Some(1));
//! ```

mod build;
mod place;
mod progress;
#[cfg(test)]
mod tests;

pub use build::{double, single};
pub use place::Placing;
pub use progress::Progress;

use serde::Serialize;

/// Where a match's entrant comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Source {
    /// A seed, from 1.
    Seed(u32),
    /// Nobody: the other side has a walkover.
    Bye,
    /// The winner of a node (by index).
    Winner(usize),
    /// The loser of a node (by index); nobody if that node was a walkover.
    Loser(usize),
}

/// One match of a bracket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Node {
    /// The match's name, stable across builds (see the module's label scheme).
    pub label: String,
    /// The first-named entrant (the higher seed, the upper line).
    pub first: Source,
    pub second: Source,
    /// The grand-final reset: its sides are `Loser(g)` and `Winner(g)` of the first grand final
    /// g, and it is played only if g's second side (the losers'-bracket champion) won g.
    pub reset: bool,
}

/// A bracket: its nodes, each naming only earlier nodes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Bracket {
    pub nodes: Vec<Node>,
}

/// A node's result: which side won.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum Winner {
    First,
    Second,
}

/// One side of a node as far as the results so far tell.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum Slot {
    Player(u32),
    /// Known to be nobody: the other side goes through without play.
    Bye,
    /// Not known yet: an earlier node is still to be decided.
    Pending,
}

/// How a node is decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum Decision {
    /// Waiting for its entrants or for its result.
    Open,
    Played(Winner),
    /// A side is nobody: the present side goes through (or nobody, if both sides are nobody).
    Walkover,
    /// A reset that is not played: the first grand final's winner is the champion.
    NotNeeded,
}

/// A node resolved from the results so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct State {
    pub first: Slot,
    pub second: Slot,
    pub decision: Decision,
    /// Who goes on as the node's winner ([`Slot::Pending`] until decided).
    pub winner: Slot,
    /// Who goes on as its loser: [`Slot::Bye`] (nobody) after a walkover or an unplayed reset.
    pub loser: Slot,
}

/// A result the bracket refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BracketError {
    /// No node has this index.
    NoSuchNode(usize),
    /// The node is not ready: its entrants are not both known, it is a walkover or an unplayed
    /// reset, or it has a result already.
    NotReady(String),
}

impl std::fmt::Display for BracketError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BracketError::NoSuchNode(i) => write!(f, "the bracket has no match number {i}"),
            BracketError::NotReady(label) => write!(f, "match {label} is not ready to be played"),
        }
    }
}

impl std::error::Error for BracketError {}

impl Bracket {
    /// Every node resolved from the results so far, in node order. A result for a walkover or
    /// an unneeded reset is ignored; one for a node whose entrants are not known yet waits until
    /// they are (so results are best stored through [`Bracket::record`], or loaded and then
    /// vetted with [`Bracket::check`]). A source naming a node that is not earlier stays
    /// [`Slot::Pending`] for ever.
    pub fn resolve(&self, winners: &[Option<Winner>]) -> Vec<State> {
        let mut states: Vec<State> = Vec::with_capacity(self.nodes.len());
        for i in 0..self.nodes.len() {
            let state = self.state(i, &states, winners);
            states.push(state);
        }
        states
    }

    /// Node i's state from the states of the nodes before it and its own result: the one rule
    /// both [`Bracket::resolve`] and [`Progress`] apply.
    fn state(&self, i: usize, states: &[State], winners: &[Option<Winner>]) -> State {
        let node = &self.nodes[i];
        let earlier = |j: usize| if j < i { states.get(j) } else { None };
        let side = |s: Source| match s {
            Source::Seed(p) => Slot::Player(p),
            Source::Bye => Slot::Bye,
            Source::Winner(j) => earlier(j).map_or(Slot::Pending, |s| s.winner),
            Source::Loser(j) => earlier(j).map_or(Slot::Pending, |s| s.loser),
        };
        let (first, second) = (side(node.first), side(node.second));
        let open = State {
            first,
            second,
            decision: Decision::Open,
            winner: Slot::Pending,
            loser: Slot::Pending,
        };
        let decided = |decision, winner, loser| State {
            decision,
            winner,
            loser,
            ..open
        };
        let repeated = if node.reset {
            self.repeats(i).and_then(earlier)
        } else {
            None
        };
        match (repeated, first, second) {
            (Some(g), ..) if g.decision == Decision::Open => open,
            (Some(g), ..) if g.decision != Decision::Played(Winner::Second) => {
                decided(Decision::NotNeeded, g.winner, Slot::Bye)
            }
            (_, Slot::Bye, present) | (_, present, Slot::Bye) => decided(Decision::Walkover, present, Slot::Bye),
            (_, Slot::Player(_), Slot::Player(_)) => match winners.get(i).copied().flatten() {
                Some(Winner::First) => decided(Decision::Played(Winner::First), first, second),
                Some(Winner::Second) => decided(Decision::Played(Winner::Second), second, first),
                None => open,
            },
            _ => open,
        }
    }

    /// The node a reset repeats: for a reset node whose sides are the loser and the winner of
    /// one earlier node g, that g.
    pub fn repeats(&self, node: usize) -> Option<usize> {
        let n = self.nodes.get(node)?;
        match (n.reset, n.first, n.second) {
            (true, Source::Loser(g), Source::Winner(h)) if g == h && g < node => Some(g),
            _ => None,
        }
    }

    /// The entrants of each node as far as known from the results so far.
    pub fn entrants(&self, winners: &[Option<Winner>]) -> Vec<(Slot, Slot)> {
        self.resolve(winners).iter().map(|s| (s.first, s.second)).collect()
    }

    /// The nodes to be played now, in node order: both entrants known, no result yet (so never a
    /// node that has one), not a walkover, and the reset only when it is needed.
    pub fn ready(&self, winners: &[Option<Winner>]) -> Vec<usize> {
        let states = self.resolve(winners);
        (0..states.len()).filter(|&i| is_ready(&states[i])).collect()
    }

    /// Records `winner` as node `node`'s result if the node is ready; otherwise refuses and
    /// changes nothing. `winners` grows to the bracket's length if shorter.
    pub fn record(&self, winners: &mut Vec<Option<Winner>>, node: usize, winner: Winner) -> Result<(), BracketError> {
        let label = &self.nodes.get(node).ok_or(BracketError::NoSuchNode(node))?.label;
        if !is_ready(&self.resolve(winners)[node]) {
            return Err(BracketError::NotReady(label.clone()));
        }
        if winners.len() < self.nodes.len() {
            winners.resize(self.nodes.len(), None);
        }
        winners[node] = Some(winner);
        Ok(())
    }

    /// Refuses results that could not have been recorded one by one: a result for a node that
    /// was not played with it (a walkover, an unneeded reset, entrants still unknown) or for a
    /// node the bracket does not have.
    pub fn check(&self, winners: &[Option<Winner>]) -> Result<(), BracketError> {
        if let Some(extra) = (self.nodes.len()..winners.len()).find(|&i| winners[i].is_some()) {
            return Err(BracketError::NoSuchNode(extra));
        }
        let states = self.resolve(winners);
        match (0..states.len()).find(|&i| winners[i].is_some() && !matches!(states[i].decision, Decision::Played(_))) {
            Some(i) => Err(BracketError::NotReady(self.nodes[i].label.clone())),
            None => Ok(()),
        }
    }

    /// The nodes decided by play so far, in node order (walkovers and an unplayed reset are not).
    pub fn played(&self, winners: &[Option<Winner>]) -> Vec<usize> {
        let states = self.resolve(winners);
        (0..states.len())
            .filter(|&i| matches!(states[i].decision, Decision::Played(_)))
            .collect()
    }

    /// The champion once decided: the winner of the last node.
    pub fn champion(&self, winners: &[Option<Winner>]) -> Option<u32> {
        match self.resolve(winners).last()?.winner {
            Slot::Player(p) => Some(p),
            _ => None,
        }
    }

    /// Whether every node is decided (played, a walkover, or a reset not needed).
    pub fn is_finished(&self, winners: &[Option<Winner>]) -> bool {
        self.resolve(winners).iter().all(|s| s.decision != Decision::Open)
    }

    /// The placings so far, final once the bracket is finished: those still in share the
    /// first place, those out follow in the order of the final placings (see [`Placing`]).
    pub fn standing(&self, winners: &[Option<Winner>]) -> Vec<Placing> {
        place::standing(self, &self.resolve(winners))
    }

    /// The final placings once the bracket is finished (None before): see [`Placing`].
    pub fn placings(&self, winners: &[Option<Winner>]) -> Option<Vec<Placing>> {
        place::placings(self, &self.resolve(winners))
    }
}

fn is_ready(s: &State) -> bool {
    s.decision == Decision::Open && matches!((s.first, s.second), (Slot::Player(_), Slot::Player(_)))
}
