//! Opening books: every format for both games, the errors of malformed files, and the real
//! PGN samples of `tests/data/records/` read as books.

use std::path::{Path, PathBuf};

use game::{Game, Kind};
use matches::openings::{detect_format, read_openings, read_openings_with, Format, Opening, OpeningOptions};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/openings")
        .join(name)
}

fn read(kind: Kind, name: &str) -> Vec<Opening> {
    read_openings(kind, &data(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// (FEN, moves, line) of each opening, the source checked to be `file:line` or `file#game`.
fn summary(openings: &[Opening], name: &str) -> Vec<(Option<String>, String, String)> {
    let file = data(name).display().to_string();
    openings
        .iter()
        .map(|o| {
            let place = o
                .source
                .strip_prefix(&file)
                .unwrap_or_else(|| panic!("{} is not from {file}", o.source));
            (o.fen.clone(), o.moves.join(" "), place.to_string())
        })
        .collect()
}

fn some(fen: &str) -> Option<String> {
    Some(fen.to_string())
}

#[test]
fn chess_epd() {
    let book = read(Kind::Chess, "chess.epd");
    assert_eq!(
        summary(&book, "chess.epd"),
        [
            (
                some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
                String::new(),
                ":2".to_string()
            ),
            (
                some("rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1"),
                String::new(),
                ":3".to_string()
            ),
            (
                some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
                String::new(),
                ":5".to_string()
            ),
            (
                some("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"),
                "e5d6".to_string(),
                ":6".to_string()
            ),
        ]
    );
    let after = book[3].position::<chess::Position>().unwrap();
    assert_eq!(
        after.fen(),
        "rnbqkbnr/ppp1pppp/3P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    );
}

#[test]
fn xiangqi_fen_lines() {
    let book = read(Kind::Xiangqi, "xiangqi.epd");
    assert_eq!(
        summary(&book, "xiangqi.epd"),
        [
            (
                some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"),
                String::new(),
                ":2".to_string()
            ),
            (
                some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
                String::new(),
                ":3".to_string()
            ),
            (
                some("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"),
                String::new(),
                ":4".to_string()
            ),
            (
                some("3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1"),
                "e1d2".to_string(),
                ":5".to_string()
            ),
        ]
    );
}

#[test]
fn move_lists() {
    let chess = read(Kind::Chess, "chess.txt");
    let moves: Vec<(Option<String>, String, String)> = summary(&chess, "chess.txt");
    assert_eq!(
        moves,
        [
            (None, "e2e4 e7e5".to_string(), ":2".to_string()),
            (None, "d2d4 g8f6 c2c4 e7e6".to_string(), ":3".to_string()),
            // SAN with move numbers, written back in UCI.
            (None, "e2e4 c7c5 g1f3 d7d6".to_string(), ":5".to_string()),
            (None, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1".to_string(), ":6".to_string()),
            (None, "d2d4 d7d5".to_string(), ":7".to_string()),
        ]
    );
    let xiangqi = read(Kind::Xiangqi, "xiangqi.txt");
    assert_eq!(
        summary(&xiangqi, "xiangqi.txt"),
        [
            (None, "h2e2 h9g7 h0g2".to_string(), ":2".to_string()),
            (None, "c3c4".to_string(), ":3".to_string()),
            (None, "b2e2 b9c7 b0c2 a9b9".to_string(), ":4".to_string()),
            (None, "h2e2 h7e7".to_string(), ":6".to_string()),
        ]
    );
    let pos = xiangqi[0].position::<xiangqi::Position>().unwrap();
    assert_eq!(
        Game::fen(&pos),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2"
    );
}

#[test]
fn pgn_main_lines() {
    let chess = read(Kind::Chess, "chess.pgn");
    assert_eq!(
        summary(&chess, "chess.pgn"),
        [
            (None, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6".to_string(), "#1".to_string()),
            (
                some("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
                "g1f3 d7d6 d2d4 c5d4".to_string(),
                "#2".to_string()
            ),
            (None, "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6".to_string(), "#3".to_string()),
        ]
    );
    let xiangqi = read(Kind::Xiangqi, "xiangqi.pgn");
    assert_eq!(
        summary(&xiangqi, "xiangqi.pgn"),
        [
            (None, "h2e2 h9g7 h0g2 i9h9".to_string(), "#1".to_string()),
            (
                some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"),
                "h9g7 h0g2 i9h9".to_string(),
                "#2".to_string()
            ),
        ]
    );
    // A book cut to a few plies.
    let options = OpeningOptions {
        max_plies: Some(2),
        format: None,
    };
    let short = read_openings_with(Kind::Chess, &data("chess.pgn"), &options).unwrap();
    let lines: Vec<String> = short.iter().map(|o| o.moves.join(" ")).collect();
    assert_eq!(lines, ["e2e4 e7e5", "g1f3 d7d6", "d2d4 d7d5"]);
    let short = read_openings_with(Kind::Chess, &data("chess.txt"), &options).unwrap();
    assert!(short.iter().all(|o| o.moves.len() <= 2));
}

/// The error of a malformed file, checked for where it points and that its text says so.
fn error(kind: Kind, name: &str) -> matches::openings::OpeningError {
    let e = read_openings(kind, &data(name)).expect_err(name);
    let text = e.to_string();
    assert!(text.starts_with(&data(name).display().to_string()), "{text}");
    e
}

#[test]
fn malformed_files_name_the_line_and_the_move() {
    let e = error(Kind::Chess, "chess-bad.epd");
    assert_eq!((e.line, e.ply, e.token.as_deref()), (Some(2), Some(3), Some("e8e6")));
    assert!(e.to_string().contains(":2: ply 3, move \"e8e6\""), "{e}");

    let e = error(Kind::Chess, "chess-bad-fen.epd");
    assert_eq!((e.line, e.ply), (Some(2), None));
    assert!(e.message.contains("FEN"), "{e}");

    let e = error(Kind::Xiangqi, "xiangqi-bad.epd");
    assert_eq!((e.line, e.ply, e.token.as_deref()), (Some(2), Some(3), Some("g7e6")));

    let e = error(Kind::Chess, "chess-bad.txt");
    assert_eq!((e.line, e.ply, e.token.as_deref()), (Some(3), Some(3), Some("g1g3")));
    assert!(e.to_string().contains("white to move"), "{e}");

    let e = error(Kind::Xiangqi, "xiangqi-bad.txt");
    assert_eq!((e.line, e.ply, e.token.as_deref()), (Some(2), Some(3), Some("h0h2")));
    assert!(e.to_string().contains("red to move"), "{e}");

    let e = error(Kind::Chess, "chess-bad.pgn");
    assert_eq!((e.game, e.line, e.ply), (Some(2), Some(6), Some(5)));
    assert!(e.to_string().contains("Qh5"), "{e}");

    let e = error(Kind::Xiangqi, "xiangqi-bad.pgn");
    assert_eq!((e.game, e.line, e.ply), (Some(2), Some(7), Some(3)));
    assert!(e.to_string().contains("(game 2)"), "{e}");

    // The wrong game: Xiangqi moves are no chess.
    let e = read_openings(Kind::Chess, &data("xiangqi.txt")).unwrap_err();
    assert_eq!((e.line, e.ply), (Some(2), Some(1)));
    let e = read_openings(Kind::Xiangqi, &data("chess.epd")).unwrap_err();
    assert_eq!(e.line, Some(2));

    // A missing file, and a file with no openings.
    let e = read_openings(Kind::Chess, &data("no-such-file.epd")).unwrap_err();
    assert!(e.to_string().contains("no-such-file.epd"));
    let forced = OpeningOptions {
        max_plies: None,
        format: Some(Format::Epd),
    };
    let e = read_openings_with(Kind::Chess, &data("chess.txt"), &forced).unwrap_err();
    assert_eq!(e.line, Some(2));
    assert!(e.message.contains("expected a FEN"), "{e}");
}

#[test]
fn formats_are_told_by_name_then_content() {
    let txt = Path::new("book.txt");
    assert_eq!(detect_format(Path::new("a.PGN"), b"e2e4"), Format::Pgn);
    assert_eq!(detect_format(Path::new("a.epd"), b"e2e4"), Format::Epd);
    assert_eq!(detect_format(txt, b"# c\n\n[Event \"x\"]\n"), Format::Pgn);
    assert_eq!(detect_format(txt, b"1. e4 e5 2. Nf3 *\n"), Format::Pgn);
    assert_eq!(
        detect_format(txt, b"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\n"),
        Format::Epd
    );
    assert_eq!(detect_format(txt, b"# moves\nh2e2 h9g7\n"), Format::Moves);
    assert_eq!(detect_format(txt, b"position startpos moves e2e4\n"), Format::Moves);
    assert_eq!("epd".parse::<Format>(), Ok(Format::Epd));
    assert!("xqf".parse::<Format>().is_err());
}

/// The 340 games of the CCPD sample (Big5, Chinese notation) as an 8-ply book, against the
/// main lines of its `.expected.tsv` (replayed by an independent generator).
#[test]
fn a_real_xiangqi_pgn_as_a_book() {
    let expected = std::fs::read_to_string(testdata::record_file("xiangqi-ccpd/ccpd-sample.expected.tsv")).unwrap();
    let options = OpeningOptions {
        max_plies: Some(8),
        format: None,
    };
    let book = read_openings_with(
        Kind::Xiangqi,
        &testdata::record_file("xiangqi-ccpd/ccpd-sample.big5.pgn"),
        &options,
    )
    .unwrap();
    let rows: Vec<&str> = expected.lines().skip(1).collect();
    assert_eq!(book.len(), 340);
    assert_eq!(rows.len(), book.len());
    for (opening, row) in book.iter().zip(rows) {
        let fields: Vec<&str> = row.split('\t').collect();
        let start: xiangqi::Position = Game::from_fen(fields[2]).unwrap();
        // Every record has a FEN tag, so every opening names its start.
        assert_eq!(
            opening.fen.as_deref(),
            Some(Game::fen(&start).as_str()),
            "{}",
            opening.source
        );
        let line: Vec<&str> = fields[6].split_whitespace().take(8).collect();
        assert_eq!(opening.moves, line, "{}", opening.source);
    }
}

/// The 438 games of the lichess sample read whole: the same number of plies as the expected
/// file, and the same final position.
#[test]
fn a_real_chess_pgn_as_a_book() {
    let expected = std::fs::read_to_string(testdata::record_file(
        "chess-lichess/lichess-2025-05-sample.expected.tsv",
    ))
    .unwrap();
    let book = read_openings(
        Kind::Chess,
        &testdata::record_file("chess-lichess/lichess-2025-05-sample.pgn"),
    )
    .unwrap();
    let rows: Vec<&str> = expected.lines().skip(1).collect();
    assert_eq!(book.len(), 438);
    assert_eq!(rows.len(), book.len());
    for (opening, row) in book.iter().zip(rows) {
        let fields: Vec<&str> = row.split('\t').collect();
        assert_eq!(opening.fen, None, "{}", opening.source);
        assert_eq!(opening.moves.len().to_string(), fields[4], "{}", opening.source);
        let end = opening.position::<chess::Position>().unwrap();
        assert_eq!(end.fen(), fields[6], "{}", opening.source);
    }
}
