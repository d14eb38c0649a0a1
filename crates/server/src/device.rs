//! The board device: one screen at the table on which both players play, each in turn — their
//! moves, offers and their answers, claims, resignations and the clock pressed without a move —
//! with the device's token (bearer), which the game's arbiter makes
//! (`POST /api/arbiter/game/{id}/device`). The side is named in the path; the referee rules
//! each command as it would a seat's (a move out of turn, an offer it does not take, a false
//! claim). The device does nothing of the arbiter's, and no seat token, arbiter token or event
//! token acts as it.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use referee::Command;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::app::App;
use crate::codec::parse_move;
use crate::console::side_of;
use crate::error::{ApiError, Problem};
use crate::table::Table;

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/device/game/{id}/{side}/move/{mv}", post(play))
        .route("/api/device/game/{id}/{side}/draw/{answer}", post(draw))
        .route("/api/device/game/{id}/{side}/claim-draw", post(claim_draw))
        .route("/api/device/game/{id}/{side}/resign", post(resign))
        .route("/api/device/game/{id}/{side}/press-clock", post(press_clock))
}

/// Whether `token` is the game's board device's. In a cluster another node may have made or
/// replaced the device since this one last heard, so the stored hash decides (device commands
/// come at a person's pace: one read each is nothing).
async fn is_device(app: &App, table: &Table, token: &str) -> Result<bool, ApiError> {
    if app.cluster().is_none() {
        return Ok(table.is_device(token));
    }
    let stored = app.db().device(&table.id).await?;
    if let Some(hash) = &stored {
        table.set_device(hash.clone());
    }
    Ok(stored.is_some_and(|h| h == crate::codec::token_hash(token)))
}

/// Runs `command` for `side` once the request's bearer token is the game's device's: 401
/// without a token, 403 with any other.
async fn run(
    app: &App,
    id: &str,
    side: &str,
    headers: &HeaderMap,
    command: impl FnOnce(&Table) -> Result<Command, ApiError>,
) -> Result<Json<Value>, ApiError> {
    let table = app.game(id).await?;
    let token = crate::app::bearer_of(headers).ok_or(ApiError::Unauthorized)?;
    if !is_device(app, &table, token).await? {
        return Err(ApiError::of(
            StatusCode::FORBIDDEN,
            Problem::NotTheDevice,
            "this token is not this game's board device's",
        ));
    }
    let side = side_of(&table, side)?;
    app.may_act(id, side)?;
    let command = command(&table)?;
    let ack = table.act(side, command, 0).await?;
    Ok(Json(json!({
        "ok": true,
        "version": ack.version,
        "status": ack.status,
        "reason": ack.reason,
        "winner": ack.winner,
    })))
}

#[derive(Deserialize)]
struct MoveQuery {
    /// The move goes with a draw offer (as seed 000 has offers made).
    #[serde(rename = "offeringDraw")]
    offering_draw: Option<bool>,
}

async fn play(
    State(app): State<Arc<App>>,
    Path((id, side, mv)): Path<(String, String, String)>,
    Query(q): Query<MoveQuery>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &side, &headers, |t| {
        let m = parse_move(t.spec.kind, &mv)?;
        Ok(if q.offering_draw == Some(true) {
            Command::MoveOfferingDraw(m)
        } else {
            Command::Move(m)
        })
    })
    .await
}

async fn draw(
    State(app): State<Arc<App>>,
    Path((id, side, answer)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &side, &headers, |_| match answer.as_str() {
        // As the board API: `yes` offers, or accepts the other side's standing offer.
        "yes" | "accept" | "true" => Ok(Command::OfferDraw),
        "no" | "decline" | "false" => Ok(Command::DeclineDraw),
        _ => Err(ApiError::bad_request("draw: expected yes or no")),
    })
    .await
}

async fn claim_draw(
    State(app): State<Arc<App>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &side, &headers, |_| Ok(Command::ClaimDraw)).await
}

async fn resign(
    State(app): State<Arc<App>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &side, &headers, |_| Ok(Command::Resign)).await
}

/// The clock pressed without a move: the referee rules it as the ruleset says (a foul).
async fn press_clock(
    State(app): State<Arc<App>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &side, &headers, |_| Ok(Command::PressClock)).await
}
