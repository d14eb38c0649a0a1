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

use std::fmt;

const NONE: u32 = u32::MAX;
const FREE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;

/// An edge weight: a totally ordered integer with wrapping addition and subtraction.
///
/// The algorithm only ever stores values in `0 ..= 4 · MAX_WEIGHT`; intermediate sums may wrap,
/// final values never do.
pub trait Weight: Copy + Ord + fmt::Debug {
    const ZERO: Self;
    /// The largest edge weight [`Matcher::solve`] accepts.
    const MAX_WEIGHT: Self;
    /// Wrapping addition.
    fn wadd(self, rhs: Self) -> Self;
    /// Wrapping subtraction.
    fn wsub(self, rhs: Self) -> Self;
    /// Halve (the value is never negative when the algorithm halves it).
    fn half(self) -> Self;
    /// Whether the lowest bit is set.
    fn is_odd(self) -> bool;
    /// One.
    fn one() -> Self;
    /// Whether this weight denotes an edge (is above zero).
    #[inline(always)]
    fn is_edge(self) -> bool {
        self > Self::ZERO
    }
    /// Whether this (non-negative) value is zero.
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}

impl Weight for u64 {
    const ZERO: Self = 0;
    #[inline(always)]
    fn is_odd(self) -> bool {
        self & 1 == 1
    }
    #[inline(always)]
    fn one() -> Self {
        1
    }
    const MAX_WEIGHT: Self = (1 << 62) - 1;
    #[inline(always)]
    fn is_edge(self) -> bool {
        self != 0
    }
    #[inline(always)]
    fn wadd(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
    #[inline(always)]
    fn wsub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
    #[inline(always)]
    fn half(self) -> Self {
        self >> 1
    }
}

impl Weight for i64 {
    const ZERO: Self = 0;
    #[inline(always)]
    fn is_odd(self) -> bool {
        self & 1 == 1
    }
    #[inline(always)]
    fn one() -> Self {
        1
    }
    const MAX_WEIGHT: Self = (1 << 61) - 1;
    #[inline(always)]
    fn wadd(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
    #[inline(always)]
    fn wsub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
    #[inline(always)]
    fn half(self) -> Self {
        self >> 1
    }
}

impl Weight for u128 {
    const ZERO: Self = 0;
    #[inline(always)]
    fn is_odd(self) -> bool {
        self & 1 == 1
    }
    #[inline(always)]
    fn one() -> Self {
        1
    }
    const MAX_WEIGHT: Self = (1 << 126) - 1;
    #[inline(always)]
    fn wadd(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
    #[inline(always)]
    fn wsub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
    #[inline(always)]
    fn half(self) -> Self {
        self >> 1
    }
}

/// An unsigned integer of `N` 64-bit limbs (`64·N` bits) with wrapping arithmetic.
///
/// The limbs are stored most significant first, so the derived ordering is the numeric one. Build
/// lexicographic weights field by field, most significant field first:
///
/// ```
/// use tournament::matching::Wide;
///
/// // [pairs: 12 bits][score difference: 40 bits][colour preference: 3 bits]
/// let w = Wide::<4>::from_u64(7).shl(40).or_small(1234).shl(3).or_small(5);
/// assert_eq!(w, Wide::from_u64((7 << 43) | (1234 << 3) | 5));
/// assert!(Wide::<4>::from_u64(1).shl(200) > Wide::from_u64(u64::MAX));
/// ```
#[derive(Clone, Copy)]
pub struct Wide<const N: usize>([u64; N]);

// Comparisons by hand: scalar and branch-free (an or of xors, a borrow chain), which the hot loops
// need; the derived ones compare arrays through memory.
impl<const N: usize> PartialEq for Wide<N> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        let mut diff = 0;
        for i in 0..N {
            diff |= self.0[i] ^ other.0[i];
        }
        diff == 0
    }
}

impl<const N: usize> Eq for Wide<N> {}

impl<const N: usize> std::hash::Hash for Wide<N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<const N: usize> Wide<N> {
    /// `self < other`, as the borrow out of `self − other`.
    #[inline(always)]
    fn below(&self, other: &Self) -> bool {
        let mut borrow = false;
        for i in (0..N).rev() {
            let (d, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (_, b2) = d.overflowing_sub(borrow as u64);
            borrow = b1 | b2;
        }
        borrow
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if self.below(other) {
            std::cmp::Ordering::Less
        } else if self == other {
            std::cmp::Ordering::Equal
        } else {
            std::cmp::Ordering::Greater
        }
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
    #[inline(always)]
    fn lt(&self, other: &Self) -> bool {
        self.below(other)
    }
    #[inline(always)]
    fn le(&self, other: &Self) -> bool {
        !other.below(self)
    }
    #[inline(always)]
    fn gt(&self, other: &Self) -> bool {
        other.below(self)
    }
    #[inline(always)]
    fn ge(&self, other: &Self) -> bool {
        !self.below(other)
    }
}

impl<const N: usize> Wide<N> {
    pub const ZERO: Self = Wide([0; N]);
    pub const BITS: u32 = 64 * N as u32;
    /// `2^(64·N − 2) − 1`: see [`Weight::MAX_WEIGHT`].
    pub const MAX_WEIGHT: Self = {
        let mut limbs = [u64::MAX; N];
        limbs[0] >>= 2;
        Wide(limbs)
    };

    pub const fn from_u64(x: u64) -> Self {
        let mut limbs = [0; N];
        limbs[N - 1] = x;
        Wide(limbs)
    }

    /// From limbs, most significant first.
    pub const fn from_limbs(limbs: [u64; N]) -> Self {
        Wide(limbs)
    }

    /// The limbs, most significant first.
    pub const fn limbs(self) -> [u64; N] {
        self.0
    }

    /// The lowest 64 bits.
    pub const fn low_u64(self) -> u64 {
        self.0[N - 1]
    }

    #[inline(always)]
    pub fn is_zero(self) -> bool {
        self.0.iter().fold(0, |a, &l| a | l) == 0
    }

    /// The number of significant bits (0 for zero).
    pub fn bit_len(self) -> u32 {
        match self.0.iter().position(|&l| l != 0) {
            Some(i) => (N - i) as u32 * 64 - self.0[i].leading_zeros(),
            None => 0,
        }
    }

    #[inline(always)]
    pub fn wrapping_add(self, rhs: Self) -> Self {
        let mut r = [0u64; N];
        let mut carry = false;
        for i in (0..N).rev() {
            let (s, c1) = self.0[i].overflowing_add(rhs.0[i]);
            let (s, c2) = s.overflowing_add(carry as u64);
            r[i] = s;
            carry = c1 | c2;
        }
        Wide(r)
    }

    #[inline(always)]
    pub fn wrapping_sub(self, rhs: Self) -> Self {
        let mut r = [0u64; N];
        let mut borrow = false;
        for i in (0..N).rev() {
            let (d, b1) = self.0[i].overflowing_sub(rhs.0[i]);
            let (d, b2) = d.overflowing_sub(borrow as u64);
            r[i] = d;
            borrow = b1 | b2;
        }
        Wide(r)
    }

    /// `self + x`, wrapping.
    pub fn add_small(self, x: u64) -> Self {
        self.wrapping_add(Self::from_u64(x))
    }

    /// `self − x`, wrapping.
    pub fn sub_small(self, x: u64) -> Self {
        self.wrapping_sub(Self::from_u64(x))
    }

    /// `self << bits` (bits shifted out are lost; `bits ≥ 64·N` gives zero).
    #[allow(clippy::should_implement_trait)]
    pub fn shl(self, bits: u32) -> Self {
        if bits >= Self::BITS {
            return Self::ZERO;
        }
        let (limbs, b) = ((bits / 64) as usize, bits % 64);
        let mut r = [0u64; N];
        for (i, out) in r[..N - limbs].iter_mut().enumerate() {
            let mut x = self.0[i + limbs] << b;
            if b > 0 && i + limbs + 1 < N {
                x |= self.0[i + limbs + 1] >> (64 - b);
            }
            *out = x;
        }
        Wide(r)
    }

    /// `self >> bits` (logical).
    #[allow(clippy::should_implement_trait)]
    pub fn shr(self, bits: u32) -> Self {
        if bits >= Self::BITS {
            return Self::ZERO;
        }
        let (limbs, b) = ((bits / 64) as usize, bits % 64);
        let mut r = [0u64; N];
        for (j, out) in r[limbs..].iter_mut().enumerate() {
            let mut x = self.0[j] >> b;
            if b > 0 && j > 0 {
                x |= self.0[j - 1] << (64 - b);
            }
            *out = x;
        }
        Wide(r)
    }

    /// Bitwise or.
    pub fn or(self, rhs: Self) -> Self {
        let mut r = self.0;
        for (a, b) in r.iter_mut().zip(rhs.0) {
            *a |= b;
        }
        Wide(r)
    }

    /// Or `x` into the lowest 64 bits (to fill the field just opened by [`Wide::shl`]).
    pub fn or_small(mut self, x: u64) -> Self {
        self.0[N - 1] |= x;
        self
    }
}

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<const N: usize> From<u64> for Wide<N> {
    fn from(x: u64) -> Self {
        Self::from_u64(x)
    }
}

impl<const N: usize> fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x")?;
        let first = self.0.iter().position(|&l| l != 0).unwrap_or(N - 1);
        write!(f, "{:x}", self.0[first])?;
        for l in &self.0[first + 1..] {
            write!(f, "_{l:016x}")?;
        }
        Ok(())
    }
}

impl<const N: usize> std::ops::Add for Wide<N> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
}

impl<const N: usize> std::ops::Sub for Wide<N> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
}

