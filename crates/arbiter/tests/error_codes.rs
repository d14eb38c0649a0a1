//! The API's errors carry a code and their sentence's values beside the English: `{"error",
//! "why", "args"}`, the English as it always was (bots read it), `why` and `args` for a page to
//! say it in its language from `/static/errors.json`.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

mod common;
use common::browser::Browser;
use common::Server;

/// The body of a request that must fail with `status`.
async fn refused(b: &mut Browser, method: Method, path: &str, body: Option<Value>, status: StatusCode) -> Value {
    let r = b.send(method.clone(), path, body, None).await;
    assert_eq!(r.status(), status, "{method} {path}");
    r.json().await.unwrap()
}

/// A record posted to the review, which must be refused with 400; the body.
async fn review_refused(base: &str, record: &str) -> Value {
    let r = reqwest::Client::new()
        .post(format!("{base}/api/review"))
        .body(record.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{record}");
    r.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_carry_a_code_and_the_values_of_their_sentence() {
    let dir = std::env::temp_dir().join(format!("arbiter-error-codes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let server = Server::start_with(&format!("sqlite://{}?mode=rwc", dir.join("e.db").display()), &[]);
    let base = server.base.clone();

    // Accounts: a name's rules with their limits, a taken name, a wrong password.
    let mut ann = Browser::opened(&base).await;
    let body = refused(
        &mut ann,
        Method::POST,
        "/api/account",
        Some(json!({"name": "A", "password": "long enough"})),
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(body["error"], "name: 2 to 20 characters (this one has 1)");
    assert_eq!(body["why"], "name_length");
    assert_eq!(body["args"], json!({"min": 2, "max": 20, "count": 1}));
    ann.ok(
        Method::POST,
        "/api/account",
        Some(json!({"name": "Ann", "password": "correct horse"})),
    )
    .await;
    let mut bob = Browser::opened(&base).await;
    let body = refused(
        &mut bob,
        Method::POST,
        "/api/account",
        Some(json!({"name": "ann", "password": "another one"})),
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(
        body,
        json!({"error": "the name \"ann\" is taken", "why": "name_taken", "args": {"name": "ann"}})
    );
    let body = refused(
        &mut bob,
        Method::POST,
        "/api/login",
        Some(json!({"name": "Ann", "password": "wrong horse"})),
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_eq!(
        body,
        json!({"error": "wrong name or password", "why": "wrong_password"})
    );

    // Games: none such, a seat token that is none, a malformed body, no such route.
    let body = refused(
        &mut bob,
        Method::GET,
        "/api/game/nosuchgame/rematch",
        None,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!(
        (body["why"].as_str(), body.get("args")),
        (Some("no_such_game"), None),
        "{body}"
    );
    let game = common::api(&base, "POST", "/api/game", None, Some(json!({"kind": "xiangqi"}))).await;
    let id = game["id"].as_str().unwrap();
    let r = bob
        .send(
            Method::POST,
            &format!("/api/board/game/{id}/resign"),
            None,
            Some("not-a-seat"),
        )
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let body: Value = r.json().await.unwrap();
    assert_eq!(
        body,
        json!({"error": "this token holds no seat in this game", "why": "not_your_seat"})
    );
    let r = reqwest::Client::new()
        .post(format!("{base}/api/game"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["why"], "bad_request", "{body}");
    assert_eq!(body["args"]["detail"], body["error"], "{body}");
    let body = refused(&mut bob, Method::GET, "/api/nothing-here", None, StatusCode::NOT_FOUND).await;
    assert_eq!(body, json!({"error": "no such endpoint", "why": "no_such_endpoint"}));

    // Lobby settings: a clock out of bounds, a level the computer has not.
    let body = refused(
        &mut bob,
        Method::POST,
        "/api/game",
        Some(json!({"kind": "xiangqi", "clock": {"limit": 1e6, "increment": 0}})),
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(body["why"], "clock_bounds");
    assert_eq!(body["args"], json!({"limit": 86400, "increment": 3600}));
    let body = refused(
        &mut bob,
        Method::POST,
        "/api/game",
        Some(json!({"kind": "shogi"})),
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(
        (&body["why"], &body["args"]),
        (&json!("unknown_kind"), &json!({"kind": "shogi"}))
    );

    // The review: a FEN that does not read, where it does not; a game past the record's last.
    let body = review_refused(
        &base,
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1 moves h2e2\n",
    )
    .await;
    assert_eq!(body["why"], "fen_rank_width", "{body}");
    assert_eq!(body["args"], json!({"rank": 10, "files": 8}));
    assert!(body["error"].as_str().unwrap().starts_with("game 1: FEN"), "{body}");
    let body = review_refused(&base, "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n").await;
    assert_eq!(body["why"], "fen_kings_facing", "{body}");
    let body = review_refused(
        &base,
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1\n",
    )
    .await;
    assert_eq!(body["why"], "chess_fen_turn", "{body}");
    let r = reqwest::Client::new()
        .post(format!("{base}/api/review?game=3"))
        .body("[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n")
        .send()
        .await
        .unwrap();
    let body: Value = r.json().await.unwrap();
    assert_eq!(
        (&body["why"], &body["args"]),
        (&json!("record_game_count"), &json!({"game": 3, "count": 2}))
    );

    // The sentences are served with the page, one for every code met above, in both languages.
    let table: Value = reqwest::get(format!("{base}/static/errors.json"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for code in [
        "name_length",
        "name_taken",
        "wrong_password",
        "no_such_game",
        "fen_rank_width",
        "bad_request",
    ] {
        assert!(table[code]["en"].is_string() && table[code]["zh"].is_string(), "{code}");
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
