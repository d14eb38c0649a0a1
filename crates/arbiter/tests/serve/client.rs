//! The client side of the HTTP tests: a game created, its actions posted, its stream read.

use std::time::{Duration, Instant};

use reqwest::{Client, StatusCode};
use serde_json::Value;

use crate::common::Server;

pub struct Game {
    pub id: String,
    pub tokens: [String; 2],
}

pub async fn create(c: &Client, s: &Server, body: Value) -> Game {
    let r = c.post(format!("{}/api/game", s.base)).json(&body).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let v: Value = r.json().await.unwrap();
    let token = |i: usize| v["seats"][i]["token"].as_str().unwrap().to_string();
    Game {
        id: v["id"].as_str().unwrap().to_string(),
        tokens: [token(0), token(1)],
    }
}

/// POSTs an action with a token; returns the status and the JSON body.
pub async fn act(c: &Client, s: &Server, g: &Game, path: &str, token: Option<&str>) -> (StatusCode, Value) {
    let mut req = c.post(format!("{}/api/board/game/{}/{path}", s.base, g.id));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let r = req.send().await.unwrap();
    let status = r.status();
    (status, r.json().await.unwrap_or(Value::Null))
}

pub async fn play(c: &Client, s: &Server, g: &Game, moves: &[&str]) {
    for (i, m) in moves.iter().enumerate() {
        let (st, v) = act(c, s, g, &format!("move/{m}"), Some(&g.tokens[i % 2])).await;
        assert_eq!(st, StatusCode::OK, "{m}: {v}");
    }
}

/// The stream's lines until `n` have come (a finished game's stream ends by itself).
pub async fn lines(c: &Client, s: &Server, g: &Game, query: &str, n: usize) -> Vec<Value> {
    let mut r = c
        .get(format!("{}/api/board/game/stream/{}{query}", s.base, g.id))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let mut buf = Vec::new();
    let mut out = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while out.len() < n && Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_secs(10), r.chunk()).await {
            Ok(Ok(Some(bytes))) => buf.extend_from_slice(&bytes),
            _ => break,
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

pub async fn full(c: &Client, s: &Server, g: &Game) -> Value {
    let l = lines(c, s, g, "", 1).await;
    assert_eq!(l[0]["type"], "gameFull", "{}", l[0]);
    l[0].clone()
}
