//! Finding an opponent over real HTTP, on SQLite and PostgreSQL: seeks in the lobby (posted,
//! listed to others, accepted by exactly one of two, cancelled, refused as one's own or without a
//! session), a challenge by link (the first other visitor takes the seat, later ones watch), and
//! a rematch after a finished game (colours swapped, both seats bound). Every refusal is a clear
//! 4xx that changes nothing.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

mod common;
use common::browser::Browser;
use common::Server;

fn ids(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect()
}

async fn seeks(base: &str) {
    let mut ann = Browser::opened(base).await;
    let mut bob = Browser::opened(base).await;
    let mut cid = Browser::opened(base).await;
    ann.ok(Method::POST, "/api/me/name", Some(json!({ "name": "Ann" })))
        .await;

    // Bad seeks: refused, nothing listed.
    for (body, status, says) in [
        (json!({ "kind": "go", "time": "3+2" }), StatusCode::BAD_REQUEST, "go"),
        (
            json!({ "kind": "xiangqi", "time": "2+1" }),
            StatusCode::BAD_REQUEST,
            "expected one of 1+0",
        ),
        (
            json!({ "kind": "xiangqi", "time": "3+2", "colour": "green" }),
            StatusCode::BAD_REQUEST,
            "first, second or random",
        ),
        (json!({ "kind": "xiangqi" }), StatusCode::UNPROCESSABLE_ENTITY, "time"),
    ] {
        let e = ann.fails(Method::POST, "/api/seeks", Some(body), status).await;
        assert!(e.contains(says), "{e}");
    }
    // No session: nobody to seat.
    let mut anon = Browser::new(base);
    let e = anon
        .fails(
            Method::POST,
            "/api/seeks",
            Some(json!({ "kind": "chess", "time": "5+3" })),
            StatusCode::UNAUTHORIZED,
        )
        .await;
    assert!(e.contains("no session"), "{e}");
    assert_eq!(bob.lobby().await, json!({ "seeks": [], "mine": [] }));
    // Rated games are for accounts: a session alone is refused, then each makes one (Ann
    // keeps her display name).
    let rated = json!({ "kind": "xiangqi", "time": "10+0/60s", "rated": true, "colour": "first" });
    let e = ann
        .fails(Method::POST, "/api/seeks", Some(rated.clone()), StatusCode::FORBIDDEN)
        .await;
    assert!(e.contains("rated games are for accounts"), "{e}");
    for (b, name) in [(&mut ann, "ann"), (&mut bob, "bob"), (&mut cid, "cid")] {
        b.ok(
            Method::POST,
            "/api/account",
            Some(json!({ "name": name, "password": "a long enough password" })),
        )
        .await;
    }

    // Ann seeks a rated Xiangqi game at 10+0 with 60 s a move, as Red.
    let seek = ann.ok(Method::POST, "/api/seeks", Some(rated)).await;
    let id = seek["id"].as_str().unwrap().to_string();
    assert_eq!(seek["mine"], true);
    let listed = bob.lobby().await;
    assert_eq!(ids(&listed["seeks"]), [id.as_str()]);
    let s = &listed["seeks"][0];
    assert_eq!(
        (&s["kind"], &s["time"], &s["rated"], &s["name"], &s["colour"]),
        (
            &json!("xiangqi"),
            &json!("10+0/60s"),
            &json!(true),
            &json!("Ann"),
            &json!("first")
        )
    );
    assert_eq!(ids(&ann.lobby().await["mine"]), [id.as_str()]);
    assert!(
        ann.lobby().await["seeks"].as_array().unwrap().is_empty(),
        "one's own are not offered"
    );

    // Refusals: one's own, unknown, no session. Nothing changes.
    let e = ann
        .fails(
            Method::POST,
            &format!("/api/seeks/{id}/accept"),
            None,
            StatusCode::FORBIDDEN,
        )
        .await;
    assert!(e.contains("your own seek"), "{e}");
    let e = bob
        .fails(Method::POST, "/api/seeks/nope/accept", None, StatusCode::NOT_FOUND)
        .await;
    assert!(e.contains("no such seek"), "{e}");
    anon.fails(
        Method::POST,
        &format!("/api/seeks/{id}/accept"),
        None,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    let e = bob
        .fails(Method::DELETE, &format!("/api/seeks/{id}"), None, StatusCode::FORBIDDEN)
        .await;
    assert!(e.contains("not yours"), "{e}");
    assert_eq!(ids(&bob.lobby().await["seeks"]), [id.as_str()]);

    // Bob and Cid accept at once: exactly one gets the game, the other a 409.
    let accept = format!("/api/seeks/{id}/accept");
    let (rb, rc) = tokio::join!(
        bob.send(Method::POST, &accept, None, None),
        cid.send(Method::POST, &accept, None, None),
    );
    let (sb, sc) = (rb.status(), rc.status());
    let (vb, vc): (Value, Value) = (rb.json().await.unwrap(), rc.json().await.unwrap());
    let (winner, winner_name, won, lost) = match (sb, sc) {
        (StatusCode::OK, StatusCode::CONFLICT) => (&mut bob, "bob", vb, vc),
        (StatusCode::CONFLICT, StatusCode::OK) => (&mut cid, "cid", vc, vb),
        other => panic!("two accepts: {other:?} {vb} {vc}"),
    };
    assert!(
        lost["error"].as_str().unwrap().contains("accepted by another player"),
        "{lost}"
    );
    let game = won["game"].as_str().unwrap().to_string();
    assert_eq!(won["side"], "black");
    assert_eq!(won["url"], format!("/game/{game}"));
    // The accepter's seat is theirs; the seeker's lobby learns of the game once, and its seat is
    // bound to it.
    let (black, side) = winner.seat(&game).await.unwrap();
    assert_eq!(side, "black");
    let mine = ann.lobby().await["mine"].clone();
    assert_eq!(mine[0]["game"], game.as_str());
    assert_eq!(mine[0]["side"], "red");
    assert_eq!(ann.lobby().await["mine"], json!([]));
    let (red, side) = ann.seat(&game).await.unwrap();
    assert_eq!(side, "red");
    assert_ne!(red, black);
    assert!(winner.lobby().await["seeks"].as_array().unwrap().is_empty());
    // The game has the seek's clock: 10 minutes, each move within 60 s.
    let mut stream = reqwest::get(format!("{base}/api/board/game/stream/{game}"))
        .await
        .unwrap();
    let first = stream.chunk().await.unwrap().unwrap();
    let full: Value = serde_json::from_slice(first.split(|b| *b == b'\n').next().unwrap()).unwrap();
    drop(stream);
    assert_eq!(full["clock"], json!({ "initial": 600_000, "increment": 0 }));
    assert_eq!(full["timeControl"]["per_move"], 60_000, "{full}");
    // The players as the stream and the record name them (as lichess gives a player:
    // `white`/`black`, Red being `white`): by their accounts' names, unique and theirs, where
    // they have accounts (Ann's display name is for the lobby's list).
    assert_eq!(
        (&full["white"], &full["black"]),
        (&json!({ "name": "ann" }), &json!({ "name": winner_name })),
        "{full}"
    );
    let pgn = reqwest::get(format!("{base}/api/game/{game}/pgn"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for tag in [
        "[White \"ann\"]".to_string(),
        "[Red \"ann\"]".into(),
        format!("[Black \"{winner_name}\"]"),
    ] {
        assert!(pgn.contains(&tag), "{tag} in {pgn}");
    }
    // Accepted and delivered: gone.
    let mut dan = Browser::opened(base).await;
    dan.fails(
        Method::POST,
        &format!("/api/seeks/{id}/accept"),
        None,
        StatusCode::NOT_FOUND,
    )
    .await;

    // Cancelled: gone from the lobby, and it cannot be accepted.
    let seek = ann
        .ok(
            Method::POST,
            "/api/seeks",
            Some(json!({ "kind": "chess", "time": "1+0" })),
        )
        .await;
    let id = seek["id"].as_str().unwrap().to_string();
    assert_eq!(seek["colour"], "random");
    assert_eq!(seek["rated"], false);
    ann.ok(Method::DELETE, &format!("/api/seeks/{id}"), None).await;
    assert!(dan.lobby().await["seeks"].as_array().unwrap().is_empty());
    let e = dan
        .fails(
            Method::POST,
            &format!("/api/seeks/{id}/accept"),
            None,
            StatusCode::NOT_FOUND,
        )
        .await;
    assert!(e.contains("cancelled"), "{e}");
    ann.fails(Method::DELETE, &format!("/api/seeks/{id}"), None, StatusCode::NOT_FOUND)
        .await;

    // Three open seeks at most.
    for _ in 0..3 {
        ann.ok(
            Method::POST,
            "/api/seeks",
            Some(json!({ "kind": "chess", "time": "3+2" })),
        )
        .await;
    }
    let e = ann
        .fails(
            Method::POST,
            "/api/seeks",
            Some(json!({ "kind": "chess", "time": "3+2" })),
            StatusCode::CONFLICT,
        )
        .await;
    assert!(e.contains("cancel one first"), "{e}");
    assert_eq!(dan.lobby().await["seeks"].as_array().unwrap().len(), 3);

    rematch(base, &game, &mut ann, winner, &red, &black).await;
    // The rated game was rated into the site's list, once: Ann (who won) up, her opponent down.
    let rating = |name: &str| {
        let url = format!("{base}/api/player/{name}");
        async move {
            let page: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
            page["ratings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["list"] == "online-xiangqi")
                .map(|r| r["state"].clone())
        }
    };
    let mut ann_rating = None;
    for _ in 0..100 {
        ann_rating = rating("ann").await;
        if ann_rating.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let ann_rating = ann_rating.expect("Ann's rated game rated into online-xiangqi");
    let other = rating(winner_name).await.expect("her opponent rated too");
    assert_eq!((&ann_rating["games"], &other["games"]), (&json!(1), &json!(1)));
    assert!(ann_rating["rating"].as_f64().unwrap() > 1500.0, "{ann_rating}");
    assert!(other["rating"].as_f64().unwrap() < 1500.0, "{other}");
    let loser = if winner_name == "bob" { "cid" } else { "bob" };
    assert_eq!(rating(loser).await, None, "who lost the accept race played nothing");
}

/// Ann (red) and the winner of the accept race (black) finish `game`; a rematch swaps them.
async fn rematch(base: &str, game: &str, ann: &mut Browser, bob: &mut Browser, red: &str, black: &str) {
    let path = format!("/api/game/{game}/rematch");
    let e = ann.fails(Method::POST, &path, None, StatusCode::CONFLICT).await;
    assert!(e.contains("not over"), "{e}");
    let mv = |m: &str, t: &str| {
        let (m, t) = (m.to_string(), t.to_string());
        async move {
            common::api(
                base,
                "POST",
                &format!("/api/board/game/{game}/move/{m}"),
                Some(&t),
                None,
            )
            .await
        }
    };
    mv("h2e2", red).await;
    mv("h9g7", black).await;
    common::api(
        base,
        "POST",
        &format!("/api/board/game/{game}/resign"),
        Some(black),
        None,
    )
    .await;
    let state = ann.ok(Method::GET, &path, None).await;
    assert_eq!(
        state,
        json!({ "over": true, "rated": true, "seat": "red", "opponent": true, "offer": null, "game": null })
    );
    // A spectator holds no seat: cannot offer.
    let mut eve = Browser::opened(base).await;
    let e = eve.fails(Method::POST, &path, None, StatusCode::FORBIDDEN).await;
    assert!(e.contains("no seat"), "{e}");
    assert_eq!(eve.ok(Method::GET, &path, None).await["seat"], Value::Null);
    eve.fails(Method::POST, "/api/game/nope/rematch", None, StatusCode::NOT_FOUND)
        .await;

    // Ann offers (twice: the same offer); Bob sees it; Ann withdraws and offers again.
    assert_eq!(ann.ok(Method::POST, &path, None).await["offer"], "yours");
    assert_eq!(ann.ok(Method::POST, &path, None).await["offer"], "yours");
    assert_eq!(bob.ok(Method::GET, &path, None).await["offer"], "theirs");
    bob.fails(Method::DELETE, &path, None, StatusCode::NOT_FOUND).await;
    assert_eq!(ann.ok(Method::DELETE, &path, None).await["offer"], Value::Null);
    assert_eq!(bob.ok(Method::GET, &path, None).await["offer"], Value::Null);
    ann.ok(Method::POST, &path, None).await;

    // Bob accepts: the new game, colours swapped, both bound; both pages find it.
    let done = bob.ok(Method::POST, &path, None).await;
    let next = done["game"].as_str().unwrap().to_string();
    assert_eq!(ann.ok(Method::GET, &path, None).await["game"], next.as_str());
    assert_eq!(ann.seat(&next).await.unwrap().1, "black");
    assert_eq!(bob.seat(&next).await.unwrap().1, "red");
    let again = ann.ok(Method::GET, &format!("/api/game/{next}/rematch"), None).await;
    assert_eq!((&again["over"], &again["rated"]), (&json!(false), &json!(true)));
    // Accepted: it cannot be withdrawn, and offering again changes nothing.
    ann.fails(Method::DELETE, &path, None, StatusCode::CONFLICT).await;
    assert_eq!(bob.ok(Method::POST, &path, None).await["game"], next.as_str());
}

async fn challenge(base: &str) {
    let mut ann = Browser::opened(base).await;
    let mut bob = Browser::opened(base).await;
    let mut cid = Browser::opened(base).await;
    let c = ann
        .ok(
            Method::POST,
            "/api/challenge",
            Some(json!({ "kind": "chess", "time": "5+3", "colour": "second" })),
        )
        .await;
    let (id, game) = (c["id"].as_str().unwrap(), c["game"].as_str().unwrap());
    assert_eq!(c["side"], "black");
    assert_eq!(c["url"], format!("/game/{game}#challenge={id}"));
    assert_eq!(ann.seat(game).await.unwrap().1, "black");
    let take = format!("/api/challenge/{id}/take");
    // The maker opening their own link is at their seat; unknown ids are 404.
    assert_eq!(ann.ok(Method::POST, &take, None).await["side"], "black");
    bob.fails(Method::POST, "/api/challenge/nope/take", None, StatusCode::NOT_FOUND)
        .await;
    // Not a seek: not listed, not acceptable there.
    assert!(!ids(&bob.lobby().await["seeks"]).contains(&id));
    bob.fails(
        Method::POST,
        &format!("/api/seeks/{id}/accept"),
        None,
        StatusCode::NOT_FOUND,
    )
    .await;
    // Bob and Cid open it at once: one plays White, the other watches (409), holding nothing.
    let (rb, rc) = tokio::join!(
        bob.send(Method::POST, &take, None, None),
        cid.send(Method::POST, &take, None, None)
    );
    let (player, watcher) = match (rb.status(), rc.status()) {
        (StatusCode::OK, StatusCode::CONFLICT) => (&mut bob, &mut cid),
        (StatusCode::CONFLICT, StatusCode::OK) => (&mut cid, &mut bob),
        other => panic!("two takes: {other:?}"),
    };
    assert_eq!(player.seat(game).await.unwrap().1, "white");
    assert!(watcher.seat(game).await.is_none());
    let e = watcher.fails(Method::POST, &take, None, StatusCode::CONFLICT).await;
    assert!(e.contains("watched"), "{e}");
    assert_eq!(player.ok(Method::POST, &take, None).await["side"], "white");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_challenges_and_rematches_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("arbiter-seeks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("s.db").display());
    {
        let server = Server::start_with(&url, &[]);
        seeks(&server.base).await;
        challenge(&server.base).await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_challenges_and_rematches_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("seeks_challenges_and_rematches_on_postgresql") else {
        return;
    };
    let server = Server::start_with(&db.url, &[]);
    seeks(&server.base).await;
    challenge(&server.base).await;
}
