//! A board device made through one node plays through any other, and the device it replaced
//! (made on yet another node) is refused everywhere.

use super::nodes::{self, Backing, Node};

async fn post(base: &str, path: &str, token: &str) -> (reqwest::StatusCode, serde_json::Value) {
    let r = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = r.status();
    (status, r.json().await.unwrap_or_default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_device_made_on_one_node_plays_through_another() {
    let Some(b) = Backing::new("cluster_device") else {
        return;
    };
    let a = Node::start(&b, "a");
    let c = Node::start(&b, "c");
    let v = nodes::create_game(&a.base, "xiangqi").await;
    let id = v["id"].as_str().unwrap().to_string();
    let arbiter = v["arbiter"]["token"].as_str().unwrap().to_string();
    let device_path = format!("/api/arbiter/game/{id}/device");

    // Each node holds the game (it answers a read), so each has its own idea of the device.
    for n in [&a, &c] {
        let s = reqwest::get(format!("{}/api/game/{id}/pgn", n.base))
            .await
            .unwrap()
            .status();
        assert!(s.is_success(), "{} reads the game: {s}", n.base);
    }
    let (s, first) = post(&c.base, &device_path, &arbiter).await;
    assert!(s.is_success(), "device made on c: {s} {first}");
    let first = first["token"].as_str().unwrap().to_string();
    let (s, body) = post(&a.base, &format!("/api/device/game/{id}/first/move/h2e2"), &first).await;
    assert!(s.is_success(), "the device made on c plays through a: {s} {body}");

    // Replaced through a: the old device is refused on both nodes, the new one plays on c.
    let (s, second) = post(&a.base, &device_path, &arbiter).await;
    assert!(s.is_success(), "device made again on a: {s} {second}");
    let second = second["token"].as_str().unwrap().to_string();
    for n in [&a, &c] {
        let (s, _) = post(&n.base, &format!("/api/device/game/{id}/second/move/h9g7"), &first).await;
        assert_eq!(s, reqwest::StatusCode::FORBIDDEN, "the replaced device on {}", n.base);
    }
    let (s, body) = post(&c.base, &format!("/api/device/game/{id}/second/move/h9g7"), &second).await;
    assert!(s.is_success(), "the new device plays through c: {s} {body}");
}
