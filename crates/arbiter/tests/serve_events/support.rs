//! The clients' side of a served event: calls with a token, the event and a player's view,
//! a board's seat and its moves, and what the standings say.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use super::common::Server;

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
            Some(json!({"name": format!("Player {i}"), "rating": 2400 - 10 * i})),
        )
        .await;
        assert_eq!(r["entrant"], i);
        let token = r["token"].as_str().unwrap().to_string();
        assert_eq!(r["url"], format!("/event/{id}#player={token}"));
        tokens.insert(i, token);
    }
    Ev { id, organiser, tokens }
}

pub async fn event(c: &Client, s: &Server, ev: &Ev) -> Value {
    ok(c, s, "GET", &format!("/api/event/{}", ev.id), None, None).await
}

pub async fn me(c: &Client, s: &Server, ev: &Ev, who: u32) -> Value {
    ok(
        c,
        s,
        "GET",
        &format!("/api/event/{}/me", ev.id),
        Some(&ev.tokens[&who]),
        None,
    )
    .await
}

/// Waits until `done` holds of the event (results are entered as games end, by the server).
pub async fn wait_event(c: &Client, s: &Server, ev: &Ev, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let v = event(c, s, ev).await;
        if done(&v) {
            return v;
        }
        assert!(Instant::now() < deadline, "waited 30 s for {what}: {v}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// A game as both players' clients see it through their own tokens.
pub struct Seat {
    pub id: String,
    pub number: u64,
    /// The tokens of red and black.
    pub red: String,
    pub black: String,
    pub red_player: u32,
}

/// Both players ask for their game; it is the same one, each on their side.
pub async fn seats(c: &Client, s: &Server, ev: &Ev, a: u32, b: u32) -> Seat {
    let (ma, mb) = (me(c, s, ev, a).await, me(c, s, ev, b).await);
    assert_eq!(ma["game"]["id"], mb["game"]["id"], "{ma} {mb}");
    assert_eq!(ma["pairing"]["opponent"]["id"], b);
    assert_ne!(ma["game"]["side"], mb["game"]["side"]);
    let (red, black, red_player) = if ma["game"]["side"] == "red" {
        (a, b, a)
    } else {
        (b, a, b)
    };
    let token = |p: u32| {
        let m = if p == a { &ma } else { &mb };
        m["game"]["seatToken"].as_str().unwrap().to_string()
    };
    Seat {
        id: ma["game"]["id"].as_str().unwrap().to_string(),
        number: ma["game"]["number"].as_u64().unwrap(),
        red: token(red),
        black: token(black),
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

/// The game's moves so far, from the first line of its stream.
pub async fn moves(c: &Client, s: &Server, g: &Seat) -> String {
    let mut r = c
        .get(format!("{}/api/board/game/stream/{}", s.base, g.id))
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
    let full: Value = serde_json::from_slice(&buf[..nl]).unwrap();
    full["state"]["moves"].as_str().unwrap().to_string()
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

pub fn pairings_of(round: &Value) -> Vec<(String, u32, u32)> {
    round["pairings"]
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

/// The round robin's results, chosen by the test: the lower number wins, a draw, or the higher
/// number wins, by the pair.
pub fn rr_winner(a: u32, b: u32) -> Option<u32> {
    let (lo, hi) = (a.min(b), a.max(b));
    match (lo * 7 + hi) % 3 {
        0 => Some(lo),
        1 => None,
        _ => Some(hi),
    }
}

pub fn standings_points(v: &Value, table: usize) -> HashMap<u32, f64> {
    v["standings"][table]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["id"].as_u64().unwrap() as u32, l["points"].as_f64().unwrap()))
        .collect()
}

/// Who may do what: a player's token enters no result, starts no round, registers no one, sits
/// at no other board; no token is 401; one event's organiser token is worthless in another.
pub async fn access_control(c: &Client, s: &Server, ev: &Ev, other: &Ev) {
    let id = &ev.id;
    let player = ev.tokens[&1].as_str();
    for (path, body) in [
        ("round/start", None),
        (
            "result",
            Some(json!({"pairing": "1.1", "results": ["1-0"], "reason": "x"})),
        ),
        ("register", Some(json!({"name": "Mallory"}))),
        ("withdraw", Some(json!({"entrant": 2}))),
    ] {
        let p = format!("/api/event/{id}/{path}");
        assert_eq!(
            call(c, s, "POST", &p, Some(player), body.clone()).await.0,
            StatusCode::FORBIDDEN,
            "{path}"
        );
        assert_eq!(
            call(c, s, "POST", &p, None, body.clone()).await.0,
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
        assert_eq!(
            call(c, s, "POST", &p, Some(&other.organiser), body).await.0,
            StatusCode::FORBIDDEN,
            "{path}: another event's organiser"
        );
    }
    let (st, _) = call(c, s, "GET", &format!("/api/event/{id}/me"), Some(&ev.organiser), None).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "the organiser has no pairing");
    let (st, _) = call(
        c,
        s,
        "GET",
        &format!("/api/event/{id}/me"),
        Some(&other.tokens[&1]),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN, "another event's player");
    // Registration is the organiser's unless opened.
    let (st, v) = call(
        c,
        s,
        "POST",
        &format!("/api/event/{id}/join"),
        None,
        Some(json!({"name": "Eve"})),
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(
        call(c, s, "GET", "/api/event/nosuch", None, None).await.0,
        StatusCode::NOT_FOUND
    );
}

/// The stream gives every change, in order, each with its version.
pub async fn stream_changes(c: &Client, s: &Server, ev: &Ev, upto: u64) -> Vec<Value> {
    let mut r = c
        .get(format!("{}/api/event/{}/stream?since=0", s.base, ev.id))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let mut buf = Vec::new();
    let mut out: Vec<Value> = Vec::new();
    while out.last().and_then(|l| l["version"].as_u64()).unwrap_or(0) < upto {
        match tokio::time::timeout(Duration::from_secs(10), r.chunk()).await {
            Ok(Ok(Some(bytes))) => buf.extend_from_slice(&bytes),
            other => panic!("the stream ended before version {upto}: {other:?}"),
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

/// A fresh SQLite file for one test, in its own directory.
pub fn sqlite(test: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("arbiter-serve-events-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}?mode=rwc", dir.join("e.db").display());
    (dir, db)
}
