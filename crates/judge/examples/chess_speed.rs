//! How fast the chess judge rules, in plies per second on one core.
//!
//! `cargo run --release -p arbiter-judge --example chess_speed [games] [seed]`
//!
//! Two corpora: random games (each move drawn uniformly from the legal moves, up to 300 plies
//! or the automatic end, like the peer benchmark of `shared/specs/perf-anchors.md` §3) and
//! the 438 lichess games of the shared sample. Each is judged twice: `push` alone (legality,
//! play, mate and stalemate, repetition key and count, move counters, dead positions), and
//! `push` plus [`ChessJudge::status`] at every ply (the claimable draws too, which is what
//! python-chess's `outcome(claim_draw=True)` answers). The moves are made before the clock
//! starts; the best of five runs is reported, by the wall clock and by the thread's CPU time
//! (which other jobs on a shared machine do not inflate).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;
use std::time::Instant;

use chess::shakmaty::{Chess, Move};
use chess::Position;
use game::Game as _;
use judge::chess::{ChessJudge, ChessRules};
use judge::Judge;

/// A small deterministic generator (xorshift64*), so that runs are comparable.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize % n
    }
}

struct Game {
    start: Chess,
    moves: Vec<Move>,
}

/// `n` random games, and how many ended by each reason (or reached 300 plies).
fn random_games(n: usize, seed: u64) -> (Vec<Game>, BTreeMap<&'static str, usize>) {
    let mut rng = Rng(seed.max(1));
    let mut ends = BTreeMap::new();
    let games = (0..n)
        .map(|_| {
            let mut j = ChessJudge::new(Position::start(), ChessRules::fide());
            let mut moves = Vec::new();
            while j.verdict().is_none() && moves.len() < 300 {
                let m = j.legal_moves()[rng.below(j.legal_moves().len())];
                j.push(m).unwrap();
                moves.push(m);
            }
            *ends
                .entry(j.verdict().map_or("300 plies", |v| v.reason.code()))
                .or_insert(0) += 1;
            Game {
                start: Chess::default(),
                moves,
            }
        })
        .collect();
    (games, ends)
}

fn lichess_games() -> Vec<Game> {
    let path = testdata::record_file("chess-lichess/lichess-2025-05-sample.pgn");
    records::chess::ChessGames::new(BufReader::new(File::open(path).unwrap()))
        .with_options(records::ReadOptions::MAIN_LINE)
        .map(|r| {
            let r = r.unwrap();
            Game {
                start: records::chess::start_position(&r),
                moves: r.tree.main_line().copied().collect(),
            }
        })
        .collect()
}

/// Judges every game; returns the plies judged and a checksum of the verdicts.
fn judge_all(games: &[Game], with_status: bool) -> (usize, usize) {
    let (mut plies, mut sum) = (0, 0);
    for g in games {
        let mut j = ChessJudge::new(g.start.clone().into(), ChessRules::fide());
        for &m in &g.moves {
            let ended = j.push(m).expect("legal").is_some();
            plies += 1;
            if with_status {
                sum += usize::from(j.status().is_some());
            }
            if ended {
                sum += 1;
                break;
            }
        }
    }
    (plies, sum)
}

/// This thread's CPU time in seconds (Linux), which other jobs on the machine do not inflate.
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn measure(name: &str, games: &[Game]) {
    for with_status in [false, true] {
        let (mut wall, mut cpu) = (f64::INFINITY, f64::INFINITY);
        let mut plies = 0;
        for _ in 0..5 {
            let (t, c) = (Instant::now(), cpu_seconds());
            let (p, sum) = judge_all(games, with_status);
            wall = wall.min(t.elapsed().as_secs_f64());
            if let (Some(c0), Some(c1)) = (c, cpu_seconds()) {
                cpu = cpu.min(c1 - c0);
            }
            std::hint::black_box(sum);
            plies = p;
        }
        let mode = if with_status { "push + status" } else { "push" };
        println!(
            "{name:>8} {mode:>13}: {plies} plies; wall {:.1} ms, {:.2} M plies/s; cpu {:.1} ms, {:.2} M plies/s",
            wall * 1e3,
            plies as f64 / wall / 1e6,
            cpu * 1e3,
            plies as f64 / cpu / 1e6
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n = args.next().map_or(1000, |a| a.parse().expect("a number of games"));
    let seed = args.next().map_or(1, |a| a.parse().expect("a seed"));
    let (random, ends) = random_games(n, seed);
    println!("random: {n} games (seed {seed}); how they ended: {ends:?}");
    measure("random", &random);
    measure("lichess", &lichess_games());
}
