//! FEN text → `Fen` → `Position`: never panics; any parsed `Fen` prints and reads back to itself;
//! an accepted position prints a FEN that reads back to the same position, its move list, count
//! and status agree, its key matches a recomputation, and the side not to move is not in check
//! (nor facing the other king). Positions refused only for too many pawns/advisors/elephants are
//! accepted with `ignore_too_many_pieces` and checked the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::{Fen, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    let Ok(fen) = s.parse::<Fen>() else { return };
    // Printing any parsed FEN must not panic either, and must read back to the same setup.
    let printed = fen.to_string();
    let reread: Fen = printed.parse().unwrap_or_else(|e| panic!("printed FEN {printed:?} does not parse: {e}"));
    assert_eq!(reread, fen, "Fen round trip of {printed:?}");
    let _ = fen.board_and_turn();
    match Position::from_setup(fen.into_setup()) {
        Ok(pos) => arbiter_fuzz::check_position(&pos, |setup| Position::from_setup(setup).ok()),
        Err(err) => {
            let _ = err.to_string();
            if let Ok(pos) = err.ignore_too_many_pieces() {
                arbiter_fuzz::check_position(&pos, |setup| {
                    Position::from_setup(setup).or_else(|e| e.ignore_too_many_pieces()).ok()
                });
            }
        }
    }
});
