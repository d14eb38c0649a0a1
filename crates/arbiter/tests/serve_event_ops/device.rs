//! The board device and the organiser's result at a board still in play, over HTTP.
//!
//! The device: the arbiter (the organiser) makes its token; with it one screen plays both
//! sides' moves in turn, presses the clock without a move (a foul) and resigns for a side; its
//! token acts on nothing else, and no other token acts as it — a player's, the arbiter's,
//! another game's device, the device made before a new one, none at all.
//!
//! The organiser's result for a game still in play ends it: the live game gets the result as
//! the arbiter's decision with the reason, its clocks stop, and its players can play no more.

use std::time::Duration;

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::common::Server;
use crate::http::*;

async fn post(c: &Client, s: &Server, path: &str, token: Option<&str>) -> (StatusCode, Value) {
    call(c, s, "POST", path, token, None).await
}

async fn board_device(db: &str) {
    let s = Server::start_with(db, &[]);
    let c = Client::new();
    let ev = create(
        &c,
        &s,
        json!({"name": "Device night", "format": "round-robin", "kind": "xiangqi", "ruleset": "casual",
            "clock": {"limit": 600, "increment": 0}}),
        4,
    )
    .await;
    let other = create(
        &c,
        &s,
        json!({"name": "Elsewhere", "format": "round-robin", "kind": "xiangqi"}),
        0,
    )
    .await;
    let pairings = start_round(&c, &s, &ev).await;
    let (_, a, b) = pairings[0].clone();
    let (_, c1, d1) = pairings[1].clone();
    let g = seats(&c, &s, &ev, a, b).await;
    let h = seats(&c, &s, &ev, c1, d1).await;
    let make = format!("/api/arbiter/game/{}/device", g.id);

    // Only the game's arbiter makes a device: not a player, not another event's organiser.
    for t in [Some(g.red.as_str()), Some(other.organiser.as_str())] {
        let (st, v) = post(&c, &s, &make, t).await;
        assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    }
    assert_eq!(post(&c, &s, &make, None).await.0, StatusCode::UNAUTHORIZED);
    let (st, old) = post(&c, &s, &make, Some(&ev.organiser)).await;
    assert_eq!(st, StatusCode::OK, "{old}");
    let old = old["token"].as_str().unwrap().to_string();
    let (st, made) = post(&c, &s, &make, Some(&ev.organiser)).await;
    assert_eq!(st, StatusCode::OK, "{made}");
    let device = made["token"].as_str().unwrap().to_string();
    assert_eq!(made["url"], format!("/game/{}#device={device}", g.id));
    let (_, other_device) = post(
        &c,
        &s,
        &format!("/api/arbiter/game/{}/device", h.id),
        Some(&ev.organiser),
    )
    .await;
    let other_device = other_device["token"].as_str().unwrap().to_string();

    // Nothing but the newest device's token acts at the device.
    let red_move = format!("/api/device/game/{}/red/move/h2e2", g.id);
    for t in [&g.red, &g.black, &ev.organiser, &old, &other_device, &other.organiser] {
        let (st, v) = post(&c, &s, &red_move, Some(t)).await;
        assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    }
    assert_eq!(post(&c, &s, &red_move, None).await.0, StatusCode::UNAUTHORIZED);
    // And the device's token is nothing elsewhere: no seat, no console.
    let (st, _) = board(&c, &s, &g, "move/h2e2", &device).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, _) = post(&c, &s, &format!("/api/arbiter/game/{}/red/resign", g.id), Some(&device)).await;
    assert_eq!(st, StatusCode::FORBIDDEN);

    // Both sides play on the device, each in turn; a move out of turn is refused (and under
    // `casual` is a foul: an extra move, seed 000 §8 (五)).
    let (st, v) = post(&c, &s, &red_move, Some(&device)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (st, v) = post(
        &c,
        &s,
        &format!("/api/device/game/{}/red/move/h0g2", g.id),
        Some(&device),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    let (st, v) = post(
        &c,
        &s,
        &format!("/api/device/game/{}/black/move/h9g7", g.id),
        Some(&device),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(full(&c, &s, &g.id).await["state"]["moves"], "h2e2 h9g7");
    // Red presses the clock without moving: a foul too, and the game goes on.
    let (st, v) = post(
        &c,
        &s,
        &format!("/api/device/game/{}/red/press-clock", g.id),
        Some(&device),
    )
    .await;
    assert_eq!((st, &v["status"]), (StatusCode::OK, &json!("started")), "{v}");
    let fouls: Vec<Value> = history(&c, &s, &g.id)
        .await
        .into_iter()
        .filter_map(|l| l["event"].get("Foul").cloned())
        .collect();
    assert_eq!(fouls.len(), 2, "the extra move, the clock press: {fouls:?}");
    assert!(fouls.iter().all(|f| f["side"] == "first"), "{fouls:?}");
    assert_eq!(fouls[1]["kind"], "ClockPress", "{fouls:?}");
    // Black resigns at the device.
    let (st, v) = post(
        &c,
        &s,
        &format!("/api/device/game/{}/black/resign", g.id),
        Some(&device),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["reason"], &v["winner"]),
        (&json!("resignation"), &json!("red")),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_device_plays_both_sides_and_nothing_else_on_sqlite() {
    let (dir, db) = sqlite("device");
    board_device(&db).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_device_plays_both_sides_and_nothing_else_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("event_ops_device") else {
        return;
    };
    board_device(&db.url).await;
}

/// A device made before a restart still plays after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_device_outlives_a_restart() {
    let (dir, db) = sqlite("device-restart");
    let s = Server::start_with(&db, &[]);
    let c = Client::new();
    let ev = create(
        &c,
        &s,
        json!({"name": "Restart", "format": "round-robin", "kind": "xiangqi"}),
        2,
    )
    .await;
    let (_, a, b) = start_round(&c, &s, &ev).await[0].clone();
    let g = seats(&c, &s, &ev, a, b).await;
    let (_, made) = post(
        &c,
        &s,
        &format!("/api/arbiter/game/{}/device", g.id),
        Some(&ev.organiser),
    )
    .await;
    let device = made["token"].as_str().unwrap().to_string();
    s.kill9();
    let s = Server::start_with(&db, &[]);
    let (st, v) = post(
        &c,
        &s,
        &format!("/api/device/game/{}/red/move/h2e2", g.id),
        Some(&device),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    drop(s);
    let _ = std::fs::remove_dir_all(dir);
}

/// The organiser enters the result of a game still in play: the game ends with it.
async fn result_ends_the_game(db: &str) {
    let s = Server::start_with(db, &[]);
    let c = Client::new();
    let ev = create(
        &c,
        &s,
        json!({"name": "Cup", "format": "round-robin", "kind": "xiangqi", "clock": {"limit": 600, "increment": 0}}),
        4,
    )
    .await;
    let (pid, a, b) = start_round(&c, &s, &ev).await[0].clone();
    let g = seats(&c, &s, &ev, a, b).await;
    plies(&c, &s, &g, 0, 2).await;
    // A player cannot enter it.
    let body = json!({"pairing": pid, "results": ["0-1"], "reason": "red left the hall and did not return"});
    let (st, _) = call(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/result", ev.id),
        Some(&g.black),
        Some(body.clone()),
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    assert_eq!(full(&c, &s, &g.id).await["state"]["status"], "started");
    ok(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/result", ev.id),
        Some(&ev.organiser),
        Some(body),
    )
    .await;
    let f = full(&c, &s, &g.id).await;
    let st = &f["state"];
    assert_eq!(
        (&st["reason"], &st["winner"]),
        (&json!("arbiter"), &json!("black")),
        "{f}"
    );
    let why = st["explanation"].as_str().unwrap();
    assert!(
        why.contains("the arbiter's decision") && why.contains("red left the hall"),
        "{why}"
    );
    // The clocks stopped.
    let before = (st["wtime"].clone(), st["btime"].clone());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let later = full(&c, &s, &g.id).await;
    assert_eq!(
        before,
        (later["state"]["wtime"].clone(), later["state"]["btime"].clone())
    );
    // The players play no more, and the record says it was adjudicated.
    let (st, v) = board(&c, &s, &g, "move/h0g2", &g.red).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    let pgn = c
        .get(format!("{}/api/game/{}/pgn", s.base, g.id))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("[Termination \"adjudication\"]"),
        "{pgn}"
    );
    // The pairing has the organiser's result, once: the ended game is not entered again.
    let e = wait_event(&c, &s, &ev, "the game marked entered", |v| {
        v["stages"][0]["rounds"][0]["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == pid.as_str() && p["liveGames"][0]["entered"] == true)
    })
    .await;
    let p = e["stages"][0]["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == pid.as_str())
        .unwrap()
        .clone();
    assert_eq!(p["games"].as_array().unwrap().len(), 1, "{p}");
    let red_first = g.red_player == p["first"];
    assert_eq!(
        p["verdict"],
        json!({"won": if red_first { "second" } else { "first" }}),
        "{p}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_organisers_result_ends_the_game_in_play_on_sqlite() {
    let (dir, db) = sqlite("decided");
    result_ends_the_game(&db).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_organisers_result_ends_the_game_in_play_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("event_ops_decided") else {
        return;
    };
    result_ends_the_game(&db.url).await;
}
