//! Extra target (beyond the five asked for): any position a FEN yields, including those
//! accepted by `ignore_too_many_pieces`, has every legal move written in each notation and read
//! back, and played and taken back with `do_move` / `undo_move`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::{Fen, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    let Ok(fen) = s.parse::<Fen>() else { return };
    let Ok(pos) = Position::from_setup(fen.into_setup()).or_else(|e| e.ignore_too_many_pieces()) else { return };
    let mut work = pos.clone();
    for &m in pos.legal_moves().iter() {
        arbiter_fuzz::check_notations(&pos, m);
        let undo = work.do_move(m);
        assert_eq!(work.key(), work.compute_key(), "key after {m} in {}", pos.fen());
        let _ = work.legal_moves();
        work.undo_move(m, undo);
        assert_eq!(work, pos, "undo {m}");
    }
});
