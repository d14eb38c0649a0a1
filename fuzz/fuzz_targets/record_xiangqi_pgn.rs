//! Xiangqi PGN bytes in any encoding: reading never panics; every game that reads writes back
//! as PGN that reads to the same move tree.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::record_xiangqi_pgn(data));
