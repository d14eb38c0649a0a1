//! `arbiter rate FILES`: rating lists from game records, computed in memory.

mod run;
use run::{arbiter, json};

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
