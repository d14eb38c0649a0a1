//! A team knockout on the server: 4 teams on 2 boards, a seeded bracket. In the semi-finals
//! one team pairing is won on the boards and the other is tied 1-1: seed 000 §6 sends the
//! tie to a play-off match on the same boards, which the server makes as live games (the
//! colours turned round: the second-named team red on board 1), each team's token seating
//! the same players; its result decides who goes to the final, and the final is played.

use std::collections::HashMap;

use reqwest::Client;
use serde_json::{json, Value};

use crate::common::Server;
use crate::http::*;

/// The live games of pairing `id` of round `round`, by game number (a play-off match's
/// boards follow the match's).
fn live(e: &Value, round: usize, id: &str) -> HashMap<u64, String> {
    let p = e["stages"][0]["rounds"][round - 1]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("no pairing {id}: {e}"));
    p["liveGames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["game"].as_u64().unwrap(), g["id"].as_str().unwrap().to_string()))
        .collect()
}

/// Plays game `number` (live game `id`) of a team pairing: `red` and `black` are the teams
/// seated red and black there; `winner` a team, or `None` for a draw.
async fn play(
    c: &Client,
    s: &Server,
    ev: &Ev,
    (id, number): (&str, u64),
    (red, black): (u32, u32),
    winner: Option<u32>,
) {
    let g = Seat {
        id: id.into(),
        number,
        red: ev.tokens[&red].clone(),
        black: ev.tokens[&black].clone(),
        red_player: red,
    };
    let (st, _) = board(c, s, &g, "move/h2e2", &g.black).await;
    assert_eq!(
        st,
        reqwest::StatusCode::BAD_REQUEST,
        "black does not move first (game {number})"
    );
    plies(c, s, &g, 0, 4).await;
    finish(c, s, &g, winner).await;
}

