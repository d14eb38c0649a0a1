//! The events API: create, register (by the organiser, or anyone when registration is open),
//! start rounds, enter or correct results, withdraw, and read it all (public) or one's own
//! pairing (an entrant's token), with a stream of the event's changes.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream;
use referee::Command;
use serde::Deserialize;
use serde_json::{json, Value};
use tournament::competition::render;

use super::create::{event_of, CreateEvent};
use super::tokens::{self, ORGANISER};
use super::{change_locked, event_error, load, model_error, rounds, served, Done, Extra};
use crate::app::App;
use crate::codec::{random_id, token_hash};
use crate::error::ApiError;

/// A blank line this often keeps an idle stream open through proxies.
const KEEPALIVE: Duration = Duration::from_secs(7);

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/event", post(create))
        .route("/api/event/{id}", get(show))
        .route("/api/event/{id}/register", post(register))
        .route("/api/event/{id}/join", post(join))
        .route("/api/event/{id}/round/start", post(start_round))
        .route("/api/event/{id}/round/pause", post(pause_round))
        .route("/api/event/{id}/round/resume", post(resume_round))
        .route("/api/event/{id}/publish", post(publish))
        .route("/api/event/{id}/me", get(me))
        .route("/api/event/{id}/result", post(result))
        .route("/api/event/{id}/withdraw", post(withdraw))
        .route("/api/event/{id}/stream", get(stream_event))
}

fn json_body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(t)| t)
        .map_err(|e| ApiError::Status(e.status(), e.body_text()))
}

