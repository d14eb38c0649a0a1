//! An event changed through one node is streamed at once by another: the node that saves a
//! change tells the others on NATS, so a spectator's event stream on any node shows it well
//! before its keepalive (7 s) would have made it look again.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::nodes::{Backing, Node};

async fn post(base: &str, path: &str, token: Option<&str>, body: Value) -> Value {
    let mut r = reqwest::Client::new().post(format!("{base}{path}")).json(&body);
    if let Some(t) = token {
        r = r.bearer_auth(t);
    }
    let r = r.send().await.unwrap();
    assert!(r.status().is_success(), "{path}: {}", r.status());
    r.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_changed_on_one_node_streams_at_once_on_another() {
    let Some(b) = Backing::new("cluster_events") else {
        return;
    };
    let a = Node::start(&b, "a");
    let c = Node::start(&b, "c");
    let made = post(
        &a.base,
        "/api/event",
        None,
        json!({"name": "Two nodes open", "format": "round-robin", "kind": "xiangqi"}),
    )
    .await;
    let (event, org) = (made["id"].as_str().unwrap(), made["organiserToken"].as_str().unwrap());
    let mut stream = reqwest::get(format!("{}/api/event/{event}/stream", c.base))
        .await
        .unwrap();
    assert!(stream.status().is_success());
    let mut seen = String::new();
    let mut took = Vec::new();
    for name in ["Yang Guang", "Lin Feng"] {
        let sent = Instant::now();
        post(
            &a.base,
            &format!("/api/event/{event}/register"),
            Some(org),
            json!({ "name": name }),
        )
        .await;
        // The registration's line, as node c streams it.
        while !seen.contains(name) {
            let left = Duration::from_secs(3).saturating_sub(sent.elapsed());
            assert!(
                !left.is_zero(),
                "node c streamed no line for {name} within 3 s: {seen:?}"
            );
            if let Ok(Some(chunk)) = tokio::time::timeout(left, stream.chunk()).await.unwrap_or(Ok(None)) {
                seen.push_str(&String::from_utf8_lossy(&chunk));
            }
        }
        took.push(sent.elapsed());
    }
    eprintln!("event changes saved through a, streamed by c after {took:?}");
}
