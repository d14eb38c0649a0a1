//! 象棋桥 CCBridge binaries: the 93-game library reads to the expected games, `test.cbr` reads
//! with its variations and comments, and damaged input gives errors or issues, never a panic.

use records::cbr::{read_cbl, read_cbr, CbrError};
use records::{MoveTree, NodeId, XiangqiRecord};
use xiangqi::notation::to_iccs;
use xiangqi::Move;

fn data(file: &str) -> Vec<u8> {
    let path = testdata::record_file("xiangqi-xqf").join(file);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn library() -> Vec<u8> {
    data("national-championship-1956-93-games.CBL")
}

fn main_line(r: &XiangqiRecord) -> String {
    r.tree.main_line().map(|&m| to_iccs(m)).collect::<Vec<_>>().join(" ")
}

fn board_and_turn(fen: &str) -> String {
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

const ROOT: NodeId = MoveTree::<Move>::ROOT;

#[test]
fn library_reads_all_93_games_as_expected() {
    let lib = read_cbl(&library()).unwrap();
    assert_eq!(lib.name, "1956年全国象棋锦标赛93局");
    assert!(lib.description.contains("1956年全国象棋锦标赛"), "{}", lib.description);
    assert!(lib.issues.is_empty(), "{:?}", lib.issues);

    let expected = String::from_utf8(data("cbl-expected.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = expected.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 93);
    assert_eq!(lib.games.len(), rows.len());
    for (game, row) in lib.games.iter().zip(&rows) {
        let n = row[0];
        let g = game.as_ref().unwrap_or_else(|e| panic!("game {n}: {e}"));
        assert!(g.issues.is_empty(), "game {n}: {:?}", g.issues);
        assert_eq!(g.tags.get("Title"), Some(row[1]), "game {n}");
        assert_eq!(g.tags.get("Red"), Some(row[2]), "game {n}");
        assert_eq!(g.tags.get("Black"), Some(row[3]), "game {n}");
        assert_eq!(g.tags.get("Result"), Some(row[4]), "game {n}");
        assert_eq!(board_and_turn(&g.start_fen), row[5], "game {n}");
        assert_eq!(g.tree.main_line().count(), row[6].parse::<usize>().unwrap(), "game {n}");
        assert_eq!(main_line(g), row[7], "game {n}");
        // No variations in this library: the tree is the main line.
        assert_eq!(g.tree.len(), g.tree.main_line().count() + 1, "game {n}");
    }
    let first = lib.games[0].as_ref().unwrap();
    assert_eq!(first.tags.get("Event"), Some("1956年全国象棋锦标赛（初赛）"));
    assert_eq!(first.tags.get("Date"), Some("1956年12月17日"));
    assert_eq!(first.tags.get("Site"), Some("北京市"));
    assert_eq!(first.tags.get("ECCO"), Some("D22"));
}

#[test]
fn test_cbr_reads_tree_comments_and_tags() {
    let r = read_cbr(&data("test.cbr")).unwrap();
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    assert_eq!(r.tags.get("Title"), Some("黄丹青讲座004-破解新式弃马局的攻防要领"));
    assert_eq!(r.tags.get("ECCO"), Some("C32"));
    assert_eq!(r.tags.get("Result"), Some("*"));
    // Empty fields give no tag, though the file holds leftover memory after their NUL.
    assert_eq!(r.tags.get("Black"), None);
    assert_eq!(r.tags.get("Red"), None);
    assert_eq!(
        r.start_fen,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    assert_eq!(
        main_line(&r),
        "h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 c3c4 c9e7 b0c2 d9e8 h6g6 b7b3 g3g4 g5g4 g6g7 g4g3 g2e1 h7h0 \
         c2d4 h9h1 b2b1 h1h2 e1c2 h2f2 d0e1 f2g2"
    );
    // 102 moves in 12 lines; 13 comments.
    assert_eq!(r.tree.len(), 103);
    let leaves = (0..r.tree.len() as NodeId)
        .filter(|&n| r.tree.node(n).first_child.is_none())
        .count();
    assert_eq!(leaves, 12);
    let comments = (0..r.tree.len() as NodeId)
        .filter(|&n| r.tree.comment(n).is_some())
        .count();
    assert_eq!(comments, 13);
    // Nodes are stored in file order, so these ids are the record numbers.
    let branching: Vec<(NodeId, Vec<String>)> = (0..r.tree.len() as NodeId)
        .filter(|&n| r.tree.children(n).count() > 1)
        .map(|n| {
            (
                n,
                r.tree
                    .children(n)
                    .map(|c| to_iccs(r.tree.node(c).mv.unwrap()))
                    .collect(),
            )
        })
        .collect();
    let expected: Vec<(NodeId, Vec<&str>)> = vec![
        (20, vec!["c2d4", "e3e4"]),
        (29, vec!["h9h3", "b3i3"]),
        (32, vec!["a0a3", "e2i2"]),
        (38, vec!["g7g3", "g2h0"]),
        (43, vec!["b3b5", "d9d5"]),
        (66, vec!["g7g3", "e2i2"]),
        (79, vec!["h3h2", "f5f1"]),
        (84, vec!["d0e1", "a2a1"]),
        (89, vec!["i0i3", "h3h2", "h3i3"]),
        (92, vec!["h2e2", "i0i6"]),
    ];
    let expected: Vec<(NodeId, Vec<String>)> = expected
        .into_iter()
        .map(|(n, v)| (n, v.into_iter().map(String::from).collect()))
        .collect();
    assert_eq!(branching, expected);
    let ply11 = r.tree.main_line_nodes().nth(10).unwrap();
    assert_eq!(r.tree.comment(ply11), Some("不急用平车压马，黑有炮8平9，马3退5变化。"));
    assert_eq!(r.tree.comment(ROOT), None);
}

/// Layout offsets of a record, for building damaged and synthetic ones.
const BOARD: usize = 2120;
const MOVES: usize = 2214;

/// A record with `test.cbr`'s header, the given board (row 0 = black's back rank) and side,
/// an opening comment, and raw move bytes.
fn synthetic(board: &[u8; 90], side: u32, opening: Option<&str>, moves: &[u8]) -> Vec<u8> {
    let mut b = data("test.cbr")[..MOVES].to_vec();
    b[BOARD..BOARD + 90].copy_from_slice(board);
    b[2112..2116].copy_from_slice(&side.to_le_bytes());
    match opening {
        Some(c) => {
            let text: Vec<u8> = c.encode_utf16().flat_map(u16::to_le_bytes).collect();
            b.extend_from_slice(&1u32.to_le_bytes());
            b.extend_from_slice(&(text.len() as u32).to_le_bytes());
            b.extend_from_slice(&text);
        }
        None => b.extend_from_slice(&0u32.to_le_bytes()),
    }
    b.extend_from_slice(moves);
    b
}

/// Board index of an ICCS square.
fn idx(sq: &str) -> u8 {
    let b = sq.as_bytes();
    (9 - (b[1] - b'0')) * 9 + (b[0] - b'a')
}

fn rec(flags: u8, from: &str, to: &str, comment: Option<&str>) -> Vec<u8> {
    let mut v = vec![flags | if comment.is_some() { 4 } else { 0 }, 0, idx(from), idx(to)];
    if let Some(c) = comment {
        let text: Vec<u8> = c.encode_utf16().flat_map(u16::to_le_bytes).collect();
        v.extend_from_slice(&(text.len() as u32).to_le_bytes());
        v.extend_from_slice(&text);
    }
    v
}

fn endgame_board() -> [u8; 90] {
    let mut board = [0u8; 90];
    board[idx("e9") as usize] = 0x25; // black king
    board[idx("a9") as usize] = 0x21; // black rook
    board[idx("d0") as usize] = 0x15; // red king
    board[idx("i0") as usize] = 0x11; // red rook
    board
}

#[test]
fn synthetic_black_to_move_with_variation_comments_and_an_illegal_branch() {
    let mut moves = Vec::new();
    // Main line: a9a8 i0i1 a8a0; alternative to a9a8: e9f9 with an illegal reply d0d2
    // (two steps), so only e9f9 survives in that line.
    moves.extend(rec(0x02, "a9", "a8", Some("first")));
    moves.extend(rec(0x00, "i0", "i1", None));
    moves.extend(rec(0x01, "a8", "a0", Some("check")));
    moves.extend(rec(0x00, "e9", "f9", None));
    moves.extend(rec(0x00, "d0", "d2", None));
    moves.extend(rec(0x01, "f9", "f8", None));
    let bytes = synthetic(&endgame_board(), 2, Some("opening words"), &moves);
    let r = read_cbr(&bytes).unwrap();
    assert_eq!(board_and_turn(&r.start_fen), "r3k4/9/9/9/9/9/9/9/9/3K4R b");
    assert_eq!(r.tree.comment(ROOT), Some("opening words"));
    assert_eq!(main_line(&r), "a9a8 i0i1 a8a0");
    let first: Vec<String> = r
        .tree
        .children(ROOT)
        .map(|c| to_iccs(r.tree.node(c).mv.unwrap()))
        .collect();
    assert_eq!(first, ["a9a8", "e9f9"]);
    assert_eq!(r.tree.len(), 5);
    assert_eq!(r.issues.len(), 1, "{:?}", r.issues);
    assert_eq!(r.issues[0].ply, Some(2));
    assert!(r.issues[0].message.contains("d0d2"), "{}", r.issues[0].message);
    let check = r.tree.main_line_nodes().nth(2).unwrap();
    assert_eq!(r.tree.comment(check), Some("check"));
}

#[test]
fn header_side_disagreeing_with_the_first_move_follows_the_moves() {
    let moves = rec(0x01, "a9", "a8", None);
    let r = read_cbr(&synthetic(&endgame_board(), 1, None, &moves)).unwrap();
    assert_eq!(board_and_turn(&r.start_fen), "r3k4/9/9/9/9/9/9/9/9/3K4R b");
    assert_eq!(main_line(&r), "a9a8");
    assert_eq!(r.issues.len(), 1, "{:?}", r.issues);
}

#[test]
fn empty_game_and_bad_boards() {
    let r = read_cbr(&synthetic(&endgame_board(), 1, None, &[])).unwrap();
    assert!(r.tree.is_empty());
    assert!(r.issues.is_empty(), "{:?}", r.issues);

    let mut board = endgame_board();
    board[40] = 0x38;
    let e = read_cbr(&synthetic(&board, 1, None, &[])).unwrap_err();
    assert!(
        matches!(e, CbrError::BadPiece { code: 0x38, offset } if offset == BOARD + 40),
        "{e}"
    );

    let mut board = endgame_board();
    board[idx("e9") as usize] = 0;
    let e = read_cbr(&synthetic(&board, 1, None, &[])).unwrap_err();
    assert!(matches!(e, CbrError::Position(_)), "{e}");
}

#[test]
fn illegal_move_in_test_cbr_drops_only_its_line() {
    let mut bytes = data("test.cbr");
    // Record 22 (ply 22, h9h1 in the line of c2d4): make it a9a0, impossible.
    let good = read_cbr(&bytes).unwrap();
    let at = (MOVES + 4..bytes.len() - 3)
        .find(|&p| bytes[p..p + 4] == [0, 0, idx("h9"), idx("h1")])
        .unwrap();
    bytes[at + 2] = idx("a9");
    bytes[at + 3] = idx("a0");
    let r = read_cbr(&bytes).unwrap();
    assert_eq!(r.issues.len(), 1, "{:?}", r.issues);
    assert_eq!(r.issues[0].ply, Some(22));
    assert!(r.issues[0].message.contains("a9a0"), "{}", r.issues[0].message);
    // Plies 22-28 of the main line are gone; the alternative e3e4 at ply 21 and everything
    // under it still reads.
    assert_eq!(r.tree.main_line().count(), 21);
    assert_eq!(r.tree.len(), good.tree.len() - 7);
}

#[test]
fn every_prefix_of_test_cbr_reads_or_fails_cleanly() {
    let bytes = data("test.cbr");
    let full = read_cbr(&bytes).unwrap();
    for n in 0..=bytes.len() {
        match read_cbr(&bytes[..n]) {
            Ok(r) => {
                assert!(n >= MOVES + 4, "prefix {n} read");
                assert!(r.tree.len() <= full.tree.len());
                if n > MOVES + 4 && r.tree.len() < full.tree.len() {
                    assert!(!r.issues.is_empty(), "prefix {n}: a cut tree must say so");
                }
            }
            Err(e) => assert!(n < MOVES + 4, "prefix {n}: {e}"),
        }
    }
}

#[test]
fn scrambled_bytes_never_panic() {
    let clean = data("test.cbr");
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..2000 {
        let mut b = clean.clone();
        for _ in 0..(next() % 8 + 1) {
            let p = MOVES + (next() as usize % (b.len() - MOVES));
            b[p] = next() as u8;
        }
        let _ = read_cbr(&b);
    }
    let _ = read_cbr(&[]);
    let _ = read_cbl(&[]);
    let _ = read_cbl(b"CCBridgeLibrary\0");
}

#[test]
fn wrong_magic_is_an_error() {
    let e = read_cbl(&data("test.cbr")).unwrap_err();
    assert!(matches!(e, CbrError::BadMagic { .. }), "{e}");
    assert!(e.to_string().contains("CCBridgeLibrary"), "{e}");
    let e = read_cbr(&library()).unwrap_err();
    assert!(matches!(e, CbrError::BadMagic { .. }), "{e}");
    let e = read_cbr(b"CCBridge Record\0short").unwrap_err();
    assert!(matches!(e, CbrError::Truncated { found: 21, .. }), "{e}");
}

/// Where game `n` of the sample library starts: slots of 4,096 bytes after a 128-entry index.
fn slot(n: usize) -> usize {
    66624 + 128 * 276 + n * 4096
}

#[test]
fn damaged_games_in_a_library_leave_the_others() {
    let clean = read_cbl(&library()).unwrap();
    let mut bytes = library();
    bytes[slot(10)..slot(10) + 4].copy_from_slice(b"XXXX");
    bytes[slot(20) + BOARD] = 0x99;
    // Game 30: its first move becomes h2h8, a cannon jumping without a screen.
    bytes[slot(30) + MOVES + 6] = idx("h2");
    bytes[slot(30) + MOVES + 7] = idx("h8");
    // Index entry 40 points past the end of the file.
    bytes[66624 + 40 * 276 + 4..66624 + 40 * 276 + 8].copy_from_slice(&5000u32.to_le_bytes());

    let lib = read_cbl(&bytes).unwrap();
    assert_eq!(lib.games.len(), 93);
    for (i, (g, c)) in lib.games.iter().zip(&clean.games).enumerate() {
        match i {
            10 => {
                let e = g.as_ref().unwrap_err();
                assert!(
                    matches!(e, CbrError::InLibrary { game: 10, offset, source }
                        if *offset == slot(10) && matches!(**source, CbrError::BadMagic { .. })),
                    "{e}"
                );
            }
            20 => {
                let e = g.as_ref().unwrap_err();
                assert!(e.to_string().contains("0x99"), "{e}");
            }
            30 => {
                let r = g.as_ref().unwrap();
                assert!(r.tree.is_empty());
                assert_eq!(r.issues.len(), 1, "{:?}", r.issues);
                assert_eq!(r.issues[0].ply, Some(1));
                assert!(r.issues[0].message.contains("h2h8"), "{}", r.issues[0].message);
            }
            40 => assert!(matches!(
                g,
                Err(CbrError::SlotOutOfRange {
                    entry: 40,
                    slot: 5000,
                    ..
                })
            )),
            _ => assert_eq!(g.as_ref().unwrap(), c.as_ref().unwrap(), "game {i}"),
        }
    }
}

#[test]
fn library_without_an_index_is_searched() {
    let mut bytes = library();
    bytes[66624..66624 + 128 * 276].fill(0);
    let lib = read_cbl(&bytes).unwrap();
    assert_eq!(lib.issues.len(), 1, "{:?}", lib.issues);
    let clean = read_cbl(&library()).unwrap();
    assert_eq!(lib.games.len(), 93);
    for (g, c) in lib.games.iter().zip(&clean.games) {
        assert_eq!(main_line(g.as_ref().unwrap()), main_line(c.as_ref().unwrap()));
    }

    // Cut in the middle of the index: still searched, from whatever records remain.
    let cut = &library()[..70000];
    let lib = read_cbl(cut).unwrap();
    assert!(lib.games.is_empty());
    assert_eq!(lib.issues.len(), 1);
    // Cut in the middle of the games: the last one is short, the others whole.
    let cut = &library()[..slot(50) + 2300];
    let lib = read_cbl(cut).unwrap();
    assert_eq!(lib.games.len(), 93);
    assert!(lib.games[..50]
        .iter()
        .all(|g| g.as_ref().is_ok_and(|r| r.issues.is_empty())));
    assert!(lib.games[50]
        .as_ref()
        .is_ok_and(|r| !r.issues.is_empty() && !r.tree.is_empty()));
    assert!(lib.games[51..]
        .iter()
        .all(|g| matches!(g, Err(CbrError::SlotOutOfRange { .. }))));
}
