//! A node stopped with SIGTERM hands its games over: not ready while it drains, its games
//! owned by the node left, play going on there with nothing lost. And cluster mode refuses an
//! SQLite database with a clear error.

use std::time::{Duration, Instant};

use super::nodes::{self, Backing, Node};

async fn play(base: &str, id: &str, token: &str, mv: &str) -> reqwest::StatusCode {
    reqwest::Client::new()
        .post(format!("{base}/api/board/game/{id}/move/{mv}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .status()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_stopped_hands_its_games_over() {
    let Some(b) = Backing::new("cluster_drain") else { return };
    let a = Node::start(&b, "a");
    let c = Node::start(&b, "c");
    let store = nodes::store(&b).await;
    let mut on_a = Vec::new();
    for _ in 0..6 {
        let (id, tokens) = nodes::create(&c.base, "xiangqi").await;
        if nodes::owner(&store, &id).await.as_deref() == Some("a") {
            assert_eq!(play(&c.base, &id, &tokens[0], "h2e2").await, 200);
            on_a.push((id, tokens));
        }
    }
    assert!(!on_a.is_empty(), "games placed on node a");
    assert_eq!(
        reqwest::get(format!("{}/health/ready", a.base)).await.unwrap().status(),
        200
    );

    a.signal(libc::SIGTERM);
    let asked = Instant::now();
    for (id, _) in &on_a {
        while nodes::owner(&store, id).await.as_deref() != Some("c") {
            assert!(asked.elapsed() < Duration::from_secs(5), "game {id} not handed over");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    // Before any lease could have run out: handed over, not taken over.
    assert!(
        asked.elapsed() < Duration::from_millis(nodes::LEASE_MS),
        "the drain took {:?}",
        asked.elapsed()
    );
    for (id, tokens) in &on_a {
        assert_eq!(play(&c.base, id, &tokens[1], "h9g7").await, 200, "game {id} on c");
        let g = store.game(id).await.unwrap().unwrap();
        let moves: Vec<&str> = g
            .commands
            .iter()
            .map(|(_, _, t)| t.as_str())
            .filter(|t| t.starts_with("move"))
            .collect();
        assert_eq!(moves, ["move h2e2", "move h9g7"], "game {id}");
    }
    let said = a.said();
    assert!(said.contains("drained"), "{said}");
    assert!(
        !c.said().contains("took over"),
        "a hand-over is no takeover: {}",
        c.said()
    );
}

#[test]
fn cluster_mode_needs_postgresql() {
    let dir = std::env::temp_dir().join(format!("arbiter-cluster-sqlite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--cluster",
            nodes::NATS,
            "--node",
            "x",
            "--db",
        ])
        .arg(dir.join("games.db"))
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("must be a postgres:// URL"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
