//! The clients' side: an organiser's and players' requests, each with its own token.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use reqwest::Client;
use serde_json::{json, Value};

use crate::common::Server;
// What both event test suites share: calls with a token, the event, a board's seat and its
// plies, the end of a game, a scratch SQLite file.
pub use crate::support::{board, call, finish, ok, plies, sqlite, Ev, Seat};

/// Creates the event and registers `players` players, `Player 1` …
pub async fn create(c: &Client, s: &Server, body: Value, players: u32) -> Ev {
    let v = ok(c, s, "POST", "/api/event", None, Some(body)).await;
    let id = v["id"].as_str().unwrap().to_string();
    let organiser = v["organiserToken"].as_str().unwrap().to_string();
    let mut tokens = HashMap::new();
    for i in 1..=players {
        let r = ok(
            c,
            s,
            "POST",
            &format!("/api/event/{id}/register"),
            Some(&organiser),
            Some(json!({"name": format!("Player {i}")})),
        )
        .await;
        tokens.insert(i, r["token"].as_str().unwrap().to_string());
    }
    Ev { id, organiser, tokens }
}

/// The event as anyone sees it; with a token, as its holder does.
pub async fn event(c: &Client, s: &Server, ev: &Ev, token: Option<&str>) -> Value {
    ok(c, s, "GET", &format!("/api/event/{}", ev.id), token, None).await
}

/// Waits until `done` holds of the public view (results are entered as games end).
pub async fn wait_event(c: &Client, s: &Server, ev: &Ev, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let v = event(c, s, ev, Some(&ev.organiser)).await;
        if done(&v) {
            return v;
        }
        assert!(Instant::now() < deadline, "waited 30 s for {what}: {v}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// The organiser starts the next round: its pairings (id, first, second), byes left out.
pub async fn start_round(c: &Client, s: &Server, ev: &Ev) -> Vec<(String, u32, u32)> {
    let r = ok(
        c,
        s,
        "POST",
        &format!("/api/event/{}/round/start", ev.id),
        Some(&ev.organiser),
        None,
    )
    .await;
    r["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["second"].is_null())
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_string(),
                p["first"].as_u64().unwrap() as u32,
                p["second"].as_u64().unwrap() as u32,
            )
        })
        .collect()
}

/// Both players ask for their game; it is the same one, each on their side.
pub async fn seats(c: &Client, s: &Server, ev: &Ev, a: u32, b: u32) -> Seat {
    let path = format!("/api/event/{}/me", ev.id);
    let ma = ok(c, s, "GET", &path, Some(&ev.tokens[&a]), None).await;
    let mb = ok(c, s, "GET", &path, Some(&ev.tokens[&b]), None).await;
    assert_eq!(ma["game"]["id"], mb["game"]["id"], "{ma} {mb}");
    let red_player = if ma["game"]["side"] == "red" { a } else { b };
    let black_player = if red_player == a { b } else { a };
    Seat {
        id: ma["game"]["id"].as_str().unwrap().to_string(),
        number: ma["game"]["number"].as_u64().unwrap(),
        red: ev.tokens[&red_player].clone(),
        black: ev.tokens[&black_player].clone(),
        red_player,
    }
}

/// The game's `gameFull` line, as its stream opens with it (the clocks as they are now).
pub async fn full(c: &Client, s: &Server, game: &str) -> Value {
    let mut r = c
        .get(format!("{}/api/board/game/stream/{game}", s.base))
        .send()
        .await
        .unwrap();
    let mut buf = Vec::new();
    while !buf.contains(&b'\n') {
        match tokio::time::timeout(Duration::from_secs(10), r.chunk()).await {
            Ok(Ok(Some(bytes))) => buf.extend_from_slice(&bytes),
            other => panic!("no gameFull line: {other:?}"),
        }
    }
    let nl = buf.iter().position(|&b| b == b'\n').unwrap();
    serde_json::from_slice(&buf[..nl]).unwrap()
}

/// Red's and black's time left now, milliseconds.
pub async fn clocks(c: &Client, s: &Server, game: &str) -> (u64, u64) {
    let f = full(c, s, game).await;
    (
        f["state"]["wtime"].as_u64().unwrap(),
        f["state"]["btime"].as_u64().unwrap(),
    )
}

/// Every line of the game's stream since its start (`?since=0`), as many as it has.
pub async fn history(c: &Client, s: &Server, game: &str) -> Vec<Value> {
    let n = full(c, s, game).await["version"].as_u64().unwrap() as usize;
    let mut r = c
        .get(format!("{}/api/board/game/stream/{game}?since=0", s.base))
        .send()
        .await
        .unwrap();
    let mut buf = Vec::new();
    let mut out = Vec::new();
    while out.len() < n {
        match tokio::time::timeout(Duration::from_secs(10), r.chunk()).await {
            Ok(Ok(Some(bytes))) => buf.extend_from_slice(&bytes),
            other => panic!("{} of {n} lines, then {other:?}", out.len()),
        }
        while let Some(nl) = buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = buf.drain(..=nl).collect();
            if line.len() > 1 {
                out.push(serde_json::from_slice(&line).unwrap());
            }
        }
    }
    out
}
