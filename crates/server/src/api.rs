//! The HTTP API, shaped like lichess's Board API: create a game, stream it as NDJSON, act on it
//! with a seat token.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream;
use referee::Command;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::app::{seat, App};
use crate::codec::parse_move;
use crate::error::{ApiError, Problem};
use crate::players::seated::Seated;
use crate::table::{Ack, Table};

/// Requests are small; anything bigger is refused before it is read.
const BODY_LIMIT: usize = 4 * 1024;
/// A blank line this often keeps an idle stream open through proxies (as lichess does).
const KEEPALIVE: Duration = Duration::from_secs(7);

pub fn router(app: Arc<App>) -> Router {
    // Only the review takes a bigger body (its own limit); every other request's body is
    // held to `BODY_LIMIT`, read or not.
    let game = Router::new()
        .merge(crate::create::routes())
        .route("/api/game/{id}/pgn", get(pgn))
        .route("/api/board/game/stream/{id}", get(stream_game))
        .route("/api/board/game/{id}/move/{mv}", post(play))
        .route("/api/board/game/{id}/draw/{answer}", post(draw))
        .route("/api/board/game/{id}/takeback/{answer}", post(takeback))
        .route("/api/board/game/{id}/claim-draw", post(claim_draw))
        .route("/api/board/game/{id}/claim-victory", post(claim_victory))
        .route("/api/board/game/{id}/resign", post(resign))
        .route("/api/board/game/{id}/abort", post(abort))
        .merge(crate::console::routes())
        .merge(crate::device::routes())
        .merge(crate::event::routes())
        .merge(crate::players::routes())
        .merge(crate::watching::routes())
        .merge(crate::seeks::routes())
        .merge(crate::analyse::routes())
        .layer(axum::middleware::from_fn(small_body));
    Router::new()
        .merge(game)
        .merge(crate::review::routes().layer(axum::middleware::from_fn(review_body)))
        .merge(crate::openapi::routes())
        .merge(crate::socket::routes())
        .merge(crate::web::routes().layer(axum::middleware::from_fn_with_state(
            app.clone(),
            crate::players::page_session,
        )))
        .merge(crate::metrics::routes())
        .fallback(|| async { ApiError::of(StatusCode::NOT_FOUND, Problem::NoSuchEndpoint, "no such endpoint") })
        .layer(axum::middleware::map_response(json_errors))
        .layer(axum::middleware::from_fn_with_state(app.metrics(), count_response))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app)
}

/// Every response counted by its status class, for `/metrics`; and logged at debug level
/// (`RUST_LOG=debug`), which costs nothing when off.
async fn count_response(
    State(metrics): State<Arc<crate::metrics::Metrics>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if !tracing::enabled!(tracing::Level::DEBUG) {
        let response = next.run(request).await;
        metrics.responded(response.status());
        return response;
    }
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    metrics.responded(response.status());
    // The path without tokens: they ride in headers or fragments, never in paths.
    tracing::debug!(%method, path, status = response.status().as_u16(), micros = started.elapsed().as_micros() as u64, "request");
    response
}

fn too_large(limit: usize) -> Response {
    ApiError::of(
        StatusCode::PAYLOAD_TOO_LARGE,
        Problem::TooLarge,
        format!("request body over {} KiB", limit / 1024),
    )
    .arg("kib", limit / 1024)
    .into_response()
}

/// Whether the request declares a body longer than `limit`.
fn declares_over(request: &axum::extract::Request, limit: usize) -> bool {
    request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|n| n > limit as u64)
}

