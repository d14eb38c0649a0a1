//! A team's lineup on the server: 4 teams of 2 boards and a reserve. The organiser brings
//! team A's reserve in on board 2 and team B's captain (its team's link) names its own; each
//! bad lineup is refused with its code and changes nothing; once a board has a move the
//! lineups are fixed. The reserve then plays board 2, and the pairing's results go in. A
//! result for a decided pairing is refused in words of the API, not the command line's.

use std::collections::HashMap;

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::common::Server;
use crate::http::*;

/// The lineups of pairing `id` in round 1, and the event's version.
async fn lineups(c: &Client, s: &Server, ev: &Ev, id: &str) -> (Value, u64) {
    let e = event(c, s, ev, None).await;
    let p = e["stages"][0]["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap()
        .clone();
    (p["lineups"].clone(), e["version"].as_u64().unwrap())
}

/// Who a team's captain sees on each board of its pairing.
async fn board_players(c: &Client, s: &Server, ev: &Ev, team: u32) -> Vec<String> {
    let me = ok(
        c,
        s,
        "GET",
        &format!("/api/event/{}/me", ev.id),
        Some(&ev.tokens[&team]),
        None,
    )
    .await;
    me["pairing"]["boards"]
        .as_array()
        .unwrap_or_else(|| panic!("{me}"))
        .iter()
        .map(|b| b["player"].as_str().unwrap().to_string())
        .collect()
}

async fn lineups_on_the_server(db: &str) {
    let s = Server::start_with(db, &[]);
    let c = Client::new();
    let body = json!({"name": "League", "format": "round-robin", "kind": "xiangqi",
        "clock": {"limit": 0, "increment": 0}, "boards": 2});
    let v = ok(&c, &s, "POST", "/api/event", None, Some(body)).await;
    let mut ev = Ev {
        id: v["id"].as_str().unwrap().into(),
        organiser: v["organiserToken"].as_str().unwrap().into(),
        tokens: HashMap::new(),
    };
    for t in 1..=4u32 {
        let members: Vec<String> = (1..=3).map(|m| format!("T{t}P{m}")).collect();
        let r = ok(
            &c,
            &s,
            "POST",
            &format!("/api/event/{}/register", ev.id),
            Some(&ev.organiser),
            Some(json!({"name": format!("Team {t}"), "members": members})),
        )
        .await;
        ev.tokens.insert(t, r["token"].as_str().unwrap().into());
    }
    let pairings = start_round(&c, &s, &ev).await;
    let (p, a, b) = pairings[0].clone();
    let (q, _, q_second) = pairings[1].clone();
    let path = format!("/api/event/{}/lineup", ev.id);
    let name = |t: u32, m: u32| format!("T{t}P{m}");
    let (before, version) = lineups(&c, &s, &ev, &p).await;
    assert!(before.is_null(), "{before}");

    // Each bad lineup: its code and values, and nothing changed.
    let outsider = (1..=4).find(|t| ![a, b].contains(t)).unwrap();
    let refusals = [
        (
            Some(a),
            vec![name(a, 1), name(b, 2)],
            StatusCode::BAD_REQUEST,
            "not_on_roster",
            json!({"name": name(b, 2), "team": format!("Team {a}")}),
        ),
        (
            Some(a),
            vec![name(a, 3), name(a, 3)],
            StatusCode::BAD_REQUEST,
            "named_twice",
            json!({"name": name(a, 3)}),
        ),
        (
            Some(a),
            vec![name(a, 1)],
            StatusCode::BAD_REQUEST,
            "lineup_size",
            json!({"boards": 2, "given": 1}),
        ),
        (
            Some(a),
            vec![name(a, 3), name(a, 1)],
            StatusCode::BAD_REQUEST,
            "roster_order",
            json!({"name": name(a, 1)}),
        ),
        (
            Some(outsider),
            vec![name(outsider, 1), name(outsider, 2)],
            StatusCode::BAD_REQUEST,
            "team_not_in_pairing",
            json!({"team": format!("Team {outsider}"), "pairing": p}),
        ),
    ];
    for (team, players, status, why, args) in refusals {
        let body = json!({"pairing": p, "team": team, "players": players});
        let (st, v) = call(&c, &s, "POST", &path, Some(&ev.organiser), Some(body)).await;
        assert_eq!((st, v["why"].as_str()), (status, Some(why)), "{v}");
        assert_eq!(v["args"], args, "{v}");
    }
    // A captain's link sets its own team's lineup only.
    let body = json!({"pairing": p, "team": a, "players": [name(a, 1), name(a, 3)]});
    let (st, v) = call(&c, &s, "POST", &path, Some(&ev.tokens[&b]), Some(body)).await;
    assert_eq!(
        (st, v["why"].as_str()),
        (StatusCode::FORBIDDEN, Some("lineup_not_yours")),
        "{v}"
    );
    assert_eq!(
        lineups(&c, &s, &ev, &p).await,
        (before, version),
        "refusals change nothing"
    );

    // The organiser brings A's reserve in on board 2; B's captain names B's own.
    let body = json!({"pairing": p, "team": a, "players": [name(a, 1), name(a, 3)]});
    ok(&c, &s, "POST", &path, Some(&ev.organiser), Some(body)).await;
    let body = json!({"pairing": p, "players": [name(b, 2), name(b, 3)]});
    let set = ok(&c, &s, "POST", &path, Some(&ev.tokens[&b]), Some(body)).await;
    let want = json!([[name(a, 1), name(a, 3)], [name(b, 2), name(b, 3)]]);
    assert_eq!(set["lineups"], want);
    assert_eq!(board_players(&c, &s, &ev, a).await, [name(a, 1), name(a, 3)]);
    assert_eq!(board_players(&c, &s, &ev, b).await, [name(b, 2), name(b, 3)]);

    // A team that has withdrawn names no one.
    ok(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/withdraw", ev.id),
        Some(&ev.organiser),
        Some(json!({"entrant": q_second})),
    )
    .await;
    let (_, version) = lineups(&c, &s, &ev, &q).await;
    let body = json!({"pairing": q, "players": [name(q_second, 1), name(q_second, 2)]});
    let (st, v) = call(&c, &s, "POST", &path, Some(&ev.tokens[&q_second]), Some(body)).await;
    assert_eq!(
        (st, v["why"].as_str()),
        (StatusCode::BAD_REQUEST, Some("team_withdrawn")),
        "{v}"
    );
    assert_eq!(lineups(&c, &s, &ev, &q).await.1, version, "nothing changed");

    // Board 1 (A red) has a move: the lineups are fixed.
    let me = ok(
        &c,
        &s,
        "GET",
        &format!("/api/event/{}/me", ev.id),
        Some(&ev.tokens[&a]),
        None,
    )
    .await;
    let boards: Vec<String> = me["pairing"]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_string())
        .collect();
    let seat = |n: usize, red: u32, black: u32| Seat {
        id: boards[n - 1].clone(),
        number: n as u64,
        red: ev.tokens[&red].clone(),
        black: ev.tokens[&black].clone(),
        red_player: red,
    };
    let (one, two) = (seat(1, a, b), seat(2, b, a));
    plies(&c, &s, &one, 0, 1).await;
    let (_, version) = lineups(&c, &s, &ev, &p).await;
    let body = json!({"pairing": p, "team": a, "players": [name(a, 2), name(a, 3)]});
    let (st, v) = call(&c, &s, "POST", &path, Some(&ev.organiser), Some(body)).await;
    assert_eq!(
        (st, v["why"].as_str()),
        (StatusCode::CONFLICT, Some("lineup_started")),
        "{v}"
    );
    assert_eq!(v["args"], json!({"pairing": p, "board": 1}));
    assert_eq!(lineups(&c, &s, &ev, &p).await, (want.clone(), version));

    // A's reserve wins board 2 (black); board 1 is drawn: A takes the match.
    plies(&c, &s, &two, 0, 2).await;
    finish(&c, &s, &two, Some(a)).await;
    plies(&c, &s, &one, 1, 2).await;
    finish(&c, &s, &one, None).await;
    let e = wait_event(&c, &s, &ev, "the pairing's match sheet", |v| {
        !v["open"].as_array().unwrap().iter().any(|o| o == p.as_str())
    })
    .await;
    let sheet = e["stages"][0]["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == p.as_str())
        .unwrap()
        .clone();
    let scores: Vec<&str> = sheet["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["score"].as_str().unwrap())
        .collect();
    assert_eq!(scores, ["Draw", "Win"], "{sheet}");
    assert_eq!(sheet["lineups"], want, "the reserve played board 2");

    // A result for a decided pairing: coded, in the API's words (no command-line flag).
    let result = format!("/api/event/{}/result", ev.id);
    let body = json!({"pairing": p, "results": ["0-1", "0-1"], "reason": "sheet"});
    let (st, v) = call(&c, &s, "POST", &result, Some(&ev.organiser), Some(body)).await;
    assert_eq!(
        (st, v["why"].as_str()),
        (StatusCode::BAD_REQUEST, Some("already_decided")),
        "{v}"
    );
    assert_eq!(v["args"]["pairing"], p.as_str());
    assert!(!v["error"].as_str().unwrap().contains("--"), "{v}");
    let body = json!({"pairing": p, "results": ["2-0"], "replace": true, "reason": "sheet"});
    let (st, v) = call(&c, &s, "POST", &result, Some(&ev.organiser), Some(body)).await;
    assert_eq!(
        (st, &v["why"], &v["args"]),
        (StatusCode::BAD_REQUEST, &json!("not_a_result"), &json!({"text": "2-0"})),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lineups_on_sqlite() {
    let (dir, db) = sqlite("lineups");
    lineups_on_the_server(&db).await;
    let _ = std::fs::remove_dir_all(dir);
}
