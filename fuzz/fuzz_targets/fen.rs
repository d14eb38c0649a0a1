//! FEN text → `Fen` → `Position`: never panics; any parsed `Fen` prints and reads back to itself;
//! an accepted position prints a FEN that reads back to the same position, its move list, count
//! and status agree, its key matches a recomputation, and the side not to move is not in check
//! (nor facing the other king). Positions refused only for too many pawns/advisors/elephants are
//! accepted with `ignore_too_many_pieces` and checked the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| arbiter_fuzz::targets::fen(data));
