//! A team event on the server: 4 teams of 2 players (and a reserve) in a round robin on 2
//! boards. Each round, every team pairing's boards are live games at once, the first-named team
//! red on board 1 and black on board 2, each team's token seating its players (the roster's
//! first two); the boards end in any order — here board 2 first — and go into the match sheet
//! in board order, from the first-named team's side; the standings count match points.

use std::collections::HashMap;

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::common::Server;
use crate::http::*;

/// The test's boards, by the pair of teams: board 1's winner (`None`: drawn), board 2's.
fn boards(lo: u32, hi: u32) -> [Option<u32>; 2] {
    let one = if (lo + hi).is_multiple_of(3) { None } else { Some(lo) };
    let two = if (lo + hi).is_multiple_of(2) { None } else { Some(hi) };
    [one, two]
}

async fn team_round_robin(db: &str) {
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
    let path = format!("/api/event/{}/register", ev.id);
    let (st, v) = call(
        &c,
        &s,
        "POST",
        &path,
        Some(&ev.organiser),
        Some(json!({"name": "Short", "members": ["X"]})),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "one player for two boards: {v}");
    for t in 1..=4u32 {
        let members: Vec<String> = (1..=3).map(|m| format!("T{t}P{m}")).collect();
        let r = ok(
            &c,
            &s,
            "POST",
            &path,
            Some(&ev.organiser),
            Some(json!({"name": format!("Team {t}"), "members": members})),
        )
        .await;
        assert_eq!(r["entrant"], t);
        ev.tokens.insert(t, r["token"].as_str().unwrap().into());
    }

    // Match points (2 a win, 1 a draw), as the test's boards make them.
    let mut expected: HashMap<u32, f64> = (1..=4).map(|t| (t, 0.0)).collect();
    for round in 1..=3 {
        let r = ok(
            &c,
            &s,
            "POST",
            &format!("/api/event/{}/round/start", ev.id),
            Some(&ev.organiser),
            None,
        )
        .await;
        let pairings = r["pairings"].as_array().unwrap().clone();
        assert_eq!(pairings.len(), 2, "round {round}: {r}");
        for p in &pairings {
            let (first, second) = (
                p["first"].as_u64().unwrap() as u32,
                p["second"].as_u64().unwrap() as u32,
            );
            let games: Vec<&str> = p["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g.as_str().unwrap())
                .collect();
            assert_eq!(games.len(), 2, "a live game a board: {p}");
            let result = boards(first.min(second), first.max(second));
            // The second-named team's captain sees both boards: black on 1, red on 2, and who
            // sits there (the roster's first two).
            let me = ok(
                &c,
                &s,
                "GET",
                &format!("/api/event/{}/me", ev.id),
                Some(&ev.tokens[&second]),
                None,
            )
            .await;
            let seats: Vec<(&str, &str, &str)> = me["pairing"]["boards"]
                .as_array()
                .unwrap_or_else(|| panic!("{me}"))
                .iter()
                .map(|b| {
                    (
                        b["id"].as_str().unwrap(),
                        b["side"].as_str().unwrap(),
                        b["player"].as_str().unwrap(),
                    )
                })
                .collect();
            let (p1, p2) = (format!("T{second}P1"), format!("T{second}P2"));
            assert_eq!(
                seats,
                [(games[0], "black", p1.as_str()), (games[1], "red", p2.as_str())]
            );
            let mut first_points = 0.0;
            // Board 2 ends first; board 1 after it.
            for n in [2usize, 1] {
                let (red, black) = if n == 1 { (first, second) } else { (second, first) };
                let g = Seat {
                    id: games[n - 1].into(),
                    number: n as u64,
                    red: ev.tokens[&red].clone(),
                    black: ev.tokens[&black].clone(),
                    red_player: red,
                };
                // Each team's token sits on its own side of the board, not the other.
                let (st, _) = board(&c, &s, &g, "move/h2e2", &g.black).await;
                assert_eq!(st, StatusCode::BAD_REQUEST, "black does not move first (board {n})");
                plies(&c, &s, &g, 0, 4).await;
                finish(&c, &s, &g, result[n - 1]).await;
                first_points += match result[n - 1] {
                    Some(w) if w == first => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
                if n == 2 {
                    // Board 1 is still in play: board 2's result waits for it (given the time
                    // it would take to go in).
                    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
                    let e = event(&c, &s, &ev, None).await;
                    let sheet = pairing(&e, round, p["id"].as_str().unwrap());
                    assert_eq!(sheet["games"].as_array().map_or(0, Vec::len), 0, "{sheet}");
                }
            }
            let (mf, ms) = match first_points {
                x if x > 1.0 => (2.0, 0.0),
                x if x < 1.0 => (0.0, 2.0),
                _ => (1.0, 1.0),
            };
            *expected.get_mut(&first).unwrap() += mf;
            *expected.get_mut(&second).unwrap() += ms;
        }
        let e = wait_event(&c, &s, &ev, "the round's match sheets", |v| {
            v["open"].as_array().unwrap().is_empty()
        })
        .await;
        // The match sheets, board by board from the first-named team's side.
        for p in &pairings {
            let (first, second) = (
                p["first"].as_u64().unwrap() as u32,
                p["second"].as_u64().unwrap() as u32,
            );
            let result = boards(first.min(second), first.max(second));
            let sheet = pairing(&e, round, p["id"].as_str().unwrap());
            let scores: Vec<&str> = sheet["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["score"].as_str().unwrap())
                .collect();
            let want: Vec<&str> = result
                .iter()
                .map(|w| match w {
                    Some(w) if *w == first => "Win",
                    Some(_) => "Loss",
                    None => "Draw",
                })
                .collect();
            assert_eq!(scores, want, "{sheet}");
        }
    }
    let e = event(&c, &s, &ev, None).await;
    assert_eq!(e["finished"], true);
    let lines = e["standings"][0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4);
    for l in lines {
        let t = l["id"].as_u64().unwrap() as u32;
        assert_eq!(
            l["points"].as_f64().unwrap(),
            expected[&t],
            "match points of team {t}: {l}"
        );
    }
    // Ranked by match points.
    let points: Vec<f64> = lines.iter().map(|l| l["points"].as_f64().unwrap()).collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
}

/// Pairing `id` of round `round` in the event's first stage.
fn pairing(e: &Value, round: u64, id: &str) -> Value {
    e["stages"][0]["rounds"][round as usize - 1]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap()
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_round_robin_on_sqlite() {
    let (dir, db) = sqlite("teams");
    team_round_robin(&db).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_round_robin_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("event_ops_teams") else {
        return;
    };
    team_round_robin(&db.url).await;
}
