//! A 16-player knockout of best-of-3 matches, tied ones decided in a play-off game, with a `kill -9`.

use reqwest::{Client, StatusCode};
use serde_json::json;

use super::common::Server;
use super::support::*;

/// The knockout's games, chosen by the test by the match's lower number: a match tied 1½-1½
/// and won in its play-off game, one won 2-1 after losing game 1, or one won 2-0; the lower
/// number always goes through.
fn ko_winner(lo: u32, hi: u32, game: u64) -> Option<u32> {
    match (lo % 3, game) {
        (0, 1..=3) => None,
        (1, 1) => Some(hi),
        _ => Some(lo),
    }
}

pub async fn knockout(db: &str) {
    let mut s = Server::start_with(db, &[]);
    let c = Client::new();
    let ev = create(
        &c,
        &s,
        json!({"name": "Cup", "format": "knockout", "games": 3, "playoff": 1, "kind": "xiangqi",
               "clock": {"limit": 0, "increment": 0}}),
        16,
    )
    .await;
    let mut tied_seen = 0;
    let mut killed = false;
    for round in 1..=4u64 {
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
        assert_eq!(pairings.len(), 8 >> (round - 1));
        for (pid, a, b) in &pairings {
            let (lo, hi) = (*a.min(b), *a.max(b));
            let mut played = 0;
            loop {
                let m = me(&c, &s, &ev, *a).await;
                if m["pairing"]["verdict"] != "pending" {
                    break;
                }
                let g = seats(&c, &s, &ev, *a, *b).await;
                assert_eq!(g.number, played + 1, "{pid}: {m}");
                // Colours alternate through the match: the first-named has red in odd games.
                assert_eq!(g.red_player == *a, g.number % 2 == 1, "{pid} game {}", g.number);
                plies(&c, &s, &g, 0, 4).await;
                finish(&c, &s, &g, ko_winner(lo, hi, g.number)).await;
                played += 1;
                if !killed && round == 1 && played == 1 {
                    // Game 1 over, then kill -9 at once: at startup its result is entered and
                    // game 2 of the match made.
                    killed = true;
                    s.kill9();
                    s = Server::start_with(db, &[]);
                    let m = me(&c, &s, &ev, *a).await;
                    assert_eq!(m["game"]["number"], 2, "game 2 made at startup: {m}");
                    continue;
                }
                let next = played + 1;
                let v = wait_event(&c, &s, &ev, "the game's result", |v| {
                    let p = v["stages"][0]["rounds"][round as usize - 1]["pairings"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|p| p["id"] == pid.as_str())
                        .unwrap()
                        .clone();
                    p["verdict"] != "pending" || p["liveGames"].as_array().unwrap().len() as u64 == next
                })
                .await;
                let _ = v;
            }
            let v = event(&c, &s, &ev).await;
            let p = v["stages"][0]["rounds"][round as usize - 1]["pairings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["id"] == pid.as_str())
                .unwrap()
                .clone();
            let winner_side = if lo == *a { "first" } else { "second" };
            assert_eq!(p["verdict"], json!({"won": winner_side}), "{pid}: {p}");
            let expected_games = match lo % 3 {
                0 => 4,
                1 => 3,
                _ => 2,
            };
            assert_eq!(p["games"].as_array().unwrap().len(), expected_games, "{pid}: {p}");
            if lo % 3 == 0 {
                tied_seen += 1;
            }
        }
    }
    assert!(tied_seen >= 2, "tied matches went to play-offs: {tied_seen}");
    let v = event(&c, &s, &ev).await;
    assert_eq!(v["finished"], true, "{v}");
    let lines = v["standings"][0]["lines"].as_array().unwrap();
    assert_eq!(lines[0]["id"], 1, "the top seed won every match: {}", v["standings"]);
    assert_eq!(lines[1]["id"], 2);
    let (st, _) = call(
        &c,
        &s,
        "POST",
        &format!("/api/event/{}/round/start", ev.id),
        Some(&ev.organiser),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "the event is finished");
}
