//! The lobby's games to watch (`GET /api/games/live`) over real HTTP: only games in play and
//! started (a move made), outside events, newest first, each seat named by its holder's
//! display name or the computer's level; a finished game leaves the list; bad input is a 400.

use reqwest::header::{COOKIE, SET_COOKIE};
use reqwest::StatusCode;
use serde_json::{json, Value};

mod common;
use common::{api, Server};

/// A session: the cookie the lobby's page sets, with `name` as its display name.
async fn named_session(base: &str, name: &str) -> String {
    let r = reqwest::get(format!("{base}/")).await.unwrap();
    let cookie = r
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("arbiter_session="))
        .map(|v| format!("arbiter_session={}", v.split(';').next().unwrap()))
        .expect("a session cookie from the lobby");
    let r = reqwest::Client::new()
        .post(format!("{base}/api/me/name"))
        .header(COOKIE, &cookie)
        .json(&json!({ "name": name }))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    cookie
}

async fn live(base: &str) -> Vec<Value> {
    let v = api(base, "GET", "/api/games/live", None, None).await;
    v["games"].as_array().unwrap().clone()
}

fn ids(games: &[Value]) -> Vec<&str> {
    games.iter().map(|g| g["id"].as_str().unwrap()).collect()
}

async fn watching(base: &str) {
    // Nothing is being played yet.
    assert!(live(base).await.is_empty());

    // Ann's game: she plays red, bound to her session; nobody has moved yet, so it is not listed.
    let ann = named_session(base, "Ann").await;
    let r = reqwest::Client::new()
        .post(format!("{base}/api/game"))
        .header(COOKIE, &ann)
        .json(&json!({ "kind": "xiangqi", "seat": "red" }))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success());
    let a: Value = r.json().await.unwrap();
    let a_id = a["id"].as_str().unwrap().to_string();
    assert!(
        live(base).await.is_empty(),
        "a game nobody has moved in is nothing to watch"
    );
    let red = a["seats"][0]["token"].as_str().unwrap();
    api(
        base,
        "POST",
        &format!("/api/board/game/{a_id}/move/h2e2"),
        Some(red),
        None,
    )
    .await;

    // A chess game against the computer (Debian's fairy-stockfish).
    let engine = std::path::Path::new("/usr/games/fairy-stockfish").is_file();
    if !engine {
        testdata::skip("the computer's seat in the list needs fairy-stockfish (apt-get install fairy-stockfish)");
    }
    let body = if engine {
        json!({ "kind": "chess", "computer": { "level": 1 } })
    } else {
        json!({ "kind": "chess" })
    };
    let b = api(base, "POST", "/api/game", None, Some(body)).await;
    let b_id = b["id"].as_str().unwrap().to_string();
    let white = b["seats"][0]["token"].as_str().unwrap();
    api(
        base,
        "POST",
        &format!("/api/board/game/{b_id}/move/e2e4"),
        Some(white),
        None,
    )
    .await;

    let listed = live(base).await;
    assert_eq!(ids(&listed), [b_id.as_str(), a_id.as_str()], "newest first: {listed:?}");
    let game_a = &listed[1];
    assert_eq!(game_a["kind"], "xiangqi");
    assert_eq!(game_a["url"], format!("/game/{a_id}#watch"));
    assert_eq!(game_a["players"][0], json!({ "side": "red", "name": "Ann" }));
    assert_eq!(game_a["players"][1], json!({ "side": "black", "name": null }));
    assert_eq!(listed[0]["players"][0], json!({ "side": "white", "name": null }));
    if engine {
        assert_eq!(listed[0]["players"][1], json!({ "side": "black", "computer": 1 }));
    }

    // At most `limit`; a bad limit is refused.
    let one = api(base, "GET", "/api/games/live?limit=1", None, None).await;
    assert_eq!(ids(one["games"].as_array().unwrap()), [b_id.as_str()]);
    for bad in ["limit=0", "limit=51", "limit=x", "other=1"] {
        let r = reqwest::get(format!("{base}/api/games/live?{bad}")).await.unwrap();
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{bad}");
        let e: Value = r.json().await.unwrap();
        assert!(e["error"].is_string(), "{bad}: {e}");
    }

    // A finished game leaves the list.
    api(
        base,
        "POST",
        &format!("/api/board/game/{b_id}/resign"),
        Some(white),
        None,
    )
    .await;
    let listed = live(base).await;
    assert_eq!(ids(&listed), [a_id.as_str()]);
}

#[tokio::test]
async fn the_games_being_played_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("arbiter-watching-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let server = Server::start_with(&format!("sqlite://{}?mode=rwc", dir.join("w.db").display()), &[]);
    watching(&server.base).await;
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_games_being_played_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("the_games_being_played_on_postgresql") else {
        return;
    };
    let server = Server::start_with(&db.url, &[]);
    watching(&server.base).await;
}
