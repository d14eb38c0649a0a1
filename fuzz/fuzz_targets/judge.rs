//! Games judged under every Xiangqi ruleset, ruled at the trigger and with the offender told
//! to vary: the first byte picks a start position from `arbiter_fuzz::FENS`; each further byte
//! either replays the reverse of the mover's previous move when that is legal (high bit set:
//! repetitions, checks and chases come often) or indexes the legal move list. The judges must
//! never panic, must agree on checkmate and stalemate, and every verdict must serialise with
//! its cycle (one classified move per ply of the span).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::judge(data));
