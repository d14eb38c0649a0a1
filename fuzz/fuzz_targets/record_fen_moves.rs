//! `position fen … moves …` lines: read or refused with an error, never a panic; what reads
//! writes back to a line that reads to the same record.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::record_fen_moves(data));
