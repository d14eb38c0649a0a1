//! Live games the event no longer needs end on the server: the organiser's corrected result
//! that decides a match in fewer games (a best-of-3 won 2-0 once game 2's scoresheet is put
//! right, while game 3 is in play), or that takes away the tie a play-off game was playing off
//! (a team pairing's play-off match on the boards too), and a double forfeit (`--`) entered
//! for a game in play, each call the game off — the arbiter's decision, without a result,
//! with the organiser's reason — so its clocks stop, its players can play it no more and
//! their `/me` shows the pairing decided; across a `kill -9`.

use std::time::{Duration, Instant};

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::common::Server;
use crate::http::*;

/// The player's `/me`, once `done` holds of it.
async fn wait_me(c: &Client, s: &Server, ev: &Ev, who: u32, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    let path = format!("/api/event/{}/me", ev.id);
    loop {
        let v = ok(c, s, "GET", &path, Some(&ev.tokens[&who]), None).await;
        if done(&v) {
            return v;
        }
        assert!(Instant::now() < deadline, "waited 30 s for {what}: {v}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// The pairing's game `n`, both players seated in it, once the server has made it.
async fn game(c: &Client, s: &Server, ev: &Ev, a: u32, b: u32, n: u64) -> Seat {
    wait_me(c, s, ev, a, &format!("game {n}"), |v| v["game"]["number"] == n).await;
    seats(c, s, ev, a, b).await
}

/// Game `g` called off by the arbiter, `why` in its explanation, and nothing more played in it.
async fn called_off(c: &Client, s: &Server, g: &Seat, why: &[&str]) {
    let state = full(c, s, &g.id).await["state"].clone();
    assert_eq!(state["status"], "aborted", "{state}");
    assert_eq!(state["reason"], "called_off", "{state}");
    assert!(state["winner"].is_null(), "no result: {state}");
    let text = state["explanation"].as_str().unwrap_or("");
    assert!(text.starts_with("the arbiter called the game off: "), "{state}");
    for w in why {
        assert!(text.contains(w), "{w:?} in {text:?}");
    }
    let (st, v) = board(c, s, g, "move/h0g2", &g.red).await;
    assert_ne!(st, StatusCode::OK, "a move in a game called off: {v}");
    let (st, v) = board(c, s, g, "resign", &g.black).await;
    assert_ne!(st, StatusCode::OK, "a resignation in a game called off: {v}");
}

/// Both players' `/me`: the pairing decided (`verdict`), its last game `last` with its
/// result taken as entered (no game made after it).
async fn decided_for_both(c: &Client, s: &Server, ev: &Ev, players: [u32; 2], verdict: &Value, last: u64) {
    for p in players {
        let me = wait_me(c, s, ev, p, "the game called off taken in", |v| {
            v["game"]["resultEntered"] == true
        })
        .await;
        assert_eq!(&me["pairing"]["verdict"], verdict, "{me}");
        assert_eq!(me["game"]["number"], last, "no game after it: {me}");
    }
}

/// A knockout of two, a match of `games` with a play-off game after a tie: game 1 to the
/// first-named, game 2 to the other, so game 3 is played (the match's last game when `games`
/// is 3, the play-off game when it is 2). The organiser then corrects game 2's result to the
/// first-named's win: the match is decided 2-0 and game 3, in play, is called off.
async fn decided_in_fewer_games(db: &str, games: u32) {
    let mut s = Server::start_with(db, &[]);
    let c = Client::new();
    let body = json!({"name": format!("Best of {games}"), "format": "knockout", "kind": "xiangqi",
        "games": games, "playoff": 1, "clock": {"limit": 600, "increment": 0}});
    let ev = create(&c, &s, body, 2).await;
    let (pid, a, b) = start_round(&c, &s, &ev).await[0].clone();
    let g1 = game(&c, &s, &ev, a, b, 1).await;
    assert_eq!(g1.red_player, a, "the first-named has red in game 1");
    finish(&c, &s, &g1, Some(a)).await;
    let g2 = game(&c, &s, &ev, a, b, 2).await;
    finish(&c, &s, &g2, Some(b)).await;
    let g3 = game(&c, &s, &ev, a, b, 3).await;
    plies(&c, &s, &g3, 0, 2).await;

    // Game 2 was the first-named's win (black's, in game 2): the match is theirs, 2-0.
    let reason = "game 2's scoresheet was signed for the wrong player";
    let body = json!({"pairing": pid, "results": ["1-0", "0-1"], "replace": true, "reason": reason});
    let path = format!("/api/event/{}/result", ev.id);
    let v = ok(&c, &s, "POST", &path, Some(&ev.organiser), Some(body)).await;
    let won = json!({"won": "first"});
    assert_eq!(v["verdict"], won, "{v}");
    called_off(&c, &s, &g3, &["decided the pairing without this game", reason]).await;
    decided_for_both(&c, &s, &ev, [a, b], &won, 3).await;
    let e = wait_event(&c, &s, &ev, "the final decided", |e| e["finished"] == true).await;
    let live = &e["stages"][0]["rounds"][0]["pairings"][0]["liveGames"];
    assert_eq!(live.as_array().unwrap().len(), 3, "no game made after it: {live}");

    // Nothing of it is undone by a kill -9.
    s.kill9();
    s = Server::start_with(db, &[]);
    called_off(&c, &s, &g3, &[reason]).await;
    decided_for_both(&c, &s, &ev, [a, b], &won, 3).await;
    assert_eq!(event(&c, &s, &ev, None).await["finished"], true);
}

/// A round robin of two playing a match of two games: the organiser enters a double forfeit
/// for game 1 while it is in play; the match is decided (drawn, neither credited) and the
/// game called off.
async fn double_forfeit(db: &str) {
    let mut s = Server::start_with(db, &[]);
    let c = Client::new();
    let body = json!({"name": "Double forfeit", "format": "round-robin", "kind": "xiangqi", "games": 2,
        "clock": {"limit": 600, "increment": 0}});
    let ev = create(&c, &s, body, 2).await;
    let (pid, a, b) = start_round(&c, &s, &ev).await[0].clone();
    let g1 = game(&c, &s, &ev, a, b, 1).await;
    plies(&c, &s, &g1, 0, 2).await;
    let reason = "both players left the hall for the whole session";
    let body = json!({"pairing": pid, "results": ["--"], "reason": reason});
    let path = format!("/api/event/{}/result", ev.id);
    let v = ok(&c, &s, "POST", &path, Some(&ev.organiser), Some(body)).await;
    assert_eq!(v["verdict"], "drawn", "{v}");
    called_off(
        &c,
        &s,
        &g1,
        &["the organiser entered --", "neither side credited", reason],
    )
    .await;
    decided_for_both(&c, &s, &ev, [a, b], &json!("drawn"), 1).await;
    wait_event(&c, &s, &ev, "the event over", |e| e["finished"] == true).await;
    s.kill9();
    s = Server::start_with(db, &[]);
    called_off(&c, &s, &g1, &[reason]).await;
    decided_for_both(&c, &s, &ev, [a, b], &json!("drawn"), 1).await;
}

/// The live game of board (game) `n` of the event's only pairing, `red` and `black` the teams
/// seated so there.
fn team_board(e: &Value, ev: &Ev, n: u64, red: u32, black: u32) -> Seat {
    let live = &e["stages"][0]["rounds"][0]["pairings"][0]["liveGames"];
    let id = live
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == n)
        .unwrap_or_else(|| panic!("no board {n}: {live}"))["id"]
        .as_str()
        .unwrap()
        .to_string();
    Seat {
        id,
        number: n,
        red: ev.tokens[&red].clone(),
        black: ev.tokens[&black].clone(),
        red_player: red,
    }
}

/// A team knockout of two teams on two boards: each wins a board, so a play-off match on the
/// boards is made (the colours turned round); the organiser corrects board 2 to the
/// first-named team's win, and the play-off's boards, in play, are called off.
async fn team_playoff_not_needed(db: &str) {
    let s = Server::start_with(db, &[]);
    let c = Client::new();
    let body = json!({"name": "Team cup", "format": "knockout", "kind": "xiangqi", "boards": 2, "playoff": 1,
        "seeding": "registration", "clock": {"limit": 600, "increment": 0}});
    let v = ok(&c, &s, "POST", "/api/event", None, Some(body)).await;
    let mut ev = Ev {
        id: v["id"].as_str().unwrap().into(),
        organiser: v["organiserToken"].as_str().unwrap().into(),
        tokens: Default::default(),
    };
    let path = format!("/api/event/{}/register", ev.id);
    for t in 1..=2u32 {
        let members: Vec<String> = (1..=2).map(|m| format!("T{t}P{m}")).collect();
        let body = json!({"name": format!("Team {t}"), "members": members});
        let r = ok(&c, &s, "POST", &path, Some(&ev.organiser), Some(body)).await;
        ev.tokens.insert(t, r["token"].as_str().unwrap().into());
    }
    let (pid, a, b) = start_round(&c, &s, &ev).await[0].clone();
    let e = event(&c, &s, &ev, None).await;
    // Board 1: the first-named team red, and it wins; board 2: the other red, and it wins.
    finish(&c, &s, &team_board(&e, &ev, 1, a, b), Some(a)).await;
    finish(&c, &s, &team_board(&e, &ev, 2, b, a), Some(b)).await;
    let e = wait_event(&c, &s, &ev, "the play-off match's boards", |v| {
        v["stages"][0]["rounds"][0]["pairings"][0]["liveGames"]
            .as_array()
            .is_some_and(|l| l.len() == 4)
    })
    .await;
    // The play-off match turns the colours round: the second-named team red on its board 1.
    let playoff = [team_board(&e, &ev, 3, b, a), team_board(&e, &ev, 4, a, b)];
    plies(&c, &s, &playoff[0], 0, 2).await;

    let reason = "board 2's result was written the wrong way round";
    let body = json!({"pairing": pid, "results": ["1-0", "1-0"], "replace": true, "reason": reason});
    let path = format!("/api/event/{}/result", ev.id);
    let v = ok(&c, &s, "POST", &path, Some(&ev.organiser), Some(body)).await;
    let won = json!({"won": "first"});
    assert_eq!(v["verdict"], won, "{v}");
    for g in &playoff {
        called_off(&c, &s, g, &["decided the pairing without this game", reason]).await;
    }
    decided_for_both(&c, &s, &ev, [a, b], &won, 4).await;
    wait_event(&c, &s, &ev, "the cup decided", |e| e["finished"] == true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_no_longer_needed_end_on_sqlite() {
    let (dir, db) = sqlite("decided");
    decided_in_fewer_games(&db, 3).await;
    decided_in_fewer_games(&db, 2).await;
    double_forfeit(&db).await;
    team_playoff_not_needed(&db).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_no_longer_needed_end_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("event_ops_decided") else {
        return;
    };
    decided_in_fewer_games(&db.url, 3).await;
    decided_in_fewer_games(&db.url, 2).await;
    double_forfeit(&db.url).await;
    team_playoff_not_needed(&db.url).await;
}
