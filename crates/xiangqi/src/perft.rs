//! Perft: counts the leaf nodes of the legal move tree, the standard test of a move generator.
//! The last ply is counted in bulk (moves are counted, not played), as Stockfish and Pikafish do.

use crate::{Move, Position};

/// Leaf nodes at `depth` plies from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let mut pos = pos.clone();
            inner(&mut pos, depth)
        }
    }
}

fn inner(pos: &mut Position, depth: u32) -> u64 {
    if depth == 1 {
        return pos.count_legal() as u64;
    }
    let moves = pos.legal_moves();
    let mut total = 0;
    for &m in moves.iter() {
        let undo = pos.do_move(m);
        total += inner(pos, depth - 1);
        pos.undo_move(m, undo);
    }
    total
}

/// Perft split by the first move ("divide"), in legal-move order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut pos = pos.clone();
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            let undo = pos.do_move(m);
            let n = if depth <= 1 { 1 } else { inner(&mut pos, depth - 1) };
            pos.undo_move(m, undo);
            (m, n)
        })
        .collect()
}

/// Perft by copying the position at each node instead of undoing (for comparison).
pub fn perft_copy(pos: &Position, depth: u32) -> u64 {
    if depth <= 1 {
        return if depth == 0 { 1 } else { pos.count_legal() as u64 };
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            perft_copy(&next, depth - 1)
        })
        .sum()
}

/// Perft whose last ply lists the legal moves instead of counting them with popcounts, the way
/// Stockfish-family engines bulk-count (for a like-for-like comparison with them).
pub fn perft_listing(pos: &Position, depth: u32) -> u64 {
    fn go(pos: &mut Position, depth: u32) -> u64 {
        let moves = pos.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for &m in moves.iter() {
            let undo = pos.do_move(m);
            total += go(pos, depth - 1);
            pos.undo_move(m, undo);
        }
        total
    }
    if depth == 0 {
        return 1;
    }
    go(&mut pos.clone(), depth)
}
