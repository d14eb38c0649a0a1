//! Seeks in a cluster: a seek posted on one node is listed on the other, two accepters on two
//! nodes at once give exactly one game (the other a 409), and the seeker's lobby on either node
//! learns of it; the game plays through any node.

use reqwest::header::{COOKIE, SET_COOKIE};
use serde_json::{json, Value};

use super::nodes::{Backing, Node};

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

/// A request with session `cookie` (POST when it has a body or `post`): status and body.
async fn send(
    base: &str,
    path: &str,
    cookie: &str,
    post: bool,
    body: Option<Value>,
    bearer: Option<&str>,
) -> (u16, Value) {
    let http = reqwest::Client::new();
    let mut r = if post || body.is_some() {
        http.post(format!("{base}{path}"))
    } else {
        http.get(format!("{base}{path}"))
    };
    if let Some(b) = body {
        r = r.json(&b);
    }
    if let Some(t) = bearer {
        r = r.bearer_auth(t);
    }
    let r = r
        .header(COOKIE, format!("arbiter_session={cookie}"))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or_default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_posted_on_one_node_is_taken_once_on_any() {
    let Some(b) = Backing::new("cluster_seeks") else {
        return;
    };
    let a = Node::start(&b, "a");
    let c = Node::start(&b, "c");
    let (ann, bob, cid) = (session(&a.base).await, session(&c.base).await, session(&a.base).await);
    let (s, seek) = send(
        &a.base,
        "/api/seeks",
        &ann,
        true,
        Some(json!({ "kind": "xiangqi", "time": "5+3", "colour": "first" })),
        None,
    )
    .await;
    assert_eq!(s, 201, "{seek}");
    let id = seek["id"].as_str().unwrap();
    let (_, listed) = send(&c.base, "/api/seeks", &bob, false, None, None).await;
    assert_eq!(listed["seeks"][0]["id"], id, "node c lists node a's seek: {listed}");

    let accept = format!("/api/seeks/{id}/accept");
    let ((sb, vb), (sc, vc)) = tokio::join!(
        send(&c.base, &accept, &bob, true, None, None),
        send(&a.base, &accept, &cid, true, None, None),
    );
    let (won, lost) = match (sb, sc) {
        (200, 409) => (vb, vc),
        (409, 200) => (vc, vb),
        other => panic!("two accepts on two nodes: {other:?} {vb} {vc}"),
    };
    assert!(lost["error"].as_str().unwrap().contains("another player"), "{lost}");
    let game = won["game"].as_str().unwrap();
    // Ann's lobby, asking on node c, learns of the game; her seat plays through c.
    let (_, lobby) = send(&c.base, "/api/seeks", &ann, false, None, None).await;
    assert_eq!(lobby["mine"][0]["game"], game, "{lobby}");
    let (_, me) = send(&c.base, "/api/me", &ann, false, None, None).await;
    let seat = me["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["game"] == game)
        .unwrap();
    assert_eq!(seat["side"], "red");
    let (s, body) = send(
        &c.base,
        &format!("/api/board/game/{game}/move/h2e2"),
        &ann,
        true,
        None,
        seat["token"].as_str(),
    )
    .await;
    assert_eq!(s, 200, "{body}");
}
