//! The round: brackets from the top, each paired by maximum-weight matchings (weights in
//! [`super::weight`]) and then fixed one decision at a time in the order the rules generate
//! candidates: which moved-down players are paired (Art. 3.3), their opponents, how many and
//! which residents are exchanged between S1 and S2 (Art. 4.3), and S1's opponents.
//!
//! A bracket is matched with the next scoregroup (C8) and, when the rest of the field could
//! matter for completion (C4), with everyone below. Otherwise only the bracket and the next
//! scoregroup are in the graph, and the result is accepted only if the players left over can
//! still all be paired; if not, the bracket is paired again with the whole field.

use super::cardinality;
use super::state::State;
use super::weight::{bye_candidate, Layout, Packed, Scene};
use crate::matching::{Graph, Matcher, Wide};

/// The outcome of pairing: pairs of indexes into `state.players`, and the player who gets the
/// pairing-allocated bye.
pub struct Round {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoPairing;

/// The lowest score the bye can go to (C5), and whether, when that is the top score, every
/// other topscorer can be paired inside the top group (then C9 applies there).
struct Bye {
    score: u32,
    top_closed: bool,
}

fn bye(state: &State) -> Result<Option<Bye>, NoPairing> {
    let ps = &state.players;
    let n = ps.len();
    let compatible = |a: usize, b: usize| state.compatible(a, b);
    if n.is_multiple_of(2) {
        return if cardinality::perfect(n, compatible) {
            Ok(None)
        } else {
            Err(NoPairing)
        };
    }
    let mut scores: Vec<u32> = ps.iter().map(|p| p.score).collect();
    scores.sort_unstable();
    scores.dedup();
    // A dummy vertex `n` stands for the bye.
    let with_bye = |limit: u32| {
        move |a: usize, b: usize| {
            let (a, b) = (a.min(b), a.max(b));
            if b == n {
                ps[a].eligible_for_bye && ps[a].score <= limit
            } else {
                compatible(a, b)
            }
        }
    };
    for &s in &scores {
        if cardinality::perfect(n + 1, with_bye(s)) {
            let top = ps[0].score;
            let mut top_closed = false;
            if s >= top {
                let k = ps.iter().take_while(|p| p.score >= top).count();
                let rest = |a: usize, b: usize| compatible(a + k, b + k);
                let within = |a: usize, b: usize| {
                    let (a, b) = (a.min(b), a.max(b));
                    if b == k {
                        ps[a].eligible_for_bye
                    } else {
                        compatible(a, b)
                    }
                };
                top_closed = cardinality::perfect(n - k, rest) && cardinality::perfect(k + 1, within);
            }
            return Ok(Some(Bye { score: s, top_closed }));
        }
    }
    Err(NoPairing)
}

/// Pairs the round. `full_below`: brackets with this many players or fewer left in the round
/// are always matched with the whole field.
pub fn pair(state: &State, full_below: usize) -> Result<Round, NoPairing> {
    let ps = &state.players;
    let n = ps.len();
    let bye = bye(state)?;
    let bye_score = bye.as_ref().map_or(0, |b| b.score);
    // C9: the rank of a player's played-game count among those who could get the bye; fewer
    // played games (more unplayed) pair first, the bye goes to the most played.
    let mut played: Vec<usize> = ps
        .iter()
        .filter(|p| p.score == bye_score)
        .map(|p| p.played_games)
        .collect();
    played.sort_unstable_by(|a, b| b.cmp(a));
    let unplayed_rank =
        move |p: &super::state::Player| played.iter().rposition(|&g| g == p.played_games).unwrap_or(0) as u64;
    let mut single_bye = bye.as_ref().is_some_and(|b| b.top_closed);

    let mut pairs = Vec::new();
    let mut carried: Vec<usize> = Vec::new();
    let mut mdps = 0;
    let mut pos = 0;
    // The first bracket: the top scoregroup.
    while pos < n && ps[pos].score >= ps[0].score {
        carried.push(pos);
        pos += 1;
    }
    while carried.len() > 1 || pos < n {
        let current = carried.len();
        let group_start = pos;
        if pos < n {
            let s = ps[pos].score;
            while pos < n && ps[pos].score >= s {
                carried.push(pos);
                pos += 1;
            }
        }
        let next_score = ps.get(group_start).map(|p| p.score);
        let rest: Vec<usize> = (pos..n).collect();
        let full = rest.is_empty()
            || n - group_start + current <= full_below
            || (n % 2 == 1 && next_score.is_some_and(|s| bye_score >= s));
        let rank: &dyn Fn(&super::state::Player) -> u64 = &unplayed_rank;
        // A bracket that can pair all its players leaves none to float: the next scoregroup
        // cannot change its pairing (C6 comes first), so it stays out of the graph.
        let closed = !full
            && current.is_multiple_of(2)
            && cardinality::perfect(current, |a, b| {
                let (a, b) = (a.min(b), a.max(b));
                b >= mdps && state.compatible(carried[a], carried[b])
            });
        // A bracket that floats exactly one player, above a next group where
        // everyone has more than half the group as possible opponents (so whoever floats down,
        // and whoever meets the floater, the rest of the group can still all be paired): one
        // vertex stands in for the whole next group — every floater is then worth the same to
        // it (C8), and only the bracket's own criteria decide.
        let group = &carried[current..];
        let one_floater = !full
            && !closed
            && !current.is_multiple_of(2)
            && group.len() >= 3
            && group
                .iter()
                .all(|&q| group.iter().filter(|&&r| r != q && state.compatible(q, r)).count() > group.len() / 2)
            && cardinality::perfect(current + 1, |a, b| {
                let (a, b) = (a.min(b), a.max(b));
                b == current || (b >= mdps && state.compatible(carried[a], carried[b]))
            });
        let below: Vec<usize> = if closed || one_floater {
            (group_start..n).collect()
        } else {
            rest.clone()
        };
        let mut graph: Vec<usize> = carried.to_vec();
        if closed {
            graph.truncate(current);
        } else if one_floater {
            graph.truncate(current + 1); // the stand-in takes a next-group player's slot
        }
        let outcome = bracket(
            state,
            &graph,
            mdps,
            current,
            &below,
            full,
            bye_score,
            single_bye.then_some(rank),
            one_floater.then_some(group),
        );
        let outcome = match outcome {
            Some(o) => o,
            None => bracket(
                state,
                &carried,
                mdps,
                current,
                &rest,
                true,
                bye_score,
                single_bye.then_some(rank),
                None,
            )
            .expect("the whole field can be completed"),
        };
        pairs.extend(outcome.pairs.iter().copied());
        // Whether the next bracket downfloats exactly the player who gets the bye (C9).
        single_bye = n % 2 == 1 && next_score.is_some_and(|s| bye_score >= s);
        let mut next_carried = Vec::new();
        let paired: std::collections::HashSet<usize> = outcome.pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        for (i, &v) in carried.iter().enumerate() {
            if i < current && paired.contains(&v) {
                continue;
            }
            next_carried.push(v);
            if single_bye {
                let partner = outcome.mate_score(v, state);
                if next_score.is_some_and(|s| partner < s) {
                    single_bye = false;
                }
            }
        }
        mdps = carried[..current].iter().filter(|v| !paired.contains(v)).count();
        carried = next_carried;
    }
    Ok(Round {
        pairs,
        bye: carried.first().copied(),
    })
}

struct Bracket {
    pairs: Vec<(usize, usize)>,
    /// Partners in the last matching, by player (index into `state.players`).
    mate: std::collections::HashMap<usize, Option<usize>>,
}

impl Bracket {
    fn mate_score(&self, v: usize, state: &State) -> u32 {
        let m = self.mate.get(&v).copied().flatten().unwrap_or(v);
        state.players[m].score
    }
}

#[allow(clippy::too_many_arguments)]
fn bracket(
    state: &State,
    carried: &[usize],
    mdps: usize,
    current: usize,
    rest: &[usize],
    full: bool,
    bye_score: u32,
    bye_rank: Option<&dyn Fn(&super::state::Player) -> u64>,
    stand_in: Option<&[usize]>,
) -> Option<Bracket> {
    let mut verts: Vec<usize> = carried.to_vec();
    if full {
        verts.extend_from_slice(rest);
    }
    let scene = Scene {
        state,
        verts: &verts,
        mdps,
        current,
        next: carried.len(),
        full,
        stand_in,
        bye_score,
        bye_rank,
        rounds_played: state.rounds_played,
    };
    let layout = Layout::new(&scene);
    // Two spare bits for the matching's duals.
    match super::weight::limbs_for(layout.total + 2) {
        2 => Solver::<2>::new(&scene, &layout).run(rest),
        3 => Solver::<3>::new(&scene, &layout).run(rest),
        4 => Solver::<4>::new(&scene, &layout).run(rest),
        6 => Solver::<6>::new(&scene, &layout).run(rest),
        8 => Solver::<8>::new(&scene, &layout).run(rest),
        16 => Solver::<16>::new(&scene, &layout).run(rest),
        32 => Solver::<32>::new(&scene, &layout).run(rest),
        64 => Solver::<64>::new(&scene, &layout).run(rest),
        _ => Solver::<128>::new(&scene, &layout).run(rest),
    }
}

struct Solver<'a, const N: usize> {
    scene: &'a Scene<'a>,
    layout: &'a Layout,
    m: usize,
    base: Vec<Wide<N>>,
    g: Graph<Wide<N>>,
    /// Kept between matchings: each one starts from the last optimum, repaired around the
    /// vertices whose edges changed since.
    matcher: Matcher<Wide<N>>,
    changed: Vec<bool>,
    changed_list: Vec<usize>,
    mate: Vec<Option<usize>>,
    fixed: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    solves: usize,
}

