//! Whether a set of players can all be paired (C4 completion): Edmonds' maximum-cardinality
//! matching on a graph given by a predicate, started from a greedy matching (on the nearly
//! complete graphs of a Swiss round few augmenting paths remain).

use std::collections::VecDeque;

/// A maximum matching: `mate[v]` is v's partner.
pub fn maximum_matching(n: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<Option<usize>> {
    let mut mate: Vec<Option<usize>> = vec![None; n];
    for u in 0..n {
        if mate[u].is_none() {
            if let Some(v) = (u + 1..n).find(|&v| mate[v].is_none() && edge(u, v)) {
                mate[u] = Some(v);
                mate[v] = Some(u);
            }
        }
    }
    let mut search = Search::new(n);
    for root in 0..n {
        if mate[root].is_none() {
            search.augment(root, &mut mate, &edge);
        }
    }
    mate
}

/// Whether every vertex can be matched.
pub fn perfect(n: usize, edge: impl Fn(usize, usize) -> bool) -> bool {
    n.is_multiple_of(2) && maximum_matching(n, edge).iter().all(Option::is_some)
}

struct Search {
    parent: Vec<Option<usize>>,
    base: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    queue: VecDeque<usize>,
}

impl Search {
    fn new(n: usize) -> Search {
        Search {
            parent: vec![None; n],
            base: (0..n).collect(),
            used: vec![false; n],
            blossom: vec![false; n],
            queue: VecDeque::new(),
        }
    }

    fn lca(&self, mate: &[Option<usize>], mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; mate.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            match mate[a].and_then(|m| self.parent[m]) {
                Some(p) => a = p,
                None => break,
            }
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[mate[b].expect("an inner vertex is matched")].expect("on the tree");
        }
    }

    fn mark_path(&mut self, mate: &[Option<usize>], mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            let m = mate[v].expect("matched");
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[m]] = true;
            self.parent[v] = Some(child);
            child = m;
            v = self.parent[m].expect("on the tree");
        }
    }

    /// Grows an alternating tree from `root`; flips the path if a free vertex is reached.
    fn augment(&mut self, root: usize, mate: &mut [Option<usize>], edge: &impl Fn(usize, usize) -> bool) {
        let n = mate.len();
        self.used.iter_mut().for_each(|x| *x = false);
        self.parent.iter_mut().for_each(|x| *x = None);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for to in 0..n {
                if to == v || self.base[v] == self.base[to] || mate[v] == Some(to) || !edge(v, to) {
                    continue;
                }
                if to == root || mate[to].is_some_and(|m| self.parent[m].is_some()) {
                    let cur = self.lca(mate, v, to);
                    self.blossom.iter_mut().for_each(|x| *x = false);
                    self.mark_path(mate, v, cur, to);
                    self.mark_path(mate, to, cur, v);
                    for i in 0..n {
                        if self.blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to].is_none() {
                    self.parent[to] = Some(v);
                    match mate[to] {
                        None => {
                            // Flip the alternating path back to the root.
                            let mut u = Some(to);
                            while let Some(x) = u {
                                let pv = self.parent[x].expect("on the path");
                                let ppv = mate[pv];
                                mate[x] = Some(pv);
                                mate[pv] = Some(x);
                                u = ppv;
                            }
                            return;
                        }
                        Some(m) => {
                            self.used[m] = true;
                            self.queue.push_back(m);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(n: usize, edge: &dyn Fn(usize, usize) -> bool, used: u32) -> usize {
        let Some(u) = (0..n).find(|&u| used & (1 << u) == 0) else {
            return 0;
        };
        let skip = brute(n, edge, used | 1 << u);
        (u + 1..n)
            .filter(|&v| used & (1 << v) == 0 && edge(u, v))
            .map(|v| 1 + brute(n, edge, used | 1 << u | 1 << v))
            .fold(skip, usize::max)
    }

    #[test]
    fn maximum_on_random_graphs() {
        let mut lots = crate::lots::Stream::new(7);
        for _ in 0..3000 {
            let n = (lots.next_u64() % 11) as usize + 1;
            let density = lots.next_u64() % 100;
            let mut adj = vec![false; n * n];
            for u in 0..n {
                for v in u + 1..n {
                    let e = lots.next_u64() % 100 < density;
                    adj[u * n + v] = e;
                    adj[v * n + u] = e;
                }
            }
            let edge = |u: usize, v: usize| adj[u * n + v];
            let mate = maximum_matching(n, edge);
            for (u, m) in mate.iter().enumerate() {
                if let Some(v) = *m {
                    assert_eq!(mate[v], Some(u));
                    assert!(edge(u, v));
                }
            }
            let size = mate.iter().filter(|m| m.is_some()).count() / 2;
            assert_eq!(size, brute(n, &edge, 0), "n {n} adj {adj:?}");
        }
    }
}
