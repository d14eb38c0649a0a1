//! The solver against brute force, against itself warm and cold, and on the shapes that once
//! broke it.

use super::matcher::collect_vertices;
use super::*;

/// The random graphs' generator.
struct Rng(crate::lots::Stream);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, k: u64) -> u64 {
        self.0.below(k)
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
fn random_graph<W: Weight>(rng: &mut Rng, n: usize, p_percent: u64, gen: &mut impl FnMut(&mut Rng) -> W) -> Graph<W> {
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
        let mut rng = Rng(crate::lots::Stream::new(seed));
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
    let mut rng = Rng(crate::lots::Stream::new(7));
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
    let mut rng = Rng(crate::lots::Stream::new(seed));
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
        let mut rng = Rng(crate::lots::Stream::new(seed ^ 0x5eed));
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
        let mut rng = Rng(crate::lots::Stream::new(seed ^ 0x3a7e));
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
    let mut rng = Rng(crate::lots::Stream::new(n as u64));
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
