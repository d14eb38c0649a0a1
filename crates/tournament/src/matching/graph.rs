//! The weight matrix the solver reads, and the one-call entry point.

use super::{Matcher, Weight};

/// A dense, symmetric weight matrix on vertices `0..n`; weight zero means no edge.
#[derive(Clone, Debug)]
pub struct Graph<W> {
    pub(super) n: usize,
    pub(super) w: Vec<W>,
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