impl<'a, const N: usize> Solver<'a, N> {
    fn new(scene: &'a Scene<'a>, layout: &'a Layout) -> Self {
        let m = scene.verts.len();
        let mut base = vec![Wide::<N>::small(0); m * m];
        for b in 0..m {
            for a in 0..b {
                let local = b < scene.next && b >= scene.mdps;
                let w = if local {
                    layout.edge::<Wide<N>>(scene, a, b)
                } else if scene.full && scene.state.compatible(scene.verts[a], scene.verts[b]) {
                    layout.completion::<Wide<N>>(scene, a, b)
                } else {
                    Wide::small(0)
                };
                base[a * m + b] = w;
                base[b * m + a] = w;
            }
        }
        let mut g = Graph::new(m);
        for b in 0..m {
            for a in 0..b {
                let w = base[a * m + b];
                if !w.zero_weight() {
                    g.set(a, b, w);
                }
            }
        }
        Solver {
            scene,
            layout,
            m,
            g,
            matcher: Matcher::new(),
            changed: vec![false; m],
            changed_list: Vec::new(),
            base,
            mate: vec![None; m],
            fixed: vec![false; m],
            pairs: Vec::new(),
            solves: 0,
        }
    }

    fn base(&self, a: usize, b: usize) -> Wide<N> {
        self.base[a * self.m + b]
    }

