//! The games to watch: the lobby's list of the games being played now, each with its players'
//! names (or the computer's level) and the link that opens it for a spectator.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use game::{Kind, Side};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::app::App;
use crate::computer::ComputerSeat;
use crate::error::ApiError;
use crate::players::seated::Seated;

/// Games listed by default, and at most.
const LISTED: u32 = 12;
const LISTED_MAX: u32 = 50;

pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/games/live", get(live))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    limit: Option<u32>,
}

async fn live(
    State(app): State<Arc<App>>,
    params: Result<Query<Params>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(params) = params.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let limit = params.limit.unwrap_or(LISTED);
    if !(1..=LISTED_MAX).contains(&limit) {
        return Err(ApiError::bad_request(format!("limit: 1 to {LISTED_MAX}")));
    }
    let games = app.db().store().live_games(limit).await?;
    let games: Vec<Value> = games
        .iter()
        .map(|g| {
            let kind = g.kind.parse::<Kind>().unwrap_or(Kind::Chess);
            let seated = Seated {
                names: g.names.clone().into(),
                computer: g.computer.as_deref().and_then(ComputerSeat::parse),
            };
            json!({
                "id": g.game_id,
                "kind": kind.name(),
                "createdAt": g.created_unix_ms,
                "players": [seated.listed(kind, Side::First), seated.listed(kind, Side::Second)],
                "url": format!("/game/{}#watch", g.game_id),
            })
        })
        .collect();
    Ok(Json(json!({ "games": games })))
}
