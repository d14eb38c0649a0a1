//! Issue 26 point 11: the API as lichess's clients read it — lichess's status names with
//! arbiter's exact reason beside them, `winc`/`binc`, `Retry-After` on 429, the stated body
//! limits on every route, no clock started by a request out of turn, the final state sent once,
//! the answer to a game-ending move saying so — and a graceful shutdown on SIGTERM.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::client::{act, create, full, lines, play, Game};
use crate::common::Server;

/// A scratch SQLite database, removed when dropped.
struct TempDb(std::path::PathBuf);

impl TempDb {
    fn new(name: &str) -> TempDb {
        let path = std::env::temp_dir().join(format!("arbiter-{name}-{}.db", std::process::id()));
        let db = TempDb(path);
        db.remove();
        db
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }

    fn remove(&self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        self.remove();
    }
}

/// The status code of a raw HTTP/1.1 request: `head` (without the blank line) and then `body`.
/// A body over the limit is declared but not sent: the server answers on the header alone (a
/// client still sending would see the connection reset once it closes).
fn raw_status(base: &str, head: &str, body: &[u8]) -> u16 {
    let addr = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    stream.write_all(format!("{head}\r\n\r\n").as_bytes()).unwrap();
    for chunk in body.chunks(64 * 1024) {
        if stream.write_all(chunk).is_err() {
            break;
        }
    }
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !answer.windows(2).any(|w| w == b"\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
    }
    let line = String::from_utf8_lossy(&answer);
    line.split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {line:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_11_lichess_status_names_and_api_shape() {
    let db = TempDb::new("point11");
    let s = Server::start_with(db.path(), &[]);
    let c = Client::new();

    // Status names: lichess's, with arbiter's reason beside them. The move that mates is
    // answered with the end; a move that does not end the game says `started`.
    let g = create(
        &c,
        &s,
        json!({"kind": "chess", "clock": {"limit": 300, "increment": 2}}),
    )
    .await;
    let (st, v) = act(&c, &s, &g, "move/f2f3", Some(&g.tokens[0])).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "started", "{v}");
    assert_eq!(v["winner"], Value::Null, "{v}");
    for (mv, side) in [("e7e5", 1), ("g2g4", 0)] {
        let (st, v) = act(&c, &s, &g, &format!("move/{mv}"), Some(&g.tokens[side])).await;
        assert_eq!(st, StatusCode::OK, "{mv}: {v}");
    }
    let (st, v) = act(&c, &s, &g, "move/d8h4", Some(&g.tokens[1])).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["status"], &v["reason"], &v["winner"]),
        (&json!("mate"), &json!("checkmate"), &json!("black")),
        "the answer to the mating move: {v}"
    );
    let state = &full(&c, &s, &g).await["state"];
    assert_eq!(
        (&state["status"], &state["reason"]),
        (&json!("mate"), &json!("checkmate"))
    );
    // winc/binc: the increment in ms, as lichess sends it.
    assert_eq!(
        (&state["winc"], &state["binc"]),
        (&json!(2000), &json!(2000)),
        "{state}"
    );
    // The final state line is sent once: the mating move's line carries it, and the end
    // follows as a notice.
    let all = lines(&c, &s, &g, "?since=0", 100).await;
    let finals: Vec<&Value> = all
        .iter()
        .filter(|l| l["type"] == "gameState" && l["status"] != "started" && l["status"] != "created")
        .collect();
    assert_eq!(finals.len(), 1, "final state lines: {finals:?}");
    assert_eq!(finals[0]["moves"], "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(finals[0]["winc"], 2000);
    let last = all.last().unwrap();
    assert_eq!(last["type"], "notice", "{last}");
    assert!(last["event"]["GameOver"].is_object(), "{last}");

    // A refused move that ends the game (the third illegal move under `online`) says so too.
    let g = create(&c, &s, json!({"kind": "xiangqi"})).await;
    for _ in 0..2 {
        act(&c, &s, &g, "move/a0a5", Some(&g.tokens[0])).await;
    }
    let (st, v) = act(&c, &s, &g, "move/a0a5", Some(&g.tokens[0])).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(
        (&v["status"], &v["reason"], &v["winner"]),
        (&json!("variantEnd"), &json!("illegal_moves"), &json!("black")),
        "{v}"
    );
    assert!(v["error"].as_str().unwrap().contains("the game is over"), "{v}");

    // Stalemate (Sam Loyd's ten moves), resignation, agreement, a claimed repetition, abort.
    let g = create(&c, &s, json!({"kind": "chess"})).await;
    let loyd = [
        "e2e3", "a7a5", "d1h5", "a8a6", "h5a5", "h7h5", "h2h4", "a6h6", "a5c7", "f7f6", "c7d7", "e8f7", "d7b7", "d8d3",
        "b7b8", "d3h7", "b8c8", "f7g6",
    ];
    play(&c, &s, &g, &loyd).await;
    let (st, v) = act(&c, &s, &g, "move/c8e6", Some(&g.tokens[0])).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["status"], &v["reason"], &v["winner"]),
        (&json!("stalemate"), &json!("stalemate"), &Value::Null)
    );
    let ended = |status: &'static str, reason: &'static str| {
        move |f: Value| {
            assert_eq!(
                (&f["state"]["status"], &f["state"]["reason"]),
                (&json!(status), &json!(reason)),
                "{f}"
            );
        }
    };
    let g = create(&c, &s, json!({"kind": "xiangqi"})).await;
    play(&c, &s, &g, &["h2e2"]).await;
    let (_, v) = act(&c, &s, &g, "resign", Some(&g.tokens[1])).await;
    assert_eq!((&v["status"], &v["winner"]), (&json!("resign"), &json!("red")), "{v}");
    ended("resign", "resignation")(full(&c, &s, &g).await);
    let g = create(&c, &s, json!({"kind": "chess"})).await;
    play(&c, &s, &g, &["e2e4", "e7e5"]).await;
    act(&c, &s, &g, "draw/yes", Some(&g.tokens[0])).await;
    act(&c, &s, &g, "draw/yes", Some(&g.tokens[1])).await;
    ended("draw", "agreement")(full(&c, &s, &g).await);
    let g = create(&c, &s, json!({"kind": "chess"})).await;
    play(
        &c,
        &s,
        &g,
        &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"],
    )
    .await;
    let (_, v) = act(&c, &s, &g, "claim-draw", Some(&g.tokens[0])).await;
    assert_eq!(
        (&v["status"], &v["reason"]),
        (&json!("draw"), &json!("threefold_repetition")),
        "{v}"
    );
    let g = create(&c, &s, json!({"kind": "chess"})).await;
    act(&c, &s, &g, "abort", Some(&g.tokens[0])).await;
    ended("aborted", "aborted")(full(&c, &s, &g).await);

    // A request out of turn before the first move starts no clock, and is not logged.
    let g = create(&c, &s, json!({"kind": "chess", "clock": {"limit": 60, "increment": 0}})).await;
    for path in ["move/e7e5", "draw/yes", "claim-draw", "claim-victory"] {
        let (st, v) = act(&c, &s, &g, path, Some(&g.tokens[1])).await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{path}: {v}");
        assert!(v["error"].as_str().unwrap().contains("turn"), "{path}: {v}");
    }
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let f = full(&c, &s, &g).await;
    assert_eq!(f["state"]["status"], "created", "{f}");
    assert_eq!(
        (&f["state"]["wtime"], &f["state"]["btime"]),
        (&json!(60_000), &json!(60_000)),
        "{f}"
    );
    assert_eq!(f["version"], -1, "nothing logged: {f}");
    play(&c, &s, &g, &["e2e4"]).await;
    assert_eq!(full(&c, &s, &g).await["state"]["status"], "started");

    // Body limits as stated: 4 KiB on every route but the review's (1 MiB), whether the body is
    // declared (1 MB, 50 MB: refused before it is read) or chunked; nothing changes.
    let g = create(&c, &s, json!({"kind": "chess"})).await;
    let auth = format!("Authorization: Bearer {}", g.tokens[0]);
    let routes = [
        "/api/game".to_string(),
        format!("/api/board/game/{}/move/e2e4", g.id),
        format!("/api/board/game/{}/draw/yes", g.id),
        format!("/api/board/game/{}/claim-draw", g.id),
        format!("/api/board/game/{}/claim-victory", g.id),
        format!("/api/board/game/{}/resign", g.id),
        format!("/api/board/game/{}/abort", g.id),
    ];
    for route in &routes {
        let head = |len: usize| {
            format!("POST {route} HTTP/1.1\r\nHost: x\r\n{auth}\r\nConnection: close\r\nContent-Length: {len}")
        };
        assert_eq!(raw_status(&s.base, &head(1_000_000), b""), 413, "{route}: 1 MB");
        assert_eq!(raw_status(&s.base, &head(50_000_000), b""), 413, "{route}: 50 MB");
        let chunked =
            format!("POST {route} HTTP/1.1\r\nHost: x\r\n{auth}\r\nConnection: close\r\nTransfer-Encoding: chunked");
        let mut body = format!("{:x}\r\n", 8192).into_bytes();
        body.extend_from_slice(&[b'x'; 8192]);
        body.extend_from_slice(b"\r\n0\r\n\r\n");
        assert_eq!(raw_status(&s.base, &chunked, &body), 413, "{route}: chunked 8 KiB");
    }
    let review =
        |len: usize| format!("POST /api/review HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {len}");
    assert_eq!(raw_status(&s.base, &review(2_000_000), b""), 413, "review: 2 MB");
    // A small body is still taken (ignored) where the route wants none.
    let head = format!(
        "POST /api/board/game/{}/move/e2e4 HTTP/1.1\r\nHost: x\r\n{auth}\r\nConnection: close\r\nContent-Length: 2",
        g.id
    );
    assert_eq!(raw_status(&s.base, &head, b"{}"), 200);
    let f = full(&c, &s, &g).await;
    assert_eq!(f["state"]["moves"], "e2e4", "only the small request acted: {f}");
    drop(s);

    // 429 says when to come back: Retry-After, in whole seconds.
    let s = Server::start_with(db.path(), &["--actions-per-second", "0.5"]);
    let g = create(&c, &s, json!({"kind": "chess"})).await;
    let mut limited = None;
    for _ in 0..5 {
        let r = c
            .post(format!("{}/api/board/game/{}/claim-draw", s.base, g.id))
            .bearer_auth(&g.tokens[0])
            .send()
            .await
            .unwrap();
        if r.status() == StatusCode::TOO_MANY_REQUESTS {
            limited = Some(r);
            break;
        }
    }
    let r = limited.expect("never limited");
    let retry: u64 = r.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry), "Retry-After: {retry}");
    let v: Value = r.json().await.unwrap();
    assert!(v["error"].as_str().unwrap().contains("too many requests"), "{v}");
    let r = c
        .post(format!("{}/api/game", s.base))
        .json(&json!({"kind": "chess"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK, "creation has its own limit");
}

/// `arbiter serve` spawned by hand, to be signalled.
fn spawn_server(db: &str) -> (std::process::Child, String, BufReader<std::process::ChildStdout>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .env_remove("DATABASE_URL")
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn arbiter serve");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address printed: {line:?}"))
        .to_string();
    (child, format!("http://{addr}"), stdout)
}