impl<const N: usize> std::ops::Shl<u32> for Wide<N> {
    type Output = Self;
    fn shl(self, bits: u32) -> Self {
        Wide::shl(self, bits)
    }
}

impl<const N: usize> std::ops::Shr<u32> for Wide<N> {
    type Output = Self;
    fn shr(self, bits: u32) -> Self {
        Wide::shr(self, bits)
    }
}

impl<const N: usize> std::ops::BitOr for Wide<N> {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        self.or(rhs)
    }
}

impl<const N: usize> Weight for Wide<N> {
    const ZERO: Self = Wide([0; N]);
    const MAX_WEIGHT: Self = Wide::<N>::MAX_WEIGHT;
    #[inline(always)]
    fn is_odd(self) -> bool {
        self.0[N - 1] & 1 == 1
    }
    #[inline(always)]
    fn one() -> Self {
        Wide::from_u64(1)
    }
    #[inline(always)]
    fn is_edge(self) -> bool {
        !Wide::is_zero(self)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        Wide::is_zero(self)
    }
    #[inline(always)]
    fn wadd(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
    #[inline(always)]
    fn wsub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
    #[inline(always)]
    fn half(self) -> Self {
        let mut r = self.0;
        let mut high = 0u64;
        for l in r.iter_mut() {
            let low_bit = *l << 63;
            *l = (*l >> 1) | high;
            high = low_bit;
        }
        Wide(r)
    }
}

/// A dense, symmetric weight matrix on vertices `0..n`; weight zero means no edge.
#[derive(Clone, Debug)]
pub struct Graph<W> {
    n: usize,
    w: Vec<W>,
}

impl<W: Weight> Graph<W> {
    /// `n` vertices and no edges.
    pub fn new(n: usize) -> Self {
        Graph {
            n,
            w: vec![W::ZERO; n * n],
        }
    }

    /// Forget every edge and resize to `n` vertices, keeping the allocation.
    pub fn reset(&mut self, n: usize) {
        self.n = n;
        self.w.clear();
        self.w.resize(n * n, W::ZERO);
    }

    /// The number of vertices.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Set the weight of the edge `uv` (both directions); `W::ZERO` removes it.
    #[inline]
    pub fn set(&mut self, u: usize, v: usize, w: W) {
        assert!(
            u != v && u < self.n && v < self.n,
            "edge {u}-{v} in a graph of {}",
            self.n
        );
        self.w[u * self.n + v] = w;
        self.w[v * self.n + u] = w;
    }

    #[inline]
    pub fn get(&self, u: usize, v: usize) -> W {
        self.w[u * self.n + v]
    }

    /// The total weight of a matching (wrapping sum).
    pub fn matching_weight(&self, mates: &[Option<usize>]) -> W {
        let mut total = W::ZERO;
        for (u, m) in mates.iter().enumerate() {
            if let Some(v) = *m {
                if u < v {
                    total = total.wadd(self.get(u, v));
                }
            }
        }
        total
    }
}

/// A maximum-weight matching of the complete graph on `n` vertices whose weights `weight(u, v)`
/// (called once per pair `u < v`) give; zero means no edge. `result[v]` is `v`'s partner.
pub fn max_weight_matching<W: Weight>(n: usize, weight: impl Fn(usize, usize) -> W) -> Vec<Option<usize>> {
    let mut g = Graph::new(n);
    for u in 0..n {
        for v in u + 1..n {
            g.set(u, v, weight(u, v));
        }
    }
    Matcher::new().solve(&g)
}

/// Counters of the last [`Matcher::solve`] (for profiling and tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatcherStats {
    /// Augmenting paths used (= edges in the matching).
    pub augmentations: u64,
    /// Blossoms formed, and how many of them had a blossom among their children.
    pub blossoms: u64,
    pub nested_blossoms: u64,
    /// T blossoms expanded (δ4), and blossoms of zero dual expanded when their tree dissolved.
    pub t_expansions: u64,
    pub zero_expansions: u64,
    /// Dual changes (δ1…δ4 steps) and vertex scans (n edges each).
    pub dual_steps: u64,
    pub scans: u64,
    /// Best-edge caches rebuilt after a tree dissolved (free vertices; S blossoms).
    pub rebuilt_vertex_edges: u64,
    pub rebuilt_blossom_edges: u64,
}

/// The solver, holding its work buffers so that repeated calls allocate nothing new.
///
/// Vertices are `0..n`; blossoms formed on the way take the ids `n..2n`.
#[derive(Clone, Debug)]
pub struct Matcher<W> {
    n: usize,
    /// Per vertex: its partner, or NONE.
    mate: Vec<u32>,
    /// Per vertex: the top-level blossom containing it (itself when it is in none).
    inblossom: Vec<u32>,
    /// Per vertex: y (doubled); per blossom id ≥ n: z (doubled).
    dual: Vec<W>,
    /// Per vertex or blossom: the blossom directly containing it, or NONE at the top level.
    parent: Vec<u32>,
    /// Per vertex or blossom: its base vertex; NONE marks an unused blossom id.
    base: Vec<u32>,
    /// Per top-level blossom (or vertex): FREE, S or T.
    label: Vec<u8>,
    /// Per labelled top-level blossom: the tree edge (x outside, y inside) that labelled it;
    /// (NONE, NONE) for a root. For a T blossom x is an S vertex; for an S blossom x is the T
    /// vertex matched to the base y.
    label_edge: Vec<(u32, u32)>,
    /// Per labelled top-level blossom: its tree (the id of the vertex that started it).
    tree: Vec<u32>,
    /// Per blossom id − n: the children in cycle order, the one holding the base first, and
    /// the edges between them: `cedges[i]` = (x in child i, y in child i + 1 mod k).
    childs: Vec<Vec<u32>>,
    cedges: Vec<Vec<(u32, u32)>>,
    free_ids: Vec<u32>,
    /// Above every blossom id in use.
    used_hi: usize,
    /// Per non-S vertex v: the S vertex u with the least slack on uv, and that slack (kept up
    /// to date through dual changes). When dirty (u left the S set), the slack is only a lower
    /// bound on the slacks from the current S vertices, and u means nothing.
    best2: Vec<u32>,
    best2_slack: Vec<W>,
    dirty2: Vec<bool>,
    /// Per top-level S blossom: an S–S edge to another blossom of least slack among those it
    /// owns, and its slack. When dirty (the edge's far end left the S set), the slack is only a
    /// lower bound on those edges.
    best3: Vec<(u32, u32)>,
    best3_slack: Vec<W>,
    dirty3: Vec<bool>,
    /// Per S blossom formed in this tree: the least-slack edge to each neighbouring S blossom,
    /// as of its formation (without a list, a blossom owns every edge of its vertices).
    has_list: Vec<bool>,
    lists: Vec<Vec<(u32, u32)>>,
    /// S vertices whose edges are still to be scanned.
    queue: Vec<u32>,
    /// All S vertices, gathered at each dual step.
    s_list: Vec<u32>,
    mark: Vec<u32>,
    stamp: u32,
    best_to: Vec<(u32, u32)>,
    best_to_slack: Vec<W>,
    touched: Vec<u32>,
    stack: Vec<u32>,
    verts: Vec<u32>,
    dissolved: Vec<bool>,
    dissolved_s: Vec<bool>,
    dirty_list: Vec<u32>,
    to_expand: Vec<u32>,
    stats: MatcherStats,
}

fn refill<T: Clone>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

fn refill_lists<T>(v: &mut Vec<Vec<T>>, len: usize) {
    v.truncate(len);
    for l in v.iter_mut() {
        l.clear();
    }
    v.resize_with(len, Vec::new);
}

/// The vertices of blossom `b` into `out`.
fn collect_vertices(childs: &[Vec<u32>], n: usize, b: u32, stack: &mut Vec<u32>, out: &mut Vec<u32>) {
    out.clear();
    if (b as usize) < n {
        out.push(b);
        return;
    }
    stack.clear();
    stack.push(b);
    while let Some(c) = stack.pop() {
        if (c as usize) < n {
            out.push(c);
        } else {
            stack.extend(childs[c as usize - n].iter().rev());
        }
    }
}

fn check_weights<W: Weight>(w: &[W]) {
    let maxw = w.iter().copied().max().unwrap_or(W::ZERO);
    assert!(
        maxw <= W::MAX_WEIGHT,
        "matching: weight {maxw:?} above the maximum {:?}",
        W::MAX_WEIGHT
    );
}

#[inline(always)]
fn slack_of<W: Weight>(yu: W, yv: W, w: W) -> W {
    yu.wadd(yv).wsub(w).wsub(w)
}

impl<W: Weight> Default for Matcher<W> {
    fn default() -> Self {
        Self::new()
    }
}

enum Step {
    Done,
    /// An S vertex's dual reached zero while free vertices of higher dual remain (only after a
    /// warm start): it leaves the matching, or its tree stops growing.
    Zero(usize),
    Label(usize),
    Tight(usize),
    Expand(usize),
}

impl<W: Weight> Matcher<W> {
    pub fn new() -> Self {
        Matcher {
            n: 0,
            mate: Vec::new(),
            inblossom: Vec::new(),
            dual: Vec::new(),
            parent: Vec::new(),
            base: Vec::new(),
            label: Vec::new(),
            label_edge: Vec::new(),
            tree: Vec::new(),
            childs: Vec::new(),
            cedges: Vec::new(),
            free_ids: Vec::new(),
            used_hi: 0,
            best2: Vec::new(),
            best2_slack: Vec::new(),
            dirty2: Vec::new(),
            best3: Vec::new(),
            best3_slack: Vec::new(),
            dirty3: Vec::new(),
            has_list: Vec::new(),
            lists: Vec::new(),
            queue: Vec::new(),
            s_list: Vec::new(),
            mark: Vec::new(),
            stamp: 0,
            best_to: Vec::new(),
            best_to_slack: Vec::new(),
            touched: Vec::new(),
            stack: Vec::new(),
            verts: Vec::new(),
            dissolved: Vec::new(),
            dissolved_s: Vec::new(),
            dirty_list: Vec::new(),
            to_expand: Vec::new(),
            stats: MatcherStats::default(),
        }
    }