async fn create(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    body: Result<Json<CreateEvent>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    app.may_create(client.ip())?;
    let req = json_body(body)?;
    let (event, served) = event_of(&req)?;
    super::rating::check_list(&app, &served).await?;
    let id = random_id(8);
    let token = random_id(32);
    app.db()
        .store()
        .create_served_event(&id, &event.to_text(), &served, &token_hash(&token))
        .await
        .map_err(event_error)?;
    app.events.saved(&id, 1);
    Ok(Json(json!({
        "id": id,
        "name": event.name,
        "organiserToken": token,
        "url": format!("/event/{id}#organiser={token}"),
        "stream": format!("/api/event/{id}/stream"),
        "version": 1,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Registration {
    name: String,
    rating: Option<u32>,
    club: Option<String>,
    /// A team's players in board order (reserves after the boards).
    members: Option<Vec<String>>,
}

/// Registers an entrant and gives them their token (returned once; its hash is kept).
async fn add_entrant(app: &App, id: &str, reg: Registration, open_only: bool) -> Result<Json<Value>, ApiError> {
    if reg.name.trim().is_empty() || reg.name.len() > 100 {
        return Err(ApiError::BadRequest("name: 1 to 100 characters".into()));
    }
    let token = random_id(32);
    let hash = token_hash(&token);
    let lock = app.events.lock(id);
    let held = lock.lock().await;
    let (_, version, entrant) = change_locked(app, id, &held, |e, served| {
        if open_only && !served.open_registration {
            return Err(ApiError::Status(
                StatusCode::FORBIDDEN,
                "registration is not open: the organiser registers players".into(),
            ));
        }
        let n = e
            .register(
                &reg.name,
                reg.rating.unwrap_or(0),
                reg.club.as_deref().unwrap_or(""),
                reg.members.as_deref().unwrap_or_default(),
            )
            .map_err(model_error)?;
        let how = if open_only { "joined" } else { "registered" };
        Ok(
            Done::new(format!("register {n} {} ({how})", reg.name.trim()), n).with(Extra::Token {
                hash: hash.clone(),
                entrant: n,
            }),
        )
    })
    .await?;
    Ok(Json(json!({
        "entrant": entrant,
        "name": reg.name.trim(),
        "token": token,
        // In the fragment, which browsers keep to themselves.
        "url": format!("/event/{id}#player={token}"),
        "version": version,
    })))
}

async fn register(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<Registration>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    served(&app, &id).await?;
    tokens::organiser(&app, &id, &headers).await?;
    add_entrant(&app, &id, json_body(body)?, false).await
}

async fn join(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    body: Result<Json<Registration>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    app.may_create(client.ip())?;
    add_entrant(&app, &id, json_body(body)?, true).await
}

async fn start_round(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    served(&app, &id).await?;
    tokens::organiser(&app, &id, &headers).await?;
    let (round, version) = rounds::start(&app, &id).await?;
    let links = app.db().store().event_games(&id).await.map_err(event_error)?;
    let pairings: Vec<Value> = round
        .pairings
        .iter()
        .map(|p| {
            let games: Vec<&str> = links
                .iter()
                .filter(|g| g.pairing == p.id)
                .map(|g| g.game_id.as_str())
                .collect();
            json!({"id": p.id, "first": p.first, "second": p.second, "games": games})
        })
        .collect();
    Ok(Json(json!({
        "round": round.number,
        "draw": round.draw,
        "pairings": pairings,
        "version": version,
    })))
}

async fn pause_round(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    served(&app, &id).await?;
    tokens::organiser(&app, &id, &headers).await?;
    Ok(Json(super::control::pause(&app, &id, true).await?))
}

async fn resume_round(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    served(&app, &id).await?;
    tokens::organiser(&app, &id, &headers).await?;
    Ok(Json(super::control::pause(&app, &id, false).await?))
}

async fn publish(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    served(&app, &id).await?;
    tokens::organiser(&app, &id, &headers).await?;
    Ok(Json(super::control::publish(&app, &id).await?))
}

/// The event for anyone: its plan, entrants, every round's pairings with their live games
/// and verdicts, and the standings as the competition model gives them — for an event whose
/// standings are published, as last published, except to its organiser (their token as
/// bearer), who sees them live and as published.
async fn show(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let (event, version, served) = load(&app, &id).await?;
    // Any other token, or none, sees what the public sees.
    let organiser = headers.contains_key(header::AUTHORIZATION)
        && tokens::role(&app, &id, &headers).await.ok() == Some(tokens::Role::Organiser);
    let published = app.db().store().published_standings(&id).await.map_err(event_error)?;
    let links = app.db().store().event_games(&id).await.map_err(event_error)?;
    let mut stages = serde_json::to_value(&event.stages).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    for (s, stage) in stages.as_array_mut().into_iter().flatten().enumerate() {
        // Rounds the model keeps compact are shown in full, as every round is.
        if let Some(stage) = stage.as_object_mut() {
            if stage.remove("compact").is_some() {
                let rounds: Vec<_> = event.stage_rounds(s).collect();
                stage.insert("rounds".into(), json!(rounds));
            }
        }
        for key in ["rounds", "playoffs"] {
            let Some(rounds) = stage.get_mut(key).and_then(Value::as_array_mut) else {
                continue;
            };
            for p in rounds
                .iter_mut()
                .flat_map(|r| r["pairings"].as_array_mut().into_iter().flatten())
            {
                let pid = p["id"].as_str().unwrap_or("").to_string();
                let live: Vec<Value> = links
                    .iter()
                    .filter(|g| g.pairing == pid)
                    .map(|g| json!({"game": g.game, "id": g.game_id, "entered": g.entered}))
                    .collect();
                p["verdict"] = json!(event.verdict(&pid));
                p["liveGames"] = live.into();
            }
        }
    }
    let live = match event.standings() {
        Ok(t) => json!(t),
        Err(e) => json!({"error": e.0}),
    };
    let as_published = published
        .as_ref()
        .map(|(_, text)| serde_json::from_str::<Value>(text).map_err(|e| ApiError::BadRequest(e.to_string())))
        .transpose()?;
    let mut standings = if served.publish_standings && !organiser {
        as_published.clone().unwrap_or(Value::Null)
    } else {
        live
    };
    // Each player's rating before and after the event, on their lines, once it is rated.
    let rated = super::rating::changes(&app, &id, &served).await?;
    let mut entrants = serde_json::to_value(&event.entrants).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    for line in entrants.as_array_mut().into_iter().flatten().chain(
        standings
            .as_array_mut()
            .into_iter()
            .flatten()
            .flat_map(|t| t["lines"].as_array_mut().into_iter().flatten()),
    ) {
        let name = line["id"].as_u64().map(|n| event.name_of(n as u32)).unwrap_or_default();
        if let Some(r) = rated.get(&name) {
            line["rating"] = r.clone();
        }
    }
    Ok(Json(json!({
        "id": id,
        "name": event.name,
        "version": version,
        "plan": event.plan,
        "settings": event.settings,
        "kind": served.kind.name(),
        "ruleset": served.ruleset,
        "rules": served.rules,
        "clock": served.clock.map(|(l, i)| json!({"initial": l, "increment": i})),
        "openRegistration": served.open_registration,
        "entrants": entrants,
        "ratingList": served.rating_list.as_ref().map(|l| &l.0),
        "rated": !rated.is_empty(),
        "paused": served.paused,
        "publishStandings": served.publish_standings,
        "published": published.as_ref().map(|(v, _)| v),
        "stages": stages,
        "open": event.open_pairing_ids(),
        "finished": event.finished(),
        "standings": standings,
        "publishedStandings": if organiser { as_published.unwrap_or(Value::Null) } else { Value::Null },
    })))
}

/// An entrant's own view: their current pairing, their opponent, and the live game they are
/// to play now with the seat their token holds in it.
async fn me(State(app): State<Arc<App>>, Path(id): Path<String>, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let (event, version, served) = load(&app, &id).await?;
    let n = tokens::entrant(&app, &id, &headers).await?;
    let token = tokens::bearer(&headers)?;
    let entrant = event.entrant(n).ok_or_else(super::not_found)?;
    // The last round the entrant is paired in: play-offs, then the rounds from the last (those
    // kept compact materialised one at a time, only as far back as needed).
    let s = event.stages.len().saturating_sub(1);
    let current = event.stages.last().and_then(|stage| {
        let mine = |p: &&tournament::competition::Pairing| p.first == n || p.second == Some(n);
        let playoff = stage
            .playoffs
            .iter()
            .rev()
            .find_map(|r| r.pairings.iter().find(mine).map(|p| (r.number, p.clone())));
        playoff.or_else(|| {
            (1..=stage.round_count()).rev().find_map(|k| {
                let r = event.stage_round(s, k)?;
                r.pairings.iter().find(mine).map(|p| (r.number, p.clone()))
            })
        })
    });
    let mut pairing = Value::Null;
    let mut game = Value::Null;
    if let Some((round, p)) = &current {
        let opponent = if p.first == n { p.second } else { Some(p.first) };
        pairing = json!({
            "id": p.id,
            "round": round,
            "opponent": opponent.map(|o| json!({"id": o, "name": event.name_of(o)})),
            "verdict": event.verdict(&p.id),
            "score": render::score(&event, s, p),
        });
        let links = app.db().store().pairing_games(&id, &p.id).await.map_err(event_error)?;
        if event.settings.boards > 0 {
            // A team's token seats its players on every board: each board's game and side.
            let boards: Vec<Value> = links
                .iter()
                .filter(|g| g.pairing == p.id)
                .map(|g| {
                    let us_red = (p.first == n) == event.first_red(g.game);
                    let side = if us_red { game::Side::First } else { game::Side::Second }.name(served.kind);
                    let player = event.board_player(
                        p,
                        if p.first == n {
                            tournament::competition::Side::First
                        } else {
                            tournament::competition::Side::Second
                        },
                        event.board_index(g.game),
                    );
                    // A tie's play-off match is on the same boards: its games follow the match's.
                    json!({"board": event.board_index(g.game) + 1, "game": g.game, "id": g.game_id, "side": side, "player": player,
                        "url": format!("/game/{}#seat={token}&side={side}&event={id}", g.game_id), "resultEntered": g.entered})
                })
                .collect();
            pairing["boards"] = boards.into();
        }
        if let Some(g) = links.iter().filter(|g| g.pairing == p.id).max_by_key(|g| g.game) {
            // The first-named has red (white) in odd games (boards), as the model says.
            let first_red = event.first_red(g.game);
            let side = if (p.first == n) == first_red {
                game::Side::First
            } else {
                game::Side::Second
            };
            let side = side.name(served.kind);
            game = json!({
                "id": g.game_id,
                "number": g.game,
                "side": side,
                "seatToken": token,
                "url": format!("/game/{}#seat={token}&side={side}&event={id}", g.game_id),
                "stream": format!("/api/board/game/stream/{}", g.game_id),
                "resultEntered": g.entered,
            });
        }
    }
    Ok(Json(json!({
        "event": id,
        "version": version,
        "entrant": {"id": n, "name": entrant.name, "withdrawn": entrant.withdrawn},
        "pairing": pairing,
        "game": game,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultRequest {
    pairing: String,
    /// The games' results in order, each as its scoresheet reads (`1-0`, `0-1`, `1/2`, `+-`,
    /// `-+`, `--`).
    results: Vec<String>,
    #[serde(default)]
    replace: bool,
    /// Why: goes into the change log.
    reason: String,
}

async fn result(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<ResultRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    served(&app, &id).await?;
    tokens::organiser(&app, &id, &headers).await?;
    let req = json_body(body)?;
    if req.results.is_empty() || req.results.len() > 99 {
        return Err(ApiError::BadRequest("results: 1 to 99 of them".into()));
    }
    let (answer, _) =
        super::decide::organiser_result(&app, &id, &req.pairing, &req.results, req.replace, &req.reason).await?;
    Ok(Json(answer))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WithdrawRequest {
    entrant: u32,
}

async fn withdraw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<WithdrawRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    served(&app, &id).await?;
    tokens::organiser(&app, &id, &headers).await?;
    let who = json_body(body)?.entrant;
    if who == ORGANISER {
        return Err(ApiError::BadRequest("entrants are numbered from 1".into()));
    }
    let lock = app.events.lock(&id);
    let held = lock.lock().await;
    let (event, version, forfeited) = change_locked(&app, &id, &held, |e, _| {
        let forfeited = e.withdraw(who).map_err(model_error)?;
        Ok(Done::new(format!("withdraw {who}"), forfeited))
    })
    .await?;
    // Their boards still in play end: they resign (the pairings are already forfeited).
    let links = app.db().store().event_games(&id).await.map_err(event_error)?;
    for g in links.iter().filter(|g| !g.entered && forfeited.contains(&g.pairing)) {
        let Some(p) = event.pairing(&g.pairing) else { continue };
        let first_red = event.first_red(g.game);
        let side = if (p.first == who) == first_red {
            game::Side::First
        } else {
            game::Side::Second
        };
        if let Ok(table) = app.game(&g.game_id).await {
            let _ = table.act(side, Command::Resign, 0).await;
        }
    }
    rounds::make_games(&app, &id, &event).await?;
    drop(held);
    Ok(Json(json!({
        "entrant": who,
        "forfeited": forfeited,
        "version": version,
    })))
}

#[derive(Deserialize)]
struct StreamQuery {
    since: Option<u64>,
}

type StreamState = (
    Arc<App>,
    String,
    tokio::sync::watch::Receiver<u64>,
    u64,
    VecDeque<String>,
    tokio::sync::watch::Receiver<bool>,
);

/// One NDJSON line per change of the event, with its version: without `since`, from the
/// latest change on; with it, every change after that version.
async fn stream_event(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<StreamQuery>,
) -> Result<Response, ApiError> {
    let (_, version, _) = load(&app, &id).await?;
    let rx = app.events.watch(&id);
    let sent = q.since.unwrap_or(version.saturating_sub(1));
    let closing = app.closing();
    let lines = stream::unfold((app, id, rx, sent, VecDeque::new(), closing), next_change);
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(lines),
    )
        .into_response())
}

async fn next_change(
    (app, id, mut rx, mut sent, mut pending, mut closing): StreamState,
) -> Option<(Result<String, Infallible>, StreamState)> {
    loop {
        if *closing.borrow_and_update() {
            return None;
        }
        if let Some(line) = pending.pop_front() {
            return Some((Ok(line + "\n"), (app, id, rx, sent, pending, closing)));
        }
        rx.borrow_and_update();
        let log = app.db().store().event_log(&id).await.ok()?;
        let from = sent;
        for c in log.into_iter().filter(|c| c.version > from) {
            sent = c.version;
            pending.push_back(json!({"version": c.version, "action": c.action, "at": c.at}).to_string());
        }
        if !pending.is_empty() {
            continue;
        }
        tokio::select! {
            changed = tokio::time::timeout(KEEPALIVE, rx.changed()) => match changed {
                Ok(Ok(())) => {}
                Ok(Err(_)) => return None,
                Err(_) => return Some((Ok("\n".into()), (app, id, rx, sent, pending, closing))),
            },
            _ = closing.changed() => return None,
        }
    }
}