    /// Set the weight of edge `ab`; `a` is marked as changed for the next matching.
    fn set(&mut self, a: usize, b: usize, w: Wide<N>) {
        if self.g.get(a, b) != w {
            self.g.set(a, b, w);
            if !self.changed[a] {
                self.changed[a] = true;
                self.changed_list.push(a);
            }
        }
    }

    fn set_base(&mut self, a: usize, b: usize, w: Wide<N>) {
        self.base[a * self.m + b] = w;
        self.base[b * self.m + a] = w;
    }

    fn solve(&mut self) {
        // Fixed players have no edges left. Most steps change the edges of a few players only:
        // the last optimum, repaired, is much cheaper than a new matching.
        let t0 = std::time::Instant::now();
        let cold = self.solves == 0 || self.changed_list.len() * 4 > self.m;
        let nchanged = self.changed_list.len();
        let mate = if self.solves == 0 {
            self.matcher.solve(&self.g)
        } else if cold {
            self.matcher.resolve_all(&self.g)
        } else {
            self.matcher.resolve(&self.g, &self.changed_list)
        };
        for &v in &self.changed_list {
            self.changed[v] = false;
        }
        self.changed_list.clear();
        self.mate = mate;
        self.solves += 1;
        if std::env::var_os("ARBITER_DUTCH_STATS").is_some() {
            eprintln!(
                "  matching m {} cold {cold} changed {nchanged} {:.3} s {:?}",
                self.m,
                t0.elapsed().as_secs_f64(),
                self.matcher.stats()
            );
        }
    }

    fn phase(&self, t: &str) {
        if std::env::var_os("ARBITER_DUTCH_STATS").is_some() {
            eprintln!("  solve {t}");
        }
    }

    /// The first vertex of `candidates` with an edge to `v` (the one the step's bonus favours).
    fn first_edge(&self, v: usize, mut candidates: impl Iterator<Item = usize>) -> Option<usize> {
        candidates.find(|&u| !self.fixed[u] && !self.base(v, u).zero_weight())
    }

