//! An event's rounds across three nodes: the organiser works through one node, the players
//! through the others, the round's games run wherever they were placed, and every result
//! reaches the event as its game ends, whichever node ran it, until the event is over. And the
//! node that made a round's games (the one following them to enter their results) killed, or
//! drained so that it leaves owning no game: the nodes left enter every result.

use std::time::{Duration, Instant};

use serde_json::json;

use super::nodes::{self, Backing, Node};
use crate::common::api;

/// A round robin made through `base(0)` and `names` registered, the i-th through `base(i + 1)`:
/// the event's id, the organiser's token and the players' tokens.
async fn round_robin(
    base: impl Fn(usize) -> String,
    name: &str,
    kind: &str,
    names: &[&str],
) -> (String, String, Vec<String>) {
    let body = json!({"name": name, "format": "round-robin", "kind": kind});
    let made = api(&base(0), "POST", "/api/event", None, Some(body)).await;
    let event = made["id"].as_str().unwrap().to_string();
    let org = made["organiserToken"].as_str().unwrap().to_string();
    let mut players = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let path = format!("/api/event/{event}/register");
        let r = api(&base(i + 1), "POST", &path, Some(&org), Some(json!({ "name": name }))).await;
        players.push(r["token"].as_str().unwrap().to_string());
    }
    (event, org, players)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_events_rounds_run_across_three_nodes() {
    let Some(b) = Backing::new("cluster_event") else { return };
    let nodes: Vec<Node> = ["e1", "e2", "e3"].iter().map(|n| Node::start(&b, n)).collect();
    let store = nodes::store(&b).await;
    let base = |i: usize| nodes[i % 3].base.clone();
    let names = ["Hu Rong", "Lü Qin", "Xu Tianhong", "Zhao Guorong"];
    let (event, org, players) = round_robin(base, "Three nodes round robin", "xiangqi", &names).await;
    let mut owners = std::collections::HashSet::new();
    for round in 1..=3usize {
        // Started through a different node each round.
        api(
            &base(round),
            "POST",
            &format!("/api/event/{event}/round/start"),
            Some(&org),
            None,
        )
        .await;
        // Each player finds their game through yet another node; the first of each game's
        // seats to look resigns it.
        let mut resigned = std::collections::HashSet::new();
        for (i, token) in players.iter().enumerate() {
            let me = api(
                &base(i + round + 1),
                "GET",
                &format!("/api/event/{event}/me"),
                Some(token),
                None,
            )
            .await;
            let game = me["game"]["id"]
                .as_str()
                .unwrap_or_else(|| panic!("round {round}: {me}"))
                .to_string();
            owners.insert(nodes::owner(&store, &game).await);
            if resigned.insert(game.clone()) {
                api(
                    &base(i + round + 2),
                    "POST",
                    &format!("/api/board/game/{game}/resign"),
                    Some(token),
                    None,
                )
                .await;
            }
        }
        assert_eq!(resigned.len(), 2, "round {round}: two games");
        // Every result entered, as any node reads the event.
        let asked = Instant::now();
        loop {
            let v = api(&base(round + 2), "GET", &format!("/api/event/{event}"), None, None).await;
            let pairings = v["stages"][0]["rounds"][round - 1]["pairings"]
                .as_array()
                .unwrap()
                .clone();
            if pairings.iter().all(|p| p["verdict"] != "pending") {
                break;
            }
            assert!(
                asked.elapsed() < Duration::from_secs(10),
                "round {round} results not entered: {pairings:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    let v = api(&base(0), "GET", &format!("/api/event/{event}"), None, None).await;
    assert_eq!(v["finished"], true, "{v}");
    assert!(owners.len() >= 2, "the games ran on one node only: {owners:?}");
}

/// How the node that made the round leaves.
#[derive(Clone, Copy, Debug)]
enum Leaving {
    /// `kill -9`: its games are taken over when its lease runs out.
    Killed,
    /// SIGTERM: it hands its games over and leaves owning none, so no takeover happens.
    Drained,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rounds_results_are_entered_when_the_node_that_made_it_dies() {
    results_entered_after(Leaving::Killed, "cluster_event_kill").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rounds_results_are_entered_when_the_node_that_made_it_drains() {
    results_entered_after(Leaving::Drained, "cluster_event_drain").await;
}

/// A round made through node k1, which then leaves; the round's games are played out through
/// the nodes left, whose results must be entered and the next round start.
/// Resigns `game` as a client does when its node has just died: a command forwarded to the dead
/// owner before NATS saw it go may get no answer (503 `node_timeout`: "may or may not have been
/// taken"), and is sent again; a refusal then is right only if the first one was taken.
async fn resign(base: &str, game: &str, token: &str) {
    let http = reqwest::Client::new();
    let mut timed_out = false;
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let r = http
            .post(format!("{base}/api/board/game/{game}/resign"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        let status = r.status();
        let v: serde_json::Value = r.json().await.unwrap_or_default();
        if status.is_success() {
            return;
        }
        if status == reqwest::StatusCode::SERVICE_UNAVAILABLE && v["why"] == "node_timeout" {
            timed_out = true;
            assert!(Instant::now() < deadline, "resigning {game}: no node answered in 15 s");
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        let pgn = http
            .get(format!("{base}/api/game/{game}/pgn"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            timed_out && !pgn.contains("[Result \"*\"]"),
            "resigning {game}: {status} {v}"
        );
        return;
    }
}

async fn results_entered_after(leaving: Leaving, test: &str) {
    let Some(b) = Backing::new(test) else { return };
    let mut nodes: Vec<Node> = ["k1", "k2", "k3"].iter().map(|n| Node::start(&b, n)).collect();
    let store = nodes::store(&b).await;
    let (first, others) = (nodes[0].base.clone(), [nodes[1].base.clone(), nodes[2].base.clone()]);
    let names = ["A", "B", "C", "D", "E", "F"];
    let (event, org, players) = round_robin(|_| first.clone(), "A node lost", "chess", &names).await;
    api(
        &first,
        "POST",
        &format!("/api/event/{event}/round/start"),
        Some(&org),
        None,
    )
    .await;
    let mut games = Vec::new();
    for token in &players {
        let me = api(&others[0], "GET", &format!("/api/event/{event}/me"), Some(token), None).await;
        games.push(me["game"]["id"].as_str().unwrap().to_string());
    }
    let mut on_k1 = 0;
    for g in &games {
        on_k1 += usize::from(nodes::owner(&store, g).await.as_deref() == Some("k1"));
    }
    assert!(on_k1 > 0, "no game of the round on k1: placed in turn over three nodes");
    let left = Instant::now();
    match leaving {
        Leaving::Killed => nodes[0].kill9(),
        Leaving::Drained => {
            nodes[0].signal(libc::SIGTERM);
            for g in &games {
                while nodes::owner(&store, g).await.as_deref() == Some("k1") {
                    assert!(left.elapsed() < Duration::from_secs(5), "game {g} not handed over");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        }
    }
    // The first seat of each game to look resigns it, through the nodes left.
    let mut resigned = std::collections::HashSet::new();
    for (i, (token, game)) in players.iter().zip(&games).enumerate() {
        if resigned.insert(game.clone()) {
            resign(&others[i % 2], game, token).await;
        }
    }
    assert_eq!(resigned.len(), 3);
    loop {
        let v = api(&others[1], "GET", &format!("/api/event/{event}"), None, None).await;
        let pairings = v["stages"][0]["rounds"][0]["pairings"].as_array().unwrap().clone();
        if pairings.iter().all(|p| p["verdict"] != "pending") {
            break;
        }
        assert!(
            left.elapsed() < Duration::from_secs(15),
            "results not entered after the round's node left ({leaving:?}): {pairings:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "the round's results entered {:?} after its node left ({leaving:?})",
        left.elapsed()
    );
    // The next round starts through a node left.
    api(
        &others[0],
        "POST",
        &format!("/api/event/{event}/round/start"),
        Some(&org),
        None,
    )
    .await;
}
