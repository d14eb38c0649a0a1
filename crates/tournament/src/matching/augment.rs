//! Augmenting: flipping the matched edges along the path through two trees, and dissolving
//! the two trees it joined while the others keep growing.

use super::{Matcher, Weight, FREE, NONE, S};

impl<W: Weight> Matcher<W> {
    /// S vertex `v` reached a zero dual while free vertices of higher dual remain: it is free
    /// now (the even path from its tree's root to it flips, which matches the root), and its
    /// tree stops.
    pub(super) fn zero(&mut self, v: usize) {
        let tr = self.tree[self.inblossom[v] as usize];
        if self.mate[v] != NONE {
            self.flip_to_root(v, NONE);
        }
        self.dissolve(tr, tr);
    }

    /// Augment the matching along the path root(x) … x – y … root(y).
    pub(super) fn augment(&mut self, x: usize, y: usize) {
        self.stats.augmentations += 1;
        self.flip_to_root(x, y as u32);
        self.flip_to_root(y, x as u32);
    }

    /// Match S vertex `s` to `j` (NONE: leave it free) and swap matched and unmatched edges
    /// along the alternating path from it up to its tree's root, which ends matched.
    pub(super) fn flip_to_root(&mut self, mut s: usize, mut j: u32) {
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
    pub(super) fn dissolve(&mut self, t1: u32, t2: u32) {
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
