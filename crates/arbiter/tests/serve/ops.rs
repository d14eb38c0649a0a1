//! What an operator asks of a running server: `/metrics` in Prometheus's text format, and the
//! liveness and readiness probes.

use std::collections::HashMap;

use reqwest::{Client, StatusCode};
use serde_json::json;

use super::client::{create, play};
use crate::common::Server;

/// The samples of a scrape, by name with labels; every line checked against the format.
async fn scrape(c: &Client, s: &Server) -> HashMap<String, f64> {
    let r = c.get(format!("{}/metrics", s.base)).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let kind = r.headers()["content-type"].to_str().unwrap().to_string();
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    let text = r.text().await.unwrap();
    let mut samples = HashMap::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        if let Some(rest) = line.strip_prefix("# ") {
            assert!(rest.starts_with("HELP ") || rest.starts_with("TYPE "), "{line}");
            continue;
        }
        let (name, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("{line}"));
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("not a number: {line}"));
        let bare = name.split('{').next().unwrap();
        assert!(bare.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_'), "{line}");
        samples.insert(name.to_string(), value);
    }
    samples
}

pub async fn metrics_and_probes(c: &Client, s: &Server) {
    let get = |path: &str| c.get(format!("{}{path}", s.base)).send();
    let live = get("/health/live").await.unwrap();
    assert_eq!(live.status(), StatusCode::OK);
    let ready = get("/health/ready").await.unwrap();
    assert_eq!(ready.status(), StatusCode::OK, "{:?}", ready.text().await);

    let before = scrape(c, s).await;
    let g = create(c, s, json!({"kind": "xiangqi"})).await;
    play(c, s, &g, &["h2e2", "h9g7"]).await;
    // A stream held open while scraping counts as one.
    let stream = get(&format!("/api/board/game/stream/{}", g.id)).await.unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    let after = scrape(c, s).await;
    let delta = |name: &str| after[name] - before.get(name).copied().unwrap_or(0.0);
    assert_eq!(delta("arbiter_moves_total"), 2.0, "{after:?}");
    assert!(delta("arbiter_commands_total") >= 2.0);
    assert!(delta("arbiter_log_write_seconds_count") >= 1.0);
    assert_eq!(
        after["arbiter_log_write_seconds_count"],
        after["arbiter_log_write_seconds_bucket{le=\"+Inf\"}"]
    );
    assert!(after["arbiter_streams_open"] >= 1.0, "{after:?}");
    assert!(after["arbiter_games_live"] >= 1.0);
    assert!(after["arbiter_http_responses_total{code=\"2xx\"}"] > before["arbiter_http_responses_total{code=\"2xx\"}"]);
    assert!(after["process_resident_memory_bytes"] > 1e6);
    assert!(after["process_cpu_seconds_total"] > 0.0);
    drop(stream);
    // The stream's end is seen by the server when it next writes to it: a move does.
    play(c, s, &g, &["h0g2"]).await;
    let mut closed = false;
    for _ in 0..50 {
        if scrape(c, s).await["arbiter_streams_open"] < after["arbiter_streams_open"] {
            closed = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(closed, "a dropped stream is no longer counted");
}

/// `--log-format json` with `RUST_LOG=debug`: one JSON object a line on standard error — the
/// server's start, then a line a request with its path and status.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_are_json_lines() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let path = std::env::temp_dir().join(format!("arbiter-logs-{}.db", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--addr", "127.0.0.1:0", "--log-format", "json", "--db"])
        .arg(&path)
        .env("RUST_LOG", "debug")
        .env_remove("DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_string();
    let r = Client::new().get(format!("{base}/health/live")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = Vec::new();
    for l in err.lines() {
        let l = l.unwrap();
        let v: serde_json::Value = serde_json::from_str(&l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"));
        let done = v["fields"]["path"] == "/health/live";
        seen.push(v);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    assert!(
        seen.iter()
            .any(|v| v["fields"]["message"] == "serving" && v["level"] == "INFO"),
        "{seen:?}"
    );
    let request = seen.last().unwrap();
    assert_eq!(request["fields"]["status"], 200, "{request}");
    assert_eq!(request["level"], "DEBUG");
}
