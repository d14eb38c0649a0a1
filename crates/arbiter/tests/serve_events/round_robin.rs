//! An 8-player round robin played through the players' tokens, with a `kill -9` in round 4.

use std::collections::HashMap;

use reqwest::{Client, StatusCode};
use serde_json::json;

use super::common::Server;
use super::support::*;

pub async fn round_robin(db: &str) {
    let mut s = Server::start_with(db, &[]);
    let c = Client::new();
    let base = json!({"format": "round-robin", "kind": "xiangqi", "clock": {"limit": 0, "increment": 0}});
    let mut body = base.clone();
    body["name"] = "Club round robin".into();
    let ev = create(&c, &s, body, 8).await;
    let mut other = base.clone();
    other["name"] = "Another".into();
    other["openRegistration"] = true.into();
    let other = create(&c, &s, other, 0).await;
    // Open registration: anyone with the id joins and gets a token.
    let mut other = other;
    for name in ["Ann", "Bo"] {
        let r = ok(
            &c,
            &s,
            "POST",
            &format!("/api/event/{}/join", other.id),
            None,
            Some(json!({"name": name})),
        )
        .await;
        other.tokens.insert(
            r["entrant"].as_u64().unwrap() as u32,
            r["token"].as_str().unwrap().into(),
        );
    }
    access_control(&c, &s, &ev, &other).await;

    let mut expected: HashMap<u32, f64> = (1..=8).map(|i| (i, 0.0)).collect();
    for round in 1..=7u64 {
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
        let pairings = pairings_of(&r);
        assert_eq!(pairings.len(), 4);
        // The round is not over: no next round yet.
        let (st, _) = call(
            &c,
            &s,
            "POST",
            &format!("/api/event/{}/round/start", ev.id),
            Some(&ev.organiser),
            None,
        )
        .await;
        assert_eq!(st, StatusCode::BAD_REQUEST);
        for (k, (pid, a, b)) in pairings.iter().enumerate() {
            let g = seats(&c, &s, &ev, *a, *b).await;
            assert_eq!(g.red_player, *a, "the first-named has red in a single game");
            let winner = rr_winner(*a, *b);
            match winner {
                Some(w) => {
                    *expected.get_mut(&w).unwrap() += 1.0;
                }
                None => {
                    *expected.get_mut(a).unwrap() += 0.5;
                    *expected.get_mut(b).unwrap() += 0.5;
                }
            }
            if round == 4 && k == 1 {
                // A player's seat token is for their own game only.
                let outsider = pairings[0].1;
                let (st, _) = board(&c, &s, &g, "move/h2e2", &ev.tokens[&outsider]).await;
                assert_eq!(st, StatusCode::FORBIDDEN, "another board's player");
                let (st, _) = board(&c, &s, &g, "move/h2e2", &ev.organiser).await;
                assert_eq!(st, StatusCode::FORBIDDEN, "the organiser sits at no board");
                // Finished, then kill -9 at once: the result may not be in yet.
                plies(&c, &s, &g, 0, 4).await;
                finish(&c, &s, &g, winner).await;
                // The next board: two plies made, then the server dies.
                let (_, a2, b2) = &pairings[2];
                let g2 = seats(&c, &s, &ev, *a2, *b2).await;
                plies(&c, &s, &g2, 0, 2).await;
                s.kill9();
                s = Server::start_with(db, &[]);
                // Restarted: the finished game's result is in, before any request.
                let v = event(&c, &s, &ev).await;
                let open: Vec<&str> = v["open"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_str().unwrap())
                    .collect();
                assert!(!open.contains(&pid.as_str()), "{pid} entered at startup: {open:?}");
                // The interrupted game goes on where it was, with the same seats.
                let again = seats(&c, &s, &ev, *a2, *b2).await;
                assert_eq!(again.id, g2.id);
                assert_eq!(moves(&c, &s, &again).await, "h2e2 h9g7", "the plies before the crash");
                continue;
            }
            if round == 4 && k == 2 {
                plies(&c, &s, &g, 2, 4).await;
            } else {
                plies(&c, &s, &g, 0, 4).await;
            }
            finish(&c, &s, &g, winner).await;
        }
        let v = wait_event(&c, &s, &ev, "the round's results", |v| {
            v["open"].as_array().unwrap().is_empty()
        })
        .await;
        assert_eq!(standings_points(&v, 0), expected, "after round {round}");
    }
    let v = event(&c, &s, &ev).await;
    assert_eq!(v["finished"], true);
    let lines = v["standings"][0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 8);
    // Every game was a live game, its result entered.
    let live = v["stages"][0]["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["pairings"].as_array().unwrap())
        .flat_map(|p| p["liveGames"].as_array().unwrap())
        .filter(|g| g["entered"] == true)
        .count();
    assert_eq!(live, 28);
    // The organiser corrects a result, with a reason; it goes into the change log.
    let (a, b) = (1, 2);
    let pid = v["stages"][0]["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["pairings"].as_array().unwrap())
        .find(|p| p["first"] == a && p["second"] == b || p["first"] == b && p["second"] == a)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (st, _) = call(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/result", ev.id),
        Some(&ev.organiser),
        Some(json!({"pairing": pid, "results": ["1/2"], "replace": true, "reason": ""})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "a correction needs a reason");
    let r = ok(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/result", ev.id),
        Some(&ev.organiser),
        Some(json!({"pairing": pid, "results": ["1/2"], "replace": true, "reason": "scoresheets disagree; both signed a draw"})),
    )
    .await;
    let version = r["version"].as_u64().unwrap();
    let changes = stream_changes(&c, &s, &ev, version).await;
    let versions: Vec<u64> = changes.iter().map(|l| l["version"].as_u64().unwrap()).collect();
    assert_eq!(versions, (1..=version).collect::<Vec<_>>());
    let actions: Vec<&str> = changes.iter().map(|l| l["action"].as_str().unwrap()).collect();
    assert_eq!(actions.iter().filter(|a| a.starts_with("register")).count(), 8);
    assert_eq!(actions.iter().filter(|a| a.starts_with("pair round")).count(), 7);
    assert_eq!(actions.iter().filter(|a| a.starts_with("result")).count(), 29);
    assert!(actions.last().unwrap().contains("scoresheets disagree"), "{actions:?}");
}
