//! `arbiter convert`: records from one format to another, judged on the way when asked.

mod run;
use run::arbiter;

#[test]
fn convert_between_formats_keeps_the_games() {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = testdata::data_dir().join("records");
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
    let bad = testdata::record_file("xiangqi-xqf/BadMoveTest3.xqf");
    let out = dir.join("bad.pgn");
    let (ok, _, err) = arbiter(&["convert", bad.to_str().unwrap(), out.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(err.contains("BadMoveTest3.xqf: game 1, ply 10:"), "{err}");
    assert!(err.contains("1 games written"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn point_12_convert_judge_writes_a_standard_termination() {
    let dir = std::env::temp_dir().join(format!("arbiter-convert-judge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.pgn");
    let output = dir.join("out.pgn");
    std::fs::write(
        &input,
        "[Event \"x\"]\n[Result \"*\"]\n\n1. f3 e5 2. g4 Qh4# *\n\n[Event \"y\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
    )
    .unwrap();
    let (ok, _, err) = arbiter(&["convert", input.to_str().unwrap(), output.to_str().unwrap(), "--judge"]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&output).unwrap();
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    // The PGN standard's word; arbiter's reason and explanation beside it.
    assert!(text.contains("[Termination \"normal\"]"), "{text}");
    assert!(
        text.contains("[TerminationDetails \"checkmate: White is checkmated (FIDE 5.1.1) (ply 4, fide rules)\"]"),
        "{text}"
    );
    // A game the rules did not end keeps its own result (a resignation, say).
    let second = text.split("[Event \"y\"]").nth(1).unwrap();
    assert!(
        second.contains("[Result \"1-0\"]") && !second.contains("Termination"),
        "{second}"
    );
    // A loss for breaking a rule is a `rules infraction`: a move that faces the kings (cxa).
    let facing = dir.join("facing.pgn");
    std::fs::write(
        &facing,
        "[Game \"Chinese Chess\"]\n[FEN \"3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1\"]\n\n1. 帅五平六 *\n",
    )
    .unwrap();
    let facing_out = dir.join("facing-out.pgn");
    let (ok, _, err) = arbiter(&[
        "convert",
        facing.to_str().unwrap(),
        facing_out.to_str().unwrap(),
        "--judge",
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&facing_out).unwrap();
    assert!(
        text.contains("[Result \"0-1\"]")
            && text.contains("[Termination \"rules infraction\"]")
            && text.contains("[TerminationDetails \"self_check: "),
        "{text}"
    );
    // The move the verdict is about is written, and no longer reported as unread.
    assert!(text.contains("1. 帅五平六 0-1"), "{text}");
    assert!(!err.contains("ply 1"), "{err}");
    // Xiangqi, a perpetual check under the rules as engines apply them is not written (the
    // default rules tell the offender to vary); mates are.
    let xq = dir.join("xq.pgn");
    std::fs::write(
        &xq,
        "[Game \"Chinese Chess\"]\n[FEN \"4k4/7R1/9/9/9/9/9/9/9/R2K5 w - - 0 1\"]\n\n1. a0a9 *\n",
    )
    .unwrap();
    let xq_out = dir.join("xq-out.pgn");
    let (ok, _, err) = arbiter(&[
        "convert",
        xq.to_str().unwrap(),
        xq_out.to_str().unwrap(),
        "--judge",
        "--notation",
        "iccs",
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&xq_out).unwrap();
    assert!(
        text.contains("[Result \"1-0\"]") && text.contains("(ply 1, cxa rules)"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn point_18_convert_writes_a_pgn_cchess_reads() {
    let dir = std::env::temp_dir().join(format!("arbiter-convert-cchess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.pgn");
    let output = dir.join("out.pgn");
    // Red's advisors end on one file (d0, d2); the front one then moves back to the centre.
    std::fs::write(
        &input,
        "[Event \"x\"]\n[Result \"*\"]\n\n1. 仕六进五 {a note} 马８进７ 2. 仕五进六 马７退８ 3. 仕四进五 马８进７ \
         4. 仕五退六 马７退８ 5. 仕六退五 *\n",
    )
    .unwrap();
    let (ok, _, err) = arbiter(&[
        "convert",
        input.to_str().unwrap(),
        output.to_str().unwrap(),
        "--pgn-style",
        "cchess",
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&output).unwrap();
    assert!(!text.contains('{'), "{text}");
    assert!(text.contains("5. 前仕退五 *"), "{text}");
    let (ok, _, err) = arbiter(&["convert", input.to_str().unwrap(), output.to_str().unwrap()]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&output).unwrap();
    assert!(text.contains("{a note}") && text.contains("5. 仕六退五 *"), "{text}");
    let (ok, _, err) = arbiter(&[
        "convert",
        input.to_str().unwrap(),
        output.to_str().unwrap(),
        "--pgn-style",
        "fancy",
    ]);
    assert!(!ok && err.contains("expected standard or cchess"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
