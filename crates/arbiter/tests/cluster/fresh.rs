//! Read-your-writes on a follower: a node following a game that another node runs answers a
//! command sent through it only after that command's line, resumes a stream or socket with
//! every command acknowledged before — and with one its owner logged but never sent on (the
//! owner stopped right after its commit), before any takeover.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use super::nodes::{self, Backing, Node};

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A socket on the node at `base`, seated by `token`, resuming after `since` if given.
async fn socket(base: &str, id: &str, token: &str, since: Option<i64>) -> Ws {
    let query = since.map(|v| format!("?since={v}")).unwrap_or_default();
    let mut request = format!("{}/api/socket/game/{id}{query}", base.replacen("http", "ws", 1))
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

/// The socket's next JSON frame.
async fn frame(ws: &mut Ws) -> Value {
    loop {
        let next = tokio::time::timeout(Duration::from_secs(10), ws.next()).await;
        match next.expect("a frame within 10 s") {
            Some(Ok(Message::Text(t))) => return serde_json::from_str(&t).unwrap(),
            Some(Ok(_)) => {}
            other => panic!("the socket ended: {other:?}"),
        }
    }
}

/// Sends move `mv` and reads to its answer: the answer's version, and the last version of the
/// lines before it.
async fn play(ws: &mut Ws, mv: &str) -> (i64, i64) {
    answer(ws, mv, "ack").await
}

/// Sends move `mv` and reads to its answer, of type `want` (`ack`, `error`): as [`play`].
async fn answer(ws: &mut Ws, mv: &str, want: &str) -> (i64, i64) {
    ws.send(Message::text(format!(r#"{{"t":"move","move":"{mv}"}}"#)))
        .await
        .unwrap();
    let mut seen = -1;
    loop {
        let v = frame(ws).await;
        match v["t"].as_str() {
            Some(t) if t == want => {
                let version = v["version"].as_i64().unwrap_or_else(|| panic!("{mv}: {v}"));
                return (version, seen);
            }
            Some(_) => panic!("{mv}: {v}"),
            None => seen = seen.max(v["version"].as_i64().unwrap()),
        }
    }
}

/// The first line of the game's stream on the node at `base`, resumed after `since`.
async fn resumed(base: &str, id: &str, since: i64) -> Value {
    let mut r = reqwest::get(format!("{base}/api/board/game/stream/{id}?since={since}"))
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    let mut text = String::new();
    while !text.contains('\n') {
        let chunk = tokio::time::timeout(Duration::from_secs(10), r.chunk()).await;
        match chunk.expect("a line within 10 s").unwrap() {
            Some(c) => text.push_str(&String::from_utf8_lossy(&c)),
            None => panic!("the stream ended: {text:?}"),
        }
    }
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_answers_with_every_command_acknowledged() {
    let Some(b) = Backing::new("cluster_fresh") else {
        return;
    };
    let a = Node::start(&b, "a");
    let f = Node::start(&b, "f");
    let store = nodes::store(&b).await;
    // A game A runs; F follows it.
    let (id, [white, black]) = nodes::create_on(&store, &f.base, "chess", "a").await;

    // Commands through F's sockets, forwarded to A: each answered after its line.
    let mut ws = [
        socket(&f.base, &id, &white, None).await,
        socket(&f.base, &id, &black, None).await,
    ];
    for w in &mut ws {
        assert_eq!(frame(w).await["type"], "gameFull");
    }
    for (ply, mv) in ["e2e4", "e7e5", "g1f3", "b8c6"].iter().enumerate() {
        let (version, seen) = play(&mut ws[ply % 2], mv).await;
        assert_eq!(seen, version, "{mv}: its line before its answer on the follower");
    }
    // Refusals too: each refusal's line before its error (black moving on white's turn costs
    // nothing online, so the game goes on).
    for _ in 0..30 {
        let (version, seen) = answer(&mut ws[1], "d7d6", "error").await;
        assert_eq!(
            seen, version,
            "a refused move: its line before its error on the follower"
        );
    }
    drop(ws);

    // Commands on A, then at once a resume on F: its first line is the command's.
    let client = reqwest::Client::new();
    let mut last = 0;
    for (token, mv) in [(&white, "f1c4"), (&black, "g8f6"), (&white, "d2d3")] {
        let r = client
            .post(format!("{}/api/board/game/{id}/move/{mv}", a.base))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        let ack: Value = r.json().await.unwrap();
        last = ack["version"].as_i64().unwrap_or_else(|| panic!("{mv}: {ack}"));
        let line = resumed(&f.base, &id, last - 1).await;
        assert_eq!(line["version"], last, "{mv} resumed on F: {line}");
    }

    // A stops right after committing a command (one more, written to its log here) and before
    // sending its line on: F resumes with it at once, from the log — before any takeover.
    a.signal(libc::SIGSTOP);
    let stopped = Instant::now();
    let g = store.game(&id).await.unwrap().unwrap();
    let at = g.commands.last().unwrap().0 + 1000;
    let seq = store.logged_commands(&id).await.unwrap() as usize;
    assert_eq!(seq, g.commands.len());
    let entry = (id.as_str().into(), seq, at, game::Side::Second, "move f8e7".to_string());
    store.command_log().append(vec![entry]).await.unwrap();

    let line = resumed(&f.base, &id, last).await;
    assert_eq!(line["version"], last + 1, "{line}");
    assert!(line["moves"].as_str().unwrap().ends_with("f8e7"), "{line}");
    let mut w = socket(&f.base, &id, &white, Some(last)).await;
    let line = frame(&mut w).await;
    assert_eq!(line["version"], last + 1, "the socket's resume: {line}");
    assert_eq!(
        nodes::owner(&store, &id).await.as_deref(),
        Some("a"),
        "read from the log, not sent by a new owner ({:.2} s after the stop)",
        stopped.elapsed().as_secs_f64()
    );

    // Once F has taken the game over, white plays on from that line.
    let taken = Instant::now();
    while nodes::owner(&store, &id).await.as_deref() != Some("f") {
        assert!(
            taken.elapsed() < Duration::from_secs(10),
            "no takeover of the stopped node's game"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (version, seen) = play(&mut w, "b1c3").await;
    assert_eq!((seen, version), (last + 2, last + 2));
}
