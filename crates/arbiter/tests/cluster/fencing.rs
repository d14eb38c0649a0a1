//! A paused owner cannot write: node A owns a game, is stopped (SIGSTOP) past its lease, node B
//! takes the game over and play goes on through B; A, woken (SIGCONT), writes nothing to the
//! game — a command sent to it is forwarded to B or refused — and the log holds exactly the
//! commands acknowledged.

use std::time::{Duration, Instant};

use reqwest::StatusCode;

use super::nodes::{self, Backing, Node};

async fn act(base: &str, id: &str, token: &str, path: &str) -> (StatusCode, serde_json::Value) {
    let r = reqwest::Client::new()
        .post(format!("{base}/api/board/game/{id}/{path}"))
        .bearer_auth(token)
        .timeout(Duration::from_secs(15))
        .send()
        .await
        .unwrap();
    let status = r.status();
    (status, r.json().await.unwrap_or_default())
}

/// The moves game `id`'s log holds.
async fn logged(s: &store::Store, id: &str) -> Vec<String> {
    let g = s.game(id).await.unwrap().unwrap();
    g.commands
        .into_iter()
        .map(|(_, _, t)| t)
        .filter(|t| t != "start")
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_owner_writes_nothing_once_its_game_was_taken_over() {
    let Some(b) = Backing::new("cluster_fencing") else {
        return;
    };
    let a = Node::start(&b, "a");
    let bn = Node::start(&b, "b");
    let store = nodes::store(&b).await;
    // A game A owns.
    let (id, [white, black]) = nodes::create_on(&store, &bn.base, "chess", "a").await;
    // Through B, forwarded to A.
    assert_eq!(act(&bn.base, &id, &white, "move/e2e4").await.0, StatusCode::OK);
    assert_eq!(act(&a.base, &id, &black, "move/e7e5").await.0, StatusCode::OK);

    a.signal(libc::SIGSTOP);
    let stopped = Instant::now();
    // Forwarded to a node that does not answer: refused as unknown, not run twice.
    let (status, body) = act(&bn.base, &id, &white, "move/g1f3").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    // B takes the game over once A's lease has run out.
    while nodes::owner(&store, &id).await.as_deref() != Some("b") {
        assert!(
            stopped.elapsed() < Duration::from_secs(10),
            "no takeover of the paused node's game"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!("taken over {:.2} s after the pause", stopped.elapsed().as_secs_f64());
    let mut acked = vec!["move e2e4", "move e7e5"];
    for (token, mv) in [(&white, "g1f3"), (&black, "b8c6"), (&white, "f1c4")] {
        let (status, body) = act(&bn.base, &id, token, &format!("move/{mv}")).await;
        assert_eq!(status, StatusCode::OK, "{mv} through B: {body}");
    }
    acked.extend(["move g1f3", "move b8c6", "move f1c4"]);

    a.signal(libc::SIGCONT);
    // A wakes with the forward it got while stopped (g1f3, no longer legal for white) and its
    // game still running there; a command sent to A now is forwarded to B or refused.
    let (status, body) = act(&a.base, &id, &black, "move/g8f6").await;
    match status {
        StatusCode::OK => acked.push("move g8f6"),
        StatusCode::SERVICE_UNAVAILABLE => {}
        other => panic!("a command to the woken node: {other} {body}"),
    }
    // Time for anything A might still do.
    tokio::time::sleep(Duration::from_millis(nodes::LEASE_MS + 500)).await;
    let log = logged(&store, &id).await;
    let log: Vec<&str> = log.iter().map(|s| s.split(" lag=").next().unwrap()).collect();
    assert_eq!(log, acked, "the log holds exactly the commands acknowledged");
    assert!(
        a.said().contains("fenced") || a.said().contains("lease lost"),
        "A said it lost its lease: {}",
        a.said()
    );
    // A is a working node again, following B: the game plays on through it.
    if status == StatusCode::SERVICE_UNAVAILABLE {
        let (status, body) = act(&a.base, &id, &black, "move/g8f6").await;
        assert_eq!(status, StatusCode::OK, "through A once it joined again: {body}");
    }
}
