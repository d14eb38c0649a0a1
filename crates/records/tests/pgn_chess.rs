//! Chess PGN: the 438 Lichess games read with every move checked, their final positions equal
//! python-chess's, and writing then reading again gives the same games.

use records::chess::{write_pgn, ChessGames, ChessRecord};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position};

fn final_fen(r: &ChessRecord) -> String {
    let mut pos: Chess = records::chess::start_position(r);
    for m in r.tree.main_line() {
        pos.play_unchecked(*m);
    }
    Fen::from_position(&pos, EnPassantMode::Legal).to_string()
}

fn lichess() -> Vec<ChessRecord> {
    let bytes = std::fs::read(testdata::record_file("chess-lichess/lichess-2025-05-sample.pgn")).unwrap();
    ChessGames::new(&bytes[..]).collect::<Result<_, _>>().unwrap()
}

#[test]
fn lichess_sample_replays_to_the_expected_positions() {
    let games = lichess();
    let tsv = std::fs::read_to_string(testdata::record_file(
        "chess-lichess/lichess-2025-05-sample.expected.tsv",
    ))
    .unwrap();
    let rows: Vec<Vec<&str>> = tsv.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    assert_eq!(games.len(), rows.len());
    for (g, row) in games.iter().zip(&rows) {
        assert!(g.issues.is_empty(), "game {}: {:?}", row[0], g.issues);
        assert_eq!(g.tags.get("Site"), Some(row[1]));
        assert_eq!(g.tags.get("Result"), Some(row[2]));
        assert_eq!(g.tags.get("Termination"), Some(row[3]));
        assert_eq!(g.tree.main_line().count().to_string(), row[4], "game {}", row[0]);
        assert_eq!(final_fen(g), row[6], "game {}", row[0]);
        // Clock comments are kept.
        if let Some(first) = g.tree.main_line_nodes().next() {
            assert!(g.tree.comment(first).unwrap_or("").contains("%clk"), "game {}", row[0]);
        }
    }
}

#[test]
fn write_then_read_gives_the_same_games() {
    let games = lichess();
    let mut text = String::new();
    for g in &games {
        write_pgn(g, &mut text).unwrap();
        text.push('\n');
    }
    let again: Vec<ChessRecord> = ChessGames::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
    assert_eq!(again.len(), games.len());
    for (a, b) in games.iter().zip(&again) {
        assert_eq!(a.tree, b.tree);
        assert_eq!(a.tags, b.tags);
        assert_eq!(a.start_fen, b.start_fen);
    }
}

#[test]
fn variations_fen_and_illegal_moves() {
    let pgn = "[Event \"x\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 (1. e3 Kd7 $2 { alt }) Ke7 2. Qh5 Kd6 1-0\n\n[Event \"y\"]\n\n1. e4 e5 *\n";
    let games: Vec<ChessRecord> = ChessGames::new(pgn.as_bytes()).collect::<Result<_, _>>().unwrap();
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(g.tree.main_line().count(), 2);
    assert_eq!(g.tree.len(), 5);
    assert_eq!(g.issues.len(), 1);
    assert_eq!(g.issues[0].ply, Some(3));
    assert_eq!(games[1].tree.main_line().count(), 2);
    let mut text = String::new();
    write_pgn(g, &mut text).unwrap();
    assert!(text.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]"), "{text}");
    assert!(text.contains("(1. e3 Kd7 $2 { alt })"), "{text}");
}

/// Games of every shape in a row — a FEN start, variations, an illegal move, then a plain game —
/// so that a reused record must really be emptied between them.
const MIXED: &str = "[Event \"x\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 (1. e3 Kd7 $2 { alt }) Ke7 2. Qh5 Kd6 1-0\n\n[Event \"y\"]\n\n{ start } 1. e4 e5 *\n\n[Event \"z\"]\n\n1. e4 e5 2. Nf3 { [%clk 0:03:00] } 2... Nc6 (2... d6 3. d4) 1/2-1/2\n";

#[test]
fn read_into_reuses_storage_and_gives_the_iterators_games() {
    let mut text = lichess_text();
    text.push_str(MIXED);
    text.push_str(MIXED);
    let want: Vec<ChessRecord> = ChessGames::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
    let mut games = ChessGames::new(text.as_bytes());
    let mut record = ChessRecord::new(records::chess::START_FEN);
    let mut got = Vec::new();
    while games.read_into(&mut record).unwrap() {
        got.push(record.clone());
    }
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "game {i}");
        assert_eq!(g.start_fen, w.start_fen, "game {i}");
    }
}

#[test]
fn main_line_option_skips_comments_and_variations_only() {
    let mut text = lichess_text();
    text.push_str(MIXED);
    let full: Vec<ChessRecord> = ChessGames::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
    let lean: Vec<ChessRecord> = ChessGames::new(text.as_bytes())
        .with_options(records::ReadOptions::MAIN_LINE)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(full.len(), lean.len());
    let mut comments = 0;
    for (f, l) in full.iter().zip(&lean) {
        assert_eq!(f.tags, l.tags);
        assert_eq!(f.start_fen, l.start_fen);
        assert!(f.tree.main_line().eq(l.tree.main_line()));
        // Only the main line is kept, and no comment anywhere.
        assert_eq!(l.tree.len(), l.tree.main_line().count() + 1);
        assert!((0..l.tree.len() as u32).all(|id| l.tree.comment(id).is_none()));
        comments += (0..f.tree.len() as u32)
            .filter(|&id| f.tree.comment(id).is_some())
            .count();
    }
    assert!(comments > 28_000, "the full read keeps the clock comments ({comments})");
}

fn lichess_text() -> String {
    std::fs::read_to_string(testdata::record_file("chess-lichess/lichess-2025-05-sample.pgn")).unwrap()
}
