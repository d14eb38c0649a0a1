//! The clients' side: an organiser's and players' requests, each with its own token.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::common::Server;

/// Xiangqi plies every game opens with, red first (ICCS).
pub const OPENING: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

pub async fn call(
    c: &Client,
    s: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let url = format!("{}{path}", s.base);
    let mut req = match method {
        "GET" => c.get(url),
        _ => c.post(url),
    };
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let r = req.send().await.unwrap();
    let status = r.status();
    (status, r.json().await.unwrap_or(Value::Null))
}

pub async fn ok(c: &Client, s: &Server, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> Value {
    let (st, v) = call(c, s, method, path, token, body).await;
    assert_eq!(st, StatusCode::OK, "{method} {path}: {v}");
    v
}

pub struct Ev {
    pub id: String,
    pub organiser: String,
    /// Entrant number → token.
    pub tokens: HashMap<u32, String>,
}

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

/// A game as both players' clients see it through their own tokens.
pub struct Seat {
    pub id: String,
    pub red: String,
    pub black: String,
    pub red_player: u32,
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
        red: ev.tokens[&red_player].clone(),
        black: ev.tokens[&black_player].clone(),
        red_player,
    }
}

pub async fn board(c: &Client, s: &Server, g: &Seat, path: &str, token: &str) -> (StatusCode, Value) {
    call(
        c,
        s,
        "POST",
        &format!("/api/board/game/{}/{path}", g.id),
        Some(token),
        None,
    )
    .await
}

/// Plays plies `from..to` of the opening, each by the side to move with its own token.
pub async fn plies(c: &Client, s: &Server, g: &Seat, from: usize, to: usize) {
    for (i, m) in OPENING.iter().enumerate().take(to).skip(from) {
        let token = if i % 2 == 0 { &g.red } else { &g.black };
        let (st, v) = board(c, s, g, &format!("move/{m}"), token).await;
        assert_eq!(st, StatusCode::OK, "{m}: {v}");
    }
}

/// Ends a game: `winner` wins (the other resigns), or a draw agreed (`None`).
pub async fn finish(c: &Client, s: &Server, g: &Seat, winner: Option<u32>) {
    match winner {
        Some(w) => {
            let loser = if w == g.red_player { &g.black } else { &g.red };
            let (st, v) = board(c, s, g, "resign", loser).await;
            assert_eq!(st, StatusCode::OK, "{v}");
        }
        None => {
            for t in [&g.red, &g.black] {
                let (st, v) = board(c, s, g, "draw/yes", t).await;
                assert_eq!(st, StatusCode::OK, "{v}");
            }
        }
    }
}

/// A fresh SQLite file for a test, and its directory to remove after.
pub fn sqlite(test: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("arbiter-event-ops-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}?mode=rwc", dir.join("e.db").display());
    (dir, db)
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
