//! `arbiter serve` through real HTTP on loopback: a spawned server process, games played by
//! two seat tokens, refusals, malformed and oversized requests, a flag that falls with no one
//! acting, and kill -9 mid-game then a restart on the same database. On SQLite always; on
//! PostgreSQL at `$DATABASE_URL` or 127.0.0.1:5432 in a fresh database (SKIPPED without one).

use std::time::{Duration, Instant};

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

#[path = "../common/mod.rs"]
mod common;
use common::Server;

mod client;
mod console;
mod lichess;
mod ops;
use client::{act, create, full, lines, play};

async fn games_end_in_a_result(c: &Client, s: &Server) {
    // Fool's mate.
    let g = create(c, s, json!({"kind": "chess", "clock": {"limit": 300, "increment": 2}})).await;
    play(c, s, &g, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    let f = full(c, s, &g).await;
    assert_eq!(f["state"]["moves"], "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(f["state"]["notation"]["san"], json!(["f3", "e5", "g4", "Qh4#"]));
    assert_eq!(f["state"]["status"], "mate");
    assert_eq!(f["state"]["reason"], "checkmate");
    assert_eq!(f["state"]["winner"], "black");
    let all = lines(c, s, &g, "?since=0", 100).await;
    let versions: Vec<u64> = all.iter().map(|l| l["version"].as_u64().unwrap()).collect();
    assert_eq!(versions, (1..=f["version"].as_u64().unwrap()).collect::<Vec<_>>());
    let pgn = c
        .get(format!("{}/api/game/{}/pgn", s.base, g.id))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("Qh4#") && pgn.contains("0-1"), "{pgn}");
    let (st, _) = act(c, s, &g, "move/e2e4", Some(&g.tokens[0])).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "the game is over");

    // Xiangqi: a few moves (ICCS, either case, with or without the dash), a draw offered and
    // declined, then black resigns.
    let g = create(c, s, json!({"kind": "xiangqi", "ruleset": "online", "rules": "cxa"})).await;
    play(c, s, &g, &["h2e2", "H9-G7", "h0g2"]).await;
    let (st, v) = act(c, s, &g, "draw/yes", Some(&g.tokens[1])).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(full(c, s, &g).await["state"]["bdraw"], true);
    let (st, v) = act(c, s, &g, "draw/no", Some(&g.tokens[0])).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (st, v) = act(c, s, &g, "resign", Some(&g.tokens[1])).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let f = full(c, s, &g).await;
    assert_eq!(f["kind"], "xiangqi");
    assert_eq!(f["state"]["moves"], "h2e2 h9g7 h0g2");
    assert_eq!(f["state"]["notation"]["wxf"], json!(["C2.5", "H8+7", "H2+3"]));
    assert_eq!(f["state"]["notation"]["chinese"][0], "炮二平五");
    assert_eq!(f["state"]["winner"], "red");
    assert_eq!(f["state"]["status"], "resign");
    assert_eq!(f["state"]["reason"], "resignation");

    // A draw by agreement through draw/yes on both sides.
    let g = create(c, s, json!({"kind": "chess"})).await;
    play(c, s, &g, &["e2e4", "e7e5"]).await;
    assert_eq!(act(c, s, &g, "draw/yes", Some(&g.tokens[0])).await.0, StatusCode::OK);
    assert_eq!(act(c, s, &g, "draw/yes", Some(&g.tokens[1])).await.0, StatusCode::OK);
    let f = full(c, s, &g).await;
    assert_eq!(f["state"]["winner"], Value::Null);
    assert_ne!(f["state"]["status"], "started");

    // A threefold repetition (the knights out and back twice), claimed by the side to move.
    let g = create(c, s, json!({"kind": "chess"})).await;
    let (st, v) = act(c, s, &g, "claim-draw", Some(&g.tokens[0])).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "nothing to claim yet: {v}");
    play(
        c,
        s,
        &g,
        &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"],
    )
    .await;
    let (st, v) = act(c, s, &g, "claim-draw", Some(&g.tokens[0])).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let f = full(c, s, &g).await;
    assert_eq!(f["state"]["status"], "draw", "{f}");
    assert_eq!(f["state"]["reason"], "threefold_repetition", "{f}");

    // Abort before both have moved; not after.
    let g = create(c, s, json!({"kind": "chess"})).await;
    assert_eq!(act(c, s, &g, "abort", Some(&g.tokens[1])).await.0, StatusCode::OK);
    let g = create(c, s, json!({"kind": "chess"})).await;
    play(c, s, &g, &["e2e4", "e7e5"]).await;
    assert_eq!(
        act(c, s, &g, "abort", Some(&g.tokens[0])).await.0,
        StatusCode::BAD_REQUEST
    );
}

