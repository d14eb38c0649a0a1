//! Random games: the first byte picks a start position from `arbiter_fuzz::FENS`, each further
//! byte indexes the legal move list (modulo its length). Every position reached is checked
//! (list/count/status agree, incremental key = recomputed key, FEN round trip), each move played
//! and every legal move of the final position is written in ICCS, FSF, WXF and Chinese and must
//! read back as itself (checking all moves at every ply ran at only ~160 exec/s), and after the
//! game every move is taken back with `undo_move`, the position and key compared at each step.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::{Move, Position, Undo};

fuzz_target!(|data: &[u8]| {
    let Some((start, rest)) = arbiter_fuzz::pick(data) else { return };
    let mut pos = start.clone();
    let mut stack: Vec<(Move, Undo, Position)> = Vec::new();
    for &b in rest.iter().take(200) {
        arbiter_fuzz::check_position(&pos, |setup| Position::from_setup(setup).ok());
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[b as usize % moves.len()];
        arbiter_fuzz::check_notations(&pos, m);
        let before = pos.clone();
        let undo = pos.do_move(m);
        assert_eq!(pos.key(), pos.compute_key(), "key after {m} from {}", before.fen());
        assert_eq!(pos.clone(), before.clone().play(m).expect("listed move plays"), "do_move vs play");
        stack.push((m, undo, before));
    }
    arbiter_fuzz::check_position(&pos, |setup| Position::from_setup(setup).ok());
    for &m in pos.legal_moves().iter() {
        arbiter_fuzz::check_notations(&pos, m);
    }
    while let Some((m, undo, before)) = stack.pop() {
        pos.undo_move(m, undo);
        assert_eq!(pos, before, "undo {m}");
        assert_eq!(pos.key(), pos.compute_key(), "key after undoing {m}");
    }
    assert_eq!(&pos, start);
});
