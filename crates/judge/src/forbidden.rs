//! The moves the rules forbid now: what a referee tells an engine through UCCI's `banmoves`
//! (or UCI's `searchmoves`, the other moves), so that an engine that does not know the 棋例
//! is not lost to them.

use game::{Game, Kind, Side};

use crate::{Judge, Outcome, Verdict};

/// The side a ruling goes against, if it is a loss.
fn loser(v: &Verdict) -> Option<Side> {
    match v.result {
        Outcome::FirstWins => Some(Side::Second),
        Outcome::SecondWins => Some(Side::First),
        _ => None,
    }
}

/// The legal moves the rules forbid now: those after which the judge rules a loss for the
/// mover, or tells the mover to vary (a new repetition ruling pending against it), and — while
/// the mover has been told to vary — those that go back into the cycle it was warned about.
///
/// Only a move that leads to a position already seen since the last capture can be forbidden
/// (every ruling that loses by a move is a repetition ruling; checkmate and stalemate lose for
/// the side that cannot move, not the mover). So each legal move's repetition key is looked up
/// in the judge's history first, and the judge is cloned and the move tried only for the few
/// moves that repeat a position — usually none, and the call costs one key per legal move.
/// Chess rules forbid no move (repetitions and move counts only draw), so a chess judge gets
/// an empty list at once.
pub fn forbidden_moves<J: Judge + Clone>(judge: &J) -> Vec<<J::Game as Game>::Move> {
    let mut out = Vec::new();
    if <J::Game as Game>::KIND == Kind::Chess || judge.verdict().is_some() {
        return out;
    }
    let pos = judge.position();
    let mover = pos.turn();
    let history = judge.recurrable();
    // A move can bring back only a position at least three plies old: the one before the
    // opponent's last move differs from any the mover can make by where that move went. So
    // with fewer than four positions since the last capture no move repeats one, and the
    // moves need not be listed (a runner asks every ply).
    if history.is_some_and(|(_, keys)| keys.len() < 4) {
        return out;
    }
    // A standing warning against the mover: the positions of the cycle it must not repeat.
    let cycle: &[u64] = match (judge.pending(), history) {
        (Some(p), Some((base, keys))) if !p.claim && loser(p) == Some(mover) && !keys.is_empty() => {
            let first = p.repetition.as_ref().map_or(p.ply, |r| r.first_ply);
            let from = first.saturating_sub(base).min(keys.len() - 1);
            let to = p.ply.saturating_sub(base).min(keys.len() - 1);
            &keys[from..=to]
        }
        _ => &[],
    };
    let try_move = |m, key: u64, out: &mut Vec<_>| {
        if cycle.contains(&key) {
            out.push(m);
            return;
        }
        let mut after = judge.clone();
        let forbidden = match after.push(m) {
            Ok(Some(v)) => loser(v) == Some(mover),
            Ok(None) => after
                .pending()
                .is_some_and(|p| !p.claim && p.ply == after.ply() && loser(p) == Some(mover)),
            Err(_) => false,
        };
        if forbidden {
            out.push(m);
        }
    };
    // The judge may name the moves that repeat a position itself (the Xiangqi judge does,
    // from where the pieces stand).
    if let Some(back) = judge.moves_back() {
        for (m, key) in back {
            try_move(m, key, &mut out);
        }
        // In the order of the legal moves, as the scan below gives them.
        if out.len() > 1 {
            if let Some(legal) = judge.legal_moves_now() {
                out.sort_by_key(|m| legal.iter().position(|x| x == m));
            }
        }
        return out;
    }
    // The history's keys as a 256-bit filter: most moves' keys miss it and are passed over
    // without a scan of the history, which in a long run without captures is a hundred
    // positions or more for each of some forty moves.
    let mut filter = [0u64; 4];
    for &k in history.map_or(&[][..], |(_, keys)| keys) {
        filter[(k >> 6 & 3) as usize] |= 1 << (k & 63);
    }
    let in_history = |key: u64| {
        history.is_none_or(|(_, keys)| filter[(key >> 6 & 3) as usize] & 1 << (key & 63) != 0 && keys.contains(&key))
    };
    let listed;
    let legal = match judge.legal_moves_now() {
        Some(moves) => moves,
        None => {
            listed = pos.legal_moves();
            &listed[..]
        }
    };
    for &m in legal {
        // A capture makes a position that has never stood (nothing before it can recur).
        if pos.is_zeroing(m) {
            continue;
        }
        let key = pos.key_after(m);
        if in_history(key) {
            try_move(m, key, &mut out);
        }
    }
    out
}
