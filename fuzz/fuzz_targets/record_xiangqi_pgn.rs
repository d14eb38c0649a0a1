//! Xiangqi PGN bytes in any encoding: reading never panics; every game that reads writes back
//! as PGN that reads to the same move tree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use records::pgn::{write_pgn, XiangqiGames};
use xiangqi::notation::Notation;

fuzz_target!(|data: &[u8]| {
    for game in XiangqiGames::new(data).take(50) {
        let Ok(game) = game else { return };
        let mut text = String::new();
        write_pgn(&game, Notation::Chinese, &mut text).unwrap();
        let again: Vec<_> = XiangqiGames::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
        assert_eq!(again.len(), 1, "{text}");
        assert_eq!(again[0].tree, game.tree, "{text}");
    }
});
