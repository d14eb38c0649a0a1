//! DhtmlXQ text: the reader returns records or errors, never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, _) = records::text::decode_detected(data);
    let _ = records::dhtmlxq::read_dhtmlxq_blocks(&text);
});
