//! Who a request is in an event, by its bearer token: the organiser (who runs it), an entrant
//! (who plays in it; the same token seats them in each of their games), or nobody. Tokens are
//! kept as hashes only, per event: one event's token is worthless in another.

use axum::http::{HeaderMap, StatusCode};

use super::event_error;
use crate::app::App;
use crate::codec::token_hash;
use crate::error::{ApiError, Problem};

/// Who holds the token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Organiser,
    Entrant(u32),
}

/// The entrant number the store keeps for the organiser's token.
pub const ORGANISER: u32 = 0;

fn unauthorized() -> ApiError {
    ApiError::of(
        StatusCode::UNAUTHORIZED,
        Problem::NoEventToken,
        "missing or malformed Authorization: Bearer <event token>",
    )
}

/// The request's bearer token, or 401.
pub fn bearer(headers: &HeaderMap) -> Result<&str, ApiError> {
    crate::app::bearer_of(headers).ok_or_else(unauthorized)
}

/// Who the request's token is in event `id`: 401 without one, 403 when it is no one's there.
pub async fn role(app: &App, id: &str, headers: &HeaderMap) -> Result<Role, ApiError> {
    let token = bearer(headers)?;
    match app
        .db()
        .store()
        .event_token(id, &token_hash(token))
        .await
        .map_err(event_error)?
    {
        Some(ORGANISER) => Ok(Role::Organiser),
        Some(n) => Ok(Role::Entrant(n)),
        None => Err(ApiError::of(
            StatusCode::FORBIDDEN,
            Problem::NotInEvent,
            "this token is neither the organiser's nor an entrant's in this event",
        )),
    }
}

/// The organiser, or 401/403.
pub async fn organiser(app: &App, id: &str, headers: &HeaderMap) -> Result<(), ApiError> {
    match role(app, id, headers).await? {
        Role::Organiser => Ok(()),
        Role::Entrant(_) => Err(ApiError::of(
            StatusCode::FORBIDDEN,
            Problem::OrganiserOnly,
            "only the event's organiser may do this",
        )),
    }
}

/// The entrant the token is, or 401/403.
pub async fn entrant(app: &App, id: &str, headers: &HeaderMap) -> Result<u32, ApiError> {
    match role(app, id, headers).await? {
        Role::Entrant(n) => Ok(n),
        Role::Organiser => Err(ApiError::of(
            StatusCode::FORBIDDEN,
            Problem::OrganiserPlaysNot,
            "the organiser's token plays in no pairing: use an entrant's",
        )),
    }
}
