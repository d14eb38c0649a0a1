//! `arbiter rate --list`: rating lists kept in the database across events, as a user runs it.
//!
//! The expected values are worked out by hand from the rules' texts: seed 001's 记分方法 for
//! levels and points, FIDE's table of expected scores (B.02 8.1.2) for Elo, Glickman's example
//! for Glicko-2.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

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

/// A fresh directory for one test.
fn dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-rate-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A PGN file of `(White, Black, Result)` games.
fn pgn(path: &Path, games: &[(&str, &str, &str)]) -> String {
    let text: String = games
        .iter()
        .map(|(w, b, r)| format!("[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\n1. e4 {r}\n\n"))
        .collect();
    std::fs::write(path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn write(path: &Path, text: &str) -> String {
    std::fs::write(path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// `rate … --db DB --json`, which must succeed: its lines as JSON.
fn rate(db: &str, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["rate", "--db", db, "--json"];
    all.extend(args);
    let (ok, out, err) = arbiter(&all);
    assert!(ok, "{args:?}: {err}");
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn row<'a>(rows: &'a [Value], player: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["player"] == player)
        .unwrap_or_else(|| panic!("{player} not in {rows:?}"))
}

/// Player, points and level of each row of `--show`, in rank order.
fn levels(rows: &[Value]) -> Vec<(String, String, String, u64)> {
    rows.iter()
        .map(|r| {
            (
                r["player"].as_str().unwrap().to_string(),
                r["points"].as_str().unwrap().to_string(),
                r["level"].as_str().unwrap().to_string(),
                r["games"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Seed 001 (记分方法), worked by hand. Event 1 starts 张三 at 15级 1520 and 李四 at 16级 1450;
/// 王五 has no starting values (无级别, 0 points).
///   李四 beats 张三: 70 apart, the lower wins: 10 + 70/10 = 17 → 张三 1503, 李四 1467.
///   王五 draws 李四: 1467 apart (100 and more): the lower gains 1467/4 = 366.75
///   → 王五 366.75, 李四 1100.25.
/// Event 2 starts 赵六 at 20级 1070 (张三's new starting values are ignored: he is listed).
///   张三 beats 王五: 1136.25 apart (200 and more), the higher wins: nothing moves.
///   赵六 beats 李四: 30.25 apart, the lower wins: 10 + 3.025 = 13.025, kept as 13.03
///   → 赵六 1083.03, 李四 1087.22.
/// Levels: 100 points a level from 30级 at 0 (1503 → 15级, 1100.25 → 19级, 366.75 → 27级,
/// 1087.22 and 1083.03 → 20级).
fn two_events_into_one_levels_list(db: &str, dir: &Path) {
    let start1 = write(
        &dir.join("start1.csv"),
        "name,level,points\n张三,15级,1520\n李四,16,1450\n",
    );
    let event1 = pgn(
        &dir.join("event1.pgn"),
        &[
            ("张三", "李四", "0-1"),
            ("王五", "李四", "1/2-1/2"),
            ("王五", "张三", "*"),
        ],
    );
    let rows = rate(
        db,
        &[
            "--list",
            "Club",
            "--system",
            "levels",
            "--start",
            &start1,
            "--source",
            "Spring open",
            &event1,
        ],
    );
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(row(&rows, "张三")["change"], "-17");
    assert_eq!(row(&rows, "张三")["before"]["level"], "15级");
    assert_eq!(row(&rows, "张三")["from"], "start");
    assert_eq!(row(&rows, "王五")["from"], "new");
    assert_eq!(row(&rows, "李四")["change"], "-349.75");
    let shown = rate(db, &["--list", "Club", "--show"]);
    let s = |a: &str, b: &str, c: &str, n: u64| (a.to_string(), b.to_string(), c.to_string(), n);
    assert_eq!(
        levels(&shown),
        [
            s("张三", "1503", "15级", 1),
            s("李四", "1100.25", "19级", 2),
            s("王五", "366.75", "27级", 1)
        ]
    );
    let start2 = write(&dir.join("start2.csv"), "赵六,20级,1070\n张三,1级,2950\n");
    let event2 = pgn(
        &dir.join("event2.pgn"),
        &[("张三", "王五", "1-0"), ("李四", "赵六", "0-1")],
    );
    // The list keeps its system: none needs saying.
    let rows = rate(
        db,
        &["--list", "Club", "--start", &start2, "--source", "Summer open", &event2],
    );
    assert_eq!(row(&rows, "张三")["from"], "list");
    assert_eq!(row(&rows, "张三")["change"], "+0");
    assert_eq!(row(&rows, "赵六")["change"], "+13.03");
    let shown = rate(db, &["--list", "Club", "--show"]);
    assert_eq!(
        levels(&shown),
        [
            s("张三", "1503", "15级", 2),
            s("李四", "1087.22", "20级", 3),
            s("赵六", "1083.03", "20级", 1),
            s("王五", "366.75", "27级", 2)
        ]
    );
}

/// What each event changed is in the list's history.
async fn history_names_each_event(url: &str) {
    let s = store::Store::connect(url).await.unwrap();
    let history = s.rating_history("Club").await.unwrap();
    let rows: Vec<(u64, &str, &str, &str)> = history
        .iter()
        .map(|h| {
            (
                h.version,
                h.source.as_str(),
                h.rated.player.as_str(),
                h.rated.origin.as_str(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (1, "Spring open", "张三", "start"),
            (1, "Spring open", "李四", "start"),
            (1, "Spring open", "王五", "new"),
            (2, "Summer open", "张三", "list"),
            (2, "Summer open", "李四", "list"),
            (2, "Summer open", "王五", "list"),
            (2, "Summer open", "赵六", "start"),
        ]
    );
    let li = &history[4].rated;
    assert!(
        li.before.contains("\"1100.25\"") && li.after.contains("\"1087.22\""),
        "{li:?}"
    );
    s.close().await;
}

#[test]
fn two_events_rated_in_sequence_into_one_levels_list() {
    let dir = dir("levels");
    let db = dir.join("ratings.db");
    two_events_into_one_levels_list(db.to_str().unwrap(), &dir);
    // What each event changed, as a user reads it.
    let history = rate(db.to_str().unwrap(), &["--list", "Club", "--history"]);
    let li: Vec<(&str, &str, &str)> = history
        .iter()
        .filter(|h| h["player"] == "李四")
        .map(|h| {
            (
                h["source"].as_str().unwrap(),
                h["before"]["points"].as_str().unwrap(),
                h["after"]["points"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        li,
        [
            ("Spring open", "1450", "1100.25"),
            ("Summer open", "1100.25", "1087.22")
        ]
    );
    let (ok, text, _) = arbiter(&["rate", "--db", db.to_str().unwrap(), "--list", "Club", "--history"]);
    assert!(
        ok && text.lines().filter(|l| l.starts_with("version ")).count() == 2,
        "{text}"
    );
    assert!(text.contains("version 2: Summer open"), "{text}");
    let url = format!("sqlite://{}", db.display());
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(history_names_each_event(&url));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_events_rated_in_sequence_into_one_levels_list_on_postgresql() {
    let Some(pg) = store::scratch::Scratch::postgres("two_events_rated_in_sequence_into_one_levels_list_on_postgresql")
    else {
        return;
    };
    let dir = dir("levels-pg");
    two_events_into_one_levels_list(&pg.url, &dir);
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(history_names_each_event(&pg.url));
    std::fs::remove_dir_all(&dir).ok();
}

/// A run that fails — bad starting values, a list of another system, no games — changes
/// nothing: not the list, not its version, and no list is left behind by a first run.
#[test]
fn a_failed_run_changes_nothing() {
    let dir = dir("failed");
    let db = dir.join("ratings.db");
    let db = db.to_str().unwrap();
    let event = pgn(&dir.join("event.pgn"), &[("A", "B", "1-0"), ("C", "A", "1/2-1/2")]);
    // A level that does not go with the points: the first run creates no list.
    let bad = write(&dir.join("bad.csv"), "A,1500\nB,15级,20\n");
    let (ok, _, err) = arbiter(&["rate", "--db", db, "--list", "L", "--start", &bad, &event]);
    assert!(
        !ok && err.contains("line 1") && err.contains("name,level,points"),
        "{err}"
    );
    let bad_level = write(&dir.join("bad-level.csv"), "B,15级,20\n");
    let (ok, _, err) = arbiter(&["rate", "--db", db, "--list", "L", "--start", &bad_level, &event]);
    assert!(!ok && err.contains("15级 does not go with 20 points"), "{err}");
    let (ok, _, err) = arbiter(&["rate", "--db", db, "--list", "L", "--show"]);
    assert!(!ok && err.contains("no rating list named \"L\""), "{err}");
    // A good first event, then failures.
    let first = rate(db, &["--list", "L", &event]);
    assert_eq!(first.len(), 3);
    let before = rate(db, &["--list", "L", "--show"]);
    let bad_csv = write(&dir.join("bad2.csv"), "D,30级,50\nE,12级,x\n");
    let event2 = pgn(&dir.join("event2.pgn"), &[("D", "A", "1-0"), ("E", "B", "0-1")]);
    let (ok, _, err) = arbiter(&["rate", "--db", db, "--list", "L", "--start", &bad_csv, &event2]);
    assert!(
        !ok && err.contains("line 2") && err.contains("not a number of points"),
        "{err}"
    );
    let (ok, _, err) = arbiter(&["rate", "--db", db, "--list", "L", "--system", "elo", &event2]);
    assert!(!ok && err.contains("keeps levels ratings, not elo"), "{err}");
    let empty = pgn(&dir.join("empty.pgn"), &[("A", "B", "*")]);
    let (ok, _, err) = arbiter(&["rate", "--db", db, "--list", "L", &empty]);
    assert!(!ok && err.contains("no rated games"), "{err}");
    let (ok, _, err) = arbiter(&["rate", "--db", db, "--list", "L", "--show", &event2]);
    assert!(!ok && err.contains("rate nothing"), "{err}");
    let (ok, _, err) = arbiter(&["rate", "--db", db, "--start", &bad_csv, &event2]);
    assert!(!ok && err.contains("need --list"), "{err}");
    assert_eq!(rate(db, &["--list", "L", "--show"]), before);
    let (_, _, err) = arbiter(&["rate", "--db", db, "--list", "L", "--show"]);
    assert!(err.contains("version 1"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// FIDE Elo, each event one rating period. A starts at 2000 after 40 games (K 20), B at 1800
/// new (K 40); C comes new at 1500 in event 2. Expected scores from FIDE's table: 200 apart
/// .76/.24, 215 apart .77/.23, 290 apart .84/.16.
///   Event 1, A beats B: A +20 × .24 = +4.8 → 2005; B 40 × −.24 = −9.6 → 1790.
///   Event 2, B beats A and draws C: B 40 × (.77 + .5 − .84) = 17.2 → 1807;
///   A 20 × −.77 = −15.4 → 1990; C 40 × (.5 − .16) = 13.6 → 1514.
#[test]
fn elo_lists_rate_each_event_as_one_period() {
    let dir = dir("elo");
    let db = dir.join("ratings.db");
    let db = db.to_str().unwrap();
    let start = write(&dir.join("start.csv"), "A,2000,40\nB,1800\n");
    let e1 = pgn(&dir.join("e1.pgn"), &[("A", "B", "1-0")]);
    let rows = rate(db, &["--list", "E", "--system", "elo", "--start", &start, &e1]);
    assert_eq!(
        (row(&rows, "A")["rating"].as_i64(), row(&rows, "B")["rating"].as_i64()),
        (Some(2005), Some(1790))
    );
    let e2 = pgn(&dir.join("e2.pgn"), &[("B", "A", "1-0"), ("C", "B", "1/2-1/2")]);
    rate(db, &["--list", "E", &e2]);
    let shown = rate(db, &["--list", "E", "--show"]);
    let got: Vec<(&str, i64, i64)> = shown
        .iter()
        .map(|r| {
            (
                r["player"].as_str().unwrap(),
                r["rating"].as_i64().unwrap(),
                r["games"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, [("A", 1990, 42), ("B", 1807, 3), ("C", 1514, 1)]);
    std::fs::remove_dir_all(&dir).ok();
}

/// Glicko-2, each event one rating period: Glickman's example (a 1500/200 player beats
/// 1400/30, loses to 1550/100 and 1700/300: 1464.06, RD 151.52), then an event without the
/// player: the rating stays, the deviation widens, √(φ² + σ²) = 151.87.
#[test]
fn glicko2_lists_follow_the_papers_example() {
    let dir = dir("glicko2");
    let db = dir.join("ratings.db");
    let db = db.to_str().unwrap();
    let start = write(
        &dir.join("start.csv"),
        "name,rating,rd,volatility\nP,1500,200,0.06\nX,1400,30,0.06\nY,1550,100,0.06\nZ,1700,300,0.06\n",
    );
    let e1 = pgn(
        &dir.join("e1.pgn"),
        &[("P", "X", "1-0"), ("Y", "P", "1-0"), ("P", "Z", "0-1")],
    );
    let rows = rate(db, &["--list", "G", "--system", "glicko2", "--start", &start, &e1]);
    let p = row(&rows, "P");
    assert_eq!(
        (p["rating"].as_f64(), p["deviation"].as_f64()),
        (Some(1464.1), Some(151.5))
    );
    let e2 = pgn(&dir.join("e2.pgn"), &[("X", "Y", "1/2-1/2")]);
    let rows = rate(db, &["--list", "G", &e2]);
    let p = row(&rows, "P");
    assert_eq!(p["played"], 0);
    assert_eq!(p["before"]["deviation"].as_f64(), Some(151.5));
    assert_eq!(
        (p["rating"].as_f64(), p["deviation"].as_f64()),
        (Some(1464.1), Some(151.9))
    );
    assert_eq!(rows.len(), 4, "every player of the list is in the period");
    std::fs::remove_dir_all(&dir).ok();
}

/// Two events rated into the same list at once: neither is lost — the later is rated again
/// from the list the earlier left.
#[test]
fn two_events_at_once_both_count() {
    let dir = dir("race");
    let db = dir.join("ratings.db");
    let db = db.to_str().unwrap();
    let e0 = pgn(&dir.join("e0.pgn"), &[("A", "B", "1-0")]);
    rate(db, &["--list", "R", "--system", "elo", &e0]);
    let events: Vec<String> = (1..=2)
        .map(|i| {
            pgn(
                &dir.join(format!("e{i}.pgn")),
                &[("A", "B", "1/2-1/2"), ("B", "C", "1-0")],
            )
        })
        .collect();
    // Both started before either is waited for.
    let children: Vec<_> = events
        .iter()
        .map(|e| {
            Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .args(["rate", "--db", db, "--list", "R", e])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let run = child.wait_with_output().unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    }
    let shown = rate(db, &["--list", "R", "--show"]);
    let games = |p: &str| row(&shown, p)["games"].as_i64().unwrap();
    assert_eq!((games("A"), games("B"), games("C")), (3, 5, 2));
    let (_, _, err) = arbiter(&["rate", "--db", db, "--list", "R", "--show"]);
    assert!(err.contains("version 3"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Without --list, many games among few players: points stay in hundredths (exact fractions
/// outgrew 64 bits after a couple of dozen such games), and what one gains another loses.
#[test]
fn many_games_in_memory_keep_their_points_in_hundredths() {
    let dir = dir("many");
    let names = ["A", "B", "C", "D"];
    let games: Vec<(&str, &str, &str)> = (0..120usize)
        .map(|i| {
            (
                names[i % 4],
                names[(i / 4 + i + 1) % 4],
                ["1-0", "1/2-1/2", "0-1"][i % 3],
            )
        })
        .filter(|(a, b, _)| a != b)
        .collect();
    let file = pgn(&dir.join("many.pgn"), &games);
    let (ok, out, err) = arbiter(&["rate", &file, "--json"]);
    assert!(ok, "{err}");
    let rows: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let hundredths: i64 = rows
        .iter()
        .map(|r| {
            let p = r["points"].as_str().unwrap();
            let (int, frac) = p.split_once('.').unwrap_or((p, ""));
            assert!(frac.len() <= 2, "{p}");
            let sign = if int.starts_with('-') { -1 } else { 1 };
            int.parse::<i64>().unwrap() * 100 + sign * format!("{frac:0<2}").parse::<i64>().unwrap()
        })
        .sum();
    assert_eq!(hundredths, 0, "{rows:?}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--event`: an event's games rate exactly as the same games do from a record file — red's
/// (white's) player first, game by game in the order played, forfeits left out.
#[test]
fn an_events_games_rate_as_the_same_games_from_a_file() {
    let dir = dir("event");
    let db = dir.join("events.db");
    let db = db.to_str().unwrap();
    let t = |args: &[&str]| {
        let mut all = vec!["tournament"];
        all.extend(args);
        all.extend(["--db", db]);
        let (ok, out, err) = arbiter(&all);
        assert!(ok, "{args:?}: {err}");
        out
    };
    t(&["create", "Club", "--format", "round-robin"]);
    for (name, rating) in [("A", "1900"), ("B", "1800"), ("C", "1700"), ("D", "1600")] {
        t(&["register", "Club", name, "--rating", rating]);
    }
    // Round by round: the pairings as `pair --json` gives them, a result for each; the
    // same game written to a PGN, red (white) first.
    let mut pgn_games: Vec<(String, String, &str)> = Vec::new();
    let results = ["1-0", "1/2", "0-1", "1-0", "-+", "1/2"];
    let mut k = 0;
    for _ in 0..3 {
        let round: Value = serde_json::from_str(&t(&["pair", "Club", "--json"])).unwrap();
        for p in round["pairings"].as_array().unwrap() {
            let id = p["id"].as_str().unwrap();
            let r = results[k % results.len()];
            k += 1;
            t(&["result", "Club", id, r]);
            let name = |v: &Value| ["A", "B", "C", "D"][v.as_u64().unwrap() as usize - 1].to_string();
            let pgn_result = match r {
                "1/2" => "1/2-1/2",
                "-+" => continue,
                other => other,
            };
            pgn_games.push((name(&p["first"]), name(&p["second"]), pgn_result));
        }
    }
    let games: Vec<(&str, &str, &str)> = pgn_games.iter().map(|(a, b, r)| (a.as_str(), b.as_str(), *r)).collect();
    let file = pgn(&dir.join("same.pgn"), &games);
    let from_event = rate(db, &["--list", "E", "--system", "elo", "--event", "Club"]);
    let from_file = rate(db, &["--list", "F", "--system", "elo", &file]);
    assert_eq!((from_event.len(), from_file.len()), (4, 4));
    let show = |list: &str| {
        let rows = rate(db, &["--list", list, "--show"]);
        rows.iter()
            .map(|r| (r["player"].clone(), r["state"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(show("E"), show("F"));
    let history = rate(db, &["--list", "E", "--history"]);
    assert!(history.iter().all(|h| h["source"] == "Club"), "{history:?}");
    // Rated again by mistake: refused, the list as it was.
    let (ok, _, err) = arbiter(&["rate", "--db", db, "--list", "E", "--event", "Club"]);
    assert!(
        !ok && err.contains("\"Club\" was rated into list \"E\" already (version 1)"),
        "{err}"
    );
    assert_eq!(show("E"), show("F"));
    let (ok, _, err) = arbiter(&["rate", "--db", db, "--list", "X", "--event", "Nope"]);
    assert!(!ok && err.contains("no event named \"Nope\""), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
