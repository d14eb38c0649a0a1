//! The players' routes: the session's own (`/api/me…`), accounts, and a player's games.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use game::{Kind, Side};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{accounts, fresh, visitor, with_cookie, Visitor};
use crate::app::App;
use crate::db::now_unix_ms;
use crate::error::{ApiError, Problem};

/// Games a player's page lists at most.
const PLAYED_MAX: u32 = 200;

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/me", get(me))
        .route("/api/me/name", post(set_name))
        .route("/api/me/seat", post(hold_seat))
        .route("/api/account", post(create_account))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/player/{name}", get(player))
}

fn json_body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(t)| t)
        .map_err(|e| ApiError::malformed(e.status(), e.body_text()))
}

/// `first`/`second` as stored, named for the game (`red`, `white`, `black`).
fn side_name(kind: &str, side: &str) -> &'static str {
    let kind = kind.parse::<Kind>().unwrap_or(Kind::Chess);
    let side = if side == "first" { Side::First } else { Side::Second };
    side.name(kind)
}

fn side_code(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// What `/api/me` answers for `v`.
async fn me_of(app: &App, v: &Visitor) -> Result<Value, ApiError> {
    let seats = app.db().store().held_seats(&v.hash, &v.session).await?;
    let seats: Vec<Value> = seats
        .iter()
        .map(|s| json!({ "game": s.game_id, "side": side_name(&s.kind, &s.side), "token": s.token }))
        .collect();
    Ok(json!({
        "name": v.session.display_name.as_deref().or(v.session.account.as_deref()),
        "account": v.session.account,
        "seats": seats,
    }))
}

fn answer(v: &Visitor, body: Value) -> Response {
    with_cookie(v, Json(body).into_response())
}

async fn me(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let v = visitor(&app, &headers).await?;
    let body = me_of(&app, &v).await?;
    Ok(answer(&v, body))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NameRequest {
    name: String,
}

async fn set_name(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Json<NameRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let name = accounts::display_name(&json_body(body)?.name)?;
    let mut v = visitor(&app, &headers).await?;
    app.db().store().set_display_name(&v.hash, &name).await?;
    v.session.display_name = Some(name);
    let body = me_of(&app, &v).await?;
    Ok(answer(&v, body))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    game: String,
    token: String,
}

/// A seat opened by its link in a browser: bound to the browser's session (or account), so
/// its other tabs find it.
async fn hold_seat(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Json<SeatRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let req = json_body(body)?;
    let table = app.game(&req.game).await?;
    if req.token.is_empty() || req.token.len() > 128 {
        return Err(ApiError::Forbidden);
    }
    let side = table.seat(&req.token).ok_or(ApiError::Forbidden)?;
    let v = visitor(&app, &headers).await?;
    bind(&app, &v, &req.game, side, &req.token).await?;
    let body = json!({ "game": req.game, "side": side.name(table.spec.kind) });
    Ok(answer(&v, body))
}

/// Binds a seat whose token was checked to `v`.
pub async fn bind(app: &App, v: &Visitor, game: &str, side: Side, token: &str) -> Result<(), ApiError> {
    app.db()
        .store()
        .hold_seat((&v.hash, &v.session), game, side_code(side), token, now_unix_ms())
        .await?;
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// Signs `v` into `account`: a new session id (never the one before), the old one's seats
/// handed to the account.
async fn sign_in(app: &App, v: &Visitor, account: &str) -> Result<Response, ApiError> {
    let mut next = super::unstored();
    app.db()
        .store()
        .sign_in(&v.hash, &next.hash, account, now_unix_ms())
        .await?;
    next.session = store::Session {
        display_name: v.session.display_name.clone(),
        account: Some(account.to_string()),
        seen_unix_ms: now_unix_ms(),
    };
    let body = me_of(app, &next).await?;
    Ok(answer(&next, body))
}

async fn create_account(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let req = json_body(body)?;
    accounts::check_name(&req.name)?;
    accounts::check_password(&req.password)?;
    app.may_create(client.ip())?;
    let v = visitor(&app, &headers).await?;
    let password = req.password;
    let hash = accounts::off_thread(move || accounts::hash(&password)).await??;
    match app.db().store().create_account(&req.name, &hash, now_unix_ms()).await {
        Ok(()) => {}
        Err(store::AccountError::Taken(name)) => {
            return Err(ApiError::of(
                StatusCode::CONFLICT,
                Problem::NameTaken,
                format!("the name {name:?} is taken"),
            )
            .arg("name", name))
        }
        Err(store::AccountError::Db(e)) => return Err(e.into()),
    }
    sign_in(&app, &v, &req.name).await
}

async fn login(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let req = json_body(body)?;
    if req.name.is_empty()
        || req.name.chars().count() > accounts::NAME_MAX
        || req.password.len() > accounts::PASSWORD_MAX
    {
        return Err(wrong());
    }
    app.may_log_in(&req.name.to_lowercase())?;
    let account = app.db().store().account(&req.name).await?;
    let (name, stored) = match account {
        Some((name, stored)) => (name, Some(stored)),
        None => (String::new(), None),
    };
    let password = req.password;
    let ok = accounts::off_thread(move || accounts::verify_or_not(&password, stored.as_deref())).await?;
    if !ok {
        return Err(wrong());
    }
    let v = visitor(&app, &headers).await?;
    sign_in(&app, &v, &name).await
}

fn wrong() -> ApiError {
    ApiError::of(
        StatusCode::UNAUTHORIZED,
        Problem::WrongPassword,
        "wrong name or password",
    )
}

/// Signs out: the session ends (its own seats with it; the account's stay the account's) and
/// the browser gets a new one.
async fn logout(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(v) = super::existing(&app, &headers).await? {
        app.db().store().end_session(&v.hash).await?;
    }
    let v = fresh(&app).await?;
    let body = me_of(&app, &v).await?;
    Ok(answer(&v, body))
}

/// The game's outcome for the side `side` (`first`/`second`) held: `win`, `loss`, `draw`, or
/// nothing (in play, or no result).
fn score(outcome: Option<&str>, side: &str) -> Option<&'static str> {
    match (outcome?, side) {
        ("1/2-1/2", _) => Some("draw"),
        ("1-0", "first") | ("0-1", "second") => Some("win"),
        ("1-0", _) | ("0-1", _) => Some("loss"),
        _ => None,
    }
}

/// A player's page's data: their games, newest first, and their ratings.
async fn player(State(app): State<Arc<App>>, Path(name): Path<String>) -> Result<Json<Value>, ApiError> {
    let store = app.db().store();
    let Some((name, _)) = store.account(&name).await? else {
        return Err(ApiError::of(
            StatusCode::NOT_FOUND,
            Problem::NoSuchPlayer,
            format!("no player {name:?}"),
        )
        .arg("name", name));
    };
    let games = store.played_games(&name, PLAYED_MAX).await?;
    let games: Vec<Value> = games
        .iter()
        .map(|g| {
            json!({
                "id": g.game_id,
                "kind": g.kind,
                "side": side_name(&g.kind, &g.side),
                "live": !g.finished,
                "result": g.result,
                "outcome": g.outcome,
                "score": score(g.outcome.as_deref(), &g.side),
                "createdAt": g.created_unix_ms,
                "opponent": g.opponent,
                "url": format!("/game/{}", g.game_id),
            })
        })
        .collect();
    let ratings: Vec<Value> = store
        .player_ratings(&name)
        .await?
        .iter()
        .map(|r| {
            let state: Value = serde_json::from_str(&r.state).unwrap_or(Value::Null);
            json!({ "list": r.list, "system": r.system, "state": state })
        })
        .collect();
    Ok(Json(json!({ "name": name, "games": games, "ratings": ratings })))
}
