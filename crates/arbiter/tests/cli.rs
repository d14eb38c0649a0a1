//! The `arbiter` binary as a user runs it.

use std::process::Command;

fn arbiter(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("run arbiter");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn perft_prints_the_total_last() {
    let (ok, out, _) = arbiter(&["perft", "--depth", "3"]);
    assert!(ok);
    assert_eq!(out.lines().last(), Some("79666"));
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let (ok, out, _) = arbiter(&["perft", "--fen", fen, "--depth", "2", "--divide"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 39, "38 moves and the total");
    assert_eq!(lines.last(), Some(&"1128"));
    let sum: u64 = lines[..38]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 1128);
}

#[test]
fn moves_in_every_notation() {
    for (notation, first_move) in [
        ("iccs", "h2e2"),
        ("fsf", "h3e3"),
        ("wxf", "C2.5"),
        ("chinese", "炮二平五"),
    ] {
        let (ok, out, _) = arbiter(&["moves", "--notation", notation]);
        assert!(ok);
        assert_eq!(out.lines().count(), 44, "{notation}");
        assert!(out.lines().any(|l| l == first_move), "{notation}: {out}");
    }
}

#[test]
fn bad_input_is_a_clear_error() {
    let (ok, out, err) = arbiter(&["moves", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(err.contains("kings face each other"), "{err}");
    let (ok, _, err) = arbiter(&["moves", "--notation", "klingon"]);
    assert!(!ok && err.contains("unknown notation"), "{err}");
}

#[test]
fn convert_between_formats_keeps_the_games() {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = testdata::shared().join("data/records");
    let big5 = data.join("xiangqi-ccpd/ccpd-sample.big5.pgn");
    let wxf = dir.join("ccpd-wxf.pgn");
    let moves = dir.join("ccpd.moves");
    let (ok, _, err) = arbiter(&[
        "convert",
        big5.to_str().unwrap(),
        wxf.to_str().unwrap(),
        "--notation",
        "wxf",
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("340 games written"), "{err}");
    let (ok, _, err) = arbiter(&["convert", wxf.to_str().unwrap(), moves.to_str().unwrap()]);
    assert!(ok, "{err}");
    // The FEN + moves lines carry exactly the expected ICCS main lines.
    let text = std::fs::read_to_string(&moves).unwrap();
    let tsv = std::fs::read_to_string(data.join("xiangqi-ccpd/ccpd-sample.expected.tsv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 340);
    for (line, row) in lines.iter().zip(tsv.lines().skip(1)) {
        let cols: Vec<&str> = row.split('\t').collect();
        let want = cols.get(6).copied().unwrap_or("");
        let got = line.split_once(" moves ").map(|(_, m)| m).unwrap_or("");
        assert_eq!(got, want, "{line}");
        assert!(line.starts_with(&format!("position fen {}", cols[2])), "{line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_reports_file_game_and_ply_of_a_bad_move() {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = testdata::shared().join("data/records/xiangqi-xqf/BadMoveTest3.xqf");
    let out = dir.join("bad.pgn");
    let (ok, _, err) = arbiter(&["convert", bad.to_str().unwrap(), out.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(err.contains("BadMoveTest3.xqf: game 1, ply 10:"), "{err}");
    assert!(err.contains("1 games written"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
