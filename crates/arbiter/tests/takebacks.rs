//! Takebacks over the Board API of a spawned `arbiter serve` (`POST
//! /api/board/game/{id}/takeback/{yes|no}`, lichess's shape): asked for, declined, accepted (the
//! moves and the position go back, the state says who asks and who may); refused with the
//! referee's code in a rated game (made by a seek), under competition rules and in an event's
//! game; and a game with a takeback replays to the same state after a restart.

use reqwest::{Client, Method, StatusCode};
use serde_json::{json, Value};

mod common;
use common::browser::Browser;
use common::{api, Server};

/// A game made by `POST /api/game` with `body`: its id and the two seats' tokens.
async fn create(base: &str, body: Value) -> (String, [String; 2]) {
    let v = api(base, "POST", "/api/game", None, Some(body)).await;
    let token = |i: usize| v["seats"][i]["token"].as_str().unwrap().to_string();
    (v["id"].as_str().unwrap().to_string(), [token(0), token(1)])
}

/// The game's state now: the `gameFull` line's `state`.
async fn state(base: &str, id: &str) -> Value {
    let mut stream = reqwest::get(format!("{base}/api/board/game/stream/{id}"))
        .await
        .unwrap();
    let mut bytes = Vec::new();
    while !bytes.contains(&b'\n') {
        bytes.extend_from_slice(&stream.chunk().await.unwrap().expect("a first line"));
    }
    let full: Value = serde_json::from_slice(bytes.split(|b| *b == b'\n').next().unwrap()).unwrap();
    full["state"].clone()
}

