//! A TRF of any bytes: read it, pair the next round and check every round — an error is fine,
//! a panic is not.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::trf_pair(data));
