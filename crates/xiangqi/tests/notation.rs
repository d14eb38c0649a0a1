//! Every notation round-trips for every legal move of every test position: the perft suite, the
//! positions along the Fairy-Stockfish random games, and the random positions.

use xiangqi::notation::{parse_chinese, parse_wxf, to_chinese, to_wxf, Notation};
use xiangqi::{Move, Position};

fn fixture_fens(name: &str, limit: usize) -> Vec<String> {
    testdata::fixture_lines(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR")))
        .take(limit)
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect()
}

/// Positions along the random games (every ply of the first games).
fn game_positions(limit_games: usize) -> Vec<Position> {
    let path = format!("{}/tests/data/fsf-games.tsv.gz", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for line in testdata::fixture_lines(path).take(limit_games) {
        let cols: Vec<&str> = line.split('\t').collect();
        let mut pos = Position::from_fen(cols[0]).unwrap();
        out.push(pos.clone());
        for m in cols[1].split_whitespace() {
            pos = pos.play(xiangqi::notation::parse_iccs(m).unwrap()).unwrap();
            out.push(pos.clone());
        }
    }
    out
}

fn round_trip(pos: &Position) {
    for &m in pos.legal_moves().iter() {
        // The referee's inline coordinate is the game's ICCS.
        assert_eq!(game::Game::coordinate_inline(pos, m), xiangqi::notation::to_iccs(m));
        for n in [Notation::Iccs, Notation::Fsf, Notation::Wxf, Notation::Chinese] {
            let text = n.write(pos, m);
            assert_eq!(n.parse(pos, &text), Ok(m), "{n:?} {text} for {m} in {}", pos.fen());
        }
    }
}

#[test]
fn perft_suite_positions_round_trip() {
    for line in include_str!("data/xiangqi.epd")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let pos = Position::from_fen(line.split(';').next().unwrap()).unwrap();
        round_trip(&pos);
        for &m in pos.legal_moves().iter() {
            round_trip(&pos.clone().play(m).unwrap());
        }
    }
}

#[test]
fn random_game_positions_round_trip() {
    let positions = game_positions(200);
    assert!(positions.len() > 30_000);
    positions.iter().for_each(round_trip);
}

#[test]
fn random_positions_round_trip() {
    let fens = fixture_fens("fsf-positions.tsv.gz", 30_000);
    for fen in fens {
        round_trip(&Position::from_fen(&fen).unwrap());
    }
}

fn mv(s: &str) -> Move {
    xiangqi::notation::parse_iccs(s).unwrap()
}

/// (FEN, ICCS move, Chinese as we write it, WXF as we write it, other accepted spellings).
const CASES: &[(&str, &str, &str, &str, &[&str])] = &[
    // Three red pawns on file e (五): 前/中/后, WXF P+ / P5 / P-.
    ("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w", "e7d7", "前兵平六", "P+.6", &["P+=6"]),
    (
        "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w",
        "e6d6",
        "中兵平六",
        "P5.6",
        &["中兵平6", "P..6"],
    ),
    (
        "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w",
        "e5f5",
        "后兵平四",
        "P-.4",
        &["後兵平四"],
    ),
    // Red pawns doubled on files f (四) and d (六): xqbase numbers them across files, right to left.
    (
        "3k5/9/3P1P3/3P1P3/9/9/9/9/9/4K4 w",
        "f7e7",
        "一兵平五",
        "4+.5",
        &["Pa.5", "前兵四平五"],
    ),
    (
        "3k5/9/3P1P3/3P1P3/9/9/9/9/9/4K4 w",
        "f6e6",
        "二兵平五",
        "4-.5",
        &["Pb.5", "后兵四平五"],
    ),
    (
        "3k5/9/3P1P3/3P1P3/9/9/9/9/9/4K4 w",
        "d7e7",
        "三兵平五",
        "6+.5",
        &["Pc.5"],
    ),
    (
        "3k5/9/3P1P3/3P1P3/9/9/9/9/9/4K4 w",
        "d6e6",
        "四兵平五",
        "6-.5",
        &["Pd.5"],
    ),
    // Five black pawns on file a (black's １): 一…五 from the front (low ranks for black).
    ("9/3k5/9/9/9/p8/p8/p8/p8/p3K4 b", "a0b0", "一卒平２", "++.2", &[]),
    ("9/3k5/9/9/9/p8/p8/p8/p8/p3K4 b", "a1b1", "二卒平２", "P+.2", &[]),
    (
        "9/3k5/9/9/9/p8/p8/p8/p8/p3K4 b",
        "a2b2",
        "三卒平２",
        "P1.2",
        &["中卒平２", "中卒平2"],
    ),
    ("9/3k5/9/9/9/p8/p8/p8/p8/p3K4 b", "a3b3", "四卒平２", "P-.2", &[]),
    ("9/3k5/9/9/9/p8/p8/p8/p8/p3K4 b", "a4b4", "五卒平２", "--.2", &[]),
    // Tandem rooks, sign before or after the piece.
    (
        "5k3/9/9/9/9/9/4R4/9/4R4/3K5 w",
        "e1f1",
        "后车平四",
        "R-.4",
        &["-R.4", "－Ｒ．４", "R-=4"],
    ),
    // Advisors on one file are never marked: 进/退 tells them apart.
    ("3k5/9/9/9/9/9/9/3A5/9/3A1K3 w", "d2e1", "仕六退五", "A6-5", &[]),
    ("3k5/9/9/9/9/9/9/3A5/9/3A1K3 w", "d0e1", "仕六进五", "A6+5", &["士6进5"]),
];

#[test]
fn several_pieces_on_a_file() {
    for &(fen, iccs, chinese, wxf, others) in CASES {
        let pos = Position::from_fen(fen).unwrap();
        let m = mv(iccs);
        assert!(pos.is_legal(m), "{iccs} in {fen}");
        assert_eq!(to_chinese(&pos, m), chinese, "{fen}");
        assert_eq!(to_wxf(&pos, m), wxf, "{fen}");
        assert_eq!(parse_chinese(&pos, chinese), Ok(m), "{chinese}");
        assert_eq!(parse_wxf(&pos, wxf), Ok(m), "{wxf}");
        for o in others {
            let parsed = if o.is_ascii() {
                parse_wxf(&pos, o)
            } else {
                parse_chinese(&pos, o)
            };
            let parsed = parsed.or_else(|_| parse_wxf(&pos, o));
            assert_eq!(parsed, Ok(m), "{o} in {fen}");
        }
    }
}

#[test]
fn unmarked_tandem_piece_resolved_by_legality() {
    // Red horses on c2 and c6 (file 七); the rear one's forward squares are blocked, so
    // 马七进六 can only be the front horse (real records write it this way).
    let pos = Position::from_fen("3k5/9/9/2N6/9/9/2P6/2N6/9/4K4 w").unwrap();
    let m = parse_chinese(&pos, "马七进六").unwrap();
    assert_eq!(m.to_string(), "c6d8");
    assert_eq!(to_chinese(&pos, m), "前马进六");
}

#[test]
fn point_01_a_move_that_exposes_the_king_is_named_in_every_notation() {
    use xiangqi::notation::{parse_any, NotationError};
    // Red's king steps beside black's on an open file: the pieces allow it, the kings face.
    let pos = Position::from_fen("3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1").unwrap();
    let e0d0 = xiangqi::notation::parse_iccs("e0d0").unwrap();
    for text in ["帅五平六", "帥5平6", "K5.6", "e0d0", "E0-D0"] {
        match parse_any(&pos, text) {
            Err(NotationError::Illegal { self_check, .. }) => assert_eq!(self_check, Some(e0d0), "{text}"),
            other => panic!("{text}: {other:?}"),
        }
        assert_eq!(game::Game::parse_self_check(&pos, text), Some(e0d0), "{text}");
    }
    // A move no piece can make names no move; a text in no notation says which it expected.
    let e = parse_any(&pos, "帅五进二").unwrap_err();
    assert!(matches!(e, NotationError::NoMatch { .. }), "{e:?}");
    let e = parse_any(&pos, "hello").unwrap_err();
    assert!(e.is_syntax() && e.to_string().contains("WXF"), "{e}");
    // A coordinate move the pieces cannot make is illegal with nothing to rule on.
    match parse_any(&pos, "e0e2") {
        Err(NotationError::Illegal { self_check: None, .. }) => {}
        other => panic!("{other:?}"),
    }
}
