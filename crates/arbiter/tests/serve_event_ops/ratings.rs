//! Ratings when an event ends: a 4-player round robin names a rating list at creation; when
//! its last result is in, its games are rated into the list — as `arbiter rate --event` rates
//! them, checked against the command line rating the same event into a list of its own — and
//! each player's line shows their standing before and after. The server is killed (`kill -9`)
//! the moment the last game ends and started twice more: the event is rated once.

use std::collections::HashMap;
use std::process::Command;

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::common::Server;
use crate::http::*;

/// `arbiter rate --db DB --json ARGS`, which must succeed: its lines as JSON.
fn rate(db: &str, args: &[&str]) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["rate", "--db", db, "--json"])
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The test's results: the lower number wins, but 2–3 and 1–4 are drawn.
fn winner(a: u32, b: u32) -> Option<u32> {
    match (a.min(b), a.max(b)) {
        (2, 3) | (1, 4) => None,
        (lo, _) => Some(lo),
    }
}

async fn rated_round_robin(db: &str, system: &str) {
    let mut s = Server::start_with(db, &[]);
    let c = Client::new();
    let list = format!("club {system}");
    let base = json!({"name": "Rated", "format": "round-robin", "kind": "xiangqi",
        "clock": {"limit": 0, "increment": 0}});
    // A list that does not exist needs its system; a system needs a list.
    for (extra, why) in [
        (json!({"ratingList": "nowhere"}), "no such list, no system"),
        (json!({"ratingSystem": "elo"}), "a system without a list"),
        (json!({"ratingList": "x", "ratingSystem": "fide"}), "no such system"),
    ] {
        let mut body = base.clone();
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let (st, v) = call(&c, &s, "POST", "/api/event", None, Some(body)).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{why}: {v}");
    }
    let mut body = base.clone();
    body["ratingList"] = list.clone().into();
    body["ratingSystem"] = system.into();
    let ev = create(&c, &s, body, 4).await;
    let v = event(&c, &s, &ev, None).await;
    assert_eq!(v["ratingList"], list);
    assert_eq!(v["rated"], false);

    for round in 1..=3 {
        let pairings = start_round(&c, &s, &ev).await;
        assert_eq!(pairings.len(), 2, "round {round}");
        for (k, (_, a, b)) in pairings.iter().enumerate() {
            let g = seats(&c, &s, &ev, *a, *b).await;
            plies(&c, &s, &g, 0, 4).await;
            finish(&c, &s, &g, winner(*a, *b)).await;
            if round < 3 || k == 0 {
                let v = event(&c, &s, &ev, None).await;
                assert_eq!(v["rated"], false, "not over: not rated");
            }
        }
    }
    // The last game ended: the server dies at once, the rating perhaps not made yet.
    s.kill9();
    s = Server::start_with(db, &[]);
    let v = wait_event(&c, &s, &ev, "the rating", |v| {
        v["finished"] == true && v["rated"] == true
    })
    .await;

    // Every player's line: their standing before (new to the list) and after.
    let by_name: HashMap<String, Value> = v["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap().to_string(), e["rating"].clone()))
        .collect();
    assert_eq!(by_name.len(), 4);
    for line in v["standings"][0]["lines"].as_array().unwrap() {
        let name = format!("Player {}", line["id"]);
        assert_eq!(line["rating"], by_name[&name], "the standings line shows it too");
    }
    // The command line rates the same event into a list of its own: the same numbers.
    let cli = rate(db, &["--list", "check", "--system", system, "--event", &ev.id]);
    assert_eq!(cli.len(), 4);
    for row in &cli {
        let name = row["player"].as_str().unwrap();
        let served = &by_name[name];
        assert_eq!(served["before"], row["before"], "{name}");
        assert_eq!(served["change"], row["change"], "{name}");
        let mut after = row.clone();
        for k in ["player", "played", "from", "before", "change"] {
            after.as_object_mut().unwrap().remove(k);
        }
        assert_eq!(served["after"], after, "{name}");
        assert_eq!(served["after"]["games"], 3, "{name}: three games each");
    }
    // Player 1 won two and drew one: they gained.
    assert_ne!(by_name["Player 1"]["before"], by_name["Player 1"]["after"]);
    let shown = rate(db, &["--list", &list, "--show"]);
    assert_eq!(shown.len(), 4);

    // Started again, twice: rated once, the list where it was.
    for _ in 0..2 {
        drop(s);
        s = Server::start_with(db, &[]);
        let v = event(&c, &s, &ev, None).await;
        assert_eq!(v["rated"], true);
    }
    let history = rate(db, &["--list", &list, "--history"]);
    assert_eq!(history.len(), 4, "one update of four players: {history:?}");
    assert!(history
        .iter()
        .all(|h| h["source"] == ev.id.as_str() && h["version"] == 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ended_event_is_rated_once_on_sqlite() {
    let (dir, db) = sqlite("elo");
    rated_round_robin(&db, "elo").await;
    let _ = std::fs::remove_dir_all(&dir);
    let (dir, db) = sqlite("levels");
    rated_round_robin(&db, "levels").await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ended_event_is_rated_once_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("event_ops_glicko2") else {
        return;
    };
    rated_round_robin(&db.url, "glicko2").await;
}
