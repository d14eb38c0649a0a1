//! Coordinate notations (`parse_iccs`, `parse_fsf`): never panic; a parsed move prints back to a
//! string that parses to the same move, and playing it from the start position returns a
//! `Result` (legal or not) instead of panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::notation::{parse_fsf, parse_iccs, to_fsf, to_iccs, to_iccs_pgn};
use xiangqi::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    if let Ok(m) = parse_iccs(s) {
        assert_eq!(parse_iccs(&to_iccs(m)), Ok(m), "{s:?}");
        assert_eq!(parse_iccs(&to_iccs_pgn(m)), Ok(m), "{s:?}");
        assert_eq!(parse_fsf(&to_fsf(m)), Ok(m), "{s:?}");
        let _ = Position::start().play(m);
    }
    if let Ok(m) = parse_fsf(s) {
        assert_eq!(parse_fsf(&to_fsf(m)), Ok(m), "{s:?}");
        assert_eq!(parse_iccs(&to_iccs(m)), Ok(m), "{s:?}");
        let _ = Position::start().play(m);
    }
});
