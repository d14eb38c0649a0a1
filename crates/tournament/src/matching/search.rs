//! Growing the alternating trees: scanning S vertices' edges, keeping each vertex's and each
//! S blossom's best edge, labelling, and changing the duals by the least δ.

use super::matcher::slack_of;
use super::{Matcher, Weight, FREE, NONE, S, T};

/// What ended a dual change: the optimum, or the event that stopped δ.
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
    /// The stages: grow the trees of the free vertices (the S roots, already in the queue)
    /// until every free vertex has a zero dual.
    pub(super) fn grow(&mut self, w: &[W]) {
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

    pub(super) fn update_duals(&mut self, delta: W) {
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
    pub(super) fn scan(&mut self, w: &[W], u: usize) {
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
    pub(super) fn recompute2(&mut self, w: &[W], v: usize) {
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
    pub(super) fn recompute3(&mut self, w: &[W], b: usize) {
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
    pub(super) fn label_t(&mut self, v: usize, from: usize) {
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
    pub(super) fn tight(&mut self, w: &[W], x: usize, y: usize) {
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
}
