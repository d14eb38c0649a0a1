//! Chess PGN bytes: reading never panics; every game writes back and reads to the same tree.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::record_chess_pgn(data));