    /// Counters of the last call.
    pub fn stats(&self) -> MatcherStats {
        self.stats
    }

    /// A maximum-weight matching of `g`: `result[v]` is `v`'s partner.
    ///
    /// Panics if a weight exceeds [`Weight::MAX_WEIGHT`] or `n ≥ 2³¹`.
    pub fn solve(&mut self, g: &Graph<W>) -> Vec<Option<usize>> {
        let n = g.n;
        assert!(n < (1 << 31), "too many vertices");
        let w = &g.w[..];
        let mut maxw = W::ZERO;
        for &x in w {
            if x > maxw {
                maxw = x;
            }
        }
        assert!(
            maxw <= W::MAX_WEIGHT,
            "matching: weight {maxw:?} above the maximum {:?}",
            W::MAX_WEIGHT
        );
        self.reset(n);
        if maxw > W::ZERO {
            self.run(w, maxw);
        }
        self.mate.iter().map(|&m| (m != NONE).then_some(m as usize)).collect()
    }

    /// A maximum-weight matching of `g` when it differs from the graph of the last call on this
    /// matcher (same number of vertices) only in the edges at the `changed` vertices: the last
    /// optimum is kept where it still holds (duals, blossoms, matched edges) and repaired around
    /// those vertices, which costs a few augmentations instead of a whole solve.
    ///
    /// The result is a maximum-weight matching, but where several share the maximum it need not
    /// be the one [`Matcher::solve`] would return.
    pub fn resolve(&mut self, g: &Graph<W>, changed: &[usize]) -> Vec<Option<usize>> {
        let n = g.n;
        if n != self.n || self.mate.len() != n || self.dual.len() != 2 * n {
            return self.solve(g);
        }
        for &v in changed {
            check_weights(&g.w[v * n..v * n + n]);
        }
        self.repair(&g.w, Some(changed));
        self.mate.iter().map(|&m| (m != NONE).then_some(m as usize)).collect()
    }

    /// [`Matcher::resolve`] when any edge may have changed: the last optimum's duals, each
    /// lowered or raised to the least the new weights allow, and its matched edges that are
    /// still tight, are the start.
    pub fn resolve_all(&mut self, g: &Graph<W>) -> Vec<Option<usize>> {
        let n = g.n;
        if n != self.n || self.mate.len() != n || self.dual.len() != 2 * n {
            return self.solve(g);
        }
        check_weights(&g.w);
        self.repair(&g.w, None);
        self.mate.iter().map(|&m| (m != NONE).then_some(m as usize)).collect()
    }

    /// The least dual of vertex `v` that keeps the slacks of its edges non-negative.
    fn least_dual(&self, w: &[W], v: usize) -> W {
        let n = self.n;
        let mut need = W::ZERO;
        for (u, &wt) in w[v * n..v * n + n].iter().enumerate() {
            if wt.is_edge() && u != v {
                let d = wt.wadd(wt);
                if d > self.dual[u] && d.wsub(self.dual[u]) > need {
                    need = d.wsub(self.dual[u]);
                }
            }
        }
        need
    }

    /// From the state of the last search and feasible-or-not duals: make the duals feasible
    /// around the changed vertices (all when `None`), keep the matched edges that are still
    /// tight, match tight edges greedily, and grow the trees of the free vertices.
    fn repair(&mut self, w: &[W], changed: Option<&[usize]>) {
        let n = self.n;
        self.stats = MatcherStats::default();
        #[cfg(debug_assertions)]
        self.check_structure("before");
        self.unlabel_all();

        // The changed vertices leave their blossoms, whose duals their vertices take over.
        let mut loose = std::mem::take(&mut self.touched);
        loose.clear();
        let mut is_loose = std::mem::take(&mut self.dissolved);
        let all: Vec<usize>;
        let changed = match changed {
            Some(c) => c,
            None => {
                all = (0..n).collect();
                &all
            }
        };
        for &v in changed {
            self.loosen(v, &mut loose, &mut is_loose);
        }
        // Their duals: the least the new weights allow (a free vertex's dual must fall to zero,
        // so the lower the less work; a matched one stays matched if its edge is still tight).
        for &v in changed {
            self.dual[v] = self.least_dual(w, v);
        }
        // Matched edges no longer tight leave the matching (and may loosen another blossom:
        // flattening one also loosens the edges that crossed its inner blossoms).
        let mut i = 0;
        while i < loose.len() {
            let x = loose[i] as usize;
            i += 1;
            let m = self.mate[x];
            if m == NONE {
                continue;
            }
            let m = m as usize;
            let wt = w[x * n + m];
            if !wt.is_edge() || !slack_of(self.dual[x], self.dual[m], wt).is_zero() {
                self.mate[x] = NONE;
                self.mate[m] = NONE;
                self.loosen(m, &mut loose, &mut is_loose);
            }
        }
        // Tight edges between free loose vertices: matched at once.
        loose.sort_unstable();
        for i in 0..loose.len() {
            let x = loose[i] as usize;
            if self.mate[x] != NONE || self.dual[x].is_zero() {
                continue;
            }
            let row = &w[x * n..x * n + n];
            for &u in &loose[i + 1..] {
                let u = u as usize;
                if self.mate[u] == NONE && row[u].is_edge() && slack_of(self.dual[x], self.dual[u], row[u]).is_zero() {
                    self.mate[x] = u as u32;
                    self.mate[u] = x as u32;
                    self.stats.augmentations += 1;
                    break;
                }
            }
        }
        // The free vertices of positive dual are the roots. All roots share one parity (S-S
        // slacks stay even); raising a free vertex's dual keeps every slack non-negative.
        for &x in loose.iter().rev() {
            let x = x as usize;
            is_loose[x] = false;
            self.label_edge[x] = (NONE, NONE);
            if self.mate[x] == NONE && self.dual[x] > W::ZERO {
                if self.dual[x].is_odd() {
                    self.dual[x] = self.dual[x].wadd(W::one());
                }
                self.label[x] = S;
                self.tree[x] = x as u32;
                self.queue.push(x as u32);
            }
        }
        self.touched = loose;
        self.touched.clear();
        self.dissolved = is_loose;
        #[cfg(debug_assertions)]
        self.check_structure("loosened");
        self.grow(w);
    }

    #[cfg(debug_assertions)]
    fn check_structure(&self, at: &str) {
        let n = self.n;
        for v in 0..n {
            let mut t = v;
            while self.parent[t] != NONE {
                let p = self.parent[t] as usize;
                assert!(self.base[p] != NONE, "{at}: {v} under a freed blossom {p}");
                assert!(self.childs[p - n].contains(&(t as u32)), "{at}: {t} not a child of {p}");
                t = p;
            }
            assert_eq!(self.inblossom[v] as usize, t, "{at}: inblossom of {v}");
            if self.mate[v] != NONE {
                assert_eq!(self.mate[self.mate[v] as usize] as usize, v, "{at}: mate of {v}");
            }
        }
    }

    /// End every tree of the last search: no labels, no caches, blossoms of zero dual expanded.
    fn unlabel_all(&mut self) {
        let n = self.n;
        for b in n..self.used_hi {
            if self.is_top(b) && self.dual[b] == W::ZERO {
                self.expand(b, true);
            }
        }
        for b in 0..self.used_hi {
            if self.is_top(b) {
                self.label[b] = FREE;
                self.tree[b] = NONE;
                self.label_edge[b] = (NONE, NONE);
            }
        }
        for b in 0..self.used_hi {
            self.best3[b] = (NONE, NONE);
            self.dirty3[b] = false;
            self.has_list[b] = false;
            self.lists[b].clear();
        }
        self.best2.fill(NONE);
        self.dirty2.fill(false);
        self.queue.clear();
    }

    /// Put `v` outside every blossom: its top-level blossom, if any, is undone with each of its
    /// vertices taking over the duals of the blossoms around it (so no slack drops). Its
    /// vertices join `loose`.
    fn loosen(&mut self, v: usize, loose: &mut Vec<u32>, is_loose: &mut [bool]) {
        let n = self.n;
        let b = self.inblossom[v] as usize;
        let verts = self.take_vertices(b);
        if b >= n {
            for &x in &verts {
                let mut add = W::ZERO;
                let mut p = self.parent[x as usize];
                while p != NONE {
                    add = add.wadd(self.dual[p as usize].half());
                    p = self.parent[p as usize];
                }
                self.dual[x as usize] = self.dual[x as usize].wadd(add);
            }
            self.stack.clear();
            self.stack.push(b as u32);
            while let Some(c) = self.stack.pop() {
                let c = c as usize;
                let childs = std::mem::take(&mut self.childs[c - n]);
                for &k in &childs {
                    if k as usize >= n {
                        self.stack.push(k);
                    }
                }
                let mut childs = childs;
                childs.clear();
                self.childs[c - n] = childs;
                self.cedges[c - n].clear();
                self.base[c] = NONE;
                self.parent[c] = NONE;
                self.label[c] = FREE;
                self.tree[c] = NONE;
                self.label_edge[c] = (NONE, NONE);
                self.dual[c] = W::ZERO;
                self.free_ids.push(c as u32);
            }
            for &x in &verts {
                let x = x as usize;
                self.parent[x] = NONE;
                self.inblossom[x] = x as u32;
                self.label[x] = FREE;
                self.tree[x] = NONE;
                self.label_edge[x] = (NONE, NONE);
            }
        }
        for &x in &verts {
            if !is_loose[x as usize] {
                is_loose[x as usize] = true;
                loose.push(x);
            }
        }
        self.verts = verts;
    }