async fn only_seats_act(c: &Client, s: &Server) {
    let g = create(c, s, json!({"kind": "chess"})).await;
    let other = create(c, s, json!({"kind": "chess"})).await;
    // A spectator (no token) streams but cannot move.
    assert_eq!(full(c, s, &g).await["state"]["moves"], "");
    let (st, v) = act(c, s, &g, "move/e2e4", None).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED, "{v}");
    assert!(v["error"].is_string());
    let (st, _) = act(c, s, &g, "move/e2e4", Some("not-a-token")).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, _) = act(c, s, &g, "move/e2e4", Some(&other.tokens[0])).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "another game's seat");
    let (st, _) = act(c, s, &g, "resign", Some(&other.tokens[1])).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    // Black's token moves only black.
    let (st, v) = act(c, s, &g, "move/e2e4", Some(&g.tokens[1])).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(full(c, s, &g).await["state"]["moves"], "");
}

async fn bad_requests_get_a_clear_4xx(c: &Client, s: &Server) {
    let g = create(c, s, json!({"kind": "chess"})).await;
    let w = Some(g.tokens[0].as_str());
    for (path, want) in [
        ("move/zz", StatusCode::BAD_REQUEST),
        ("move/e2e9", StatusCode::BAD_REQUEST),
        ("move/Nf3", StatusCode::BAD_REQUEST),
        ("move/h2e2", StatusCode::BAD_REQUEST), // reads as UCI, but no piece stands on h2 to go there
        ("move/e2e4extra", StatusCode::BAD_REQUEST),
        ("draw/maybe", StatusCode::BAD_REQUEST),
        ("move/e2e4?offeringDraw=perhaps", StatusCode::BAD_REQUEST),
        ("fly", StatusCode::NOT_FOUND),
    ] {
        let (st, v) = act(c, s, &g, path, w).await;
        assert_eq!(st, want, "{path}: {v}");
        assert!(v["error"].is_string(), "{path}: {v}");
    }
    let post = |body: String| {
        // Its own connection each: the server answers an oversized body without reading it
        // and closes the connection, which a pooled client would otherwise reuse.
        c.post(format!("{}/api/game", s.base))
            .header("content-type", "application/json")
            .header("connection", "close")
            .body(body)
            .send()
    };
    for (body, want) in [
        ("{bad".to_string(), StatusCode::BAD_REQUEST),
        (json!({"kind": "go"}).to_string(), StatusCode::BAD_REQUEST),
        (
            json!({"kind": "chess", "ruleset": "blitz-anarchy"}).to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"kind": "xiangqi", "rules": "fide"}).to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"kind": "chess", "clock": {"limit": -5, "increment": 0}}).to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"kind": "chess", "clock": {"limit": "300", "increment": 0}}).to_string(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"kind": "chess", "clock": {"limit": 999999999, "increment": 0}}).to_string(),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"kind": "chess", "extra": 1}).to_string(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"kind": "x".repeat(100_000)}).to_string(),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
    ] {
        let r = post(body.clone()).await.unwrap();
        assert_eq!(r.status(), want, "{}", &body[..body.len().min(80)]);
        let v: Value = r.json().await.unwrap();
        assert!(v["error"].is_string(), "{v}");
    }
    let r = c
        .get(format!("{}/api/board/game/stream/nosuchgame", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    let r = c
        .get(format!("{}/api/board/game/stream/{}", s.base, "x".repeat(5000)))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_client_error());
}

async fn a_flag_falls_by_itself(c: &Client, s: &Server) {
    let g = create(c, s, json!({"kind": "chess", "clock": {"limit": 1, "increment": 0}})).await;
    // The clocks wait for the first move: nothing has run out yet.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let f = full(c, s, &g).await;
    assert_eq!(f["state"]["status"], "created", "{f}");
    play(c, s, &g, &["e2e4"]).await;
    // Then nobody acts: the server's timer rules black's flag; the stream shows it and ends.
    let l = lines(c, s, &g, "?since=0", 10).await;
    let last = l.last().expect("an event");
    assert_eq!(last["winner"], "white", "{last}");
    assert_eq!(last["status"], "outoftime", "{last}");
    assert_eq!(last["reason"], "time", "{last}");
    assert_eq!(last["btime"], 0, "{last}");
}

