//! Cooperative search: can `side` mate if both players help? Every legal move of both sides is
//! tried, under a budget of positions.
//!
//! Two phases. First iterative deepening, depth-first to 1, 2, 4 and 8 plies with a
//! transposition table, which finds short helpmates cheaply in any position (and proves no
//! when an iteration nowhere reached its depth limit: it saw every reachable position). Then,
//! for the proof, every reachable position breadth-first, each expanded once: deepening with a
//! table expands a position again whenever it is reached with more depth left, which costs
//! several times the positions of a small closed space; the breadth-first pass costs them
//! once. It answers Yes on a mate, No when nothing is left to visit, Unknown when the budget
//! runs out.
//!
//! Subtrees that cannot hold a mate are cut without losing the proof: after a capture that
//! leaves `side` insufficient material, and after a capture or pawn move into a locked
//! fortress in which `side` never gives check.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use ::chess::shakmaty::zobrist::Zobrist64;
use ::chess::shakmaty::{Chess, Color, EnPassantMode, Position};

use super::{fortress, Mate, Proof};

/// The deepest iteration of the first phase, in plies. The recursion keeps a move list per ply
/// on the stack (about 2.5 KiB), so this bounds the stack too.
const SHORT: u32 = 8;

/// The answer for `side` in `pos`, visiting at most `budget` positions in all.
pub(super) fn search(pos: &Chess, side: Color, budget: usize) -> Mate {
    let mut s = Search {
        side,
        budget: budget / 4,
        nodes: 0,
        table: HashMap::default(),
        cut: false,
    };
    let mut depth = 1;
    while depth <= SHORT {
        s.table.clear();
        s.cut = false;
        match s.visit(pos, depth) {
            Flow::Mate => return Mate::Yes,
            Flow::Spent => break,
            Flow::Go if !s.cut => {
                return Mate::No(Proof::Exhausted {
                    positions: s.table.len(),
                })
            }
            Flow::Go => depth *= 2,
        }
    }
    exhaust(pos, side, budget - s.nodes.min(budget))
}

/// Every position reachable from `pos`, breadth-first, each once.
fn exhaust(pos: &Chess, side: Color, budget: usize) -> Mate {
    let mut seen: HashSet<u64, BuildHasherDefault<KeyHasher>> = HashSet::default();
    seen.insert(key(pos));
    let mut queue = VecDeque::from([pos.clone()]);
    while let Some(p) = queue.pop_front() {
        if seen.len() > budget {
            return Mate::Unknown;
        }
        let moves = p.legal_moves();
        if moves.is_empty() && p.turn() != side && p.is_check() {
            return Mate::Yes;
        }
        for &m in &moves {
            let mut child = p.clone();
            child.play_unchecked(m);
            if !(m.is_zeroing() && hopeless(&child, side)) && seen.insert(key(&child)) {
                queue.push_back(child);
            }
        }
    }
    Mate::No(Proof::Exhausted { positions: seen.len() })
}

fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

enum Flow {
    Go,
    Mate,
    Spent,
}

struct Search {
    side: Color,
    budget: usize,
    nodes: usize,
    /// The deepest remaining depth each position was searched with in this iteration.
    table: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    /// Whether this iteration stopped anywhere for depth.
    cut: bool,
}

impl Search {
    fn visit(&mut self, pos: &Chess, depth: u32) -> Flow {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Flow::Spent;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.turn() != self.side && pos.is_check() {
                Flow::Mate
            } else {
                Flow::Go
            };
        }
        if depth == 0 {
            self.cut = true;
            return Flow::Go;
        }
        let seen = self.table.entry(key(pos)).or_insert(0);
        if *seen >= depth {
            return Flow::Go;
        }
        *seen = depth;
        for &m in &moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            if m.is_zeroing() && hopeless(&child, self.side) {
                continue;
            }
            match self.visit(&child, depth - 1) {
                Flow::Go => {}
                stop => return stop,
            }
        }
        Flow::Go
    }
}

/// Whether `side` provably cannot mate in `pos` by the static tests (after a capture or pawn
/// move, when they may newly apply).
fn hopeless(pos: &Chess, side: Color) -> bool {
    pos.has_insufficient_material(side) || fortress::locked(pos).is_some_and(|l| l.never_checks[side])
}

/// Zobrist keys are uniform already: hash them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}