    fn reset(&mut self, n: usize) {
        self.n = n;
        let m = 2 * n;
        refill(&mut self.mate, n, NONE);
        self.inblossom.clear();
        self.inblossom.extend(0..n as u32);
        refill(&mut self.dual, m, W::ZERO);
        refill(&mut self.parent, m, NONE);
        refill(&mut self.base, m, NONE);
        for v in 0..n {
            self.base[v] = v as u32;
        }
        refill(&mut self.label, m, FREE);
        refill(&mut self.label_edge, m, (NONE, NONE));
        refill(&mut self.tree, m, NONE);
        refill_lists(&mut self.childs, n);
        refill_lists(&mut self.cedges, n);
        self.free_ids.clear();
        self.free_ids.extend((n as u32..m as u32).rev());
        self.used_hi = n;
        refill(&mut self.best2, n, NONE);
        refill(&mut self.best2_slack, n, W::ZERO);
        refill(&mut self.dirty2, n, false);
        refill(&mut self.best3, m, (NONE, NONE));
        refill(&mut self.best3_slack, m, W::ZERO);
        refill(&mut self.dirty3, m, false);
        refill(&mut self.has_list, m, false);
        refill_lists(&mut self.lists, m);
        self.queue.clear();
        refill(&mut self.mark, m, 0);
        self.stamp = 0;
        refill(&mut self.best_to, m, (NONE, NONE));
        refill(&mut self.best_to_slack, m, W::ZERO);
        self.touched.clear();
        refill(&mut self.dissolved, n, false);
        refill(&mut self.dissolved_s, n, false);
        self.dirty_list.clear();
        self.to_expand.clear();
        self.stats = MatcherStats::default();
    }

    #[inline]
    fn is_top(&self, b: usize) -> bool {
        self.parent[b] == NONE && self.base[b] != NONE
    }

    /// The vertices of blossom `b`, in a buffer to hand back through `self.verts`.
    fn take_vertices(&mut self, b: usize) -> Vec<u32> {
        let mut out = std::mem::take(&mut self.verts);
        collect_vertices(&self.childs, self.n, b as u32, &mut self.stack, &mut out);
        out
    }

    fn run(&mut self, w: &[W], maxw: W) {
        let n = self.n;
        for v in (0..n).rev() {
            self.dual[v] = maxw;
            self.label[v] = S;
            self.tree[v] = v as u32;
            self.queue.push(v as u32);
        }
        self.grow(w);
    }

    /// The stages: grow the trees of the free vertices (the S roots, already in the queue)
    /// until every free vertex has a zero dual.
    fn grow(&mut self, w: &[W]) {
        let n = self.n;
        loop {
            while let Some(u) = self.queue.pop() {
                let u = u as usize;
                if self.label[self.inblossom[u] as usize] == S {
                    self.scan(w, u);
                }
            }

            // The dual change: δ1 (any S vertex: all free ones share the least y), δ2 from the
            // cached best S edge of each free vertex, δ3 from each S blossom's best S–S edge,
            // δ4 from the T blossoms' duals. Ties go to the earlier kind. A dirty cache entry
            // holds a lower bound only, and is recomputed when that bound could be the minimum.
            // After a warm start the free vertices' duals differ: the S vertex of least dual
            // (a free one first) and the highest free dual tell whether δ1 ends the search.
            let mut d1: Option<(W, usize)> = None;
            let mut free_max = W::ZERO;
            let mut d2: Option<(W, usize)> = None;
            self.s_list.clear();
            self.dirty_list.clear();
            for v in 0..n {
                match self.label[self.inblossom[v] as usize] {
                    S => {
                        self.s_list.push(v as u32);
                        let y = self.dual[v];
                        let free = self.mate[v] == NONE;
                        if free && y > free_max {
                            free_max = y;
                        }
                        if d1.is_none_or(|(d, u)| y < d || (y == d && free && self.mate[u] != NONE)) {
                            d1 = Some((y, v));
                        }
                    }
                    FREE => {
                        if self.dirty2[v] {
                            self.dirty_list.push(v as u32);
                        } else if self.best2[v] != NONE {
                            let s = self.best2_slack[v];
                            if d2.is_none_or(|(d, _)| s < d) {
                                d2 = Some((s, v));
                            }
                        }
                    }
                    _ => {}
                }
            }
            let Some((mut delta, zero)) = d1 else { break };
            let mut step = if free_max == delta {
                Step::Done
            } else {
                Step::Zero(zero)
            };
            if let Some((s, v)) = d2 {
                if s < delta {
                    delta = s;
                    step = Step::Label(v);
                }
            }
            let mut d3: Option<(W, usize)> = None;
            let mut d4: Option<(W, usize)> = None;
            let dirty_vertices = self.dirty_list.len();
            for b in 0..self.used_hi {
                if !self.is_top(b) {
                    continue;
                }
                match self.label[b] {
                    S => {
                        if self.dirty3[b] {
                            self.dirty_list.push(b as u32);
                        } else if self.best3[b].0 != NONE {
                            let s = self.best3_slack[b];
                            if d3.is_none_or(|(d, _)| s < d) {
                                d3 = Some((s, b));
                            }
                        }
                    }
                    T if b >= n => {
                        let z = self.dual[b];
                        if d4.is_none_or(|(d, _)| z < d) {
                            d4 = Some((z, b));
                        }
                    }
                    _ => {}
                }
            }
            if let Some((s, b)) = d3 {
                debug_assert_eq!(s.half().wadd(s.half()), s, "odd S-S slack");
                if s.half() < delta {
                    delta = s.half();
                    step = Step::Tight(b);
                }
            }
            if let Some((z, b)) = d4 {
                if z.half() < delta {
                    delta = z.half();
                    step = Step::Expand(b);
                }
            }
            for i in 0..self.dirty_list.len() {
                let x = self.dirty_list[i] as usize;
                if i < dirty_vertices {
                    if self.best2_slack[x] <= delta {
                        self.recompute2(w, x);
                        if self.best2[x] != NONE && self.best2_slack[x] < delta {
                            delta = self.best2_slack[x];
                            step = Step::Label(x);
                        }
                    }
                } else if self.best3_slack[x].half() <= delta {
                    self.recompute3(w, x);
                    if self.best3[x].0 != NONE && self.best3_slack[x].half() < delta {
                        delta = self.best3_slack[x].half();
                        step = Step::Tight(x);
                    }
                }
            }

            self.stats.dual_steps += 1;
            if delta != W::ZERO {
                self.update_duals(delta);
            }
            match step {
                Step::Done => break,
                Step::Zero(v) => self.zero(v),
                Step::Label(v) => {
                    let u = self.best2[v] as usize;
                    self.label_t(v, u);
                }
                Step::Tight(b) => {
                    let (x, y) = self.best3[b];
                    self.tight(w, x as usize, y as usize);
                }
                Step::Expand(b) => self.expand(b, false),
            }
        }
    }

    fn update_duals(&mut self, delta: W) {
        let n = self.n;
        for v in 0..n {
            match self.label[self.inblossom[v] as usize] {
                S => self.dual[v] = self.dual[v].wsub(delta),
                T => self.dual[v] = self.dual[v].wadd(delta),
                _ => {
                    if self.best2[v] != NONE || self.dirty2[v] {
                        self.best2_slack[v] = self.best2_slack[v].wsub(delta);
                    }
                }
            }
        }
        let two = delta.wadd(delta);
        for b in 0..self.used_hi {
            if !self.is_top(b) {
                continue;
            }
            match self.label[b] {
                S => {
                    if b >= n {
                        self.dual[b] = self.dual[b].wadd(two);
                    }
                    if self.best3[b].0 != NONE || self.dirty3[b] {
                        self.best3_slack[b] = self.best3_slack[b].wsub(two);
                    }
                }
                T if b >= n => self.dual[b] = self.dual[b].wsub(two),
                _ => {}
            }
        }
    }

    /// Scan the edges of S vertex `u`: label free blossoms reached by tight edges, act on tight
    /// S–S edges, and update the best-edge caches.
    fn scan(&mut self, w: &[W], u: usize) {
        self.stats.scans += 1;
        let n = self.n;
        let row = &w[u * n..u * n + n];
        let du = self.dual[u];
        // From u + 1 round to u: among equal slacks each vertex prefers the next ones after it,
        // so that on graphs with many equal weights the best-edge caches do not all point at
        // the same few vertices (which would all turn dirty at once when those are matched).
        let at = |i: usize| if u + 1 + i >= n { u + 1 + i - n } else { u + 1 + i };
        let after = |x: usize, y: usize| if y > x { y - x } else { y + n - x };
        let mut i = 0;
        let mut v = at(0);
        while i < n {
            // A tight loop over borrowed slices that stops only at a tight edge to act on.
            let bu = self.inblossom[u] as usize;
            let (mut b3, mut b3s, mut d3) = (self.best3[bu], self.best3_slack[bu], self.dirty3[bu]);
            let mut tight_s = false;
            let mut stopped = false;
            {
                let inblossom = &self.inblossom[..n];
                let dual = &self.dual[..n];
                let label = &self.label[..2 * n];
                let best2 = &mut self.best2[..n];
                let best2_slack = &mut self.best2_slack[..n];
                let dirty2 = &mut self.dirty2[..n];
                while i < n {
                    v = at(i);
                    let wt = row[v];
                    let bv = inblossom[v] as usize;
                    if wt.is_edge() && bv != bu {
                        let s = slack_of(du, dual[v], wt);
                        let lv = label[bv];
                        if lv == S {
                            if s.is_zero() {
                                tight_s = true;
                                stopped = true;
                                break;
                            }
                            // A dirty entry holds a lower bound: reaching it makes this the least.
                            if if d3 { s <= b3s } else { b3.0 == NONE || s < b3s } {
                                b3 = (u as u32, v as u32);
                                b3s = s;
                                d3 = false;
                            }
                        } else {
                            if if dirty2[v] {
                                s <= best2_slack[v]
                            } else {
                                best2[v] == NONE
                                    || s < best2_slack[v]
                                    || (s == best2_slack[v] && after(v, u) < after(v, best2[v] as usize))
                            } {
                                best2[v] = u as u32;
                                best2_slack[v] = s;
                                dirty2[v] = false;
                            }
                            if lv == FREE && s.is_zero() {
                                stopped = true;
                                break;
                            }
                        }
                    }
                    i += 1;
                }
            }
            self.best3[bu] = b3;
            self.best3_slack[bu] = b3s;
            self.dirty3[bu] = d3;
            if !stopped {
                return;
            }
            if tight_s {
                self.tight(w, u, v);
                if self.label[self.inblossom[u] as usize] != S {
                    return;
                }
            } else {
                self.label_t(v, u);
                if self.label[self.inblossom[u] as usize] != S {
                    return;
                }
            }
            i += 1;
        }
    }

