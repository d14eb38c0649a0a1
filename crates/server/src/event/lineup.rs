//! A team's lineup for a pairing (`POST /api/event/{id}/lineup`): who of its roster plays
//! which board, reserves brought in, the roster's order kept ([`Event::set_lineup`]). Set by
//! the organiser for either team, or by a team's own token (its captain's link) for that team.
//!
//! A round's boards are live games from the moment it is paired, seated by the teams' tokens;
//! the lineup names who sits at each. So it may change until play begins on the pairing: not
//! once a board has a move (or has ended), nor once a result is in (the model's own rule).
//!
//! [`Event::set_lineup`]: tournament::competition::Event::set_lineup

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::tokens::{self, Role};
use super::{change_locked, event_error, model_error, served, Done};
use crate::app::App;
use crate::error::{ApiError, Problem};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LineupRequest {
    pairing: String,
    /// The team's entrant number; a captain's link may leave it out (its own team).
    team: Option<u32>,
    /// Board by board, from board 1.
    players: Vec<String>,
}

pub(super) async fn set(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<LineupRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    served(&app, &id).await?;
    let role = tokens::role(&app, &id, &headers).await?;
    let req = super::routes::json_body(body)?;
    let team = match (role, req.team) {
        (Role::Organiser, Some(t)) => t,
        (Role::Organiser, None) => {
            return Err(ApiError::bad_request("team: the entrant number of the team"));
        }
        (Role::Entrant(n), None) => n,
        (Role::Entrant(n), Some(t)) if t == n => n,
        (Role::Entrant(_), Some(_)) => {
            return Err(ApiError::of(
                StatusCode::FORBIDDEN,
                Problem::LineupNotYours,
                "a team's token sets its own team's lineup only",
            ))
        }
    };
    if req.players.len() > 100 || req.players.iter().any(|p| p.len() > 100) {
        return Err(ApiError::bad_request("players: at most 100 names of 100 bytes"));
    }
    let lock = app.events.lock(&id);
    let held = lock.lock().await;
    // The lineup itself first (a bad one is refused as such, a withdrawn team's too, whose
    // boards have ended), on a copy; then whether play has begun.
    let (read, ..) = super::load(&app, &id).await?;
    tournament::competition::Event::clone(&read)
        .set_lineup(&req.pairing, team, &req.players)
        .map_err(model_error)?;
    if let Some(board) = begun(&app, &id, &req.pairing).await? {
        return Err(ApiError::of(
            StatusCode::CONFLICT,
            Problem::LineupStarted,
            format!(
                "play has begun on board {board} of {}: its lineups are fixed",
                req.pairing
            ),
        )
        .arg("pairing", req.pairing.as_str())
        .arg("board", board));
    }
    let (event, version, ()) = change_locked(&app, &id, &held, |e, _| {
        e.set_lineup(&req.pairing, team, &req.players).map_err(model_error)?;
        let by = if role == Role::Organiser {
            "organiser"
        } else {
            "captain"
        };
        let names: Vec<&str> = req.players.iter().map(|p| p.trim()).collect();
        Ok(Done::new(
            format!("lineup {} {team} {} (by the {by})", req.pairing, names.join(",")),
            (),
        ))
    })
    .await?;
    drop(held);
    let p = event.pairing(&req.pairing).ok_or_else(super::not_found)?;
    let lineups = p.lineups.clone().unwrap_or_default();
    Ok(Json(json!({
        "pairing": p.id,
        "team": team,
        "lineups": [lineups.0, lineups.1],
        "version": version,
    })))
}

/// The first board (from 1) of the pairing's live games on which play has begun: a move made,
/// or the game over. The caller holds the event's lock, so no result goes in meanwhile.
async fn begun(app: &App, id: &str, pairing: &str) -> Result<Option<u32>, ApiError> {
    let links = app.db().store().pairing_games(id, pairing).await.map_err(event_error)?;
    let mut boards: Vec<_> = links.iter().filter(|g| g.pairing == pairing).collect();
    boards.sort_by_key(|g| g.game);
    for g in boards {
        let table = app.game(&g.game_id).await?;
        if table.watch().borrow().1 {
            return Ok(Some(g.game));
        }
        let (full, _) = table.full().await?;
        let full: Value = serde_json::from_str(&full).map_err(|e| ApiError::internal(e.to_string()))?;
        if full["state"]["moves"].as_str().is_some_and(|m| !m.trim().is_empty()) {
            return Ok(Some(g.game));
        }
    }
    Ok(None)
}