/// Refuses (413) a body over `BODY_LIMIT`: by its declared length before reading it, else
/// (chunked) once that much has come. Routes that ignore their body would otherwise take any.
async fn small_body(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if declares_over(&request, BODY_LIMIT) {
        return too_large(BODY_LIMIT);
    }
    let (parts, body) = request.into_parts();
    match axum::body::to_bytes(body, BODY_LIMIT).await {
        Ok(bytes) => {
            next.run(axum::extract::Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Err(_) => too_large(BODY_LIMIT),
    }
}

/// Refuses (413) a record declared over the review's limit before reading it; the review's own
/// extractor holds a chunked one to that limit.
async fn review_body(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if declares_over(&request, crate::review::BODY_LIMIT) {
        return too_large(crate::review::BODY_LIMIT);
    }
    next.run(request).await
}

/// axum's own rejections (bad path, wrong method, body too large) come as plain text: give
/// them the same JSON shape as ours.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let text = axum::body::to_bytes(response.into_body(), BODY_LIMIT)
        .await
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let text = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_string()
    } else {
        text
    };
    ApiError::malformed(status, text).into_response()
}

/// Who runs the game, on every answer about it in a cluster: its node's name and the URL it
/// advertised. A client may send the game's requests and sockets there to be served without
/// a forward; any node still takes them.
pub(crate) const NODE_HEADER: &str = "arbiter-node";
pub(crate) const NODE_URL_HEADER: &str = "arbiter-node-url";

pub(crate) fn owner_headers(owner: Option<&crate::cluster::Owner>) -> HeaderMap {
    let mut headers = HeaderMap::new();
    let Some(owner) = owner else { return headers };
    if let Ok(v) = owner.name.parse() {
        headers.insert(NODE_HEADER, v);
    }
    if let Some(Ok(v)) = owner.url.as_deref().map(str::parse) {
        headers.insert(NODE_URL_HEADER, v);
    }
    headers
}

/// [`owner_headers`] of game `table` as this node knows its owner (none outside a cluster).
pub(crate) async fn game_headers(app: &App, table: &Table) -> HeaderMap {
    match app.cluster() {
        Some(node) => owner_headers(node.owner(table).await.as_ref()),
        None => HeaderMap::new(),
    }
}

/// `?since=VERSION`: only the events after it (a stream's or a socket's resume).
#[derive(Deserialize)]
pub(crate) struct StreamQuery {
    pub(crate) since: Option<u64>,
}

async fn stream_game(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<StreamQuery>,
) -> Result<Response, ApiError> {
    let table = app.game(&id).await?;
    let rx = table.watch();
    // Without `since`, the state now and then what follows; with it, exactly the events after
    // that version.
    let (first, sent) = match q.since {
        None => {
            let (full, n) = table.full().await?;
            (vec![Seated::of(&app, &table).await?.into_full(full)], n)
        }
        Some(v) => {
            // Resumed on a node following the game: its lines hold every command answered.
            table.settle().await?;
            (Vec::new(), v.saturating_add(1))
        }
    };
    let pending: std::collections::VecDeque<String> = first.into();
    let mut headers = game_headers(&app, &table).await;
    headers.insert(
        header::CONTENT_TYPE,
        "application/x-ndjson".parse().expect("a header value"),
    );
    let guard = crate::metrics::StreamGuard::new(app.metrics());
    let lines = stream::unfold((table, rx, sent, pending, app.closing()), next_line);
    // The guard goes with the stream: counted open until the body is dropped.
    let lines = futures_util::StreamExt::map(lines, move |l| {
        let _ = &guard;
        l
    });
    Ok((headers, Body::from_stream(lines)).into_response())
}

type StreamState = (
    Arc<Table>,
    tokio::sync::watch::Receiver<(u64, bool)>,
    u64,
    std::collections::VecDeque<String>,
    tokio::sync::watch::Receiver<bool>,
);