/// Plays, kills the server with SIGKILL, restarts it on the same database: the moves
/// acknowledged are all there, the same lines stream again, and the clocks are as they stood
/// at the last move (the downtime charged to no one).
async fn survives_kill9(c: &Client, db: &str) {
    let s = Server::start_with(db, &[]);
    let g = create(c, &s, json!({"kind": "chess", "clock": {"limit": 300, "increment": 0}})).await;
    play(c, &s, &g, &["e2e4", "e7e5", "g1f3"]).await;
    let xq = create(
        c,
        &s,
        json!({"kind": "xiangqi", "clock": {"limit": 600, "increment": 5}}),
    )
    .await;
    play(c, &s, &xq, &["b2e2", "b9c7"]).await;
    let before = lines(c, &s, &g, "?since=0", 3).await;
    let last_move = before.last().unwrap().clone();
    assert_eq!(last_move["moves"], "e2e4 e7e5 g1f3");
    tokio::time::sleep(Duration::from_millis(3000)).await;
    s.kill9();

    let s = Server::start_with(db, &[]);
    let after = lines(c, &s, &g, "?since=0", before.len()).await;
    assert_eq!(after, before, "the same events with the same versions");
    let f = full(c, &s, &g).await;
    assert_eq!(f["state"]["moves"], "e2e4 e7e5 g1f3");
    assert_eq!(f["state"]["turn"], "black");
    // White's clock is stopped: exactly as after its move. Black's runs again from where it
    // stood at that move: the 3 s before the kill and the downtime are not charged.
    assert_eq!(f["state"]["wtime"], last_move["wtime"]);
    let b0 = last_move["btime"].as_u64().unwrap();
    let b1 = f["state"]["btime"].as_u64().unwrap();
    assert!(b1 <= b0 && b1 + 2500 > b0, "black had {b0} ms, now {b1} ms");
    let (st, v) = act(c, &s, &g, "move/b8c6", Some(&g.tokens[1])).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(full(c, &s, &xq).await["state"]["moves"], "b2e2 b9c7");
    let (st, v) = act(c, &s, &xq, "move/h0g2", Some(&xq.tokens[0])).await;
    assert_eq!(st, StatusCode::OK, "{v}");

    // Once more, right after acknowledged moves: none is lost.
    s.kill9();
    let s = Server::start_with(db, &[]);
    assert_eq!(full(c, &s, &g).await["state"]["moves"], "e2e4 e7e5 g1f3 b8c6");
    assert_eq!(full(c, &s, &xq).await["state"]["moves"], "b2e2 b9c7 h0g2");
}