    fn fix(&mut self, a: usize, b: usize) {
        for v in 0..self.m {
            self.set(a, v, Wide::small(0));
            self.set(b, v, Wide::small(0));
        }
        self.fixed[a] = true;
        self.fixed[b] = true;
        self.mate[a] = None;
        self.mate[b] = None;
        let (pa, pb) = (self.scene.verts[a], self.scene.verts[b]);
        self.pairs.push((pa.min(pb), pa.max(pb)));
    }

    /// Paired inside the current bracket (with a vertex before `current`).
    fn in_bracket(&self, v: usize) -> bool {
        self.mate[v].is_some_and(|u| u < self.scene.current)
    }

    #[allow(clippy::needless_range_loop)] // vertices index several arrays
    fn run(mut self, rest: &[usize]) -> Option<Bracket> {
        let sc = self.scene;
        let (mdps, current) = (sc.mdps, sc.current);
        // The first candidate, S1[i] against S2[i], taken at once when no pairing can be better:
        // every one of its pairs is as good as any pair of the bracket (Art. 3.3: a candidate
        // meeting every criterion perfectly ends the search).
        if mdps == 0 && self.m == current && current.is_multiple_of(2) && current > 0 {
            let half = current / 2;
            let mut best = Wide::<N>::small(0);
            for a in 0..current {
                for b in a + 1..current {
                    best = best.max(self.base(a, b));
                }
            }
            if (0..half).all(|i| !best.zero_weight() && self.base(i, i + half) == best) {
                for i in 0..half {
                    self.fix(i, i + half);
                }
                return self.finish(rest);
            }
        }
        if mdps > 0 {
            self.solve();
            self.phase("init");
        }

        // Which moved-down players are paired: the most of each score (C6, C7), the first in
        // order where there is a choice.
        let residents = current - mdps;
        let mut chosen = vec![false; mdps];
        let mut i = 0;
        while i < mdps {
            let score = sc.state.players[sc.verts[i]].score;
            let end = (i..mdps)
                .find(|&j| sc.state.players[sc.verts[j]].score < score)
                .unwrap_or(mdps);
            let mut left = end - i;
            let mut to_pair = (i..end).filter(|&v| self.in_bracket(v)).count();
            for v in i..end {
                if to_pair == 0 {
                    break;
                }
                if left <= to_pair {
                    chosen[v] = true;
                    continue;
                }
                left -= 1;
                if !self.in_bracket(v) {
                    for r in mdps..current {
                        let b = self.base(v, r);
                        if !b.zero_weight() {
                            self.set(v, r, b.plus(self.layout.unit(1)));
                        }
                    }
                    self.solve();
                    self.phase("mdptry");
                }
                if self.in_bracket(v) {
                    chosen[v] = true;
                    to_pair -= 1;
                    for r in mdps..current {
                        let b = self.base(v, r);
                        if !b.zero_weight() {
                            self.set(v, r, b.plus(self.layout.unit(residents as u64 + 1)));
                        }
                    }
                }
            }
            i = end;
        }

        // Their opponents: the first resident in order that keeps the pairing optimal.
        for v in 0..mdps {
            if !chosen[v] {
                continue;
            }
            let mut bonus = sc.next as u64;
            for r in (mdps..current).rev() {
                if self.fixed[r] {
                    continue;
                }
                let b = self.base(v, r);
                if !b.zero_weight() {
                    self.set(v, r, b.plus(self.layout.unit(bonus)));
                    bonus += 1;
                }
            }
            // The matching in hand stays optimal if it already gives v the favoured opponent.
            if self.mate[v] != self.first_edge(v, mdps..current) {
                self.solve();
                self.phase("mdpopp");
            }
            let u = self.mate[v].expect("a chosen moved-down player is paired");
            self.fix(v, u);
        }

        // The remainder: S1 = its first `pairs` players; fewest exchanges, then the smallest
        // difference of exchanged numbers (Art. 4.3).
        let rem: Vec<usize> = (mdps..current).filter(|&r| !self.fixed[r]).collect();
        let pairs_in = |s: &Self| {
            rem.iter()
                .filter(|&&r| s.mate[r].is_some_and(|u| u < r && u >= mdps && u < current))
                .count()
        };
        // Without moved-down players no matching has been made yet: guess the number of pairs
        // and make the matching again if the guess was wrong.
        let mut p = if mdps > 0 { pairs_in(&self) } else { rem.len() / 2 };
        let room = self.layout.room_bit;
        let layout = self.layout;
        let tweak = |base: Wide<N>, k: usize, p: usize| -> Wide<N> {
            if base.zero_weight() {
                return base;
            }
            let s1 = if k < p {
                Wide::small(1).shifted(room)
            } else {
                Wide::small(0)
            };
            base.plus(s1).minus(layout.unit(2 * k as u64))
        };
        // If no exchange is needed, this matching also gives the first S1 players their
        // opponents (tie slots, as below).
        let mut presettled;
        loop {
            presettled = p.min(self.layout.slots());
            for (k, &a) in rem.iter().enumerate() {
                for (j, &b) in rem.iter().enumerate().skip(k + 1) {
                    let mut w = tweak(self.base(a, b), k, p);
                    if k < presettled && j >= p && !w.zero_weight() {
                        w = w.plus(self.layout.lex(k, self.m as u64 - b as u64));
                    }
                    self.set(a, b, w);
                }
            }
            self.solve();
            self.phase("tweak");
            let found = pairs_in(&self);
            if found == p {
                break;
            }
            p = found;
        }
        let tweak = |base: Wide<N>, k: usize| tweak(base, k, p);
        let s1_role = |s: &Self, x: usize| s.mate[x].is_some_and(|u| u > x && u < current);
        let exchanges = rem[..p].iter().filter(|&&x| !s1_role(&self, x)).count();
        if exchanges > 0 {
            presettled = 0;
        }

        // Which S1 players go to S2: the lowest first.
        let mut left = exchanges;
        for k in (0..p).rev() {
            if left == 0 {
                break;
            }
            let x = rem[k];
            if s1_role(&self, x) {
                for &o in &rem[k + 1..] {
                    let w = tweak(self.base(x, o), k);
                    if !w.zero_weight() {
                        self.set(x, o, w.minus(self.layout.unit(1)));
                    }
                }
                self.solve();
                self.phase("s1out");
            }
            let exchanged = !s1_role(&self, x);
            if exchanged {
                left -= 1;
            }
            for &o in &rem[k + 1..] {
                if exchanged {
                    self.set_base(x, o, Wide::small(0));
                }
                let w = tweak(self.base(x, o), k);
                self.set(x, o, w);
            }
        }

        // Which S2 players come to S1: the highest first.
        let mut left = exchanges;
        for k in p..rem.len() {
            if left <= 1 {
                break;
            }
            let x = rem[k];
            let already = s1_role(&self, x);
            if !already {
                for &o in &rem[k + 1..] {
                    let w = tweak(self.base(x, o), k);
                    if !w.zero_weight() {
                        self.set(x, o, w.plus(self.layout.unit(1)));
                    }
                }
                self.solve();
                self.phase("s2in");
            }
            if s1_role(&self, x) {
                left -= 1;
                for &o in &rem[..k] {
                    self.set_base(o, x, Wide::small(0));
                    self.set(x, o, Wide::small(0));
                }
                for o in current..sc.next {
                    self.set_base(x, o, Wide::small(0));
                    self.set(x, o, Wide::small(0));
                }
            }
            if !already {
                for &o in &rem[k + 1..] {
                    let w = tweak(self.base(x, o), k);
                    self.set(x, o, w);
                }
            }
        }

        // S1 and S2 are settled: only S1-to-S2 pairs remain.
        for (k, &a) in rem.iter().enumerate() {
            for &b in &rem[k + 1..] {
                if !s1_role(&self, a) || s1_role(&self, b) {
                    self.set_base(a, b, Wide::small(0));
                }
                let w = self.base(a, b);
                self.set(a, b, w);
            }
        }

        // S1's opponents, in order: the first in S2 that keeps the pairing optimal. The first
        // player's preference goes in the room as a bonus (what decides); the next ones' in the
        // tie slots below everything else, so the same matching also gives each of them the
        // first opponent left for them once those before are paired.
        let s1: Vec<usize> = rem.iter().copied().filter(|&x| s1_role(&self, x)).collect();
        let mut settled = presettled; // S1 players the last matching decides
        for (i, &x) in s1.iter().enumerate() {
            if self.fixed[x] {
                continue;
            }
            // Beyond the settled ones, a player the matching already gives the first opponent
            // left needs no new matching either.
            let first = self.first_edge(x, rem.iter().copied().filter(|&o| o > x));
            if i == settled && self.mate[x].is_some() && self.mate[x] == first {
                settled += 1;
            }
            if i == settled && self.greedy_settles(&s1[i..], &rem) {
                break;
            }
            if i == settled {
                settled = (i + self.layout.slots()).min(s1.len());
                for (slot, &y) in s1[i..settled].iter().enumerate() {
                    let mut bonus = 0u64;
                    for &o in rem.iter().rev() {
                        if o <= y || self.fixed[o] {
                            continue;
                        }
                        let b = self.base(y, o);
                        if !b.zero_weight() {
                            let mut w = b.plus(self.layout.lex(slot, self.m as u64 - o as u64));
                            if slot == 0 {
                                w = w.plus(self.layout.unit(bonus));
                            }
                            self.set(y, o, w);
                        }
                        bonus += 1;
                    }
                }
                self.solve();
                self.phase("s1opp");
            }
            let u = self.mate[x].expect("an S1 player is paired");
            self.fix(x, u);
        }

        if std::env::var_os("ARBITER_DUTCH_STATS").is_some() {
            eprintln!(
                "bracket m {} mdps {} current {} next {} full {} solves {} bits {}",
                self.m, mdps, current, sc.next, sc.full, self.solves, self.layout.total
            );
        }
        self.finish(rest)
    }