async fn team_knockout(db: &str) {
    let s = Server::start_with(db, &[]);
    let c = Client::new();
    // Board points by colour are for teams, and read as W/RD/BD/L.
    for (bad, why) in [
        (
            json!({"name": "X", "format": "knockout", "kind": "xiangqi", "boardPoints": "3/1/2/0"}),
            "no boards",
        ),
        (
            json!({"name": "X", "format": "knockout", "kind": "xiangqi", "boards": 2, "boardPoints": "3/1/2"}),
            "three numbers",
        ),
    ] {
        let (st, v) = call(&c, &s, "POST", "/api/event", None, Some(bad)).await;
        assert_eq!(st, reqwest::StatusCode::BAD_REQUEST, "{why}: {v}");
    }
    let body = json!({"name": "X", "format": "round-robin", "kind": "xiangqi", "boards": 2, "boardPoints": "3/1/2/0"});
    ok(&c, &s, "POST", "/api/event", None, Some(body)).await;
    let body = json!({"name": "Cup", "format": "knockout", "kind": "xiangqi",
        "clock": {"limit": 0, "increment": 0}, "boards": 2, "playoff": 1, "seeding": "registration"});
    let v = ok(&c, &s, "POST", "/api/event", None, Some(body)).await;
    let mut ev = Ev {
        id: v["id"].as_str().unwrap().into(),
        organiser: v["organiserToken"].as_str().unwrap().into(),
        tokens: HashMap::new(),
    };
    let path = format!("/api/event/{}/register", ev.id);
    for t in 1..=4u32 {
        let members: Vec<String> = (1..=2).map(|m| format!("T{t}P{m}")).collect();
        let body = json!({"name": format!("Team {t}"), "members": members});
        let r = ok(&c, &s, "POST", &path, Some(&ev.organiser), Some(body)).await;
        ev.tokens.insert(t, r["token"].as_str().unwrap().into());
    }

    let semis = start_round(&c, &s, &ev).await;
    assert_eq!(semis.len(), 2, "{semis:?}");
    let e = event(&c, &s, &ev, None).await;
    // Seeded by registration: 1 v 4 and 2 v 3.
    let (tied, _, _) = semis.iter().find(|p| p.1 == 1).cloned().expect("seed 1's pairing");
    let (won, _, _) = semis.iter().find(|p| p.1 == 2).cloned().expect("seed 2's pairing");
    let t = live(&e, 1, &tied);
    let w = live(&e, 1, &won);
    assert_eq!((t.len(), w.len()), (2, 2), "a live game a board: {e}");
    // 1 v 4: both boards drawn. 2 v 3: team 2 wins both (red on board 1, black on board 2).
    play(&c, &s, &ev, (&t[&1], 1), (1, 4), None).await;
    play(&c, &s, &ev, (&t[&2], 2), (4, 1), None).await;
    play(&c, &s, &ev, (&w[&1], 1), (2, 3), Some(2)).await;
    play(&c, &s, &ev, (&w[&2], 2), (3, 2), Some(2)).await;

    // The tie goes to a play-off match on the boards: two more live games, the colours turned.
    let e = wait_event(&c, &s, &ev, "the play-off match's games", |v| {
        live(v, 1, &tied).len() == 4
    })
    .await;
    let p = &e["stages"][0]["rounds"][0]["pairings"];
    let sheet = p.as_array().unwrap().iter().find(|p| p["id"] == tied.as_str()).unwrap();
    assert_eq!(sheet["verdict"], "pending", "{sheet}");
    assert_eq!(sheet["games"].as_array().unwrap().len(), 2, "{sheet}");
    let me = ok(
        &c,
        &s,
        "GET",
        &format!("/api/event/{}/me", ev.id),
        Some(&ev.tokens[&4]),
        None,
    )
    .await;
    let seats: Vec<(u64, u64, &str, &str)> = me["pairing"]["boards"]
        .as_array()
        .unwrap_or_else(|| panic!("{me}"))
        .iter()
        .map(|b| {
            (
                b["game"].as_u64().unwrap(),
                b["board"].as_u64().unwrap(),
                b["side"].as_str().unwrap(),
                b["player"].as_str().unwrap(),
            )
        })
        .collect();
    for want in [(3, 1, "red", "T4P1"), (4, 2, "black", "T4P2")] {
        assert!(seats.contains(&want), "team 4's play-off seats {seats:?}");
    }
    // Team 4 wins the play-off on board 1 (with red), board 2 drawn: 1½-½.
    let t = live(&e, 1, &tied);
    play(&c, &s, &ev, (&t[&3], 3), (4, 1), Some(4)).await;
    play(&c, &s, &ev, (&t[&4], 4), (1, 4), None).await;
    let e = wait_event(&c, &s, &ev, "the semi-finals decided", |v| {
        v["open"].as_array().unwrap().is_empty()
    })
    .await;
    let sheet = e["stages"][0]["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == tied.as_str())
        .unwrap()
        .clone();
    assert_eq!(sheet["verdict"], json!({"won": "second"}), "{sheet}");
    let scores: Vec<&str> = sheet["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["score"].as_str().unwrap())
        .collect();
    // From team 1's side: drawn, drawn; then lost the play-off's board 1, drew board 2.
    assert_eq!(scores, ["Draw", "Draw", "Loss", "Draw"], "{sheet}");
    assert!(sheet["lot"].is_null(), "decided by the play-off, not lots: {sheet}");

    // The final: team 2 (seed 2) against team 4, who came through the play-off.
    let fin = start_round(&c, &s, &ev).await;
    assert_eq!(fin.len(), 1, "{fin:?}");
    let (fid, a, b) = fin[0].clone();
    let mut teams = [a, b];
    teams.sort();
    assert_eq!(teams, [2, 4], "{fin:?}");
    let e = event(&c, &s, &ev, None).await;
    let f = live(&e, 2, &fid);
    play(&c, &s, &ev, (&f[&1], 1), (a, b), Some(4)).await;
    play(&c, &s, &ev, (&f[&2], 2), (b, a), Some(4)).await;
    let e = wait_event(&c, &s, &ev, "the final", |v| v["finished"] == true).await;
    let lines = e["standings"][0]["lines"].as_array().unwrap();
    assert_eq!(lines[0]["id"], 4, "team 4 wins the cup: {e}");
    assert_eq!(lines[1]["id"], 2, "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_knockout_with_a_play_off_on_sqlite() {
    let (dir, db) = sqlite("team-knockout");
    team_knockout(&db).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_knockout_with_a_play_off_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("event_ops_team_knockout") else {
        return;
    };
    team_knockout(&db.url).await;
}