/// The page is served by the binary: the lobby and a game's address give the same document,
/// which loads its script and style; an unknown asset is a 404.
async fn the_page_is_served(c: &Client, s: &Server) {
    for path in ["/", "/game/abc"] {
        let res = c.get(format!("{}{path}", s.base)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        let html = res.text().await.unwrap();
        assert!(
            html.contains("/static/app.js") && html.contains("id=\"board\""),
            "{path}"
        );
    }
    for (file, media) in [
        ("app.js", "text/javascript"),
        ("board.js", "text/javascript"),
        ("style.css", "text/css"),
    ] {
        let res = c.get(format!("{}/static/{file}", s.base)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{file}");
        let ct = res.headers()["content-type"].to_str().unwrap().to_string();
        assert!(ct.starts_with(media), "{file}: {ct}");
        assert!(!res.text().await.unwrap().is_empty());
    }
    let res = c.get(format!("{}/static/nothing.js", s.base)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    // What the board's hints use: the legal moves of the side to move (20 in chess's start, 44
    // in Xiangqi's), and check (after 1. e4 f6 2. d4 g5 3. Qh5 Black is mated: no moves, in check).
    for (kind, count) in [("chess", 20), ("xiangqi", 44)] {
        let g = create(c, s, json!({ "kind": kind })).await;
        let state = &full(c, s, &g).await["state"];
        assert_eq!(state["legal"].as_array().unwrap().len(), count, "{kind}: {state}");
        assert_eq!(state["check"], false);
    }
    let g = create(c, s, json!({ "kind": "chess" })).await;
    play(c, s, &g, &["e2e4", "f7f6", "d2d4", "g7g5"]).await;
    let state = &full(c, s, &g).await["state"];
    assert!(
        state["legal"].as_array().unwrap().iter().any(|m| m == "d1h5"),
        "{state}"
    );
    play(c, s, &g, &["d1h5"]).await;
    let state = &full(c, s, &g).await["state"];
    assert_eq!(state["check"], true, "{state}");
    assert_eq!(state["legal"].as_array().unwrap().len(), 0, "{state}");
}

async fn everything(db: &str) {
    let c = Client::new();
    {
        let s = Server::start_with(db, &[]);
        the_page_is_served(&c, &s).await;
        games_end_in_a_result(&c, &s).await;
        only_seats_act(&c, &s).await;
        bad_requests_get_a_clear_4xx(&c, &s).await;
        a_flag_falls_by_itself(&c, &s).await;
        ops::metrics_and_probes(&c, &s).await;
    }
    survives_kill9(&c, db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_on_sqlite() {
    let path = std::env::temp_dir().join(format!("arbiter-serve-test-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    everything(path.to_str().unwrap()).await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_on_postgresql() {
    // A fresh database, dropped even when an assertion fails.
    let Some(db) = store::scratch::Scratch::postgres("serve_on_postgresql") else {
        return;
    };
    everything(&db.url).await;
}

/// Asserts a clock charged the server's interval less `credit` ms, the interval known only
/// to lie within `[low, high]` as the client saw it (a few ms of rounding either way).
fn charged_within(charged: u64, low: Duration, high: Duration, credit: u64, who: &str) {
    let low = (low.as_millis() as u64).saturating_sub(credit + 5);
    let high = high.as_millis() as u64 - credit + 5;
    assert!(
        (low..=high).contains(&charged),
        "{who} charged {charged} ms, expected {low}..={high} ms"
    );
}

/// The server's own limits: commands per seat and games per address are rate limited (429 with
/// a JSON error), games no one starts are aborted by the server, and a move's reported network
/// lag is credited to its clock within the quota.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_abandonment_and_lag() {
    let dir = std::env::temp_dir().join(format!("arbiter-serve-limits-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}?mode=rwc", dir.join("g.db").display());
    let s = Server::start_with(
        &db,
        &[
            "--actions-per-second",
            "2",
            "--creates-per-minute",
            "4",
            "--abandon-after",
            "2",
        ],
    );
    let c = Client::new();

    // Lag: white moves at once; black answers after ~700 ms saying 400 ms of it was the
    // network: charged ~300 ms, not ~700. lichess's quota for 1+0: a gain of 390 ms a move
    // (2/5 of 60 s in cs + 15), 3 gains to start: 1,560 ms at black's first move.
    // The server's interval between two moves lies between the gap separating the client's two
    // requests (lower) and the span from the first request to the second reply (upper); the
    // charge is that interval less the credited lag, so the bounds hold on a loaded machine too.
    let g = create(&c, &s, json!({"kind": "chess", "clock": {"limit": 60, "increment": 0}})).await;
    let sent_w1 = Instant::now();
    play(&c, &s, &g, &["e2e4"]).await;
    let got_w1 = Instant::now();
    tokio::time::sleep(Duration::from_millis(700)).await;
    let sent_b = Instant::now();
    let (st, v) = act(&c, &s, &g, "move/e7e5?lag=400", Some(&g.tokens[1])).await;
    let got_b = Instant::now();
    assert_eq!(st, StatusCode::OK, "{v}");
    let btime = full(&c, &s, &g).await["state"]["btime"].as_u64().unwrap();
    charged_within(60_000 - btime, sent_b - got_w1, got_b - sent_w1, 400, "black");
    // A claimed lag beyond the quota is credited only up to it: white's 1,560 ms (its first
    // move, which started the clocks, gained nothing).
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let sent_w = Instant::now();
    let (st, v) = act(&c, &s, &g, "move/g1f3?lag=5000", Some(&g.tokens[0])).await;
    let got_w = Instant::now();
    assert_eq!(st, StatusCode::OK, "{v}");
    let wtime = full(&c, &s, &g).await["state"]["wtime"].as_u64().unwrap();
    charged_within(60_000 - wtime, sent_w - got_b, got_w - sent_b, 1_560, "white");

    // Commands per seat: a burst of 4 (twice the rate), then 429 until tokens come back.
    let mut refused = None;
    for _ in 0..6 {
        let (st, v) = act(&c, &s, &g, "claim-draw", Some(&g.tokens[1])).await;
        if st == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(v);
            break;
        }
        assert_eq!(st, StatusCode::BAD_REQUEST, "nothing to claim: {v}");
    }
    let v = refused.expect("the seat was never limited");
    assert!(v["error"].as_str().unwrap().contains("too many requests"), "{v}");
    // The other seat has its own bucket.
    let (st, v) = act(&c, &s, &g, "claim-draw", Some(&g.tokens[0])).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");

    // Abandonment: a game never started, and one where only white moved, are aborted after
    // 2 s; one where both moved goes on. Game creation is limited: 4 at once per address
    // (one already made above).
    let never = create(&c, &s, json!({"kind": "xiangqi"})).await;
    let half = create(&c, &s, json!({"kind": "xiangqi"})).await;
    play(&c, &s, &half, &["h2e2"]).await;
    let both = create(&c, &s, json!({"kind": "xiangqi"})).await;
    play(&c, &s, &both, &["h2e2", "h9g7"]).await;
    let r = c
        .post(format!("{}/api/game", s.base))
        .json(&json!({"kind": "chess"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    tokio::time::sleep(Duration::from_millis(3000)).await;
    for g in [&never, &half] {
        let f = full(&c, &s, g).await;
        assert_eq!(f["state"]["status"], "aborted", "{f}");
    }
    assert_eq!(full(&c, &s, &both).await["state"]["status"], "started");
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}