    /// Recompute the best S edge of non-S vertex `v` from scratch (`s_list` holds the S vertices).
    fn recompute2(&mut self, w: &[W], v: usize) {
        let n = self.n;
        let row = &w[v * n..v * n + n];
        let dv = self.dual[v];
        let (mut best, mut bs) = (NONE, W::ZERO);
        self.stats.rebuilt_vertex_edges += 1;
        // The S vertices after v first, as in `scan`.
        let k = self.s_list.partition_point(|&u| u as usize <= v);
        for &u in self.s_list[k..].iter().chain(&self.s_list[..k]) {
            let u = u as usize;
            let wt = row[u];
            if wt.is_edge() {
                let s = slack_of(self.dual[u], dv, wt);
                if best == NONE || s < bs {
                    best = u as u32;
                    bs = s;
                }
            }
        }
        self.best2[v] = best;
        self.best2_slack[v] = bs;
        self.dirty2[v] = false;
    }

    /// Recompute the best S–S edge owned by top-level S blossom `b` (`s_list` holds the S
    /// vertices).
    fn recompute3(&mut self, w: &[W], b: usize) {
        let n = self.n;
        let (mut best, mut bs) = ((NONE, NONE), W::ZERO);
        self.stats.rebuilt_blossom_edges += 1;
        if self.has_list[b] {
            let mut list = std::mem::take(&mut self.lists[b]);
            list.retain(|&(_, q)| {
                let bq = self.inblossom[q as usize] as usize;
                bq != b && self.label[bq] == S
            });
            for &(p, q) in &list {
                let (p, q) = (p as usize, q as usize);
                let s = slack_of(self.dual[p], self.dual[q], w[p * n + q]);
                if best.0 == NONE || s < bs {
                    best = (p as u32, q as u32);
                    bs = s;
                }
            }
            self.lists[b] = list;
        } else {
            let verts = self.take_vertices(b);
            for &p in &verts {
                let p = p as usize;
                let dp = self.dual[p];
                let row = &w[p * n..p * n + n];
                let k = self.s_list.partition_point(|&q| q as usize <= p);
                for &q in self.s_list[k..].iter().chain(&self.s_list[..k]) {
                    let q = q as usize;
                    let wt = row[q];
                    if !wt.is_edge() {
                        continue;
                    }
                    let bq = self.inblossom[q] as usize;
                    if bq != b {
                        let s = slack_of(dp, self.dual[q], wt);
                        if best.0 == NONE || s < bs {
                            best = (p as u32, q as u32);
                            bs = s;
                        }
                    }
                }
            }
            self.verts = verts;
        }
        self.best3[b] = best;
        self.best3_slack[b] = bs;
        self.dirty3[b] = false;
    }

    /// Label the top-level blossom of `v` T through the tight edge from S vertex `from`, and the
    /// blossom matched to its base S.
    fn label_t(&mut self, v: usize, from: usize) {
        let b = self.inblossom[v] as usize;
        let tr = self.tree[self.inblossom[from] as usize];
        if self.mate[self.base[b] as usize] == NONE {
            // A free vertex whose dual already reached zero (only after a warm start): the
            // path to it augments.
            // (A label edge left from an earlier tree would lead the augmentation astray.)
            self.label_edge[b] = (NONE, NONE);
            self.augment(from, v);
            self.dissolve(tr, tr);
            return;
        }
        self.label[b] = T;
        self.label_edge[b] = (from as u32, v as u32);
        self.tree[b] = tr;
        let base = self.base[b] as usize;
        let m = self.mate[base];
        debug_assert!(m != NONE, "a T blossom's base is matched");
        let m = m as usize;
        let bm = self.inblossom[m] as usize;
        debug_assert_eq!(self.base[bm] as usize, m);
        self.label[bm] = S;
        self.label_edge[bm] = (base as u32, m as u32);
        self.tree[bm] = tr;
        self.best3[bm] = (NONE, NONE);
        self.dirty3[bm] = false;
        self.has_list[bm] = false;
        self.lists[bm].clear();
        let verts = self.take_vertices(bm);
        self.queue.extend_from_slice(&verts);
        self.verts = verts;
    }

    /// Edge xy between two S blossoms became tight: a blossom if both are in the same tree,
    /// otherwise an augmenting path.
    fn tight(&mut self, w: &[W], x: usize, y: usize) {
        let (bx, by) = (self.inblossom[x] as usize, self.inblossom[y] as usize);
        let (tx, ty) = (self.tree[bx], self.tree[by]);
        if tx == ty {
            let base = self.find_base(bx, by);
            self.add_blossom(w, base, x, y);
        } else {
            self.augment(x, y);
            self.dissolve(tx, ty);
        }
    }

    /// The S blossom two steps up the tree from S blossom `b`, or NONE at the root.
    fn up(&self, b: usize) -> u32 {
        let x = self.label_edge[b].0;
        if x == NONE {
            return NONE;
        }
        let t = self.inblossom[x as usize] as usize;
        self.inblossom[self.label_edge[t].0 as usize]
    }

    /// The base of the nearest common S ancestor of two S blossoms of one tree.
    fn find_base(&mut self, bx: usize, by: usize) -> usize {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        let (mut a, mut b) = (bx as u32, by as u32);
        loop {
            debug_assert!(
                a != NONE || b != NONE,
                "S blossoms of one tree without a common ancestor"
            );
            if a != NONE {
                let ai = a as usize;
                if self.mark[ai] == self.stamp {
                    return self.base[ai] as usize;
                }
                self.mark[ai] = self.stamp;
                a = self.up(ai);
            }
            std::mem::swap(&mut a, &mut b);
        }
    }

    /// Form a new S blossom from the cycle closed by the tight edge xy through the common
    /// ancestor whose base is `base`.
    fn add_blossom(&mut self, w: &[W], base: usize, x: usize, y: usize) {
        let n = self.n;
        self.stats.blossoms += 1;
        let bb = self.inblossom[base] as usize;
        let b = self.free_ids.pop().expect("at most n blossoms exist at once") as usize;
        self.used_hi = self.used_hi.max(b + 1);
        let mut childs = std::mem::take(&mut self.childs[b - n]);
        let mut edges = std::mem::take(&mut self.cedges[b - n]);
        childs.clear();
        edges.clear();
        childs.push(bb as u32);
        let mut c = self.inblossom[x] as usize;
        while c != bb {
            childs.push(c as u32);
            let e = self.label_edge[c];
            edges.push(e);
            c = self.inblossom[e.0 as usize] as usize;
        }
        childs[1..].reverse();
        edges.reverse();
        edges.push((x as u32, y as u32));
        let mut c = self.inblossom[y] as usize;
        while c != bb {
            childs.push(c as u32);
            let (p, q) = self.label_edge[c];
            edges.push((q, p));
            c = self.inblossom[p as usize] as usize;
        }
        debug_assert!(childs.len() % 2 == 1 && childs.len() >= 3);

        self.base[b] = base as u32;
        self.parent[b] = NONE;
        self.label[b] = S;
        self.label_edge[b] = self.label_edge[bb];
        self.tree[b] = self.tree[bb];
        self.dual[b] = W::ZERO;
        self.dirty3[b] = false;
        if childs.iter().any(|&c| c as usize >= n) {
            self.stats.nested_blossoms += 1;
        }
        for &c in &childs {
            let c = c as usize;
            self.parent[c] = b as u32;
            let verts = self.take_vertices(c);
            if self.label[c] == T {
                // Its vertices turn S: their edges must be scanned.
                self.queue.extend_from_slice(&verts);
            }
            for &v in &verts {
                self.inblossom[v as usize] = b as u32;
            }
            self.verts = verts;
        }

        // The new blossom's list: the least-slack edge to each other S blossom, from the lists
        // of the children that have one and from every edge of those that don't.
        self.touched.clear();
        for &c in &childs {
            let c = c as usize;
            if self.label[c] == S && self.has_list[c] {
                let mut list = std::mem::take(&mut self.lists[c]);
                for &(p, q) in &list {
                    let (p, q) = (p as usize, q as usize);
                    self.consider(b, p, q, w[p * n + q]);
                }
                list.clear();
                self.lists[c] = list;
            } else {
                let verts = self.take_vertices(c);
                for &p in &verts {
                    let p = p as usize;
                    for (q, &wt) in w[p * n..p * n + n].iter().enumerate() {
                        if wt.is_edge() {
                            self.consider(b, p, q, wt);
                        }
                    }
                }
                self.verts = verts;
            }
            self.has_list[c] = false;
            self.best3[c] = (NONE, NONE);
            self.dirty3[c] = false;
        }
        let mut list = std::mem::take(&mut self.lists[b]);
        list.clear();
        let (mut best, mut bs) = ((NONE, NONE), W::ZERO);
        for &bq in &self.touched {
            let bq = bq as usize;
            let (e, s) = (self.best_to[bq], self.best_to_slack[bq]);
            list.push(e);
            if best.0 == NONE || s < bs {
                best = e;
                bs = s;
            }
            self.best_to[bq] = (NONE, NONE);
        }
        self.lists[b] = list;
        self.has_list[b] = true;
        self.best3[b] = best;
        self.best3_slack[b] = bs;
        self.childs[b - n] = childs;
        self.cedges[b - n] = edges;
    }

