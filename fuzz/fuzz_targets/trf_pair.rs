//! A TRF of any bytes: read it, pair the next round and check every round — an error is fine,
//! a panic is not.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tournament::{dutch, trf::Trf};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(trf) = Trf::parse(&text) else { return };
    // Keep runs short: the pairing of big fields is timed elsewhere.
    if trf.players.len() > 40 || dutch::rounds_paired(&trf) > 12 {
        return;
    }
    let _ = dutch::pair_next(&trf);
    let _ = dutch::check(&trf);
});
