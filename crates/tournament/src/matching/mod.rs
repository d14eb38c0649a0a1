//! Maximum-weight matching on general graphs: Edmonds' blossom algorithm in its primal-dual form,
//! O(n³) on a dense weight matrix.
//!
//! Written for the Swiss pairing engines, whose edge weights are long lexicographic integers built
//! field by field (hundreds of bits), hence the [`Weight`] trait and the fixed-width [`Wide`]
//! integer. Any `u64`, `i64`, `u128` or [`Wide`] weight works.
//!
//! ```
//! use tournament::matching::{Graph, Matcher};
//!
//! let mut g = Graph::<u64>::new(4);
//! g.set(0, 1, 5);
//! g.set(1, 2, 8);
//! g.set(2, 3, 5);
//! let mates = Matcher::new().solve(&g);
//! // 5 + 5 beats the single edge of weight 8.
//! assert_eq!(mates, vec![Some(1), Some(0), Some(3), Some(2)]);
//! ```
//!
//! What callers must know:
//!
//! - A weight of zero (or, for `i64`, anything not above zero) means *no edge*; such a pair is
//!   never matched.
//! - The result maximises the total weight. It does not force cardinality: an edge is used only if
//!   it raises the total. (Callers wanting "most pairs first" put the pair count in the top field
//!   of the weight.)
//! - Headroom: the largest weight must not exceed [`Weight::MAX_WEIGHT`], which leaves the top
//!   two bits free (one more for `i64`, which also keeps the sign bit clear): the duals are kept
//!   in doubled units, reach twice the largest weight, and a slack adds two of them. `solve`
//!   panics on a larger weight.
//! - Deterministic: the same graph always gives the same matching (no hashing, no randomness,
//!   fixed scan orders). When several matchings share the maximum weight, which one is returned
//!   is a property of the scan order, not of any rule; encode every tie-break you care about in
//!   the weights so that the optimum is unique.
//! - Memory: the [`Graph`] is a full n×n matrix (`n² · size_of::<W>()` bytes: 128 MB for
//!   n = 2000 with `Wide<4>`); the [`Matcher`] needs O(n) words plus the blossom lists, and keeps
//!   its buffers between calls.
//!
//! The algorithm follows the classic formulation (Edmonds 1965; Gabow 1976; Galil 1986): vertex
//! duals `y`, blossom duals `z`, alternating trees with S (outer) and T (inner) labels, and dual
//! changes bounded by δ1 (an S vertex reaches zero: the optimum), δ2 (an S–free edge becomes
//! tight), δ3 (an S–S edge becomes tight: a blossom or an augmenting path) and δ4 (a T blossom's
//! dual reaches zero: expand it). All free vertices are roots of their own tree at once, and after
//! an augmentation only the two trees it joined are dissolved; the others keep growing, which
//! saves most of the rescanning a restart per augmentation would cost.
//!
//! Warm starts: [`Matcher::resolve`] re-optimises after the edges at a few vertices changed, and
//! [`Matcher::resolve_all`] after any change, both from the last optimum. The blossoms around a
//! changed vertex are flattened (their duals handed down to their vertices, so no slack drops),
//! the changed vertices' duals set to the least their new edges allow, matched edges that are
//! no longer tight unmatched, and the free vertices of positive dual grown as roots. Their
//! duals then differ, which the search allows for: an S vertex whose dual reaches zero before
//! the free ones do leaves the matching (the path from its root flips), a root that reaches
//! zero stops growing, and a free vertex of zero dual reached by a tight edge ends an
//! augmenting path. Every root is given the same parity so that S–S slacks stay even. The
//! Dutch pairing makes dozens of matchings per bracket that differ in a few players' edges;
//! this is what makes 10,000 players a matter of seconds per bracket.
//!
//! Units: every dual is doubled so that all arithmetic stays integral. The slack of an edge `uv`
//! between two different top-level blossoms is `y[u] + y[v] − 2·w(u, v)`; S–S slacks are always
//! even, so δ3 (half such a slack) and δ4 (half a blossom dual, which only ever moves by 2δ) are
//! exact.
//!
//! The files: [`Weight`] (what a weight must do, implemented once for the machine integers) and
//! [`Wide`] (the long integer); `graph` (the weight matrix); `matcher` (the solver's state and
//! its driver), `search` (growing the trees and changing the duals), `blossom` (shrinking and
//! expanding blossoms), `augment` (flipping an augmenting path) and `warm` (warm starts).

mod augment;
mod blossom;
mod graph;
mod matcher;
mod search;
mod warm;
mod weight;
mod wide;

pub use graph::{max_weight_matching, Graph};
pub use matcher::{Matcher, MatcherStats};
pub use weight::Weight;
pub use wide::Wide;

/// No vertex or blossom.
const NONE: u32 = u32::MAX;
/// Labels of a top-level blossom: not in a tree, outer (S) or inner (T).
const FREE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;

#[cfg(test)]
mod tests;
