//! The events API: create, register (by the organiser, or anyone when registration is open),
//! start rounds, enter or correct results, withdraw, a team's lineup ([`super::lineup`]); and the routes to read it all (public) or
//! one's own pairing (an entrant's token) ([`super::views`]), with a stream of the event's
//! changes ([`super::stream`]).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use referee::Command;
use serde::Deserialize;
use serde_json::{json, Value};

use super::create::{event_of, CreateEvent};
use super::tokens::{self, ORGANISER};
use super::{change_locked, event_error, model_error, rounds, served, Done, Extra};
use crate::app::App;
use crate::codec::{random_id, token_hash};
use crate::error::{ApiError, Problem};

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/event", post(create))
        .route("/api/event/{id}", get(super::views::show))
        .route("/api/event/{id}/register", post(register))
        .route("/api/event/{id}/join", post(join))
        .route("/api/event/{id}/round/start", post(start_round))
        .route("/api/event/{id}/round/pause", post(pause_round))
        .route("/api/event/{id}/round/resume", post(resume_round))
        .route("/api/event/{id}/publish", post(publish))
        .route("/api/event/{id}/me", get(super::views::me))
        .route("/api/event/{id}/result", post(result))
        .route("/api/event/{id}/withdraw", post(withdraw))
        .route("/api/event/{id}/lineup", post(super::lineup::set))
        .route("/api/event/{id}/stream", get(super::stream::stream_event))
}

pub(super) fn json_body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(t)| t)
        .map_err(|e| ApiError::malformed(e.status(), e.body_text()))
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
        return Err(ApiError::bad(Problem::EntrantNameLength, "name: 1 to 100 characters").arg("max", 100));
    }
    let token = random_id(32);
    let hash = token_hash(&token);
    let lock = app.events.lock(id);
    let held = lock.lock().await;
    let (_, version, entrant) = change_locked(app, id, &held, |e, served| {
        if open_only && !served.open_registration {
            return Err(ApiError::of(
                StatusCode::FORBIDDEN,
                crate::problem::Problem::RegistrationClosed,
                "registration is not open: the organiser registers players",
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
        return Err(ApiError::bad(Problem::ResultsCount, "results: 1 to 99 of them").arg("max", 99));
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
        return Err(ApiError::bad(Problem::EntrantNumber, "entrants are numbered from 1"));
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