/// SIGTERM with a stream open and moves in flight: the server stops taking requests, ends the
/// stream, finishes what it was answering, and exits 0; every acknowledged move is there after
/// a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_11_sigterm_shuts_down_gracefully() {
    let db = TempDb::new("point11-sigterm");
    let (mut child, base, _out) = spawn_server(db.path());
    let c = Client::new();
    let r = c
        .post(format!("{base}/api/game"))
        .json(&json!({"kind": "xiangqi", "clock": {"limit": 600, "increment": 0}}))
        .send()
        .await
        .unwrap();
    let v: Value = r.json().await.unwrap();
    let g = Game {
        id: v["id"].as_str().unwrap().to_string(),
        tokens: [0, 1].map(|i| v["seats"][i]["token"].as_str().unwrap().to_string()),
    };
    let post = |path: String, token: String| {
        let c = c.clone();
        async move { c.post(path).bearer_auth(token).send().await }
    };
    let url = |mv: &str| format!("{base}/api/board/game/{}/move/{mv}", g.id);
    let r = post(url("h2e2"), g.tokens[0].clone()).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    // A watcher's stream stays open until the shutdown ends it.
    let mut stream = c
        .get(format!("{base}/api/board/game/stream/{}", g.id))
        .send()
        .await
        .unwrap();
    assert!(stream.chunk().await.unwrap().is_some(), "the gameFull line");
    // The next move and the signal together: if it is answered, it was written.
    let in_flight = tokio::spawn(post(url("h9g7"), g.tokens[1].clone()));
    tokio::time::sleep(Duration::from_millis(2)).await;
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) }, 0);
    let answered = matches!(in_flight.await.unwrap(), Ok(r) if r.status() == StatusCode::OK);
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "arbiter serve did not exit after SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "exit status {status:?}");
    // The stream ended (rather than hanging up mid-line).
    let rest = tokio::time::timeout(Duration::from_secs(5), async {
        while let Ok(Some(_)) = stream.chunk().await {}
    })
    .await;
    assert!(rest.is_ok(), "the stream did not end");

    let s = Server::start_with(db.path(), &[]);
    let client_game = Game {
        id: g.id.clone(),
        tokens: g.tokens.clone(),
    };
    let moves = full(&c, &s, &client_game).await["state"]["moves"].clone();
    if answered {
        assert_eq!(moves, "h2e2 h9g7");
    } else {
        assert!(moves == "h2e2" || moves == "h2e2 h9g7", "{moves}");
    }
    let (st, v) = act(&c, &s, &client_game, "move/h0g2", Some(&g.tokens[0])).await;
    assert!(st == StatusCode::OK || !answered, "{v}");
    println!(
        "SIGTERM: the move in flight was {}answered",
        if answered { "" } else { "not " }
    );
}
