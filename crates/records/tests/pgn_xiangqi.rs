//! Xiangqi PGN: the CCPD games (Big5 and UTF-8) and the xqbase sample (GBK) read to the expected
//! main lines; reading, writing and reading again gives the same games in every notation;
//! malformed input gives an issue naming the ply while the rest still reads.

use records::pgn::{write_pgn, XiangqiGames};
use records::{TextEncoding, XiangqiRecord};
use xiangqi::notation::{to_iccs, Notation};

fn read_all(bytes: &[u8]) -> (Vec<XiangqiRecord>, Option<TextEncoding>) {
    let mut games = XiangqiGames::new(bytes);
    let v: Vec<XiangqiRecord> = games.by_ref().collect::<Result<_, _>>().unwrap();
    (v, games.encoding())
}

fn main_line(r: &XiangqiRecord) -> Vec<String> {
    r.tree.main_line().map(|&m| to_iccs(m)).collect()
}

fn ccpd(file: &str, encoding: TextEncoding) {
    let dir = testdata::record_file("xiangqi-ccpd");
    let bytes = std::fs::read(dir.join(file)).unwrap();
    let (games, enc) = read_all(&bytes);
    assert_eq!(enc, Some(encoding));
    let expected = std::fs::read_to_string(dir.join("ccpd-sample.expected.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = expected.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    assert_eq!(games.len(), rows.len());
    for (g, row) in games.iter().zip(&rows) {
        assert!(g.issues.is_empty(), "game {}: {:?}", row[0], g.issues);
        assert_eq!(g.start_fen, row[2], "game {}", row[0]);
        assert_eq!(g.tags.get("Result"), Some(row[3]), "game {}", row[0]);
        let want: Vec<&str> = row.get(6).map(|m| m.split_whitespace().collect()).unwrap_or_default();
        assert_eq!(main_line(g), want, "game {}", row[0]);
    }
}

#[test]
fn ccpd_big5() {
    ccpd("ccpd-sample.big5.pgn", TextEncoding::Big5);
}

#[test]
fn ccpd_utf8() {
    ccpd("ccpd-sample.utf8.pgn", TextEncoding::Utf8);
}

#[test]
fn xqbase_sample_gbk_with_comments_and_handicap() {
    let bytes = std::fs::read(testdata::record_file("xiangqi-xqf/xqbase-SAMPLE.gbk.pgn")).unwrap();
    let (games, enc) = read_all(&bytes);
    assert_eq!(enc, Some(TextEncoding::Gbk));
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert!(g.issues.is_empty(), "{:?}", g.issues);
    assert_eq!(g.tags.get("Red"), Some("许银川"));
    assert!(g
        .start_fen
        .starts_with("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w"));
    let root_comment = g.tree.comment(0).unwrap();
    assert!(root_comment.contains("象棋让九子"), "{root_comment}");
    // The same game in XQF: the main line of the expected table.
    let tsv = std::fs::read_to_string(testdata::record_file("xiangqi-xqf/xqf-expected.tsv")).unwrap();
    let row: Vec<&str> = tsv
        .lines()
        .find(|l| l.starts_with("xqbase-SAMPLE.XQF"))
        .unwrap()
        .split('\t')
        .collect();
    let want: Vec<&str> = row[11].split_whitespace().collect();
    assert_eq!(main_line(g), want);
}

fn round_trip(games: &[XiangqiRecord]) {
    for notation in [Notation::Chinese, Notation::Wxf, Notation::Iccs] {
        let mut text = String::new();
        for g in games {
            write_pgn(g, notation, &mut text).unwrap();
            text.push('\n');
        }
        let (again, _) = read_all(text.as_bytes());
        assert_eq!(again.len(), games.len(), "{notation:?}");
        for (a, b) in games.iter().zip(&again) {
            assert!(b.issues.is_empty(), "{notation:?}: {:?}", b.issues);
            assert_eq!(a.tree, b.tree, "{notation:?}");
            assert_eq!(a.start_fen, b.start_fen, "{notation:?}");
            // The same tags; the writer puts the Seven Tag Roster first.
            let tags = |r: &XiangqiRecord| -> Vec<(String, String)> {
                let mut t: Vec<_> = r
                    .tags
                    .iter()
                    .filter(|(n, _)| *n != "Format" && *n != "FEN")
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .collect();
                t.sort();
                t
            };
            assert_eq!(tags(a), tags(b), "{notation:?}");
        }
    }
}

#[test]
fn write_then_read_gives_the_same_games() {
    let bytes = std::fs::read(testdata::record_file("xiangqi-ccpd/ccpd-sample.utf8.pgn")).unwrap();
    round_trip(&read_all(&bytes).0);
    let bytes = std::fs::read(testdata::record_file("xiangqi-xqf/xqbase-SAMPLE.gbk.pgn")).unwrap();
    round_trip(&read_all(&bytes).0);
}

#[test]
fn variations_and_comments_survive() {
    let pgn = "[Game \"Chinese Chess\"]\n\n{start} 1. 炮二平五 {central} 马８进７ (1... 炮８平５ $1 {same} 2. 马二进三 (2. 马八进七)) 2. 马二进三 *\n";
    let (games, _) = read_all(pgn.as_bytes());
    let g = &games[0];
    assert!(g.issues.is_empty(), "{:?}", g.issues);
    assert_eq!(g.tree.len(), 7);
    assert_eq!(g.tree.comment(0), Some("start"));
    assert_eq!(main_line(g), ["h2e2", "h9g7", "h0g2"]);
    round_trip(&games);
}

#[test]
fn illegal_move_is_an_issue_at_its_ply_and_the_rest_reads() {
    let pgn = "[Event \"a\"]\n\n1. 炮二平五 马８进７ 2. 车一进九 马２进３ 1-0\n\n[Event \"b\"]\n\n1. h2e2 h9g7 1-0\n";
    let (games, _) = read_all(pgn.as_bytes());
    assert_eq!(games.len(), 2);
    assert_eq!(main_line(&games[0]), ["h2e2", "h9g7"]);
    assert_eq!(games[0].issues.len(), 1);
    assert_eq!(games[0].issues[0].ply, Some(3));
    assert!(
        games[0].issues[0].message.contains("车一进九"),
        "{}",
        games[0].issues[0].message
    );
    assert_eq!(main_line(&games[1]), ["h2e2", "h9g7"]);
    assert!(games[1].issues.is_empty());
}

#[test]
fn xqbase_layout_adverts_and_black_to_move() {
    // Right-aligned numbers, black's move after a comment with no dots, text after the result.
    let pgn = "[Game \"Chinese Chess\"]\r\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\"]\r\n\r\n  1.          马８进７\r\n  2. 马二进三 {note}\r\n  2.          车９平８\r\n 1-0\r\n====\r\n欢迎访问《象棋百科全书》网站\r\n\r\n[Game \"Chinese Chess\"]\r\n\r\n 1. 炮二平五 *\r\n";
    let (games, _) = read_all(pgn.as_bytes());
    assert_eq!(games.len(), 2);
    assert!(games[0].issues.is_empty(), "{:?}", games[0].issues);
    assert_eq!(main_line(&games[0]), ["h9g7", "h0g2", "i9h9"]);
    assert_eq!(main_line(&games[1]), ["h2e2"]);
}

#[test]
fn truncated_and_garbage_input_never_panics() {
    let bytes = std::fs::read(testdata::record_file("xiangqi-xqf/xqbase-SAMPLE.gbk.pgn")).unwrap();
    for cut in (0..bytes.len()).step_by(97) {
        let _ = read_all(&bytes[..cut]);
    }
    let _ = read_all(b"[[[[ {{{ ((( )))) 1. 2. 3. $$$ \xff\xfe\x00");
}

#[test]
fn read_into_and_main_line_option_agree_with_the_iterator() {
    let dir = testdata::data_dir().join("records");
    let mut bytes = std::fs::read(dir.join("xiangqi-ccpd/ccpd-sample.utf8.pgn")).unwrap();
    // A game with variations, comments and a FEN start, then one with an illegal move.
    bytes.extend_from_slice(
        "\n[Game \"Chinese Chess\"]\n\n{start} 1. 炮二平五 {central} 马８进７ (1... 炮８平５ $1 {same} 2. 马二进三 (2. 马八进七)) 2. 马二进三 *\n\n[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]\n\n1. 车五进九 1-0\n\n[Event \"bad\"]\n\n1. 炮二平五 马８进７ 2. 车一进三 *\n"
            .as_bytes(),
    );
    let want = read_all(&bytes).0;
    let mut games = XiangqiGames::new(&bytes[..]);
    let mut record = XiangqiRecord::new(xiangqi::Fen::START);
    let mut got = Vec::new();
    while games.read_into(&mut record).unwrap() {
        got.push(record.clone());
    }
    assert_eq!(got, want);
    assert!(
        want.last().unwrap().issues.iter().any(|i| i.ply == Some(3)),
        "{:?}",
        want.last()
    );

    let lean: Vec<XiangqiRecord> = XiangqiGames::new(&bytes[..])
        .with_options(records::ReadOptions::MAIN_LINE)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(lean.len(), want.len());
    for (l, w) in lean.iter().zip(&want) {
        assert_eq!(main_line(l), main_line(w));
        assert_eq!((&l.tags, &l.start_fen, &l.issues), (&w.tags, &w.start_fen, &w.issues));
        assert_eq!(l.tree.len(), l.tree.main_line().count() + 1);
        assert!((0..l.tree.len() as u32).all(|id| l.tree.comment(id).is_none()));
    }
}
