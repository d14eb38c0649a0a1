//! No-shows, withdrawals, every format starting, and a Swiss.

use std::collections::HashMap;

use reqwest::{Client, StatusCode};
use serde_json::json;

use super::common::Server;
use super::support::*;

/// A player who never shows forfeits (the server aborts a game no one starts, here after 1 s:
/// the side that had not moved loses by forfeit); a player withdrawn in the middle of a round
/// forfeits their pairing and their board in play is resigned for them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_shows_and_withdrawals_on_sqlite() {
    let (dir, db) = sqlite("noshow");
    let s = Server::start_with(&db, &["--abandon-after", "1"]);
    let c = Client::new();
    let ev = create(
        &c,
        &s,
        json!({"name": "Rapid", "format": "round-robin", "kind": "xiangqi", "clock": {"limit": 600, "increment": 5}}),
        4,
    )
    .await;
    let r = ok(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/round/start", ev.id),
        Some(&ev.organiser),
        None,
    )
    .await;
    let pairings = pairings_of(&r);
    let (absent_pid, absent, present) = pairings[0].clone();
    let (quit_pid, stays, quits) = pairings[1].clone();
    // Board 2: red moves, then the organiser withdraws the second-named.
    let g = seats(&c, &s, &ev, stays, quits).await;
    plies(&c, &s, &g, 0, 1).await;
    let w = ok(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/withdraw", ev.id),
        Some(&ev.organiser),
        Some(json!({"entrant": quits})),
    )
    .await;
    assert_eq!(w["forfeited"], json!([quit_pid]));
    // Board 1: the first-named (red) never moves.
    let v = wait_event(&c, &s, &ev, "the no-show's forfeit", |v| {
        v["open"].as_array().unwrap().is_empty()
    })
    .await;
    let pairing = |pid: &str| {
        v["stages"][0]["rounds"][0]["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == pid)
            .unwrap()
            .clone()
    };
    let p = pairing(&absent_pid);
    assert_eq!(p["games"], json!([{"score": "Loss", "forfeit": true}]), "{p}");
    assert_eq!(p["liveGames"][0]["entered"], true);
    let p = pairing(&quit_pid);
    assert_eq!(p["games"], json!([{"score": "Win", "forfeit": true}]), "{p}");
    let points = standings_points(&v, 0);
    assert_eq!((points[&present], points[&absent]), (1.0, 0.0));
    assert_eq!((points[&stays], points[&quits]), (1.0, 0.0));
    assert_eq!(me(&c, &s, &ev, quits).await["entrant"]["withdrawn"], true);
    // The withdrawn player's board was resigned for them, and is entered (not needed).
    let (st, _) = board(&c, &s, &g, "move/h9g7", &g.black).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "the game is over");
    let v = wait_event(&c, &s, &ev, "the resigned board marked", |v| {
        v["stages"][0]["rounds"][0]["pairings"][1]["liveGames"][0]["entered"] == true
            && v["stages"][0]["rounds"][0]["pairings"][0]["liveGames"][0]["entered"] == true
    })
    .await;
    // Round 2 pairs the three still in (one has the bye).
    let r = ok(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/round/start", ev.id),
        Some(&ev.organiser),
        None,
    )
    .await;
    // Round 2: the withdrawn player's pairing is decided without them (no live game made);
    // the others play.
    let _ = v;
    for p in r["pairings"].as_array().unwrap() {
        let with_quitter = p["first"] == quits || p["second"] == quits;
        let games = p["games"].as_array().unwrap().len();
        assert_eq!(games, usize::from(!with_quitter && !p["second"].is_null()), "{r}");
    }
    // A player who aborts their game refuses to play it: they forfeit, whoever was to move.
    let ev = create(
        &c,
        &s,
        json!({"name": "Pair", "format": "round-robin", "kind": "xiangqi"}),
        2,
    )
    .await;
    ok(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/round/start", ev.id),
        Some(&ev.organiser),
        None,
    )
    .await;
    let g = seats(&c, &s, &ev, 1, 2).await;
    let (st, v) = board(&c, &s, &g, "abort", &g.black).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let v = wait_event(&c, &s, &ev, "the abort's forfeit", |v| {
        v["open"].as_array().unwrap().is_empty()
    })
    .await;
    let p = &v["stages"][0]["rounds"][0]["pairings"][0];
    assert_eq!(
        p["games"],
        json!([{"score": "Win", "forfeit": true}]),
        "black aborted: {p}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Every format the command line creates starts on the server: its first round's games are
/// live, each player finds theirs; bad creations are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_format_starts_on_sqlite() {
    let (dir, db) = sqlite("formats");
    let s = Server::start_with(&db, &[]);
    let c = Client::new();
    for (extra, boards) in [
        (json!({"format": "round-robin"}), 4),
        (json!({"format": "double-round-robin"}), 4),
        (json!({"format": "groups", "groups": 2}), 4),
        (json!({"format": "knockout", "draw": "cards", "games": 1}), 4),
        (json!({"format": "double-knockout", "games": 1}), 4),
        (
            json!({"format": "swiss", "rounds": 3, "final": "knockout", "advance": 4}),
            4,
        ),
        (
            json!({"format": "knockout", "thirdPlace": true, "kind": "chess", "ruleset": "fide", "clock": {"limit": 300, "increment": 2}}),
            4,
        ),
    ] {
        let mut body = json!({"name": "F", "kind": "xiangqi"});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let ev = create(&c, &s, body.clone(), 8).await;
        let r = ok(
            &c,
            &s,
            "POST",
            &format!("/api/event/{}/round/start", ev.id),
            Some(&ev.organiser),
            None,
        )
        .await;
        let pairings = pairings_of(&r);
        assert_eq!(pairings.len(), boards, "{body}: {r}");
        for (k, (_, a, b)) in pairings.iter().enumerate() {
            let g = seats(&c, &s, &ev, *a, *b).await;
            assert_eq!(g.number, 1);
            if k == 0 && body["kind"] == "xiangqi" {
                // The organiser is each game's arbiter: their token opens the game's console
                // (a move entered for red), a player's does not.
                let console = format!("/api/arbiter/game/{}/red/move/h2e2", g.id);
                let (st, v) = call(&c, &s, "POST", &console, Some(&g.red), None).await;
                assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
                ok(&c, &s, "POST", &console, Some(&ev.organiser), None).await;
                plies(&c, &s, &g, 1, 2).await;
            }
            let kind = body["kind"].as_str().unwrap();
            let m = me(&c, &s, &ev, *a).await;
            assert_eq!(
                m["game"]["side"],
                if kind == "chess" { "white" } else { "red" },
                "{body}: {m}"
            );
        }
    }
    for bad in [
        json!({"name": "B", "format": "groups", "kind": "xiangqi"}),
        json!({"name": "B", "format": "swiss", "kind": "xiangqi"}),
        json!({"name": "B", "format": "round-robin", "kind": "go"}),
        json!({"name": "B", "format": "round-robin", "kind": "xiangqi", "ruleset": "nosuch"}),
        json!({"name": "B", "format": "round-robin", "kind": "xiangqi", "rounds": 3}),
        json!({"name": "", "format": "round-robin", "kind": "xiangqi"}),
        json!({"name": "B", "format": "round-robin", "kind": "xiangqi", "unknown": 1}),
    ] {
        let (st, v) = call(&c, &s, "POST", "/api/event", None, Some(bad.clone())).await;
        assert!(st.is_client_error(), "{bad}: {st} {v}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A Swiss of 6 players over 3 rounds, every game played through the players' tokens (the
/// lower number wins), the standings the model's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swiss_on_sqlite() {
    let (dir, db) = sqlite("swiss");
    let s = Server::start_with(&db, &[]);
    let c = Client::new();
    let ev = create(
        &c,
        &s,
        json!({"name": "Swiss", "format": "swiss", "rounds": 3, "kind": "xiangqi"}),
        6,
    )
    .await;
    let mut expected: HashMap<u32, f64> = (1..=6).map(|i| (i, 0.0)).collect();
    for round in 1..=3u64 {
        let r = ok(
            &c,
            &s,
            "POST",
            &format!("/api/event/{}/round/start", ev.id),
            Some(&ev.organiser),
            None,
        )
        .await;
        assert_eq!(r["round"], round);
        for (_, a, b) in pairings_of(&r) {
            let g = seats(&c, &s, &ev, a, b).await;
            plies(&c, &s, &g, 0, 4).await;
            finish(&c, &s, &g, Some(a.min(b))).await;
            *expected.get_mut(&a.min(b)).unwrap() += 1.0;
        }
        let v = wait_event(&c, &s, &ev, "the round's results", |v| {
            v["open"].as_array().unwrap().is_empty()
        })
        .await;
        assert_eq!(
            standings_points(&v, 0),
            expected,
            "after round {round}: {}",
            v["standings"]
        );
    }
    let v = event(&c, &s, &ev).await;
    assert_eq!(v["finished"], true);
    assert_eq!(v["standings"][0]["lines"][0]["id"], 1);
    let _ = std::fs::remove_dir_all(dir);
}
