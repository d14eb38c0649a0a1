//! A browser's session works on every node: made by a page of one, its seats found, played
//! and bound through another, and an account made through one signed into through the other.

use reqwest::header::{COOKIE, SET_COOKIE};
use serde_json::{json, Value};

use super::nodes::{Backing, Node};

/// A request with the session cookie `cookie`; the status, the body, and the session a
/// `Set-Cookie` gave (if any).
async fn send(
    base: &str,
    path: &str,
    cookie: &str,
    body: Option<Value>,
    bearer: Option<&str>,
) -> (u16, Value, Option<String>) {
    let http = reqwest::Client::new();
    let mut r = match body {
        Some(b) => http.post(format!("{base}{path}")).json(&b),
        None if path.contains("/move/") || path.ends_with("logout") => http.post(format!("{base}{path}")),
        None => http.get(format!("{base}{path}")),
    };
    r = r.header(COOKIE, format!("arbiter_session={cookie}"));
    if let Some(t) = bearer {
        r = r.bearer_auth(t);
    }
    let r = r.send().await.unwrap();
    let set = r
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok()?.strip_prefix("arbiter_session="))
        .map(|v| v.split(';').next().unwrap().to_string())
        .next();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or_default(), set)
}

/// A page's session on `base`: its cookie.
async fn session(base: &str) -> String {
    let r = reqwest::get(format!("{base}/")).await.unwrap();
    let v = r.headers()[SET_COOKIE].to_str().unwrap();
    v.strip_prefix("arbiter_session=")
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_and_its_account_work_on_every_node() {
    let Some(b) = Backing::new("cluster_players") else {
        return;
    };
    let a = Node::start(&b, "a");
    let c = Node::start(&b, "c");
    let ann = session(&a.base).await;
    let (s, game, _) = send(
        &a.base,
        "/api/game",
        &ann,
        Some(json!({ "kind": "chess", "seat": "white" })),
        None,
    )
    .await;
    assert_eq!(s, 200, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    let white = game["seats"][0]["token"].as_str().unwrap().to_string();
    let black = game["seats"][1]["token"].as_str().unwrap().to_string();

    // Ann's other tab reaches node c: the same seat, and it plays there.
    let (s, me, set) = send(&c.base, "/api/me", &ann, None, None).await;
    assert_eq!((s, set), (200, None), "the session is known on c");
    assert_eq!(me["seats"], json!([{ "game": id, "side": "white", "token": white }]));
    let (s, body, _) = send(
        &c.base,
        &format!("/api/board/game/{id}/move/e2e4"),
        &ann,
        None,
        Some(&white),
    )
    .await;
    assert_eq!(s, 200, "{body}");

    // Bob's browser, made on c, opens the black link through a.
    let bob = session(&c.base).await;
    let (s, body, _) = send(
        &a.base,
        "/api/me/seat",
        &bob,
        Some(json!({ "game": id, "token": black })),
        None,
    )
    .await;
    assert_eq!(s, 200, "{body}");
    let (_, me, _) = send(&c.base, "/api/me", &bob, None, None).await;
    assert_eq!(me["seats"], json!([{ "game": id, "side": "black", "token": black }]));

    // An account made through c; a second device signs in through a and holds the seat.
    let (s, me, signed) = send(
        &c.base,
        "/api/account",
        &ann,
        Some(json!({ "name": "Ann", "password": "correct horse" })),
        None,
    )
    .await;
    assert_eq!(s, 200, "{me}");
    let signed = signed.expect("a new session id");
    let (_, me, _) = send(&a.base, "/api/me", &signed, None, None).await;
    assert_eq!(me["account"], "Ann");
    let phone = session(&a.base).await;
    let (s, me, _) = send(
        &a.base,
        "/api/login",
        &phone,
        Some(json!({ "name": "ann", "password": "correct horse" })),
        None,
    )
    .await;
    assert_eq!(s, 200, "{me}");
    assert_eq!(me["seats"], json!([{ "game": id, "side": "white", "token": white }]));
    let (s, player, _) = send(&c.base, "/api/player/Ann", &bob, None, None).await;
    assert_eq!(s, 200);
    assert_eq!(player["games"][0]["id"], id.as_str());
}
