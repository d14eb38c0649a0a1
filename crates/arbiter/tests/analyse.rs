//! `POST /api/analyse` through a real `arbiter serve` with Debian's Fairy-Stockfish: a mate
//! is seen a move before it, scores are the first side's, the best line is written in the
//! game's notation; requests beyond the places and the queue are refused with 503 and a JSON
//! error; bad requests are 400. Skipped without the engine (fails under `CI=true`).

use std::path::PathBuf;
use std::time::Duration;

use reqwest::{Client, Response, StatusCode};
use serde_json::{json, Value};

mod common;
use common::Server;

fn fairy() -> Option<PathBuf> {
    testdata::fairy_stockfish("the analysis")
}

struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

async fn post(c: &Client, s: &Server, body: Value) -> Response {
    c.post(format!("{}/api/analyse", s.base))
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// The JSON lines of a streamed answer, read one at a time.
struct Lines {
    r: Response,
    buf: Vec<u8>,
}

impl Lines {
    async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=end).collect();
                return Some(serde_json::from_slice(&line).unwrap());
            }
            let chunk = tokio::time::timeout(Duration::from_secs(60), self.r.chunk())
                .await
                .expect("a line within a minute")
                .unwrap()?;
            self.buf.extend_from_slice(&chunk);
        }
    }
}

async fn lines(c: &Client, s: &Server, body: Value) -> Lines {
    let r = post(c, s, body).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-type"], "application/x-ndjson");
    Lines { r, buf: Vec::new() }
}

/// Every line of an analysis: the header, each position in order, then `done`.
async fn whole(c: &Client, s: &Server, body: Value) -> Vec<Value> {
    let mut l = lines(c, s, body).await;
    let head = l.next().await.unwrap();
    let n = head["positions"].as_u64().unwrap() as usize;
    let mut out = Vec::new();
    while let Some(v) = l.next().await {
        if v["done"] == true {
            break;
        }
        assert!(v.get("error").is_none(), "{v}");
        assert_eq!(v["ply"], out.len(), "{v}");
        out.push(v);
    }
    assert_eq!(out.len(), n);
    assert!(l.next().await.is_none(), "nothing after done");
    out
}

async fn mates(c: &Client, s: &Server) {
    // Xiangqi: the rook mates at once; the position after is over, the king in check.
    let v = whole(
        c,
        s,
        json!({"kind": "xiangqi", "fen": "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", "moves": "e1d1"}),
    )
    .await;
    assert_eq!(v[0]["score"], json!({"mate": 1}), "{}", v[0]);
    assert_eq!(
        v[0]["best"],
        json!({"coordinate": "e1d1", "notation": "车五平六", "wxf": "R5.6"})
    );
    assert_eq!(v[0]["pv"][0]["coordinate"], "e1d1");
    assert_eq!(
        (v[1]["over"].as_bool(), v[1]["check"].as_bool()),
        (Some(true), Some(true))
    );
    // Chess, Black mating: the score is White's view, so negative.
    let v = whole(c, s, json!({"kind": "chess", "moves": "f2f3 e7e5 g2g4 d8h4"})).await;
    assert_eq!(v[3]["score"], json!({"mate": -1}), "{}", v[3]);
    assert_eq!(v[3]["best"]["notation"], "Qh4#");
    assert_eq!(v[4]["over"], true);
    // A start position: a line of several legal moves, written as the game writes them.
    let first = &v[0];
    assert!(first["depth"].as_u64().unwrap() >= 1, "{first}");
    assert!(first["score"]["cp"].is_i64(), "{first}");
    let pv = first["pv"].as_array().unwrap();
    assert!(pv.len() >= 2, "{first}");
    assert!(pv.iter().all(|m| m["notation"].is_string() && m.get("wxf").is_none()));
}

/// A game of knights going back and forth: `n` plies, each a search.
fn long_game(n: usize) -> String {
    let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    (0..n).map(|i| cycle[i % 4]).collect::<Vec<_>>().join(" ")
}

