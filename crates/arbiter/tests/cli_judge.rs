//! `arbiter judge`: games and record files judged, as JSON lines.

mod run;
use run::{arbiter, json};

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
fn judge_explains_in_chinese_with_lang_zh() {
    // 长将: red checks with one rook on every move; the rulebook tells red to vary, and red,
    // not varying, loses.
    let fen = "9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1";
    let cycle = "f5e5 e8f8 e5f5 f8e8";
    let eight = [cycle; 2].join(" ");
    let twelve = [cycle; 3].join(" ");
    let judge = |moves: &str, lang: &str| {
        let (ok, out, err) = arbiter(&[
            "judge", "--game", "xiangqi", "--fen", fen, "--moves", moves, "--lang", lang,
        ]);
        assert!(ok, "{err}");
        out
    };
    let told = judge(&eight, "zh");
    assert!(
        told.contains("pending at ply 8: 红方必须变着（应变着，不变判负）"),
        "{told}"
    );
    assert!(told.contains("红方走长将（禁止着法）"), "{told}");
    let lost = judge(&twelve, "zh");
    assert!(lost.contains("black (perpetual_check) at ply 12"), "{lost}");
    assert!(lost.contains("应变着而不变，红方判负"), "{lost}");
    assert!(!lost.contains("loses"), "no English explanation: {lost}");
    // English stays the default, and is what --lang en gives.
    let en = judge(&twelve, "en");
    assert!(en.contains("red was told to vary at ply 8"), "{en}");
    let (_, default, _) = arbiter(&["judge", "--game", "xiangqi", "--fen", fen, "--moves", &twelve]);
    assert_eq!(default, en);
    // Chess in Chinese: fool's mate, and a stalemate (逼和).
    let (ok, out, err) = arbiter(&["judge", "--game", "chess", "--moves", "f3 e5 g4 Qh4", "--lang", "zh"]);
    assert!(ok, "{err}");
    assert!(out.contains("白方被将死，判负（FIDE 5.1.1）"), "{out}");
    let stalemate = [
        "judge",
        "--game",
        "chess",
        "--fen",
        "k7/8/8/2Q5/8/8/8/K7 w - - 0 1",
        "--moves",
        "Qb6",
    ];
    let (_, out, _) = arbiter(&[&stalemate[..], &["--lang", "zh"]].concat());
    assert!(out.contains("逼和"), "{out}");
    // JSON carries both languages and the facts, whichever is chosen.
    let (_, out, _) = arbiter(&[
        "judge", "--game", "xiangqi", "--fen", fen, "--moves", &twelve, "--json", "--lang", "zh",
    ]);
    let v = json(out.trim());
    assert!(v["explanation"].as_str().unwrap().starts_with("red was told to vary"));
    assert!(v["explanation_zh"]
        .as_str()
        .unwrap()
        .starts_with("红方在第8着被告知变着"));
    assert_eq!(v["because"]["because"], "repetition");
    assert_eq!(v["because"]["effect"]["kind"], "not_varied");
    // A language it does not know is refused.
    let (ok, _, err) = arbiter(&["judge", "--game", "xiangqi", "--moves", "h2e2", "--lang", "fr"]);
    assert!(!ok && err.contains("en or zh"), "{err}");
}
