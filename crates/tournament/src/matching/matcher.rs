//! The solver's state ([`Matcher`]) and its driver: solving from scratch, re-solving after a
//! change, and the loop that alternates dual changes with growing, shrinking and augmenting.

use super::{Graph, Weight, FREE, NONE, S};

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
    pub(super) n: usize,
    /// Per vertex: its partner, or NONE.
    pub(super) mate: Vec<u32>,
    /// Per vertex: the top-level blossom containing it (itself when it is in none).
    pub(super) inblossom: Vec<u32>,
    /// Per vertex: y (doubled); per blossom id ≥ n: z (doubled).
    pub(super) dual: Vec<W>,
    /// Per vertex or blossom: the blossom directly containing it, or NONE at the top level.
    pub(super) parent: Vec<u32>,
    /// Per vertex or blossom: its base vertex; NONE marks an unused blossom id.
    pub(super) base: Vec<u32>,
    /// Per top-level blossom (or vertex): FREE, S or T.
    pub(super) label: Vec<u8>,
    /// Per labelled top-level blossom: the tree edge (x outside, y inside) that labelled it;
    /// (NONE, NONE) for a root. For a T blossom x is an S vertex; for an S blossom x is the T
    /// vertex matched to the base y.
    pub(super) label_edge: Vec<(u32, u32)>,
    /// Per labelled top-level blossom: its tree (the id of the vertex that started it).
    pub(super) tree: Vec<u32>,
    /// Per blossom id − n: the children in cycle order, the one holding the base first, and
    /// the edges between them: `cedges[i]` = (x in child i, y in child i + 1 mod k).
    pub(super) childs: Vec<Vec<u32>>,
    pub(super) cedges: Vec<Vec<(u32, u32)>>,
    pub(super) free_ids: Vec<u32>,
    /// Above every blossom id in use.
    pub(super) used_hi: usize,
    /// Per non-S vertex v: the S vertex u with the least slack on uv, and that slack (kept up
    /// to date through dual changes). When dirty (u left the S set), the slack is only a lower
    /// bound on the slacks from the current S vertices, and u means nothing.
    pub(super) best2: Vec<u32>,
    pub(super) best2_slack: Vec<W>,
    pub(super) dirty2: Vec<bool>,
    /// Per top-level S blossom: an S–S edge to another blossom of least slack among those it
    /// owns, and its slack. When dirty (the edge's far end left the S set), the slack is only a
    /// lower bound on those edges.
    pub(super) best3: Vec<(u32, u32)>,
    pub(super) best3_slack: Vec<W>,
    pub(super) dirty3: Vec<bool>,
    /// Per S blossom formed in this tree: the least-slack edge to each neighbouring S blossom,
    /// as of its formation (without a list, a blossom owns every edge of its vertices).
    pub(super) has_list: Vec<bool>,
    pub(super) lists: Vec<Vec<(u32, u32)>>,
    /// S vertices whose edges are still to be scanned.
    pub(super) queue: Vec<u32>,
    /// All S vertices, gathered at each dual step.
    pub(super) s_list: Vec<u32>,
    pub(super) mark: Vec<u32>,
    pub(super) stamp: u32,
    pub(super) best_to: Vec<(u32, u32)>,
    pub(super) best_to_slack: Vec<W>,
    pub(super) touched: Vec<u32>,
    pub(super) stack: Vec<u32>,
    pub(super) verts: Vec<u32>,
    pub(super) dissolved: Vec<bool>,
    pub(super) dissolved_s: Vec<bool>,
    pub(super) dirty_list: Vec<u32>,
    pub(super) to_expand: Vec<u32>,
    pub(super) stats: MatcherStats,
}

pub(super) fn refill<T: Clone>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

pub(super) fn refill_lists<T>(v: &mut Vec<Vec<T>>, len: usize) {
    v.truncate(len);
    for l in v.iter_mut() {
        l.clear();
    }
    v.resize_with(len, Vec::new);
}

/// The vertices of blossom `b` into `out`.
pub(super) fn collect_vertices(childs: &[Vec<u32>], n: usize, b: u32, stack: &mut Vec<u32>, out: &mut Vec<u32>) {
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

pub(super) fn check_weights<W: Weight>(w: &[W]) {
    let maxw = w.iter().copied().max().unwrap_or(W::ZERO);
    assert!(
        maxw <= W::MAX_WEIGHT,
        "matching: weight {maxw:?} above the maximum {:?}",
        W::MAX_WEIGHT
    );
}

#[inline(always)]
pub(super) fn slack_of<W: Weight>(yu: W, yv: W, w: W) -> W {
    yu.wadd(yv).wsub(w).wsub(w)
}

impl<W: Weight> Default for Matcher<W> {
    fn default() -> Self {
        Self::new()
    }
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

    pub(super) fn reset(&mut self, n: usize) {
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
    pub(super) fn is_top(&self, b: usize) -> bool {
        self.parent[b] == NONE && self.base[b] != NONE
    }

    /// The vertices of blossom `b`, in a buffer to hand back through `self.verts`.
    pub(super) fn take_vertices(&mut self, b: usize) -> Vec<u32> {
        let mut out = std::mem::take(&mut self.verts);
        collect_vertices(&self.childs, self.n, b as u32, &mut self.stack, &mut out);
        out
    }

    pub(super) fn run(&mut self, w: &[W], maxw: W) {
        let n = self.n;
        for v in (0..n).rev() {
            self.dual[v] = maxw;
            self.label[v] = S;
            self.tree[v] = v as u32;
            self.queue.push(v as u32);
        }
        self.grow(w);
    }

    #[cfg(debug_assertions)]
    pub(super) fn check_structure(&self, at: &str) {
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
}