    /// Whether each S1 player left, in turn, can simply take the first opponent left (what the
    /// steps pick when it is possible): true, and those pairs fixed, if that pairing is as good
    /// as the matching in hand and uses the same S2 players (so the same ones float).
    fn greedy_settles(&mut self, s1: &[usize], rem: &[usize]) -> bool {
        let mut taken = vec![false; self.m];
        let mut pairs = Vec::with_capacity(s1.len());
        for &x in s1 {
            let Some(y) = rem
                .iter()
                .copied()
                .find(|&o| o > x && !self.fixed[o] && !taken[o] && !self.base(x, o).zero_weight())
            else {
                return false;
            };
            taken[y] = true;
            pairs.push((x, y));
        }
        let same_players = s1.iter().all(|&x| self.mate[x].is_some_and(|y| taken[y]));
        let sum = |s: &Self, it: &mut dyn Iterator<Item = (usize, usize)>| {
            it.fold(Wide::<N>::small(0), |acc, (x, y)| acc.plus(s.base(x, y)))
        };
        let found = sum(
            self,
            &mut s1.iter().map(|&x| (x, self.mate[x].expect("an S1 player is paired"))),
        );
        if !same_players || sum(self, &mut pairs.iter().copied()) != found {
            return false;
        }
        for (x, y) in pairs {
            self.fix(x, y);
        }
        true
    }

