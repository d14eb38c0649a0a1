//! An engine's output, cut into reads of every size: the lines `arbiter match` acts on (and
//! what the `info` lines before each said) are those of a plain model that cuts the whole
//! output at newlines, and nothing panics. Input: four bytes of sizes, then the output
//! (`engine::lines::check_against_model`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::engine_output(data));
