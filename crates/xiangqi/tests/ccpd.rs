//! The 340 real games of `tests/data/records/xiangqi-ccpd/` (CCPD, CC BY 4.0: Tseng & Chen,
//! Chinese Chess Practical Dataset, 2026) replay from their Chinese notation — Big5 and UTF-8
//! copies alike — to exactly the ICCS lines of `ccpd-sample.expected.tsv`, and the final board
//! has the recorded status (checkmate / stalemate / none).
//!
//! The movetext reading here is deliberately minimal (tags, move numbers, results, comments);
//! the full PGN reader belongs to the records crate.

use xiangqi::notation::{parse_chinese, to_chinese, to_iccs};
use xiangqi::{Color, Position, Status};

struct Expected {
    fen: String,
    status: String,
    iccs: Vec<String>,
}

fn expected() -> Vec<Expected> {
    let path = testdata::record_file("xiangqi-ccpd/ccpd-sample.expected.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            Expected {
                fen: c[2].to_string(),
                status: c[5].to_string(),
                iccs: c
                    .get(6)
                    .map(|m| m.split_whitespace().map(String::from).collect())
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// Splits a PGN text into games, each the list of its move tokens.
fn games(text: &str) -> Vec<Vec<String>> {
    let mut games: Vec<Vec<String>> = Vec::new();
    // A tag line after anything but another tag line starts a game (games may have no moves).
    let mut last_was_tag = false;
    let mut in_comment = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') && !in_comment {
            if !last_was_tag {
                games.push(Vec::new());
            }
            last_was_tag = true;
            continue;
        }
        last_was_tag = false;
        for tok in line.split_whitespace() {
            if in_comment {
                in_comment = !tok.contains('}');
                continue;
            }
            if tok.starts_with('{') {
                in_comment = !tok.contains('}');
                continue;
            }
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&tok) {
                continue;
            }
            let tok = tok.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if tok.is_empty() {
                continue;
            }
            games.last_mut().expect("a game").push(tok.to_string());
        }
    }
    games
}

fn replay(name: &str, text: &str) {
    let expected = expected();
    let games = games(text);
    assert_eq!(games.len(), expected.len(), "{name}: game count");
    let mut moves = 0;
    for (i, (tokens, exp)) in games.iter().zip(&expected).enumerate() {
        let mut pos = Position::from_fen(&exp.fen).unwrap();
        let mut line = Vec::new();
        for (ply, tok) in tokens.iter().enumerate() {
            let m = parse_chinese(&pos, tok)
                .unwrap_or_else(|e| panic!("{name} game {} ply {}: {e} in {}", i + 1, ply + 1, pos.fen()));
            // Our own writing of the move reads back to the same move.
            assert_eq!(parse_chinese(&pos, &to_chinese(&pos, m)), Ok(m));
            line.push(to_iccs(m));
            pos.play_unchecked(m);
            moves += 1;
        }
        assert_eq!(line, exp.iccs, "{name} game {}", i + 1);
        let status = match pos.status() {
            Status::Ongoing => "-".to_string(),
            s => {
                let side = if pos.turn() == Color::Red { "red" } else { "black" };
                let what = if s == Status::Checkmate {
                    "checkmate"
                } else {
                    "stalemate"
                };
                format!("{what} ({side} to move)")
            }
        };
        assert_eq!(status, exp.status, "{name} game {} final status", i + 1);
    }
    assert_eq!(moves, expected.iter().map(|e| e.iccs.len()).sum::<usize>());
    assert!(moves > 24_000, "{moves} moves replayed");
}

#[test]
fn utf8_games_replay() {
    let bytes = std::fs::read(testdata::record_file("xiangqi-ccpd/ccpd-sample.utf8.pgn")).unwrap();
    replay("utf8", std::str::from_utf8(&bytes).unwrap());
}

#[test]
fn big5_games_replay() {
    let bytes = std::fs::read(testdata::record_file("xiangqi-ccpd/ccpd-sample.big5.pgn")).unwrap();
    let (text, _, had_errors) = encoding_rs::BIG5.decode(&bytes);
    assert!(!had_errors);
    replay("big5", &text);
}
