//! WXF notation: the first byte picks one of the fixed positions (`arbiter_fuzz::FENS`), the
//! rest is read with `parse_wxf`. Never panics; a move it returns is legal, and `to_wxf` writes
//! it in a form that reads back as the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::wxf(data));
