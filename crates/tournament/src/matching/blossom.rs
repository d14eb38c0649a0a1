//! Blossoms: finding the base of an odd cycle and shrinking it into a blossom, and expanding a
//! blossom again (a T blossom whose dual reached zero, or any whose tree was dissolved).

use super::matcher::slack_of;
use super::{Matcher, Weight, FREE, NONE, S, T};

impl<W: Weight> Matcher<W> {
    /// The S blossom two steps up the tree from S blossom `b`, or NONE at the root.
    pub(super) fn up(&self, b: usize) -> u32 {
        let x = self.label_edge[b].0;
        if x == NONE {
            return NONE;
        }
        let t = self.inblossom[x as usize] as usize;
        self.inblossom[self.label_edge[t].0 as usize]
    }

    /// The base of the nearest common S ancestor of two S blossoms of one tree.
    pub(super) fn find_base(&mut self, bx: usize, by: usize) -> usize {
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
    pub(super) fn add_blossom(&mut self, w: &[W], base: usize, x: usize, y: usize) {
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
    pub(super) fn consider(&mut self, b: usize, p: usize, q: usize, wt: W) {
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
    pub(super) fn expand(&mut self, b: usize, zero_only: bool) {
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
    pub(super) fn augment_blossom(&mut self, b: usize, v: usize) {
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
}
