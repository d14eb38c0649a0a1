//! The XQF reader against real XQStudio files and their expected values
//! (`tests/data/records/xiangqi-xqf/xqf-expected.tsv`), and against broken input.
//!
//! What the expected columns mean, as checked here:
//! - `total_nodes_incl_variations`: every move record in the file, the root not counted, illegal
//!   moves and whatever hangs under them included. The reader drops an illegal move with its
//!   subtree, so the count is `tree.len() - 1` plus, for each dropped move, 1 + the number of
//!   records its issue says were dropped with it (`WildHouse.xqf` has such a move in a variation).
//! - `mainline_plies_raw` / `mainline_iccs_raw`: the main line as stored, illegal move included.
//!   The reader's main line is the raw one cut before `first_illegal_ply`.
//! - `first_illegal_ply`: only for the main line (`-` when it is all legal); the reader reports it
//!   as an issue at that ply.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use records::text::TextEncoding;
use records::xqf::{read_xqf, XqfError};
use records::{MoveTree, NodeId, XiangqiRecord};
use xiangqi::notation::{parse_chinese, to_iccs};
use xiangqi::{Move, Position};

fn xqf_dir() -> PathBuf {
    testdata::record_file("xiangqi-xqf")
}

fn file(name: &str) -> Vec<u8> {
    let path = xqf_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(name: &str) -> XiangqiRecord {
    read_xqf(&file(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// One row of `xqf-expected.tsv`, by column name.
struct Row(Vec<(String, String)>);

impl Row {
    fn get(&self, col: &str) -> &str {
        self.0
            .iter()
            .find(|(c, _)| c == col)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no column {col}"))
    }
}

fn expected_rows() -> Vec<Row> {
    let path = xqf_dir().join("xqf-expected.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let cols: Vec<String> = lines
        .next()
        .expect("header line")
        .split('\t')
        .map(String::from)
        .collect();
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let vals: Vec<&str> = l.split('\t').collect();
            assert_eq!(vals.len(), cols.len(), "row {l:?}");
            Row(cols.iter().cloned().zip(vals.into_iter().map(String::from)).collect())
        })
        .collect()
}

fn main_line_iccs(r: &XiangqiRecord) -> Vec<String> {
    r.tree.main_line().map(|&m| to_iccs(m)).collect()
}

/// The number of records an illegal-move issue says were dropped after the move itself.
fn dropped_after(message: &str) -> Option<usize> {
    let rest = message.split("; dropped with the ").nth(1)?;
    rest.split(' ').next()?.parse().ok()
}

/// Replays the whole tree from the start FEN: every move must be legal where it stands.
fn assert_tree_legal(r: &XiangqiRecord, what: &str) {
    let mut pos = Position::from_fen(&r.start_fen).unwrap_or_else(|e| panic!("{what}: start FEN: {e}"));
    let mut stack: Vec<(NodeId, Position)> = vec![(MoveTree::<Move>::ROOT, pos.clone())];
    let mut seen = 1;
    while let Some((id, at)) = stack.pop() {
        for child in r.tree.children(id) {
            let m = r.tree.node(child).mv.expect("non-root node has a move");
            assert!(at.is_legal(m), "{what}: node {child}: {m} illegal in {}", at.fen());
            pos.clone_from(&at);
            pos.play_unchecked(m);
            stack.push((child, pos.clone()));
            seen += 1;
        }
    }
    assert_eq!(seen, r.tree.len(), "{what}: every node is reachable from the root");
}

#[test]
fn expected_values() {
    let rows = expected_rows();
    assert_eq!(rows.len(), 12, "rows in xqf-expected.tsv");
    for row in &rows {
        let name = row.get("file");
        let r = read(name);
        assert_tree_legal(&r, name);

        assert_eq!(
            r.tags.get("XQFVersion"),
            Some(row.get("xqf_version")),
            "{name}: version"
        );
        let result = match row.get("result_byte") {
            "0" => "*",
            "1" => "1-0",
            "2" => "0-1",
            "3" | "4" => "1/2-1/2",
            other => panic!("{name}: result byte {other}"),
        };
        assert_eq!(r.tags.get("Result"), Some(result), "{name}: result");
        let game_type = match row.get("type_byte") {
            "0" => "full game",
            "1" => "opening",
            "2" => "middlegame",
            "3" => "endgame",
            other => other,
        };
        assert_eq!(r.tags.get("XQFGameType"), Some(game_type), "{name}: game type");
        assert_eq!(r.tags.get("Red"), Some(row.get("red")), "{name}: red");
        assert_eq!(r.tags.get("Black"), Some(row.get("black")), "{name}: black");

        let fen_fields = |f: &str| f.split(' ').take(2).map(String::from).collect::<Vec<_>>();
        assert_eq!(
            fen_fields(&r.start_fen),
            fen_fields(row.get("start_fen")),
            "{name}: start FEN"
        );
        let side = if row.get("who_plays_byte") == "0" { "w" } else { "b" };
        assert_eq!(fen_fields(&r.start_fen)[1], side, "{name}: who plays first");

        let dropped: usize = r
            .issues
            .iter()
            .filter(|i| i.ply.is_some())
            .map(|i| 1 + dropped_after(&i.message).unwrap_or_else(|| panic!("{name}: {}", i.message)))
            .sum();
        let total: usize = row.get("total_nodes_incl_variations").parse().unwrap();
        assert_eq!(r.tree.len() - 1 + dropped, total, "{name}: nodes");

        let raw: Vec<&str> = row.get("mainline_iccs_raw").split_whitespace().collect();
        let raw_plies: usize = row.get("mainline_plies_raw").parse().unwrap();
        assert_eq!(raw.len(), raw_plies, "{name}: the expected row is consistent");
        let ours = main_line_iccs(&r);
        match row.get("first_illegal_ply") {
            "-" => {
                assert_eq!(ours, raw, "{name}: main line");
                assert!(r.tree.main_line().count() == raw_plies);
            }
            ply => {
                let ply: usize = ply.parse().unwrap();
                assert_eq!(ours, raw[..ply - 1], "{name}: main line before the illegal move");
                let issue = r.issues.iter().find(|i| i.ply == Some(ply));
                let issue = issue.unwrap_or_else(|| panic!("{name}: no issue at ply {ply}: {:?}", r.issues));
                assert!(issue.message.contains(raw[ply - 1]), "{name}: {}", issue.message);
            }
        }
    }
}

#[test]
fn illegal_moves_are_dropped_with_their_subtree_only() {
    let r = read("BadMoveTest3.xqf");
    assert_eq!(r.issues.len(), 1, "{:?}", r.issues);
    let issue = &r.issues[0];
    assert_eq!(issue.ply, Some(10));
    assert!(issue.message.contains("e1f0") && issue.message.contains("no piece stands on e1"));
    assert!(issue.message.contains("byte offset 0x"), "{}", issue.message);
    assert_eq!(r.tree.len(), 18, "17 moves kept");

    // An illegal move inside a variation: the main line and the other variations are intact.
    let r = read("WildHouse.xqf");
    assert_eq!(r.issues.len(), 1, "{:?}", r.issues);
    assert_eq!(r.issues[0].ply, Some(74));
    assert_eq!(dropped_after(&r.issues[0].message), Some(10));
    assert_eq!(r.tree.main_line().count(), 65);
}

#[test]
fn tags_and_comments() {
    let r = read("test.xqf");
    assert_eq!(r.tags.get("Event"), Some("\"中立杯\"象棋电视快棋赛"));
    assert_eq!(r.tags.get("Site"), Some("北京"));
    assert_eq!(r.tags.get("Date"), Some("1997年11月16日"));
    assert_eq!(r.tags.get("Title"), Some("仙人指路对起马局"));
    assert_eq!(r.tags.get("Author"), Some("过河象"));
    let root = r.tree.comment(MoveTree::<Move>::ROOT).unwrap_or_default();
    assert!(root.trim_start().starts_with("1997年11月16日上午"), "{root:?}");

    // The version 10 copy of the same game holds the same moves and the same opening comment.
    let r1 = read("test1.xqf");
    assert_eq!(r1.tags.get("XQFVersion"), Some("10"));
    assert_eq!(main_line_iccs(&r1), main_line_iccs(&r));
    assert_eq!(r1.tree.comment(MoveTree::<Move>::ROOT), Some(root));

    let r = read("BadMoveTest3.xqf");
    assert_eq!(r.tags.get("Annotator"), Some("金启昌、李中健"));
    assert_eq!(r.tags.get("Author"), Some("狼牙山人"));
    assert_eq!(
        r.tags.get("Title"),
        None,
        "empty strings are left out, roster tags aside"
    );
    assert_eq!(r.tags.get("Red"), Some(""));
}

/// Moves and comments of a GBK PGN in xqbase's form (`{…}` comments, Chinese moves, no variations).
fn xqbase_pgn(text: &str) -> (String, Vec<Move>, Vec<String>) {
    let mut fen = Position::start().fen().to_string();
    let mut comments = Vec::new();
    let mut moves_text = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        moves_text.push_str(&rest[..open]);
        let close = rest[open..].find('}').expect("closed comment") + open;
        comments.push(rest[open + 1..close].to_string());
        moves_text.push_str(&format!(" {{{}}} ", comments.len() - 1));
        rest = &rest[close + 1..];
    }
    moves_text.push_str(rest);
    let mut moves = Vec::new();
    let mut pos = None;
    for line in moves_text.lines() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix("[FEN \"") {
            fen = tag.trim_end_matches("\"]").to_string();
            continue;
        }
        if line.starts_with('[') {
            continue;
        }
        for tok in line.split_whitespace() {
            let is_move =
                !tok.ends_with('.') && !tok.starts_with('{') && !["1-0", "0-1", "1/2-1/2", "*"].contains(&tok);
            if is_move {
                let p: &mut Position = pos.get_or_insert_with(|| Position::from_fen(&fen).unwrap());
                let m = parse_chinese(p, tok).unwrap_or_else(|e| panic!("{tok}: {e}"));
                p.play_unchecked(m);
                moves.push(m);
            }
        }
    }
    (fen, moves, comments)
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn xqbase_sample_matches_its_pgn() {
    let r = read("xqbase-SAMPLE.XQF");
    let pgn = TextEncoding::Gbk.decode(&file("xqbase-SAMPLE.gbk.pgn")).into_owned();
    let (fen, moves, comments) = xqbase_pgn(&pgn);

    assert_eq!(r.start_fen, fen);
    let main: Vec<Move> = r.tree.main_line().copied().collect();
    assert_eq!(main.len(), 75);
    assert_eq!(main, moves);
    assert_eq!(r.tree.len(), 76, "no variations");

    let row = expected_rows()
        .into_iter()
        .find(|row| row.get("file") == "xqbase-SAMPLE.XQF")
        .unwrap();
    assert_eq!(main_line_iccs(&r).join(" "), row.get("mainline_iccs_raw"));

    for (tag, want) in [
        ("Event", "许银川让九子对聂棋圣"),
        ("Date", "1999.12.09"),
        ("Site", "广州"),
        ("Red", "许银川"),
        ("Black", "聂卫平"),
        ("Result", "1-0"),
    ] {
        assert_eq!(r.tags.get(tag), Some(want), "{tag}");
    }

    // The same comments, in the same order (root first), whitespace and line ends aside.
    let ours: Vec<String> = std::iter::once(MoveTree::<Move>::ROOT)
        .chain(r.tree.main_line_nodes())
        .filter_map(|id| r.tree.comment(id).map(squeeze))
        .collect();
    let theirs: Vec<String> = comments.iter().map(|c| squeeze(c)).collect();
    assert_eq!(ours, theirs);
}

#[test]
fn variations_keep_file_order() {
    fn render(r: &XiangqiRecord, id: NodeId, depth: usize, out: &mut String) {
        for c in r.tree.children(id) {
            let m = r.tree.node(c).mv.unwrap();
            out.push_str(&format!("{}{}\n", "  ".repeat(depth), to_iccs(m)));
            render(r, c, depth + 1, out);
        }
    }
    let r = read("game_varations.xqf");
    let mut tree = String::new();
    render(&r, MoveTree::<Move>::ROOT, 0, &mut tree);
    // Children in file order, the main continuation first.
    let want = "\
h2e2
  h7e7
    h0g2
      h9g7
        i0h0
          i9i8
            b0c2
              b9c7
            g3g4
              c6c5
            c3c4
              i8d8
            b0a2
              b9c7
  h9g7
    h0g2
      g6g5
        i0h0
          i9h9
            c3c4
              b9c7
          b7e7
            h0h6
              b9c7
";
    assert_eq!(tree, want);
}

#[test]
fn header_who_plays_disagreeing_with_the_first_move() {
    let mut bytes = file("huang-songxuan-vs-feng-jingru-030.XQF");
    let clean = read_xqf(&bytes).unwrap();
    bytes[0x32] = 1; // "black first", but red's cannon moves first
    let r = read_xqf(&bytes).unwrap();
    assert!(r.start_fen.split(' ').nth(1) == Some("w"), "{}", r.start_fen);
    assert_eq!(main_line_iccs(&r), main_line_iccs(&clean));
    assert_eq!(r.issues.len(), 1, "{:?}", r.issues);
    assert!(r.issues[0].message.contains("0x32"), "{}", r.issues[0].message);
}

#[test]
fn five_goats_is_fast() {
    let bytes = file("FiveGoatsTest.xqf");
    let mut best = Duration::MAX;
    for _ in 0..20 {
        let t = Instant::now();
        let r = read_xqf(&bytes).unwrap();
        best = best.min(t.elapsed());
        assert_eq!(r.tree.len(), 32_125);
    }
    eprintln!("FiveGoatsTest.xqf: 32,124 moves read in {best:?} (best of 20)");
    // Generous, to catch accidental quadratic behaviour even in debug builds.
    assert!(best < Duration::from_secs(1), "{best:?}");
}

#[test]
fn wrong_signature_and_version() {
    let mut bytes = file("NoMove.xqf");
    bytes[1] = b'R';
    let e = read_xqf(&bytes).unwrap_err();
    assert!(matches!(e, XqfError::NotXqf { .. }), "{e}");
    assert!(e.to_string().contains("58 52"), "{e}");
    assert!(matches!(read_xqf(b"%PDF-1.4"), Err(XqfError::NotXqf { .. })));

    let mut bytes = file("NoMove.xqf");
    bytes[2] = 19;
    let e = read_xqf(&bytes).unwrap_err();
    assert!(matches!(e, XqfError::UnsupportedVersion(19)), "{e}");
    assert!(e.to_string().contains("offset 2"), "{e}");

    let e = read_xqf(&bytes[..500]).unwrap_err();
    assert!(
        matches!(
            e,
            XqfError::Truncated {
                needed: 1024,
                len: 500,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn every_prefix_reads_or_fails_cleanly() {
    for name in [
        "game_varations.xqf",
        "BadMoveTest2.xqf",
        "test1.xqf",
        "BadMoveTest3.xqf",
    ] {
        let bytes = file(name);
        let full = main_line_iccs(&read(name));
        for len in 0..=bytes.len() {
            match read_xqf(&bytes[..len]) {
                Ok(r) => {
                    assert!(len >= 1024, "{name}[..{len}] read without a whole header");
                    assert_tree_legal(&r, name);
                    let ours = main_line_iccs(&r);
                    assert_eq!(ours[..], full[..ours.len()], "{name}[..{len}]: main line is a prefix");
                    if len < bytes.len() {
                        assert!(!r.issues.is_empty(), "{name}[..{len}]: the cut is reported");
                    }
                }
                Err(e) => {
                    assert!(len < 1024, "{name}[..{len}]: {e}");
                    assert!(matches!(e, XqfError::Truncated { .. }), "{name}[..{len}]: {e}");
                }
            }
        }
    }
}

/// xorshift64*: enough randomness for robustness tests without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn check_robust(bytes: &[u8], what: &str) {
    if let Ok(r) = read_xqf(bytes) {
        assert_tree_legal(&r, what);
    }
}

#[test]
fn random_bytes_after_a_valid_header() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let headers: Vec<Vec<u8>> = [
        "test1.xqf",
        "BadMoveTest2.xqf",
        "ucci_test2.xqf",
        "test.xqf",
        "BadMoveTest3.xqf",
    ]
    .iter()
    .map(|n| file(n)[..1024].to_vec())
    .collect();
    let mut read_ok = 0;
    for round in 0..3000 {
        let mut bytes = headers[round % headers.len()].clone();
        let n = (rng.next() % 600) as usize;
        bytes.extend(rng.bytes(n));
        if read_xqf(&bytes).is_ok() {
            read_ok += 1;
        }
        check_robust(&bytes, &format!("round {round}"));
    }
    assert!(read_ok > 0, "a valid header with a junk tree still reads");

    // Random headers too: the signature, a version, and noise.
    for round in 0..3000 {
        let n = 1024 + (rng.next() % 300) as usize;
        let mut bytes = rng.bytes(n);
        bytes[0] = b'X';
        bytes[1] = b'Q';
        bytes[2] = 10 + (rng.next() % 9) as u8;
        check_robust(&bytes, &format!("random header {round}"));
    }
}

#[test]
fn flipped_bytes_never_panic() {
    for name in ["game_varations.xqf", "test1.xqf", "ucci_test2.xqf"] {
        let bytes = file(name);
        for i in 0..bytes.len() {
            for mask in [0xff, 0x01, 0x80] {
                let mut b = bytes.clone();
                b[i] ^= mask;
                check_robust(&b, &format!("{name} byte {i:#x} ^ {mask:#x}"));
            }
        }
    }
}

/// XQF's point number: file from red's left times ten, plus rank from red's side.
fn xy(sq: xiangqi::Square) -> u8 {
    sq.file().index() * 10 + sq.rank().index()
}

/// Writes a version 10 (plain) file: enough of a writer to feed the reader trees and text that
/// the sample files lack. `strings` are (header offset, field size, bytes).
fn write_v10(r: &XiangqiRecord, strings: &[(usize, usize, &[u8])], comment: &dyn Fn(NodeId) -> Vec<u8>) -> Vec<u8> {
    use xiangqi::{Color, Role};
    let pos = Position::from_fen(&r.start_fen).unwrap();
    let mut out = vec![0u8; 1024];
    out[..3].copy_from_slice(b"XQ\x0a");
    let mut table = [0xffu8; 32];
    for (sq, piece) in pos.board().pieces() {
        let slots: &[usize] = match piece.role {
            Role::Rook => &[0, 8],
            Role::Horse => &[1, 7],
            Role::Elephant => &[2, 6],
            Role::Advisor => &[3, 5],
            Role::King => &[4],
            Role::Cannon => &[9, 10],
            Role::Pawn => &[11, 12, 13, 14, 15],
        };
        let base = if piece.color == Color::Red { 0 } else { 16 };
        let slot = slots
            .iter()
            .map(|s| s + base)
            .find(|&s| table[s] == 0xff)
            .expect("a free slot");
        table[slot] = xy(sq);
    }
    out[0x10..0x30].copy_from_slice(&table);
    out[0x32] = u8::from(pos.turn() == Color::Black);
    for &(offset, size, text) in strings {
        let n = text.len().min(size - 1);
        out[offset] = n as u8;
        out[offset + 1..offset + 1 + n].copy_from_slice(&text[..n]);
    }
    fn node(r: &XiangqiRecord, id: NodeId, comment: &dyn Fn(NodeId) -> Vec<u8>, out: &mut Vec<u8>) {
        let n = r.tree.node(id);
        let (from, to) = match n.mv {
            Some(m) => (xy(m.from), xy(m.to)),
            None => (0, 0),
        };
        let tag = if n.first_child.is_some() { 0xf0 } else { 0 } | if n.next_sibling.is_some() { 0x0f } else { 0 };
        out.extend([from + 0x18, to + 0x20, tag, 0]);
        let c = comment(id);
        out.extend((c.len() as u32).to_le_bytes());
        out.extend(c);
        if let Some(c) = n.first_child {
            node(r, c, comment, out);
        }
        if let Some(s) = n.next_sibling {
            node(r, s, comment, out);
        }
    }
    node(r, MoveTree::<Move>::ROOT, comment, &mut out);
    out
}

#[test]
fn whole_tree_survives_a_plain_rewrite() {
    for name in ["FiveGoatsTest.xqf", "WildHouse.xqf", "ucci_test2.xqf"] {
        let r = read(name);
        let comment = |id: NodeId| {
            let c = r.tree.comment(id).unwrap_or_default();
            TextEncoding::Gbk.encode(c).into_owned()
        };
        let bytes = write_v10(&r, &[(0x130, 16, "红方".as_bytes())], &comment);
        let again = read_xqf(&bytes).unwrap();
        assert_eq!(again.start_fen, r.start_fen, "{name}");
        assert!(again.tree == r.tree, "{name}: same moves, order and comments");
    }
}

#[test]
fn big5_text_is_recognised() {
    let r = read("game_varations.xqf");
    let texts = ["許銀川", "呂欽", "炮二平五 馬８進７ 傌二進三", "紅方先走，車九進一"];
    for enc in [TextEncoding::Big5, TextEncoding::Gbk] {
        let e = |s: &str| enc.encode(s).into_owned();
        let (red, black) = (e(texts[0]), e(texts[1]));
        let comment = |id: NodeId| match id {
            0 => e(texts[2]),
            3 => e(texts[3]),
            _ => Vec::new(),
        };
        let bytes = write_v10(&r, &[(0x130, 16, &red), (0x140, 16, &black)], &comment);
        let back = read_xqf(&bytes).unwrap();
        assert_eq!(back.tags.get("Red"), Some(texts[0]), "{}", enc.name());
        assert_eq!(back.tags.get("Black"), Some(texts[1]), "{}", enc.name());
        assert_eq!(back.tree.comment(0), Some(texts[2]), "{}", enc.name());
        assert_eq!(back.tree.comment(3), Some(texts[3]), "{}", enc.name());
    }
}

#[test]
fn a_name_cut_inside_a_character_loses_only_that_character() {
    let r = read("NoMove.xqf");
    // Eight characters: sixteen bytes, one more than the field holds.
    let name = TextEncoding::Gbk.encode("一二三四五六七八").into_owned();
    let bytes = write_v10(&r, &[(0x130, 16, &name)], &|_| Vec::new());
    assert_eq!(read_xqf(&bytes).unwrap().tags.get("Red"), Some("一二三四五六七"));
}
