//! `position fen … moves …` lines: read or refused with an error, never a panic; what reads
//! writes back to a line that reads to the same record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use records::files::{read_fen_moves, write_fen_moves};

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else { return };
    if line.contains('\n') {
        return;
    }
    let Ok(rec) = read_fen_moves(line) else { return };
    let mut out = String::new();
    write_fen_moves(&rec, &mut out).unwrap();
    let again = read_fen_moves(out.trim_end()).unwrap_or_else(|e| panic!("{out:?}: {e:?}"));
    assert_eq!(again, rec);
});
