//! Players over real HTTP, on SQLite and PostgreSQL: a session cookie from the first page, the
//! display name, seats bound to the session and found from another "tab" (another client with
//! the same cookie), a seat opened by its link bound to that browser, accounts found from a
//! second device, sign-in limited per name, a player's games and ratings, and clear 4xx for
//! bad input.

use reqwest::header::{COOKIE, SET_COOKIE};
use reqwest::{Client, Method, StatusCode};
use serde_json::{json, Value};

mod common;
use common::browser::{session_cookie, Browser};
use common::Server;

async fn the_first_page_gives_a_session(base: &str) {
    let http = Client::new();
    let r = http.get(format!("{base}/")).send().await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let set: Vec<String> = r
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    assert_eq!(set.len(), 1, "{set:?}");
    let c = &set[0];
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=31536000"] {
        assert!(c.contains(attribute), "{c}");
    }
    let id = session_cookie(&r).unwrap();
    assert_eq!(id.len(), 32);
    assert!(id.bytes().all(|b| b.is_ascii_alphanumeric()));
    // Known: no new one; unknown (or malformed): a new one.
    for (cookie, new) in [(id.clone(), false), ("A".repeat(32), true), ("x;y".into(), true)] {
        let r = http
            .get(format!("{base}/player/Nobody"))
            .header(COOKIE, format!("other=1; arbiter_session={cookie}"))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        let again = session_cookie(&r);
        assert_eq!(again.is_some(), new, "{cookie}");
        assert_ne!(again.as_deref(), Some(id.as_str()));
    }
    // The page's files set none.
    let r = http.get(format!("{base}/static/me.js")).send().await.unwrap();
    assert!(session_cookie(&r).is_none());
}

