//! Coordinate notations (`parse_iccs`, `parse_fsf`): never panic; a parsed move prints back to a
//! string that parses to the same move, and playing it from the start position returns a
//! `Result` (legal or not) instead of panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::iccs(data));