    #[inline]
    fn consider(&mut self, b: usize, p: usize, q: usize, wt: W) {
        let bq = self.inblossom[q] as usize;
        if bq == b || self.label[bq] != S {
            return;
        }
        let s = slack_of(self.dual[p], self.dual[q], wt);
        if self.best_to[bq].0 == NONE {
            self.touched.push(bq as u32);
        } else if s >= self.best_to_slack[bq] {
            return;
        }
        self.best_to[bq] = (p as u32, q as u32);
        self.best_to_slack[bq] = s;
    }

    /// Undo blossom `b` (top level): its children become top-level blossoms. A T blossom's
    /// children on the even path from the entry child to the base keep the tree alternating;
    /// the others become free. With `zero_only`, children of zero dual are expanded too.
    fn expand(&mut self, b: usize, zero_only: bool) {
        let n = self.n;
        if zero_only {
            self.stats.zero_expansions += 1;
        } else {
            self.stats.t_expansions += 1;
        }
        let childs = std::mem::take(&mut self.childs[b - n]);
        for &c in &childs {
            let c = c as usize;
            self.parent[c] = NONE;
            if c < n {
                self.inblossom[c] = c as u32;
            } else if zero_only && self.dual[c] == W::ZERO {
                self.expand(c, true);
            } else {
                let verts = self.take_vertices(c);
                for &v in &verts {
                    self.inblossom[v as usize] = c as u32;
                }
                self.verts = verts;
            }
            self.label[c] = FREE;
            self.tree[c] = NONE;
        }
        if !zero_only && self.label[b] == T {
            let edges = std::mem::take(&mut self.cedges[b - n]);
            let k = childs.len();
            let (x, y) = self.label_edge[b];
            let entry = self.inblossom[y as usize];
            let mut j = childs.iter().position(|&c| c == entry).expect("entry child");
            // Walk to the base child the way that crosses an even number of cycle edges.
            let forward = j % 2 == 1;
            let (mut px, mut py) = (x as usize, y as usize);
            while j != 0 {
                self.label_t(py, px);
                let (j1, j2) = if forward { (j + 1, (j + 2) % k) } else { (j - 1, j - 2) };
                let (p, q) = if forward {
                    edges[j1]
                } else {
                    let (a, c) = edges[j2];
                    (c, a)
                };
                px = p as usize;
                py = q as usize;
                j = j2;
            }
            // The base child: T, its base stays matched to the S blossom below.
            let c0 = childs[0] as usize;
            self.label[c0] = T;
            self.label_edge[c0] = (px as u32, py as u32);
            self.tree[c0] = self.tree[b];
            self.cedges[b - n] = edges;
        }
        let mut childs = childs;
        childs.clear();
        self.childs[b - n] = childs;
        self.cedges[b - n].clear();
        self.base[b] = NONE;
        self.parent[b] = NONE;
        self.label[b] = FREE;
        self.tree[b] = NONE;
        self.label_edge[b] = (NONE, NONE);
        self.dual[b] = W::ZERO;
        self.best3[b] = (NONE, NONE);
        self.dirty3[b] = false;
        self.has_list[b] = false;
        self.lists[b].clear();
        self.free_ids.push(b as u32);
    }