    fn finish(self, rest: &[usize]) -> Option<Bracket> {
        let sc = self.scene;
        if !sc.full && !self.completable(rest) {
            return None;
        }
        let mate = (0..self.m)
            .map(|v| (sc.verts[v], self.mate[v].map(|u| sc.verts[u])))
            .collect();
        Some(Bracket {
            pairs: self.pairs,
            mate,
        })
    }

    /// C4: the players the bracket leaves, with everyone below, can all be paired without the
    /// bracket's own edges (and the bye, if any, goes to a candidate).
    fn completable(&self, rest: &[usize]) -> bool {
        let sc = self.scene;
        let st = sc.state;
        // The floater matched with the stand-in of the next group still has to be paired there.
        let stand_in = sc.stand_in.map(|_| sc.current);
        let left: Vec<usize> = (0..self.m)
            .filter(|&v| Some(v) != stand_in && !self.fixed[v] && (self.mate[v].is_none() || self.mate[v] == stand_in))
            .collect();
        let mut xs: Vec<usize> = left.iter().map(|&v| sc.verts[v]).collect();
        let first_rest = xs.len();
        xs.extend_from_slice(rest);
        let odd = xs.len() % 2 == 1;
        let k = xs.len() + odd as usize;
        let is_mdp = |i: usize| i < first_rest && left[i] < sc.mdps;
        cardinality::perfect(k, |a, b| {
            let (a, b) = (a.min(b), a.max(b));
            if b == xs.len() {
                return bye_candidate(sc, &st.players[xs[a]]);
            }
            (b >= first_rest || (is_mdp(a) && is_mdp(b))) && st.compatible(xs[a], xs[b])
        })
    }
}
