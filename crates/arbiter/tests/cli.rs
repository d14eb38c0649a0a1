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

fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

#[test]
fn judge_one_xiangqi_game_as_json() {
    // XQ-R04: 一将一捉 — forbidden under CXA, allowed under AXF.
    let fen = "4ka3/9/9/9/6n2/9/6R2/9/9/3K5 w - - 0 1";
    let moves = "g3e3 f9e8 e3g3 e8f9 g3e3 f9e8 e3g3 e8f9";
    let args = |rules: &'static str| {
        vec![
            "judge",
            "--game",
            "xiangqi",
            "--fen",
            fen,
            "--moves",
            moves,
            "--ruleset",
            rules,
            "--json",
            "--at-trigger",
        ]
    };
    let (ok, out, err) = arbiter(&args("cxa"));
    assert!(ok, "{err}");
    let v = json(out.trim());
    assert_eq!(
        (v["result"].as_str(), v["reason"].as_str(), v["ply"].as_u64()),
        (Some("black"), Some("forbidden_repetition"), Some(8))
    );
    assert_eq!(v["ruleset"], "cxa");
    assert_eq!(v["claim"], false);
    assert!(v["explanation"].as_str().unwrap().contains("一将一捉"));
    let (_, out, _) = arbiter(&args("axf"));
    let v = json(out.trim());
    assert_eq!(
        (v["result"].as_str(), v["reason"].as_str()),
        (Some("draw"), Some("repetition_draw"))
    );
    // Without --at-trigger the rulebook's procedure: red is told to vary, the game goes on.
    let (_, out, _) = arbiter(&["judge", "--game", "xiangqi", "--fen", fen, "--moves", moves, "--json"]);
    let v = json(out.trim());
    assert_eq!(v["result"], "ongoing");
    assert!(v["pending"]["explanation"]
        .as_str()
        .unwrap()
        .starts_with("red must vary"));
    // Moves in Chinese notation read too; an illegal move is an error naming the ply.
    let (ok, out, _) = arbiter(&["judge", "--game", "xiangqi", "--moves", "炮二平五 马８进７", "--json"]);
    assert!(ok);
    assert_eq!(json(out.trim())["result"], "ongoing");
    let (ok, _, err) = arbiter(&["judge", "--game", "xiangqi", "--moves", "h2e2 h2e2"]);
    assert!(!ok);
    assert!(err.contains("ply 2"), "{err}");
}

#[test]
fn judge_one_chess_game_with_a_claimable_draw() {
    let (ok, out, _) = arbiter(&[
        "judge",
        "--game",
        "chess",
        "--moves",
        "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
        "--json",
    ]);
    assert!(ok);
    let v = json(out.trim());
    assert_eq!(
        (v["result"].as_str(), v["reason"].as_str(), v["claim"].as_bool()),
        (Some("draw"), Some("threefold_repetition"), Some(true))
    );
    let (_, out, _) = arbiter(&["judge", "--game", "chess", "--moves", "f2f3 e7e5 g2g4 d8h4", "--json"]);
    let v = json(out.trim());
    assert_eq!(
        (v["result"].as_str(), v["reason"].as_str(), v["ply"].as_u64()),
        (Some("black"), Some("checkmate"), Some(4))
    );
}

