//! Issue 30's computer opponent: games of Fairy-Stockfish (Debian's `fairy-stockfish`) at
//! level 4 against a random mover through a real `arbiter serve`. Every game finishes with the
//! computer winning, and each game's verdict, as the server's record gives it, is the one
//! `arbiter judge` rules on that record. 200 games (the measure; about 20 s on two
//! cores); `COMPUTER_GAMES` sets another number.

use std::path::PathBuf;
use std::process::Command;

use rand::seq::SliceRandom;
use serde_json::{json, Value};

mod common;
use common::Server;

fn fairy() -> Option<PathBuf> {
    testdata::fairy_stockfish("the computer opponent")
}

/// Plays the person's side of game `g` with random legal moves until it is over: the final
/// state.
async fn random_mover(base: &str, g: &Value) -> Value {
    let id = g["id"].as_str().unwrap();
    let token = g["seats"][0]["token"].as_str().unwrap();
    let http = reqwest::Client::new();
    let mut r = http
        .get(format!("{base}/api/board/game/stream/{id}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let mut buf = Vec::new();
    let mut asked = None;
    while let Some(chunk) = r.chunk().await.unwrap() {
        buf.extend_from_slice(&chunk);
        while let Some(end) = buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = buf.drain(..=end).collect();
            let Ok(ev) = serde_json::from_slice::<Value>(&line) else {
                continue;
            };
            let state = match ev["type"].as_str() {
                Some("gameFull") => ev["state"].clone(),
                Some("gameState") => ev,
                _ => continue,
            };
            let status = state["status"].as_str().unwrap_or_default();
            if !matches!(status, "started" | "created") {
                return state;
            }
            let plies = state["moves"].as_str().unwrap_or_default().split_whitespace().count();
            if state["turn"] == "red" && asked != Some(plies) {
                asked = Some(plies);
                let legal: Vec<String> = serde_json::from_value(state["legal"].clone()).unwrap();
                let mv = legal.choose(&mut rand::thread_rng()).unwrap().clone();
                let r = http
                    .post(format!("{base}/api/board/game/{id}/move/{mv}"))
                    .bearer_auth(token)
                    .send()
                    .await
                    .unwrap();
                assert!(r.status().is_success(), "{mv}: {}", r.status());
            }
        }
    }
    panic!("game {id}: the stream ended before the game");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_beats_a_random_mover_and_the_judge_agrees() {
    let Some(_) = fairy() else { return };
    let games: usize = std::env::var("COMPUTER_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let dir = std::env::temp_dir().join(format!("arbiter-computer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let server = Server::start_with(
        &format!("sqlite://{}?mode=rwc", dir.join("g.db").display()),
        &["--creates-per-minute", "100000", "--actions-per-second", "1000"],
    );
    let base = server.base.clone();
    let started = std::time::Instant::now();
    // A few at a time: each game's engine is a process thinking up to 50 ms a move.
    let mut results = Vec::new();
    for batch in (0..games).collect::<Vec<_>>().chunks(4) {
        let mut tasks = Vec::new();
        for _ in batch {
            let base = base.clone();
            tasks.push(tokio::spawn(async move {
                let create = reqwest::Client::new()
                    .post(format!("{base}/api/game"))
                    .json(&json!({"kind": "xiangqi", "computer": {"level": 4}}))
                    .send()
                    .await
                    .unwrap();
                assert!(create.status().is_success(), "{}", create.status());
                let g: Value = create.json().await.unwrap();
                assert_eq!(g["seats"][1], json!({"side": "black", "computer": 4}), "{g}");
                let end = random_mover(&base, &g).await;
                let id = g["id"].as_str().unwrap().to_string();
                let pgn = reqwest::get(format!("{base}/api/game/{id}/pgn"))
                    .await
                    .unwrap()
                    .text()
                    .await
                    .unwrap();
                (id, end, pgn)
            }));
        }
        for t in tasks {
            results.push(t.await.unwrap());
        }
    }
    let mut plies = 0;
    for (id, end, pgn) in &results {
        assert_eq!(end["winner"], "black", "game {id}: the computer did not win: {end}");
        assert!(
            pgn.contains("[Black \"Computer level 4\"]"),
            "game {id}: the record names the computer: {pgn}"
        );
        let file = dir.join(format!("{id}.pgn"));
        std::fs::write(&file, pgn).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["judge", "--json"])
            .arg(&file)
            .output()
            .unwrap();
        let judged: Value = serde_json::from_slice(out.stdout.split(|&b| b == b'\n').next().unwrap_or_default())
            .unwrap_or_else(|e| panic!("game {id}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(
            judged["result"], "black",
            "game {id}: the judge on its record: {judged}\n{pgn}"
        );
        assert_eq!(judged["result_tag"], "0-1", "game {id}: the record's result: {judged}");
        assert_eq!(judged["reason"], end["reason"], "game {id}: {judged} vs {end}");
        plies += judged["plies"].as_u64().unwrap();
    }
    eprintln!(
        "{} games against the computer at level 4: all won by it, all judged alike; {plies} plies, {:?}",
        results.len(),
        started.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Game `id`'s state now: the first line of its stream (`gameFull`).
async fn state_now(base: &str, id: &str) -> Value {
    let mut r = reqwest::get(format!("{base}/api/board/game/stream/{id}"))
        .await
        .unwrap();
    let mut buf = Vec::new();
    while let Some(chunk) = r.chunk().await.unwrap() {
        buf.extend_from_slice(&chunk);
        if let Some(end) = buf.iter().position(|&b| b == b'\n') {
            let full: Value = serde_json::from_slice(&buf[..end]).unwrap();
            return full["state"].clone();
        }
    }
    panic!("game {id}: no line on its stream");
}

/// Waits (up to 20 s) for game `id` to have `plies` moves: the state then.
async fn wait_for_plies(base: &str, id: &str, plies: usize) -> Value {
    for _ in 0..200 {
        let state = state_now(base, id).await;
        if state["moves"].as_str().unwrap_or_default().split_whitespace().count() >= plies {
            return state;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("game {id}: still not {plies} plies after 20 s");
}

/// The person (red) plays the first legal move of `state` in game `g`.
async fn red_moves(base: &str, g: &Value, state: &Value) {
    let mv = state["legal"][0].as_str().expect("a legal move").to_string();
    let token = g["seats"][0]["token"].as_str().unwrap();
    let path = format!("/api/board/game/{}/move/{mv}", g["id"].as_str().unwrap());
    common::api(base, "POST", &path, Some(token), None).await;
}

/// The computer's seat is kept with its game: after the server is killed and started again on
/// the same database, the computer answers the person's next move. And the server plays only
/// as many games against the computer at once as it is told: one more is refused with a clear
/// error until a place frees up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_keeps_its_seat_across_a_restart_and_its_games_are_bounded() {
    let Some(_) = fairy() else { return };
    let dir = std::env::temp_dir().join(format!("arbiter-computer-seat-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}?mode=rwc", dir.join("g.db").display());
    let options = ["--computer-games", "1"];
    let server = Server::start_with(&db, &options);
    let base = server.base.clone();
    let vs_computer = json!({"kind": "xiangqi", "computer": {"level": 1}});
    let g = common::api(&base, "POST", "/api/game", None, Some(vs_computer.clone())).await;
    let id = g["id"].as_str().unwrap();

    let refused = reqwest::Client::new()
        .post(format!("{base}/api/game"))
        .json(&vs_computer)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 503);
    let why: Value = refused.json().await.unwrap();
    assert!(why["error"].as_str().unwrap().contains("as many games"), "{why}");

    let state = state_now(&base, id).await;
    red_moves(&base, &g, &state).await;
    wait_for_plies(&base, id, 2).await;
    server.kill9();

    let server = Server::start_with(&db, &options);
    let base = server.base.clone();
    let state = wait_for_plies(&base, id, 2).await;
    red_moves(&base, &g, &state).await;
    let state = wait_for_plies(&base, id, 4).await;
    assert_eq!(state["status"], "started", "{state}");

    // The game over, its place is free for another.
    let token = g["seats"][0]["token"].as_str().unwrap();
    common::api(
        &base,
        "POST",
        &format!("/api/board/game/{id}/resign"),
        Some(token),
        None,
    )
    .await;
    let mut made = None;
    for _ in 0..100 {
        let r = reqwest::Client::new()
            .post(format!("{base}/api/game"))
            .json(&vs_computer)
            .send()
            .await
            .unwrap();
        if r.status().is_success() {
            made = Some(r.json::<Value>().await.unwrap());
            break;
        }
        assert_eq!(r.status(), 503);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let made = made.expect("a place for a new game against the computer once the first is over");
    assert_eq!(made["seats"][1]["computer"], 1, "{made}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Stockfish plays chess as the computer (where Fairy-Stockfish is missing it is chess's
/// engine): its `Skill Level` is bounded 0 to 20, so level 1's −9 is sent as 0 — a value out
/// of its range would be ignored and leave it at full strength — and it answers each move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stockfish_plays_chess_at_a_level() {
    let Some(sf) = testdata::stockfish("the computer on Stockfish") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("arbiter-computer-sf-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}?mode=rwc", dir.join("g.db").display());
    let server = Server::start_with_env(&db, &[], &[("ARBITER_ENGINE", sf.to_str().unwrap())]);
    let base = server.base.clone();
    let g = common::api(
        &base,
        "POST",
        "/api/game",
        None,
        Some(json!({"kind": "chess", "computer": {"level": 1}})),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    for plies in [2, 4, 6] {
        let state = state_now(&base, id).await;
        red_moves(&base, &g, &state).await;
        let state = wait_for_plies(&base, id, plies).await;
        assert_eq!(state["status"], "started", "{state}");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
