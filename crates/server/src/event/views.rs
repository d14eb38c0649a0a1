//! What an event shows: to anyone, its plan, pairings, live games and standings (published
//! ones to the public when the event keeps them back); to an entrant, their own pairing and
//! the game they are to play with their seat in it.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::Json;
use serde_json::{json, Value};
use tournament::competition::render;

use super::tokens;
use super::{event_error, load};
use crate::app::App;
use crate::error::ApiError;

/// The event for anyone: its plan, entrants, every round's pairings with their live games
/// and verdicts, and the standings as the competition model gives them — for an event whose
/// standings are published, as last published, except to its organiser (their token as
/// bearer), who sees them live and as published.
pub(super) async fn show(
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
    let mut stages = serde_json::to_value(&event.stages).map_err(|e| ApiError::not_accepted(e.to_string()))?;
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
        Err(e) => json!({"error": e.message}),
    };
    let as_published = published
        .as_ref()
        .map(|(_, text)| serde_json::from_str::<Value>(text).map_err(|e| ApiError::not_accepted(e.to_string())))
        .transpose()?;
    let mut standings = if served.publish_standings && !organiser {
        as_published.clone().unwrap_or(Value::Null)
    } else {
        live
    };
    // Each player's rating before and after the event, on their lines, once it is rated.
    let rated = super::rating::changes(&app, &id, &served).await?;
    let mut entrants = serde_json::to_value(&event.entrants).map_err(|e| ApiError::not_accepted(e.to_string()))?;
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
pub(super) async fn me(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
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
