//! Over the board: an event's games are refereed from the arbiter's console, the organiser's
//! token being every game's arbiter token. On one board of a round robin under seed 000's
//! friendly rules (`casual`: two technical fouls lose; a false claim is a technical foul), the
//! arbiter enters the moves made at the table, a touch (the referee's ruling: the obligation
//! to move the piece), a false claim and two technical fouls; the referee's ruling at the limit ends the game, and
//! its result is in the event's standings. A player's token and another event's organiser's
//! are refused at the console.

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::common::Server;
use crate::http::*;

async fn console(
    c: &Client,
    s: &Server,
    game: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    call(
        c,
        s,
        "POST",
        &format!("/api/arbiter/game/{game}/{path}"),
        Some(token),
        body,
    )
    .await
}

async fn over_the_board(db: &str) {
    let s = Server::start_with(db, &[]);
    let c = Client::new();
    let body = json!({"name": "Club night", "format": "round-robin", "kind": "xiangqi", "ruleset": "casual",
        "clock": {"limit": 600, "increment": 0}});
    let ev = create(&c, &s, body.clone(), 4).await;
    let other = create(
        &c,
        &s,
        json!({"name": "Elsewhere", "format": "round-robin", "kind": "xiangqi"}),
        0,
    )
    .await;
    let pairings = start_round(&c, &s, &ev).await;
    let (pid, a, b) = pairings[0].clone();
    let g = seats(&c, &s, &ev, a, b).await;
    let black_player = if g.red_player == a { b } else { a };
    let org = ev.organiser.as_str();

    // The console is the organiser's: not a player's, not another event's organiser's.
    for t in [&ev.tokens[&a], &other.organiser] {
        let (st, v) = console(&c, &s, &g.id, "red/move/h2e2", t, None).await;
        assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    }
    // The round started the clocks; the arbiter enters red's move as made at the table.
    let (st, v) = console(&c, &s, &g.id, "red/move/h2e2", org, None).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    // Black touches its horse on h9: the referee's ruling binds black to move it (5.1).
    let touch = json!({"square": "h9", "piece": "own"});
    let (st, v) = console(&c, &s, &g.id, "black/touch", org, Some(touch)).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let obligation = history(&c, &s, &g.id).await.pop().unwrap()["event"].to_string();
    assert!(
        obligation.contains("Obligation") && obligation.contains("\"5.1\"") && obligation.contains("h9"),
        "{obligation}"
    );
    let (st, v) = console(&c, &s, &g.id, "black/move/h9g7", org, None).await;
    assert_eq!(st, StatusCode::OK, "the touched horse moves: {v}");
    // Red claims a draw at the table, falsely: a technical foul under `casual`.
    let (st, v) = console(&c, &s, &g.id, "red/claim-draw", org, None).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].as_str().unwrap().contains("no draw can be claimed"), "{v}");
    // Black's first technical foul (§8): the game goes on.
    let (st, v) = console(&c, &s, &g.id, "black/foul", org, Some(json!({"kind": "8.1"}))).await;
    assert_eq!((st, &v["status"]), (StatusCode::OK, &json!("started")), "{v}");
    // Black's second: the limit, black loses.
    let (st, v) = console(&c, &s, &g.id, "black/foul", org, Some(json!({"kind": "8.2"}))).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["reason"], &v["winner"]),
        (&json!("technical_fouls"), &json!("red")),
        "{v}"
    );

    // The ruling is the pairing's result, and in the standings.
    let e = wait_event(&c, &s, &ev, "the ruling's result", |v| {
        !v["open"].as_array().unwrap().iter().any(|p| p == pid.as_str())
    })
    .await;
    let p = e["stages"][0]["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == pid.as_str())
        .unwrap()
        .clone();
    let red_won = if g.red_player == p["first"] { "first" } else { "second" };
    assert_eq!(p["verdict"], json!({"won": red_won}), "{p}");
    let line = |who: u32| {
        e["standings"][0]["lines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["id"] == who)
            .unwrap()["points"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(line(g.red_player), 1.0, "{}", e["standings"]);
    assert_eq!(line(black_player), 0.0, "{}", e["standings"]);
    // The record tells why.
    let record = c
        .get(format!("{}/api/game/{}/pgn", s.base, g.id))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        record.contains("[Result \"1-0\"]") && record.contains("2 of 2, the limit"),
        "{record}"
    );
    let fouls: Vec<String> = history(&c, &s, &g.id)
        .await
        .iter()
        .map(|l| l["event"].to_string())
        .filter(|e| e.contains("\"Foul\""))
        .collect();
    assert_eq!(fouls.len(), 3, "red's false claim, black's two: {fouls:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arbiter_rules_at_an_event_board_on_sqlite() {
    let (dir, db) = sqlite("console");
    over_the_board(&db).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arbiter_rules_at_an_event_board_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("event_ops_console") else {
        return;
    };
    over_the_board(&db.url).await;
}
