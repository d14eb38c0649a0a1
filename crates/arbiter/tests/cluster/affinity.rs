//! Affinity: a game's creation names the node that runs it, and a client that plays it there
//! is never forwarded. Per-game subscriptions: a node following a game another node runs gets
//! every line of it, and a node that does not hold the game does not subscribe to it.

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use super::nodes::{self, Backing, Node};

/// A Xiangqi opening, legal from the start.
const MOVES: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Metric `name`'s value on the node at `base`.
async fn metric(base: &str, name: &str) -> f64 {
    let text = reqwest::get(format!("{base}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} on {base}: {text}"))
}

/// A seat's socket on the node at `base`, and the node the upgrade's answer named.
async fn seat(base: &str, id: &str, token: &str) -> (Ws, String) {
    let mut request = format!("{}/api/socket/game/{id}", base.replacen("http", "ws", 1))
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (ws, answer) = tokio_tungstenite::connect_async(request).await.unwrap();
    let node = answer.headers()["arbiter-node"].to_str().unwrap().to_string();
    (ws, node)
}

/// Reads up to the answer to the last command, which must be an ack.
async fn ack(ws: &mut Ws) {
    while let Some(frame) = ws.next().await {
        if let Message::Text(text) = frame.unwrap() {
            let v: Value = serde_json::from_str(&text).unwrap();
            match v["t"].as_str() {
                Some("ack") => return,
                Some("error") => panic!("refused: {v}"),
                _ => {}
            }
        }
    }
    panic!("the socket closed before answering");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_at_the_node_its_creation_names_is_never_forwarded() {
    let Some(b) = Backing::new("cluster_affinity") else {
        return;
    };
    let nodes: Vec<Node> = ["a", "b", "c"].iter().map(|n| Node::start(&b, n)).collect();
    let names = ["a", "b", "c"];
    let store = nodes::store(&b).await;

    // Created through each node: the answer names the owner the database records, at the URL
    // it listens on.
    let mut games = Vec::new();
    for i in 0..6 {
        let v = nodes::create_game(&nodes[i % 3].base, "xiangqi").await;
        let id = v["id"].as_str().unwrap().to_string();
        let owner = nodes::owner(&store, &id).await.unwrap();
        assert_eq!(v["node"]["name"], owner.as_str(), "game {id}: {v}");
        let at = names.iter().position(|n| *n == owner).unwrap();
        assert_eq!(v["node"]["url"], nodes[at].base.as_str(), "game {id}: {v}");
        let token = |s: usize| v["seats"][s]["token"].as_str().unwrap().to_string();
        games.push((id, owner, nodes[at].base.clone(), [token(0), token(1)]));
    }

    let forwards = || async {
        let mut n = Vec::new();
        for node in &nodes {
            n.push(metric(&node.base, "arbiter_forwards_total").await);
        }
        n
    };
    let before = forwards().await;
    for (id, owner, url, tokens) in &games {
        let (mut first, named) = seat(url, id, &tokens[0]).await;
        assert_eq!(&named, owner, "the upgrade names the owner");
        let (mut second, _) = seat(url, id, &tokens[1]).await;
        for (ply, mv) in MOVES.iter().enumerate() {
            let ws = if ply % 2 == 0 { &mut first } else { &mut second };
            ws.send(Message::text(format!(r#"{{"t":"move","move":"{mv}"}}"#)))
                .await
                .unwrap();
            ack(ws).await;
        }
        first.send(Message::text(r#"{"t":"resign"}"#)).await.unwrap();
        ack(&mut first).await;
    }
    assert_eq!(forwards().await, before, "nothing forwarded, on any node");

    // Asked of another node, an answer about a game in play still names its owner.
    let v = nodes::create_game(&nodes[0].base, "xiangqi").await;
    let (id, url) = (v["id"].as_str().unwrap(), v["node"]["url"].as_str().unwrap());
    let other = nodes.iter().find(|n| n.base != url).unwrap();
    let r = reqwest::get(format!("{}/api/game/{id}/pgn", other.base)).await.unwrap();
    assert!(r.status().is_success());
    assert_eq!(r.headers()["arbiter-node"], v["node"]["name"].as_str().unwrap());
    assert_eq!(r.headers()["arbiter-node-url"], url);
}

/// The versions of a stream's lines, in order.
fn versions(text: &str) -> Vec<i64> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["version"].as_i64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_subscribed_to_one_game_gets_every_line_of_it() {
    let Some(b) = Backing::new("cluster_follow") else {
        return;
    };
    let nodes: Vec<Node> = ["a", "b", "c"].iter().map(|n| Node::start(&b, n)).collect();
    let v = nodes::create_game(&nodes[0].base, "xiangqi").await;
    let id = v["id"].as_str().unwrap().to_string();
    let owner_url = v["node"]["url"].as_str().unwrap().to_string();
    let owner = nodes.iter().position(|n| n.base == owner_url).unwrap();
    let (follower, bystander) = ((owner + 1) % 3, (owner + 2) % 3);
    for n in &nodes {
        let followed = metric(&n.base, "arbiter_games_followed").await;
        assert_eq!(followed, 0.0, "{} follows the game it made elsewhere", n.base);
    }

    // A spectator on the follower: it holds the game, so it subscribes to its lines alone.
    let mut stream = reqwest::get(format!("{}/api/board/game/stream/{id}", nodes[follower].base))
        .await
        .unwrap();
    assert!(stream.status().is_success());
    assert_eq!(stream.headers()["arbiter-node-url"], owner_url.as_str());
    for (n, followed) in [(follower, 1.0), (owner, 0.0), (bystander, 0.0)] {
        assert_eq!(
            metric(&nodes[n].base, "arbiter_games_followed").await,
            followed,
            "games followed on {}",
            nodes[n].base
        );
    }

    let client = reqwest::Client::new();
    for (ply, mv) in MOVES.iter().enumerate() {
        let token = v["seats"][ply % 2]["token"].as_str().unwrap();
        let r = client
            .post(format!("{owner_url}/api/board/game/{id}/move/{mv}"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "{mv}: {}", r.status());
    }
    let r = client
        .post(format!("{owner_url}/api/board/game/{id}/resign"))
        .bearer_auth(v["seats"][0]["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success());

    // The spectator's stream: the game whole, then every line after it, to the end.
    let mut seen = String::new();
    let read = async {
        while let Some(chunk) = stream.chunk().await.unwrap() {
            seen.push_str(&String::from_utf8_lossy(&chunk));
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(10), read)
        .await
        .expect("the follower's stream ends with the game");
    let got = versions(&seen);
    assert!(got.len() >= 2, "{seen}");
    assert_eq!(got, (got[0]..got[0] + got.len() as i64).collect::<Vec<_>>(), "{seen}");
    assert!(seen.lines().last().unwrap().contains("resign"), "{seen}");

    // The lines the follower holds are the owner's, from the first.
    let since0 = |base: String| {
        let id = id.clone();
        async move {
            reqwest::get(format!("{base}/api/board/game/stream/{id}?since=0"))
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
        }
    };
    let on_owner = since0(owner_url.clone()).await;
    assert_eq!(since0(nodes[follower].base.clone()).await, on_owner);
    assert_eq!(versions(&on_owner).last(), got.last(), "{on_owner}");
}
