//! The lobby's seeks (`/api/seeks`) and challenges by link (`/api/challenge`).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use game::Side;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{kind_of, make_game, player, preset_named, seated, seek_json, side_code, side_of, Player, SEEN_FOR_MS};
use crate::app::App;
use crate::codec::random_id;
use crate::db::now_unix_ms;
use crate::error::{ApiError, Problem};

/// Open seeks a visitor may have at once.
const OWN_MAX: usize = 3;
/// Characters of a seek's id (a challenge's id seats whoever has it first: as long as a token).
const SEEK_ID_LEN: usize = 12;
const CHALLENGE_ID_LEN: usize = 24;

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/seeks", get(list).post(create))
        .route("/api/seeks/{id}", delete(cancel))
        .route("/api/seeks/{id}/accept", post(accept))
        .route("/api/challenge", post(challenge))
        .route("/api/challenge/{id}/take", post(take))
        .merge(super::rematch::routes())
}

/// What a seek or a challenge asks for.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeekRequest {
    /// `xiangqi` or `chess`.
    kind: String,
    /// A preset's name (see [`super::PRESETS`]).
    time: String,
    #[serde(default)]
    rated: bool,
    /// `first`, `second` or `random` (the seat the seeker plays); default random.
    colour: Option<String>,
}

/// The request checked: its kind, preset and colour.
struct Asked {
    kind: game::Kind,
    preset: &'static super::Preset,
    rated: bool,
    colour: &'static str,
}

fn asked(body: Result<Json<SeekRequest>, JsonRejection>) -> Result<Asked, ApiError> {
    let Json(req) = body.map_err(|e| ApiError::malformed(e.status(), e.body_text()))?;
    let kind = kind_of(&req.kind)?;
    let preset = preset_named(&req.time)?;
    let colour = match req.colour.as_deref().unwrap_or("random") {
        "first" => "first",
        "second" => "second",
        "random" => "random",
        _ => {
            return Err(ApiError::bad(
                Problem::UnknownColour,
                "colour: expected first, second or random",
            ))
        }
    };
    Ok(Asked {
        kind,
        preset,
        rated: req.rated,
        colour,
    })
}

/// The seat the maker of a seek asking for `colour` plays.
fn maker_side(colour: &str) -> Side {
    match colour {
        "first" => Side::First,
        "second" => Side::Second,
        _ if rand::random::<bool>() => Side::First,
        _ => Side::Second,
    }
}

fn cutoff() -> i64 {
    now_unix_ms() - SEEN_FOR_MS
}

/// The open seeks of others, and the asker's own (an accepted one with its game, once: the
/// seeker's lobby goes to it). Asking keeps the asker's own seeks listed.
async fn list(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let me = crate::players::existing(&app, &headers).await?;
    // Without a session, nobody's: a holder no row has.
    let holder = me
        .map(|v| store::players::holder_of(&v.hash, &v.session))
        .unwrap_or_default();
    let store = app.db().store();
    let seeks = store.lobby_seeks(&holder, cutoff(), now_unix_ms()).await?;
    let (mine, others): (Vec<_>, Vec<_>) = seeks.iter().partition(|s| s.holder == holder);
    for s in mine.iter().filter(|s| s.game_id.is_some()) {
        store.delivered_seek(&s.id).await?;
    }
    Ok(Json(json!({
        "seeks": others.iter().map(|s| seek_json(s, false)).collect::<Vec<_>>(),
        "mine": mine.iter().map(|s| seek_json(s, true)).collect::<Vec<_>>(),
    })))
}

async fn create(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<SeekRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let asked = asked(body)?;
    let me = player(&app, &headers).await?;
    me.may_play_rated(asked.rated)?;
    app.may_create(client.ip())?;
    let store = app.db().store();
    let own = store.lobby_seeks(&me.holder, cutoff(), now_unix_ms()).await?;
    if own
        .iter()
        .filter(|s| s.holder == me.holder && s.taker.is_none())
        .count()
        >= OWN_MAX
    {
        return Err(ApiError::of(
            StatusCode::CONFLICT,
            Problem::TooManySeeks,
            format!("you have {OWN_MAX} open seeks already: cancel one first"),
        )
        .arg("max", OWN_MAX));
    }
    let id = random_id(SEEK_ID_LEN);
    store
        .create_seek(&store::NewSeek {
            id: &id,
            mode: "seek",
            holder: &me.holder,
            name: me.name.as_deref(),
            kind: asked.kind.name(),
            time_control: asked.preset.name,
            rated: asked.rated,
            colour: asked.colour,
            source_game: None,
            game: None,
            now_unix_ms: now_unix_ms(),
        })
        .await?;
    let seek = store.seek(&id).await?.ok_or(ApiError::NotFound)?;
    Ok((StatusCode::CREATED, Json(seek_json(&seek, true))).into_response())
}

fn no_seek() -> ApiError {
    ApiError::of(
        StatusCode::NOT_FOUND,
        Problem::NoSuchSeek,
        "no such seek (cancelled, taken, or its seeker left)",
    )
}

