//! Warm starts: re-optimising from the last optimum after some vertices' edges changed.
//! Blossoms around a changed vertex are flattened (their duals handed down), the changed
//! vertices get the least dual their edges allow, and matched edges no longer tight are undone.

use super::matcher::slack_of;
use super::{Matcher, MatcherStats, Weight, FREE, NONE, S};

impl<W: Weight> Matcher<W> {
    /// The least dual of vertex `v` that keeps the slacks of its edges non-negative.
    pub(super) fn least_dual(&self, w: &[W], v: usize) -> W {
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
    pub(super) fn repair(&mut self, w: &[W], changed: Option<&[usize]>) {
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

    /// End every tree of the last search: no labels, no caches, blossoms of zero dual expanded.
    pub(super) fn unlabel_all(&mut self) {
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
    pub(super) fn loosen(&mut self, v: usize, loose: &mut Vec<u32>, is_loose: &mut [bool]) {
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
}
