//! Random games: the first byte picks a start position from `arbiter_fuzz::FENS`, each further
//! byte indexes the legal move list (modulo its length). Every position reached is checked
//! (list/count/status agree, incremental key = recomputed key, FEN round trip), each move played
//! and every legal move of the final position is written in ICCS, FSF, WXF and Chinese and must
//! read back as itself (checking all moves at every ply ran at only ~160 exec/s), and after the
//! game every move is taken back with `undo_move`, the position and key compared at each step.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::play(data));
