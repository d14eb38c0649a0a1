//! Every record file of `tests/data/records/` reads, writes as PGN (each Xiangqi notation, or
//! SAN) and as FEN + moves, and reads back to the same games: same start, same move tree with
//! its variations and comments, same tags.

use std::path::PathBuf;

use records::files::{read_as, read_file, write_fen_moves, write_pgn, AnyRecord, Format};
use records::{MoveTree, NodeId};
use xiangqi::notation::Notation;

fn record_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for sub in ["xiangqi-ccpd", "xiangqi-xqf", "chess-lichess"] {
        for e in std::fs::read_dir(testdata::record_file(sub)).unwrap() {
            let p = e.unwrap().path();
            let ext = p
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            if ["pgn", "xqf", "cbr", "cbl"].contains(&ext.as_str()) {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

fn tags_without_format(r: &AnyRecord) -> Vec<(String, String)> {
    let tags = match r {
        AnyRecord::Xiangqi(r) => &r.tags,
        AnyRecord::Chess(r) => &r.tags,
    };
    // In any order: the PGN writer puts the Seven Tag Roster first.
    let mut tags: Vec<_> = tags
        .iter()
        .filter(|(n, _)| !["Format", "FEN", "SetUp"].contains(n))
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    tags.sort();
    tags
}

fn same_game(a: &AnyRecord, b: &AnyRecord, what: &str) {
    match (a, b) {
        (AnyRecord::Xiangqi(a), AnyRecord::Xiangqi(b)) => {
            assert_eq!(a.start_fen, b.start_fen, "{what}");
            assert!(
                a.tree == b.tree,
                "{what}: move trees differ at {}",
                first_difference(&a.tree, &b.tree)
            );
        }
        (AnyRecord::Chess(a), AnyRecord::Chess(b)) => {
            assert_eq!(a.start_fen, b.start_fen, "{what}");
            assert!(
                a.tree == b.tree,
                "{what}: move trees differ at {}",
                first_difference(&a.tree, &b.tree)
            );
        }
        _ => panic!("{what}: game kind changed"),
    }
}

/// Where two trees first differ, for the failure message.
fn first_difference<M: PartialEq + std::fmt::Debug>(a: &MoveTree<M>, b: &MoveTree<M>) -> String {
    if a.len() != b.len() {
        return format!("size {} vs {}", a.len(), b.len());
    }
    for i in 0..a.len() as NodeId {
        let (x, y) = (a.node(i), b.node(i));
        if x != y || a.comment(i) != b.comment(i) {
            return format!("node {i}: {x:?} {:?} vs {y:?} {:?}", a.comment(i), b.comment(i));
        }
    }
    "nowhere".to_string()
}

#[test]
fn every_sample_file_round_trips_through_pgn() {
    let files = record_files();
    assert!(files.len() >= 17, "{files:?}");
    for path in files {
        let (_, games) = read_file(&path).unwrap();
        let games: Vec<AnyRecord> = games.map(|g| g.unwrap()).collect();
        assert!(!games.is_empty(), "{}", path.display());
        let notations: &[Notation] = match games[0] {
            AnyRecord::Xiangqi(_) => &[Notation::Chinese, Notation::Wxf, Notation::Iccs],
            AnyRecord::Chess(_) => &[Notation::Iccs],
        };
        for &n in notations {
            let mut text = String::new();
            for g in &games {
                write_pgn(g, n, &mut text).unwrap();
                text.push('\n');
            }
            let format = if matches!(games[0], AnyRecord::Xiangqi(_)) {
                Format::XiangqiPgn
            } else {
                Format::ChessPgn
            };
            let again: Vec<AnyRecord> = read_as(&path, format, std::io::Cursor::new(text.into_bytes()))
                .unwrap()
                .map(|g| g.unwrap())
                .collect();
            assert_eq!(again.len(), games.len(), "{} {n:?}", path.display());
            for (i, (a, b)) in games.iter().zip(&again).enumerate() {
                let what = format!("{} game {} via {n:?} PGN", path.display(), i + 1);
                assert!(b.issues().is_empty(), "{what}: {:?}", b.issues());
                same_game(a, b, &what);
                assert_eq!(tags_without_format(a), tags_without_format(b), "{what}");
            }
        }
        // The FEN + moves form keeps the main line.
        for (i, g) in games.iter().enumerate() {
            let mut line = String::new();
            write_fen_moves(g, &mut line).unwrap();
            let back = records::files::read_fen_moves(line.trim_end()).unwrap();
            let main = |r: &AnyRecord| -> Vec<String> {
                match r {
                    AnyRecord::Xiangqi(r) => r.tree.main_line().map(|m| m.to_string()).collect(),
                    AnyRecord::Chess(r) => r.tree.main_line().map(|m| format!("{m:?}")).collect(),
                }
            };
            assert_eq!(main(g), main(&back), "{} game {} via moves", path.display(), i + 1);
        }
    }
}
