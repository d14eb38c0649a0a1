//! The organiser pauses the round in play (every game adjourned, its clocks stopped) and
//! resumes it; standings of an event created with `publishStandings` reach the public only as
//! the organiser publishes them, while pairings and results are public as they come — and a
//! `kill -9` keeps what was published.

use std::collections::HashMap;
use std::time::Duration;

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::common::Server;
use crate::http::*;

/// Each entrant's points in the first table of `standings`.
fn points(standings: &Value) -> HashMap<u64, f64> {
    standings[0]["lines"]
        .as_array()
        .unwrap_or_else(|| panic!("no standings: {standings}"))
        .iter()
        .map(|l| (l["id"].as_u64().unwrap(), l["points"].as_f64().unwrap()))
        .collect()
}

async fn organiser_post(c: &Client, s: &Server, ev: &Ev, what: &str) -> (StatusCode, Value) {
    call(
        c,
        s,
        "POST",
        &format!("/api/event/{}/{what}", ev.id),
        Some(&ev.organiser),
        None,
    )
    .await
}

async fn pause_and_publish(db: &str) {
    let mut s = Server::start_with(db, &[]);
    let c = Client::new();
    let body = json!({"name": "Paused", "format": "round-robin", "kind": "xiangqi",
        "clock": {"limit": 600, "increment": 0}, "publishStandings": true});
    let ev = create(&c, &s, body, 4).await;
    let (st, v) = organiser_post(&c, &s, &ev, "round/pause").await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "no round in play: {v}");

    let pairings = start_round(&c, &s, &ev).await;
    let (_, a, b) = pairings[0].clone();
    let g = seats(&c, &s, &ev, a, b).await;
    plies(&c, &s, &g, 0, 2).await;
    // Only the organiser pauses.
    let path = format!("/api/event/{}/round/pause", ev.id);
    let (st, _) = call(&c, &s, "POST", &path, Some(&ev.tokens[&a]), None).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "a player's token");
    let (st, _) = call(&c, &s, "POST", &path, None, None).await;
    assert_eq!(st, StatusCode::UNAUTHORIZED, "no token");
    let (st, v) = organiser_post(&c, &s, &ev, "round/resume").await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "not paused: {v}");

    let (st, v) = organiser_post(&c, &s, &ev, "round/pause").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["round"], 1);
    assert_eq!(v["games"].as_array().unwrap().len(), 2, "both boards adjourned: {v}");
    assert_eq!(event(&c, &s, &ev, None).await["paused"], true);
    // Adjourned: no clock runs, on either board.
    let before = clocks(&c, &s, &g.id).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(clocks(&c, &s, &g.id).await, before, "red's clock stopped");
    let log = full(&c, &s, &g.id).await;
    assert_eq!(log["state"]["moves"], "h2e2 h9g7", "the game stands where it was");
    // Nothing is played on an adjourned board.
    let (st, v) = board(&c, &s, &g, "move/h0g2", &g.red).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "a move while adjourned: {v}");
    assert!(v["error"].as_str().unwrap_or("").contains("adjourned"), "{v}");
    assert_eq!(full(&c, &s, &g.id).await["state"]["moves"], "h2e2 h9g7");

    // Paused across a kill -9; resumed after it.
    s.kill9();
    s = Server::start_with(db, &[]);
    assert_eq!(event(&c, &s, &ev, None).await["paused"], true);
    let (st, v) = organiser_post(&c, &s, &ev, "round/resume").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(event(&c, &s, &ev, None).await["paused"], false);
    let resumed = clocks(&c, &s, &g.id).await;
    assert!(
        resumed.0 <= before.0 && before.0 - resumed.0 < 300,
        "the pause was not counted: {before:?} {resumed:?}"
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    let later = clocks(&c, &s, &g.id).await;
    assert!(
        later.0 + 300 <= resumed.0,
        "red's clock runs again: {resumed:?} {later:?}"
    );
    assert_eq!(later.1, resumed.1, "black's does not");

    // Round 1 played out: 1 beats 4 (or whoever is first), the other board drawn.
    plies(&c, &s, &g, 2, 4).await;
    finish(&c, &s, &g, Some(a)).await;
    let (_, a2, b2) = pairings[1].clone();
    let g2 = seats(&c, &s, &ev, a2, b2).await;
    finish(&c, &s, &g2, None).await;
    let org = wait_event(&c, &s, &ev, "round 1's results", |v| {
        v["open"].as_array().unwrap().is_empty()
    })
    .await;
    let public = event(&c, &s, &ev, None).await;
    // Pairings and results are public; standings are not, until published.
    let verdicts: Vec<&Value> = public["stages"][0]["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["verdict"])
        .collect();
    assert!(verdicts.iter().all(|v| !v.is_null()), "{verdicts:?}");
    assert!(public["standings"].is_null(), "unpublished: {}", public["standings"]);
    assert!(public["published"].is_null());
    let live = points(&org["standings"]);
    assert_eq!(live[&u64::from(a)], 1.0);
    assert_eq!(live[&u64::from(b)], 0.0);
    assert_eq!(live[&u64::from(a2)], 0.5);
    // A player's token sees what the public sees.
    let player = event(&c, &s, &ev, Some(&ev.tokens[&a])).await;
    assert!(player["standings"].is_null());
    let (st, _) = call(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/publish", ev.id),
        Some(&ev.tokens[&a]),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN, "a player publishes nothing");

    let (st, p) = organiser_post(&c, &s, &ev, "publish").await;
    assert_eq!(st, StatusCode::OK, "{p}");
    assert_eq!(p["published"], org["version"], "the standings of the version read");
    let public = event(&c, &s, &ev, None).await;
    assert_eq!(public["published"], org["version"]);
    assert_eq!(points(&public["standings"]), live);

    // Round 2: a result comes in; the public still sees the published standings.
    let pairings = start_round(&c, &s, &ev).await;
    let (_, a3, b3) = pairings[0].clone();
    let g3 = seats(&c, &s, &ev, a3, b3).await;
    finish(&c, &s, &g3, Some(a3)).await;
    let org = wait_event(&c, &s, &ev, "a round 2 result", |v| {
        v["open"].as_array().unwrap().len() == 1
    })
    .await;
    assert_ne!(points(&org["standings"]), live, "the organiser's are live");
    assert_eq!(points(&org["publishedStandings"]), live, "and as published");
    s.kill9();
    s = Server::start_with(db, &[]);
    let public = event(&c, &s, &ev, None).await;
    assert_eq!(
        points(&public["standings"]),
        live,
        "published standings survive a kill -9"
    );
    assert_eq!(public["published"], p["published"]);
}

/// An event without `publishStandings` shows the public its standings live, as before.
async fn live_standings(db: &str) {
    let s = Server::start_with(db, &[]);
    let c = Client::new();
    let body = json!({"name": "Live", "format": "round-robin", "kind": "xiangqi",
        "clock": {"limit": 0, "increment": 0}});
    let ev = create(&c, &s, body, 2).await;
    let pairings = start_round(&c, &s, &ev).await;
    let (_, a, b) = pairings[0].clone();
    let g = seats(&c, &s, &ev, a, b).await;
    finish(&c, &s, &g, Some(b)).await;
    wait_event(&c, &s, &ev, "the result", |v| v["finished"] == true).await;
    let public = event(&c, &s, &ev, None).await;
    assert_eq!(points(&public["standings"])[&u64::from(b)], 1.0);
}

/// A match's next game made while the round is paused (the organiser entered game 1's result)
/// is adjourned with the round, and resumed with it.
async fn paused_match(db: &str) {
    let s = Server::start_with(db, &[]);
    let c = Client::new();
    let body = json!({"name": "Final", "format": "knockout", "kind": "xiangqi", "games": 3,
        "clock": {"limit": 600, "increment": 0}});
    let ev = create(&c, &s, body, 2).await;
    let pairings = start_round(&c, &s, &ev).await;
    let (pid, a, b) = pairings[0].clone();
    let (st, v) = organiser_post(&c, &s, &ev, "round/pause").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let body = json!({"pairing": pid, "results": ["1-0"], "reason": "the scoresheet, signed"});
    ok(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/result", ev.id),
        Some(&ev.organiser),
        Some(body),
    )
    .await;
    let g = seats(&c, &s, &ev, a, b).await;
    let (st, v) = board(&c, &s, &g, "move/h2e2", &g.red).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "game 2 is adjourned with the round: {v}");
    let (st, v) = organiser_post(&c, &s, &ev, "round/resume").await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["games"].as_array().unwrap().len(), 1, "{v}");
    plies(&c, &s, &g, 0, 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_resume_and_publish_on_sqlite() {
    let (dir, db) = sqlite("pause");
    pause_and_publish(&db).await;
    live_standings(&db).await;
    paused_match(&db).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_resume_and_publish_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("event_ops_pause") else {
        return;
    };
    pause_and_publish(&db.url).await;
    paused_match(&db.url).await;
}
