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
    let bytes =
        std::fs::read(testdata::shared().join("data/records/chess-lichess/lichess-2025-05-sample.pgn")).unwrap();
    ChessGames::new(&bytes[..]).collect::<Result<_, _>>().unwrap()
}

#[test]
fn lichess_sample_replays_to_the_expected_positions() {
    let games = lichess();
    let tsv = std::fs::read_to_string(
        testdata::shared().join("data/records/chess-lichess/lichess-2025-05-sample.expected.tsv"),
    )
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
