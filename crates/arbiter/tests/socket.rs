//! The game socket (`/api/socket/game/{id}`) of a spawned `arbiter serve`, through a real
//! WebSocket client: a game played to its verdict over two seats' sockets while a spectator's
//! receives every event in order, the same lines as the NDJSON stream; a resume from a version
//! after a drop, with no gap and no duplicate; a spectator's move and one seat acting for the
//! other refused; bad messages answered with error frames on a socket that stays usable.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

#[path = "common/mod.rs"]
mod common;
use common::Server;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

struct Game {
    id: String,
    tokens: [String; 2],
}

async fn create(s: &Server, kind: &str) -> Game {
    let v: Value = reqwest::Client::new()
        .post(format!("{}/api/game", s.base))
        .json(&json!({ "kind": kind }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = |i: usize| v["seats"][i]["token"].as_str().unwrap().to_string();
    Game {
        id: v["id"].as_str().unwrap().to_string(),
        tokens: [token(0), token(1)],
    }
}

/// Opens game `id`'s socket with `query`, with `token` in the Authorization header (a bot's
/// way) when given.
async fn open(s: &Server, id: &str, query: &str, token: Option<&str>) -> Ws {
    let url = format!("{}/api/socket/game/{id}{query}", s.base.replacen("http", "ws", 1));
    let mut request = url.into_client_request().unwrap();
    if let Some(t) = token {
        request
            .headers_mut()
            .insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}

/// The next JSON frame, or `None` once the socket closes.
async fn recv(ws: &mut Ws) -> Option<Value> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a frame within 10 s");
        match frame {
            Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(&t).unwrap()),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// The event lines until the next answer (`ack`, `error`, `hello`, `pong`), and the answer.
async fn answer(ws: &mut Ws) -> (Vec<Value>, Value) {
    let mut events = Vec::new();
    loop {
        let v = recv(ws).await.expect("an answer before the socket closed");
        if v.get("t").is_some() {
            return (events, v);
        }
        events.push(v);
    }
}

/// Every event line until the socket closes.
async fn rest(ws: &mut Ws) -> Vec<Value> {
    let mut out = Vec::new();
    while let Some(v) = recv(ws).await {
        assert!(v.get("t").is_none(), "an answer to no command: {v}");
        out.push(v);
    }
    out
}

/// The NDJSON stream's lines after `since`, until it ends (the game is over).
async fn stream_after(s: &Server, id: &str, since: u64) -> Vec<Value> {
    let text = reqwest::get(format!("{}/api/board/game/stream/{id}?since={since}", s.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn versions(lines: &[Value]) -> Vec<u64> {
    lines.iter().map(|l| l["version"].as_u64().unwrap()).collect()
}

fn server() -> (Server, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "arbiter-socket-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let server = Server::start_with(dir.join("games.db").to_str().unwrap(), &[]);
    (server, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_over_two_seat_sockets_and_a_spectators() {
    let (s, dir) = server();
    let g = create(&s, "chess").await;
    // The spectator first: it says hello with no token and gets the game whole.
    let mut watch = open(&s, &g.id, "", None).await;
    send(&mut watch, json!({"t": "hello"})).await;
    let first = recv(&mut watch).await.unwrap();
    assert_eq!(first["type"], "gameFull", "{first}");
    let (_, hello) = answer(&mut watch).await;
    assert_eq!(hello, json!({"t": "hello", "side": null}));
    let from = first["version"].as_i64().unwrap_or(-1);

    // White by the header (a bot), black by its hello (a browser).
    let mut white = open(&s, &g.id, "", Some(&g.tokens[0])).await;
    let mut black = open(&s, &g.id, "", None).await;
    // The three sockets count as open in the operator's metrics (a socket is counted by its
    // task, which starts just after the handshake the client saw: looked at until it is).
    let asked = std::time::Instant::now();
    loop {
        let metrics = reqwest::get(format!("{}/metrics", s.base))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let open_now: f64 = metrics
            .lines()
            .find_map(|l| l.strip_prefix("arbiter_sockets_open "))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{metrics}"));
        if open_now >= 3.0 {
            break;
        }
        assert!(asked.elapsed() < Duration::from_secs(5), "{metrics}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    send(&mut black, json!({"t": "hello", "token": g.tokens[1]})).await;
    let (_, hello) = answer(&mut black).await;
    assert_eq!(hello, json!({"t": "hello", "side": "black"}));

    let moves = ["f2f3", "e7e5", "g2g4", "d8h4"];
    let mut last = Value::Null;
    for (i, mv) in moves.iter().enumerate() {
        let ws = if i % 2 == 0 { &mut white } else { &mut black };
        send(ws, json!({"t": "move", "move": mv, "id": i})).await;
        let (events, ack) = answer(ws).await;
        assert_eq!(ack["t"], "ack", "{mv}: {ack}");
        assert_eq!(ack["id"], i, "{ack}");
        assert_eq!(ack["ok"], true, "{ack}");
        // The events a command caused come before its answer.
        let v = ack["version"].as_u64().unwrap();
        assert_eq!(
            events.last().map(|e| e["version"].as_u64().unwrap()),
            Some(v),
            "{events:?}"
        );
        last = ack;
    }
    assert_eq!(last["status"], "mate", "{last}");
    assert_eq!(last["winner"], "black", "{last}");
    assert_eq!(last["reason"], "checkmate", "{last}");

    // The spectator saw every event once, in order, the very lines of the NDJSON stream; its
    // socket closes once the game is over.
    let seen = rest(&mut watch).await;
    let all = versions(&seen);
    let expected: Vec<u64> = ((from + 1) as u64..=last["version"].as_u64().unwrap()).collect();
    assert_eq!(all, expected);
    // (A game with no event yet is at version -1: the stream after 0 lacks event 0.)
    let skip = usize::from(from < 0);
    assert_eq!(seen[skip..], stream_after(&s, &g.id, from.max(0) as u64).await);
    assert!(seen.iter().any(|l| l["status"] == "mate"), "{seen:?}");
    // Both seats' sockets close too, after the lines they had not read yet.
    let white_rest = rest(&mut white).await;
    assert_eq!(white_rest.last(), seen.last());
    assert!(
        rest(&mut black).await.is_empty(),
        "black's answer came after its events"
    );
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resuming_after_a_drop_gives_no_gap_and_no_duplicate() {
    let (s, dir) = server();
    let g = create(&s, "xiangqi").await;
    let mut red = open(&s, &g.id, "", Some(&g.tokens[0])).await;
    let mut black = open(&s, &g.id, "", Some(&g.tokens[1])).await;
    let mut watch = open(&s, &g.id, "?since=0", None).await;
    let plies = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];
    let mut seen = Vec::new();
    for (i, mv) in plies.iter().enumerate() {
        let ws = if i % 2 == 0 { &mut red } else { &mut black };
        send(ws, json!({"t": "move", "move": mv})).await;
        let (_, ack) = answer(ws).await;
        assert_eq!(ack["t"], "ack", "{ack}");
        if i == 2 {
            // The spectator reads up to this move's version, then its connection drops.
            let upto = ack["version"].as_u64().unwrap();
            while seen.last().map(|l: &Value| l["version"].as_u64().unwrap()) != Some(upto) {
                seen.push(recv(&mut watch).await.unwrap());
            }
            drop(watch);
            // Another spectator uses the hello to say where to resume.
            watch = open(&s, &g.id, "", None).await;
            send(&mut watch, json!({"t": "hello", "since": upto})).await;
            let (events, hello) = answer(&mut watch).await;
            assert_eq!(hello["t"], "hello");
            seen.extend(events);
        }
    }
    send(&mut red, json!({"t": "resign"})).await;
    let (_, ack) = answer(&mut red).await;
    assert_eq!(ack["status"], "resign", "{ack}");
    assert_eq!(ack["winner"], "black", "{ack}");
    seen.extend(rest(&mut watch).await);
    let v = versions(&seen);
    let expected: Vec<u64> = (1..=ack["version"].as_u64().unwrap()).collect();
    assert_eq!(v, expected, "a gap or a duplicate");
    assert_eq!(seen, stream_after(&s, &g.id, 0).await);
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_and_the_other_seat_cannot_act_and_bad_messages_get_errors() {
    let (s, dir) = server();
    let g = create(&s, "chess").await;
    // Refused before the upgrade, with HTTP's statuses.
    let url = |id: &str| format!("{}/api/socket/game/{id}", s.base.replacen("http", "ws", 1));
    let refused = |r: Result<_, tokio_tungstenite::tungstenite::Error>| match r {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => resp.status().as_u16(),
        other => panic!("not refused: {:?}", other.map(|_: (Ws, _)| ())),
    };
    assert_eq!(refused(tokio_tungstenite::connect_async(url("nosuchgame")).await), 404);
    let mut request = url(&g.id).into_client_request().unwrap();
    request
        .headers_mut()
        .insert("authorization", "Bearer not-a-seat".parse().unwrap());
    assert_eq!(refused(tokio_tungstenite::connect_async(request).await), 403);

    // A spectator's move: a clear error, nothing changes.
    let mut watch = open(&s, &g.id, "?since=0", None).await;
    send(&mut watch, json!({"t": "move", "move": "e2e4", "id": 1})).await;
    let (_, e) = answer(&mut watch).await;
    assert_eq!(
        (e["t"].as_str(), e["code"].as_u64(), e["id"].as_u64()),
        (Some("error"), Some(401), Some(1)),
        "{e}"
    );
    // Each with its code, for a page to say it in its language.
    assert_eq!(e["why"], "unauthorized", "{e}");
    // A token holding no seat is refused and the socket still only watches.
    send(&mut watch, json!({"t": "hello", "token": "not-a-seat"})).await;
    let (_, e) = answer(&mut watch).await;
    assert_eq!((&e["code"], &e["why"]), (&json!(403), &json!("not_your_seat")), "{e}");
    send(&mut watch, json!({"t": "resign"})).await;
    assert_eq!(answer(&mut watch).await.1["code"], 401);

    // White's socket cannot take black's seat, nor make black's move.
    let mut white = open(&s, &g.id, "", Some(&g.tokens[0])).await;
    assert_eq!(recv(&mut white).await.unwrap()["type"], "gameFull");
    send(&mut white, json!({"t": "hello", "token": g.tokens[1]})).await;
    let (_, e) = answer(&mut white).await;
    assert_eq!(e["code"], 400, "{e}");
    send(&mut white, json!({"t": "move", "move": "e2e4"})).await;
    assert_eq!(answer(&mut white).await.1["t"], "ack");
    send(&mut white, json!({"t": "move", "move": "e7e5"})).await;
    let (_, e) = answer(&mut white).await;
    assert_eq!((e["t"].as_str(), e["code"].as_u64()), (Some("error"), Some(400)), "{e}");
    assert!(e["error"].as_str().unwrap().contains("turn"), "{e}");

    // Bad messages: each an error frame (with its id when it had one); the socket goes on.
    for (bad, id) in [
        (Message::text("not json"), None),
        (Message::text(r#"{"t":"fly","id":"x"}"#), Some("x")),
        (Message::text(r#"{"t":"move","id":"m"}"#), Some("m")),
        (Message::text(r#"{"t":"move","move":"zz99"}"#), None),
        (Message::binary(vec![1u8, 2, 3]), None),
    ] {
        white.send(bad.clone()).await.unwrap();
        let (_, e) = answer(&mut white).await;
        assert_eq!(
            (e["t"].as_str(), e["code"].as_u64()),
            (Some("error"), Some(400)),
            "{bad:?}: {e}"
        );
        assert_eq!(e["id"].as_str(), id, "{e}");
    }
    send(&mut white, json!({"t": "ping", "id": 9})).await;
    assert_eq!(answer(&mut white).await.1, json!({"t": "pong", "id": 9}));
    // Black, by its own socket, answers; the game goes on and the HTTP stream agrees.
    let mut black = open(&s, &g.id, "?since=0", Some(&g.tokens[1])).await;
    send(&mut black, json!({"t": "move", "move": "e7e5"})).await;
    let (_, ack) = answer(&mut black).await;
    assert_eq!(ack["t"], "ack", "{ack}");
    let mut r = reqwest::get(format!("{}/api/board/game/stream/{}", s.base, g.id))
        .await
        .unwrap();
    let mut buf = Vec::new();
    while !buf.contains(&b'\n') {
        buf.extend_from_slice(&r.chunk().await.unwrap().expect("the gameFull line"));
    }
    let nl = buf.iter().position(|&b| b == b'\n').unwrap();
    let full: Value = serde_json::from_slice(&buf[..nl]).unwrap();
    // Only the two moves: neither refusal moved anything.
    assert_eq!(full["state"]["moves"], "e2e4 e7e5", "{full}");
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The command the database logged for `game`'s move `mv`.
async fn logged(db: &std::path::Path, game: &str, mv: &str) -> String {
    let s = store::Store::open(&store::Target::File(db.to_path_buf()))
        .await
        .unwrap();
    let c: String = store::sqlx::query_scalar("SELECT command FROM commands WHERE game_id = $1 AND command LIKE $2")
        .bind(game)
        .bind(format!("move {mv}%"))
        .fetch_one(s.pool())
        .await
        .unwrap();
    s.close().await;
    c
}

/// The server's pings measure a socket's round trip: a client slow to answer (300 ms here, as
/// a slow network would be) has half of it credited to its next move, within the quota, and
/// the credit is logged with the move; a quick one is credited less (nothing when its reads are
/// prompt).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pings_round_trip_is_credited_to_a_move_and_logged() {
    let (s, dir) = server();
    let v: Value = reqwest::Client::new()
        .post(format!("{}/api/game", s.base))
        .json(&json!({"kind": "chess", "clock": {"limit": 300, "increment": 2}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = v["id"].as_str().unwrap().to_string();
    let token = |i: usize| v["seats"][i]["token"].as_str().unwrap().to_string();
    let mut white = open(&s, &id, "", Some(&token(0))).await;
    recv(&mut white).await.unwrap();
    send(&mut white, json!({"t": "move", "move": "e2e4"})).await;
    assert_eq!(answer(&mut white).await.1["t"], "ack");
    // Black's socket is pinged as it opens; its pong leaves only when it next reads.
    let mut black = open(&s, &id, "", Some(&token(1))).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    loop {
        match black.next().await.unwrap().unwrap() {
            Message::Ping(_) => break,
            _ => continue,
        }
    }
    // The pong goes out ahead of this message, and is taken before it.
    send(&mut black, json!({"t": "ping"})).await;
    assert_eq!(answer(&mut black).await.1["t"], "pong");
    send(&mut black, json!({"t": "move", "move": "e7e5"})).await;
    assert_eq!(answer(&mut black).await.1["t"], "ack");
    send(&mut white, json!({"t": "move", "move": "g1f3"})).await;
    assert_eq!(answer(&mut white).await.1["t"], "ack");
    drop(s);
    let db = dir.join("games.db");
    let black_move = logged(&db, &id, "e7e5").await;
    let lag: u64 = black_move
        .split_once(" lag=")
        .unwrap_or_else(|| panic!("no credit logged: {black_move}"))
        .1
        .parse()
        .unwrap();
    assert!((100..=400).contains(&lag), "{black_move}");
    // White answered its pings as soon as it read them: no credit, or (on a loaded machine,
    // where the test's own reads come late) less than black's.
    let white_move = logged(&db, &id, "g1f3").await;
    let white_lag: u64 = white_move.split_once(" lag=").map_or(0, |(_, l)| l.parse().unwrap());
    assert!(white_lag < lag, "white {white_move}, black {black_move}");
    let _ = std::fs::remove_dir_all(&dir);
}
