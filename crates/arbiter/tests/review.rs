//! `POST /api/review` and `GET /api/openapi.json` through real HTTP on a spawned
//! `arbiter serve`: real records of both games from `tests/data/records/` (chess PGN, Xiangqi
//! PGN in Big5 and GBK, XQF) checked against the oracles beside them, the judge's verdict and the
//! record's result, malformed and oversized bodies, and every operation of the OpenAPI
//! document reaching its route. The review page is served too.

use std::collections::BTreeSet;
use std::path::PathBuf;

use reqwest::{Client, StatusCode};
use serde_json::Value;

mod common;
use common::Server;

/// Removes a file when dropped (made before the server, so dropped after it has stopped).
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// POSTs `body` to `/api/review{query}`; the status and the JSON answer.
async fn review(c: &Client, s: &Server, query: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let r = c
        .post(format!("{}/api/review{query}", s.base))
        .header("content-type", "application/octet-stream")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = r.status();
    let json = r.headers().get("content-type").map(|v| v.to_str().unwrap().to_string());
    assert_eq!(
        json.as_deref(),
        Some("application/json"),
        "{status}: every answer is JSON"
    );
    (status, r.json().await.unwrap())
}

fn record(relative: &str) -> Vec<u8> {
    std::fs::read(testdata::record_file(relative)).unwrap()
}

/// Row `n` (1-based) of an oracle TSV, split on tabs.
fn oracle(relative: &str, n: usize) -> Vec<String> {
    let text = String::from_utf8(record(relative)).unwrap();
    text.lines().nth(n).unwrap().split('\t').map(str::to_string).collect()
}

