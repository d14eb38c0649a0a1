//! Players without friction: every browser gets a session from its first page (a cookie, as
//! pychess does), may give itself a display name, and may make an account (a name and a
//! password, nothing else) that every browser signed into it shares. The seats a browser plays
//! belong to its session, or to its account once signed in, so any of its tabs or devices
//! finds them without the seat link. All of it is kept in the database, so every node of a
//! cluster knows every session.
//!
//! - [`routes`]: `/api/me`, the display name, seats bound, accounts, sign-in and out, and a
//!   player's games and ratings.
//! - [`accounts`]: the rules of names and passwords, and argon2id.

pub mod accounts;
pub mod rating;
pub mod routes;
pub mod seated;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

use crate::app::App;
use crate::codec::{random_id, token_hash};
use crate::db::now_unix_ms;
use crate::error::ApiError;

pub use routes::routes;

/// The session cookie's name.
pub const COOKIE: &str = "arbiter_session";
/// A session lasts this long unused (a year): its cookie is sent again, and its use marked,
/// on the first request of each day, and the server forgets it after as long unused.
const MAX_AGE_S: u64 = 365 * 24 * 3600;
/// A session that never did anything (no display name, account or seat) is forgotten after a
/// month unused.
const EMPTY_MAX_AGE_S: u64 = 30 * 24 * 3600;
/// How often a session's use is marked.
const TOUCH_EVERY_MS: i64 = 24 * 3600 * 1000;
/// Characters of a session id: 32 of 62 symbols, about 190 bits.
const ID_LEN: usize = 32;

/// The browser a request came from: its session (the hash of its id) as stored, and the
/// cookie to set when the session was made by this request.
pub struct Visitor {
    pub hash: String,
    pub session: store::Session,
    pub set_cookie: Option<HeaderValue>,
}

/// The session id the request's cookie carries, if it has a plausible one.
fn cookie_id(headers: &HeaderMap) -> Option<&str> {
    crate::app::cookie(headers, COOKIE).filter(|v| v.len() == ID_LEN && v.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// The `Set-Cookie` value of session `id`.
fn cookie_for(id: &str) -> HeaderValue {
    let text = format!("{COOKIE}={id}; Path=/; Max-Age={MAX_AGE_S}; HttpOnly; SameSite=Lax");
    // Built of ASCII letters, digits and punctuation only.
    HeaderValue::from_str(&text).expect("a cookie of plain ASCII")
}

/// The request's session, if its cookie names one that is stored.
pub async fn existing(app: &App, headers: &HeaderMap) -> Result<Option<Visitor>, ApiError> {
    let Some(id) = cookie_id(headers) else {
        return Ok(None);
    };
    let hash = token_hash(id);
    let store = app.db().store();
    let Some(mut session) = store.session(&hash).await? else {
        return Ok(None);
    };
    let now = now_unix_ms();
    let mut set_cookie = None;
    if now - session.seen_unix_ms >= TOUCH_EVERY_MS {
        store.touch_session(&hash, now).await?;
        session.seen_unix_ms = now;
        set_cookie = Some(cookie_for(id));
    }
    Ok(Some(Visitor {
        hash,
        session,
        set_cookie,
    }))
}

/// Forgets the sessions nobody uses any more (see [`MAX_AGE_S`], [`EMPTY_MAX_AGE_S`]); how
/// many.
pub async fn forget_unused(app: &App) -> Result<u64, sqlx::Error> {
    let now = now_unix_ms();
    let ago = |s: u64| now - (s * 1000) as i64;
    app.db()
        .store()
        .forget_sessions(ago(MAX_AGE_S), ago(EMPTY_MAX_AGE_S))
        .await
}

/// A new session, not yet stored (a sign-in stores it with its account), and its cookie.
fn unstored() -> Visitor {
    let id = random_id(ID_LEN);
    Visitor {
        hash: token_hash(&id),
        session: store::Session {
            display_name: None,
            account: None,
            seen_unix_ms: now_unix_ms(),
        },
        set_cookie: Some(cookie_for(&id)),
    }
}

/// A new session, stored; its cookie is to be set on the response.
pub async fn fresh(app: &App) -> Result<Visitor, ApiError> {
    let v = unstored();
    app.db().store().create_session(&v.hash, now_unix_ms()).await?;
    Ok(v)
}

/// The request's session, made now when it has none.
pub async fn visitor(app: &App, headers: &HeaderMap) -> Result<Visitor, ApiError> {
    match existing(app, headers).await? {
        Some(v) => Ok(v),
        None => fresh(app).await,
    }
}

/// Sets `visitor`'s cookie on `response` if it was made for it.
pub fn with_cookie(visitor: &Visitor, mut response: Response) -> Response {
    if let Some(c) = &visitor.set_cookie {
        response.headers_mut().append(header::SET_COOKIE, c.clone());
    }
    response
}

/// Every page gives a browser without a valid session one (the page itself needs nothing of
/// it: the cookie is what the API calls that follow carry). A database that does not answer
/// leaves the page served without one.
pub async fn page_session(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    // The files a page loads come after the page, whose answer set the cookie.
    if request.uri().path().starts_with("/static/") {
        return next.run(request).await;
    }
    let known = existing(&app, request.headers()).await;
    let response = next.run(request).await;
    match known {
        Ok(Some(v)) => with_cookie(&v, response),
        Ok(None) => match fresh(&app).await {
            Ok(v) => with_cookie(&v, response),
            Err(e) => {
                tracing::warn!(error = %e, "could not make a session");
                response
            }
        },
        Err(e) => {
            tracing::warn!(error = %e, "could not read the session");
            response
        }
    }
}
