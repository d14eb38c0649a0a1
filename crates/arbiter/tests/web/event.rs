//! What the event pages' tests share: a server on a scratch SQLite file, and an event made,
//! filled and started through the API as an organiser would.

use serde_json::{json, Value};

use super::{api, Scratch};
use crate::common::Server;

/// A server for a page test on its own SQLite file in a scratch folder (both gone when dropped; the server
/// first, as fields drop in order).
pub struct EventServer {
    pub server: Server,
    _dir: Scratch,
}

impl EventServer {
    /// `name` tells the scratch folder apart from other tests' running at once.
    pub fn start(name: &str) -> EventServer {
        let dir = std::env::temp_dir().join(format!("arbiter-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let server = Server::start_with(&format!("sqlite://{}?mode=rwc", dir.join("e.db").display()), &[]);
        EventServer {
            server,
            _dir: Scratch(dir),
        }
    }

    pub fn base(&self) -> String {
        self.server.base.clone()
    }
}

/// Creates an event from `body` (the `POST /api/event` request): its id and organiser token.
pub async fn new_event(base: &str, body: Value) -> (String, String) {
    let made = api(base, "POST", "/api/event", None, Some(body)).await;
    (
        made["id"].as_str().unwrap().to_string(),
        made["organiserToken"].as_str().unwrap().to_string(),
    )
}

/// Registers each of `names` (unrated) and returns their player tokens in that order.
pub async fn register(base: &str, event: &str, org: &str, names: &[&str]) -> Vec<String> {
    let mut tokens = Vec::new();
    for name in names {
        let r = api(
            base,
            "POST",
            &format!("/api/event/{event}/register"),
            Some(org),
            Some(json!({ "name": name })),
        )
        .await;
        tokens.push(r["token"].as_str().unwrap().to_string());
    }
    tokens
}

/// Starts the next round: the response lists its pairings.
pub async fn start_round(base: &str, event: &str, org: &str) -> Value {
    api(
        base,
        "POST",
        &format!("/api/event/{event}/round/start"),
        Some(org),
        None,
    )
    .await
}

/// A round robin of two teams on two boards, three members each (the third a reserve: 北京队
/// 甲一–甲三, 上海队 乙一–乙三), its round 1 started: the event, its organiser's token and the
/// captains' tokens in that order.
pub async fn two_teams_started(base: &str) -> (String, String, Vec<String>) {
    let (teams, org) = new_event(
        base,
        json!({"name": "团体赛", "format": "round-robin", "boards": 2, "kind": "xiangqi"}),
    )
    .await;
    let mut captains = Vec::new();
    for (team, members) in [
        ("北京队", ["甲一", "甲二", "甲三"]),
        ("上海队", ["乙一", "乙二", "乙三"]),
    ] {
        let r = api(
            base,
            "POST",
            &format!("/api/event/{teams}/register"),
            Some(&org),
            Some(json!({"name": team, "members": members})),
        )
        .await;
        captains.push(r["token"].as_str().unwrap().to_string());
    }
    start_round(base, &teams, &org).await;
    (teams, org, captains)
}
