//! Chess PGN bytes: reading never panics; every game writes back and reads to the same tree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use records::chess::{write_pgn, ChessGames};

fuzz_target!(|data: &[u8]| {
    for game in ChessGames::new(data).take(50) {
        let Ok(game) = game else { return };
        if !game.issues.is_empty() {
            continue;
        }
        let mut text = String::new();
        write_pgn(&game, &mut text).unwrap();
        let again: Vec<_> = ChessGames::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
        assert_eq!(again.len(), 1, "{text}");
        assert_eq!(again[0].tree, game.tree, "{text}");
    }
});