fn coordinates(v: &Value) -> String {
    v["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["coordinate"].as_str().unwrap())
        .collect::<Vec<_>>()
        .join(" ")
}

async fn chess_pgn(c: &Client, s: &Server) {
    // The whole sample (438 games, just under 1 MiB): the first game, then the 5th.
    let pgn = record("chess-lichess/lichess-2025-05-sample.pgn");
    assert!(
        pgn.len() > 4096 && pgn.len() <= 1 << 20,
        "bigger than the API's 4 KiB, within 1 MiB"
    );
    let (st, v) = review(c, s, "", pgn.clone()).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(
        (v["kind"].as_str(), v["format"].as_str()),
        (Some("chess"), Some("chess-pgn"))
    );
    assert_eq!((v["game"].as_u64(), v["games"].as_u64()), (Some(1), Some(438)));
    let row = oracle("chess-lichess/lichess-2025-05-sample.expected.tsv", 1);
    assert_eq!(v["plies"].as_array().unwrap().len(), row[4].parse::<usize>().unwrap());
    let last = v["plies"].as_array().unwrap().last().unwrap();
    assert_eq!(last["fen"], row[6], "the FEN after the last ply");
    assert!(last["notation"].as_str().unwrap().ends_with('#'), "{last}");
    assert_eq!(v["verdict"]["reason"], "checkmate");
    assert_eq!(v["verdict"]["result"], "black");
    assert_eq!(v["recordResult"], "0-1");
    assert_eq!(v["agrees"], true);
    assert_eq!(v["checks"].as_array().unwrap().last(), Some(&Value::from(42)));
    assert!(v["tags"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["name"] == "Site" && t["value"] == row[1]));

    let (st, v) = review(c, s, "?game=5&rules=seed001", pgn).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let row = oracle("chess-lichess/lichess-2025-05-sample.expected.tsv", 5);
    assert_eq!(v["game"], 5);
    assert_eq!(
        v["verdict"]["ruleset"], "automatic-draws",
        "the old name reads as the new"
    );
    assert_eq!(v["plies"].as_array().unwrap().last().unwrap()["fen"], row[6]);
    assert_eq!(v["recordResult"], row[2]);
}

async fn xiangqi_pgn_big5(c: &Client, s: &Server) {
    // Big5 bytes, as a browser uploads a file: the first game ends in checkmate.
    let pgn = record("xiangqi-ccpd/ccpd-sample.big5.pgn");
    let (st, v) = review(c, s, "", pgn.clone()).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let row = oracle("xiangqi-ccpd/ccpd-sample.expected.tsv", 1);
    assert_eq!(
        (v["kind"].as_str(), v["format"].as_str()),
        (Some("xiangqi"), Some("pgn"))
    );
    assert_eq!(v["games"], 340);
    assert_eq!(v["initialFen"], row[2]);
    assert_eq!(coordinates(&v), row[6]);
    assert_eq!(row[5], "checkmate (black to move)");
    assert_eq!(v["verdict"]["reason"], "checkmate");
    assert_eq!(v["verdict"]["result"], "red");
    assert_eq!(v["verdict"]["ruleset"], "cxa");
    assert_eq!(v["recordResult"], "1-0");
    assert_eq!(v["agrees"], true);
    let first = &v["plies"][0];
    assert_eq!(first["notation"], "炮二平五");
    assert_eq!(first["wxf"], "C2.5");
    assert_eq!(first["side"], "red");
    // The checks are the plies after which the side to move stands in check.
    let checks: Vec<u64> = v["plies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["check"] == true)
        .map(|p| p["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(v["checks"], serde_json::json!(checks));
    assert!(checks.contains(&129), "the mate is a check");

    // Another ruleset for the same game; one of chess refused.
    let (st, v) = review(c, s, "?rules=axf", pgn.clone()).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["verdict"]["ruleset"], "axf");
    let (st, v) = review(c, s, "?rules=fide", pgn).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("cxa"), "{v}");
}

async fn xqf_and_its_pgn(c: &Client, s: &Server) {
    // The same game as XQF (binary) and as a GBK PGN: the same plies, the oracle's line.
    let text = String::from_utf8(record("xiangqi-xqf/xqf-expected.tsv")).unwrap();
    let row: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("xqbase-SAMPLE.XQF\t"))
        .unwrap()
        .split('\t')
        .collect();
    let (st, xqf) = review(c, s, "", record("xiangqi-xqf/xqbase-SAMPLE.XQF")).await;
    assert_eq!(st, StatusCode::OK, "{xqf}");
    assert_eq!(xqf["format"], "xqf");
    assert_eq!(xqf["initialFen"], row[10]);
    assert_eq!(coordinates(&xqf), row[11]);
    let (st, pgn) = review(c, s, "", record("xiangqi-xqf/xqbase-SAMPLE.gbk.pgn")).await;
    assert_eq!(st, StatusCode::OK, "{pgn}");
    assert_eq!(pgn["format"], "pgn");
    assert_eq!(coordinates(&pgn), coordinates(&xqf));
    assert_eq!(pgn["plies"], xqf["plies"]);
    assert!(
        xqf["tags"].as_array().unwrap().iter().any(|t| t["value"] == "许银川"),
        "{}",
        xqf["tags"]
    );

    // An XQF with an illegal move: the reader drops it and says so; the rest is reviewed.
    let (st, v) = review(c, s, "", record("xiangqi-xqf/BadMoveTest3.xqf")).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["plies"].as_array().unwrap().len(), 9);
    assert!(!v["issues"].as_array().unwrap().is_empty(), "{v}");
}

