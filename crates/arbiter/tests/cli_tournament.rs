//! `arbiter tournament` and `arbiter pair`: standings, Swiss pairings and events kept in the
//! database.

mod run;
use run::{arbiter, json};

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
