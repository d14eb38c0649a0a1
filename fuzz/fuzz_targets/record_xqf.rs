//! XQF bytes: the reader returns a record or an error, never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::record_xqf(data));