async fn bad_bodies(c: &Client, s: &Server) {
    let bad = |what: &str, st: StatusCode, v: &Value| {
        assert!(st.is_client_error(), "{what}: {st} {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{what}: {v}");
    };
    let (st, v) = review(c, s, "", Vec::new()).await;
    bad("empty", st, &v);
    let (st, v) = review(c, s, "", b"hello, world".to_vec()).await;
    bad("not a record", st, &v);
    let (st, v) = review(c, s, "", (0..=255u8).cycle().take(5000).collect()).await;
    bad("random bytes", st, &v);
    let mut xqf = record("xiangqi-xqf/xqbase-SAMPLE.XQF");
    xqf.truncate(700);
    let (st, v) = review(c, s, "", xqf).await;
    bad("a cut XQF", st, &v);
    let (st, v) = review(c, s, "?format=xqf", b"1. e4 e5".to_vec()).await;
    bad("PGN read as XQF", st, &v);
    let fools = b"1. f3 e5 2. g4 Qh4# 0-1".to_vec();
    for q in ["?game=0", "?game=2", "?game=abc", "?rules=nope", "?format=doc"] {
        let (st, v) = review(c, s, q, fools.clone()).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{q}: {v}");
        bad(q, st, &v);
    }
    let (st, v) = review(c, s, "", fools).await;
    assert_eq!(st, StatusCode::OK, "{v}");

    // Over 1 MiB: refused from the length it announces, before the body is read — so the test
    // sends the head alone and reads the answer (a client that went on writing the body would
    // race the server closing the connection, and could see a broken pipe instead).
    let (st, v) = announced_too_large(s, "/api/review", (1 << 20) + 1);
    assert_eq!(st, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    bad("too large", st, &v);
    // The other routes keep their 4 KiB.
    let r = c
        .post(format!("{}/api/game", s.base))
        .header("content-type", "application/json")
        .body(format!("{{\"kind\": \"chess\", \"x\": \"{}\"}}", "a".repeat(5000)))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
}

/// POSTs a head announcing `len` bytes and no body; the status and the JSON answer.
fn announced_too_large(s: &Server, path: &str, len: usize) -> (StatusCode, Value) {
    use std::io::{Read, Write};
    let addr = s.base.trim_start_matches("http://");
    let mut tcp = std::net::TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(std::time::Duration::from_secs(20))).unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/octet-stream\r\n\
         Content-Length: {len}\r\nConnection: close\r\n\r\n"
    );
    tcp.write_all(head.as_bytes()).unwrap();
    let mut answer = Vec::new();
    // The server answers and closes without waiting for the body; a timeout here means it
    // waited.
    let _ = tcp.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    let status: u16 = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no answer to a head announcing {len} bytes: {text:?}"));
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
    // A chunked body's JSON sits between its size lines.
    let json = body
        .lines()
        .find(|l| l.trim_start().starts_with('{'))
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or(Value::Null);
    (StatusCode::from_u16(status).unwrap(), json)
}

/// The document describes the routes the server has: every operation reaches a handler (not
/// the fallback's "no such endpoint", not 405), and the document parses.
async fn openapi(c: &Client, s: &Server) {
    let r = c.get(format!("{}/api/openapi.json", s.base)).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let doc: Value = r.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    let mut ops = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            let url = path
                .replace("{id}", "nosuchgame")
                .replace("{mv}", "e2e4")
                .replace("{answer}", "yes")
                .replace("{side}", "red");
            let req = match method.as_str() {
                "get" => c.get(format!("{}{url}", s.base)),
                "post" => c.post(format!("{}{url}", s.base)),
                "delete" => c.delete(format!("{}{url}", s.base)),
                other => panic!("unexpected method {other}"),
            };
            let r = req.send().await.unwrap();
            let status = r.status();
            let body: Value = r.json().await.unwrap_or(Value::Null);
            assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
            assert_ne!(body["error"], "no such endpoint", "{method} {path}");
            ops.insert(format!("{method} {path}"));
        }
    }
    // Games and board 11, the game socket 1, the arbiter's console 14, the board device 5,
    // events 13, players 8, seeks 9: every one answers.
    assert_eq!(ops.len(), 63, "{ops:?}");
    // The probe tells a route from none.
    let r = c.get(format!("{}/api/no/such/route", s.base)).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "no such endpoint");
}

async fn the_page_is_served(c: &Client, s: &Server) {
    let r = c.get(format!("{}/review", s.base)).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let html = r.text().await.unwrap();
    assert!(html.contains("/static/review.js"), "{html}");
    let r = c.get(format!("{}/static/review.js", s.base)).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
    let js = r.text().await.unwrap();
    assert!(js.contains("/api/review") && js.contains("./board.js"));
    assert!(!js.contains("http://") && !js.contains("https://") && !html.contains("https://"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_over_http() {
    let db = std::env::temp_dir().join(format!("arbiter-review-test-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&db);
    // Dropped in reverse order: the server stops, then its file goes.
    let _db = Removed(db.clone());
    let s = Server::start_with(db.to_str().unwrap(), &[]);
    let c = Client::new();
    chess_pgn(&c, &s).await;
    xiangqi_pgn_big5(&c, &s).await;
    xqf_and_its_pgn(&c, &s).await;
    bad_bodies(&c, &s).await;
    openapi(&c, &s).await;
    the_page_is_served(&c, &s).await;
}
