//! WXF notation: the first byte picks one of the fixed positions (`arbiter_fuzz::FENS`), the
//! rest is read with `parse_wxf`. Never panics; a move it returns is legal, and `to_wxf` writes
//! it in a form that reads back as the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::notation::{parse_wxf, to_wxf};

fuzz_target!(|data: &[u8]| {
    let Some((pos, rest)) = arbiter_fuzz::pick(data) else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    if let Ok(m) = parse_wxf(pos, text) {
        assert!(pos.legal_moves().contains(&m), "{text:?} read as {m}, not legal in {}", pos.fen());
        let written = to_wxf(pos, m);
        assert_eq!(parse_wxf(pos, &written), Ok(m), "{text:?} read as {m}, written {written:?}, in {}", pos.fen());
        let _ = xiangqi::notation::parse_any(pos, text);
    }
});
