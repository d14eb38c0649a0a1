//! The `arbiter` binary as a user runs it: the move generator's commands and their errors.

mod run;
use run::arbiter;

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