#[test]
fn judge_record_files_flags_contradicting_result_tags() {
    let dir = std::env::temp_dir().join(format!("arbiter-judge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A fool's mate tagged as a white win, and a game the rules did not end.
    let pgn = dir.join("games.pgn");
    std::fs::write(
        &pgn,
        "[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n[Result \"0-1\"]\n\n1. e4 e5 0-1\n",
    )
    .unwrap();
    let (ok, out, err) = arbiter(&["judge", pgn.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    let lines: Vec<serde_json::Value> = out.lines().map(json).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["result"], "black");
    assert_eq!(lines[0]["game"], 1);
    assert!(lines[0]["contradiction"].as_str().unwrap().contains("1-0"));
    assert_eq!(lines[1]["result"], "ongoing");
    assert!(
        lines[1].get("contradiction").is_none(),
        "a resignation is not contradicted"
    );
    assert!(
        err.contains("2 games judged") && err.contains("1 result tags contradict"),
        "{err}"
    );
    // The Xiangqi sample: every game judges, the mates agree with their tags.
    let ccpd = testdata::record_file("xiangqi-ccpd/ccpd-sample.big5.pgn");
    let (ok, out, err) = arbiter(&["judge", ccpd.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().filter(|l| l.contains(": game ")).count(), 340);
    assert!(err.contains("340 games judged: 54 ended by rule"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn judge_lists_its_rulesets() {
    let (ok, out, _) = arbiter(&["judge", "--rulesets"]);
    assert!(ok);
    let names: Vec<String> = out
        .lines()
        .map(|l| json(l)["ruleset"]["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["cxa", "axf", "simplified", "fide", "automatic-draws"]);
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
fn rate_gives_levels_elo_and_glicko2_lists() {
    let dir = std::env::temp_dir().join(format!("arbiter-rate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    // A beats B, then A and C draw (C is 10 points below A: (10 + 10/10) / 2 = 5.5 to C).
    std::fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n[White \"C\"]\n[Black \"A\"]\n[Result \"1/2-1/2\"]\n\n1. e4 1/2-1/2\n\n[White \"B\"]\n[Black \"C\"]\n[Result \"*\"]\n\n1. e4 *\n",
    )
    .unwrap();
    let (ok, out, err) = arbiter(&["rate", pgn.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    let rows: Vec<serde_json::Value> = out.lines().map(json).collect();
    let by = |name: &str| rows.iter().find(|r| r["player"] == name).unwrap().clone();
    assert_eq!(by("A")["points"], "4.5");
    assert_eq!(by("C")["points"], "5.5");
    assert_eq!(
        (by("B")["points"].as_str(), by("B")["level"].as_str()),
        (Some("-10"), Some("无级别"))
    );
    assert_eq!(by("C")["level"], "30级");
    assert!(err.contains("2 games, 3 players"), "{err}");
    let (ok, out, _) = arbiter(&["rate", pgn.to_str().unwrap(), "--system", "elo", "--json"]);
    assert!(ok);
    let first: serde_json::Value = json(out.lines().next().unwrap());
    // A: +20 for the win (K 40, 0.50 expected), then 40 × (0.5 − 0.53) = −1.2 for the draw.
    assert_eq!(
        (first["player"].as_str(), first["rating"].as_i64()),
        (Some("A"), Some(1519))
    );
    let (ok, out, _) = arbiter(&["rate", pgn.to_str().unwrap(), "--system", "glicko2"]);
    assert!(ok && out.contains("deviation"), "{out}");
    let (ok, _, err) = arbiter(&["rate", pgn.to_str().unwrap(), "--system", "nope"]);
    assert!(!ok && err.contains("unknown rating system"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tournament_standings_of_a_trf() {
    // TV-TB-1's TRF, from the spec.
    let block = testdata::spec_test_vector("tournament.md", "TV-TB-1");
    let trf: String = block
        .lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| format!("{l}\n"))
        .collect();
    let path = std::env::temp_dir().join(format!("arbiter-standings-{}.trf", std::process::id()));
    std::fs::write(&path, trf).unwrap();
    let (ok, out, err) = arbiter(&["tournament", "standings", path.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    let lines: Vec<serde_json::Value> = out.lines().map(json).collect();
    assert_eq!(lines.len(), 11);
    assert_eq!(
        (lines[0]["number"].as_u64(), lines[0]["points"].as_f64()),
        (Some(2), Some(4.0))
    );
    assert_eq!(lines[1]["tiebreaks"][0].as_f64(), Some(11.5)); // player 1's BH-C1
    let (ok, _, err) = arbiter(&["tournament", "standings", path.to_str().unwrap(), "--tiebreaks", "XX"]);
    assert!(!ok && err.contains("unknown tie-break"), "{err}");
    std::fs::remove_file(&path).ok();
}

#[test]
fn pair_the_next_swiss_round_and_check_a_whole_event() {
    // TV-DUTCH-2 of the spec: round 2 after a round with a full-point bye, a PAB and a
    // half-point bye.
    let block = testdata::spec_test_vector("tournament.md", "TV-DUTCH-2");
    let (input, expected) = block.split_once("# expected round 2:").unwrap();
    let dir = std::env::temp_dir();
    let path = dir.join(format!("arbiter-pair-{}.trf", std::process::id()));
    std::fs::write(&path, input).unwrap();
    let (ok, out, err) = arbiter(&["pair", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    let expected: String = expected
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(out, expected);

    // The round as the file has it: checked; then with two colours swapped: one round differs.
    let played = input
        .replace("    4 w 1", "    4 b 1")
        .replace("    1 b 0", "    1 w 0");
    std::fs::write(&path, &played).unwrap();
    let (ok, out, err) = arbiter(&["pair", "--check", path.to_str().unwrap()]);
    assert!(
        !ok && out.contains("Round #1") && err.contains("1 of 1 rounds differ"),
        "{out}{err}"
    );
    std::fs::write(&path, input).unwrap();
    let (ok, out, err) = arbiter(&["pair", "--check", path.to_str().unwrap()]);
    assert!(ok && out.contains("0 of 1 rounds differ"), "{out}{err}");
    let (ok, _, err) = arbiter(&["pair", "--system", "burstein", path.to_str().unwrap()]);
    assert!(!ok && err.contains("unknown pairing system"), "{err}");
    std::fs::remove_file(&path).ok();
}

#[test]
fn a_swiss_event_in_the_database_from_creation_to_crosstable() {
    let dir = std::env::temp_dir().join(format!("arbiter-event-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("events.db");
    let db = db.to_str().unwrap();
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--db", db]);
        arbiter(&all)
    };
    assert!(run(&["tournament", "create", "Open", "--rounds", "3"]).0);
    assert!(
        !run(&["tournament", "create", "Open", "--rounds", "3"]).0,
        "names are unique"
    );
    for (name, rating) in [
        ("Ann", "1900"),
        ("Bob", "2100"),
        ("Cid", "2000"),
        ("Dee", "1800"),
        ("Eve", "1700"),
    ] {
        let (ok, _, err) = run(&["tournament", "register", "Open", name, "--rating", rating]);
        assert!(ok, "{err}");
    }
    for round in 1..=3 {
        let (ok, out, err) = run(&["tournament", "pair", "Open"]);
        assert!(ok, "{err}");
        let (ok, _, err) = run(&["tournament", "pair", "Open"]);
        assert!(!ok && err.contains("without a result"), "{err}");
        for line in out.lines().filter(|l| l.contains(" - ")) {
            let numbers: Vec<&str> = line.split_whitespace().filter(|w| w.parse::<u32>().is_ok()).collect();
            let r = round.to_string();
            let (ok, _, err) = run(&["tournament", "result", "Open", &r, numbers[0], numbers[1], "1/2"]);
            assert!(ok, "{err}");
        }
    }
    // Round 1 paired by rating: Bob (2100) became number 1.
    let (ok, table, _) = run(&["tournament", "crosstable", "Open"]);
    assert!(ok && table.lines().count() == 6, "{table}");
    let (ok, html, _) = run(&["tournament", "crosstable", "Open", "--html"]);
    assert!(ok && html.starts_with("<!DOCTYPE html>") && html.contains("<td class=\"name\">Bob</td>"));
    let trf = dir.join("open.trf");
    assert!(run(&["tournament", "export", "Open", "-o", trf.to_str().unwrap()]).0);
    let (ok, out, err) = arbiter(&["pair", "--check", trf.to_str().unwrap()]);
    assert!(ok && out.contains("0 of 3 rounds differ"), "{out}{err}");
    let (_, text, _) = arbiter(&["tournament", "standings", trf.to_str().unwrap()]);
    assert!(text.contains("Bob"));
    let (ok, log, _) = run(&["tournament", "log", "Open"]);
    assert!(ok && log.lines().count() == 1 + 5 + 3 + 6, "{log}");
    assert!(run(&["tournament", "import", "Copy", trf.to_str().unwrap()]).0);
    let (_, list, _) = run(&["tournament", "list"]);
    assert_eq!(list.lines().count(), 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_swiss_event_with_a_withdrawal_and_a_late_entrant_exports_trf_2026() {
    let dir = std::env::temp_dir().join(format!("arbiter-event-2026-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("events.db");
    let db = db.to_str().unwrap();
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--db", db]);
        arbiter(&all)
    };
    let (ok, _, err) = run(&[
        "tournament",
        "create",
        "Xq",
        "--rounds",
        "5",
        "--points",
        "2/1/0",
        "--tiebreaks",
        "BH-C1,BH,SB",
    ]);
    assert!(ok, "{err}");
    let (ok, _, err) = run(&["tournament", "create", "Bad", "--rounds", "5", "--points", "1/2/0"]);
    assert!(!ok && err.contains("points"), "{err}");
    for (i, name) in ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"].iter().enumerate() {
        let rating = (2100 - 50 * i).to_string();
        let (ok, _, err) = run(&["tournament", "register", "Xq", name, "--rating", &rating]);
        assert!(ok, "{err}");
    }
    // Boards of a round as `arbiter tournament pair` prints them: (white, black).
    let boards = |out: &str| -> Vec<(String, String)> {
        out.lines()
            .filter(|l| l.contains(" - "))
            .map(|l| {
                let n: Vec<&str> = l.split_whitespace().filter(|w| w.parse::<u32>().is_ok()).collect();
                (n[0].to_string(), n[1].to_string())
            })
            .collect()
    };
    let mut withdrawn = String::new();
    let mut late = String::new();
    for round in 1..=5 {
        let r = round.to_string();
        let (ok, out, err) = run(&["tournament", "pair", "Xq"]);
        assert!(ok, "{err}");
        let games = boards(&out);
        if !withdrawn.is_empty() {
            assert!(
                games.iter().all(|(w, b)| *w != withdrawn && *b != withdrawn),
                "{withdrawn} withdrew: {out}"
            );
            assert!(!out.contains(&format!("bye: {withdrawn}\n")), "{out}");
        }
        if !late.is_empty() {
            assert!(
                games.iter().any(|(w, b)| *w == late || *b == late) || out.contains(&format!("bye: {late}")),
                "{late} entered late: {out}"
            );
        }
        for (board, (w, b)) in games.iter().enumerate() {
            if round == 2 && board == 0 {
                // White does not come: refused while the game has no result, then a forfeit
                // and the withdrawal from the next round on.
                let (ok, _, err) = run(&["tournament", "withdraw", "Xq", w, "--from", "2"]);
                assert!(!ok && err.contains("enter that game's result first"), "{err}");
                let (ok, _, err) = run(&["tournament", "result", "Xq", &r, w, b, "-/+"]);
                assert!(ok, "{err}");
                let (ok, out, err) = run(&["tournament", "withdraw", "Xq", w]);
                assert!(ok && out.contains("withdrawn from round 3"), "{out}{err}");
                withdrawn = w.clone();
                continue;
            }
            let result = ["1-0", "0-1", "1/2"][(board + round) % 3];
            let (ok, _, err) = run(&["tournament", "result", "Xq", &r, w, b, result]);
            assert!(ok, "{err}");
        }
        if round == 2 {
            let (ok, out, err) = run(&[
                "tournament",
                "register",
                "Xq",
                "Late",
                "--rating",
                "2400",
                "--missed",
                "H",
            ]);
            assert!(ok, "{err}");
            late = out.split_whitespace().next().unwrap().to_string();
            assert_eq!(late, "8", "start numbers stay; the late entrant gets the next one");
        }
    }
    let (ok, _, err) = run(&["tournament", "withdraw", "Xq", "1"]);
    assert!(!ok && err.contains("all 5 rounds are paired"), "{err}");

    let trf = dir.join("xq.trf");
    assert!(run(&["tournament", "export", "Xq", "-o", trf.to_str().unwrap()]).0);
    let text = std::fs::read_to_string(&trf).unwrap();
    for record in [
        "012 Xq\n",
        "062 8\n",
        "142 5\n",
        "152 W\n",
        "162  W 2.0    D 1.0\n",
        "192 FIDE_DUTCH_2025\n",
        "202 BH/C1,BH,SB\n",
        "212 PTS,BH/C1,BH,SB\n",
    ] {
        assert!(text.contains(record), "{record:?} in\n{text}");
    }
    assert!(
        !text.contains("XXR") && !text.contains("XXC") && !text.contains("\n240"),
        "{text}"
    );
    // The late entrant: two half-point byes (1 point each in 2/1/0), then played.
    let late_line = text.lines().find(|l| l.contains("Late")).unwrap();
    assert!(late_line[91..].starts_with("0000 - H  0000 - H"), "{late_line}");
    let (ok, out, err) = arbiter(&["pair", "--check", trf.to_str().unwrap()]);
    assert!(ok && out.contains("0 of 5 rounds differ"), "{out}{err}");

    // Export, import, export: the same file.
    assert!(run(&["tournament", "import", "Copy", trf.to_str().unwrap()]).0);
    let (ok, again, _) = run(&["tournament", "export", "Copy"]);
    assert!(ok);
    assert_eq!(again.replace("012 Xq", ""), text.replace("012 Xq", ""));
    assert!(again.starts_with("012 Xq\n"), "the file's name stays");

    // A JaVaFo-style file reads and comes back in TRF-2026 records.
    let old = dir.join("old.trf");
    let javafo = text
        .replace("142 5\n", "XXR 5\n")
        .replace("152 W\n", "XXC white1\n")
        .replace("012 Xq\n", "");
    std::fs::write(&old, &javafo).unwrap();
    assert!(run(&["tournament", "import", "Old", old.to_str().unwrap()]).0);
    let (_, from_old, _) = run(&["tournament", "export", "Old"]);
    assert_eq!(from_old.replace("012 Old", "012 Xq"), text);
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
