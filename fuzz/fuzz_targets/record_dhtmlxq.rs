//! DhtmlXQ text: the reader returns records or errors, never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::record_dhtmlxq(data));
