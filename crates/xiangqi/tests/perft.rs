//! Perft against the published counts of `tests/data/xiangqi.epd` (a copy of
//! `shared/data/perft/xiangqi.epd`). Depth ≤ 5 runs here; the start position's depth 6
//! (5.4 billion nodes) is `#[ignore]`d: `cargo test --release -p arbiter-xiangqi --test perft -- --ignored`.

use xiangqi::perft::{divide, perft, perft_copy, perft_listing};
use xiangqi::Position;

struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn suite() -> Vec<Case> {
    let text = include_str!("data/xiangqi.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';').map(str::trim);
            let fen = parts.next().unwrap().to_string();
            let mut counts = Vec::new();
            let mut id = String::new();
            for p in parts {
                if let Some(rest) = p.strip_prefix('D') {
                    let (d, n) = rest.split_once(' ').unwrap();
                    counts.push((d.parse().unwrap(), n.parse().unwrap()));
                } else if let Some(rest) = p.strip_prefix("id ") {
                    id = rest.to_string();
                }
            }
            Case { id, fen, counts }
        })
        .collect()
}

#[test]
fn suite_is_complete() {
    let s = suite();
    assert_eq!(s.len(), 14);
    assert_eq!(s.iter().map(|c| c.counts.len()).sum::<usize>(), 71);
}

fn run(max_depth: u32, min_depth: u32) {
    for case in suite() {
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(d, n) in &case.counts {
            if d <= max_depth && d >= min_depth {
                assert_eq!(perft(&pos, d), n, "{} depth {d}", case.id);
            }
        }
    }
}

#[test]
fn shallow_depths() {
    run(4, 1);
}

#[test]
fn depth_five() {
    run(5, 5);
}

#[test]
#[ignore = "5.4 billion nodes: run with --ignored in release mode"]
fn start_depth_six() {
    run(6, 6);
}

#[test]
fn divide_sums_to_perft_and_copy_make_agrees() {
    for case in suite() {
        let pos = Position::from_fen(&case.fen).unwrap();
        let total: u64 = divide(&pos, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, perft(&pos, 3), "{}", case.id);
        assert_eq!(perft_copy(&pos, 3), perft(&pos, 3), "{}", case.id);
        assert_eq!(perft_listing(&pos, 3), perft(&pos, 3), "{}", case.id);
    }
}