    /// Make `v` the base of blossom `b` (which contains it), swapping matched and unmatched
    /// edges along the even path from `v`'s child to the old base child.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let n = self.n;
        let mut t = v;
        #[cfg(debug_assertions)]
        {
            let mut c = v;
            while c != NONE as usize && c != b {
                c = self.parent[c] as usize;
            }
            assert!(
                c == b,
                "augment_blossom({b}, {v}): {v} in {} base {}",
                self.inblossom[v],
                self.base[b]
            );
        }
        while self.parent[t] as usize != b {
            t = self.parent[t] as usize;
        }
        if t >= n {
            self.augment_blossom(t, v);
        }
        let bi = b - n;
        let k = self.childs[bi].len();
        let i = self.childs[bi].iter().position(|&c| c as usize == t).expect("child");
        let forward = i % 2 == 1;
        let mut j = i;
        while j != 0 {
            let (j1, j2) = if forward { (j + 1, (j + 2) % k) } else { (j - 1, j - 2) };
            let (p, q) = if forward {
                self.cedges[bi][j1]
            } else {
                let (a, c) = self.cedges[bi][j2];
                (c, a)
            };
            let (p, q) = (p as usize, q as usize);
            let c1 = self.childs[bi][j1] as usize;
            if c1 >= n {
                self.augment_blossom(c1, p);
            }
            let c2 = self.childs[bi][j2] as usize;
            if c2 >= n {
                self.augment_blossom(c2, q);
            }
            self.mate[p] = q as u32;
            self.mate[q] = p as u32;
            j = j2;
        }
        self.childs[bi].rotate_left(i);
        self.cedges[bi].rotate_left(i);
        self.base[b] = v as u32;
    }

    /// S vertex `v` reached a zero dual while free vertices of higher dual remain: it is free
    /// now (the even path from its tree's root to it flips, which matches the root), and its
    /// tree stops.
    fn zero(&mut self, v: usize) {
        let tr = self.tree[self.inblossom[v] as usize];
        if self.mate[v] != NONE {
            self.flip_to_root(v, NONE);
        }
        self.dissolve(tr, tr);
    }

    /// Augment the matching along the path root(x) … x – y … root(y).
    fn augment(&mut self, x: usize, y: usize) {
        self.stats.augmentations += 1;
        self.flip_to_root(x, y as u32);
        self.flip_to_root(y, x as u32);
    }

    /// Match S vertex `s` to `j` (NONE: leave it free) and swap matched and unmatched edges
    /// along the alternating path from it up to its tree's root, which ends matched.
    fn flip_to_root(&mut self, mut s: usize, mut j: u32) {
        let n = self.n;
        loop {
            let bs = self.inblossom[s] as usize;
            if bs >= n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = j;
            let t = self.label_edge[bs].0;
            if t == NONE {
                break;
            }
            let bt = self.inblossom[t as usize] as usize;
            let (s2, j2) = self.label_edge[bt];
            if bt >= n {
                self.augment_blossom(bt, j2 as usize);
            }
            self.mate[j2 as usize] = s2;
            s = s2 as usize;
            j = j2;
        }
    }

    /// After an augmentation, unlabel the two trees it joined (the others keep growing), expand
    /// their blossoms of zero dual, and mark the caches that pointed into them.
    fn dissolve(&mut self, t1: u32, t2: u32) {
        let n = self.n;
        for v in 0..n {
            let b = self.inblossom[v] as usize;
            if self.label[b] != FREE && (self.tree[b] == t1 || self.tree[b] == t2) {
                self.dissolved[v] = true;
                self.dissolved_s[v] = self.label[b] == S;
            }
        }
        let mut to_expand = std::mem::take(&mut self.to_expand);
        to_expand.clear();
        for b in 0..self.used_hi {
            if self.is_top(b) && self.label[b] != FREE && (self.tree[b] == t1 || self.tree[b] == t2) {
                self.label[b] = FREE;
                self.tree[b] = NONE;
                self.label_edge[b] = (NONE, NONE);
                if b >= n && self.dual[b] == W::ZERO {
                    to_expand.push(b as u32);
                }
            }
        }
        for &b in &to_expand {
            self.expand(b as usize, true);
        }
        self.to_expand = to_expand;
        for v in 0..n {
            let b2 = self.best2[v];
            if self.dissolved_s[v] {
                // Its cache is meaningless; zero is a lower bound on any slack.
                self.dirty2[v] = true;
                self.best2_slack[v] = W::ZERO;
            } else if b2 != NONE && self.dissolved[b2 as usize] {
                // The old least slack still bounds the slacks to the S vertices that remain.
                self.dirty2[v] = true;
            }
        }
        for b in 0..self.used_hi {
            if self.is_top(b) && self.label[b] == S {
                let (_, q) = self.best3[b];
                if q != NONE && self.dissolved[q as usize] {
                    self.dirty3[b] = true;
                }
            }
        }
        self.dissolved.fill(false);
        self.dissolved_s.fill(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn below(&mut self, k: u64) -> u64 {
            self.next() % k
        }
    }

    fn check_valid<W: Weight>(g: &Graph<W>, mates: &[Option<usize>]) {
        assert_eq!(mates.len(), g.n());
        for (u, m) in mates.iter().enumerate() {
            if let Some(v) = *m {
                assert_ne!(u, v);
                assert_eq!(mates[v], Some(u), "asymmetric");
                assert!(g.get(u, v) > W::ZERO, "matched a non-edge {u}-{v}");
            }
        }
    }

    /// The best matching weight by dynamic programming over vertex subsets.
    fn brute<W: Weight>(g: &Graph<W>) -> W {
        let n = g.n();
        let mut best = vec![W::ZERO; 1 << n];
        for mask in 1usize..1 << n {
            let i = mask.trailing_zeros() as usize;
            let rest = mask & !(1 << i);
            let mut b = best[rest];
            let mut others = rest;
            while others != 0 {
                let j = others.trailing_zeros() as usize;
                others &= others - 1;
                let wt = g.get(i, j);
                if wt > W::ZERO {
                    let c = wt.wadd(best[rest & !(1 << j)]);
                    if c > b {
                        b = c;
                    }
                }
            }
            best[mask] = b;
        }
        best[(1 << n) - 1]
    }

    /// Check optimality through the dual certificate left in the matcher: all duals ≥ 0, every
    /// edge's slack ≥ 0 (blossom duals included), matched edges tight, free vertices at y = 0,
    /// blossoms with z > 0 full.
    fn check_certificate<W: Weight>(m: &Matcher<W>, g: &Graph<W>, mates: &[Option<usize>]) {
        let n = g.n();
        let ancestors: Vec<Vec<usize>> = (0..n)
            .map(|v| {
                let mut chain = Vec::new();
                let mut b = m.parent[v];
                while b != NONE {
                    chain.push(b as usize);
                    b = m.parent[b as usize];
                }
                chain
            })
            .collect();
        for (v, mate) in mates.iter().enumerate() {
            assert!(m.dual[v] >= W::ZERO);
            if mate.is_none() {
                assert_eq!(m.dual[v], W::ZERO, "free vertex {v} with a positive dual");
            }
        }
        for u in 0..n {
            for v in u + 1..n {
                let wt = g.get(u, v);
                if wt <= W::ZERO {
                    continue;
                }
                let (a, b) = (&ancestors[u], &ancestors[v]);
                let mut lhs = m.dual[u].wadd(m.dual[v]);
                for k in 1..=a.len().min(b.len()) {
                    if a[a.len() - k] != b[b.len() - k] {
                        break;
                    }
                    lhs = lhs.wadd(m.dual[a[a.len() - k]]);
                }
                let rhs = wt.wadd(wt);
                assert!(lhs >= rhs, "negative slack on {u}-{v}");
                if mates[u] == Some(v) {
                    assert_eq!(lhs, rhs, "matched edge {u}-{v} not tight");
                }
            }
        }
        for b in n..2 * n {
            if m.base[b] == NONE {
                continue;
            }
            assert!(m.dual[b] >= W::ZERO);
            if m.dual[b] > W::ZERO {
                let mut verts = Vec::new();
                collect_vertices(&m.childs, n, b as u32, &mut Vec::new(), &mut verts);
                let inside = verts
                    .iter()
                    .filter(|&&v| mates[v as usize].is_some_and(|p| verts.contains(&(p as u32))))
                    .count();
                assert_eq!(inside, verts.len() - 1, "blossom {b} with a positive dual is not full");
            }
        }
    }

    /// A random graph: each pair is an edge with probability `p_percent`, weights from `gen`.
    fn random_graph<W: Weight>(
        rng: &mut Rng,
        n: usize,
        p_percent: u64,
        gen: &mut impl FnMut(&mut Rng) -> W,
    ) -> Graph<W> {
        let mut g = Graph::new(n);
        for u in 0..n {
            for v in u + 1..n {
                if rng.below(100) < p_percent {
                    g.set(u, v, gen(rng));
                }
            }
        }
        g
    }

    fn small_suite<W: Weight>(seeds: u64, mut gen: impl FnMut(&mut Rng, u64) -> W) -> MatcherStats {
        let mut total = MatcherStats::default();
        let mut matcher = Matcher::new();
        for seed in 0..seeds {
            let mut rng = Rng(seed);
            let n = 1 + rng.below(11) as usize;
            let p = [25, 50, 75, 100][rng.below(4) as usize];
            let mode = rng.below(4);
            let g = random_graph(&mut rng, n, p, &mut |r| gen(r, mode));
            let mates = matcher.solve(&g);
            check_valid(&g, &mates);
            assert_eq!(g.matching_weight(&mates), brute(&g), "seed {seed}, n {n}: not optimal");
            check_certificate(&matcher, &g, &mates);
            // Deterministic, and the buffers are reusable.
            assert_eq!(Matcher::new().solve(&g), mates);
            let s = matcher.stats();
            total.augmentations += s.augmentations;
            total.blossoms += s.blossoms;
            total.nested_blossoms += s.nested_blossoms;
            total.t_expansions += s.t_expansions;
            total.zero_expansions += s.zero_expansions;
            total.rebuilt_vertex_edges += s.rebuilt_vertex_edges;
            total.rebuilt_blossom_edges += s.rebuilt_blossom_edges;
        }
        total
    }

    #[test]
    fn matching_small_graphs_u64_against_brute_force() {
        let stats = small_suite::<u64>(30_000, |r, mode| match mode {
            0 => 1 + r.below(3),
            1 => 1 + r.below(10),
            2 => 1 + r.below(1000),
            _ => 1 + r.below(1 << 60),
        });
        // The suite exercises every part of the algorithm.
        assert!(stats.nested_blossoms > 100, "{stats:?}");
        assert!(stats.t_expansions > 100, "{stats:?}");
        assert!(stats.zero_expansions > 100, "{stats:?}");
        assert!(
            stats.rebuilt_vertex_edges > 100 && stats.rebuilt_blossom_edges > 100,
            "{stats:?}"
        );
    }

    #[test]
    fn matching_small_graphs_i64_and_u128_against_brute_force() {
        small_suite::<i64>(3000, |r, mode| {
            if mode < 2 {
                1 + r.below(4) as i64
            } else {
                1 + r.below(1 << 40) as i64
            }
        });
        small_suite::<u128>(3000, |r, mode| {
            ((1 + r.below(4) as u128) << 100) | r.below(1 << (10 * mode + 1)) as u128
        });
    }

    #[test]
    fn matching_small_graphs_wide_against_brute_force() {
        let stats = small_suite::<Wide<4>>(20_000, |r, mode| {
            // Lexicographic: a top field at bit 200, a middle one at bit 100, a low one.
            let top = Wide::from_u64(1 + r.below(if mode == 0 { 2 } else { 4 })).shl(100);
            let mid = top.or_small(r.below(if mode < 2 { 3 } else { 1 << 40 })).shl(100);
            mid.or_small(r.below(if mode == 3 { u64::MAX } else { 5 }))
        });
        assert!(stats.nested_blossoms > 50, "{stats:?}");
        assert!(stats.t_expansions > 50, "{stats:?}");
    }

    #[test]
    fn matching_handmade_cases() {
        let solve = |n: usize, edges: &[(usize, usize, u64)]| {
            let mut g = Graph::new(n);
            for &(u, v, w) in edges {
                g.set(u, v, w);
            }
            let mates = Matcher::new().solve(&g);
            check_valid(&g, &mates);
            assert_eq!(g.matching_weight(&mates), brute(&g));
            mates
        };
        assert_eq!(solve(0, &[]), vec![]);
        assert_eq!(solve(1, &[]), vec![None]);
        assert_eq!(solve(3, &[]), vec![None, None, None]);
        assert_eq!(solve(2, &[(0, 1, 1)]), vec![Some(1), Some(0)]);
        // Not maximum cardinality: the heavy middle edge wins.
        assert_eq!(
            solve(4, &[(0, 1, 2), (1, 2, 5), (2, 3, 2)]),
            vec![None, Some(2), Some(1), None]
        );
        // A triangle with a pendant edge: the blossom is entered and left.
        assert_eq!(
            solve(4, &[(0, 1, 6), (1, 2, 6), (0, 2, 6), (2, 3, 5)]),
            vec![Some(1), Some(0), Some(3), Some(2)]
        );
        // Two triangles joined by a light edge, plus pendants.
        solve(
            8,
            &[
                (0, 1, 9),
                (1, 2, 9),
                (0, 2, 9),
                (3, 4, 9),
                (4, 5, 9),
                (3, 5, 9),
                (2, 3, 1),
                (0, 6, 4),
                (5, 7, 4),
            ],
        );
    }

    #[test]
    fn wide_arithmetic() {
        type W4 = Wide<4>;
        let a = W4::from_u64(u64::MAX);
        assert_eq!(a.add_small(1), W4::from_u64(1).shl(64));
        assert_eq!(W4::from_u64(1).shl(64).sub_small(1), a);
        assert_eq!(W4::ZERO.sub_small(1), W4::from_limbs([u64::MAX; 4]));
        assert_eq!(W4::ZERO.sub_small(1).add_small(1), W4::ZERO);
        let x = W4::from_u64(0xdead_beef).shl(130).or_small(7);
        assert_eq!(x.shr(130).low_u64(), 0xdead_beef);
        assert_eq!(x.bit_len(), 130 + 32);
        assert_eq!(Weight::half(x), x.shr(1));
        assert_eq!(x.shl(1), x.wrapping_add(x));
        assert_eq!(x.shl(256), W4::ZERO);
        assert_eq!(x.shl(0), x);
        assert!(W4::from_u64(1).shl(255) > W4::from_u64(u64::MAX).shl(190));
        assert_eq!(W4::MAX_WEIGHT.bit_len(), 254);
        assert_eq!(x | W4::from_u64(8), x.or_small(8));
        assert_eq!(
            format!("{:?}", W4::from_u64(1).shl(64).or_small(2)),
            "0x1_0000000000000002"
        );
        // Random cross-check against u128 arithmetic.
        let mut rng = Rng(7);
        for _ in 0..10_000 {
            let (p, q) = (
                ((rng.next() as u128) << 64) | rng.next() as u128,
                ((rng.next() as u128) << 64) | rng.next() as u128,
            );
            let wide = |x: u128| Wide::<2>::from_limbs([(x >> 64) as u64, x as u64]);
            let back = |x: Wide<2>| ((x.limbs()[0] as u128) << 64) | x.limbs()[1] as u128;
            assert_eq!(back(wide(p) + wide(q)), p.wrapping_add(q));
            assert_eq!(back(wide(p) - wide(q)), p.wrapping_sub(q));
            assert_eq!(wide(p).cmp(&wide(q)), p.cmp(&q));
            let s = (rng.next() % 140) as u32;
            assert_eq!(back(wide(p).shl(s)), p.checked_shl(s).unwrap_or(0));
            assert_eq!(back(wide(p).shr(s)), p.checked_shr(s).unwrap_or(0));
            assert_eq!(back(Weight::half(wide(p))), p >> 1);
        }
    }

    #[test]
    #[should_panic(expected = "above the maximum")]
    fn matching_rejects_weights_without_headroom() {
        let mut g = Graph::<u64>::new(2);
        g.set(0, 1, 1 << 62);
        Matcher::new().solve(&g);
    }

    fn large_case<W: Weight>(
        n: usize,
        seed: u64,
        p: u64,
        mut gen: impl FnMut(&mut Rng) -> W,
    ) -> (Graph<W>, Vec<Option<usize>>) {
        let mut rng = Rng(seed);
        let g = random_graph(&mut rng, n, p, &mut gen);
        let mut m = Matcher::new();
        let mates = m.solve(&g);
        check_valid(&g, &mates);
        check_certificate(&m, &g, &mates);
        (g, mates)
    }

    #[test]
    fn matching_large_graphs_have_a_dual_certificate() {
        for (seed, n) in [(1, 200), (2, 300), (3, 400)] {
            large_case::<u64>(n, seed, 100, |r| 1 + r.below(1 << 40));
            large_case::<u64>(n, seed + 10, 30, |r| 1 + r.below(8));
            large_case::<u64>(n, seed + 20, 100, |r| 1 + r.below(3));
            large_case::<Wide<4>>(n, seed + 30, 100, |r| {
                Wide::from_u64(1 + r.below(3))
                    .shl(100)
                    .or_small(r.below(50))
                    .shl(100)
                    .or_small(r.next())
            });
        }
        // The same weights as u64 and shifted up into Wide<4>: the same optimum.
        let (g, mates) = large_case::<u64>(300, 99, 60, |r| 1 + r.below(1000));
        let mut wide = Graph::<Wide<4>>::new(300);
        for u in 0..300 {
            for v in u + 1..300 {
                wide.set(u, v, Wide::from_u64(g.get(u, v)).shl(150));
            }
        }
        let wide_mates = Matcher::new().solve(&wide);
        check_valid(&wide, &wide_mates);
        assert_eq!(
            wide.matching_weight(&wide_mates),
            Wide::from_u64(g.matching_weight(&mates)).shl(150)
        );
    }

    /// Random graphs of 12–80 vertices of every density and weight spread, each checked through
    /// its dual certificate.
    fn medium_suite(seeds: std::ops::Range<u64>) {
        let mut m = Matcher::new();
        let mut wide = Matcher::new();
        for seed in seeds {
            let mut rng = Rng(seed ^ 0x5eed);
            let n = 12 + rng.below(69) as usize;
            let p = [5, 15, 40, 100][rng.below(4) as usize];
            let spread = [2, 5, 100, 1 << 40][rng.below(4) as usize];
            let g = random_graph(&mut rng, n, p, &mut |r| 1 + r.below(spread));
            let mates = m.solve(&g);
            check_valid(&g, &mates);
            check_certificate(&m, &g, &mates);
            // The same graph as a two-field Wide<4> weight with a random low field.
            let mut gw = Graph::<Wide<4>>::new(n);
            for u in 0..n {
                for v in u + 1..n {
                    if g.get(u, v) > 0 {
                        gw.set(u, v, Wide::from_u64(g.get(u, v)).shl(180).or_small(rng.below(spread)));
                    }
                }
            }
            let wide_mates = wide.solve(&gw);
            check_valid(&gw, &wide_mates);
            check_certificate(&wide, &gw, &wide_mates);
            // The top field dominates: the same optimum there.
            assert_eq!(
                gw.matching_weight(&wide_mates).shr(180).low_u64(),
                g.matching_weight(&mates),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn matching_medium_graphs_have_a_dual_certificate() {
        medium_suite(0..1500);
    }

    /// Graphs solved once and then changed a few vertices at a time (new weights, edges removed,
    /// vertices cut off), each change re-optimised by `resolve`: optimal (brute force for small
    /// graphs, a fresh solve for larger ones) and with a dual certificate, every time.
    fn warm_suite(seeds: std::ops::Range<u64>) -> MatcherStats {
        let mut total = MatcherStats::default();
        for seed in seeds {
            let mut rng = Rng(seed ^ 0x3a7e);
            let n = if seed % 4 == 0 {
                12 + rng.below(60) as usize
            } else {
                2 + rng.below(11) as usize
            };
            let p = [15, 40, 75, 100][rng.below(4) as usize];
            let spread = [2, 5, 100, 1 << 40][rng.below(4) as usize];
            let mut g = random_graph(&mut rng, n, p, &mut |r| 1 + r.below(spread));
            let mut m = Matcher::new();
            m.solve(&g);
            for _ in 0..6 {
                let k = 1 + rng.below(3) as usize;
                let changed: Vec<usize> = (0..k).map(|_| rng.below(n as u64) as usize).collect();
                for &v in &changed {
                    let mode = rng.below(4);
                    for u in 0..n {
                        if u == v {
                            continue;
                        }
                        let wt = match mode {
                            0 => 0,
                            1 => g.get(v, u) + rng.below(3),
                            _ if rng.below(100) < p => 1 + rng.below(spread),
                            _ => 0,
                        };
                        g.set(v, u, wt);
                    }
                }
                let mates = match rng.below(3) {
                    0 => m.resolve(&g, &changed),
                    1 => m.resolve_all(&g),
                    _ => {
                        m = Matcher::new();
                        m.solve(&g)
                    }
                };
                check_valid(&g, &mates);
                check_certificate(&m, &g, &mates);
                let best = if n <= 12 {
                    brute(&g)
                } else {
                    g.matching_weight(&Matcher::new().solve(&g))
                };
                assert_eq!(g.matching_weight(&mates), best, "seed {seed}: not optimal");
                let s = m.stats();
                total.augmentations += s.augmentations;
                total.blossoms += s.blossoms;
                total.t_expansions += s.t_expansions;
            }
        }
        total
    }

    #[test]
    fn matching_warm_starts_stay_optimal() {
        let stats = warm_suite(0..4000);
        assert!(stats.blossoms > 100 && stats.t_expansions > 10, "{stats:?}");
    }

    /// `cargo test -p arbiter-tournament --release matching_stress -- --ignored`
    #[test]
    #[ignore]
    fn matching_stress() {
        warm_suite(4000..100_000);
        medium_suite(1500..200_000);
        small_suite::<u64>(1_000_000, |r, mode| match mode {
            0 => 1 + r.below(2),
            1 => 1 + r.below(4),
            2 => 1 + r.below(20),
            _ => 1 + r.below(1 << 60),
        });
    }

    fn time_one<W: Weight>(what: &str, n: usize, gen: impl Fn(&mut Rng, usize, usize) -> W) {
        let mut rng = Rng(n as u64);
        let mut g = Graph::new(n);
        for u in 0..n {
            for v in u + 1..n {
                g.set(u, v, gen(&mut rng, u, v));
            }
        }
        let mut m = Matcher::new();
        let mut times = Vec::new();
        let mut mates = Vec::new();
        for _ in 0..3 {
            let start = std::time::Instant::now();
            mates = m.solve(&g);
            times.push(start.elapsed());
        }
        check_valid(&g, &mates);
        let s = m.stats();
        println!(
            "n = {n:5} {:>8} {what:>6}: best of 3 {:>9.2?} (first {:>9.2?}); {} pairs, {} blossoms, {} dual steps, {} scans",
            std::any::type_name::<W>().rsplit("::").next().unwrap(),
            times.iter().min().unwrap(),
            times[0],
            s.augmentations,
            s.blossoms,
            s.dual_steps,
            s.scans,
        );
    }

    /// `cargo test -p arbiter-tournament --release matching_bench -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn matching_bench() {
        for n in [300, 1000, 2000] {
            time_one::<u64>("random", n, |r, _, _| 1 + r.below(1 << 40));
            time_one::<Wide<4>>("random", n, |r, _, _| {
                Wide::from_u64(1 + r.below(4))
                    .shl(100)
                    .or_small(r.below(1000))
                    .shl(100)
                    .or_small(r.next())
            });
            // Swiss-like: a constant "one more pair" field on top, then a penalty on the score
            // difference (scores 0..=20 half-points, by player number), then small colour bits;
            // 5% of the pairs forbidden (already played).
            let score = |v: usize| (v * 21 / n) as u64;
            time_one::<Wide<4>>("swiss", n, |r, u, v| {
                if r.below(100) < 5 {
                    return Wide::ZERO;
                }
                let d = score(u).abs_diff(score(v));
                Wide::from_u64(1)
                    .shl(100)
                    .or_small(1000 - d * d)
                    .shl(100)
                    .or_small(r.below(8))
            });
        }
        time_one::<Wide<8>>("random", 1000, |r, _, _| {
            Wide::from_u64(1 + r.below(4))
                .shl(200)
                .or_small(r.below(1000))
                .shl(200)
                .or_small(r.next())
        });
    }
}