async fn next_line(
    (table, mut rx, mut sent, mut pending, mut closing): StreamState,
) -> Option<(Result<String, Infallible>, StreamState)> {
    loop {
        if *closing.borrow_and_update() {
            return None;
        }
        if let Some(line) = pending.pop_front() {
            return Some((Ok(line + "\n"), (table, rx, sent, pending, closing)));
        }
        let (count, over) = *rx.borrow_and_update();
        if count > sent {
            pending.extend(table.lines_from(sent).iter().map(|l| l.to_string()));
            sent = count.max(sent);
            continue;
        }
        if over {
            return None;
        }
        tokio::select! {
            changed = tokio::time::timeout(KEEPALIVE, rx.changed()) => match changed {
                Ok(Ok(())) => {}
                Ok(Err(_)) => return None,
                Err(_) => return Some((Ok("\n".into()), (table, rx, sent, pending, closing))),
            },
            _ = closing.changed() => return None,
        }
    }
}

async fn pgn(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let table = app.game(&id).await?;
    let names = Seated::of(&app, &table).await?.record_names();
    let text = table.pgn(names).await?;
    let mut headers = game_headers(&app, &table).await;
    headers.insert(
        header::CONTENT_TYPE,
        "application/x-chess-pgn; charset=utf-8"
            .parse()
            .expect("a header value"),
    );
    Ok((headers, text).into_response())
}

/// Runs `command` for the side the request's token seats.
async fn act(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    lag: u64,
    command: impl FnOnce(&Table, game::Side) -> Result<Command, ApiError>,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    let table = app.game(id).await?;
    let auth = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let side = seat(&table, auth)?;
    app.may_act(id, side)?;
    let command = command(&table, side)?;
    let ack = table.act(side, command, lag).await?;
    Ok((game_headers(app, &table).await, Json(answer(&ack))))
}

/// The answer to a command taken: lichess answers `{"ok": true}`; a command that ended the
/// game also says how. The game socket's `ack` carries the same fields.
pub fn answer(ack: &Ack) -> Value {
    json!({
        "ok": true,
        "version": ack.version,
        "status": ack.status,
        "reason": ack.reason,
        "winner": ack.winner,
    })
}

#[derive(Deserialize)]
struct MoveQuery {
    #[serde(rename = "offeringDraw")]
    offering_draw: Option<bool>,
    /// The client's estimate of this request's network delay in ms (half its round trip),
    /// credited to its clock within a quota (see `table`).
    lag: Option<u64>,
}

async fn play(
    State(app): State<Arc<App>>,
    Path((id, mv)): Path<(String, String)>,
    Query(q): Query<MoveQuery>,
    headers: HeaderMap,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    act(&app, &id, &headers, q.lag.unwrap_or(0), |t, _| {
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
    Path((id, answer)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    act(&app, &id, &headers, 0, |_, _| match answer.as_str() {
        // `yes` accepts a standing offer by the other side, else offers (as lichess): the
        // game's task decides which, as only it knows the offer at that moment.
        "yes" | "accept" | "true" => Ok(Command::OfferDraw),
        "no" | "decline" | "false" => Ok(Command::DeclineDraw),
        _ => Err(ApiError::bad_request("draw: expected yes or no")),
    })
    .await
}

async fn takeback(
    State(app): State<Arc<App>>,
    Path((id, answer)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    act(&app, &id, &headers, 0, |_, _| match answer.as_str() {
        // `yes` asks, or accepts the other side's standing request (as lichess): the referee
        // takes asking while the opponent asks as agreeing.
        "yes" | "accept" | "true" => Ok(Command::ProposeTakeback),
        "no" | "decline" | "false" => Ok(Command::DeclineTakeback),
        _ => Err(ApiError::bad_request("takeback: expected yes or no")),
    })
    .await
}

async fn claim_draw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    act(&app, &id, &headers, 0, |_, _| Ok(Command::ClaimDraw)).await
}

async fn claim_victory(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    act(&app, &id, &headers, 0, |_, _| Ok(Command::ClaimTime)).await
}

async fn resign(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    act(&app, &id, &headers, 0, |_, _| Ok(Command::Resign)).await
}

async fn abort(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<(HeaderMap, Json<Value>), ApiError> {
    act(&app, &id, &headers, 0, |_, _| Ok(Command::Abort)).await
}
