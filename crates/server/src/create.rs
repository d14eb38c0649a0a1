//! `POST /api/game`: a game made from a request (kind, rules, clock, the creator's seat, the
//! computer as an opponent). The lobby's seeks, challenges and rematches make theirs with
//! [`spec_of`] and [`App::create`] as this does.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use game::Kind;
use referee::clock::Millis;
use serde::Deserialize;
use serde_json::json;

use crate::api::owner_headers;
use crate::app::App;
use crate::computer::{self, ComputerSeat, Level};
use crate::error::{ApiError, Problem};
use crate::live::Spec;

pub(crate) fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/game", post(create))
}

/// A game's settings: the ruleset `online` and the judge's usual rules unless named.
pub(crate) fn spec_of(
    kind: Kind,
    ruleset: Option<String>,
    rules: Option<String>,
    clock: Option<(Millis, Millis)>,
    per_move: Option<Millis>,
) -> Spec {
    Spec {
        kind,
        ruleset: ruleset.unwrap_or_else(|| "online".into()),
        rules: rules.unwrap_or_else(|| if kind == Kind::Xiangqi { "cxa" } else { "fide" }.into()),
        clock,
        per_move,
        rated: false,
        event: false,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    kind: String,
    /// Referee rules; default `online`.
    ruleset: Option<String>,
    /// The judge's rules; default `cxa` (Xiangqi) or `fide` (chess).
    rules: Option<String>,
    /// Seconds, as lichess: `{"limit": 300, "increment": 3}`; `{"limit": 0, "increment": 0}`
    /// for no clock; absent for the ruleset's own.
    clock: Option<ClockRequest>,
    /// The seat the creator plays (`red`/`white`, `black`, or `both`), bound to the session
    /// cookie the request carries (see [`crate::players`]); absent: none is bound.
    seat: Option<String>,
    /// Play the computer: `{"level": 1-8, "side": "black"}` (the side it plays; default the
    /// second, so the person moves first).
    computer: Option<ComputerRequest>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ComputerRequest {
    level: u8,
    side: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    /// Seconds; fractions are taken to the millisecond (`0.5` for half a second).
    limit: f64,
    increment: f64,
    /// Seconds each single move may take at most, besides the main time (the Chinese rules'
    /// per-move limit); absent: none.
    #[serde(rename = "perMove")]
    per_move: Option<f64>,
}

async fn create(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<CreateRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    app.may_create(client.ip())?;
    let Json(req) = body.map_err(|e| ApiError::malformed(e.status(), e.body_text()))?;
    let kind = crate::seeks::kind_of(&req.kind)?;
    // Checked before anything is made: a refused request makes no game.
    let held = match req.seat.as_deref() {
        None => None,
        Some(seat) => {
            let sides = held_sides(kind, seat)?;
            let visitor = crate::players::existing(&app, &headers).await?.ok_or_else(|| {
                ApiError::bad(
                    Problem::NoSession,
                    "seat: the request carries no session cookie (open a page of this server first)",
                )
            })?;
            Some((visitor, sides))
        }
    };
    let (clock, per_move) = match &req.clock {
        Some(c) if !(0.0..=86_400.0).contains(&c.limit) || !(0.0..=3_600.0).contains(&c.increment) => {
            return Err(
                ApiError::bad(Problem::ClockBounds, "clock: limit 0 to 86400 s, increment 0 to 3600 s")
                    .arg("limit", 86_400)
                    .arg("increment", 3_600),
            )
        }
        Some(c) if c.per_move.is_some_and(|p| !(1.0..=3_600.0).contains(&p)) => {
            return Err(ApiError::bad(Problem::PerMoveBounds, "clock: perMove 1 to 3600 s").arg("max", 3_600))
        }
        Some(c) => (
            Some(((c.limit * 1000.0).round() as u64, (c.increment * 1000.0).round() as u64)),
            c.per_move.map(|p| (p * 1000.0).round() as u64),
        ),
        None => (None, None),
    };
    let spec = spec_of(kind, req.ruleset, req.rules, clock, per_move);
    // Checked before the game is made: a refused request makes nothing.
    let computer = match &req.computer {
        Some(c) => {
            let level = Level::new(c.level)?;
            let side = match c.side.as_deref() {
                None => game::Side::Second,
                Some(name) => computer::side_named(kind, name).ok_or_else(|| {
                    ApiError::bad(
                        Problem::ComputerSide,
                        format!("computer side {name:?}: not a side of {}", spec.kind_name()),
                    )
                    .arg("side", name)
                })?,
            };
            app.engines().require(kind)?;
            if !app.computers().has_room() {
                let games = app.computers().limit();
                return Err(ApiError::of(
                    StatusCode::SERVICE_UNAVAILABLE,
                    Problem::ComputerBusy,
                    format!(
                        "the computer is playing as many games as this server allows ({games}): try again in a few minutes"
                    ),
                ));
            }
            Some(ComputerSeat { side, level })
        }
        None => None,
    };
    let created = app.create_with(spec.clone(), computer).await?;
    // The computer plays from the node that runs the game: in a cluster, one made on another
    // node is loaded there now, so its computer sits down without waiting for a request.
    if let (Some(_), Some(node), Some(_)) = (computer, app.cluster(), &created.node) {
        let table = app.game(&created.id).await?;
        if !table.is_local() {
            if let Err(e) = node.run(&table, crate::table::Op::Load).await {
                tracing::warn!(game = %created.id, error = %e, "could not load the computer's game on its node");
            }
        }
    }
    // The game is made: a seat that could not be bound leaves it made all the same, its
    // tokens answered (the links still seat their holders).
    if let Some((visitor, sides)) = &held {
        // The computer's seat is nobody's.
        for side in sides.iter().filter(|s| computer.is_none_or(|c| c.side != **s)) {
            let token = &created.tokens[*side];
            if let Err(e) = crate::players::routes::bind(&app, visitor, &created.id, *side, token).await {
                tracing::warn!(game = %created.id, error = %e, "could not bind the creator's seat to the session");
            }
        }
    }
    // The token rides in the link's fragment, which browsers keep to themselves: it reaches
    // no server's log, nor a `Referer`.
    let seats = |side: game::Side| {
        let name = side.name(kind);
        // The computer's seat has no token: nobody else may play it.
        if let Some(c) = computer.filter(|c| c.side == side) {
            return json!({ "side": name, "computer": c.level.number() });
        }
        let token = &created.tokens[side];
        json!({ "side": name, "token": token, "url": format!("/game/{}#seat={token}&side={name}", created.id) })
    };
    let mut answer = json!({
        "id": created.id,
        "kind": spec.kind_name(),
        "ruleset": spec.ruleset,
        "rules": spec.rules,
        "stream": format!("/api/board/game/stream/{}", created.id),
        "seats": [seats(game::Side::First), seats(game::Side::Second)],
        // For the arbiter at the board (`/api/arbiter/…`): no seat, and no seat token acts as it.
        "arbiter": { "token": created.arbiter, "url": format!("/game/{}#arbiter={}", created.id, created.arbiter) },
    });
    if let Some(owner) = &created.node {
        answer["node"] = json!({ "name": owner.name, "url": owner.url });
    }
    Ok((owner_headers(created.node.as_ref()), Json(answer)).into_response())
}

/// The sides a creator's `seat` names in a game of `kind`.
pub(crate) fn held_sides(kind: Kind, seat: &str) -> Result<Vec<game::Side>, ApiError> {
    use game::Side;
    match seat {
        "both" => Ok(Side::BOTH.to_vec()),
        "first" => Ok(vec![Side::First]),
        "second" => Ok(vec![Side::Second]),
        s => Side::BOTH
            .into_iter()
            .find(|side| side.name(kind) == s)
            .map(|side| vec![side])
            .ok_or_else(|| {
                let (first, second) = (Side::First.name(kind), Side::Second.name(kind));
                ApiError::bad(
                    Problem::UnknownSeat,
                    format!("seat: expected {first}, {second} or both"),
                )
                .arg("first", first)
                .arg("second", second)
            }),
    }
}