async fn the_queue_is_bounded(c: &Client, s: &Server) {
    let long = json!({"kind": "xiangqi", "moves": long_game(200)});
    // The server runs one analysis and queues one (its options below).
    let mut running = lines(c, s, long.clone()).await;
    assert_eq!(running.next().await.unwrap(), json!({"positions": 201, "queued": 0}));
    let mut waiting = lines(c, s, long.clone()).await;
    assert_eq!(waiting.next().await.unwrap(), json!({"positions": 201, "queued": 1}));
    let refused = post(c, s, long.clone()).await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = refused.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("try again"), "{body}");
    // The running one answers; once it is dropped the waiting one runs.
    assert_eq!(running.next().await.unwrap()["ply"], 0);
    drop(running);
    // Until the place is freed the waiting one is told it still waits (once a second).
    let first = loop {
        let line = waiting.next().await.unwrap();
        if line.get("ply").is_some() {
            break line;
        }
        assert!(line.get("queued").is_some(), "{line}");
    };
    assert_eq!(first["ply"], 0);
    drop(waiting);
    // The place is free again: the engines stop at their next position, and a client gone
    // from the queue is noticed at the next line written to it.
    let mut free = false;
    for _ in 0..100 {
        let r = post(c, s, json!({"kind": "chess", "moves": "e2e4"})).await;
        if r.status() == StatusCode::OK {
            let mut l = Lines { r, buf: Vec::new() };
            if l.next().await.unwrap()["queued"] == 0 {
                free = true;
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(free, "the place was not given back");
}

async fn bad_requests(c: &Client, s: &Server) {
    for (body, says) in [
        (json!({"kind": "go", "moves": ""}), "unknown"),
        (
            json!({"kind": "xiangqi", "moves": "h2e2 h2e2"}),
            "move 2 (h2e2) is not legal",
        ),
        (json!({"kind": "chess", "fen": "not a fen"}), "fen"),
        (json!({"kind": "xiangqi", "moves": long_game(301)}), "at most 300"),
        (json!({"moves": "e2e4"}), "kind"),
    ] {
        let r = post(c, s, body.clone()).await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{body}");
        let v: Value = r.json().await.unwrap();
        assert!(v["error"].as_str().unwrap().contains(says), "{body}: {v}");
    }
    let r = c
        .post(format!("{}/api/analyse", s.base))
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.json::<Value>().await.unwrap()["error"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyse_over_http() {
    let Some(_) = fairy() else { return };
    let db = std::env::temp_dir().join(format!("arbiter-analyse-test-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let _db = Removed(db.clone());
    let s = Server::start_with(db.to_str().unwrap(), &["--analyses", "1", "--analysis-queue", "1"]);
    let c = Client::new();
    bad_requests(&c, &s).await;
    mates(&c, &s).await;
    the_queue_is_bounded(&c, &s).await;
}

/// An engine that does not start ends the stream with a coded error a page writes in its
/// language: `/bin/true` exits at once, as a missing or broken engine would.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_that_does_not_start_is_a_coded_line() {
    let db = std::env::temp_dir().join(format!("arbiter-analyse-broken-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let _db = Removed(db.clone());
    let s = Server::start_with_env(db.to_str().unwrap(), &[], &[("ARBITER_ENGINE", "/bin/true")]);
    let c = Client::new();
    let mut l = lines(&c, &s, json!({"kind": "xiangqi", "moves": "h2e2"})).await;
    let mut seen = Vec::new();
    while let Some(v) = l.next().await {
        seen.push(v);
    }
    let last = seen.last().expect("a line");
    let lines = &seen;
    assert_eq!(last["why"], "engine_did_not_start", "{lines:?}");
    assert!(last["args"]["detail"].is_string(), "{last}");
    assert!(
        last["error"].as_str().unwrap().starts_with("the engine did not start"),
        "{last}"
    );
}