async fn cancel(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = player(&app, &headers).await?;
    let store = app.db().store();
    let seek = store
        .seek(&id)
        .await?
        .filter(|s| s.mode == "seek")
        .ok_or_else(no_seek)?;
    if seek.holder != me.holder {
        return Err(ApiError::of(
            StatusCode::FORBIDDEN,
            Problem::SeekNotYours,
            "this seek is not yours",
        ));
    }
    if !store.cancel_seek(&id, &me.holder).await? {
        return Err(ApiError::of(
            StatusCode::CONFLICT,
            Problem::SeekAccepted,
            "this seek was accepted already",
        ));
    }
    Ok(Json(json!({ "id": id, "cancelled": true })))
}

/// Accepts another's seek: the game is made, the seeker's seat bound to the seeker and the
/// other to the accepter.
async fn accept(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = player(&app, &headers).await?;
    let store = app.db().store();
    let seek = store
        .seek(&id)
        .await?
        .filter(|s| s.mode == "seek" && (s.taker.is_some() || s.seen_unix_ms >= cutoff()))
        .ok_or_else(no_seek)?;
    if seek.holder == me.holder {
        return Err(ApiError::of(
            StatusCode::FORBIDDEN,
            Problem::OwnSeek,
            "you cannot accept your own seek",
        ));
    }
    if seek.taker.is_some() {
        return Err(taken());
    }
    me.may_play_rated(seek.rated)?;
    let kind = kind_of(&seek.kind)?;
    let preset = preset_named(&seek.time_control)?;
    app.may_create(client.ip())?;
    if !store.take_seek(&id, &me.holder, cutoff()).await? {
        return Err(taken());
    }
    let seeker = maker_side(&seek.colour);
    let holders = seated(seeker, &seek.holder, Some(&me.holder));
    let created = match make_game(&app, preset.spec(kind), seek.rated, holders).await {
        Ok(c) => c,
        Err(e) => {
            // Nobody has a game: the seek is open again.
            store.release_seek(&id, &me.holder).await?;
            return Err(e);
        }
    };
    store.seek_made(&id, &created.id, side_code(seeker)).await?;
    Ok(Json(json!({
        "game": created.id,
        "side": seeker.other().name(kind),
        "url": format!("/game/{}", created.id),
    })))
}

fn no_challenge() -> ApiError {
    ApiError::of(StatusCode::NOT_FOUND, Problem::NoSuchChallenge, "no such challenge")
}

fn taken() -> ApiError {
    ApiError::of(
        StatusCode::CONFLICT,
        Problem::SeekTaken,
        "this seek was accepted by another player",
    )
}

/// A challenge by link: the game made now, the maker's seat bound to them; the link seats the
/// first other visitor who opens it.
async fn challenge(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<SeekRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let asked = asked(body)?;
    let me: Player = player(&app, &headers).await?;
    me.may_play_rated(asked.rated)?;
    app.may_create(client.ip())?;
    let side = maker_side(asked.colour);
    let holders = seated(side, &me.holder, None);
    let created = make_game(&app, asked.preset.spec(asked.kind), asked.rated, holders).await?;
    let id = random_id(CHALLENGE_ID_LEN);
    app.db()
        .store()
        .create_seek(&store::NewSeek {
            id: &id,
            mode: "challenge",
            holder: &me.holder,
            name: me.name.as_deref(),
            kind: asked.kind.name(),
            time_control: asked.preset.name,
            rated: asked.rated,
            colour: asked.colour,
            source_game: None,
            game: Some((&created.id, side_code(side), &created.tokens[side.other()])),
            now_unix_ms: now_unix_ms(),
        })
        .await?;
    let answer = json!({
        "id": id,
        "game": created.id,
        "side": side.name(asked.kind),
        "url": format!("/game/{}#challenge={id}", created.id),
    });
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// Opens a challenge's link: its maker is at their seat, the first other visitor takes the
/// free one; after that, 409 (the page watches the game).
async fn take(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = player(&app, &headers).await?;
    let store = app.db().store();
    let seek = store
        .seek(&id)
        .await?
        .filter(|s| s.mode == "challenge")
        .ok_or_else(no_challenge)?;
    let (Some(game), Some(maker)) = (seek.game_id.clone(), seek.holder_side.as_deref().map(side_of)) else {
        return Err(no_challenge());
    };
    let kind = kind_of(&seek.kind)?;
    if seek.holder == me.holder {
        return Ok(Json(json!({ "game": game, "side": maker.name(kind) })));
    }
    if seek.taker.as_deref() == Some(me.holder.as_str()) {
        return Ok(Json(json!({ "game": game, "side": maker.other().name(kind) })));
    }
    me.may_play_rated(seek.rated)?;
    let Some(token) = store.take_challenge(&id, &me.holder).await? else {
        return Err(ApiError::of(
            StatusCode::CONFLICT,
            Problem::ChallengeTaken,
            "this challenge was taken by another player: the game can be watched",
        ));
    };
    let side = maker.other();
    store
        .hold_seat_as(&me.holder, &game, side_code(side), &token, now_unix_ms())
        .await?;
    Ok(Json(json!({ "game": game, "side": side.name(kind) })))
}