/// `POST path` with the seat's token: its status and JSON answer.
async fn post(base: &str, path: &str, token: &str) -> (StatusCode, Value) {
    let r = Client::new()
        .post(format!("{base}{path}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = r.status();
    (status, r.json().await.unwrap_or_default())
}

async fn play(base: &str, id: &str, token: &str, mv: &str) {
    api(
        base,
        "POST",
        &format!("/api/board/game/{id}/move/{mv}"),
        Some(token),
        None,
    )
    .await;
}

/// The fields of a state that a replay must give again.
fn essentials(s: &Value) -> Value {
    json!([
        s["moves"],
        s["fen"],
        s["turn"],
        s["takeback"],
        s["mayTakeback"],
        s["mayOffer"],
        s["status"]
    ])
}

async fn asked_declined_accepted(base: &str) -> String {
    let (id, [white, black]) = create(base, json!({ "kind": "chess" })).await;
    let takeback = |answer: &str| format!("/api/board/game/{id}/takeback/{answer}");
    // Before any move, nothing to take back.
    play(base, &id, &white, "e2e4").await;
    let (status, v) = post(base, &takeback("yes"), &black).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["why"], "nothing_to_take_back", "{v}");
    assert!(v["error"].as_str().unwrap().contains("no move"), "{v}");
    play(base, &id, &black, "e7e5").await;
    let s = state(base, &id).await;
    assert_eq!(
        (&s["mayTakeback"], &s["takeback"]),
        (&json!([true, true]), &Value::Null),
        "{s}"
    );

    // Black asks to take back e5; white declines; the move stands.
    let (status, v) = post(base, &takeback("yes"), &black).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let s = state(base, &id).await;
    assert_eq!(s["takeback"], "black", "{s}");
    let (status, v) = post(base, &takeback("no"), &white).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let s = state(base, &id).await;
    assert_eq!(
        (&s["moves"], &s["takeback"]),
        (&json!("e2e4 e7e5"), &Value::Null),
        "{s}"
    );
    // Declining what nobody asks for is refused, with the code.
    let (status, v) = post(base, &takeback("no"), &white).await;
    assert_eq!(
        (status, &v["why"]),
        (StatusCode::BAD_REQUEST, &json!("no_takeback_pending")),
        "{v}"
    );

    // Asked again and accepted (`yes` while the other side asks): e5 is gone, black to move.
    post(base, &takeback("yes"), &black).await;
    let (status, v) = post(base, &takeback("yes"), &white).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let s = state(base, &id).await;
    assert_eq!((&s["moves"], &s["turn"]), (&json!("e2e4"), &json!("black")), "{s}");
    assert_eq!(s["notation"]["san"], json!(["e4"]), "{s}");
    assert!(s["legal"].as_array().unwrap().contains(&json!("c7c5")), "{s}");
    // Play goes on from there.
    play(base, &id, &black, "c7c5").await;
    play(base, &id, &white, "g1f3").await;
    play(base, &id, &black, "d7d6").await;
    // White, answered by black, takes back two plies: its Nf3 and black's reply.
    post(base, &takeback("yes"), &white).await;
    post(base, &takeback("yes"), &black).await;
    let s = state(base, &id).await;
    assert_eq!((&s["moves"], &s["turn"]), (&json!("e2e4 c7c5"), &json!("white")), "{s}");
    play(base, &id, &white, "b1c3").await;
    id
}

/// Seat tokens of a rated chess game made by a seek and its acceptance (first, second), by two
/// visitors with accounts (rated games are for accounts).
async fn rated_game(base: &str) -> (String, [String; 2]) {
    let mut players = [Browser::opened(base).await, Browser::opened(base).await];
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
        % 1_000_000_000;
    for (i, p) in players.iter_mut().enumerate() {
        let name = format!("tb{stamp}x{i}");
        p.ok(
            Method::POST,
            "/api/account",
            Some(json!({ "name": name, "password": "a long enough password" })),
        )
        .await;
    }
    let seek = players[0]
        .ok(
            Method::POST,
            "/api/seeks",
            Some(json!({ "kind": "chess", "time": "5+3", "rated": true, "colour": "first" })),
        )
        .await;
    let accept = format!("/api/seeks/{}/accept", seek["id"].as_str().unwrap());
    let took = players[1].ok(Method::POST, &accept, None).await;
    let game = took["game"].as_str().expect("a game").to_string();
    let mut tokens = Vec::new();
    for p in &mut players {
        tokens.push(p.seat(&game).await.expect("the seat held").0);
    }
    (game, [tokens[0].clone(), tokens[1].clone()])
}

async fn refused_where_off(base: &str) {
    let (id, [white, _]) = rated_game(base).await;
    play(base, &id, &white, "d2d4").await;
    let s = state(base, &id).await;
    assert_eq!(s["mayTakeback"], json!([false, false]), "{s}");
    let (status, v) = post(base, &format!("/api/board/game/{id}/takeback/yes"), &white).await;
    assert_eq!(
        (status, &v["why"]),
        (StatusCode::BAD_REQUEST, &json!("takebacks_rated")),
        "{v}"
    );
    assert!(v["error"].as_str().unwrap().contains("rated"), "{v}");

    // Competition rules take none.
    let (id, [white, _]) = create(base, json!({ "kind": "xiangqi", "ruleset": "cxa" })).await;
    play(base, &id, &white, "h2e2").await;
    let (status, v) = post(base, &format!("/api/board/game/{id}/takeback/yes"), &white).await;
    assert_eq!(
        (status, &v["why"]),
        (StatusCode::BAD_REQUEST, &json!("takebacks_off")),
        "{v}"
    );
    let (status, v) = post(base, &format!("/api/board/game/{id}/takeback/maybe"), &white).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");

    // An event's game, under the events' default `online` rules: a competition all the same.
    let made = api(
        base,
        "POST",
        "/api/event",
        None,
        Some(json!({ "name": "Takebacks", "format": "round-robin", "kind": "chess", "clock": { "limit": 600, "increment": 0 } })),
    )
    .await;
    let (event, org) = (made["id"].as_str().unwrap(), made["organiserToken"].as_str().unwrap());
    let mut players = Vec::new();
    for name in ["Ann", "Bob"] {
        let path = format!("/api/event/{event}/register");
        let r = api(base, "POST", &path, Some(org), Some(json!({ "name": name }))).await;
        players.push(r["token"].as_str().unwrap().to_string());
    }
    api(
        base,
        "POST",
        &format!("/api/event/{event}/round/start"),
        Some(org),
        None,
    )
    .await;
    let me = api(base, "GET", &format!("/api/event/{event}/me"), Some(&players[0]), None).await;
    let id = me["game"]["id"].as_str().unwrap().to_string();
    let white = if me["game"]["side"] == "white" {
        &players[0]
    } else {
        &players[1]
    };
    play(base, &id, white, "e2e4").await;
    assert_eq!(state(base, &id).await["mayTakeback"], json!([false, false]));
    let (status, v) = post(base, &format!("/api/board/game/{id}/takeback/yes"), white).await;
    assert_eq!(
        (status, &v["why"]),
        (StatusCode::BAD_REQUEST, &json!("takebacks_off")),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takebacks_over_the_board_api_and_after_a_restart() {
    let dir = std::env::temp_dir().join(format!("arbiter-takebacks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("t.db").display());
    let (id, before) = {
        let server = Server::start_with(&url, &[]);
        let id = asked_declined_accepted(&server.base).await;
        refused_where_off(&server.base).await;
        let before = state(&server.base, &id).await;
        server.kill9();
        (id, before)
    };
    // Replayed from the command log: the same game.
    let server = Server::start_with(&url, &[]);
    let after = state(&server.base, &id).await;
    assert_eq!(essentials(&after), essentials(&before));
    assert_eq!(after["moves"], "e2e4 c7c5 b1c3");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