/// The whole story on one server: returns nothing, asserts everything.
async fn players(base: &str, db: &str) {
    the_first_page_gives_a_session(base).await;
    let mut ann = Browser::new(base);
    ann.page("/").await;
    let me = ann.ok(Method::GET, "/api/me", None).await;
    assert_eq!(me, json!({ "name": null, "account": null, "seats": [] }));

    // The display name: trimmed, bounded.
    let me = ann
        .ok(Method::POST, "/api/me/name", Some(json!({ "name": "  Ann Lee  " })))
        .await;
    assert_eq!(me["name"], "Ann Lee");
    let e = ann
        .fails(
            Method::POST,
            "/api/me/name",
            Some(json!({ "name": "   " })),
            StatusCode::BAD_REQUEST,
        )
        .await;
    assert!(e.contains("1 to 30"), "{e}");
    let e = ann
        .fails(
            Method::POST,
            "/api/me/name",
            Some(json!({ "name": "x".repeat(31) })),
            StatusCode::BAD_REQUEST,
        )
        .await;
    assert!(e.contains("has 31"), "{e}");
    ann.fails(
        Method::POST,
        "/api/me/name",
        Some(json!({ "nom": "A" })),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(ann.ok(Method::GET, "/api/me", None).await["name"], "Ann Lee");

    // A game created with the cookie: the chosen seat is the session's.
    let game = ann
        .ok(
            Method::POST,
            "/api/game",
            Some(json!({ "kind": "chess", "seat": "white" })),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_string();
    let white = game["seats"][0]["token"].as_str().unwrap().to_string();
    let black = game["seats"][1]["token"].as_str().unwrap().to_string();
    let e = ann
        .fails(
            Method::POST,
            "/api/game",
            Some(json!({ "kind": "xiangqi", "seat": "white" })),
            StatusCode::BAD_REQUEST,
        )
        .await;
    assert!(e.contains("expected red, black or both"), "{e}");
    // Without a session there is no one to bind the seat to: refused, no game made.
    let mut bot = Browser::new(base);
    let e = bot
        .fails(
            Method::POST,
            "/api/game",
            Some(json!({ "kind": "chess", "seat": "black" })),
            StatusCode::BAD_REQUEST,
        )
        .await;
    assert!(e.contains("no session cookie"), "{e}");
    // Bots are as before: no seat asked, none bound, the tokens play.
    let plain = bot
        .ok(Method::POST, "/api/game", Some(json!({ "kind": "chess" })))
        .await;
    assert!(bot.cookie.is_none());

    // Another tab of Ann's browser finds the seat with its token, and plays it.
    let mut tab = ann.tab();
    let me = tab.ok(Method::GET, "/api/me", None).await;
    assert_eq!(me["seats"], json!([{ "game": id, "side": "white", "token": white }]));
    assert_eq!(me["name"], "Ann Lee");
    let r = tab
        .send(
            Method::POST,
            &format!("/api/board/game/{id}/move/e2e4"),
            None,
            Some(&white),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);

    // Bob opens the black seat's link in his browser: bound to his session.
    let mut bob = Browser::new(base);
    bob.page(&format!("/game/{id}")).await;
    let held = bob
        .ok(
            Method::POST,
            "/api/me/seat",
            Some(json!({ "game": id, "token": black })),
        )
        .await;
    assert_eq!(held, json!({ "game": id, "side": "black" }));
    // Binding it again changes nothing.
    bob.ok(
        Method::POST,
        "/api/me/seat",
        Some(json!({ "game": id, "token": black })),
    )
    .await;
    let me = bob.tab().ok(Method::GET, "/api/me", None).await;
    assert_eq!(me["seats"], json!([{ "game": id, "side": "black", "token": black }]));
    // Someone else's token, a game that is not there.
    bob.fails(
        Method::POST,
        "/api/me/seat",
        Some(json!({ "game": id, "token": "nope" })),
        StatusCode::FORBIDDEN,
    )
    .await;
    let other = plain["seats"][0]["token"].as_str().unwrap();
    bob.fails(
        Method::POST,
        "/api/me/seat",
        Some(json!({ "game": id, "token": other })),
        StatusCode::FORBIDDEN,
    )
    .await;
    bob.fails(
        Method::POST,
        "/api/me/seat",
        Some(json!({ "game": "NoSuchGame", "token": black })),
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!(
        bob.ok(Method::GET, "/api/me", None).await["seats"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // Accounts: the rules, then Ann's made; her session is signed in under a new id.
    for (name, password, why) in [
        ("A", "long enough", "2 to 20"),
        ("Ann Lee", "long enough", "not ' '"),
        ("-Ann", "long enough", "begins"),
        ("Ann", "short", "at least 8"),
    ] {
        let e = ann
            .fails(
                Method::POST,
                "/api/account",
                Some(json!({ "name": name, "password": password })),
                StatusCode::BAD_REQUEST,
            )
            .await;
        assert!(e.contains(why), "{name}: {e}");
    }
    let before = ann.cookie.clone().unwrap();
    let me = ann
        .ok(
            Method::POST,
            "/api/account",
            Some(json!({ "name": "Ann", "password": "correct horse" })),
        )
        .await;
    assert_ne!(
        ann.cookie.as_deref(),
        Some(before.as_str()),
        "a new session id on signing in"
    );
    assert_eq!(me["account"], "Ann");
    assert_eq!(me["name"], "Ann Lee");
    assert_eq!(me["seats"], json!([{ "game": id, "side": "white", "token": white }]));
    // The id before no longer opens the session: the old tab gets a new, empty one.
    let me = tab.ok(Method::GET, "/api/me", None).await;
    assert_eq!(me, json!({ "name": null, "account": null, "seats": [] }));
    let e = bob
        .fails(
            Method::POST,
            "/api/account",
            Some(json!({ "name": "ann", "password": "another one" })),
            StatusCode::CONFLICT,
        )
        .await;
    assert!(e.contains("taken"), "{e}");

    // A second device signs in (the name in any case) and holds Ann's seat.
    let mut phone = Browser::new(base);
    phone.page("/").await;
    for (name, password) in [("Ann", "wrong horse"), ("Nobody", "correct horse")] {
        let e = phone
            .fails(
                Method::POST,
                "/api/login",
                Some(json!({ "name": name, "password": password })),
                StatusCode::UNAUTHORIZED,
            )
            .await;
        assert_eq!(e, "wrong name or password");
    }
    let me = phone
        .ok(
            Method::POST,
            "/api/login",
            Some(json!({ "name": "ANN", "password": "correct horse" })),
        )
        .await;
    assert_eq!(me["account"], "Ann");
    assert_eq!(me["seats"], json!([{ "game": id, "side": "white", "token": white }]));
    // A game made on the phone is the account's: Ann's first browser holds it too.
    let second = phone
        .ok(
            Method::POST,
            "/api/game",
            Some(json!({ "kind": "xiangqi", "seat": "black" })),
        )
        .await;
    let second_id = second["id"].as_str().unwrap().to_string();
    let me = ann.ok(Method::GET, "/api/me", None).await;
    let games: Vec<&str> = me["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["game"].as_str().unwrap())
        .collect();
    assert_eq!(games.len(), 2);
    assert!(
        games.contains(&id.as_str()) && games.contains(&second_id.as_str()),
        "{me}"
    );
    // Signed out: the phone gets a new session holding nothing; Ann's browser keeps them.
    let me = phone.ok(Method::POST, "/api/logout", None).await;
    assert_eq!(me, json!({ "name": null, "account": null, "seats": [] }));
    assert_eq!(
        ann.ok(Method::GET, "/api/me", None).await["seats"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    // Bob signs up; the seat he held goes with him into his account.
    let me = bob
        .ok(
            Method::POST,
            "/api/account",
            Some(json!({ "name": "李白", "password": "床前明月光疑是地上霜" })),
        )
        .await;
    assert_eq!(me["seats"], json!([{ "game": id, "side": "black", "token": black }]));

    // Guessing a password: after a burst, the name is held off (429), the right one too.
    let mut guesser = Browser::new(base);
    let mut codes = Vec::new();
    for i in 0..12 {
        let r = guesser
            .send(
                Method::POST,
                "/api/login",
                Some(json!({ "name": "李白", "password": format!("guess {i:04}") })),
                None,
            )
            .await;
        codes.push(r.status().as_u16());
    }
    assert_eq!(&codes[..10], &[401; 10], "{codes:?}");
    assert_eq!(&codes[10..], &[429; 2], "{codes:?}");
    // Another name has its own count.
    guesser
        .fails(
            Method::POST,
            "/api/login",
            Some(json!({ "name": "Ann", "password": "guess" })),
            StatusCode::UNAUTHORIZED,
        )
        .await;

    // The game ends: no longer among the seats held; on the players' pages, with how it ended.
    let r = bob
        .send(
            Method::POST,
            &format!("/api/board/game/{id}/resign"),
            None,
            Some(&black),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let me = ann.ok(Method::GET, "/api/me", None).await;
    assert_eq!(me["seats"].as_array().unwrap().len(), 1, "{me}");
    assert_eq!(me["seats"][0]["game"], second_id.as_str());

    // Ratings, where a list has the player.
    let store = store::Store::connect(db).await.unwrap();
    let rated = store::ratings::Rated {
        player: "Ann".into(),
        origin: store::ratings::Origin::New,
        before: r#"{"rating":1500.0,"games":0}"#.into(),
        after: r#"{"rating":1523.0,"games":1}"#.into(),
    };
    store
        .update_ratings("Club", store::ratings::System::Elo, 0, "test", &[rated])
        .await
        .unwrap();
    store.close().await;

    let player = bob.ok(Method::GET, "/api/player/ann", None).await;
    assert_eq!(player["name"], "Ann");
    let games = player["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{player}");
    // Newest first: the phone's game in play, then the one Bob resigned.
    assert_eq!(games[0]["id"], second_id.as_str());
    assert_eq!(games[0]["live"], true);
    assert_eq!(games[0]["side"], "black");
    assert_eq!(games[1]["id"], id.as_str());
    assert_eq!(games[1]["live"], false);
    assert_eq!(games[1]["side"], "white");
    assert_eq!(games[1]["opponent"], "李白");
    assert_eq!(games[1]["url"], format!("/game/{id}"));
    assert_eq!(games[1]["result"], "resignation", "{player}");
    assert_eq!(
        (&games[1]["outcome"], &games[1]["score"]),
        (&json!("1-0"), &json!("win"))
    );
    assert_eq!(games[0]["score"], Value::Null);
    assert_eq!(
        player["ratings"],
        json!([{ "list": "Club", "system": "elo", "state": { "rating": 1523.0, "games": 1 } }])
    );
    let li = bob
        .ok(Method::GET, &format!("/api/player/{}", "%E6%9D%8E%E7%99%BD"), None)
        .await;
    assert_eq!(li["games"][0]["opponent"], "Ann");
    assert_eq!(li["games"][0]["score"], "loss");
    assert_eq!(li["ratings"], json!([]));
    let e = bob
        .fails(Method::GET, "/api/player/Nobody", None, StatusCode::NOT_FOUND)
        .await;
    assert!(e.contains("no player"), "{e}");
    let r = bob.send(Method::GET, "/player/Ann", None, None).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.text().await.unwrap().contains("/static/player.js"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_sessions_seats_and_accounts_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("arbiter-players-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("p.db").display());
    {
        let server = Server::start_with(&url, &[]);
        players(&server.base, &url).await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_sessions_seats_and_accounts_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("players_sessions_seats_and_accounts_on_postgresql") else {
        return;
    };
    let server = Server::start_with(&db.url, &[]);
    players(&server.base, &db.url).await;
}
